//! The lexical helpers of the C and C++ no-code scan ([`super::classify`]): words, comments,
//! string and raw string literals, preprocessor lines, operator symbols, digraphs and trigraphs.
//! Each works on the file's bytes from an index and counts the line breaks it passes.

/// The bytes of an overloaded operator's symbol after `operator` (`operator<<=`, `operator->*`).
const OPERATOR_BYTES: &[u8] = b"+-*/%^&|~!=<>,";

/// The preprocessor conditionals: one inside a declaration may hide its end or its body
/// (`int f(int a)` / `#ifdef X` / `;` / `#else` / `{ … }` / `#endif`).
const CONDITIONAL_DIRECTIVES: [&[u8]; 8] = [
    b"if",
    b"ifdef",
    b"ifndef",
    b"elif",
    b"elifdef",
    b"elifndef",
    b"else",
    b"endif",
];

pub(super) fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

pub(super) fn word_end(text: &[u8], start: usize) -> usize {
    let mut end = start;
    while text.get(end).is_some_and(|&b| is_word_byte(b)) {
        end += 1;
    }
    end
}

/// The index just past an overloaded operator's symbol after the word `operator` that ends at
/// `i` (`==`, `<<=`, `->*`, `()`, `[]`), so that `=`, `<` and `>` in it are not read as an
/// initialiser or a template's brackets; just past the white space before a conversion
/// operator's type or `new`, `delete`, `""`. Counts the line breaks passed.
pub(super) fn skip_operator_symbol(text: &[u8], i: usize, line: &mut u64) -> usize {
    let mut j = i;
    while let Some(&b) = text.get(j).filter(|b| b.is_ascii_whitespace()) {
        *line += u64::from(b == b'\n');
        j += 1;
    }
    let pair = |open: u8, close: u8| text.get(j) == Some(&open) && text.get(j + 1) == Some(&close);
    if pair(b'(', b')') || pair(b'[', b']') {
        return j + 2;
    }
    let symbol = text.get(j..).unwrap_or_default();
    let length = symbol
        .iter()
        .take_while(|b| OPERATOR_BYTES.contains(b))
        .count();
    j + length
}

/// True when the preprocessor line whose `#` is just before `i` is a conditional
/// ([`CONDITIONAL_DIRECTIVES`]; blanks may stand between the `#` and its name).
pub(super) fn is_conditional(text: &[u8], i: usize) -> bool {
    CONDITIONAL_DIRECTIVES.contains(&directive(text, i).0)
}

/// The name of the preprocessor directive whose `#` is just before `i` (blanks may stand
/// between), and the index just past it.
pub(super) fn directive(text: &[u8], i: usize) -> (&[u8], usize) {
    let start = i + blanks(text, i);
    let end = word_end(text, start);
    (text.get(start..end).unwrap_or_default(), end)
}

/// How many spaces and tabs start at `i`.
pub(super) fn blanks(text: &[u8], i: usize) -> usize {
    let rest = text.get(i..).unwrap_or_default();
    rest.iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count()
}

/// True when a digraph (`<%`, `%>`, `<:`, `:>`, `%:`) or a trigraph (`??<`, `??=`, …) starts at
/// `i`: the scan does not follow their braces and brackets, so they count as code. `<::` not
/// followed by `:` or `>` is `<` and `::` (C++11), as in `std::vector<::id>`.
pub(super) fn is_digraph(text: &[u8], i: usize) -> bool {
    let at = |k: usize| text.get(i + k).copied();
    match (at(0), at(1)) {
        (Some(b'<'), Some(b':')) => at(2) != Some(b':') || matches!(at(3), Some(b':' | b'>')),
        (Some(b'<'), Some(b'%')) | (Some(b'%'), Some(b'>' | b':')) | (Some(b':'), Some(b'>')) => {
            true
        }
        (Some(b'?'), Some(b'?')) => at(2).is_some_and(|b| b"=/'()!<>-".contains(&b)),
        _ => false,
    }
}

/// `R`, `u8R`, `uR`, `UR`, `LR`: the prefixes of a C++ raw string literal.
pub(super) fn is_raw_prefix(word: &[u8]) -> bool {
    [&b"R"[..], b"u8R", b"uR", b"UR", b"LR"].contains(&word)
}

