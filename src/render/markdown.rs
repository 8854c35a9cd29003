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

use super::summary_line;
use crate::judge::{
    unavailable_hint, FileStatus, FileVerdict, MetricStatus, MetricVerdict, Verdict,
};
use crate::model::Metric;
use crate::outcome::Facts;
use crate::uncovered::{
    branch_text, condition_text, from_text, function_text, range_text, span_text, RegionItem,
};

/// The largest body produced, in characters (GitHub's comment limit is 65,536).
pub(crate) const LIMIT: usize = 65_000;

/// Escapes text for Markdown inside a line (a table cell or a list item): the characters that
/// Markdown, GFM tables or HTML could read as syntax (`\ ` * _ [ ] < > | ~ &`) are
/// backslash-escaped, as CommonMark allows for any ASCII punctuation, and line breaks become
/// spaces. `<img …>` thus renders as text, and `a|b.rs` stays in its cell. GFM's bare-URL
/// autolinks are broken too: the `:` of `://` and the `.` of `www.` (any case) are escaped, which
/// GitHub's parser sees before it looks for links, and `@` (e-mail autolinks, which are found
/// after escapes are resolved, and mentions) is written as the code span `` `@` ``. `$` is
/// written as the entity `&#36;`: GitHub reads text between `$` signs as math (`$$PASS$$`, a
/// display formula), and a backslash before `$` does not reliably stop it, while an entity
/// holds no `$` at all.
pub(crate) fn escape(text: &str) -> String {
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
        '$' => Some("&#36;"),
        _ => None,
    })
}

/// Escapes text for HTML (inside `<summary>`, where Markdown is not read): `& < > " '` as
/// entities, line breaks as spaces, and, as in [`escape`], the `:` of `://`, the `.` of `www.`
/// and every `@` (as `&#58;`, `&#46;`, `&#64;`), so the text holds no bare URL, and every `$`
/// (as `&#36;`), so none starts math.
pub(crate) fn escape_html(text: &str) -> String {
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
        '$' => Some("&#36;"),
        _ => None,
    })
}

/// Writes `text` with each character that `table` maps replaced; `:` only where `//` follows
/// and `.` only after `www` (any case); any other control or format character as `\u{1b}`,
/// `\u{202e}` ([`crate::text::is_hidden`]).
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
            None if crate::text::is_hidden(c) => out.push_str(&c.escape_unicode().to_string()),
            None => out.push(c),
        }
    }
    out
}

/// Renders the verdict as Markdown, within [`LIMIT`] characters. With `link_base` (the URL of
/// the root folder at the commit under test, `--link-base`), file names, lines and line ranges
/// link to the source there (`…/src/lib.rs#L15-L18`).
pub fn render(
    facts: &Facts,
    verdict: &Verdict,
    metrics: &[Metric],
    link_base: Option<&str>,
) -> String {
    render_within(facts, verdict, metrics, Links { base: link_base }, LIMIT)
}

/// Where file names and line numbers link to: `base` is the URL of the root folder at the commit
/// under test (`https://github.com/OWNER/REPO/blob/SHA`); `None` writes plain text.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Links<'a> {
    /// The URL that root-relative paths are appended to.
    pub base: Option<&'a str>,
}

impl Links<'_> {
    /// `text` (already escaped) as a link to `path` at lines `start..=end` (`#L3`, `#L3-L5`),
    /// or to the file when `lines` is `None`; plain `text` without a base.
    fn to(&self, text: &str, path: &str, lines: Option<(u32, u32)>) -> String {
        let Some(base) = self.base else {
            return text.to_string();
        };
        let anchor = match lines {
            Some((start, end)) if start == end => format!("#L{start}"),
            Some((start, end)) => format!("#L{start}-L{end}"),
            None => String::new(),
        };
        format!(
            "[{text}]({}/{}{anchor})",
            base.trim_end_matches('/'),
            url_path(path)
        )
    }
}

/// A root-relative path as a URL path: bytes other than ASCII letters, digits, `-._~/` are
/// percent-encoded, so no path can end the link or add markup.
fn url_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Checks a `--link-base` URL: `http://` or `https://`, without whitespace, quotes, `<`, `>`,
/// `(`, `)` or control characters (which would end a Markdown link). Returns the message of the
/// usage error (exit 2) otherwise.
pub(crate) fn check_link_base(flag: &str, url: &str) -> std::result::Result<(), String> {
    let scheme = url.starts_with("https://") || url.starts_with("http://");
    let bad = url
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || "\"'<>()`".contains(*c));
    match (scheme, bad) {
        (true, None) => Ok(()),
        (false, _) => Err(format!(
            "{flag} {}: give an http:// or https:// URL, e.g. https://github.com/OWNER/REPO/blob/SHA",
            escape(url)
        )),
        (true, Some(c)) => Err(format!(
            "{flag}: the URL holds {}, which would end a Markdown link; percent-encode it",
            c.escape_debug()
        )),
    }
}

