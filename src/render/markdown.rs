//! Markdown output (`--format markdown`): a pull-request comment or CI step summary.
//!
//! Shape: the facts in one short line; a GitHub-flavoured table of failing and unmeasured files
//! (`File`, then each policy metric as `covered/total` or `—`); the summary line; conditional
//! exclusions and exempt suites (when any); excluded and no-code files with their reasons; then a `<details>` block per failing file listing its
//! uncovered items. Every path and name is escaped, so a file named `a|b.rs` or
//! `<img src=x onerror=alert(1)>.rs` neither breaks the table nor injects markup.
//!
//! The body stays under [`LIMIT`] characters (GitHub's comment limit is 65,536): when it would
//! not, the `<details>` blocks are cut first (from the end), then table rows, and a closing note
//! says what was cut and where the full result is.

use super::{summary_line, Facts};
use crate::judge::{
    unavailable_hint, FileStatus, FileVerdict, MetricStatus, MetricVerdict, Verdict,
};
use crate::model::Metric;

/// The largest body produced, in characters (GitHub's comment limit is 65,536).
pub const LIMIT: usize = 65_000;

/// Escapes text for Markdown inside a line (a table cell or a list item): the characters that
/// Markdown, GFM tables or HTML could read as syntax (`\ ` * _ [ ] < > | ~ &`) are
/// backslash-escaped, as CommonMark allows for any ASCII punctuation, and line breaks become
/// spaces. `<img …>` thus renders as text, and `a|b.rs` stays in its cell. GFM's bare-URL
/// autolinks are broken too: the `:` of `://` and the `.` of `www.` (any case) are escaped, which
/// GitHub's parser sees before it looks for links, and `@` (e-mail autolinks, which are found
/// after escapes are resolved, and mentions) is written as the code span `` `@` ``.
pub fn escape(text: &str) -> String {
    escape_with(text, |c| match c {
        '\r' | '\n' => Some(" "),
        '\\' => Some("\\\\"),
        '`' => Some("\\`"),
        '*' => Some("\\*"),
        '_' => Some("\\_"),
        '[' => Some("\\["),
        ']' => Some("\\]"),
        '<' => Some("\\<"),
        '>' => Some("\\>"),
        '|' => Some("\\|"),
        '~' => Some("\\~"),
        '&' => Some("\\&"),
        '@' => Some("`@`"),
        ':' => Some("\\:"),
        '.' => Some("\\."),
        _ => None,
    })
}

/// Escapes text for HTML (inside `<summary>`, where Markdown is not read): `& < > " '` as
/// entities, line breaks as spaces, and, as in [`escape`], the `:` of `://`, the `.` of `www.`
/// and every `@` (as `&#58;`, `&#46;`, `&#64;`), so the text holds no bare URL.
pub fn escape_html(text: &str) -> String {
    escape_with(text, |c| match c {
        '&' => Some("&amp;"),
        '<' => Some("&lt;"),
        '>' => Some("&gt;"),
        '"' => Some("&quot;"),
        '\'' => Some("&#39;"),
        '\r' | '\n' => Some(" "),
        '@' => Some("&#64;"),
        ':' => Some("&#58;"),
        '.' => Some("&#46;"),
        _ => None,
    })
}

/// Writes `text` with each character that `table` maps replaced; `:` only where `//` follows
/// and `.` only after `www` (any case); any other control character as `\u{1b}`.
fn escape_with(text: &str, table: impl Fn(char) -> Option<&'static str>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut ws = 0;
    for (at, c) in text.char_indices() {
        let link = match c {
            ':' => text
                .get(at + 1..)
                .is_some_and(|rest| rest.starts_with("//")),
            '.' => ws >= 3,
            _ => true,
        };
        ws = if c.eq_ignore_ascii_case(&'w') {
            ws + 1
        } else {
            0
        };
        match table(c).filter(|_| link) {
            Some(escaped) => out.push_str(escaped),
            None if c.is_control() => out.push_str(&c.escape_unicode().to_string()),
            None => out.push(c),
        }
    }
    out
}

/// Renders the verdict as Markdown, within [`LIMIT`] characters.
pub fn render(facts: &Facts, verdict: &Verdict, metrics: &[Metric]) -> String {
    render_within(facts, verdict, metrics, LIMIT)
}

