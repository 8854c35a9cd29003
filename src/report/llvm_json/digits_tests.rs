//! Tests of [`super`]: numbers and flat arrays read as plain rules read them, at every length
//! and wherever the buffer ends.

use super::*;

/// What [`uint_at`] must give, by the plain rule: 1 to 19 digits, no leading zero.
fn reference_uint(bytes: &[u8]) -> Option<(u64, usize)> {
    let len = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    if len == 0 || len > 19 || (len > 1 && bytes[0] == b'0') {
        return None;
    }
    let text = std::str::from_utf8(&bytes[..len]).unwrap();
    Some((text.parse().unwrap(), len))
}

/// `text` alone, then followed by `tail` (so that words of eight bytes are read, or not).
fn placements(text: &str) -> Vec<Vec<u8>> {
    [
        "",
        ",",
        "]",
        "12345678,",
        "x0000000000000000",
        "\u{ff}\u{ff}\u{ff}",
    ]
    .iter()
    .map(|tail| format!("{text}{tail}").into_bytes())
    .collect()
}

#[test]
fn digit_runs_are_found_and_valued_at_every_length() {
    for len in 1..=24 {
        for first in ['0', '1', '9'] {
            let text: String = std::iter::once(first)
                .chain("9876543210".chars().cycle().take(len - 1))
                .collect();
            for bytes in placements(&text) {
                assert_eq!(uint_at(&bytes, 0), reference_uint(&bytes), "{text}");
                let shifted = [b"[".as_slice(), &bytes].concat();
                assert_eq!(uint_at(&shifted, 1), reference_uint(&bytes), "[{text}");
            }
        }
    }
    assert_eq!(
        uint_at(b"9999999999999999999", 0),
        Some((9_999_999_999_999_999_999, 19))
    );
    assert_eq!(uint_at(b"18446744073709551615", 0), None);
    assert_eq!(uint_at(b"", 0), None);
    assert_eq!(uint_at(b"7", 5), None);
    // Every byte value after a digit, and before it: only `0`-`9` extend a run.
    for byte in 0..=255u8 {
        let after = [b'4', byte, b',', b',', b',', b',', b',', b',', b','];
        let expected = if byte.is_ascii_digit() {
            Some((40 + u64::from(byte - b'0'), 2))
        } else {
            Some((4, 1))
        };
        assert_eq!(uint_at(&after, 0), expected, "{byte:#x}");
        let before = [byte, b'4', b',', b',', b',', b',', b',', b','];
        assert_eq!(uint_at(&before, 0), reference_uint(&before), "{byte:#x}");
    }
}

#[test]
fn packed_arrays_read_as_the_plain_rule_says() {
    // Every array of three values from a small alphabet, compared with `uint_at` per value.
    let values = [
        "0",
        "7",
        "00",
        "07",
        "12",
        "1234567890123456789",
        "12345678901234567890",
        "",
        "x",
    ];
    let reference = |text: &str| -> Option<[u64; 3]> {
        let body = text.strip_prefix('[')?.strip_suffix(']')?;
        let parts: Vec<&str> = body.split(',').collect();
        let mut out = [0; 3];
        (parts.len() == 3).then_some(())?;
        for (slot, part) in out.iter_mut().zip(&parts) {
            let (value, len) = uint_at(part.as_bytes(), 0)?;
            (len == part.len()).then_some(())?;
            *slot = value;
        }
        Some(out)
    };
    for a in values {
        for b in values {
            for c in values {
                let text = format!("[{a},{b},{c}]");
                let read = packed::<3>(text.as_bytes());
                assert_eq!(read.map(|(v, _)| v), reference(&text), "{text}");
                assert!(read.is_none_or(|(_, len)| len == text.len()), "{text}");
            }
        }
    }
}

#[test]
fn packed_arrays_need_exact_separators() {
    assert_eq!(packed::<3>(b"[0,7,123]"), Some(([0, 7, 123], 9)));
    assert_eq!(
        packed::<3>(b"[10,20,1234567890123456789],[1,2,3]"),
        Some(([10, 20, 1_234_567_890_123_456_789], 27))
    );
    for declined in [
        "1,2,3]",
        "[1,2,3,4]",
        "[1,2]",
        "[1,2,03]",
        "[1,00,3]",
        "[1,2,3",
        "[1,-2,3]",
        "[1,2.5,3]",
        "[1;2,3]",
        "[1,2,3}",
        "[1,2,12345678901234567890]",
        "[1,2,1234567890123456789",
        "[1,2,]",
        "[1,2,0",
        "[",
        "",
    ] {
        assert_eq!(packed::<3>(declined.as_bytes()), None, "{declined}");
    }
}

/// What [`flat`] must give, by the plain rule.
fn reference_flat(bytes: &[u8]) -> Option<usize> {
    let text = std::str::from_utf8(bytes).ok()?;
    let body = text.strip_prefix('[')?;
    if body.starts_with(']') {
        return Some(2);
    }
    let mut at = 1;
    for value in body.split(',') {
        let (value, closed) = match value.find(']') {
            Some(end) => (&value[..end], true),
            None => (value, false),
        };
        let number = !value.is_empty()
            && value.bytes().all(|b| b.is_ascii_digit())
            && (value == "0" || !value.starts_with('0'));
        if !(number || ["true", "false", "null"].contains(&value)) {
            return None;
        }
        at += value.len() + 1;
        if closed {
            return Some(at);
        }
    }
    None
}

#[test]
fn flat_arrays_are_read_as_the_plain_rule_reads_them() {
    let values = [
        "0",
        "7",
        "00",
        "01",
        "10",
        "123456789012345678901234567890",
        "true",
        "tru",
        "truex",
        "false",
        "fals",
        "null",
        "nul",
        "-1",
        "1.5",
        "\"s\"",
        "",
        " 1",
    ];
    for a in values {
        for b in values {
            for text in [format!("[{a}]"), format!("[{a},{b}]"), format!("[{a},{b}")] {
                for bytes in placements(&text) {
                    assert_eq!(flat(&bytes), reference_flat(&bytes), "{text}");
                }
            }
        }
    }
    assert_eq!(flat(b"[]"), Some(2));
    assert_eq!(flat(b"[]]"), Some(2));
    assert_eq!(flat(b"x"), None);
    assert_eq!(flat(b""), None);
    assert_eq!(flat(b"["), None);
}

#[test]
fn arrays_of_flat_arrays_are_read_whole_or_not_at_all() {
    for (text, len) in [
        ("[]", Some(2)),
        ("[[]]", Some(4)),
        ("[[1,true],[2,false,null]],", Some(25)),
        ("[[1],[2]]]", Some(9)),
        ("[[1],2]", None),
        ("[[1] ,[2]]", None),
        ("[[1],[2]", None),
        ("[[1],[2],", None),
        ("[[1];[2]]", None),
        ("[[01]]", None),
        ("[{}]", None),
        ("[", None),
        ("x", None),
        ("", None),
    ] {
        assert_eq!(flats(text.as_bytes()), len, "{text}");
    }
}
