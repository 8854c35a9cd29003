//! The lexer: one trimmed line of a tracefile as a [`Record`], its numbers checked.

use crate::report::clip;

/// One lexed record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Record<'a> {
    /// `TN`, `VER`: accepted anywhere, ignored.
    Ignored,
    /// `MCDC`, `MCF`, `MCH`: accepted inside a section, skipped.
    Skipped,
    Sf(&'a str),
    Fn {
        start: u32,
        end: Option<u32>,
        name: &'a str,
    },
    Fnda {
        count: u64,
        name: &'a str,
    },
    Fnl {
        index: u64,
        start: u32,
        end: Option<u32>,
    },
    Fna {
        index: u64,
        count: u64,
        alias: &'a str,
    },
    Brda {
        line: u32,
        block: &'a str,
        branch: &'a str,
        taken: Option<u64>,
    },
    Da {
        line: u32,
        count: u64,
    },
    Total(TotalKind, u64),
    Unknown(&'a str),
}

/// Which declared total a record sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TotalKind {
    LinesFound,
    LinesHit,
    BranchesFound,
    BranchesHit,
    FunctionsFound,
    FunctionsHit,
}

pub(super) const END_OF_RECORD: &str = "end_of_record";

/// Record tags of geninfo(1); a tag glued after `end_of_record` must be one of these.
pub(super) const KNOWN_TAGS: [&str; 18] = [
    "TN", "SF", "VER", "FN", "FNDA", "FNL", "FNA", "FNF", "FNH", "BRDA", "BRF", "BRH", "DA", "LF",
    "LH", "MCDC", "MCF", "MCH",
];

/// Lexes one trimmed, non-empty, non-comment line that does not start with `end_of_record`.
/// The error is the message without location.
pub(super) fn lex(text: &str) -> std::result::Result<Record<'_>, String> {
    match plain(text) {
        Some(record) => Ok(record),
        None => general(text),
    }
}

/// [`lex`] for any line, field by field.
fn general(text: &str) -> std::result::Result<Record<'_>, String> {
    let record = split_at(text, b':').filter(|(tag, _)| is_tag(tag));
    let Some((tag, value)) = record else {
        if text.contains('\0') {
            let utf16 = text
                .as_bytes()
                .get(..2)
                .is_some_and(crate::text::ascii_in_utf16);
            let what = if utf16 {
                crate::text::UTF16
            } else {
                crate::text::BINARY
            };
            return Err(format!("the report {what}"));
        }
        return Err(format!(
            "`{}` is not an LCOV record (`TAG:VALUE`, a `#` comment or `end_of_record`); is this a tracefile?",
            clip(text)
        ));
    };
    match tag {
        "TN" | "VER" => Ok(Record::Ignored),
        "MCDC" | "MCF" | "MCH" => Ok(Record::Skipped),
        "SF" => lex_sf(value),
        "FN" => lex_fn(value),
        "FNDA" => lex_fnda(value),
        "FNL" => lex_fnl(value),
        "FNA" => lex_fna(value),
        "BRDA" => lex_brda(value),
        "DA" => lex_da(value),
        _ => match total_kind(tag) {
            Some(kind) => Ok(Record::Total(kind, count(value, tag, "count")?)),
            None => Ok(Record::Unknown(tag)),
        },
    }
}

/// The records that make up almost every line of a tracefile, written plainly, lexed in one
/// pass without splitting the line into fields first: `DA:<line>,<count>` (no checksum, no
/// blanks), `FN:<start>,<name>` and `FNDA:<count>,<name>` (a name that starts with a visible
/// ASCII character other than a digit, so that it is neither blank nor an `FN` end line).
/// Numbers are those [`leading_number`] and [`plain_number`] read, and line numbers fit `u32`.
/// Anything else is `None` and left to the general path of [`lex`], which reads it alike or
/// says what is wrong.
fn plain(text: &str) -> Option<Record<'_>> {
    if let Some(value) = text.strip_prefix("DA:") {
        let (line, count) = leading_number(value)?;
        return Some(Record::Da {
            line: u32::try_from(line).ok()?,
            count: plain_number(count)?,
        });
    }
    if let Some(value) = text.strip_prefix("FN:") {
        let (start, name) = leading_number(value)?;
        return Some(Record::Fn {
            start: u32::try_from(start).ok()?,
            end: None,
            name: plain_name(name)?,
        });
    }
    let (count, name) = leading_number(text.strip_prefix("FNDA:")?)?;
    Some(Record::Fnda {
        count,
        name: plain_name(name)?,
    })
}

