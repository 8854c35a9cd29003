//! The translation phases a compiler runs before it finds comments and literals, mirrored so
//! that the lexer sees the text the compiler sees: C's line splices (C11 5.1.1.2 phase 2: a `\`
//! that ends a line joins it to the next, before comments are recognised in phase 3; the same
//! in C++, Objective-C and CUDA) and Java's Unicode escapes (JLS §3.3: `\u002a` is `*` before
//! the lexer runs). Lines keep the numbers of the physical file, which the coverage report uses.

use std::borrow::Cow;

use super::lexer::{lex, Lang, Lexed};

/// A source after its translation phases: the text the lexer reads, and where each physical
/// line after the first starts in it.
pub struct Translated<'a> {
    text: Cow<'a, str>,
    /// Offsets in `text` where physical lines 2, 3, … start; empty when the text is unchanged
    /// (the lexer's own line count is then the physical one).
    starts: Vec<usize>,
}

impl<'a> Translated<'a> {
    /// `text` (lines numbered as `lang`'s compiler numbers them, [`super::as_compiled`]) after
    /// `lang`'s translation phases.
    pub fn new(text: &'a str, lang: Lang) -> Translated<'a> {
        let changed = match lang {
            Lang::CLike => splice(text),
            Lang::Java => unicode_escapes(text),
            _ => None,
        };
        match changed {
            Some((text, starts)) => Translated {
                text: Cow::Owned(text),
                starts,
            },
            None => Translated {
                text: Cow::Borrowed(text),
                starts: Vec::new(),
            },
        }
    }

    /// The comments of the translated text ([`lex`]), numbered by physical line: a comment
    /// that a splice continues gives one piece per physical line, and a marker word that a
    /// splice cuts stays whole, on the line where it starts (clang places a token there).
    pub fn lex(&self, lang: Lang) -> Lexed<'_> {
        let lexed = lex(&self.text, lang);
        if self.starts.is_empty() {
            return lexed;
        }
        let found = lexed.comments;
        let base = self.text.as_ptr() as usize;
        let mut out = Vec::with_capacity(found.len());
        for (_, piece) in found {
            let first = piece.as_ptr() as usize - base;
            let end = first + piece.len();
            let mut start = first;
            let within = self.starts.partition_point(|&s| s <= first);
            for &at in self.starts.get(within..).unwrap_or_default() {
                if at >= end {
                    break;
                }
                let cut = self.word_end(at, end);
                if cut > start {
                    out.push((self.line_of(start), self.slice(start, cut)));
                    start = cut;
                }
            }
            out.push((self.line_of(start), self.slice(start, end)));
        }
        // Neither C nor Java leaves the lexer unsure.
        Lexed {
            comments: out,
            unsure: None,
        }
    }

    /// The physical line (1-based) of the byte at `offset`.
    fn line_of(&self, offset: usize) -> u32 {
        let line = 1 + self.starts.partition_point(|&s| s <= offset);
        u32::try_from(line).unwrap_or(u32::MAX)
    }

    fn slice(&self, start: usize, end: usize) -> &str {
        self.text.get(start..end).unwrap_or_default()
    }

    /// Where a piece is cut at the physical line start `at`: there, or, when a word runs across
    /// it, at the end of that word (at most `end`).
    fn word_end(&self, at: usize, end: usize) -> usize {
        let bytes = self.text.as_bytes();
        let word = |i: usize| bytes.get(i).is_some_and(|&b| is_word_byte(b));
        if !(at.checked_sub(1).is_some_and(word) && word(at)) {
            return at;
        }
        let mut cut = at;
        while cut < end && word(cut) {
            cut += 1;
        }
        cut
    }
}

/// A byte that continues a marker's word (`LCOV_EXCL_LINE`, `covgate:ignore-next`).
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b':')
}

/// Adds the line starts of `kept` (after each LF), a piece copied to offset `shift` of the
/// translated text.
fn line_starts(kept: &str, starts: &mut Vec<usize>, shift: usize) {
    starts.extend(memchr::memchr_iter(b'\n', kept.as_bytes()).map(|i| i + 1 + shift));
}

/// C's phase 2: each `\` that ends a line (white space between the two is allowed, as clang and
/// GCC allow it with a warning) is removed with its line end. `None` when there is none.
fn splice(text: &str) -> Option<(String, Vec<usize>)> {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut starts = Vec::new();
    let mut copied = 0;
    for at in memchr::memchr_iter(b'\\', bytes) {
        let after = bytes.get(at + 1..).unwrap_or_default();
        let blanks = after
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\x0b' | b'\x0c' | b'\r'))
            .count();
        if after.get(blanks) != Some(&b'\n') {
            continue;
        }
        let kept = text.get(copied..at).unwrap_or_default();
        line_starts(kept, &mut starts, out.len());
        out.push_str(kept);
        starts.push(out.len());
        copied = at + blanks + 2;
    }
    if copied == 0 {
        return None;
    }
    let kept = text.get(copied..).unwrap_or_default();
    line_starts(kept, &mut starts, out.len());
    out.push_str(kept);
    Some((out, starts))
}

