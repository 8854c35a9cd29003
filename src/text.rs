//! Characters that do not show as themselves: control characters, the line and paragraph
//! separators, and the format characters (Unicode category Cf) that reorder or hide text, as
//! Trojan Source does (`src/f\u{202E}gnp.rs` shows as `src/fsr.png`). Every renderer escapes
//! [`is_hidden`] characters in the names it prints ([`crate::render`]), and a reason made only
//! of [`is_blank`] text is no reason.

/// What to say of an input that is UTF-16 text (after "the report", "the policy"): Windows
/// PowerShell 5.1's `>` and `Out-File` write UTF-16LE with a byte-order mark.
pub(crate) const UTF16: &str = "is UTF-16 text (a byte-order mark `FF FE` or `FE FF`, or 0 bytes \
     between the characters, as Windows PowerShell 5.1's `>` writes); covgate reads UTF-8: \
     re-encode it as UTF-8 (PowerShell: `| Out-File -Encoding utf8`, or have the tool write the \
     file itself, e.g. `cargo llvm-cov --output-path FILE`)";

/// What to say of a report that holds a 0 byte and is not UTF-16 text ([`ascii_in_utf16`]):
/// a binary file (a program, a `.profraw` or `.profdata` profile) passed by mistake.
pub(crate) const BINARY: &str = "holds 0 bytes: it is a binary file, not a coverage report (an \
     llvm-cov export is JSON text, an LCOV tracefile is text; a `.profraw` or `.profdata` profile \
     must be exported first: `cargo llvm-cov --json --output-path FILE` or `--lcov`)";

/// True when `bytes` look like UTF-16 text: a byte-order mark (`FF FE`, `FE FF`), or an ASCII
/// character in UTF-16 as the first two bytes ([`ascii_in_utf16`]). Neither starts UTF-8 text.
pub(crate) fn is_utf16(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0xFF, 0xFE])
        || bytes.starts_with(&[0xFE, 0xFF])
        || bytes.get(..2).is_some_and(ascii_in_utf16)
}

/// True when `pair` is one ASCII character of UTF-16 text: a printable ASCII character or
/// blank space and a 0 byte, in either order (little- or big-endian). Other bytes beside a 0
/// byte (`7F 45 4C 46` of a program, `00 01`) are binary, not text.
pub(crate) fn ascii_in_utf16(pair: &[u8]) -> bool {
    let text = |b: u8| b.is_ascii_graphic() || b.is_ascii_whitespace();
    match pair {
        [0, b] | [b, 0] => text(*b),
        _ => false,
    }
}

/// `bytes` as text, for a file that must be UTF-8 (the policy, the debt ledger, the comment's
/// inputs). Errors, as a phrase for "cannot read FILE: …": it is UTF-16 ([`UTF16`]), or not
/// UTF-8.
pub(crate) fn utf8(bytes: Vec<u8>) -> Result<String, String> {
    if is_utf16(&bytes) {
        return Err(format!("it {UTF16}"));
    }
    String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_string())
}

/// The format characters (Unicode 15.1, general category Cf), as inclusive ranges: the soft
/// hyphen, Arabic and Syriac marks, the Mongolian vowel separator, zero-width spaces and joiners,
/// left-to-right and right-to-left marks, bidi embeddings, overrides and isolates, invisible
/// operators, the byte-order mark, interlinear annotations, and the tag characters.
const FORMAT: [(char, char); 21] = [
    ('\u{ad}', '\u{ad}'),
    ('\u{600}', '\u{605}'),
    ('\u{61c}', '\u{61c}'),
    ('\u{6dd}', '\u{6dd}'),
    ('\u{70f}', '\u{70f}'),
    ('\u{890}', '\u{891}'),
    ('\u{8e2}', '\u{8e2}'),
    ('\u{180e}', '\u{180e}'),
    ('\u{200b}', '\u{200f}'),
    ('\u{202a}', '\u{202e}'),
    ('\u{2060}', '\u{2064}'),
    ('\u{2066}', '\u{206f}'),
    ('\u{feff}', '\u{feff}'),
    ('\u{fff9}', '\u{fffb}'),
    ('\u{110bd}', '\u{110bd}'),
    ('\u{110cd}', '\u{110cd}'),
    ('\u{13430}', '\u{1343f}'),
    ('\u{1bca0}', '\u{1bca3}'),
    ('\u{1d173}', '\u{1d17a}'),
    ('\u{e0001}', '\u{e0001}'),
    ('\u{e0020}', '\u{e007f}'),
];

/// The line and paragraph separators (categories Zl, Zp): a renderer that honours them (a
/// browser, an editor, a JavaScript string) breaks the line there, so a name holding one could
/// pass for two rows or two lines of a log.
const SEPARATOR: (char, char) = ('\u{2028}', '\u{2029}');