/// The link base of the root folder from `repository`, the URL of the repository root
/// (`--link-repository`), and `below`, the root's path below the repository with or without a
/// trailing `/` (`""` for the repository root; see [`super::github::file_prefix`]): the path is
/// percent-encoded as the files' paths are.
pub(crate) fn repository_link(repository: &str, below: &str) -> String {
    let below = below.trim_end_matches('/');
    let repository = repository.trim_end_matches('/');
    if below.is_empty() {
        repository.to_string()
    } else {
        format!("{repository}/{}", url_path(below))
    }
}

/// [`render`] with a chosen limit (characters).
pub(crate) fn render_within(
    facts: &Facts,
    verdict: &Verdict,
    metrics: &[Metric],
    links: Links<'_>,
    limit: usize,
) -> String {
    let failing: Vec<&FileVerdict> = verdict.files.iter().filter(|f| f.status.fails()).collect();
    let rows: Vec<String> = failing.iter().map(|f| row(f, metrics, links)).collect();
    let details: Vec<String> = failing
        .iter()
        .filter(|f| f.status == FileStatus::Fail)
        .map(|f| details(f, metrics, links))
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
    let programs = super::programs_text(facts).map_or_else(String::new, |p| {
        format!(" · programs on PATH: {}", escape(&p))
    });
    format!(
        "### covgate: {word}\n\ncovgate {} · policy {} · root {} · threshold {}% on {} · target {} ({}) · cfg: {}{programs} · reports: {}\n\n",
        escape(&facts.version),
        escape(&facts.policy),
        escape(&facts.root),
        facts.threshold,
        names.join(", "),
        escape(&facts.target.triple),
        facts.target.source,
        escape(&super::cfg_summary(&facts.target)),
        reports.join(", ")
    ) + &warning_lines(&facts.warnings, facts.walked)
}

/// `> ⚠️ warning: …` lines, one per report warning and one for `--no-walk` (`walked` false:
/// [`super::NO_WALK_WARNING`]), then a blank line (empty without warnings).
fn warning_lines(warnings: &[String], walked: bool) -> String {
    let no_walk = (!walked).then(|| super::NO_WALK_WARNING.to_string());
    let mut out: String = warnings
        .iter()
        .chain(no_walk.iter())
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
        header.push_str(&format!(" {} |", m.title()));
        rule.push_str("---:|");
    }
    format!("{header}\n{rule}\n")
}

fn row(file: &FileVerdict, metrics: &[Metric], links: Links<'_>) -> String {
    let name = links.to(&escape(&file.path), &file.path, None);
    let mut row = format!("| {name} | {} |", file.status.name());
    for metric in metrics {
        let cell = file
            .metrics
            .iter()
            .find(|m| m.metric == *metric)
            .map_or_else(String::new, |m| cell(&m));
        row.push_str(&format!(" {cell} |"));
    }
    row.push('\n');
    row
}

/// `covered/total`, `—` for 0 of 0, `n/a` when unavailable, then ` (N allowed)` for a file with
/// a `[[debt]]` entry; failing cells in bold.
fn cell(m: &MetricVerdict) -> String {
    let cell = match (m.status, m.counts) {
        (MetricStatus::Vacuous, _) => "—".to_string(),
        (_, Some(c)) => c.to_string(),
        (_, None) => "n/a".to_string(),
    };
    let cell = format!("{cell}{}", crate::debt::cell_suffix(m.allowed));
    if m.status.fails() {
        format!("**{cell}**")
    } else {
        cell
    }
}

fn tail(facts: &Facts, verdict: &Verdict) -> String {
    let mut out = format!("{}\n", summary_line(verdict));
    if let Some(names) = super::dropped_names(verdict) {
        out.push_str(&format!("\noutside include: {}\n", escape(&names)));
    }
    if let Some(debt) = crate::debt::summary_line(verdict) {
        out.push_str(&format!("\n{debt}\n"));
    }
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
        if let Some(off) = super::coverage_off_totals(verdict) {
            out.push_str(&format!("\n{}.\n", escape(&off)));
        }
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
    out.push_str(&notes(verdict));
    out.push('\n');
    out
}

