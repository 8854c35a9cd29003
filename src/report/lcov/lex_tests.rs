//! Tests of the lexer: the one-pass path for plain records reads exactly what the general path
//! reads, and leaves every other line to it.

use super::*;

/// Lines the one-pass path reads, with the record expected.
fn plain_lines() -> Vec<(&'static str, Record<'static>)> {
    vec![
        ("DA:0,0", Record::Da { line: 0, count: 0 }),
        (
            "DA:4294967295,9999999999999999999",
            Record::Da {
                line: u32::MAX,
                count: 9_999_999_999_999_999_999,
            },
        ),
        ("DA:7,1", Record::Da { line: 7, count: 1 }),
        (
            "FN:12,main",
            Record::Fn {
                start: 12,
                end: None,
                name: "main",
            },
        ),
        (
            "FN:3,_RNvCs1_4demo4main",
            Record::Fn {
                start: 3,
                end: None,
                name: "_RNvCs1_4demo4main",
            },
        ),
        (
            "FN:3,a,b,c",
            Record::Fn {
                start: 3,
                end: None,
                name: "a,b,c",
            },
        ),
        (
            "FN:3,,x",
            Record::Fn {
                start: 3,
                end: None,
                name: ",x",
            },
        ),
        (
            "FNDA:0,main",
            Record::Fnda {
                count: 0,
                name: "main",
            },
        ),
        (
            "FNDA:5,(anonymous_1)",
            Record::Fnda {
                count: 5,
                name: "(anonymous_1)",
            },
        ),
    ]
}

#[test]
fn plain_records_are_read_in_one_pass_as_the_general_path_reads_them() {
    for (text, expected) in plain_lines() {
        assert_eq!(plain(text), Some(expected.clone()), "{text}");
        assert_eq!(general(text), Ok(expected.clone()), "{text}");
        assert_eq!(lex(text), Ok(expected), "{text}");
    }
}

/// Lines the one-pass path leaves to the general path: what it would read differently, or
/// cannot tell is wrong.
const GENERAL_LINES: [&str; 25] = [
    "DA:1,18446744073709551615",
    "DA:7,1,abc",
    "DA:7, 1",
    "DA: 7,1",
    "DA:7",
    "DA:,1",
    "DA:4294967296,1",
    "DA:7,",
    "DA:7,18446744073709551616",
    "DA:7,-1",
    "DA:12345678901234567890,1",
    "FN:1,5,legacy_sum",
    "FN:1, 5,name",
    "FN:1,\u{3000}5,name",
    "FN:1, name",
    "FN:1,",
    "FN:4294967296,main",
    "FN:-1,main",
    "FN:main",
    "FNDA:1, main",
    "FNDA:1,",
    "FNDA:-1,main",
    "FNDA:18446744073709551616,main",
    "FNDA:1,9lives",
    "FNF:3",
];

#[test]
fn other_records_are_left_to_the_general_path() {
    for text in GENERAL_LINES {
        assert_eq!(plain(text), None, "{text}");
        assert_eq!(lex(text), general(text), "{text}");
    }
    assert_eq!(
        lex("FN:1,5,legacy_sum"),
        Ok(Record::Fn {
            start: 1,
            end: Some(5),
            name: "legacy_sum",
        })
    );
    assert_eq!(
        lex("FNDA:1,9lives"),
        Ok(Record::Fnda {
            count: 1,
            name: "9lives",
        })
    );
    assert_eq!(lex("DA:7, 1"), Ok(Record::Da { line: 7, count: 1 }));
    assert!(lex("DA:4294967296,1")
        .unwrap_err()
        .contains("is too large (at most 4294967295)"));
    assert!(lex("FNDA:1,").unwrap_err().contains("FNDA: empty name"));
}

#[test]
fn plain_da_lines_with_their_line_break_are_read_as_lex_reads_them() {
    for (text, expected) in plain_lines() {
        let line = format!("{text}\nSF:next");
        let read = da_line(line.as_bytes());
        match expected {
            Record::Da { .. } => assert_eq!(read, Some((expected, text.len() + 1)), "{text}"),
            _ => assert_eq!(read, None, "{text}"),
        }
    }
    assert_eq!(
        da_line(b"DA:0012,034\n"),
        Some((
            Record::Da {
                line: 12,
                count: 34
            },
            12
        ))
    );
    assert_eq!(
        lex("DA:0012,034"),
        Ok(Record::Da {
            line: 12,
            count: 34
        })
    );
}

#[test]
fn other_lines_are_left_to_lex_by_the_da_line_reader() {
    let mut lines: Vec<String> = GENERAL_LINES.iter().map(|l| format!("{l}\n")).collect();
    lines.extend(
        [
            "DA:7,1",
            "DA:7,1\r\n",
            "DA:7,1 \n",
            "DA:7,1x\n",
            "DA:71\n",
            "DA7,1\n",
            "da:7,1\n",
            "",
            "DA:",
            // 20 digits: more than a plain number reads (`lex` reads or refuses them).
            "DA:7,18446744073709551615\n",
            "DA:00000000000000000007,1\n",
        ]
        .map(String::from),
    );
    for line in lines {
        assert_eq!(da_line(line.as_bytes()), None, "{line:?}");
    }
}

#[test]
fn a_line_of_utf16_text_is_named_as_such() {
    // UTF-16LE without a byte-order mark: a 0 byte after each ASCII character.
    let e = lex("S\0F\0:\0s\0r\0c\0").unwrap_err();
    assert!(e.starts_with("the report is UTF-16 text"), "{e}");
}

#[test]
fn a_line_with_0_bytes_that_is_no_utf16_text_is_named_binary() {
    // A program's first line (`7F 45 4C 46 …`) and bytes around a 0 that are no text.
    for line in ["\x7fELF\x02\x01\x01\0\0", "\0\x01\x02binary", "\0\0\0"] {
        let e = lex(line).unwrap_err();
        assert!(
            e.starts_with("the report holds 0 bytes: it is a binary file, not a coverage report"),
            "{e}"
        );
    }
}

#[test]
fn plain_fn_lines_are_read_as_lex_reads_them() {
    for (text, expected) in plain_lines() {
        match expected {
            Record::Fn {
                start,
                end: None,
                name,
            } => assert_eq!(fn_line(text), Some((start, name)), "{text}"),
            _ => assert_eq!(fn_line(text), None, "{text}"),
        }
    }
    assert_eq!(fn_line("FN:0012,main"), Some((12, "main")));
    // Lines that trimming changes, and every line the one-pass path leaves to the general one.
    let mut others = vec![
        "FN:12,main ",
        "FN:12,main\t",
        "FN:12,mä\u{3000}",
        "FNDA:1,main",
    ];
    others.extend(GENERAL_LINES);
    for text in others {
        assert_eq!(fn_line(text), None, "{text:?}");
    }
}