/// A plain `DA:<line>,<count>` line at the start of `bytes`, ended by a line break (`\n`, not
/// `\r\n`): its record, and its length with the line break. Found without searching for the
/// line's end first (most lines of a tracefile are such, and short: a search per line costs more
/// than reading it). Exactly the lines [`lex`] reads as a `DA` record in one pass ([`plain`])
/// and that are as they are once trimmed; anything else is `None`, left to [`lex`].
pub(super) fn da_line(bytes: &[u8]) -> Option<(Record<'static>, usize)> {
    let mut rest = bytes.strip_prefix(b"DA:")?.iter();
    let (line, after) = number_then(&mut rest)?;
    (after == b',').then_some(())?;
    let (count, after) = number_then(&mut rest)?;
    (after == b'\n').then_some(())?;
    let record = Record::Da {
        line: u32::try_from(line).ok()?,
        count,
    };
    Some((record, bytes.len() - rest.as_slice().len()))
}

/// A plain `FN:<start>,<name>` line (`line`, without its line break) as [`lex`] reads it
/// ([`plain`]) from a line that trimming leaves as it is (its last byte visible ASCII): its
/// start line and name. `None` for any other line, left to [`lex`].
pub(super) fn fn_line(line: &str) -> Option<(u32, &str)> {
    let value = line.strip_prefix("FN:")?;
    line.as_bytes()
        .last()
        .is_some_and(u8::is_ascii_graphic)
        .then_some(())?;
    let (start, name) = leading_number(value)?;
    Some((u32::try_from(start).ok()?, plain_name(name)?))
}

/// The count of a plain `FNDA:<count>,` at the start of `bytes`, as [`plain`] reads it, and the
/// bytes after the comma (the name, for [`named_line`]).
pub(super) fn fnda_count(bytes: &[u8]) -> Option<(u64, &[u8])> {
    let mut rest = bytes.strip_prefix(b"FNDA:")?.iter();
    let (count, after) = number_then(&mut rest)?;
    (after == b',').then_some((count, rest.as_slice()))
}

/// The length of `name` with its line break when `bytes` starts with `name` ended by `\n`, and
/// `name` is one that [`plain`] reads as it is from a line that trimming leaves as it is (its
/// first byte visible ASCII but a digit, its last visible ASCII): an `FNDA` line of a name
/// known already, recognised without searching for the line's end.
pub(super) fn named_line(bytes: &[u8], name: &str) -> Option<usize> {
    bytes
        .strip_prefix(name.as_bytes())?
        .starts_with(b"\n")
        .then_some(())?;
    let visible_end = name.as_bytes().last().is_some_and(u8::is_ascii_graphic);
    plain_name(name)
        .filter(|_| visible_end)
        .map(|_| name.len() + 1)
}

/// The number spelt by the 1 to 19 ASCII digits at the start of `rest` (as [`plain_number`]
/// reads them) and the byte after them, all consumed; `None` when there is no digit, more than
/// 19, or no byte after them. Read through the slice's iterator, inlined: the `DA` lines' two
/// numbers are most of what a tracefile holds.
#[inline(always)]
fn number_then(rest: &mut std::slice::Iter<'_, u8>) -> Option<(u64, u8)> {
    let (mut n, mut len) = (0u64, 0usize);
    loop {
        let byte = *rest.next()?;
        let digit = byte.wrapping_sub(b'0');
        if digit > 9 {
            return (1..=19).contains(&len).then_some((n, byte));
        }
        // Wraps only past 19 digits, which are refused.
        n = n.wrapping_mul(10).wrapping_add(u64::from(digit));
        len += 1;
    }
}

/// `value` split at its first comma when what comes before it is a number that
/// [`plain_number`] reads: the number and the rest after the comma. Digits are read up to the
/// comma in one pass (the general path finds the comma first, then reads the digits).
fn leading_number(value: &str) -> Option<(u64, &str)> {
    let digits = value.bytes().take_while(u8::is_ascii_digit).count();
    // `digits` ASCII bytes: the split succeeds.
    let (number, rest) = value.split_at_checked(digits).unwrap_or_default();
    Some((plain_number(number)?, rest.strip_prefix(',')?))
}

/// `name` when its first byte is a visible ASCII character other than a digit: not blank, and
/// not an `FN` end line followed by the name (a symbol never starts with a digit).
fn plain_name(name: &str) -> Option<&str> {
    let first = *name.as_bytes().first()?;
    (first.is_ascii_graphic() && !first.is_ascii_digit()).then_some(name)
}

