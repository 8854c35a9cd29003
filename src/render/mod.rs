//! Rendering a verdict: the terminal table and JSON for machines.

pub mod github;
pub mod json;
pub mod markdown;
pub mod table;

use crate::error::Error;
use crate::judge::{FileStatus, Verdict};
use crate::outcome::{Facts, TargetFacts};
use crate::text;
use std::borrow::Cow;

/// Which files a table lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Show {
    /// Failing and unmeasured files only.
    Failing,
    /// Every in-scope file.
    All,
}

/// `text` with each control character (C0, DEL, C1) written as `\u{1b}`, so bytes from a report
/// (a path, a function name, a quoted record) cannot drive the terminal or the CI log, and each
/// format character (bidi overrides and isolates, zero-width characters: [`text::is_hidden`])
/// as `\u{202e}`, so a name cannot display as another (`src/f\u{202e}gnp.rs`); a line feed is
/// kept when `keep_newlines` (multi-line messages). The GitHub and Markdown renderers escape the
/// same characters.
pub(crate) fn printable(text: &str, keep_newlines: bool) -> Cow<'_, str> {
    let escaped = |c: char| text::is_hidden(c) && !(keep_newlines && c == '\n');
    if !text.chars().any(escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if escaped(c) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The keys of the cfg values a built-in target sets (see `platform::cfg_values::target_cfgs`); `--cfg`
/// cannot set them, so every other value came from `--cfg` or `--features`.
const TARGET_KEYS: [&str; 12] = [
    "panic",
    "target_abi",
    "target_arch",
    "target_endian",
    "target_env",
    "target_family",
    "target_has_atomic",
    "target_os",
    "target_pointer_width",
    "target_vendor",
    "unix",
    "windows",
];

/// The caveat of a `--no-walk` run, which the Markdown result (and so the PR comment's line of
/// a passing leg) and the GitHub annotations carry as a warning: a pass that did not look for
/// unmeasured files must not read as a clean one.
pub(crate) const NO_WALK_WARNING: &str = "--no-walk: the root was not searched, so files that no \
     report mentions were not checked (the unmeasured count covers only files the reports name), \
     nor were stale exclusions and inline ignore markers";

/// The cfg values in short, for the table, the Markdown and the `::notice`: the target's own
/// values counted (the triple decides them; the JSON lists them), then every value that
/// `--cfg` and `--features` set, in full: `the target's 15 values + ci, feature="extra"`.
pub(crate) fn cfg_summary(target: &TargetFacts) -> String {
    let key = |value: &str| value.split('=').next().unwrap_or_default().to_string();
    let (own, set): (Vec<&String>, Vec<&String>) = target
        .cfg
        .iter()
        .partition(|value| TARGET_KEYS.contains(&key(value).as_str()));
    let head = if target.known {
        format!(
            "the target's {}",
            counted(own.len() as u64, "value", "values")
        )
    } else {
        "target unknown to covgate's target database".to_string()
    };
    let set: Vec<&str> = set.iter().map(|value| value.as_str()).collect();
    match set.is_empty() {
        true => head,
        false => format!("{head} + {}", set.join(", ")),
    }
}

/// The `when-missing` programs in words: `pwsh not found, gh found (/usr/bin/gh)`; `None`
/// when the policy names none.
pub(crate) fn programs_text(facts: &Facts) -> Option<String> {
    let programs: Vec<String> = facts
        .programs
        .iter()
        .map(|(name, path)| match path {
            Some(path) => format!("{name} found ({path})"),
            None => format!("{name} not found"),
        })
        .collect();
    (!programs.is_empty()).then(|| programs.join(", "))
}

/// The line rule of every text channel that reaches a CI log (stderr, the table, Markdown on
/// stdout, and the lines of `--format github` that are not covgate's own workflow commands): no
/// line starts a GitHub Actions workflow command. The runner reads a line as one when it starts
/// with `::` after leading white space, or when it holds `##[` anywhere (the older syntax); such
/// a line gets its first `:` written as `\u{3a}`, and each `##[` becomes `##\u{5b}`. Lines end
/// at `\n` or `\r` (the runner splits at both). Linear in the text; borrowed when nothing needs
/// a change.
pub(crate) fn command_safe(text: &str) -> Cow<'_, str> {
    let starts_command = |line: &str| line.trim_start().starts_with("::");
    if !text.contains("##[") && !text.split(is_break).any(starts_command) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for line in text.split_inclusive(is_break) {
        let rest = if starts_command(line) {
            let lead = line.len() - line.trim_start().len();
            out.push_str(line.get(..lead).unwrap_or_default());
            out.push_str("\\u{3a}");
            line.get(lead + 1..).unwrap_or_default()
        } else {
            line
        };
        out.push_str(&rest.replace("##[", "##\\u{5b}"));
    }
    Cow::Owned(out)
}

