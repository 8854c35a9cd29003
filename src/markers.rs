//! Inline ignore markers: finding them in source comments and turning them into ignored lines
//! ([`Ignores`]); taking the items on those lines out of the coverage data is
//! [`crate::measure::apply`].
//!
//! Marker families (each can be switched on or off in the policy's `[inline] markers`):
//!
//! | family | this line | next line | range (inclusive) | branches only |
//! |---|---|---|---|---|
//! | `covgate` | `covgate:ignore -- reason` | `covgate:ignore-next -- reason` | `covgate:ignore-start -- reason` … `covgate:ignore-end` | — |
//! | `lcov` | `LCOV_EXCL_LINE` | — | `LCOV_EXCL_START` … `LCOV_EXCL_STOP` | `LCOV_EXCL_BR_LINE` |
//! | `grcov` | `grcov-excl-line` | — | `grcov-excl-start` … `grcov-excl-stop` | `grcov-excl-br-line` |
//!
//! Markers count only inside comments: a marker in a string literal (one that spans lines too)
//! or a Rust doc comment is text. Comments are found by a small lexer per language, chosen by
//! extension ([`Lang`]), which knows its string syntaxes; a marker in a file of another
//! language ([`Lang::Unknown`]) is an error, since it cannot be told from text in a string.
//! A covgate marker needs a reason after ` -- ` when `require-reason` is on (the default).
//! A range start without its end, an end without a start, or a start inside an open range of the
//! same family is an error naming the file and line, as is a near-miss of a marker of an enabled
//! family (`covgate: ignore`, `covgate:ignore-nxt`, `LCOV_EXCL_LIEN`, `grcov-excl-lines`), which
//! would otherwise be neither honoured nor reported.
//!
//! The same scan finds Rust's `coverage(off)` attributes in a file's code ([`OffItem`]), which
//! take code out of the report itself: they are counted and shown, not markers.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::model::LineRange;
use crate::policy::{Family, Inline};
use crate::source::{self, Refused};

mod coverage_off;
mod lexer;
mod phases;
pub use coverage_off::OffItem;
pub use lexer::{as_compiled, comments, Lang};

/// What a marker does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Line,
    NextLine,
    Start,
    End,
    BranchLine,
}

/// The ignores found in one source file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ignores {
    /// Lines whose lines, regions, branches and functions (by start line) leave their metrics.
    pub lines: BTreeSet<u32>,
    /// Lines whose branches (only) leave the branches metric.
    pub branch_lines: BTreeSet<u32>,
    /// Number of markers found.
    pub markers: usize,
    /// Each marker (a range as one), with the lines it ignores, in file order: for telling a
    /// stale one, which ignores nothing uncovered.
    pub marks: Vec<Mark>,
}

/// One marker and the lines it ignores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    /// Its family.
    pub family: Family,
    /// The marker's line (a range's start).
    pub line: u32,
    /// The lines it ignores.
    pub lines: LineRange,
    /// True for a `BR` marker: only the branches on its line.
    pub branches_only: bool,
}

impl Ignores {
    /// True when no marker was found.
    pub fn is_empty(&self) -> bool {
        self.markers == 0
    }

    /// True when branches starting on `line` are ignored.
    pub(crate) fn ignores_branch(&self, line: u32) -> bool {
        self.lines.contains(&line) || self.branch_lines.contains(&line)
    }
}

/// Scans `text` (the source of `file`, for messages) for markers of `families`.
///
/// Errors: an unbalanced range, (with `require_reason`) a covgate marker without a reason (or
/// with one that shows nothing: white space, zero-width or other format characters), or a marker
/// in a file of [`Lang::Unknown`], whose string literals are not known.
pub fn scan(
    file: &str,
    text: &str,
    lang: Lang,
    families: &[Family],
    require_reason: bool,
) -> Result<Ignores> {
    let mut state = ScanState::default();
    let text = as_compiled(text, lang);
    let translated = phases::Translated::new(&text, lang);
    let lexed = translated.lex(lang);
    for (line, comment) in lexed.comments {
        if let Some(problem) = near_miss(comment, families) {
            return Err(Error::at(file, u64::from(line), None, problem));
        }
        let found = markers_in(comment, families);
        if lang == Lang::Unknown && !found.is_empty() {
            return Err(unknown_language(file, line));
        }
        if let Some(from) = lexed
            .unsure
            .filter(|from| *from <= line && !found.is_empty())
        {
            return Err(unsure_marker(file, line, from));
        }
        for (family, action, reason) in found {
            if family == Family::Covgate && require_reason && action != Action::End {
                check_reason(file, line, reason)?;
            }
            state.apply(file, line, family, action)?;
        }
    }
    state.finish(file)
}

