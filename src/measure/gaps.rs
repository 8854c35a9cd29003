//! Functions of a merge that no report measured for branches or MC/DC.
//!
//! Several reports of one file are shards of one run, but they need not all carry the same
//! data: a CI matrix may run one leg on nightly with `--branch` and another on stable (no branch
//! record), or build one leg with `-fcoverage-mcdc` and another without. Code that only reports
//! without that data hold was never measured for it: its records list no branch, or only plain
//! branches, and counting the others' would make its branches or conditions 0 of 0, or pass it
//! on what the others measured. Such a file's metric is unavailable (failing closed), and a
//! note names the functions ([`notes`]):
//! - llvm-cov JSON, branches: a function (instantiation group: records sharing their start)
//!   that no report with branch records holds; and, in a function such a report holds, the
//!   code regions of a branch-less record that start on a line no branch-carrying record of the
//!   group maps (a `#[cfg(feature)]` block inside the function that only the stable leg built);
//!   see [`json_branches`].
//! - llvm-cov JSON, MC/DC: a function with branches that only parts without MC/DC data hold.
//! - LCOV, branches: a function (start line and identity, as the merge counts functions) that
//!   only tracefiles without any `BRDA` record hold, or, inside one tracefile, only sections of
//!   the file without one while another section has some (see
//!   [`crate::report::lcov::unbranched`]).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use crate::demangle::demangle;
use crate::model::Metric;
use crate::report::lcov::{unbranched, LcovFile};
use crate::report::llvm_json::FunctionStats;
use crate::report::FileCoverage;

use super::{measures_mcdc, Measured, Part};

/// Functions named in a note at most, per file; the rest are counted.
const NAMED: usize = 5;

/// Code no part measured for a metric: a function, or lines of it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Gap {
    /// The function's start line.
    pub line: u32,
    /// Its demangled name.
    pub name: String,
    /// The lines of its code that no part measured, ascending; empty when it is the whole
    /// function (no part that measures the metric holds it).
    pub lines: Vec<u32>,
}

/// The code of one merged file that no part measured, per metric, by start line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Unmeasured {
    /// Functions, or lines of functions, that only reports without branch records hold.
    pub branches: Vec<Gap>,
    /// Functions with branches that only parts without MC/DC data hold (see
    /// [`measures_mcdc`]).
    pub mcdc: Vec<Gap>,
}

/// The code of a file named by several parts (or by one LCOV part merged from sections that
/// differ: [`LcovFile::unbranched`]) that no part measured for branches (looked for when
/// `branches` is true: some part has branch data) or MC/DC (when `mcdc` is true); `None` when
/// all of it was measured.
///
/// A part measures branches when its report holds branch records
/// ([`Report::has_branch_data`](crate::report::Report::has_branch_data)), MC/DC when
/// [`measures_mcdc`] says so. For MC/DC, a function (its records' start, as llvm-cov groups
/// them) is measured when a record of it comes from a part that measures the metric; a
/// function whose records list no branch has no condition to measure. For branches, see
/// [`json_branches`] and [`lcov_branches`]. Of JSON parts, only those with function records
/// are looked at (a summary-only part merges only with parts that agree).
pub(super) fn unmeasured(
    parts: &[Part<'_>],
    branches: bool,
    mcdc: bool,
) -> Option<Box<Unmeasured>> {
    let sections_differ = parts
        .iter()
        .any(|p| lcov(p).is_some_and(|f| !f.unbranched().is_empty()));
    if parts.len() < 2 && !sections_differ {
        return None;
    }
    let mut found = Unmeasured::default();
    if branches {
        found.branches = json_branches(parts);
        found.branches.extend(lcov_branches(parts));
    }
    if mcdc {
        found.mcdc = missing(parts, measures_mcdc, |r| r.branches.total > 0);
    }
    (found != Unmeasured::default()).then(|| Box::new(found))
}

/// The function records of a part (none for LCOV and summary-only parts).
fn records<'a>(part: &Part<'a>) -> &'a [FunctionStats] {
    match part.coverage {
        FileCoverage::Llvm(file) => file.functions.as_deref().unwrap_or_default(),
        FileCoverage::Lcov(_) => &[],
    }
}

/// The LCOV file of a part (none for JSON parts).
fn lcov<'a>(part: &Part<'a>) -> Option<&'a LcovFile> {
    match part.coverage {
        FileCoverage::Lcov(file) => Some(file),
        FileCoverage::Llvm(_) => None,
    }
}

