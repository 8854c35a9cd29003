//! Reading coverage reports (llvm-cov JSON exports and LCOV tracefiles) into the coverage model.
//!
//! The format is detected from the content, never the file name: a document whose first
//! non-whitespace byte (after an optional UTF-8 BOM) is `{` is an llvm-cov JSON export, anything
//! else is read as LCOV. An empty input is an error.
//!
//! Input: every report read from a stream or a file goes through one buffered window
//! (`input::Window`); its first bytes decide the format without being consumed, so the reader
//! that takes over starts at byte 0. Memory: an LCOV tracefile is parsed a window of whole lines
//! at a time (a line of at most [`lcov::MAX_LINE`] bytes); an llvm-cov JSON export is parsed in
//! chunks in one streaming pass (see [`llvm_json`]). Input quoted in messages is clipped
//! ([`clip`]).

pub(crate) mod input;
pub mod lcov;
pub mod llvm_json;

use std::borrow::Cow;
use std::io::{BufRead, Read};
use std::path::Path;

use crate::error::{Error, Result};
use input::{FirstByte, Window, BOM};
use llvm_json::Pass;

pub use llvm_json::Detail;

/// The format (and version) of one report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReportKind {
    /// `llvm-cov export -format=text` (or `cargo llvm-cov --json`), with its `version` string.
    LlvmJson {
        /// The export's `version` field, e.g. `"3.1.0"`.
        version: String,
        /// True for a `-summary-only` export (no `functions`, no per-file detail).
        summary_only: bool,
    },
    /// An LCOV tracefile.
    Lcov,
}

impl ReportKind {
    /// A short human description, e.g. `llvm-cov JSON 3.1.0` or `LCOV`.
    pub fn describe(&self) -> String {
        match self {
            ReportKind::LlvmJson {
                version,
                summary_only: false,
            } => format!("llvm-cov JSON {version}"),
            ReportKind::LlvmJson {
                version,
                summary_only: true,
            } => format!("llvm-cov JSON {version} (summary only)"),
            ReportKind::Lcov => "LCOV".to_string(),
        }
    }
}

/// One report as read, before path normalisation.
#[derive(Debug, Clone)]
pub struct Report {
    /// Where it came from: the path given on the command line, or `<stdin>`.
    pub origin: String,
    /// Detected format and version.
    pub kind: ReportKind,
    /// cargo-llvm-cov's `cargo_llvm_cov.manifest_path`, when present (a hint for the root).
    pub manifest_path: Option<String>,
    /// False when the report holds no branch record at all (a JSON export made without
    /// `--branch`; an LCOV tracefile without any `BRDA`, as stable `cargo llvm-cov --lcov` writes):
    /// branches are then unavailable, not 0 of 0.
    pub has_branch_data: bool,
    /// True when a file of the report counts MC/DC conditions (an llvm-cov JSON export of a
    /// build with `-fcoverage-mcdc` that has a decision of two or more conditions). MC/DC is
    /// then decided per file: counted where a file has conditions, 0 of 0 for a file without
    /// branches, unavailable for a file with branches but no condition (maybe built without
    /// `-fcoverage-mcdc`; see `measure`). False for LCOV and for other exports, where MC/DC is
    /// unavailable for every file.
    pub has_mcdc_data: bool,
    /// False for an LCOV tracefile without any function record (`FN`, `FNDA`, `FNL`, `FNA`) and
    /// without any declared `FNF` above 0: its writer does not record functions (gcov2lcov,
    /// Dart's `format_coverage`, coverage.py before 7.6.2, llvm-cov's `-skip-functions` output
    /// rewritten by lcov), so functions are unavailable, not 0 of 0. True for JSON exports.
    pub has_function_data: bool,
    /// As `has_function_data`, for lines: an LCOV tracefile without any `DA` record or declared
    /// `LF` above 0 (a writer of functions only) measures no line.
    pub has_line_data: bool,
    /// Files as the report names them (raw, unnormalised paths), in report order.
    pub files: Vec<FileData>,
    /// Problems that did not stop the read, each `"<origin>:<line>: …"` (LCOV: unknown records,
    /// a missing final `end_of_record`, …). `covgate check` prints them on stderr.
    pub warnings: Vec<String>,
}