/// The error for a marker in a file of a language whose string literals covgate does not know
/// ([`Lang::Unknown`]): it cannot tell that the marker is in a comment, not in a string.
fn unknown_language(file: &str, line: u32) -> Error {
    Error::at(
        file,
        u64::from(line),
        None,
        "a marker in a file of a language whose string literals covgate does not know (by its \
         extension): it cannot tell a marker in a comment from text in a string, so it does not \
         honour it. Remove the marker, or exclude the file with an [[exclude]] in the policy \
         (docs/markers.md lists the languages read)",
    )
}

/// The error for a marker on or after a line from which the lexer cannot be sure where comments
/// are ([`lexer::Lexed::unsure`]): a literal it does not lex exactly may have put it in a string.
fn unsure_marker(file: &str, line: u32, from: u32) -> Error {
    Error::at(
        file,
        u64::from(line),
        None,
        format!(
            "a marker after a literal that covgate cannot lex for sure (on line {from}: a Ruby or \
             Perl regular expression or `%` literal after a name and a space, a Perl quote-like \
             operator it cannot delimit, an Elixir sigil holding its own bracket, JSX element \
             text): it cannot tell this marker from text in a literal, so it does not honour \
             it. Write the literal so that it cannot be misread (`x(/re/)`, `%r{{…}}` after `=`), \
             move the marker before line {from}, or exclude the file with an [[exclude]] \
             (docs/markers.md)"
        ),
    )
}

fn check_reason(file: &str, line: u32, reason: Option<&str>) -> Result<()> {
    match reason {
        Some(r) if !crate::text::is_blank(r) => Ok(()),
        _ => Err(Error::at(
            file,
            u64::from(line),
            None,
            "covgate marker without a reason: write `covgate:ignore -- why this cannot be covered` \
             (or set `require-reason = false` in [inline])",
        )),
    }
}

#[derive(Debug, Default)]
struct ScanState {
    ignores: Ignores,
    /// Open range start line, per family.
    open: BTreeMap<Family, u32>,
}

impl ScanState {
    fn apply(&mut self, file: &str, line: u32, family: Family, action: Action) -> Result<()> {
        self.ignores.markers += 1;
        let mut mark = |first: u32, last: u32, branches_only: bool| {
            self.ignores.marks.push(Mark {
                family,
                line: line.min(first),
                lines: LineRange {
                    start: first,
                    end: last,
                },
                branches_only,
            })
        };
        match (action, self.open.get(&family).copied()) {
            (Action::Line, _) => {
                mark(line, line, false);
                self.ignores.lines.insert(line);
            }
            (Action::NextLine, _) => {
                mark(line.saturating_add(1), line.saturating_add(1), false);
                self.ignores.lines.insert(line.saturating_add(1));
            }
            (Action::BranchLine, _) => {
                mark(line, line, true);
                self.ignores.branch_lines.insert(line);
            }
            (Action::Start, None) => {
                self.open.insert(family, line);
            }
            (Action::Start, Some(start)) => {
                return Err(Error::at(
                    file,
                    u64::from(line),
                    None,
                    format!(
                        "{} range start inside the range opened at line {start}; close it first",
                        family.name()
                    ),
                ))
            }
            (Action::End, Some(start)) => {
                mark(start, line, false);
                self.ignores.lines.extend(start..=line);
                self.open.remove(&family);
            }
            (Action::End, None) => {
                return Err(Error::at(
                    file,
                    u64::from(line),
                    None,
                    format!("{} range end without a start", family.name()),
                ))
            }
        }
        Ok(())
    }

    fn finish(self, file: &str) -> Result<Ignores> {
        match self.open.into_iter().next() {
            Some((family, start)) => Err(Error::at(
                file,
                u64::from(start),
                None,
                format!("{} range start without its end", family.name()),
            )),
            None => Ok(self.ignores),
        }
    }
}

/// The text every marker of `family`, and every near-miss of one, starts with.
fn family_token(family: Family) -> &'static str {
    match family {
        Family::Covgate => "covgate",
        Family::Lcov => "LCOV_EXCL_",
        Family::Grcov => "grcov-excl-",
    }
}

/// True when `text` holds the start of a marker of one of `families` anywhere, in a comment or
/// not: [`scan`] finds no marker, and no marker error, in a text for which this is false. A
/// quick test for which files may carry markers, before their coverage is read.
pub(crate) fn mentions_markers(text: &[u8], families: &[Family]) -> bool {
    families
        .iter()
        .any(|family| memchr::memmem::find(text, family_token(*family).as_bytes()).is_some())
}

/// True when the source `text` of `path` is Rust and holds the word `coverage` anywhere: no
/// other file has a `coverage(off)` attribute ([`coverage_off`]).
pub(crate) fn mentions_coverage_off(path: &str, text: &[u8]) -> bool {
    Lang::of(path) == Lang::Rust && memchr::memmem::find(text, b"coverage").is_some()
}