/// [`render`] with a chosen limit (characters).
pub fn render_within(facts: &Facts, verdict: &Verdict, metrics: &[Metric], limit: usize) -> String {
    let failing: Vec<&FileVerdict> = verdict.files.iter().filter(|f| f.status.fails()).collect();
    let rows: Vec<String> = failing.iter().map(|f| row(f, metrics)).collect();
    let details: Vec<String> = failing
        .iter()
        .filter(|f| f.status == FileStatus::Fail)
        .map(|f| details(f, metrics))
        .collect();
    let head = head(facts, verdict, metrics);
    let tail = tail(facts, verdict);
    let (rows_kept, details_kept) = fit(&head, &tail, &rows, &details, limit);
    let mut out = head;
    if !rows.is_empty() {
        out.push_str(&table_header(metrics));
        rows.iter().take(rows_kept).for_each(|r| out.push_str(r));
        out.push('\n');
    }
    out.push_str(&tail);
    details
        .iter()
        .take(details_kept)
        .for_each(|d| out.push_str(d));
    out.push_str(&cut_note(
        rows.len() - rows_kept,
        details.len() - details_kept,
    ));
    out
}

/// How many rows and details blocks fit: details are cut first, then rows.
fn fit(
    head: &str,
    tail: &str,
    rows: &[String],
    details: &[String],
    limit: usize,
) -> (usize, usize) {
    let note = cut_note(rows.len(), details.len()).chars().count();
    let mut budget = limit.saturating_sub(head.chars().count() + tail.chars().count() + note + 200);
    let mut rows_kept = 0;
    for r in rows {
        let len = r.chars().count();
        if len > budget {
            return (rows_kept, 0);
        }
        budget -= len;
        rows_kept += 1;
    }
    let mut details_kept = 0;
    for d in details {
        let len = d.chars().count();
        if len > budget {
            break;
        }
        budget -= len;
        details_kept += 1;
    }
    (rows_kept, details_kept)
}

fn cut_note(rows_cut: usize, details_cut: usize) -> String {
    if rows_cut == 0 && details_cut == 0 {
        return String::new();
    }
    format!(
        "\n> **Cut to fit a comment:** {details_cut} file detail block(s) and {rows_cut} table row(s) \
         left out. The full result is in the CI log and in `covgate check --format json`.\n"
    )
}

fn head(facts: &Facts, verdict: &Verdict, metrics: &[Metric]) -> String {
    let word = if verdict.passed() {
        "✅ pass"
    } else {
        "❌ fail"
    };
    let reports: Vec<String> = facts
        .reports
        .iter()
        .map(|(origin, kind)| format!("{} ({})", escape(origin), escape(kind)))
        .collect();
    let names: Vec<&str> = metrics.iter().map(|m| m.name()).collect();
    format!(
        "### covgate: {word}\n\ncovgate {} · target {} ({}) · threshold {}% on {} · root {} · reports: {}\n\n",
        escape(&facts.version),
        escape(&facts.target.triple),
        facts.target.source,
        facts.threshold,
        names.join(", "),
        escape(&facts.root),
        reports.join(", ")
    ) + &warning_lines(&facts.warnings)
}

