//! Tests of the LCOV reader: blocks parsed in parallel as one pass.

use super::blocks::{blocks, last_section_end, line_breaks, MIN_BLOCK};
use super::support_tests::*;
use super::{block_size, read_in_blocks, Parser, MAX_WARNINGS};
use crate::error::Result;
use crate::report::input::Window;
use crate::report::Report;

/// [`super::blocks::read_window`] with a parser that keeps every record, to its end.
fn read_window<R: ?Sized + std::io::Read>(
    origin: &str,
    window: &mut Window<'_, R>,
    chunk: usize,
    size: usize,
) -> Result<(Report, Vec<String>)> {
    super::blocks::read_window(Parser::new(origin), window, chunk, size)?.finish()
}

/// `read_in_blocks` with blocks of `size` bytes, as the messages a test compares.
fn blocks_of(text: &[u8], size: usize) -> std::result::Result<(Report, Vec<String>), String> {
    read_in_blocks("t.info", text, size).map_err(|e| e.message().to_string())
}

#[test]
fn blocks_end_after_whole_end_of_record_lines() {
    let text =
        b"SF:a\nend_of_recordX\nend_of_record\nSF:b\r\nend_of_record\r\nSF:c\nend_of_record\n";
    let pieces: Vec<&[u8]> = blocks(text, 1);
    assert_eq!(
        pieces,
        [
            &b"SF:a\nend_of_recordX\nend_of_record\n"[..],
            b"SF:b\r\nend_of_record\r\n",
            b"SF:c\nend_of_record\n"
        ]
    );
    // A block is at least `size` bytes; no line break after `from`; no empty last block.
    assert_eq!(blocks(text, 40).len(), 2);
    assert_eq!(blocks(text, text.len() + 5), [&text[..]]);
    assert_eq!(blocks(text, 0), [&text[..]]);
    assert_eq!(blocks(b"SF:a\nend_of_record", 1).len(), 1);
    assert_eq!(line_breaks(text), 7);
    assert_eq!(block_size(0), MIN_BLOCK);
}

#[test]
fn blocks_read_as_one_pass_does() {
    let mut many_warnings = String::new();
    for i in 0..MAX_WARNINGS + 20 {
        many_warnings.push_str(&format!(
            "SF:w{}\nXYZ:{i}\nDA:{i},1\nend_of_record\n",
            i % 7
        ));
    }
    let texts: Vec<Vec<u8>> = vec![
            b"TN:\nSF:a\nFN:1,f\nFNDA:2,f\nDA:1,2\nBRDA:1,0,0,1\nend_of_record\nend_of_record\nSF:b\nDA:3,0\nend_of_record\nSF:a\nDA:1,1\nDA:2,0\nFN:1,f\nFNDA:1,f\nBRDA:1,0,0,-\nend_of_record\nSF:b\nDA:1,1\nSF:a\nDA:0,4".to_vec(),
            b"SF:a\nDA:1,1\nend_of_record\nSF:\xff\nDA:2,1\nend_of_record\nSF:a\nDA:1,3\nend_of_record\n".to_vec(),
            many_warnings.into_bytes(),
            b"SF:a\nDA:1,1\nend_of_record\nSF:b\nDA:x,1\nend_of_record\nSF:c\nDA:y,1\nend_of_record\n".to_vec(),
            b"SF:a\nDA:1,1\nend_of_record\nDA:1,1\nend_of_record\n".to_vec(),
            // Errors and warnings in later windows; a section open across windows.
            [
                &b"SF:a\nDA:1,1\nend_of_record\n".repeat(9)[..],
                b"SF:long\n",
                &b"DA:2,3\n".repeat(30),
                b"end_of_record\nSF:b\nXYZ:1\nend_of_record\n",
                &b"SF:c\nDA:3,1\nend_of_record\n".repeat(9),
                b"SF:d\nDA:x,1\nend_of_record\nSF:e\nDA:y,1\nend_of_record\n",
            ]
            .concat(),
            b"TN:\nend_of_record\nSF:a\nFN:1,f\nFNDA:1,f\nDA:1,1\nend_of_record\n".repeat(20),
            // An error in the first window, found while later windows are read and parsed.
            [
                &b"SF:a\nDA:x,1\nend_of_record\n"[..],
                &b"SF:b\nDA:1,1\nend_of_record\n".repeat(30),
            ]
            .concat(),
        ];
    for text in &texts {
        let mut sequential = Parser::new("t.info");
        let one_pass = sequential
            .feed(1, text)
            .and_then(|_| sequential.finish())
            .map_err(|e| e.message().to_string());
        let streamed = |chunk: usize, size: usize| {
            read_window(
                "t.info",
                &mut Window::new(&mut &text[..], chunk),
                chunk,
                size,
            )
            .map_err(|e| e.message().to_string())
        };
        // Windows of every size up to about the text's: cut at section ends (parsed beside
        // the next read), inside sections and inside lines (parsed in order).
        let chunks = [
            1, 2, 3, 5, 8, 13, 16, 21, 34, 55, 64, 89, 100, 144, 233, 377, 610, 987,
        ];
        let ways = [1, 5, 20, 64, usize::MAX].into_iter().flat_map(|size| {
            std::iter::once(blocks_of(text, size))
                .chain(chunks.into_iter().map(move |chunk| streamed(chunk, size)))
                .collect::<Vec<_>>()
        });
        for (size, parsed) in ways.enumerate() {
            match (&one_pass, &parsed) {
                (Ok((a, wa)), Ok((b, wb))) => {
                    assert_eq!(wa, wb, "{size}");
                    assert_eq!(a.warnings, b.warnings);
                    assert_eq!(a.has_branch_data, b.has_branch_data);
                    let paths = |r: &Report| -> Vec<String> {
                        r.files.iter().map(|f| f.path.clone()).collect()
                    };
                    assert_eq!(paths(a), paths(b), "{size}");
                    for (x, y) in a.files.iter().zip(&b.files) {
                        assert_eq!(lcov_of(x), lcov_of(y), "{size} {}", x.path);
                    }
                }
                (Err(a), Err(b)) => assert_eq!(a, b, "{size}"),
                _ => panic!("{size}: {one_pass:?} vs {parsed:?}"),
            }
        }
    }
    // The merged file and the first error are those of a single pass (the last section, cut
    // short, is ignored).
    let (report, _) = blocks_of(&texts[0], 1).expect("reads");
    assert_eq!(
        lcov(&report, 0).lines().collect::<Vec<_>>(),
        [(1, 3), (2, 0)]
    );
    assert_eq!(lcov(&report, 0).branches()[0].taken, Some(1));
    assert_eq!(lcov(&report, 0).functions()[0].count, 3);
    let e = blocks_of(&texts[3], 1).map(|_| ()).expect_err("bad DA");
    assert!(e.starts_with("t.info:5: DA line `x`"), "{e}");
    let (_, warnings) = blocks_of(&texts[2], 1).expect("reads");
    assert_eq!(warnings.len(), MAX_WARNINGS + 1);
    assert_eq!(
        warnings[MAX_WARNINGS],
        "t.info: 20 more warning(s) not shown"
    );
}