/// The files among `paths` (relative to `root`) that [`mentions_markers`] of `families` or
/// [`mentions_coverage_off`], read in parallel ([`source::read`]); a file that cannot be read is left out (the scan after it
/// reports nothing for it either), and one larger than [`source::MAX_SOURCE`] is taken in
/// (unread), so that the scan notes it.
pub(crate) fn files_mentioning_markers(
    root: &Path,
    paths: &BTreeSet<String>,
    families: &[Family],
) -> BTreeSet<String> {
    paths
        .par_iter()
        .filter(
            |rel| match source::read(&root.join(rel.as_str()), source::MAX_SOURCE) {
                Ok(text) => mentions_markers(&text, families) || mentions_coverage_off(rel, &text),
                Err(why) => matches!(why, Refused::TooLarge(_)),
            },
        )
        .cloned()
        .collect()
}

/// The markers in one comment's text, with the reason text after ` -- ` (covgate markers).
fn markers_in<'a>(comment: &'a str, families: &[Family]) -> Vec<(Family, Action, Option<&'a str>)> {
    let mut found = Vec::new();
    for family in families {
        match family {
            Family::Covgate => found.extend(covgate_markers(comment)),
            Family::Lcov => found.extend(token_markers(comment, Family::Lcov, &LCOV_TOKENS)),
            Family::Grcov => found.extend(token_markers(comment, Family::Grcov, &GRCOV_TOKENS)),
        }
    }
    found
}

/// lcov's markers that covgate reads.
const LCOV_TOKENS: [(&str, Action); 4] = [
    ("LCOV_EXCL_BR_LINE", Action::BranchLine),
    ("LCOV_EXCL_LINE", Action::Line),
    ("LCOV_EXCL_START", Action::Start),
    ("LCOV_EXCL_STOP", Action::End),
];

/// grcov's markers that covgate reads.
const GRCOV_TOKENS: [(&str, Action); 4] = [
    ("grcov-excl-br-line", Action::BranchLine),
    ("grcov-excl-line", Action::Line),
    ("grcov-excl-start", Action::Start),
    ("grcov-excl-stop", Action::End),
];

/// covgate's markers, as written before their reason.
const COVGATE_MARKERS: [&str; 4] = [
    "covgate:ignore",
    "covgate:ignore-next",
    "covgate:ignore-start",
    "covgate:ignore-end",
];

/// The first near-miss of a marker of `families` in `comment`, as an error message: text that
/// starts like a marker but is none (`covgate: ignore`, `covgate:ignore-nxt`, `LCOV_EXCL_LIEN`).
fn near_miss(comment: &str, families: &[Family]) -> Option<String> {
    families.iter().find_map(|family| match family {
        Family::Covgate => covgate_near_miss(comment),
        Family::Lcov => token_near_miss(comment, Family::Lcov, &LCOV_TOKENS),
        Family::Grcov => token_near_miss(comment, Family::Grcov, &GRCOV_TOKENS),
    })
}

/// A `covgate:`-then-`ignore…` word (spaces around the colon, any case) that is not one of
/// [`COVGATE_MARKERS`].
fn covgate_near_miss(comment: &str) -> Option<String> {
    comment.match_indices("covgate").find_map(|(at, _)| {
        let written = marker_like(comment.get(at..).unwrap_or_default())?;
        (!COVGATE_MARKERS.contains(&written)).then(|| {
            format!(
                "`{written}` is not a covgate marker: write `covgate:ignore`, \
                 `covgate:ignore-next`, `covgate:ignore-start` or `covgate:ignore-end` (no space, \
                 lower case), then ` -- reason`"
            )
        })
    })
}

/// `from` (text starting with `covgate`) up to the end of the word after `covgate:`, when that
/// word starts with `ignore` in any case (spaces around the colon allowed): `covgate: ignore`,
/// `covgate:ignore-nxt`; `None` when it does not look like a marker (`covgate ignores this`).
fn marker_like(from: &str) -> Option<&str> {
    let rest = from.get("covgate".len()..).unwrap_or_default().trim_start();
    let word = rest.strip_prefix(':')?.trim_start();
    if !word
        .get(..6)
        .unwrap_or_default()
        .eq_ignore_ascii_case("ignore")
    {
        return None;
    }
    let end = word.find(|c: char| !is_word(c)).unwrap_or(word.len());
    from.get(..from.len() - word.len() + end)
}

/// A word starting with the family's prefix (`LCOV_EXCL_`, `grcov-excl-`) that is none of its
/// `tokens`.
fn token_near_miss(comment: &str, family: Family, tokens: &[(&str, Action)]) -> Option<String> {
    comment
        .match_indices(family_token(family))
        .find_map(|(at, _)| {
            let from = comment.get(at..).unwrap_or_default();
            let written = from.get(..from.find(|c: char| !is_word(c)).unwrap_or(from.len()));
            written.filter(|w| !tokens.iter().any(|(token, _)| token == w))
        })
        .map(|written| {
            let names: Vec<&str> = tokens.iter().map(|(token, _)| *token).collect();
            format!(
                "`{written}` is not a marker of the {} family that covgate reads: write {}",
                family.name(),
                names.join(", ")
            )
        })
}

/// A character that continues a marker's word.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '-' || c == '_'
}

