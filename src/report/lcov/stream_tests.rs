//! Tests of the LCOV reader: limits, streams, read errors, warnings and messages.

use super::identity::*;
use super::support_tests::*;
use super::*;
use crate::demangle::demangle_rust;
use crate::report::clip;

#[test]
fn a_line_over_the_limit_is_an_error_naming_it() {
    // Line 2 is `DA:1,999…`, MAX_LINE + 1 bytes long.
    let mut text = b"SF:a.c\nDA:1,".to_vec();
    text.resize("SF:a.c\n".len() + MAX_LINE + 1, b'9');
    let e = read_err(&text);
    assert!(
        e.starts_with("t.info:2: the line is longer than 16777216 bytes"),
        "{}",
        clip(&e)
    );
    // The same with a byte that is not UTF-8 (the line is checked before it is decoded).
    let last = text.len() - 1;
    text[last] = 0xFF;
    let e = read_err(&text);
    assert!(
        e.starts_with("t.info:2: the line is longer than 16777216 bytes"),
        "{}",
        clip(&e)
    );
    text[last] = b'9';
    // One byte less is a line of exactly MAX_LINE bytes: read, and its count is too large.
    text.pop();
    let e = read_err(&text);
    assert!(
        e.starts_with("t.info:2: DA execution count `999"),
        "{}",
        clip(&e)
    );
    assert!(
        e.len() < 1000,
        "the message quotes a clipped field: {}",
        e.len()
    );
}

#[test]
fn a_stream_is_read_line_by_line_like_bytes() {
    for text in [
        "SF:a.c\nDA:1,1\nDA:2,0\nend_of_record\n",
        "\u{FEFF}SF:a.c\r\nDA:1,1\r\nend_of_record",
        "SF:a.c\nDA:1,1\n\n\nSF:b.c\nXYZ:1\n",
    ] {
        let (streamed, streamed_warnings) = read_stream(text.as_bytes()).expect(text);
        let (whole, whole_warnings) = read_ok(text);
        assert_eq!(streamed_warnings, whole_warnings, "{text:?}");
        assert_eq!(streamed.files.len(), whole.files.len(), "{text:?}");
        for (a, b) in streamed.files.iter().zip(&whole.files) {
            assert_eq!(a.path, b.path);
            assert_eq!(lcov_of(a).summary(), lcov_of(b).summary());
        }
    }
    let e = read_stream(&b"SF:a.c\nDA:1,x\n"[..])
        .map(|_| ())
        .expect_err("bad DA");
    assert!(e.starts_with("t.info:2: DA execution count `x`"), "{e}");
}

#[test]
fn an_endless_line_in_a_stream_stops_at_the_limit() {
    // `repeat` never ends: the reader must stop after MAX_LINE + 1 bytes of the line.
    let input = std::io::Read::chain(&b"SF:a.c\nDA:1,"[..], std::io::repeat(b'9'));
    let e = read_stream(input).map(|_| ()).expect_err("endless line");
    assert!(
        e.starts_with("t.info:2: the line is longer than"),
        "{}",
        clip(&e)
    );
}

/// Gives `good`, then fails.
struct Failing(&'static [u8]);

impl std::io::Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.0.is_empty() {
            return Err(std::io::Error::other("disk on fire"));
        }
        let n = self.0.len().min(buf.len());
        let (now, later) = self.0.split_at(n);
        buf[..n].copy_from_slice(now);
        self.0 = later;
        Ok(n)
    }
}

#[test]
fn a_read_error_names_the_line() {
    let e = read_stream(Failing(b"SF:a.c\nDA:1,1\n"))
        .map(|_| ())
        .expect_err("read error");
    assert_eq!(e, "t.info:3: cannot read the report: disk on fire");
}