/// One file of a report, under the path the report gives it.
#[derive(Debug, Clone)]
pub struct FileData {
    /// The path exactly as written in the report (`SF:` or `filename`).
    pub path: String,
    /// The coverage behind the file's numbers.
    pub coverage: FileCoverage,
}

/// The coverage of one file, by input format. Boxed either way (16 bytes inline): a check
/// moves each file out of its report and frees it once it is judged, and on 189,000 files
/// the reports' vectors of inline files (168 bytes a file) could only be freed whole.
#[derive(Debug, Clone)]
pub enum FileCoverage {
    /// LCOV records of the file (all sections of one path merged).
    Lcov(Box<lcov::LcovFile>),
    /// llvm-cov JSON summary and function detail of the file.
    Llvm(Box<llvm_json::LlvmFile>),
}

/// Reads one report from its bytes, detecting the format.
///
/// Errors: empty input; malformed JSON or LCOV (with file and line); an unknown major version.
pub fn read(origin: &str, bytes: &[u8]) -> Result<Report> {
    let body = bytes.strip_prefix(BOM).unwrap_or(bytes);
    if half_zero(body) == Some(true) {
        return Err(utf16(origin));
    }
    match body.iter().find(|b| !b.is_ascii_whitespace()) {
        None => Err(empty(origin)),
        Some(b'{') => llvm_json::read(origin, bytes),
        Some(&first) if refused(first) => Err(neither(origin, first)),
        Some(_) => lcov::read(origin, bytes),
    }
}

/// Reads one report from a stream (standard input), detecting the format as [`read`] does. An
/// LCOV tracefile is streamed ([`lcov::read_from`]), so a huge line or file costs no more memory
/// than one line; an llvm-cov JSON export is streamed in chunks ([`llvm_json::read_local`]),
/// keeping the records `detail` asks for: the stream is read once, and memory follows the
/// verdict, not the export.
///
/// Errors: as [`read`]; a read error of `input`; more than [`lcov::MAX_LINE`] bytes of blank
/// space before the first character.
pub fn read_from(origin: &str, mut input: impl BufRead, detail: Detail<'_>) -> Result<Report> {
    read_stream(origin, &mut input, detail)
}

/// Reads one report file, detecting the format as [`read`] does. The file is opened once and
/// read once, from its start (an LCOV tracefile reduced as it is read may be read a second
/// time, see below):
///
/// - a regular file is streamed in both formats: an LCOV tracefile line by line (with
///   [`Detail::Needed`], each file reduced to what its verdict needs once it is read, unless it
///   may carry markers; read again keeping every record when a reduced file's path comes again:
///   see [`lcov::LcovFile::is_reduced`]), an llvm-cov JSON export in chunks
///   ([`llvm_json::read_stream`], keeping the records `detail` asks for), so memory follows what
///   the verdict needs rather than the file's size;
/// - anything else (a FIFO, `<(…)`, a device) is read as standard input is ([`read_from`]).
///
/// Either way an error of the document is worded in that one pass, with its line and column.
///
/// Errors: as [`read_from`]; the file cannot be opened or read.
pub fn read_file(origin: &str, path: &Path, detail: Detail<'_>) -> Result<Report> {
    llvm_json::read_counting(detail, &mut |detail| read_file_once(origin, path, detail))
}

/// One pass of [`read_file`] (an llvm-cov JSON export in a regular file may ask for another:
/// [`llvm_json::Pass::Recount`]).
fn read_file_once(origin: &str, path: &Path, detail: Detail<'_>) -> Result<Pass> {
    let file = std::fs::File::open(path)
        .map_err(|e| Error::new(format!("{origin}: cannot read the report: {e}")))?;
    if !file.metadata().is_ok_and(|meta| meta.is_file()) {
        return read_stream(origin, &mut std::io::BufReader::new(&file), detail).map(Pass::Done);
    }
    match read_regular(origin, &file, detail)? {
        Some(pass) => Ok(pass),
        // A tracefile whose files were reduced as they were read named a reduced file again.
        None => read_file_once(origin, path, Detail::All),
    }
}