/// Why files are unmeasured and what to do about an unavailable metric (as the table's notes
/// say; what `--no-walk` leaves unchecked is a warning at the top).
fn notes(verdict: &Verdict) -> String {
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
    for file in verdict
        .files
        .iter()
        .filter(|f| f.status == FileStatus::Fail)
    {
        if let Some(reason) = &file.reason {
            out.push_str(&format!(
                "- {} fails: {}\n",
                escape(&file.path),
                escape(reason)
            ));
        }
    }
    for metric in &verdict.unavailable {
        out.push_str(&format!(
            "- {metric} unavailable: {}\n",
            escape(unavailable_hint(*metric))
        ));
    }
    if let Some(note) = verdict.empty.note() {
        out.push_str(&format!("- {}\n", escape(&note)));
    }
    if out.is_empty() {
        out
    } else {
        format!("\n**Notes**:\n\n{out}")
    }
}

fn details(file: &FileVerdict, metrics: &[Metric], links: Links<'_>) -> String {
    let mut body = String::new();
    for metric in metrics {
        let items = detail_items(file, *metric, links);
        let notes: Vec<String> = file
            .uncovered
            .notes_of(*metric)
            .map(|note| format!("  - note: {}\n", escape(note)))
            .collect();
        if items.is_empty() && notes.is_empty() {
            continue;
        }
        let listed = if items.is_empty() {
            "none named".to_string()
        } else {
            items.join(", ")
        };
        // A note is a sub-item of its metric, never one of the items.
        body.push_str(&format!("- {metric}: {listed}\n{}", notes.concat()));
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

/// The uncovered items of `metric` as Markdown: lines and line ranges, branch sides and
/// functions each linked to their line; regions grouped by line (`17 (cols 23-27, 32-40)`, a
/// region over several lines as `15-17 (15:1-17:3)`).
fn detail_items(file: &FileVerdict, metric: Metric, links: Links<'_>) -> Vec<String> {
    let u = &file.uncovered;
    let path = file.path.as_str();
    match metric {
        Metric::Lines => u
            .lines
            .iter()
            .map(|r| links.to(&range_text(r), path, Some((r.start, r.end))))
            .collect(),
        Metric::Regions => region_groups(&u.regions)
            .into_iter()
            .map(|(start, end, text)| links.to(&escape(&text), path, Some((start, end))))
            .collect(),
        Metric::Branches => u
            .branches
            .iter()
            .map(|b| links.to(&escape(&branch_text(b)), path, Some((b.line, b.line))))
            .collect(),
        Metric::Functions => u
            .functions
            .iter()
            .map(|f| links.to(&escape(&function_text(f)), path, f.line.map(|l| (l, l))))
            .collect(),
        Metric::Mcdc => u
            .conditions
            .iter()
            .map(|c| {
                let line = c.condition.at.0;
                links.to(&escape(&condition_text(c)), path, Some((line, line)))
            })
            .collect(),
    }
}

/// Regions grouped by line: one entry per line for the regions within it, with their columns
/// (`17 (cols 23-27, 32-40)`), and one per region over several lines (`15-17 (15:1-17:3)`), as
/// (first line, last line, text). A region of a named instantiation is an entry of its own,
/// with the instantiation (`17 (cols 23-27) (in clamp_to<double>)`).
fn region_groups(regions: &[RegionItem]) -> Vec<(u32, u32, String)> {
    let mut groups: Vec<(u32, u32, String)> = Vec::new();
    let mut named = false;
    for r in regions {
        let s = &r.span;
        let cols = format!("{}-{}", s.col_start, s.col_end);
        let alone = std::mem::replace(&mut named, r.from.is_some()) || r.from.is_some();
        match groups.last_mut() {
            Some((start, end, text))
                if !alone
                    && s.line_start == s.line_end
                    && *start == s.line_start
                    && *end == s.line_end =>
            {
                text.truncate(text.len() - 1);
                text.push_str(&format!(", {cols})"));
            }
            _ if s.line_start == s.line_end => groups.push((
                s.line_start,
                s.line_end,
                format!(
                    "{} (cols {cols}){}",
                    s.line_start,
                    from_text(r.from.as_deref())
                ),
            )),
            _ => groups.push((
                s.line_start,
                s.line_end,
                format!(
                    "{}-{} ({}){}",
                    s.line_start,
                    s.line_end,
                    span_text(s),
                    from_text(r.from.as_deref())
                ),
            )),
        }
    }
    groups
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
        // GitHub math: `$…$` and `$$…$$` hold no `$` once escaped; backslashes stay doubled.
        assert_eq!(escape("$$PASS$$"), "&#36;&#36;PASS&#36;&#36;");
        assert_eq!(escape("src/$\\alpha$.rs"), "src/&#36;\\\\alpha&#36;.rs");
        assert_eq!(escape_html("<$x$>"), "&lt;&#36;x&#36;&gt;");
        assert_eq!(
            escape_html("http://e.x www.e.x a@b.c: x"),
            "http&#58;//e.x www&#46;e.x a&#64;b.c: x"
        );
    }

    fn span(a: u32, b: u32, c: u32, d: u32) -> RegionItem {
        RegionItem {
            span: crate::model::Span {
                line_start: a,
                col_start: b,
                line_end: c,
                col_end: d,
            },
            from: None,
        }
    }

    fn named(mut r: RegionItem) -> RegionItem {
        r.from = Some("f<int>".to_string());
        r
    }

    #[test]
    fn regions_are_grouped_by_line() {
        let regions = [
            span(3, 1, 3, 2),
            span(3, 5, 3, 9),
            span(4, 1, 4, 3),
            span(15, 1, 17, 3),
            span(15, 5, 15, 9),
            span(15, 20, 15, 30),
            span(16, 1, 18, 2),
            named(span(20, 1, 20, 2)),
            span(20, 4, 20, 5),
            named(span(21, 1, 22, 2)),
        ];
        let texts: Vec<(u32, u32, String)> = region_groups(&regions);
        assert_eq!(
            texts,
            vec![
                (3, 3, "3 (cols 1-2, 5-9)".to_string()),
                (4, 4, "4 (cols 1-3)".to_string()),
                (15, 17, "15-17 (15:1-17:3)".to_string()),
                (15, 15, "15 (cols 5-9, 20-30)".to_string()),
                (16, 18, "16-18 (16:1-18:2)".to_string()),
                (20, 20, "20 (cols 1-2) (in f<int>)".to_string()),
                (20, 20, "20 (cols 4-5)".to_string()),
                (21, 22, "21-22 (21:1-22:2) (in f<int>)".to_string()),
            ]
        );
    }

    #[test]
    fn links_go_to_the_file_and_its_lines() {
        let links = Links {
            base: Some("https://github.com/o/r/blob/abc/"),
        };
        assert_eq!(
            links.to("a\\_b", "src/a b(1).rs", None),
            "[a\\_b](https://github.com/o/r/blob/abc/src/a%20b%281%29.rs)"
        );
        assert_eq!(
            links.to("3", "src/x.rs", Some((3, 3))),
            "[3](https://github.com/o/r/blob/abc/src/x.rs#L3)"
        );
        assert_eq!(
            links.to("3-5", "src/x.rs", Some((3, 5))),
            "[3-5](https://github.com/o/r/blob/abc/src/x.rs#L3-L5)"
        );
        assert_eq!(Links::default().to("3", "src/x.rs", Some((3, 3))), "3");
        assert_eq!(url_path("ü/~-._"), "%C3%BC/~-._");
    }

    #[test]
    fn link_bases_are_checked() {
        assert_eq!(
            check_link_base("--link-base", "https://github.com/o/r/blob/abc"),
            Ok(())
        );
        assert_eq!(check_link_base("--link-base", "http://host/x"), Ok(()));
        let err = check_link_base("--link-base", "javascript:alert(1)").unwrap_err();
        assert!(err.contains("give an http:// or https:// URL"), "{err}");
        let err = check_link_base("--link-base", "https://x/a)b").unwrap_err();
        assert!(err.contains("holds )"), "{err}");
        let err = check_link_base("--link-base", "https://x/a\u{7}b").unwrap_err();
        assert!(err.contains("holds \\u{7}"), "{err}");
        let err = check_link_base("--link-base", "https://x/a b").unwrap_err();
        assert!(err.contains("holds  "), "{err}");
        let err = check_link_base("--link-base", "https://x/a\u{7}b").unwrap_err();
        assert!(err.contains("holds \\u{7}"), "{err}");
        let err = check_link_base("--link-repository", "nourl").unwrap_err();
        assert!(err.starts_with("--link-repository nourl: give"), "{err}");
    }

    #[test]
    fn a_repository_link_goes_to_the_root_below_it() {
        let repo = "https://github.com/o/r/blob/abc/";
        assert_eq!(repository_link(repo, ""), "https://github.com/o/r/blob/abc");
        assert_eq!(
            repository_link(repo, "crates/a b/"),
            "https://github.com/o/r/blob/abc/crates/a%20b"
        );
        assert_eq!(repository_link("https://h/x", "units"), "https://h/x/units");
    }
}