/// Interrupted once per read, then gives the next byte of `self.0`.
struct Interrupting(&'static [u8], bool);

impl std::io::Read for Interrupting {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.1 = !self.1;
        if self.1 {
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        let Some((first, rest)) = self.0.split_first() else {
            return Ok(0);
        };
        buf[0] = *first;
        self.0 = rest;
        Ok(1)
    }
}

#[test]
fn interrupted_reads_are_retried() {
    let (report, warnings) =
        read_stream(Interrupting(b"SF:a.c\nDA:1,1\nend_of_record\n", false)).expect("reads");
    assert_eq!(warnings, Vec::<String>::new());
    assert_eq!(lcov(&report, 0).summary().lines, c(1, 1));
}

#[test]
fn a_nul_byte_in_a_path_is_an_error() {
    let e = read_err(b"SF:src/\0lib.rs\nDA:1,1\nend_of_record\n");
    assert_eq!(
            e,
            "t.info:1: SF: path \"src/\\0lib.rs\" holds a NUL byte, which no file system allows in a path"
        );
}

#[test]
fn warnings_stop_at_the_limit_and_count_the_rest() {
    let mut text = String::from("SF:a.c\n");
    for i in 0..MAX_WARNINGS + 50 {
        text.push_str(&format!("XYZ{i}:1\n"));
    }
    let (report, warnings) = read_ok(&text);
    assert_eq!(warnings.len(), MAX_WARNINGS + 1);
    assert_eq!(report.warnings, warnings);
    assert_eq!(
        warnings.first().map(String::as_str),
        Some("t.info:2: unknown record type `XYZ0` skipped")
    );
    assert_eq!(
        warnings.last().map(String::as_str),
        Some("t.info: 51 more warning(s) not shown"),
        "50 unknown records and the missing end_of_record"
    );
}

#[test]
fn a_line_that_is_no_record_is_an_error_and_an_unknown_record_a_warning() {
    for (line, at) in [
        ("garbage", "t.info:2: `garbage` is not an LCOV record"),
        (
            "\u{1}\u{2}:3",
            "t.info:2: `\u{1}\u{2}:3` is not an LCOV record",
        ),
        ("1DA:1,1", "t.info:2: `1DA:1,1` is not an LCOV record"),
        ("D A:1,1", "t.info:2: `D A:1,1` is not an LCOV record"),
        (":1", "t.info:2: `:1` is not an LCOV record"),
    ] {
        let e = read_err(format!("SF:a.c\n{line}\nDA:1,1\nend_of_record\n").as_bytes());
        assert!(e.starts_with(at), "{line:?}: {e}");
    }
    let (_, warnings) = read_ok("SF:a.c\nXYZ_2:whatever, it is\nDA:1,1\nend_of_record\n");
    assert_eq!(warnings, ["t.info:2: unknown record type `XYZ_2` skipped"]);
}

#[test]
fn long_fields_are_clipped_in_messages() {
    let long = "7".repeat(5000);
    let e = read_err(format!("SF:a.c\nDA:{long},1\n").as_bytes());
    assert!(e.contains("… (5000 bytes)"), "{e}");
    assert!(e.len() < 600, "{e}");
    let e = read_err(format!("SF:a.c\nDA:1,{long}\n").as_bytes());
    assert!(e.contains("… (5000 bytes)") && e.len() < 600, "{e}");
    let e = read_err(format!("SF:a.c\nend_of_record{long}\n").as_bytes());
    assert!(e.contains("… (5000 bytes)") && e.len() < 600, "{e}");
    let e = read_err(format!("SF:a.c\n{long}\n").as_bytes());
    assert!(e.contains("… (5000 bytes)") && e.len() < 600, "{e}");
    let tag = "Q".repeat(5000);
    let (_, warnings) = read_ok(&format!("SF:a.c\n{tag}:1\nSF:{long}\nSF:b\n"));
    assert_eq!(warnings.len(), 4, "{warnings:?}");
    assert!(warnings.iter().all(|w| w.len() < 600), "{warnings:?}");
    let clipped = warnings
        .iter()
        .filter(|w| w.contains("… (5000 bytes)"))
        .count();
    assert_eq!(
        clipped, 2,
        "the unknown tag and the unclosed long path: {warnings:?}"
    );
}

/// A v0 symbol whose back-reference points into itself: rustc-demangle expands it to its
/// 1 MB limit (found by the `lcov` fuzz target as a timeout).
const EXPANDING: &str = "_RNCNvXNtCscpBoQPaMcWV_6semver7displayNtB3_7VersiovXNtCscpBoQPaMcWV\
                             _6semver7displayNtB3_7VersionNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmts_0B6_";

#[test]
fn symbols_that_expand_without_end_keep_their_mangled_name_fast() {
    assert_eq!(demangle_rust(EXPANDING), None);
    assert_eq!(function_identity(EXPANDING), EXPANDING);
    assert_eq!(
        demangle_rust("_RNvCs7zRqp3NVN0z_4tiny9perimeter").as_deref(),
        Some("tiny::perimeter")
    );
    assert_eq!(demangle_rust("perimeter"), None);
    let mut text = String::from("SF:a.rs\n");
    for line in 1..=1000 {
        text.push_str(&format!("FN:{line},{EXPANDING}\nFNDA:0,{EXPANDING}\n"));
    }
    text.push_str("end_of_record\n");
    let started = std::time::Instant::now();
    let (report, _) = read_ok(&text);
    assert_eq!(lcov(&report, 0).summary().functions, c(0, 1000));
    // A guard against the megabyte expansions (minutes without the limit), not a benchmark:
    // the bound is loose so a busy CI machine passes it.
    assert!(
        started.elapsed().as_secs_f64() < 20.0,
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn da_records_off_the_plain_path_read_alike_or_fail_alike() {
    // A checksum, blanks, a zero count and 19-digit numbers take the general path, or the
    // plain one, to the same lines.
    let (r, _) = read_ok(
        "SF:a.c\nDA:1,1,qL6kTfK8yw\nDA: 2 , 3\nDA:3,0\nDA:4,9999999999999999999\nend_of_record\n",
    );
    assert_eq!(
        lcov(&r, 0).lines.unpack(),
        [(1, 1), (2, 3), (3, 0), (4, 9_999_999_999_999_999_999)]
    );
    for (line, message) in [
        (
            "DA:4294967296,1",
            "t.info:2: DA line `4294967296` is too large",
        ),
        ("DA:3", "t.info:2: DA: missing execution count"),
        ("DA:1,-1", "t.info:2: DA execution count `-1` is negative"),
        (
            "DA:x,1",
            "t.info:2: DA line `x` is not a non-negative decimal",
        ),
    ] {
        let e = read_err(format!("SF:a.c\n{line}\nend_of_record\n").as_bytes());
        assert!(e.starts_with(message), "{line:?}: {e}");
    }
}