/// A regular file, read from its start as [`read_file`] says; `None` when it must be read again
/// with [`Detail::All`] ([`read_lcov`]).
fn read_regular(origin: &str, file: &std::fs::File, detail: Detail<'_>) -> Result<Option<Pass>> {
    let mut input = file;
    let mut window = Window::new(&mut input as &mut (dyn Read + Send), DETECT_CHUNK);
    match first_byte(origin, &mut window)? {
        Some(b'{') => llvm_json::read_stream(origin, &mut window, detail).map(Some),
        Some(first) if refused(first) => Err(neither(origin, first)),
        Some(_) => read_lcov(origin, &mut window, detail).map(|read| read.map(Pass::Done)),
        None => Err(empty(origin)),
    }
}

/// A tracefile in a regular file. With [`Detail::Needed`], each file is reduced to what its
/// verdict needs once it is read, as a JSON file keeps only its misses (except the files that
/// may carry markers: [`lcov::read_window_reduced`]); `None` when a reduced file's path came
/// again in a later section (a tracefile of shards whose first shard is longer than a window
/// of the reader), whose records cannot be merged: the file is then read again, keeping every
/// record. Standard input, which cannot be read twice, keeps every record from the start.
fn read_lcov<R: ?Sized + Read>(
    origin: &str,
    window: &mut Window<'_, R>,
    detail: Detail<'_>,
) -> Result<Option<Report>> {
    let read = match detail {
        Detail::Needed(marked) => lcov::read_window_reduced(origin, window, marked)?,
        Detail::All => Some(lcov::read_window(origin, window)?),
    };
    Ok(read.map(|(report, _)| report))
}

/// [`read_from`], compiled once (a generic function would be compiled, and measured, per input
/// type).
fn read_stream(origin: &str, input: &mut dyn Read, detail: Detail<'_>) -> Result<Report> {
    let mut window = Window::new(input, DETECT_CHUNK);
    match first_byte(origin, &mut window)? {
        Some(b'{') => llvm_json::read_local(origin, &mut window, detail),
        Some(first) if refused(first) => Err(neither(origin, first)),
        Some(_) => lcov::read_window(origin, &mut window).map(|(report, _)| report),
        None => Err(empty(origin)),
    }
}

/// Bytes read at a time while the format is detected: a JSON reader then reads through the
/// window, which keeps no more than this; the LCOV reader reads larger windows
/// ([`lcov::STREAM_CHUNK`]).
const DETECT_CHUNK: usize = 64 << 10;

/// The first byte of a report that is not part of a byte-order mark or blank space, left in
/// `window` with everything before it (so line and column numbers stay those of the input).
/// `None` for an empty or blank input.
/// UTF-16 text without a byte-order mark ([`half_zero`]) is an error that says so.
fn first_byte<R: ?Sized + Read>(origin: &str, window: &mut Window<'_, R>) -> Result<Option<u8>> {
    let first = window.first_byte(lcov::MAX_LINE).map_err(|e| match e {
        FirstByte::Blank => Error::new(format!(
            "{origin}: more than {} bytes of blank space before the first character; not a \
             coverage report",
            lcov::MAX_LINE
        )),
        FirstByte::Io(e) => Error::new(format!("{origin}: cannot read the report: {e}")),
    })?;
    // The first byte is in the window: at most one more read brings the byte after it.
    let body = |window: &Window<'_, R>| {
        let unread = window.unread();
        half_zero(unread.strip_prefix(BOM).unwrap_or(unread))
    };
    while body(window).is_none() && window.more() {}
    if body(window) == Some(true) {
        return Err(utf16(origin));
    }
    Ok(first)
}

/// Whether exactly one of the first character's two bytes is 0, the character being the first
/// byte of `body` (without its byte-order mark) that is not blank space, and the byte after it
/// ([`crate::text::ascii_in_utf16`]):
/// an ASCII character of UTF-16 text without a byte-order mark (little-endian `{` 0, as an
/// editor may save PowerShell's output, or big-endian 0 `{`), which neither format holds (two 0
/// bytes are no character: `/dev/zero` is read as LCOV, whose reader words its error). `None`
/// when `body` ends at that byte or before it.
fn half_zero(body: &[u8]) -> Option<bool> {
    let at = body.iter().position(|b| !b.is_ascii_whitespace())?;
    let pair = body.get(at..at + 2)?;
    Some(crate::text::ascii_in_utf16(pair))
}

/// The error for a report that is UTF-16 text.
fn utf16(origin: &str) -> Error {
    Error::new(format!("{origin}: the report {}", crate::text::UTF16))
}

