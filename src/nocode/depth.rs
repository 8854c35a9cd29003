//! How deep a Rust source nests, estimated before `syn` parses it.
//!
//! `syn` parses, visits and drops a syntax tree by recursion, one call (or several) per level of
//! nesting, so a source nested thousands of levels deep (a generated table of nested tuples, a
//! hostile change) would overflow the stack and abort the process. The estimate below bounds that
//! nesting from the text alone: each bracket `(`, `[`, `{` opens a level, and each operator
//! character (`+ - * / % ! & | ^ < > = . ?`) between two `,` or `;` of one bracket group adds one
//! (an operator chain `a + b + c …`, a method chain, prefix operators and generic arguments nest
//! in the tree too). It errs on the side of depth: operators of two-character tokens count twice.
//! Comments, string, byte-string and character literals are skipped. A source whose estimate
//! passes [`MAX_DEPTH`] is not parsed.

/// The deepest nesting parsed: 1,000 levels. Real sources nest a few dozen; the parse of this
/// many levels fits the stack [`super::classify`] runs on.
pub(crate) const MAX_DEPTH: usize = 1000;

/// The 1-based line at which `text`'s nesting estimate first passes [`MAX_DEPTH`], if it does.
pub(crate) fn too_deep(text: &str) -> Option<u64> {
    let bytes = text.as_bytes();
    let mut scan = Scan::default();
    let mut i = 0;
    let mut line = 1;
    while let Some(&b) = bytes.get(i) {
        let next = skip_literal(bytes, i).unwrap_or_else(|| {
            scan.byte(b);
            i + 1
        });
        line += line_count(bytes.get(i..next).unwrap_or_default());
        i = next;
        if scan.base + scan.ops > MAX_DEPTH {
            return Some(line);
        }
    }
    None
}

/// The state of the estimate: the depth at which the current bracket group starts, the operators
/// seen in its current `,`/`;` segment, and the same for each enclosing group.
#[derive(Default)]
struct Scan {
    base: usize,
    ops: usize,
    outer: Vec<(usize, usize)>,
}

impl Scan {
    fn byte(&mut self, b: u8) {
        match b {
            b'(' | b'[' | b'{' => {
                self.outer.push((self.base, self.ops));
                self.base += self.ops + 1;
                self.ops = 0;
            }
            b')' | b']' | b'}' => {
                // An unbalanced closer is left for the parser to report.
                (self.base, self.ops) = self.outer.pop().unwrap_or_default();
            }
            b',' | b';' => self.ops = 0,
            b'+' | b'-' | b'*' | b'/' | b'%' | b'!' | b'&' | b'|' | b'^' | b'<' | b'>' | b'='
            | b'.' | b'?' => self.ops += 1,
            _ => {}
        }
    }
}

fn line_count(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| b == b'\n').count() as u64
}

/// The index just past the comment or literal that starts at `i`, or `None` when none does.
fn skip_literal(bytes: &[u8], i: usize) -> Option<usize> {
    let rest = bytes.get(i..).unwrap_or_default();
    let after_word = i
        .checked_sub(1)
        .and_then(|at| bytes.get(at))
        .is_none_or(|&b| !is_word(b));
    if rest.starts_with(b"//") {
        Some(find(bytes, i, b"\n").unwrap_or(bytes.len()))
    } else if rest.starts_with(b"/*") {
        Some(block_comment_end(bytes, i + 2))
    } else if rest.starts_with(b"\"") {
        Some(quoted_end(bytes, i + 1, b'"'))
    } else if rest.starts_with(b"'") {
        char_end(bytes, i + 1)
    } else if after_word {
        raw_string_end(bytes, i)
    } else {
        None
    }
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// The index just past `needle`'s first occurrence at or after `from`.
fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes
        .get(from..)
        .unwrap_or_default()
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|at| from + at + needle.len())
}

/// The index just past the `*/` that closes a block comment whose text starts at `i` (block
/// comments nest); the end of the text when it is not closed.
fn block_comment_end(bytes: &[u8], mut i: usize) -> usize {
    let mut open = 1;
    while open > 0 {
        match bytes.get(i..) {
            Some([b'/', b'*', ..]) => (open, i) = (open + 1, i + 2),
            Some([b'*', b'/', ..]) => (open, i) = (open - 1, i + 2),
            Some([_, ..]) => i += 1,
            _ => return bytes.len(),
        }
    }
    i
}

