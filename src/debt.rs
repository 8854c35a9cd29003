//! The debt ledger: `[[debt]]` entries that let a file below the bar miss at most a recorded
//! number of items per metric, for a recorded reason, until its tests catch up.
//!
//! An entry names one file (`path`, root-relative, never a glob), the missed items it allows per
//! metric (`regions = 3`, `lines = 2`, …; an absent metric allows 0) and a `reason`. The entries
//! live in the policy, or in a file the policy names (`debt = "coverage-debt.toml"`, relative to
//! the policy's folder, holding `[[debt]]` entries only).
//!
//! A file with an entry is judged by counts, not by the threshold: a metric passes when its
//! missed items (total − covered) are at most the allowance, and fails when they are more (a new
//! gap: its items are listed). An allowance above the missed count is *loose* and fails too,
//! saying "tighten `lines` to 1", so the ledger only ever goes down ([`crate::commands::tighten`] rewrites
//! it). An entry whose file is gone (no longer an in-scope file), excluded, without code, or at
//! 100% on every metric is *stale*: an error, as a stale `[[exclude]]` is, and what `--tighten`
//! removes (the check and `--tighten` judge an entry alike). An unmeasured file keeps its entry
//! and fails as unmeasured. Files without an entry are held to the threshold.

use crate::error::{Error, Result};
use crate::judge::{FileStatus, FileVerdict, MetricStatus, Verdict};
use crate::measure::{Measured, MeasuredFiles};
use crate::model::Counts;
pub use crate::policy::debt::{Entry, Ledger};
use crate::uncovered;

/// Missed items of `counts`: total − covered.
pub fn missed(counts: Counts) -> u64 {
    counts.total.saturating_sub(counts.covered)
}

/// The status of a metric whose file has a `[[debt]]` entry allowing `allowed` missed items.
pub fn status(counts: Option<Counts>, allowed: u64) -> MetricStatus {
    match counts {
        None => MetricStatus::Unavailable,
        Some(c) if missed(c) > allowed => MetricStatus::Fail,
        Some(c) if missed(c) < allowed => MetricStatus::Loose,
        Some(c) if c.total == 0 => MetricStatus::Vacuous,
        Some(_) => MetricStatus::Pass,
    }
}

/// Judges every measured file of `verdict` that has an entry by its allowances instead of the
/// threshold (see the module docs): sets each metric's `allowed` and status, the file's status,
/// and its uncovered items (listed, from `measured`, for every failing metric: over its
/// allowance or loose), with a note for each failing metric saying what the entry allows. Files stay failing first, then
/// by path.
pub(crate) fn apply(ledger: &Ledger, verdict: &mut Verdict, measured: &MeasuredFiles<'_>) {
    for file in &mut verdict.files {
        let (Some(entry), Some(m)) = (ledger.entry(&file.path), measured.get(&file.path)) else {
            continue;
        };
        judge_file(file, entry, m);
    }
    // Paths are unique: an unstable sort gives the same order, without a copy of the files.
    verdict
        .files
        .sort_unstable_by(|a, b| (!a.status.fails(), &a.path).cmp(&(!b.status.fails(), &b.path)));
}

fn judge_file(file: &mut FileVerdict, entry: &Entry, measured: &Measured<'_>) {
    // The failing metrics, whose items are listed.
    let mut over = Vec::new();
    let mut notes = Vec::new();
    file.metrics.update(|m| {
        let allowed = entry.allowed(m.metric);
        m.allowed = Some(allowed);
        m.status = status(m.counts, allowed);
        let missed = m.counts.map_or(0, missed);
        let metric = m.metric;
        let location = &entry.location;
        match m.status {
            MetricStatus::Fail => {
                over.push(metric);
                notes.push((
                    metric,
                    format!(
                        "{missed} missed, {} more than the [[debt]] entry at {location} allows ({allowed})",
                        missed - allowed
                    ),
                ));
            }
            MetricStatus::Loose => {
                over.push(metric);
                notes.push((
                metric,
                format!(
                    "tighten `{metric}` to {missed}: the [[debt]] entry at {location} allows {allowed} but {missed} missed (`covgate check --tighten` does it)"
                ),
            ));
            }
            _ => {}
        }
    });
    let failing = file.metrics.iter().any(|m| m.status.fails());
    file.status = if failing {
        FileStatus::Fail
    } else {
        FileStatus::Pass
    };
    file.uncovered = if over.is_empty() {
        uncovered::Uncovered::default()
    } else {
        uncovered::list(&measured.coverage, &over, &measured.summary)
    }
    .into();
    file.uncovered.notes.extend(notes);
}

/// [`apply`], then the stale-entry error ([`stale`]) unless the ledger is about to be
/// tightened (`tightening`: `covgate check --tighten` removes every stale entry instead).
///
/// Errors (exit 2): stale entries.
pub(crate) fn judge(
    ledger: &Ledger,
    verdict: &mut Verdict,
    measured: &MeasuredFiles<'_>,
    walked: bool,
    tightening: bool,
) -> Result<()> {
    apply(ledger, verdict, measured);
    match stale(ledger, verdict, walked) {
        Some(err) if !tightening => Err(err),
        _ => Ok(()),
    }
}