/// True for a first byte that starts neither format and says what the input is instead: `[`
/// (a JSON array), 0x1F (the first byte of gzip's magic number, `1F 8B`), 0xFF, 0xFE (a
/// UTF-16 byte-order mark `FF FE` or `FE FF`, as Windows PowerShell 5.1's `>` writes; without
/// one, see [`half_zero`]). Any other byte is read as LCOV, whose reader words its own error.
fn refused(first: u8) -> bool {
    matches!(first, b'[' | 0x1F | 0xFF | 0xFE)
}

/// The error for a report whose first byte is [`refused`].
fn neither(origin: &str, first: u8) -> Error {
    let what = match first {
        b'[' => "starts with `[`, a JSON array: an llvm-cov export is a JSON object (`{\"data\": [...], \"type\": \"llvm.coverage.json.export\", ...}`) and an LCOV tracefile is text; pass the export itself",
        0x1F => "is compressed (gzip); decompress it first (`gunzip`)",
        _ => return utf16(origin),
    };
    Error::new(format!("{origin}: the report {what}"))
}

fn empty(origin: &str) -> Error {
    Error::new(format!(
        "{origin}: the report is empty; produce it with `cargo llvm-cov --json --output-path FILE` or `--lcov`"
    ))
}

/// The longest piece of input quoted in a message, in characters.
pub const QUOTE_LIMIT: usize = 200;