/// Gives its bytes a few at a time, then fails.
struct FailingAfter(&'static [u8]);

impl std::io::Read for FailingAfter {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.0.is_empty() {
            return Err(std::io::Error::other("disk on fire"));
        }
        let n = self.0.len().min(buf.len()).min(7);
        let (now, later) = self.0.split_at(n);
        buf[..n].copy_from_slice(now);
        self.0 = later;
        Ok(n)
    }
}

#[test]
fn windows_of_whole_sections_stop_at_a_read_error_after_their_lines() {
    let text = b"SF:a\nDA:1,1\nend_of_record\nSF:b\nDA:2,1\nend_of_record\nSF:c\nDA:3";
    for chunk in [1, 10, 30, 100] {
        let e = read_window(
            "t.info",
            &mut Window::new(&mut FailingAfter(text), chunk),
            chunk,
            1,
        )
        .map(|_| ())
        .expect_err("read error");
        assert_eq!(
            e.message(),
            "t.info:8: cannot read the report: disk on fire"
        );
    }
    // An error in the lines read before the read error comes first.
    let bad = b"SF:a\nDA:1,1\nend_of_record\nSF:b\nDA:x,1\nend_of_record\nSF:c\nDA:3";
    let e = read_window(
        "t.info",
        &mut Window::new(&mut FailingAfter(bad), 30),
        30,
        1,
    )
    .map(|_| ())
    .expect_err("bad DA");
    assert!(
        e.message().starts_with("t.info:5: DA line `x`"),
        "{}",
        e.message()
    );
}

#[test]
fn a_line_over_the_limit_after_whole_sections_is_an_error_naming_it() {
    // Whole sections, then a section whose second line never ends: the sections are parsed
    // beside the reads until the line is longer than the limit.
    let start: &[u8] = b"SF:a\nDA:1,1\nend_of_record\nSF:b\nDA:x,1\nDA:2,";
    let endless = std::io::Read::chain(start, std::io::repeat(b'9'));
    let e = super::read_from("t.info", std::io::BufReader::new(endless))
        .map(|_| ())
        .expect_err("bad DA before the long line");
    assert!(
        e.message().starts_with("t.info:5: DA line `x`"),
        "{}",
        e.message()
    );
    let start: &[u8] = b"SF:a\nDA:1,1\nend_of_record\nSF:b\nDA:2,";
    let endless = std::io::Read::chain(start, std::io::repeat(b'9'));
    let e = super::read_from("t.info", std::io::BufReader::new(endless))
        .map(|_| ())
        .expect_err("endless line");
    assert!(
        e.message().starts_with("t.info:5: the line is longer than"),
        "{}",
        crate::report::clip(&e.message())
    );
}

#[test]
fn the_last_section_end_is_after_a_whole_end_of_record_line() {
    assert_eq!(last_section_end(b"SF:a\nend_of_record\nSF:b\n"), Some(19));
    assert_eq!(last_section_end(b"SF:a\nend_of_record\r\nSF:b\n"), Some(20));
    // Not a whole line (glued text, or the line unfinished), or not after a line break.
    assert_eq!(
        last_section_end(b"SF:a\nend_of_record\nend_of_recordX\n"),
        Some(19)
    );
    assert_eq!(last_section_end(b"SF:a\nend_of_record"), None);
    assert_eq!(last_section_end(b"end_of_record\n"), None);
    assert_eq!(last_section_end(b""), None);
}

#[test]
fn a_window_read_whole_while_detecting_is_parsed_as_it_is() {
    let text = b"SF:a\nDA:1,1\nend_of_record\nSF:b\nDA:2,0\nend_of_record\n";
    let mut input = &text[..];
    let mut window = Window::new(&mut input, 1 << 10);
    assert_eq!(window.first_byte(10).ok(), Some(Some(b'S')));
    let (report, warnings) = read_window("t.info", &mut window, 4, 1).expect("reads");
    assert_eq!(warnings, Vec::<String>::new());
    assert_eq!(report.files.len(), 2);
    assert_eq!(lcov(&report, 1).lines().collect::<Vec<_>>(), [(2, 0)]);
}