fn is_break(c: char) -> bool {
    c == '\n' || c == '\r'
}

/// One line for a CI log (a warning on stderr): control characters, line breaks included,
/// written as escapes ([`printable`]), then the line rule ([`command_safe`]).
pub fn log_line(text: &str) -> String {
    command_safe(&printable(text, false)).into_owned()
}

/// Text of several lines for a CI log (what `covgate roster` prints): control characters but
/// line breaks written as escapes, then the line rule ([`command_safe`]).
pub(crate) fn log_text(text: &str) -> String {
    command_safe(&printable(text, true)).into_owned()
}

/// An error's message for stderr: each of its lines as a [`log_line`], so a name quoted in it
/// cannot start a line, a workflow command or a terminal sequence.
pub fn error_text(err: &Error) -> String {
    let lines: Vec<String> = err.message_lines().iter().map(|l| log_line(l)).collect();
    lines.join("\n")
}

/// What inline markers took out, in words: `1 line, 0 regions, 2 branch sides, 1 function in
/// 1 file`, with `, 3 MC/DC conditions` before ` in` when they took any out (the ignored
/// totals of [`Verdict::ignored`]).
pub(crate) fn ignored_totals(verdict: &Verdict) -> String {
    let (i, files) = verdict.ignored();
    let files = u64::try_from(files).unwrap_or(u64::MAX);
    // MC/DC conditions only when markers took some out (few exports carry any).
    let conditions = match i.conditions {
        0 => String::new(),
        n => format!(", {}", counted(n, "MC/DC condition", "MC/DC conditions")),
    };
    format!(
        "{}, {}, {}, {}{conditions} in {}",
        counted(i.lines, "line", "lines"),
        counted(i.regions, "region", "regions"),
        counted(i.branches, "branch side", "branch sides"),
        counted(i.functions, "function", "functions"),
        counted(files, "file", "files"),
    )
}

/// `3 items under coverage(off) in 2 files (1 outside test code)`: the totals of
/// [`Verdict::coverage_off`]; `None` when no file has one.
pub(crate) fn coverage_off_totals(verdict: &Verdict) -> Option<String> {
    let (items, outside, files) = verdict.coverage_off();
    let [items, outside, files] =
        [items, outside, files].map(|n| u64::try_from(n).unwrap_or(u64::MAX));
    (items > 0).then(|| {
        format!(
            "{} under coverage(off) in {} ({outside} outside test code)",
            counted(items, "item", "items"),
            counted(files, "file", "files"),
        )
    })
}

/// `n` and the noun, singular for 1.
fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// How many report files that were not judged the table and the Markdown name (the JSON output
/// lists all).
const DROPPED_SHOWN: usize = 3;

/// `NAME (why), NAME (why) … and N more`: the first report files that were not judged (outside
/// the root, or not selected by `include`), as the reports spell them; `None` when there are
/// none. Unescaped: each format escapes it.
pub(crate) fn dropped_names(verdict: &Verdict) -> Option<String> {
    let mut names: Vec<String> = verdict
        .dropped
        .iter()
        .map(|d| format!("{} ({})", d.name, d.why.describe()))
        .collect();
    names.dedup();
    let more = names.len().saturating_sub(DROPPED_SHOWN);
    names.truncate(DROPPED_SHOWN);
    let tail = if more > 0 {
        format!(" … and {more} more")
    } else {
        String::new()
    };
    (!names.is_empty()).then(|| format!("{}{tail}", names.join(", ")))
}