fn token_markers<'a>(
    comment: &str,
    family: Family,
    tokens: &[(&str, Action)],
) -> Vec<(Family, Action, Option<&'a str>)> {
    tokens
        .iter()
        // A token followed by another word character (`LCOV_EXCL_LINES`) is a near-miss,
        // reported before markers are looked for ([`near_miss`]).
        .filter(|(token, _)| comment.contains(token))
        .map(|(_, action)| (family, *action, None))
        .collect()
}

/// The `covgate:ignore[-next|-start|-end]` markers of a comment, each with its reason (the text
/// after ` -- `, up to the next marker).
fn covgate_markers(comment: &str) -> Vec<(Family, Action, Option<&str>)> {
    comment
        .split("covgate:ignore")
        .skip(1)
        .map(covgate_marker)
        .collect()
}

/// One marker, from the text right after `covgate:ignore` (which ends there, or after its
/// `-next`, `-start` or `-end`: any other word is a near-miss, reported first).
fn covgate_marker(rest: &str) -> (Family, Action, Option<&str>) {
    let (action, rest) = if let Some(r) = rest.strip_prefix("-next") {
        (Action::NextLine, r)
    } else if let Some(r) = rest.strip_prefix("-start") {
        (Action::Start, r)
    } else if let Some(r) = rest.strip_prefix("-end") {
        (Action::End, r)
    } else {
        (Action::Line, rest)
    };
    let reason = rest
        .split_once("--")
        .map(|(_, r)| r.trim_end_matches("*/").trim_end_matches("//"));
    (Family::Covgate, action, reason)
}

/// What [`scan_files`] found, by root-relative path.
#[derive(Debug, Default)]
pub(crate) struct Found {
    /// The files that carry at least one marker, with their ignores.
    pub ignores: BTreeMap<String, Ignores>,
    /// The Rust files that carry at least one `coverage(off)` attribute, with each one.
    pub coverage_off: BTreeMap<String, Vec<OffItem>>,
}

/// Scans the measured files `paths` (root-relative) under `root` for markers and (Rust files)
/// `coverage(off)` attributes, in parallel.
///
/// Returns the files that carry at least one marker, and those with a `coverage(off)`. A file that is not UTF-8 is read with its
/// invalid bytes replaced (U+FFFD; markers are ASCII, so each still counts). A file that cannot
/// be read carries none (its numbers then stand as reported, which never helps it pass); nor
/// does a file larger than [`source::MAX_SOURCE`], which is not read, and for which a note is
/// added to `notes`.
///
/// Errors: the first marker error, or a measured file that is not a regular file (a FIFO, a
/// device, a socket: never opened), in path order.
pub(crate) fn scan_files<'a>(
    root: &Path,
    paths: impl Iterator<Item = &'a String>,
    inline: &Inline,
    notes: &mut Vec<String>,
) -> Result<Found> {
    let paths: Vec<&String> = paths.collect();
    let scanned: Vec<Result<Scanned>> = paths
        .par_iter()
        .map(|rel| scan_file(root, rel, inline))
        .collect();
    let mut out = Found::default();
    for (rel, result) in paths.into_iter().zip(scanned) {
        match result? {
            Scanned::Read(ignores, offs) => {
                if !ignores.is_empty() {
                    out.ignores.insert(rel.clone(), ignores);
                }
                if !offs.is_empty() {
                    out.coverage_off.insert(rel.clone(), offs);
                }
            }
            Scanned::TooLarge(size) => notes.push(format!(
                "{rel}: {size} bytes, above the {} bytes covgate scans: not read for inline \
                 markers, so its numbers stand as the report gives them",
                source::MAX_SOURCE
            )),
        }
    }
    Ok(out)
}

/// What the scan of one measured file gave.
enum Scanned {
    /// The markers and the `coverage(off)` attributes found (none for a file that cannot be
    /// read).
    Read(Ignores, Vec<OffItem>),
    /// Not read: the file has this many bytes, more than [`source::MAX_SOURCE`].
    TooLarge(u64),
}