/// The functions (start line, demangled name of their first record) with a record that
/// `needs` the metric, none of whose records comes from a part that `measures` it.
fn missing(
    parts: &[Part<'_>],
    measures: fn(&Part<'_>) -> bool,
    needs: fn(&FunctionStats) -> bool,
) -> Vec<Gap> {
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
        .map(|((line, _), name)| Gap {
            line,
            name: demangle(name),
            lines: Vec::new(),
        })
        .collect()
}

/// The JSON code whose branches no part measured: every function (instantiation group) that
/// no part with branch records holds; and, of a function one does hold, the start lines of
/// the code regions of branch-less records that no branch-carrying record of the group maps
/// (a line is mapped by a record when it is among its lines, covered or not, or a code region
/// of it starts there). Two builds of the same source by different compilers (stable and
/// nightly rustc) may split a line's code into other regions, but map the same lines; code
/// only one build compiled (a `#[cfg(feature)]` block inside the function) is on lines the
/// other does not map.
fn json_branches(parts: &[Part<'_>]) -> Vec<Gap> {
    let (measuring, others): (Vec<&Part<'_>>, Vec<&Part<'_>>) =
        parts.iter().partition(|p| p.report.has_branch_data);
    let mut unmeasured = others.into_iter().flat_map(|p| records(p)).peekable();
    if unmeasured.peek().is_none() {
        return Vec::new();
    }
    let mut mapped: HashMap<(u32, u32), HashSet<u32>> = HashMap::new();
    for record in measuring.into_iter().flat_map(|p| records(p)) {
        mapped
            .entry(record.key)
            .or_default()
            .extend(lines_of(record));
    }
    let mut found: BTreeMap<(u32, u32), (&str, BTreeSet<u32>)> = BTreeMap::new();
    for record in unmeasured {
        let lines: BTreeSet<u32> = match mapped.get(&record.key) {
            None => BTreeSet::new(),
            Some(mapped) => {
                let starts = region_starts(record).filter(|line| !mapped.contains(line));
                let lines: BTreeSet<u32> = starts.collect();
                if lines.is_empty() {
                    continue;
                }
                lines
            }
        };
        let entry = found
            .entry(record.key)
            .or_insert((&record.name, BTreeSet::new()));
        entry.1.extend(lines);
    }
    found
        .into_iter()
        .map(|((line, _), (name, lines))| Gap {
            line,
            name: demangle(name),
            lines: lines.into_iter().collect(),
        })
        .collect()
}

/// The start lines of a record's code regions (a region in a macro expansion at its
/// expansion site).
fn region_starts(record: &FunctionStats) -> impl Iterator<Item = u32> + '_ {
    let covered = record.covered_region_lines().iter().copied();
    covered.chain(record.uncovered_regions().iter().map(|s| s.line_start))
}

/// The lines a record maps: its lines, covered or not, and the start lines of its code
/// regions.
fn lines_of(record: &FunctionStats) -> impl Iterator<Item = u32> + '_ {
    let ranges = record
        .covered_lines()
        .iter()
        .chain(record.uncovered_lines());
    ranges
        .flat_map(|r| r.start..=r.end)
        .chain(region_starts(record))
}

/// The LCOV functions whose branches no part measured: those that only parts of reports
/// without branch records, or only sections without any inside a part
/// ([`LcovFile::unbranched`]), hold.
fn lcov_branches(parts: &[Part<'_>]) -> Vec<Gap> {
    // Tracefiles that all measured branches, none of them a concatenation of sections that
    // did and did not (the usual shards of one run), leave nothing to look for.
    let settled = |p: &Part<'_>| {
        p.report.has_branch_data && lcov(p).is_none_or(|f| f.unbranched().is_empty())
    };
    if parts.iter().all(settled) {
        return Vec::new();
    }
    let splits = parts
        .iter()
        .filter_map(|p| Some(unbranched::split(lcov(p)?, p.report.has_branch_data)))
        .collect();
    unbranched::unmeasured(splits)
        .into_iter()
        .map(|((line, _), name)| Gap {
            line,
            name: demangle(name.as_str()),
            lines: Vec::new(),
        })
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
fn note(path: &str, metric: Metric, functions: &[Gap]) -> String {
    let mut named: Vec<String> = functions.iter().take(NAMED).map(described).collect();
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

/// A gap as a note names it: `inner::both (line 2)`, or `inner::both (line 2: its code at
/// lines 4-6, 9)`.
fn described(gap: &Gap) -> String {
    let Gap { line, name, lines } = gap;
    if lines.is_empty() {
        return format!("{name} (line {line})");
    }
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &at in lines {
        match runs.last_mut() {
            Some(run) if run.1.checked_add(1) == Some(at) => run.1 = at,
            _ => runs.push((at, at)),
        }
    }
    let spans: Vec<String> = runs
        .iter()
        .map(|&(a, b)| match a == b {
            true => a.to_string(),
            false => format!("{a}-{b}"),
        })
        .collect();
    let word = if lines.len() == 1 { "line" } else { "lines" };
    format!(
        "{name} (line {line}: its code at {word} {})",
        spans.join(", ")
    )
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "gaps_tests.rs"]
mod tests;