/// Characters that are not format characters but show as nothing: the combining grapheme
/// joiner, the Hangul fillers, the braille blank.
const BLANK: [char; 6] = [
    '\u{34f}', '\u{115f}', '\u{1160}', '\u{3164}', '\u{ffa0}', '\u{2800}',
];

/// True for a character a name must not print as itself: a control character (C0, DEL, C1)
/// a format character (category Cf: bidi controls such as U+202E, zero-width characters such
/// as U+200B, the byte-order mark U+FEFF), or the line or paragraph separator (U+2028, U+2029).
pub(crate) fn is_hidden(c: char) -> bool {
    // Every control character (C0, DEL, C1) lies below the first format character (U+00AD):
    // a path of 10 MiB of ASCII is checked at the cost of `is_control`.
    if c < '\u{ad}' {
        return c.is_control();
    }
    FORMAT
        .iter()
        .chain([&SEPARATOR])
        .any(|&(low, high)| (low..=high).contains(&c))
}

/// True when `text` shows nothing: empty, or only white space, [`is_hidden`] characters and
/// other blank ones (the Hangul filler U+3164, the braille blank U+2800, …).
pub(crate) fn is_blank(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_whitespace() || is_hidden(c) || BLANK.contains(&c))
}

/// `bytes` with each carriage return that no line feed follows made a line feed (one byte for
/// one, so offsets stay; a CR is a whole character in UTF-8, and so is the LF): lines as clang,
/// GCC and the specifications of C-family languages end them, at LF, CR LF or a lone CR. Bytes
/// without a lone CR are returned as they are.
pub(crate) fn lone_cr_as_lf(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let lone_cr = |at: usize| bytes.get(at) == Some(&b'\r') && bytes.get(at + 1) != Some(&b'\n');
    if !(0..bytes.len()).any(lone_cr) {
        return std::borrow::Cow::Borrowed(bytes);
    }
    (0..bytes.len())
        .zip(bytes)
        .map(|(at, &byte)| if lone_cr(at) { b'\n' } else { byte })
        .collect()
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    #[test]
    fn utf16_text_is_named() {
        let le = [0xFF, 0xFE, b'a', 0];
        let be = [0xFE, 0xFF, 0, b'a'];
        for bytes in [&le[..], &be[..], b"a\0", b"\0a"] {
            assert!(is_utf16(bytes), "{bytes:?}");
            let why = utf8(bytes.to_vec()).unwrap_err();
            assert!(
                why.starts_with("it is UTF-16 text") && why.contains("Out-File -Encoding utf8"),
                "{why}"
            );
        }
        assert!(!is_utf16(b"ab\0"));
        // A 0 byte beside a byte that is no text is binary, not UTF-16.
        for binary in [&b"\0\x01\x02"[..], b"\x7f\0", b"\0\0", b"\0"] {
            assert!(!is_utf16(binary), "{binary:?}");
        }
        for text in [&b"\n\0"[..], b"\0~", b"\0\n", b"a\0", b"\0 "] {
            assert!(ascii_in_utf16(text), "{text:?}");
        }
        for binary in [&b"\0\x01"[..], b"\x7f\0", b"\0\0", b"ab", b"a", b"a\0b"] {
            assert!(!ascii_in_utf16(binary), "{binary:?}");
        }
        assert_eq!(
            utf8(b"caf\xe9".to_vec()).unwrap_err(),
            "it is not UTF-8 text"
        );
        assert_eq!(utf8(b"[x]".to_vec()).unwrap(), "[x]");
    }

    use super::*;

    #[test]
    fn control_and_format_characters_are_hidden() {
        for c in [
            '\n', '\u{1b}', '\u{7f}', '\u{9b}', '\u{202e}', '\u{2066}', '\u{2069}',
        ] {
            assert!(is_hidden(c), "{c:?}");
        }
        for c in [
            '\u{200b}',
            '\u{200f}',
            '\u{feff}',
            '\u{ad}',
            '\u{e0041}',
            '\u{61c}',
            '\u{2028}',
            '\u{2029}',
        ] {
            assert!(is_hidden(c), "{c:?}");
        }
        for c in ['a', ' ', 'é', '\u{2065}', '\u{3164}', '🦀'] {
            assert!(!is_hidden(c), "{c:?}");
        }
    }

    #[test]
    fn blank_text_shows_nothing() {
        for text in [
            "",
            " ",
            "\u{200b}",
            " \u{feff}\t\u{2060}",
            "\u{3164}\u{2800}",
            "\u{a0}",
        ] {
            assert!(is_blank(text), "{text:?}");
        }
        for text in ["x", "\u{200b}why", "-"] {
            assert!(!is_blank(text), "{text:?}");
        }
    }

    #[test]
    fn a_lone_cr_ends_a_line() {
        use std::borrow::Cow;
        assert!(matches!(lone_cr_as_lf(b"a\r\nb\n"), Cow::Borrowed(_)));
        assert_eq!(&*lone_cr_as_lf(b"a\rb\r\nc\r"), b"a\nb\r\nc\n");
    }
}