/// Scans one measured file (see [`scan_files`]).
fn scan_file(root: &Path, rel: &str, inline: &Inline) -> Result<Scanned> {
    let text = match source::read(&root.join(rel), source::MAX_SOURCE) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(Refused::TooLarge(size)) => return Ok(Scanned::TooLarge(size)),
        Err(Refused::NotRegular(kind)) => {
            return Err(Error::new(format!(
                "{rel}: a report measures this source, but it is {kind}, not a regular file; \
                 covgate reads only regular files (replace it with the source file, or exclude \
                 it in the policy)"
            )))
        }
        Err(Refused::Io(_)) => String::new(),
    };
    let ignores = scan(
        rel,
        &text,
        Lang::of(rel),
        &inline.families,
        inline.require_reason,
    )?;
    let offs = if mentions_coverage_off(rel, text.as_bytes()) {
        coverage_off::find(rel, &text)
    } else {
        Vec::new()
    };
    Ok(Scanned::Read(ignores, offs))
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::lexer::{cpp_raw_delimiter, raw_string_hashes};
    use super::*;
    use crate::policy::CoverageOff;

    const ALL: &[Family] = &Family::ALL;

    fn lines(text: &str, lang: Lang) -> Vec<u32> {
        scan("f.rs", text, lang, ALL, true)
            .unwrap()
            .lines
            .into_iter()
            .collect()
    }

    #[test]
    fn rust_comments_only() {
        let text = "let s = \"// covgate:ignore -- in a string\";\n\
                    let r = r#\"LCOV_EXCL_LINE \"# ;\n\
                    let c = '\"'; // LCOV_EXCL_LINE\n\
                    fn f<'a>(x: &'a str) {} /* grcov-excl-line */\n\
                    /* outer /* nested */ LCOV_EXCL_LINE */\n";
        assert_eq!(lines(text, Lang::Rust), vec![3, 4, 5]);
    }

    #[test]
    fn covgate_markers_and_ranges() {
        let text = "a // covgate:ignore -- unreachable\n\
                    // covgate:ignore-next -- platform\n\
                    b\n\
                    // covgate:ignore-start -- generated\n\
                    c\n\
                    // covgate:ignore-end\n\
                    d\n";
        assert_eq!(lines(text, Lang::Rust), vec![1, 3, 4, 5, 6]);
        // Each marker with the lines it ignores (a range as one), for telling stale ones.
        let text = format!("{text}e // LCOV_EXCL_BR_LINE\n");
        let marks = scan("f.rs", &text, Lang::Rust, ALL, true).unwrap().marks;
        let seen: Vec<(Family, u32, u32, u32, bool)> = marks
            .iter()
            .map(|m| {
                (
                    m.family,
                    m.line,
                    m.lines.start,
                    m.lines.end,
                    m.branches_only,
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                (Family::Covgate, 1, 1, 1, false),
                (Family::Covgate, 2, 3, 3, false),
                (Family::Covgate, 4, 4, 6, false),
                (Family::Lcov, 8, 8, 8, true),
            ]
        );
    }

    #[test]
    fn lines_are_numbered_as_the_compiler_numbers_them() {
        // clang ends a line at a lone CR: the marker is on line 3, not on `untested`'s line 2.
        let text = "int main(void) { return 0; }\nint untested(int a) { return a * 3; } /* n */\r\
                    /* reviewed */ int unused_ok(void); // LCOV_EXCL_LINE\nint other(void);\n";
        let lines = |lang, file| {
            let ignores = scan(file, text, lang, ALL, true).unwrap();
            ignores.lines.iter().copied().collect::<Vec<_>>()
        };
        assert_eq!(lines(Lang::CLike, "b.c"), [3]);
        // rustc ends lines at LF only.
        assert_eq!(lines(Lang::Rust, "b.rs"), [2]);
        // A classic-Mac file (CR only): an LCOV_EXCL range spans the lines between its ends.
        let mac = "a\r// LCOV_EXCL_START\rb\r// LCOV_EXCL_STOP\rc\r";
        let ignores = scan("m.c", mac, Lang::CLike, ALL, true).unwrap();
        assert_eq!(ignores.lines.iter().copied().collect::<Vec<_>>(), [2, 3, 4]);
    }

    #[test]
    fn lcov_and_grcov_ranges_and_branch_lines() {
        let text = "x\n// LCOV_EXCL_START\ny\n// LCOV_EXCL_STOP\nif a {} // LCOV_EXCL_BR_LINE\n\
                    # grcov-excl-br-line\n";
        let ignores = scan("f.c", text, Lang::CLike, ALL, true).unwrap();
        assert_eq!(
            ignores.lines.iter().copied().collect::<Vec<_>>(),
            vec![2, 3, 4]
        );
        assert_eq!(
            ignores.branch_lines.iter().copied().collect::<Vec<_>>(),
            vec![5]
        );
        assert!(
            ignores.ignores_branch(3) && ignores.ignores_branch(5) && !ignores.ignores_branch(1)
        );
        assert_eq!(ignores.markers, 3);
        let hash = scan(
            "f.py",
            "x = 1  # grcov-excl-line\n",
            Lang::Python,
            ALL,
            true,
        )
        .unwrap();
        assert_eq!(hash.lines.iter().copied().collect::<Vec<_>>(), vec![1]);
    }

    #[test]
    fn families_can_be_switched_off() {
        let text = "a // LCOV_EXCL_LINE\nb // grcov-excl-line\n";
        let only_grcov = scan("f.rs", text, Lang::Rust, &[Family::Grcov], true).unwrap();
        assert_eq!(
            only_grcov.lines.iter().copied().collect::<Vec<_>>(),
            vec![2]
        );
        assert!(scan("f.rs", text, Lang::Rust, &[], true)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn errors_name_file_and_line() {
        let err = |text: &str| {
            scan("src/x.rs", text, Lang::Rust, ALL, true)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err("a\n// LCOV_EXCL_START\n"),
            "src/x.rs:2: lcov range start without its end"
        );
        assert_eq!(
            err("// grcov-excl-stop\n"),
            "src/x.rs:1: grcov range end without a start"
        );
        assert!(
            err("// covgate:ignore\n").starts_with("src/x.rs:1: covgate marker without a reason")
        );
        assert!(err("// covgate:ignore --   \n").starts_with("src/x.rs:1: covgate marker without"));
        assert!(
            err("// covgate:ignore-start -- a\n// covgate:ignore-start -- b\n")
                .starts_with("src/x.rs:2: covgate range start inside the range opened at line 1")
        );
        let lax = scan("f.rs", "x // covgate:ignore\n", Lang::Rust, ALL, false).unwrap();
        assert_eq!(lax.lines.len(), 1);
    }

    #[test]
    fn rust_doc_comments_are_not_scanned() {
        let text = "/// LCOV_EXCL_LINE\n//! covgate:ignore\n/** LCOV_EXCL_START */\n/*! x\nLCOV_EXCL_STOP */\n/**/ // LCOV_EXCL_LINE\n";
        assert_eq!(lines(text, Lang::Rust), vec![6]);
        assert_eq!(lines("/// LCOV_EXCL_LINE\n", Lang::CLike), vec![1]);
    }

    #[test]
    fn words_must_end_where_the_marker_ends() {
        for (text, written) in [
            ("// covgate:ignored -- x", "covgate:ignored"),
            ("// LCOV_EXCL_LINES", "LCOV_EXCL_LINES"),
            ("// LCOV_EXCL_LINE_X", "LCOV_EXCL_LINE_X"),
            ("// grcov-excl-line-more", "grcov-excl-line-more"),
            ("// covgate:ignore_x -- y", "covgate:ignore_x"),
            ("// covgate:ignore-foo -- z", "covgate:ignore-foo"),
        ] {
            let text = format!("fn f() {{}}\n{text}\n");
            let err = scan("a.rs", &text, Lang::Rust, ALL, true).unwrap_err();
            assert!(
                err.message()
                    .starts_with(&format!("a.rs:2: `{written}` is not a")),
                "{err}"
            );
        }
    }

    #[test]
    fn near_misses_of_markers_are_errors() {
        let err = |text: &str, families: &[Family]| {
            scan("a.rs", text, Lang::Rust, families, true)
                .map(|_| ())
                .unwrap_err()
                .message()
        };
        assert_eq!(
            err("x();\nx(); // covgate: ignore -- why\n", ALL),
            "a.rs:2: `covgate: ignore` is not a covgate marker: write `covgate:ignore`, \
             `covgate:ignore-next`, `covgate:ignore-start` or `covgate:ignore-end` (no space, \
             lower case), then ` -- reason`"
        );
        assert!(err("// covgate:ignore-nxt -- why\n", ALL)
            .starts_with("a.rs:1: `covgate:ignore-nxt` is not"));
        assert!(
            err("/* covgate : IGNORE */\n", ALL).starts_with("a.rs:1: `covgate : IGNORE` is not")
        );
        assert_eq!(
            err("// LCOV_EXCL_LIEN\n", ALL),
            "a.rs:1: `LCOV_EXCL_LIEN` is not a marker of the lcov family that covgate reads: write LCOV_EXCL_BR_LINE, \
             LCOV_EXCL_LINE, LCOV_EXCL_START, LCOV_EXCL_STOP"
        );
        assert!(err("// ok LCOV_EXCL_LINE, grcov-excl-lines\n", ALL)
            .starts_with("a.rs:1: `grcov-excl-lines` is not a marker of the grcov family"));
        // Prose, other words and disabled families are no near-misses.
        let fine =
            "// covgate ignores this; covgate:x; covgate: ign; covgate:ignore-next -- ok\nx();\n\
                    // covgate: ignore, LCOV_EXCL_LIEN -- lcov and covgate are off\n";
        assert!(scan("a.rs", fine, Lang::Rust, &[Family::Grcov], true).is_ok());
        assert_eq!(
            lines(
                "// covgate ignores this; covgate:x; covgate: ign\n",
                Lang::Rust
            ),
            Vec::<u32>::new()
        );
        assert!(mentions_markers(b"covgate: ignore", &[Family::Covgate]));
    }

    #[test]
    fn division_raw_strings_and_multi_line_literals() {
        let text = "let x = a / b; // LCOV_EXCL_LINE\nlet s = r\"two\nlines // LCOV_EXCL_LINE\";\n\
                    let t = br##\"x\"## ; // grcov-excl-line\nlet rr = r; let b = b'x'; // LCOV_EXCL_LINE\n";
        assert_eq!(lines(text, Lang::Rust), vec![1, 4, 5]);
        assert_eq!(
            lines("x = a / b; // LCOV_EXCL_LINE\n", Lang::CLike),
            vec![1]
        );
        assert_eq!(raw_string_hashes("r#x"), None);
        assert_eq!(raw_string_hashes("br#\"x\"#"), Some(1));
    }

    #[test]
    fn literals_digit_separators_raw_strings_chars_lifetimes() {
        let text = "long big = 1'000; // LCOV_EXCL_LINE\n\
                    int h = 0x1'FF, b = 0b1'0; // LCOV_EXCL_LINE\n\
                    char q = '\\''; char d = u8'\"'; // LCOV_EXCL_LINE\n\
                    const char *r = R\"x(a \" ' // LCOV_EXCL_LINE )\" )x\";\n\
                    const char *m = LR\"(\ntwo ' lines\n)\"; // LCOV_EXCL_LINE\n\
                    int R = 1; const char *s = u8R\"(x)\"; // LCOV_EXCL_LINE\n\
                    auto v = FOOR\"a\"; // LCOV_EXCL_LINE\n\
                    const char *n = R\"a b(x)\"; // LCOV_EXCL_LINE\n\
                    char c = 'x; // an open literal ends with its line\n\
                    int _y; // LCOV_EXCL_LINE\n";
        assert_eq!(lines(text, Lang::CLike), [1, 2, 3, 7, 8, 9, 10, 12]);
        let delimiters = ["UR\"d(", "R\"no", "R\"12345678901234567("];
        assert_eq!(delimiters.map(cpp_raw_delimiter), [Some("d"), None, None]);
        // An open raw string runs to the end.
        assert!(lines("R\"(open // LCOV_EXCL_LINE\n", Lang::CLike).is_empty());
        // Rust: lifetimes, labels, escaped quotes, byte and C strings.
        let text = "let q = '\\''; fn f<'a>(x: &'a str) {} let c = b'\\''; // LCOV_EXCL_LINE\n\
                    let s = b\"//\"; let r = cr#\"x\"#; 'l: loop { break 'l; } // LCOV_EXCL_LINE\n\
                    let s = \"two\nlines ' \"; // LCOV_EXCL_LINE\n";
        assert_eq!(lines(text, Lang::Rust), [1, 2, 4]);
    }

    #[test]
    fn two_covgate_markers_in_one_comment() {
        let text = "x // covgate:ignore-start -- a // covgate:ignore-end\n";
        assert_eq!(lines(text, Lang::Rust), vec![1]);
    }

    #[test]
    fn languages_by_extension() {
        assert_eq!(Lang::of("src/a.rs"), Lang::Rust);
        assert_eq!(Lang::of("a.py"), Lang::Python);
        assert_eq!(Lang::of("a.cpp"), Lang::CLike);
        assert_eq!(Lang::of("Makefile"), Lang::Unknown);
        assert_eq!(Family::from_name("lcov"), Some(Family::Lcov));
        assert_eq!(Family::from_name("x"), None);
    }

    #[test]
    fn unterminated_constructs_do_not_panic() {
        for text in [
            "/* open", "\"open", "r#\"open", "'", "'\\", "b", "//", "/*/",
        ] {
            let _ = comments(text, Lang::Rust);
            let _ = comments(text, Lang::CLike);
        }
        assert_eq!(
            comments("/* a\nb */", Lang::CLike),
            vec![(1, " a"), (2, "b ")]
        );
    }

    #[test]
    fn a_quick_look_finds_every_family_it_is_asked_for() {
        let all = Family::ALL;
        for (text, family) in [
            ("// covgate:ignore-next -- x", Family::Covgate),
            ("/* LCOV_EXCL_LINE */", Family::Lcov),
            ("// grcov-excl-start", Family::Grcov),
        ] {
            assert!(mentions_markers(text.as_bytes(), &all), "{text}");
            assert!(mentions_markers(text.as_bytes(), &[family]), "{text}");
            let others: Vec<Family> = all.into_iter().filter(|f| *f != family).collect();
            assert!(!mentions_markers(text.as_bytes(), &others), "{text}");
        }
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("m.rs"), "// LCOV_EXCL_LINE\n").expect("m");
        std::fs::write(dir.path().join("a.rs"), "fn a() {}\n").expect("a");
        let paths: BTreeSet<String> = ["m.rs", "a.rs", "missing.rs"]
            .iter()
            .map(|p| p.to_string())
            .collect();
        let found = files_mentioning_markers(dir.path(), &paths, &all);
        assert_eq!(found.into_iter().collect::<Vec<_>>(), ["m.rs"]);
    }

    #[test]
    fn only_rust_files_that_say_coverage_may_hold_coverage_off() {
        let text = b"#[coverage(off)] fn f() {}";
        assert!(mentions_coverage_off("src/a.rs", text));
        assert!(!mentions_coverage_off("src/a.c", text));
        assert!(!mentions_coverage_off("src/a.rs", b"#[inline] fn f() {}"));
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("off.rs"), "#[coverage(off)]\nfn f() {}\n").expect("off");
        std::fs::write(dir.path().join("said.rs"), "// coverage\n").expect("said");
        std::fs::write(dir.path().join("off.c"), "// coverage(off)\n").expect("c");
        let paths: BTreeSet<String> = ["off.rs", "said.rs", "off.c"].map(String::from).into();
        let found = files_mentioning_markers(dir.path(), &paths, &Family::ALL);
        assert_eq!(found.iter().collect::<Vec<_>>(), ["off.rs", "said.rs"]);
        let inline = Inline {
            families: Family::ALL.to_vec(),
            require_reason: true,
            coverage_off: CoverageOff::Deny,
        };
        let found = scan_files(dir.path(), paths.iter(), &inline, &mut Vec::new()).expect("scan");
        assert!(found.ignores.is_empty());
        let lines: Vec<(&String, Vec<u32>)> = (found.coverage_off.iter())
            .map(|(path, offs)| (path, offs.iter().map(|o| o.line).collect()))
            .collect();
        assert_eq!(lines, [(&"off.rs".to_string(), vec![1])]);
    }

    #[test]
    fn files_that_only_mention_a_marker_have_no_ignores() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("s.rs"),
            "const M: &str = \"covgate:ignore\";\n",
        )
        .expect("s");
        std::fs::write(
            dir.path().join("m.rs"),
            "fn m() {} // covgate:ignore -- why\n",
        )
        .expect("m");
        let inline = Inline {
            families: Family::ALL.to_vec(),
            require_reason: true,
            coverage_off: CoverageOff::Count,
        };
        let paths = ["s.rs".to_string(), "m.rs".to_string()];
        let mut notes = Vec::new();
        let found = scan_files(dir.path(), paths.iter(), &inline, &mut notes).expect("scan");
        assert_eq!(found.ignores.keys().collect::<Vec<_>>(), ["m.rs"]);
        assert!(notes.is_empty(), "{notes:?}");
        std::fs::write(dir.path().join("open.rs"), "// covgate:ignore-start -- x\n").expect("o");
        let open = ["open.rs".to_string()];
        let e = scan_files(dir.path(), open.iter(), &inline, &mut notes).expect_err("open");
        assert!(
            e.message().contains("range start without its end"),
            "{}",
            e.message()
        );
    }

    #[test]
    fn sources_too_large_or_unreadable_carry_no_markers_and_latin1_ones_do() {
        let dir = tempfile::tempdir().expect("tempdir");
        let marker = "fn m() {} // covgate:ignore -- why\n";
        let mut big = marker.repeat(1 + (source::MAX_SOURCE as usize) / marker.len());
        big.truncate(source::MAX_SOURCE as usize + 1);
        std::fs::write(dir.path().join("big.rs"), &big).expect("big");
        std::fs::write(
            dir.path().join("latin1.rs"),
            b"// covgate:ignore -- \xE9t\xE9\n",
        )
        .expect("latin1");
        let inline = Inline {
            families: Family::ALL.to_vec(),
            require_reason: true,
            coverage_off: CoverageOff::Count,
        };
        let paths = ["big.rs", "latin1.rs", "missing.rs"].map(String::from);
        let mut notes = Vec::new();
        let found = scan_files(dir.path(), paths.iter(), &inline, &mut notes).expect("scan");
        // A source that is not UTF-8 is read lossily: its marker counts.
        assert_eq!(found.ignores.keys().collect::<Vec<_>>(), ["latin1.rs"]);
        assert_eq!(found.ignores["latin1.rs"].lines, BTreeSet::from([1]));
        assert_eq!(
            notes,
            [
                "big.rs: 16777217 bytes, above the 16777216 bytes covgate scans: not read for \
                 inline markers, so its numbers stand as the report gives them"
            ]
        );
        // The quick look takes the large file in, so that the scan notes it.
        let set: BTreeSet<String> = paths.iter().cloned().collect();
        let mentioning = files_mentioning_markers(dir.path(), &set, &Family::ALL);
        assert_eq!(
            mentioning.into_iter().collect::<Vec<_>>(),
            ["big.rs", "latin1.rs"]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_measured_source_that_is_a_fifo_is_refused_unopened() {
        let dir = tempfile::tempdir().expect("tempdir");
        let made = std::process::Command::new("mkfifo")
            .arg(dir.path().join("fifo.rs"))
            .status()
            .expect("mkfifo");
        assert!(made.success());
        let inline = Inline {
            families: Family::ALL.to_vec(),
            require_reason: true,
            coverage_off: CoverageOff::Count,
        };
        let paths = ["fifo.rs".to_string()];
        let e = scan_files(dir.path(), paths.iter(), &inline, &mut Vec::new()).expect_err("fifo");
        assert_eq!(
            e.message(),
            "fifo.rs: a report measures this source, but it is a FIFO, not a regular file; \
             covgate reads only regular files (replace it with the source file, or exclude it in \
             the policy)"
        );
        let set: BTreeSet<String> = paths.iter().cloned().collect();
        assert!(files_mentioning_markers(dir.path(), &set, &Family::ALL).is_empty());
    }
}