/// True for a record name as tracefile writers spell them: an ASCII letter, then letters, digits
/// or `_` (an unknown one is skipped with a warning; anything else is not a record).
fn is_tag(tag: &str) -> bool {
    let mut chars = tag.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn total_kind(tag: &str) -> Option<TotalKind> {
    Some(match tag {
        "LF" => TotalKind::LinesFound,
        "LH" => TotalKind::LinesHit,
        "BRF" => TotalKind::BranchesFound,
        "BRH" => TotalKind::BranchesHit,
        "FNF" => TotalKind::FunctionsFound,
        "FNH" => TotalKind::FunctionsHit,
        _ => return None,
    })
}

const SF_SYNTAX: &str = "`SF:<path>`";
const FN_SYNTAX: &str = "`FN:<start>,[<end>,]<name>`";
const FNDA_SYNTAX: &str = "`FNDA:<count>,<name>`";
const FNL_SYNTAX: &str = "`FNL:<index>,<start>[,<end>]`";
const FNA_SYNTAX: &str = "`FNA:<index>,<count>,<alias>`";
const BRDA_SYNTAX: &str = "`BRDA:<line>,<block>,<branch>,<taken>`";
const DA_SYNTAX: &str = "`DA:<line>,<count>[,<checksum>]`";

fn lex_sf(value: &str) -> std::result::Result<Record<'_>, String> {
    let path = value.trim();
    if path.is_empty() {
        return Err(format!("SF: missing path; expected {SF_SYNTAX}"));
    }
    if path.contains('\0') {
        return Err(format!(
            "SF: path {:?} holds a NUL byte, which no file system allows in a path",
            clip(path)
        ));
    }
    Ok(Record::Sf(path))
}

fn lex_fn(value: &str) -> std::result::Result<Record<'_>, String> {
    let (start, rest) = split_field(value, "FN", "name", FN_SYNTAX)?;
    let start = line_number(start, "FN", "start line", FN_SYNTAX)?;
    let (end, name) = match split_at(rest, b',') {
        Some((end, name)) if is_digits(end.trim()) => {
            (Some(line_number(end, "FN", "end line", FN_SYNTAX)?), name)
        }
        _ => (None, rest),
    };
    Ok(Record::Fn {
        start,
        end,
        name: non_empty(name, "FN", "name", FN_SYNTAX)?,
    })
}

fn lex_fnda(value: &str) -> std::result::Result<Record<'_>, String> {
    let (c, name) = split_field(value, "FNDA", "name", FNDA_SYNTAX)?;
    Ok(Record::Fnda {
        count: count(c, "FNDA", "execution count")?,
        name: non_empty(name, "FNDA", "name", FNDA_SYNTAX)?,
    })
}

fn lex_fnl(value: &str) -> std::result::Result<Record<'_>, String> {
    let (index, rest) = split_field(value, "FNL", "start line", FNL_SYNTAX)?;
    let (start, end) = match split_at(rest, b',') {
        Some((start, end)) => (
            start,
            Some(line_number(end, "FNL", "end line", FNL_SYNTAX)?),
        ),
        None => (rest, None),
    };
    Ok(Record::Fnl {
        index: number(index, "FNL", "index", FNL_SYNTAX)?,
        start: line_number(start, "FNL", "start line", FNL_SYNTAX)?,
        end,
    })
}

fn lex_fna(value: &str) -> std::result::Result<Record<'_>, String> {
    let (index, rest) = split_field(value, "FNA", "count", FNA_SYNTAX)?;
    let (c, alias) = split_field(rest, "FNA", "alias", FNA_SYNTAX)?;
    Ok(Record::Fna {
        index: number(index, "FNA", "index", FNA_SYNTAX)?,
        count: count(c, "FNA", "execution count")?,
        alias: non_empty(alias, "FNA", "alias", FNA_SYNTAX)?,
    })
}

fn lex_brda(value: &str) -> std::result::Result<Record<'_>, String> {
    let (line, rest) = split_field(value, "BRDA", "block", BRDA_SYNTAX)?;
    let (block, rest) = split_field(rest, "BRDA", "branch", BRDA_SYNTAX)?;
    let Some((branch, taken)) = rest.rsplit_once(',') else {
        return Err(format!(
            "BRDA: missing taken count; expected {BRDA_SYNTAX} with `-` or a count"
        ));
    };
    let taken = match taken.trim() {
        "-" => None,
        t => Some(count(t, "BRDA", "taken count (or `-`)")?),
    };
    Ok(Record::Brda {
        line: line_number(line, "BRDA", "line", BRDA_SYNTAX)?,
        block: non_empty(block, "BRDA", "block", BRDA_SYNTAX)?,
        branch: non_empty(branch, "BRDA", "branch", BRDA_SYNTAX)?,
        taken,
    })
}