/// Why an entry whose file is not an in-scope file is stale ([`stale_because`]).
pub const GONE: &str = "not an in-scope file (gone, renamed, or outside `include`)";

/// Why an entry is stale in `verdict`, or `None` when it is not: its file is gone (not an
/// in-scope file; known only when the root was `walked`), excluded, without code, or measured
/// at 100% on every metric.
pub fn stale_because(entry: &Entry, verdict: &Verdict, walked: bool) -> Option<&'static str> {
    let Some(file) = verdict.files.iter().find(|f| f.path == entry.path) else {
        return walked.then_some(GONE);
    };
    // Only a measured file has metrics (one per policy metric, never none).
    let complete = !file.metrics.is_empty()
        && file
            .metrics
            .iter()
            .all(|m| m.counts.is_some_and(|c| missed(c) == 0));
    match file.status {
        FileStatus::Excluded => Some("excluded by an [[exclude]]"),
        FileStatus::NoCode => Some("has no code"),
        _ if complete => Some("at 100% on every metric"),
        _ => None,
    }
}

/// The error for the stale entries of `ledger`, `None` when there are none.
pub fn stale(ledger: &Ledger, verdict: &Verdict, walked: bool) -> Option<Error> {
    let problems: Vec<String> = ledger
        .entries
        .iter()
        .filter_map(|e| {
            stale_because(e, verdict, walked).map(|why| {
                format!(
                    "  {} `{}`: {why}{}",
                    e.location,
                    e.path,
                    gone_hint(e, why, verdict)
                )
            })
        })
        .collect();
    if problems.is_empty() {
        return None;
    }
    let mut lines = vec![
        "stale [[debt]] entries; remove them or run `covgate check --tighten` (the debt ledger: docs/adopting.md):"
            .to_string(),
    ];
    lines.extend(problems);
    Some(Error::lines(lines))
}

/// For an entry stale for `why` = [`GONE`], the in-scope file its path probably misspells
/// (`; did you mean `src/b.rs`?`); nothing otherwise, or when no file is near. The check's error
/// and `--tighten`'s removal line both say it.
pub(crate) fn gone_hint(entry: &Entry, why: &str, verdict: &Verdict) -> String {
    if why != GONE {
        return String::new();
    }
    let names: Vec<&str> = verdict.files.iter().map(|f| f.path.as_str()).collect();
    crate::hint::did_you_mean(&entry.path, &names)
}

/// The ledger's totals in `verdict`: missed items allowed, and files with at least one allowed.
/// The sum saturates at `u64::MAX` (allowances are any `u64` the ledger writes).
pub fn totals(verdict: &Verdict) -> (u64, usize) {
    let allowed = |f: &FileVerdict| -> u64 {
        f.metrics
            .iter()
            .filter_map(|m| m.allowed)
            .fold(0, u64::saturating_add)
    };
    let files = verdict.files.iter().filter(|f| allowed(f) > 0).count();
    let sum = verdict
        .files
        .iter()
        .map(allowed)
        .fold(0, u64::saturating_add);
    (sum, files)
}

/// `debt: 41 missed items allowed in 7 files`, or `None` when no file has an entry.
pub fn summary_line(verdict: &Verdict) -> Option<String> {
    let any = verdict
        .files
        .iter()
        .any(|f| f.metrics.iter().any(|m| m.allowed.is_some()));
    let (allowed, files) = totals(verdict);
    let noun = |n: u64, one: &'static str, many: &'static str| if n == 1 { one } else { many };
    any.then(|| {
        format!(
            "debt: {allowed} missed {} allowed in {files} {}",
            noun(allowed, "item", "items"),
            noun(files as u64, "file", "files")
        )
    })
}

/// A metric's allowance in words for a table or Markdown cell: ` (3 allowed)`, or nothing when
/// its file has no entry or the entry allows none.
pub fn cell_suffix(allowed: Option<u64>) -> String {
    allowed
        .filter(|&n| n > 0)
        .map_or_else(String::new, |n| format!(" ({n} allowed)"))
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn statuses_compare_counts() {
        let c = |covered, total| Some(Counts::new(covered, total));
        assert_eq!(status(None, 1), MetricStatus::Unavailable);
        assert_eq!(status(c(7, 10), 2), MetricStatus::Fail);
        assert_eq!(status(c(7, 10), 3), MetricStatus::Pass);
        assert_eq!(status(c(7, 10), 4), MetricStatus::Loose);
        assert_eq!(status(c(0, 0), 0), MetricStatus::Vacuous);
        assert_eq!(status(c(0, 0), 1), MetricStatus::Loose);
        assert_eq!(missed(Counts::new(3, 5)), 2);
    }

    #[test]
    fn cells_and_summaries() {
        assert_eq!(cell_suffix(None), "");
        assert_eq!(cell_suffix(Some(0)), "");
        assert_eq!(cell_suffix(Some(3)), " (3 allowed)");
    }
}