/// `> ⚠️ warning: …` lines, one per report warning, then a blank line (empty without warnings).
fn warning_lines(warnings: &[String]) -> String {
    let mut out: String = warnings
        .iter()
        .map(|w| format!("> ⚠️ warning: {}\n", escape(w)))
        .collect();
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

fn table_header(metrics: &[Metric]) -> String {
    let mut header = String::from("| File | Status |");
    let mut rule = String::from("|---|---|");
    for m in metrics {
        header.push_str(&format!(" {} |", capitalise(m.name())));
        rule.push_str("---:|");
    }
    format!("{header}\n{rule}\n")
}

fn row(file: &FileVerdict, metrics: &[Metric]) -> String {
    let mut row = format!("| {} | {} |", escape(&file.path), file.status.name());
    for metric in metrics {
        let cell = file
            .metrics
            .iter()
            .find(|m| m.metric == *metric)
            .map_or_else(String::new, cell);
        row.push_str(&format!(" {cell} |"));
    }
    row.push('\n');
    row
}

/// `covered/total`, `—` for 0 of 0, `n/a` when unavailable; failing cells in bold.
fn cell(m: &MetricVerdict) -> String {
    match (m.status, m.counts) {
        (MetricStatus::Vacuous, _) => "—".to_string(),
        (MetricStatus::Fail, Some(c)) => format!("**{c}**"),
        (_, Some(c)) => c.to_string(),
        (_, None) => "**n/a**".to_string(),
    }
}

fn tail(facts: &Facts, verdict: &Verdict) -> String {
    let mut out = format!("{}\n", summary_line(verdict));
    if !facts.conditions.is_empty() {
        out.push_str("\n**Conditional exclusions** on this leg:\n\n");
        for c in &facts.conditions {
            let state = if c.active { "active" } else { "inactive" };
            out.push_str(&format!(
                "- {} — {state}: {} ({})\n",
                escape(&c.glob),
                escape(&c.why),
                escape(&c.reason)
            ));
        }
    }
    if let Some(roster) = &facts.roster {
        let verified = if roster.verified {
            "roster verified"
        } else {
            "roster not verified: --no-walk"
        };
        out.push_str(&format!(
            "\n**Exempt suites** ({verified}) on this leg:\n\n"
        ));
        for s in &roster.suites {
            let state = if s.active {
                "active, left out of the instrumented run"
            } else {
                "inactive, runs in the instrumented run"
            };
            out.push_str(&format!(
                "- {} — {state}: {}",
                escape(&s.name),
                escape(&s.reason)
            ));
            if !s.why.is_empty() {
                out.push_str(&format!(" ({})", escape(&s.why)));
            }
            out.push('\n');
        }
    }
    if facts.walked {
        out.push_str(&format!(
            "\nIgnored by inline markers: {}.\n",
            super::ignored_totals(verdict)
        ));
    } else {
        out.push_str("\nInline ignore markers: not read (`--no-walk`).\n");
    }
    let excluded: Vec<String> = verdict
        .files
        .iter()
        .filter(|f| f.status == FileStatus::Excluded)
        .map(|f| {
            let reason = f.reason.as_deref().unwrap_or("");
            format!("- {}: {}\n", escape(&f.path), escape(reason))
        })
        .collect();
    if !excluded.is_empty() {
        out.push_str(&format!(
            "\n**Excluded** ({}):\n\n{}",
            excluded.len(),
            excluded.concat()
        ));
    }
    let no_code = verdict.count(FileStatus::NoCode);
    if no_code > 0 {
        out.push_str(&format!(
            "\n**No code** ({no_code}): files with nothing to instrument (types, `mod`, `use` only).\n"
        ));
    }
    out.push_str(&notes(facts, verdict));
    out.push('\n');
    out
}

/// Why files are unmeasured, what to do about an unavailable metric, and what `--no-walk`
/// leaves unchecked (as the table's notes say).
fn notes(facts: &Facts, verdict: &Verdict) -> String {
    let mut out = String::new();
    let unmeasured = verdict
        .files
        .iter()
        .filter(|f| f.status == FileStatus::Unmeasured);
    for file in unmeasured {
        let reason = file.reason.as_deref().unwrap_or("");
        out.push_str(&format!(
            "- {} is unmeasured: {}\n",
            escape(&file.path),
            escape(reason)
        ));
    }
    for metric in &verdict.unavailable {
        out.push_str(&format!(
            "- {metric} unavailable: {}\n",
            escape(unavailable_hint(*metric))
        ));
    }
    if !facts.walked {
        out.push_str("- `--no-walk`: the root was not searched, so files that no report mentions were not checked\n");
    }
    if out.is_empty() {
        out
    } else {
        format!("\n**Notes**:\n\n{out}")
    }
}

fn details(file: &FileVerdict, metrics: &[Metric]) -> String {
    let mut body = String::new();
    for metric in metrics {
        let items = file.uncovered.items(*metric, usize::MAX);
        if !items.is_empty() {
            let escaped: Vec<String> = items.iter().map(|i| escape(i)).collect();
            body.push_str(&format!("- {metric}: {}\n", escaped.join(", ")));
        }
    }
    if body.is_empty() {
        // Failing only on a metric the input cannot show: the notes say what to do.
        return body;
    }
    format!(
        "<details><summary>{} — uncovered</summary>\n\n{body}\n</details>\n",
        escape_html(&file.path)
    )
}

fn capitalise(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn escapes_markdown_and_html() {
        assert_eq!(escape("a|b.rs"), "a\\|b.rs");
        assert_eq!(
            escape("<img src=x onerror=alert(1)>.rs"),
            "\\<img src=x onerror=alert(1)\\>.rs"
        );
        assert_eq!(
            escape("a_b*c`d[e]~f&g\\h"),
            "a\\_b\\*c\\`d\\[e\\]\\~f\\&g\\\\h"
        );
        assert_eq!(escape("two\nlines"), "two lines");
        assert_eq!(escape("a\u{1b}[1m"), "a\\u{1b}\\[1m");
        assert_eq!(escape_html("a\u{1b}[1m<"), "a\\u{1b}[1m&lt;");
        assert_eq!(
            escape_html("<img src=\"x\" a='b'>&\r"),
            "&lt;img src=&quot;x&quot; a=&#39;b&#39;&gt;&amp; "
        );
        assert_eq!(
            escape("see https://evil.example/x or WWW.evil.example, a@b.co: 1.2 ww.x"),
            "see https\\://evil.example/x or WWW\\.evil.example, a`@`b.co: 1.2 ww.x"
        );
        assert_eq!(escape("www"), "www");
        assert_eq!(
            escape_html("http://e.x www.e.x a@b.c: x"),
            "http&#58;//e.x www&#46;e.x a&#64;b.c: x"
        );
        assert_eq!(capitalise("lines"), "Lines");
        assert_eq!(capitalise(""), "");
    }
}