/// The index just past the end of the line that starts at or before `i` (a `\` before the line
/// break continues it, as in preprocessor lines and `//` comments); counts the breaks passed.
pub(super) fn skip_line(text: &[u8], mut i: usize, line: &mut u64) -> usize {
    let mut escaped = false;
    while let Some(&b) = text.get(i) {
        if b == b'\n' {
            *line += 1;
            if !escaped {
                return i + 1;
            }
        }
        escaped = b == b'\\' || (escaped && b == b'\r');
        i += 1;
    }
    i
}

/// The index just past the preprocessor line whose `#` is at `i`. It ends at a newline that is
/// not escaped and not inside a block comment: comments are replaced by a space before
/// directives are read (C17 5.1.1.2, phases 3 and 4), so a `/* … */` that spans lines continues
/// the directive (`#define A 1 /* … ⏎ … */`). A `/*` inside a string literal (`#define S "/*"`)
/// opens no comment; a literal left open ends at its line, and so does the directive.
/// `usize::MAX` when the text ends inside a block comment.
pub(super) fn skip_directive(text: &[u8], mut i: usize, line: &mut u64) -> usize {
    let mut escaped = false;
    while let Some(&b) = text.get(i) {
        let next = text.get(i + 1).copied();
        match (b, next) {
            (b'\n', _) if !escaped => {
                *line += 1;
                return i + 1;
            }
            (b'/', Some(b'*')) => {
                i = skip_block_comment(text, i, line);
                if i == usize::MAX {
                    return i;
                }
            }
            (b'/', Some(b'/')) => return skip_line(text, i, line),
            (b'"' | b'\'', _) => {
                i = skip_quoted(text, i, b, line);
                if text.get(i.wrapping_sub(1)) == Some(&b'\n') {
                    return i;
                }
            }
            _ => {
                *line += u64::from(b == b'\n');
                i += 1;
            }
        }
        escaped = b == b'\\' || (escaped && b == b'\r');
    }
    i
}

/// The index just past the `*/` that ends the comment starting at `i`, or `usize::MAX` when the
/// text ends first.
pub(super) fn skip_block_comment(text: &[u8], i: usize, line: &mut u64) -> usize {
    let mut j = i + 2;
    while let Some(&b) = text.get(j) {
        if b == b'*' && text.get(j + 1) == Some(&b'/') {
            return j + 2;
        }
        *line += u64::from(b == b'\n');
        j += 1;
    }
    usize::MAX
}

/// The index just past a string or character literal that starts at `i` with `quote`. A literal
/// left open at the end of its line ends there (the compiler would reject it; the scan goes on).
pub(super) fn skip_quoted(text: &[u8], i: usize, quote: u8, line: &mut u64) -> usize {
    let mut j = i + 1;
    while let Some(&b) = text.get(j) {
        match b {
            b'\\' => j += 2,
            b'\n' => {
                *line += 1;
                return j + 1;
            }
            _ if b == quote => return j + 1,
            _ => j += 1,
        }
    }
    j
}

/// The index just past a raw string literal whose `"` is at `quote` (`R"delim( … )delim"`), or
/// `None` when the text ends first or the delimiter is not one: longer than 16 characters, or
/// holding a space, `)`, `\\` or `"`. Only those 17 bytes are looked at for the `(`, so a file of
/// `R"`s costs linear time, and each `)` in the body is compared with at most 16 bytes.
pub(super) fn skip_raw_string(text: &[u8], quote: usize, line: &mut u64) -> Option<usize> {
    let rest = text.get(quote + 1..).unwrap_or_default();
    let window = rest.get(..=16).unwrap_or(rest);
    let length = window.iter().position(|&b| b == b'(')?;
    let delimiter = rest.get(..length).unwrap_or_default();
    if delimiter.iter().any(|b| b" )\\\"\t\n".contains(b)) {
        return None;
    }
    let open = quote + 1 + length;
    let mut j = open + 1;
    while let Some(&b) = text.get(j) {
        if b == b')'
            && text.get(j + 1..j + 1 + delimiter.len()) == Some(delimiter)
            && text.get(j + 1 + delimiter.len()) == Some(&b'"')
        {
            return Some(j + 2 + delimiter.len());
        }
        *line += u64::from(b == b'\n');
        j += 1;
    }
    None
}