fn lex_da(value: &str) -> std::result::Result<Record<'_>, String> {
    let (line, rest) = split_field(value, "DA", "execution count", DA_SYNTAX)?;
    let (c, checksum) = match split_at(rest, b',') {
        Some((c, sum)) => (c, Some(sum.trim())),
        None => (rest, None),
    };
    if let Some(sum) = checksum.filter(|s| !is_checksum(s)) {
        return Err(format!(
            "DA: checksum `{sum}` is not base64 or hex (two records glued on one line?); expected {DA_SYNTAX}"
        ));
    }
    Ok(Record::Da {
        line: line_number(line, "DA", "line", DA_SYNTAX)?,
        count: count(c, "DA", "execution count")?,
    })
}

/// Splits `value` at its first comma; the error names the missing second field.
fn split_field<'v>(
    value: &'v str,
    tag: &str,
    missing: &str,
    syntax: &str,
) -> std::result::Result<(&'v str, &'v str), String> {
    split_at(value, b',').ok_or_else(|| format!("{tag}: missing {missing}; expected {syntax}"))
}

fn non_empty<'v>(
    field: &'v str,
    tag: &str,
    what: &str,
    syntax: &str,
) -> std::result::Result<&'v str, String> {
    if field.trim().is_empty() {
        Err(format!("{tag}: empty {what}; expected {syntax}"))
    } else {
        Ok(field)
    }
}

/// `text` split at the first `byte` (ASCII), which is dropped; `str::split_once` with a search
/// set up for the field's length: a plain loop over a short field (a number, a tag), where
/// setting up a vectorised search costs more than it saves, `memchr` over a long one (a
/// function name).
pub(super) fn split_at(text: &str, byte: u8) -> Option<(&str, &str)> {
    let bytes = text.as_bytes();
    let at = if bytes.len() < SHORT_FIELD {
        bytes.iter().position(|b| *b == byte)
    } else {
        memchr::memchr(byte, bytes)
    }?;
    // `at` is the index of an ASCII byte: both gets succeed.
    Some((
        text.get(..at).unwrap_or_default(),
        text.get(at + 1..).unwrap_or_default(),
    ))
}

/// Fields shorter than this many bytes are searched byte by byte ([`split_at`]).
const SHORT_FIELD: usize = 32;

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Base64 (standard or URL-safe, with padding) or hex, as lcov, gcovr and coverage.py write.
fn is_checksum(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_'))
}

/// An execution count: a non-negative decimal integer up to `u64::MAX`.
fn count(field: &str, tag: &str, what: &str) -> std::result::Result<u64, String> {
    number(field, tag, what, "a non-negative integer count")
}

/// A line number: a non-negative decimal integer up to `u32::MAX`.
fn line_number(
    field: &str,
    tag: &str,
    what: &str,
    syntax: &str,
) -> std::result::Result<u32, String> {
    let n = number(field, tag, what, syntax)?;
    u32::try_from(n).map_err(|_| {
        format!(
            "{tag} {what} `{}` is too large (at most {}); expected {syntax}",
            clip(field.trim()),
            u32::MAX
        )
    })
}

/// `field` as a number when it is 1 to 19 ASCII digits and nothing else (a number that cannot
/// overflow `u64`): the common case, without trimming or checks.
fn plain_number(field: &str) -> Option<u64> {
    if field.is_empty() || field.len() > 19 {
        return None;
    }
    field.bytes().try_fold(0u64, |n, b| {
        b.is_ascii_digit().then(|| n * 10 + u64::from(b - b'0'))
    })
}

/// A non-negative decimal integer up to `u64::MAX`. The error names the record (`tag`) and the
/// field (`what`), says what was wrong and what was `expected`.
fn number(field: &str, tag: &str, what: &str, expected: &str) -> std::result::Result<u64, String> {
    if let Some(n) = plain_number(field) {
        return Ok(n);
    }
    let f = field.trim();
    let problem = if f.is_empty() {
        return Err(format!("{tag} {what} is missing; expected {expected}"));
    } else if f.strip_prefix('-').is_some_and(is_digits) {
        "is negative"
    } else if !is_digits(f) {
        "is not a non-negative decimal integer"
    } else {
        match f.parse::<u64>() {
            Ok(n) => return Ok(n),
            Err(_) => "is too large (at most 18446744073709551615)",
        }
    };
    Err(format!(
        "{tag} {what} `{}` {problem}; expected {expected}",
        clip(f)
    ))
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "lex_tests.rs"]
mod tests;