/// The index just past the `close` quote that ends a literal whose text starts at `i` (a
/// backslash escapes the next byte); the end of the text when it is not closed.
fn quoted_end(bytes: &[u8], mut i: usize, close: u8) -> usize {
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 2,
            b if b == close => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// After a `'` at `i - 1`: the index past a character literal (`'x'`, `'\n'`, `'é'`), or `None`
/// for a lifetime or label (`'a`), whose name is read as ordinary text.
fn char_end(bytes: &[u8], i: usize) -> Option<usize> {
    if bytes.get(i) == Some(&b'\\') {
        return Some(quoted_end(bytes, i, b'\''));
    }
    // One character (of up to 4 bytes), then the closing quote.
    (i + 1..=i + 4)
        .find(|&end| bytes.get(end) == Some(&b'\''))
        .filter(|&end| {
            bytes
                .get(i..end)
                .and_then(|c| std::str::from_utf8(c).ok())
                .is_some_and(|c| c.chars().count() == 1)
        })
        .map(|end| end + 1)
}

/// The index past a raw string (`r"…"`, `r#"…"#`, `br"…"`, `cr#"…"#`) that starts at `i`.
fn raw_string_end(bytes: &[u8], i: usize) -> Option<usize> {
    let rest = bytes.get(i..).unwrap_or_default();
    let prefix = [&b"r"[..], b"br", b"cr"]
        .into_iter()
        .find(|p| rest.starts_with(p))?;
    let after = rest.get(prefix.len()..).unwrap_or_default();
    let hashes = after.iter().take_while(|&&b| b == b'#').count();
    let open = prefix.len() + hashes;
    (rest.get(open) == Some(&b'"')).then(|| {
        let mut close = vec![b'"'];
        close.extend(std::iter::repeat_n(b'#', hashes));
        find(bytes, i + open + 1, &close).unwrap_or(bytes.len())
    })
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn nesting_past_the_limit_is_found_on_its_line() {
        let deep = format!(
            "const X: u8 =\n{}1{};\n",
            "(".repeat(1001),
            ")".repeat(1001)
        );
        assert_eq!(too_deep(&deep), Some(2));
        let fine = format!("const X: u8 = {}1{};\n", "(".repeat(999), ")".repeat(999));
        assert_eq!(too_deep(&fine), None);
        // Operator chains and prefix operators nest as well; commas and semicolons end them.
        assert_eq!(
            too_deep(&format!("const X: u8 = 1{};", "+1".repeat(1000))),
            Some(1)
        );
        assert_eq!(
            too_deep(&format!("const X: bool = {}true;", "!".repeat(1001))),
            Some(1)
        );
        assert_eq!(
            too_deep(&format!("const X: [u8; 2000] = [{}];", "1,".repeat(2000))),
            None
        );
        assert_eq!(too_deep(&"const X: u8 = 1;\n".repeat(2000)), None);
        // An unbalanced closer is the parser's to report.
        assert_eq!(too_deep(")))) fn f() {}"), None);
    }

    #[test]
    fn comments_and_literals_are_skipped() {
        let many = "(".repeat(2000);
        for text in [
            format!("// {many}\nfn f() {{}}"),
            format!("/* /* {many} */ {many} */ fn f() {{}}"),
            format!("const S: &str = \"\\\" {many}\";"),
            format!("const S: &str = r#\"\" {many}\"#;"),
            format!("const S: &[u8] = br\"{many}\";"),
            format!(
                "const C: char = '('; const D: char = '\\''; const E: char = 'é'; {}",
                "'(';".repeat(2000)
            ),
            format!("fn f<'a>(x: &'a u8) -> &'a u8 {{ x }} // {many}"),
            format!("fn f<'a, 'b>() {{}} // {many}"),
            // Unclosed comments and literals end the text.
            format!("/* {many}"),
            format!("\"{many}"),
            format!("r#\"{many}"),
        ] {
            assert_eq!(too_deep(&text), None, "{}", &text[..40]);
        }
        // A lifetime is not a literal; `r` inside a word does not start a raw string; a quote at
        // the end of the text is no literal.
        assert_eq!(too_deep(&format!("'a: loop {{ {many} }}")), Some(1));
        assert_eq!(too_deep(&format!("bar\"{many}\"")), None);
        assert_eq!(too_deep(&format!("r {many}")), Some(1));
        assert_eq!(too_deep("'"), None);
    }
}
