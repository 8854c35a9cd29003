//! Functions of a merge that no report measured for branches or MC/DC.
//!
//! Several llvm-cov JSON exports of one file are shards of one run, but they need not all carry
//! the same data: a CI matrix may run one leg on nightly with `--branch` and another on stable
//! (no branch record), or build one leg with `-fcoverage-mcdc` and another without. A function
//! (instantiation group: records sharing their start) that only exports without that data hold
//! was never measured for it: its records list no branch, or only plain branches, and counting
//! them would make its branches or conditions 0 of 0. Such a file's metric is unavailable
//! (failing closed), and a note names the functions ([`notes`]).

use std::collections::{BTreeMap, HashSet};

use crate::demangle::demangle;
use crate::model::Metric;
use crate::report::llvm_json::FunctionStats;
use crate::report::FileCoverage;

use super::{measures_mcdc, Measured, Part};

/// Functions named in a note at most, per file; the rest are counted.
const NAMED: usize = 5;

/// The functions of one merged file that no part measured, per metric: (start line, demangled
/// name), by start.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Unmeasured {
    /// Functions that only reports without branch records hold.
    pub branches: Vec<(u32, String)>,
    /// Functions with branches that only parts without MC/DC data hold (see
    /// [`measures_mcdc`]).
    pub mcdc: Vec<(u32, String)>,
}

/// The functions of a file named by several parts that no part measured for branches (looked
/// for when `branches` is true: some part has branch data) or MC/DC (when `mcdc` is true);
/// `None` when there is one part, or every function was measured.
///
/// A part measures branches when its report holds branch records
/// ([`Report::has_branch_data`](crate::report::Report::has_branch_data)), MC/DC when
/// [`measures_mcdc`] says so. A function (its records' start, as llvm-cov groups them) is
/// measured when a record of it comes from a part that measures the metric; for MC/DC, a
/// function whose records list no branch has no condition to measure. Only JSON parts with
/// function records are looked at (a summary-only part merges only with parts that agree).
pub(super) fn unmeasured(
    parts: &[Part<'_>],
    branches: bool,
    mcdc: bool,
) -> Option<Box<Unmeasured>> {
    if parts.len() < 2 {
        return None;
    }
    let found = Unmeasured {
        branches: missing(parts, branches, |p| p.report.has_branch_data, |_| true),
        mcdc: missing(parts, mcdc, measures_mcdc, |r| r.branches.total > 0),
    };
    (found != Unmeasured::default()).then(|| Box::new(found))
}

/// The function records of a part (none for LCOV and summary-only parts).
fn records<'a>(part: &Part<'a>) -> &'a [FunctionStats] {
    match part.coverage {
        FileCoverage::Llvm(file) => file.functions.as_deref().unwrap_or_default(),
        FileCoverage::Lcov(_) => &[],
    }
}

/// The functions (start line, demangled name of their first record) with a record that
/// `needs` the metric, none of whose records comes from a part that `measures` it; none when
/// not `wanted`.
fn missing(
    parts: &[Part<'_>],
    wanted: bool,
    measures: fn(&Part<'_>) -> bool,
    needs: fn(&FunctionStats) -> bool,
) -> Vec<(u32, String)> {
    if !wanted {
        return Vec::new();
    }
    let measuring = parts.iter().filter(|p| measures(p));
    let measured: HashSet<(u32, u32)> = measuring.flat_map(records).map(|r| r.key).collect();
    let mut found: BTreeMap<(u32, u32), &str> = BTreeMap::new();
    let others = parts.iter().filter(|p| !measures(p));
    let unmeasured = others.flat_map(records);
    for record in unmeasured.filter(|r| needs(r) && !measured.contains(&r.key)) {
        found.entry(record.key).or_insert(&record.name);
    }
    let named = found.into_iter();
    named
        .map(|((line, _), name)| (line, demangle(name)))
        .collect()
}

/// The notes for the policy `metrics` that some measured file has unavailable because no
/// report measured some of its functions, one per file and metric, e.g. `src/lib.rs: branches
/// are unavailable: no report with branch records holds mixed::both (line 12), …`, for the
/// (path, measurement) pairs of `measured` in their order.
pub(crate) fn notes<'m, 'a: 'm>(
    metrics: &[Metric],
    measured: impl IntoIterator<Item = (&'m String, &'m Measured<'a>)>,
) -> Vec<String> {
    let mut notes = Vec::new();
    for (path, file) in measured {
        let Some(unmeasured) = &file.unmeasured else {
            continue;
        };
        for (metric, functions) in [
            (Metric::Branches, &unmeasured.branches),
            (Metric::Mcdc, &unmeasured.mcdc),
        ] {
            if metrics.contains(&metric) && !functions.is_empty() {
                notes.push(note(path, metric, functions));
            }
        }
    }
    notes
}

/// The note for one file and metric.
fn note(path: &str, metric: Metric, functions: &[(u32, String)]) -> String {
    let mut named: Vec<String> = functions
        .iter()
        .take(NAMED)
        .map(|(line, name)| format!("{name} (line {line})"))
        .collect();
    if functions.len() > NAMED {
        named.push(format!("{} more", functions.len() - NAMED));
    }
    let (what, data, fix) = match metric {
        Metric::Mcdc => (
            "mcdc is",
            "MC/DC data for the file",
            "build every merged run with `-fcoverage-mcdc`",
        ),
        _ => (
            "branches are",
            "branch records",
            "make every merged report with branch data (`cargo +nightly llvm-cov --branch`)",
        ),
    };
    format!(
        "{path}: {what} unavailable: no report with {data} holds {}, which only the other \
         merged reports hold; {fix}, or drop \"{}\" from `metrics`",
        named.join(", "),
        metric.name()
    )
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "gaps_tests.rs"]
mod tests;
