//! GitHub Actions workflow commands (`--format github`): a `::notice` with the facts the verdict
//! was reached under, a `::warning` per report warning, then one `::error` annotation per
//! uncovered line range (and per function that never ran, and per unmeasured file), so the gaps
//! show up on the pull request's diff.
//!
//! Shape: `::error file=PATH,line=L,endLine=E,title=TITLE::MESSAGE`. Values are escaped as the
//! runner requires: in messages `%`, CR and LF become `%25`, `%0D`, `%0A`; in properties `:` and
//! `,` also become `%3A` and `%2C`. Annotations are bounded: at most [`PER_FILE`] per file and
//! [`TOTAL`] in all (GitHub shows only a few per step anyway); a closing `::notice` says how many
//! were dropped. Paths are root-relative, as GitHub expects when the root is the checkout.

use crate::judge::{FileStatus, FileVerdict, MetricStatus, MetricVerdict, Verdict};
use crate::model::Metric;
use crate::outcome::Facts;
use crate::uncovered::range_text;

/// The most annotations written for one file.
pub(crate) const PER_FILE: usize = 10;

/// The most annotations written in all.
pub const TOTAL: usize = 50;

/// Escapes a workflow-command message: `%`, CR and LF as the runner requires, any other
/// control character as `\u{1b}` (see [`super::printable`]), and the `[` of `##[` (the older
/// command syntax, read anywhere in a line) as `\u{5b}`.
pub(crate) fn escape_data(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            '[' if out.ends_with("##") => out.push_str("\\u{5b}"),
            c if c.is_control() => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
    }
    out
}

/// Escapes a workflow-command property value.
pub(crate) fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// Renders a `::notice` with the facts, then the annotations for every failing and unmeasured
/// file.
pub fn render(facts: &Facts, verdict: &Verdict) -> String {
    let all: Vec<Vec<String>> = verdict
        .files
        .iter()
        .filter(|f| f.status.fails())
        .map(annotations)
        .collect();
    let wanted: usize = all.iter().map(Vec::len).sum();
    let kept: Vec<String> = all
        .into_iter()
        .flat_map(|file| file.into_iter().take(PER_FILE))
        .take(TOTAL)
        .collect();
    let mut out = facts_notice(facts);
    // What the readers warned of (e.g. a tracefile that ends without `end_of_record`, as a
    // truncated one does) shows on the run's summary, not only in the log.
    for warning in &facts.warnings {
        out.push_str(&format!(
            "::warning title=covgate%3A report warning::{}\n",
            escape_data(warning)
        ));
    }
    if let Some(note) = verdict.empty.note() {
        let level = if verdict.passed() { "notice" } else { "error" };
        out.push_str(&format!(
            "::{level} title=covgate%3A nothing measured::{}\n",
            escape_data(&note)
        ));
    }
    out.extend(kept.iter().map(|a| format!("{a}\n")));
    if wanted > kept.len() {
        out.push_str(&format!(
            "::notice title=covgate::{} more annotation(s) (uncovered lines, functions never run) not written; see the step summary or the log\n",
            wanted - kept.len()
        ));
    }
    out
}

/// `::notice title=covgate facts::covgate V · policy P · root R · threshold 100% · target T
/// (host) · cfg: … · programs on PATH: … · reports: …` (programs only when the policy names any).
fn facts_notice(facts: &Facts) -> String {
    let reports: Vec<String> = facts
        .reports
        .iter()
        .map(|(origin, kind)| format!("{origin} ({kind})"))
        .collect();
    let programs = super::programs_text(facts)
        .map_or_else(String::new, |p| format!(" · programs on PATH: {p}"));
    let text = format!(
        "covgate {} · policy {} · root {} · threshold {}% · target {} ({}) · cfg: {}{programs} · reports: {}",
        facts.version,
        facts.policy,
        facts.root,
        facts.threshold,
        facts.target.triple,
        facts.target.source,
        super::cfg_summary(&facts.target),
        reports.join(", ")
    );
    format!("::notice title=covgate facts::{}\n", escape_data(&text))
}

/// The annotations of one failing or unmeasured file.
fn annotations(file: &FileVerdict) -> Vec<String> {
    let path = escape_property(&file.path);
    if file.status == FileStatus::Unmeasured {
        let why = file.reason.as_deref().unwrap_or("in no report");
        return vec![format!(
            "::error file={path},title=covgate%3A unmeasured::{} is in scope but unmeasured: {}",
            escape_data(&file.path),
            escape_data(why)
        )];
    }
    let mut out: Vec<String> = file
        .uncovered
        .lines
        .iter()
        .map(|r| {
            let what = if r.start == r.end { "line" } else { "lines" };
            format!(
                "::error file={path},line={},endLine={},title=covgate%3A uncovered {what}::{what} {} not covered",
                r.start,
                r.end,
                range_text(r)
            )
        })
        .collect();
    for f in &file.uncovered.functions {
        let line = f.line.map_or_else(String::new, |l| format!(",line={l}"));
        out.push(format!(
            "::error file={path}{line},title=covgate%3A function never run::{} never ran",
            escape_data(&f.name)
        ));
    }
    for c in &file.uncovered.conditions {
        let (line, column) = c.condition.at;
        out.push(format!(
            "::error file={path},line={line},col={column},title=covgate%3A MC/DC condition::condition {} has no independence pair",
            escape_data(&crate::uncovered::condition_text(c))
        ));
    }
    let (loose, below): (Vec<&MetricVerdict>, Vec<&MetricVerdict>) = file
        .metrics
        .iter()
        .filter(|m| m.status.fails())
        .partition(|m| m.status == MetricStatus::Loose);
    if out.is_empty() {
        let texts = below.iter().map(|m| metric_text(m)).collect();
        out.extend(summary_annotation(texts, &path, "below the bar"));
    }
    let tighten = loose
        .iter()
        .map(|m| {
            let missed = m.counts.map_or(0, crate::debt::missed);
            format!("{}: tighten to {missed}", metric_text(m))
        })
        .collect();
    out.extend(summary_annotation(
        tighten,
        &path,
        "tighten the [[debt]] entry",
    ));
    out
}

/// A metric's counts and allowance: `lines 1/2 (2 allowed)`.
fn metric_text(m: &MetricVerdict) -> String {
    describe(m.metric, m.counts) + &crate::debt::cell_suffix(m.allowed)
}

/// One annotation titled `title` listing `texts` (one per failing metric, see
/// [`metric_text`]); none without any.
fn summary_annotation(texts: Vec<String>, path: &str, title: &str) -> Option<String> {
    (!texts.is_empty()).then(|| {
        format!(
            "::error file={path},title=covgate%3A {title}::{}",
            escape_data(&texts.join("; "))
        )
    })
}

fn describe(metric: Metric, counts: Option<crate::model::Counts>) -> String {
    match counts {
        Some(c) => format!("{metric} {c}"),
        None => format!("{metric} unavailable"),
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_the_runner_requires() {
        assert_eq!(escape_data("100% a\r\nb"), "100%25 a%0D%0Ab");
        assert_eq!(escape_data("a\x1b]0;x\x07\0"), "a\\u{1b}]0;x\\u{7}\\u{0}");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
        assert_eq!(escape_data("x##[error]y[#[z"), "x##\\u{5b}error]y[#[z");
        assert_eq!(escape_property("##[a"), "##\\u{5b}a");
    }
}