/// `N measured: N passed, N failed; N unmeasured, N excluded, N no code, N outside include`.
pub(crate) fn summary_line(verdict: &Verdict) -> String {
    let passed = verdict.count(FileStatus::Pass);
    let failed = verdict.count(FileStatus::Fail);
    format!(
        "{} measured: {passed} passed, {failed} failed; {} unmeasured, {} excluded, {} no code, {} outside include",
        passed + failed,
        verdict.count(FileStatus::Unmeasured),
        verdict.count(FileStatus::Excluded),
        verdict.count(FileStatus::NoCode),
        verdict.outside_include,
    )
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn counts_in_words_are_singular_for_one() {
        assert_eq!(counted(1, "file", "files"), "1 file");
        assert_eq!(counted(0, "file", "files"), "0 files");
        assert_eq!(counted(2, "branch side", "branch sides"), "2 branch sides");
    }

    /// Every value a built-in target sets has a key of [`TARGET_KEYS`]; `--cfg` and
    /// `--features` values do not.
    #[test]
    fn the_target_s_own_cfg_values_are_counted_and_the_rest_listed() {
        use crate::platform::{Platform, PlatformOptions};
        for triple in [
            "x86_64-unknown-linux-gnu",
            "x86_64-pc-windows-msvc",
            "aarch64-apple-darwin",
            "wasm32-unknown-unknown",
            "thumbv7em-none-eabihf",
        ] {
            let opts = PlatformOptions {
                target: Some(triple.to_string()),
                cfgs: vec!["ci".to_string(), "target_feature=\"sse2\"".to_string()],
                features: vec!["extra".to_string()],
            };
            let platform =
                Platform::new(&opts, triple, &[], false, None, std::path::Path::new(".")).unwrap();
            let values = platform.cfg_values();
            let target = TargetFacts {
                triple: triple.to_string(),
                source: "--target",
                known: true,
                cfg: values.clone(),
            };
            assert_eq!(
                cfg_summary(&target),
                format!(
                    "the target's {} values + ci, feature=\"extra\", target_feature=\"sse2\"",
                    values.len() - 3
                )
            );
        }
    }

    #[test]
    fn control_characters_are_written_as_escapes() {
        assert_eq!(
            printable("a\u{1b}[1m\n\t\u{7f}\u{9b}é", false),
            "a\\u{1b}[1m\\u{a}\\u{9}\\u{7f}\\u{9b}é"
        );
        assert_eq!(printable("two\nlines\u{7}", true), "two\nlines\\u{7}");
        assert!(matches!(printable("plain", false), Cow::Borrowed("plain")));
    }

    #[test]
    fn no_line_starts_a_workflow_command() {
        assert!(matches!(command_safe("a::b\nc"), Cow::Borrowed(_)));
        assert_eq!(
            command_safe("ok\n  ::error::x\r::warning::y ##[error]z"),
            "ok\n  \\u{3a}:error::x\r\\u{3a}:warning::y ##\\u{5b}error]z"
        );
        assert_eq!(command_safe("a ##[group]b"), "a ##\\u{5b}group]b");
        assert_eq!(log_line("v\n::error::x"), "v\\u{a}::error::x");
        assert_eq!(log_line("::error::x"), "\\u{3a}:error::x");
        assert_eq!(log_text("a\n::b\u{7}"), "a\n\\u{3a}:b\\u{7}");
        let err = Error::lines(vec!["head:".into(), "  `x\n::error::y`".into()]);
        assert_eq!(error_text(&err), "head:\n  `x\\u{a}::error::y`");
        assert_eq!(err.message(), "head:\n  `x\n::error::y`");
    }
}