/// Java's Unicode escapes (JLS §3.3): a `\` that an even number of `\`s precede, one or more
/// `u`s and four hex digits stand for that UTF-16 code unit (a surrogate pair for one
/// character; a lone surrogate becomes U+FFFD). An escaped line terminator ends a `//` comment
/// but not the physical line. `None` when the text has no escape.
fn unicode_escapes(text: &str) -> Option<(String, Vec<usize>)> {
    memchr::memmem::find(text.as_bytes(), b"\\u")?;
    let mut out = String::with_capacity(text.len());
    let mut starts = Vec::new();
    let mut units: Vec<u16> = Vec::new();
    let mut backslashes = 0usize;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let escape = (c == '\\' && backslashes % 2 == 0)
            .then(|| java_escape(rest))
            .flatten();
        if let Some((unit, length)) = escape {
            units.push(unit);
            rest = rest.get(length..).unwrap_or_default();
            backslashes = 0;
            continue;
        }
        out.extend(char::decode_utf16(units.drain(..)).map(|r| r.unwrap_or('\u{fffd}')));
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
        out.push(c);
        if c == '\n' {
            starts.push(out.len());
        }
        rest = rest.get(c.len_utf8()..).unwrap_or_default();
    }
    out.extend(char::decode_utf16(units.drain(..)).map(|r| r.unwrap_or('\u{fffd}')));
    Some((out, starts))
}

/// The code unit of a Unicode escape at the start of `text` (`\uXXXX`, `\uuuXXXX`) and its
/// length in bytes; `None` when `text` does not start with one.
fn java_escape(text: &str) -> Option<(u16, usize)> {
    let after = text.get(1..).unwrap_or_default();
    let digits = after.trim_start_matches('u');
    let us = after.len() - digits.len();
    let hex = digits
        .get(..4)
        .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
    // Four hex digits always make a `u16`.
    let unit = u16::from_str_radix(hex.filter(|_| us > 0)?, 16).unwrap_or_default();
    Some((unit, 1 + us + 4))
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    /// The lines of the comments that hold `MARK`, after the translation phases.
    fn marked(text: &str, lang: Lang) -> Vec<u32> {
        Translated::new(text, lang)
            .lex(lang)
            .comments
            .into_iter()
            .filter(|(_, comment)| comment.contains("MARK"))
            .map(|(line, _)| line)
            .collect()
    }

    #[test]
    fn a_c_line_comment_that_ends_in_a_backslash_goes_on() {
        // Line 2 is still the comment of line 1: its `/*` opens nothing, and line 3's string
        // is a string.
        let text = "// see C:\\temp\\\n/* old note\nconst char *m = \"MARK -- text */\";\n\
                    int f(void); // MARK 4\n";
        assert_eq!(marked(text, Lang::CLike), [4]);
        // Without the splice the lexer would take line 2's `/*` for a comment.
        assert_eq!(marked(text, Lang::Java), [3, 4]);
        // The continued comment's own lines count, each on its physical line.
        let text = "x; // a \\\n MARK 2 \\  \r\n MARK 3\ny; // MARK 4\n";
        assert_eq!(marked(text, Lang::CLike), [2, 3, 4]);
    }

    #[test]
    fn a_splice_inside_a_block_comment_end_a_string_or_a_word() {
        // `*\` newline `/` ends the comment; the string then holds `*/ // MARK`.
        let text = "/* note *\\\n/ int u(void) { return g(\"*/ // MARK 2\"); }\nint h; // MARK 3\n";
        assert_eq!(marked(text, Lang::CLike), [3]);
        // A string continued by a splice is one string.
        let text = "const char *s = \"a\\\n// MARK 2\"; // MARK 2\n";
        let comments = Translated::new(text, Lang::CLike);
        assert_eq!(
            comments.lex(Lang::CLike).comments,
            [(2, " MARK 2")],
            "one comment, after the string"
        );
        // A marker word cut by a splice is one word, on the line where it starts.
        let text = "x; // LCOV_EXCL_\\\nLINE and more\n";
        let translated = Translated::new(text, Lang::CLike);
        assert_eq!(
            translated.lex(Lang::CLike).comments,
            [(1, " LCOV_EXCL_LINE"), (2, " and more")]
        );
        // A word that ends at the piece's end: nothing is left for the next line.
        let text = "/* LCOV_\\\nEXCL_LINE*/\n";
        let translated = Translated::new(text, Lang::CLike);
        assert_eq!(
            translated.lex(Lang::CLike).comments,
            [(1, " LCOV_EXCL_LINE"), (2, "")]
        );
        // A word across two splices is one word too.
        let text = "// LC\\\nOV_EX\\\nCL_LINE x\n";
        let translated = Translated::new(text, Lang::CLike);
        assert_eq!(
            translated.lex(Lang::CLike).comments,
            [(1, " LCOV_EXCL_LINE"), (3, " x")]
        );
        // Only C-family text is spliced; a lone backslash changes nothing.
        assert_eq!(marked("x \\ y // MARK 1\n", Lang::CLike), [1]);
        assert_eq!(marked("// a \\\n// MARK 2\n", Lang::JavaScript), [2]);
    }

    #[test]
    fn java_unicode_escapes_are_translated_first() {
        let text = "class A {\n  /* hidden: \\u002a/ static String s = \"// MARK 2 */\";\n\
                    int f() { return 1; } // MARK 3\n}\n";
        assert_eq!(marked(text, Lang::Java), [3]);
        // `\\u` is no escape (the backslash is escaped); `\uuu0041` is one; an escaped line
        // feed ends a `//` comment but not the line.
        let text =
            "// a \\\\u000a MARK 1\n// b \\u000a x = \"MARK 2\";\nint \\uuu0041; // MARK 3\n";
        assert_eq!(marked(text, Lang::Java), [1, 3]);
        // Surrogate pairs, lone surrogates, bad escapes and `\u` at the end.
        let text = "// \\ud83d\\ude00 \\ud800 \\u12 \\0041 MARK 1 \\u \\u0041";
        let translated = Translated::new(text, Lang::Java);
        assert_eq!(
            translated.lex(Lang::Java).comments,
            [(1, " \u{1f600} \u{fffd} \\u12 \\0041 MARK 1 \\u A")]
        );
        // A text without an escape is not copied.
        assert!(matches!(
            Translated::new("int x; // \\n\n", Lang::Java).text,
            Cow::Borrowed(_)
        ));
    }
}