/// `text` ready to quote in a message: unchanged when it has at most [`QUOTE_LIMIT`] characters,
/// else its first [`QUOTE_LIMIT`] characters, `…` and its length in bytes. Input is untrusted, and
/// one huge field must not make a huge message.
pub fn clip(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(QUOTE_LIMIT) {
        None => Cow::Borrowed(text),
        Some((end, _)) => Cow::Owned(format!(
            "{}… ({} bytes)",
            text.get(..end).unwrap_or(text),
            text.len()
        )),
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use std::io::{BufReader, Read};

    use super::*;

    const JSON: &str = r#"{"type":"llvm.coverage.json.export","version":"2.0.1","data":[{"files":[
        {"filename":"a.rs","summary":{"lines":{"count":2,"covered":1},"functions":{"count":1,"covered":1},
        "instantiations":{"count":1,"covered":1},"regions":{"count":1,"covered":1}}}]}]}"#;

    fn stream(input: impl Read) -> std::result::Result<Report, String> {
        read_from("r", BufReader::new(input), Detail::All).map_err(|e| e.message().to_string())
    }

    #[test]
    fn a_stream_is_read_as_its_bytes_are() {
        for text in [
            JSON.to_string(),
            format!("\u{FEFF}\n  \n{JSON}"),
            "SF:a.rs\nDA:1,1\nend_of_record\n".to_string(),
            "\u{FEFF}  \n\n SF:a.rs\nDA:1,0\n".to_string(),
        ] {
            let streamed = stream(text.as_bytes()).expect(&text);
            let whole = read("r", text.as_bytes()).expect(&text);
            assert_eq!(streamed.kind, whole.kind, "{text:?}");
            assert_eq!(streamed.files.len(), 1, "{text:?}");
            assert_eq!(streamed.warnings, whole.warnings, "{text:?}");
        }
    }

    #[test]
    fn positions_count_the_blank_space_before_the_document() {
        let text = "\n\n  {\"type\":\"llvm.coverage.json.export\",\"version\":\"9.0\"}";
        let want = "r:3:54: unsupported llvm-cov JSON export version \"9.0\"";
        let e = stream(text.as_bytes()).map(|_| ()).expect_err("version 9");
        assert!(e.starts_with(want), "{e}");
        let e = read("r", text.as_bytes())
            .map(|_| ())
            .expect_err("version 9");
        assert!(e.message().starts_with(want), "{e}");
        let e = stream(&b"\xEF\xBB\xBF\n\nSF:a\nDA:x,1\n"[..])
            .map(|_| ())
            .expect_err("bad DA");
        assert!(e.starts_with("r:4: DA line `x`"), "{e}");
    }

    #[test]
    fn an_array_or_a_gzip_file_is_named_as_such() {
        for (text, want) in [
            (
                &b" \n[{\"data\":[]}]"[..],
                "r: the report starts with `[`, a JSON array",
            ),
            (b"\x1F\x8B\x08\x00", "r: the report is compressed (gzip)"),
        ] {
            let e = stream(text).map(|_| ()).expect_err("refused");
            assert!(e.starts_with(want), "{e}");
            let e = read("r", text).map(|_| ()).expect_err("refused");
            assert!(e.message().starts_with(want), "{e}");
        }
    }

    #[test]
    fn a_byte_order_mark_counts_only_at_the_start() {
        // Two marks, or a mark after a blank: LCOV (the parser drops a mark at a line start).
        for text in [
            &b"\xEF\xBB\xBF\xEF\xBB\xBF{}"[..],
            b" \xEF\xBB\xBF{}",
            b"\xEF\xBB{}",
        ] {
            let e = stream(text).map(|_| ()).expect_err("not LCOV either");
            assert!(e.contains("is not an LCOV record"), "{text:?}: {e}");
            let e = read("r", text).map(|_| ()).expect_err("not LCOV either");
            assert!(
                e.message().contains("is not an LCOV record"),
                "{text:?}: {e}"
            );
        }
    }

    #[test]
    fn an_empty_or_blank_stream_is_an_error() {
        for text in [&b""[..], b"  \n\t\r\n", b"\xEF\xBB\xBF"] {
            let e = stream(text).map(|_| ()).expect_err("empty");
            assert!(e.starts_with("r: the report is empty"), "{e}");
            let e = read("r", text).map(|_| ()).expect_err("empty");
            assert!(e.message().starts_with("r: the report is empty"), "{e}");
        }
    }

    #[test]
    fn endless_blank_space_is_an_error() {
        let e = stream(std::io::repeat(b' '))
            .map(|_| ())
            .expect_err("endless blanks");
        assert_eq!(
            e,
            "r: more than 16777216 bytes of blank space before the first character; not a coverage report"
        );
    }

    /// Gives `good`, then fails.
    struct Failing(&'static [u8]);

    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Err(std::io::Error::other("disk on fire"));
            }
            let n = self.0.len().min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn read_errors_name_the_report() {
        // Failing at the start, in the blank space, and in the JSON document.
        for good in [&b""[..], b"  ", b"  {\"type\""] {
            let e = stream(Failing(good)).map(|_| ()).expect_err("read error");
            assert_eq!(e, "r: cannot read the report: disk on fire");
        }
        let e = stream(Failing(b"SF:a\n"))
            .map(|_| ())
            .expect_err("read error");
        assert_eq!(e, "r:2: cannot read the report: disk on fire");
    }

    /// Writes `text` into the FIFO `fifo` on a thread of its own, reads the FIFO as a report
    /// file on another, and gives the result (or "hung" after 20 s, for a reader that opens
    /// the FIFO a second time and waits for ever).
    #[cfg(unix)]
    fn through_fifo(fifo: &Path, text: &'static [u8]) -> std::result::Result<Report, String> {
        let writer = {
            let fifo = fifo.to_path_buf();
            std::thread::spawn(move || std::fs::write(fifo, text))
        };
        let (done, result) = std::sync::mpsc::channel();
        let path = fifo.to_path_buf();
        std::thread::spawn(move || {
            let read = read_file("r", &path, Detail::All).map_err(|e| e.message().to_string());
            let _ = done.send(read);
        });
        let got = result
            .recv_timeout(std::time::Duration::from_secs(20))
            .unwrap_or_else(|_| Err("hung".to_string()));
        writer.join().expect("writer").expect("write");
        got
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_read_once_and_errors_carry_their_position() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("r.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo");
        assert!(made.success());
        let report = through_fifo(&fifo, JSON.as_bytes()).expect("a valid export");
        assert_eq!(report.files.len(), 1);
        let version = b"{\"type\":\"llvm.coverage.json.export\",\"version\":\"9.0\",\"data\":[]}";
        let e = through_fifo(&fifo, version)
            .map(|_| ())
            .expect_err("version 9");
        assert!(
            e.starts_with("r:1:51: unsupported llvm-cov JSON export version \"9.0\""),
            "{e}"
        );
        // A syntax error at byte 300 of one line.
        let mut broken =
            br#"{"type":"llvm.coverage.json.export","version":"2.0.1","data":["#.to_vec();
        broken.resize(299, b' ');
        broken.extend_from_slice(b"x]}");
        let e = through_fifo(&fifo, broken.leak())
            .map(|_| ())
            .expect_err("x");
        assert!(
            e.starts_with("r:1:300: not valid JSON: expected value"),
            "{e}"
        );
        let report = through_fifo(&fifo, b"SF:a.rs\nDA:1,1\nend_of_record\n").expect("LCOV");
        assert!(matches!(report.kind, ReportKind::Lcov), "{:?}", report.kind);
    }

    #[test]
    fn clip_keeps_short_text_and_cuts_long_text_at_a_character() {
        assert_eq!(clip("short"), "short");
        let exact = "é".repeat(QUOTE_LIMIT);
        assert_eq!(clip(&exact), exact);
        let long = "é".repeat(QUOTE_LIMIT + 1);
        assert_eq!(
            clip(&long),
            format!("{}… ({} bytes)", "é".repeat(QUOTE_LIMIT), long.len())
        );
    }

    #[test]
    fn describe_names_format_and_version() {
        let kind = ReportKind::LlvmJson {
            version: "3.1.0".into(),
            summary_only: true,
        };
        assert_eq!(kind.describe(), "llvm-cov JSON 3.1.0 (summary only)");
        let kind = ReportKind::LlvmJson {
            version: "2.0.1".into(),
            summary_only: false,
        };
        assert_eq!(kind.describe(), "llvm-cov JSON 2.0.1");
        assert_eq!(ReportKind::Lcov.describe(), "LCOV");
    }

    #[test]
    fn files_are_read_in_either_format() {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |name: &str, text: &[u8]| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).expect("write");
            path
        };
        let file =
            |path: &Path| read_file("r", path, Detail::All).map_err(|e| e.message().to_string());
        let json = file(&write("a.json", format!("\u{FEFF} {JSON}").as_bytes())).expect("json");
        assert_eq!(json.files.len(), 1);
        let lcov = file(&write("a.info", b"\nSF:a.rs\nDA:1,1\nend_of_record\n")).expect("lcov");
        assert!(matches!(lcov.kind, ReportKind::Lcov), "{:?}", lcov.kind);
        let e = file(&write("blank.json", b" \n"))
            .map(|_| ())
            .expect_err("blank");
        assert!(e.contains("the report is empty"), "{e}");
        let e = file(&dir.path().join("missing.json"))
            .map(|_| ())
            .expect_err("missing");
        assert!(e.starts_with("r: cannot read the report: "), "{e}");
        let e = file(&write("gz.json", b"\x1F\x8B\x08"))
            .map(|_| ())
            .expect_err("gzip");
        assert!(e.starts_with("r: the report is compressed (gzip)"), "{e}");
        let blank = vec![b' '; lcov::MAX_LINE + 1];
        let e = file(&write("wide.json", &blank))
            .map(|_| ())
            .expect_err("blank");
        assert!(
            e.contains("bytes of blank space before the first character"),
            "{e}"
        );
        // A broken export: the reader words the error in its one pass.
        let e = file(&write("cut.json", &JSON.as_bytes()[..40]))
            .map(|_| ())
            .expect_err("cut");
        assert!(e.contains("ends early (truncated?)"), "{e}");
    }

    /// The files of a report, each with whether it was reduced to its verdict and its counts.
    fn lcov_files(report: &Report) -> Vec<(String, bool, String)> {
        let files = report.files.iter().filter_map(|f| match &f.coverage {
            FileCoverage::Lcov(file) => Some((
                f.path.clone(),
                file.is_reduced(),
                format!("{:?} {:?}", file.summary(), file.uncovered_lines()),
            )),
            FileCoverage::Llvm(_) => None,
        });
        files.collect()
    }

    #[test]
    fn a_tracefile_file_is_reduced_as_it_is_read_and_read_again_when_a_reduced_file_comes_back() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("r.info");
        let a = "SF:a.rs\nDA:1,1\nDA:2,0\nend_of_record\n";
        let b = "SF:b.rs\nDA:1,1\nend_of_record\n";
        // Comment lines of 6 MiB between the sections: windows of the reader go by.
        let filler = format!("#{}\n", "x".repeat(6 << 20));
        let never: &(dyn Fn(&str) -> bool + Sync) = &|_| false;
        std::fs::write(&path, [a, b].concat()).expect("write");
        let reduced = read_file("r", &path, Detail::Needed(never)).expect("reads");
        let whole = read_file("r", &path, Detail::All).expect("reads");
        let counts = |files: Vec<(String, bool, String)>| -> Vec<(String, String)> {
            files
                .into_iter()
                .map(|(path, _, counts)| (path, counts))
                .collect()
        };
        assert_eq!(counts(lcov_files(&reduced)), counts(lcov_files(&whole)));
        assert!(lcov_files(&reduced).iter().all(|f| f.1));
        assert!(lcov_files(&whole).iter().all(|f| !f.1));
        // A file that may carry markers keeps every record.
        let marked: &(dyn Fn(&str) -> bool + Sync) = &|path| path == "a.rs";
        let kept = read_file("r", &path, Detail::Needed(marked)).expect("reads");
        let which: Vec<bool> = lcov_files(&kept).iter().map(|f| f.1).collect();
        assert_eq!(which, [false, true]);
        // An error of the tracefile is the error of one read.
        std::fs::write(&path, "SF:a.rs\nDA:x,1\nend_of_record\n").expect("write");
        let e = read_file("r", &path, Detail::Needed(never))
            .map(|_| ())
            .expect_err("bad DA");
        assert!(e.message().starts_with("r:2: "), "{}", e.message());
        let all = read_file("r", &path, Detail::All)
            .map(|_| ())
            .expect_err("bad DA");
        assert_eq!(all.message(), e.message());
        std::fs::write(&path, [a, b].concat()).expect("write");
        // From standard input (read once), every record is kept.
        let text = [a, b].concat();
        let piped = read_from("r", text.as_bytes(), Detail::Needed(never)).expect("reads");
        assert!(lcov_files(&piped).iter().all(|f| !f.1));
        // `a.rs` again, windows after it was reduced: read again, merged as one read merges.
        let again = [
            a,
            &filler,
            b,
            &filler,
            &filler,
            "SF:a.rs\nDA:2,3\nend_of_record\n",
        ]
        .concat();
        std::fs::write(&path, again).expect("write");
        let restarted = read_file("r", &path, Detail::Needed(never)).expect("reads");
        let whole = read_file("r", &path, Detail::All).expect("reads");
        assert_eq!(lcov_files(&restarted), lcov_files(&whole));
        assert_eq!(
            lcov_files(&restarted).first().map(|f| f.2.as_str()),
            Some("Summary { regions: None, branches: Some(Counts { covered: 0, total: 0 }), functions: Some(Counts { covered: 0, total: 0 }), lines: Some(Counts { covered: 2, total: 2 }), mcdc: None } []")
        );
    }

    /// UTF-16 text without a byte-order mark (`{` then 0, as an editor may save PowerShell's
    /// output) is named as UTF-16 with the fix, read whole or streamed, also when its first
    /// character ends a window of the stream; text whose first character is its last byte is
    /// read as before.
    #[test]
    fn utf16_without_a_byte_order_mark_is_named() {
        let le: Vec<u8> = "{\"data\":[]}"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let be: Vec<u8> = "SF:a\n".encode_utf16().flat_map(u16::to_be_bytes).collect();
        let mut late = vec![b' '; DETECT_CHUNK - 1];
        late.extend_from_slice(&le);
        let marked: Vec<u8> = [0xFF, 0xFE].into_iter().chain(le.iter().copied()).collect();
        for bytes in [&le, &be, &late, &marked] {
            let whole = read("r", bytes).unwrap_err();
            let streamed = stream(bytes.as_slice()).unwrap_err();
            for message in [whole.message(), streamed] {
                assert!(
                    message.starts_with("r: the report is UTF-16 text")
                        && message.contains("`| Out-File -Encoding utf8`"),
                    "{message}"
                );
            }
        }
        assert_eq!(half_zero(b"  {"), None);
        assert_eq!(half_zero(b" {x"), Some(false));
        assert_eq!(half_zero(b"\0\0"), Some(false));
        assert_eq!(half_zero(b"\0\x01"), Some(false));
        assert_eq!(
            stream(&b"{"[..]).unwrap_err(),
            read("r", b"{").unwrap_err().message()
        );
    }
}
