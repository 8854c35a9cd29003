//! Naming what is uncovered: the lines, regions, branch sides and functions behind a failing
//! metric, so a failing gate says what to test next.
//!
//! llvm-cov JSON: items come from the function records of each instantiation group (records
//! sharing a start position). For regions, lines and branches, the record with the most covered
//! items stands for its group — the same record llvm-cov's per-group maximum takes — and its
//! uncovered items are listed; a function is listed when no record of its group ran. A line
//! covered by one function but left unexecuted by a closure on it is listed, because llvm-cov
//! counts lines per function. Region, branch and condition items carry a `from` (the demangled
//! instantiation they come from) when their group has several instantiations; a group merged as
//! it was read keeps that name per metric ([`crate::report::llvm_json::Origins`]).
//! MC/DC (llvm-cov JSON only): the conditions without an independence pair of the group's
//! record with the most conditions shown independent, each with its decision.
//! LCOV: `DA` lines with count 0, `BRDA` sides with count 0 or `-`, functions with no hits, one
//! item per function (its copies and instantiations are one, see
//! [`LcovFile::missed_functions`]).

use std::collections::BTreeMap;
use std::ops::{Deref, DerefMut};

use crate::demangle::{demangle, instantiation_name, same_function};
use crate::model::{LineRange, Span};
use crate::model::{Metric, Summary};
use crate::report::lcov::LcovFile;
use crate::report::llvm_json::{Condition, FunctionStats, Origins};
use crate::report::FileCoverage;

/// A branch side that never ran.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct BranchItem {
    /// 1-based line.
    pub line: u32,
    /// 1-based column (llvm-cov JSON), `None` for LCOV.
    pub column: Option<u32>,
    /// Which side: `true`/`false` (llvm-cov), or `block B branch X` (LCOV).
    pub side: String,
    /// `never taken` (count 0) or `never evaluated` (LCOV `-`).
    pub what: &'static str,
    /// The instantiation it comes from, when its function has several (demangled).
    pub from: Option<String>,
}

/// A code region that never ran.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct RegionItem {
    /// Its range.
    pub span: Span,
    /// The instantiation it comes from, when its function has several (demangled).
    pub from: Option<String>,
}

/// An MC/DC condition without an independence pair.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ConditionItem {
    /// The condition and its decision.
    pub condition: Condition,
    /// The instantiation it comes from, when its function has several (demangled).
    pub from: Option<String>,
}

/// A function that never ran.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct FunctionItem {
    /// 1-based start line, when known.
    pub line: Option<u32>,
    /// Demangled name (Rust legacy and v0 symbols; other names as written).
    pub name: String,
}

/// The uncovered items of one file, for the metrics that failed (others are left empty).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Uncovered {
    /// Uncovered lines as sorted, disjoint, inclusive ranges.
    pub lines: Vec<LineRange>,
    /// Code regions with count 0, sorted.
    pub regions: Vec<RegionItem>,
    /// Branch sides never taken, sorted.
    pub branches: Vec<BranchItem>,
    /// Functions never run, sorted by line.
    pub functions: Vec<FunctionItem>,
    /// MC/DC conditions without an independence pair, sorted.
    pub conditions: Vec<ConditionItem>,
    /// For a failing metric whose items the input cannot show, why (one note per metric).
    pub notes: Vec<(Metric, String)>,
}

/// The [`Uncovered`] items of one file's verdict, held by one pointer, and by none when there
/// are none: most files list nothing, and a check of 200,000 files would otherwise give each
/// of them room for six lists. Reads as an [`Uncovered`] (empty when nothing is listed); a
/// first write makes room.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listed(Option<Box<Uncovered>>);

/// What a [`Listed`] without items reads as.
static NOTHING: Uncovered = Uncovered {
    lines: Vec::new(),
    regions: Vec::new(),
    branches: Vec::new(),
    functions: Vec::new(),
    conditions: Vec::new(),
    notes: Vec::new(),
};

impl Deref for Listed {
    type Target = Uncovered;

    fn deref(&self) -> &Uncovered {
        self.0.as_deref().unwrap_or(&NOTHING)
    }
}

impl DerefMut for Listed {
    fn deref_mut(&mut self) -> &mut Uncovered {
        self.0.get_or_insert_default()
    }
}

impl From<Uncovered> for Listed {
    /// Held only when it lists something.
    fn from(items: Uncovered) -> Listed {
        Listed((items != NOTHING).then(|| Box::new(items)))
    }
}

impl Uncovered {
    /// Number of uncovered items named for `metric`, lines counted one by one (notes aside).
    fn count(&self, metric: Metric) -> u64 {
        let length = |r: &LineRange| u64::from(r.end.saturating_sub(r.start)) + 1;
        match metric {
            Metric::Regions => self.regions.len() as u64,
            Metric::Branches => self.branches.len() as u64,
            Metric::Functions => self.functions.len() as u64,
            Metric::Lines => self.lines.iter().map(length).sum(),
            Metric::Mcdc => self.conditions.len() as u64,
        }
    }

    /// Number of items listed for `metric` (line ranges count as one item each; notes aside).
    pub fn len(&self, metric: Metric) -> usize {
        match metric {
            Metric::Regions => self.regions.len(),
            Metric::Branches => self.branches.len(),
            Metric::Functions => self.functions.len(),
            Metric::Lines => self.lines.len(),
            Metric::Mcdc => self.conditions.len(),
        }
    }

    /// The first `limit` items of `metric` as display strings: `12-14`, `3:5-4:6`,
    /// `7:9 true never taken`, `crate::f (line 3)`, `5:19 in the decision at 5:7`, each with
    /// ` (in clamp_to<double>)` when it names its instantiation (`len` gives how many there are in all; the
    /// notes are apart, in [`Uncovered::notes_of`]). Only the items returned are formatted: a
    /// failing file can list millions.
    pub fn items(&self, metric: Metric, limit: usize) -> Vec<String> {
        match metric {
            Metric::Regions => self.regions.iter().take(limit).map(region_text).collect(),
            Metric::Branches => self.branches.iter().take(limit).map(branch_text).collect(),
            Metric::Functions => self
                .functions
                .iter()
                .take(limit)
                .map(function_text)
                .collect(),
            Metric::Lines => self.lines.iter().take(limit).map(range_text).collect(),
            Metric::Mcdc => self
                .conditions
                .iter()
                .take(limit)
                .map(condition_text)
                .collect(),
        }
    }

    /// The notes of `metric`: why fewer items are named than it misses (outputs show them apart
    /// from the items, never as one of them).
    pub(crate) fn notes_of(&self, metric: Metric) -> impl Iterator<Item = &str> {
        self.notes
            .iter()
            .filter(move |(m, _)| *m == metric)
            .map(|(_, note)| note.as_str())
    }
}

/// `line:col-line:col`.
pub(crate) fn span_text(s: &Span) -> String {
    format!(
        "{}:{}-{}:{}",
        s.line_start, s.col_start, s.line_end, s.col_end
    )
}

/// ` (in clamp_to<double>)` for an item of a named instantiation, else nothing.
pub fn from_text(from: Option<&str>) -> String {
    from.map_or_else(String::new, |name| format!(" (in {name})"))
}

/// `line:col-line:col`, and the instantiation it comes from when named.
pub fn region_text(r: &RegionItem) -> String {
    format!("{}{}", span_text(&r.span), from_text(r.from.as_deref()))
}

/// `5:19 in the decision at 5:7`, and the instantiation it comes from when named.
pub fn condition_text(c: &ConditionItem) -> String {
    format!("{}{}", c.condition, from_text(c.from.as_deref()))
}

/// `12-14`, or `20` for a one-line range.
pub(crate) fn range_text(r: &LineRange) -> String {
    if r.start == r.end {
        r.start.to_string()
    } else {
        format!("{}-{}", r.start, r.end)
    }
}

/// `7:9 true never taken` (llvm-cov) or `7 block 0 branch 1 never evaluated` (LCOV).
pub(crate) fn branch_text(b: &BranchItem) -> String {
    let from = from_text(b.from.as_deref());
    match b.column {
        Some(col) => format!("{}:{col} {} {}{from}", b.line, b.side, b.what),
        None => format!("{} {} {}{from}", b.line, b.side, b.what),
    }
}

/// `crate::f (line 3)`, or the name alone when the line is not known.
pub(crate) fn function_text(f: &FunctionItem) -> String {
    match f.line {
        Some(line) => format!("{} (line {line})", f.name),
        None => f.name.clone(),
    }
}

/// Lists the uncovered items of `coverage` for each metric in `failing`. `summary` holds the
/// counts the file was judged on: a failing metric whose items number fewer than its missed
/// count (`total - covered`) gets a note saying so and why.
pub fn list(coverage: &FileCoverage, failing: &[Metric], summary: &Summary) -> Uncovered {
    // Only the failing metrics' items are gathered: the others are never shown.
    let wants = |metric| failing.contains(&metric);
    let mut out = match coverage {
        FileCoverage::Llvm(file) => file
            .functions
            .as_deref()
            .map(|records| from_llvm(records, &wants))
            .unwrap_or_default(),
        FileCoverage::Lcov(file) => from_lcov(file, &wants),
    };
    for metric in failing {
        let listed = out.count(*metric);
        let missed = summary
            .get(*metric)
            .map_or(0, |c| c.total.saturating_sub(c.covered));
        if listed == 0 {
            out.notes
                .push((*metric, unlisted_note(coverage).to_string()));
        } else if listed < missed {
            let note = format!(
                "{listed} of the {missed} missed are named: {}",
                partly_listed_note(coverage, *metric)
            );
            out.notes.push((*metric, note));
        }
    }
    out
}

/// Why a failing metric names fewer items than it misses.
fn partly_listed_note(coverage: &FileCoverage, metric: Metric) -> &'static str {
    match (coverage, metric) {
        (FileCoverage::Lcov(_), Metric::Functions) => "the rest are missed only by the tracefile's declared FNF/FNH (which llvm-cov counts per instantiation group), or share a start line with a function that ran (instantiations or per-binary copies of it)",
        (FileCoverage::Lcov(_), _) => "the rest are missed only by the tracefile's declared counts (LH/BRH, which llvm-cov counts per instantiation group)",
        (FileCoverage::Llvm(_), _) => "the rest are missed in llvm-cov's file summary but in no function's best-covered instantiation",
    }
}

/// Why a failing metric lists no item: the input's numbers come from a summary without detail.
fn unlisted_note(coverage: &FileCoverage) -> &'static str {
    match coverage {
        FileCoverage::Lcov(_) => "the tracefile's declared summary (LH/BRH/FNH) counts fewer covered than its records show: llvm-cov and gcovr count per instantiation, and a section may declare misses without the records that name them; a JSON export names the items",
        FileCoverage::Llvm(_) => "the export holds no function detail (-summary-only): a full export names the items",
    }
}

/// Which metrics' items are gathered.
type Wanted<'a> = &'a dyn Fn(Metric) -> bool;

/// An instantiation group: the record that created it, and the others.
struct Group<'a> {
    first: &'a FunctionStats,
    rest: Vec<&'a FunctionStats>,
}

impl<'a> Group<'a> {
    /// The record with the largest `metric` (covered, total), the last of equals (as
    /// `max_by_key`).
    fn best(&self, metric: fn(&FunctionStats) -> (u64, u64)) -> &'a FunctionStats {
        self.rest.iter().fold(
            self.first,
            |best, r| if metric(r) >= metric(best) { r } else { best },
        )
    }

    /// The instantiation a record's items of one metric come from, when the group has several.
    fn from(&self, r: &FunctionStats, pick: fn(&Origins) -> &str) -> Option<String> {
        Some(r.origin(pick))
            .filter(|name| !name.is_empty() && several_instantiations(self.first, &self.rest))
            .map(instantiation_name)
    }

    /// `best` for each group, and how many items `items` gives for them in all.
    fn picks<T>(
        groups: &[Group<'a>],
        metric: fn(&FunctionStats) -> (u64, u64),
        items: fn(&FunctionStats) -> &[T],
    ) -> (Vec<&'a FunctionStats>, usize) {
        let picks: Vec<&FunctionStats> = groups.iter().map(|g| g.best(metric)).collect();
        let count = picks.iter().map(|r| items(r).len()).sum();
        (picks, count)
    }
}

fn from_llvm(records: &[FunctionStats], wants: Wanted<'_>) -> Uncovered {
    let mut by_key: BTreeMap<(u32, u32), Group<'_>> = BTreeMap::new();
    for record in records {
        by_key
            .entry(record.key)
            .and_modify(|group| group.rest.push(record))
            .or_insert(Group {
                first: record,
                rest: Vec::new(),
            });
    }
    let groups: Vec<Group<'_>> = by_key.into_values().collect();
    let mut out = Uncovered::default();
    if wants(Metric::Regions) {
        out.regions = llvm_regions(&groups);
    }
    if wants(Metric::Lines) {
        out.lines = llvm_lines(&groups);
    }
    if wants(Metric::Branches) {
        out.branches = llvm_branches(&groups);
    }
    if wants(Metric::Mcdc) {
        out.conditions = llvm_conditions(&groups);
    }
    if wants(Metric::Functions) {
        out.functions = llvm_functions(&groups);
    }
    out
}

/// The uncovered regions of each group's record with the most covered regions, sorted.
fn llvm_regions(groups: &[Group<'_>]) -> Vec<RegionItem> {
    let (picks, count) = Group::picks(
        groups,
        |r| (r.regions.covered, r.regions.total),
        FunctionStats::uncovered_regions,
    );
    let mut items = Vec::with_capacity(count);
    for (group, r) in groups.iter().zip(picks) {
        let from = group.from(r, |o| &o.regions);
        items.extend(r.uncovered_regions().iter().map(|&span| RegionItem {
            span,
            from: from.clone(),
        }));
    }
    items.sort();
    items.dedup();
    items
}

/// The uncovered lines of each group's record with the most covered lines, as merged ranges.
fn llvm_lines(groups: &[Group<'_>]) -> Vec<LineRange> {
    let (picks, count) = Group::picks(
        groups,
        |r| (r.lines.covered, r.lines.total),
        FunctionStats::uncovered_lines,
    );
    let mut lines = Vec::with_capacity(count);
    for r in picks {
        lines.extend_from_slice(r.uncovered_lines());
    }
    merge_ranges(lines)
}

/// The branch sides never taken of each group's record with the most covered sides, sorted.
fn llvm_branches(groups: &[Group<'_>]) -> Vec<BranchItem> {
    let (picks, count) = Group::picks(
        groups,
        |r| (r.branches.covered, r.branches.total),
        FunctionStats::uncovered_branches,
    );
    let mut items = Vec::with_capacity(count);
    for (group, r) in groups.iter().zip(picks) {
        let from = group.from(r, |o| &o.branches);
        items.extend(r.uncovered_branches().iter().map(|b| BranchItem {
            line: b.span.line_start,
            column: Some(b.span.col_start),
            side: b.outcome.to_string(),
            what: "never taken",
            from: from.clone(),
        }));
    }
    items.sort();
    items.dedup();
    items
}

/// The conditions without an independence pair of each group's record with the most
/// conditions shown independent, sorted.
fn llvm_conditions(groups: &[Group<'_>]) -> Vec<ConditionItem> {
    let mut items = Vec::new();
    for group in groups {
        let r = group.best(|r| (r.mcdc.covered, r.mcdc.total));
        let from = group.from(r, |o| &o.decisions);
        items.extend(
            r.decisions()
                .iter()
                .flat_map(|d| d.uncovered())
                .map(|condition| ConditionItem {
                    condition,
                    from: from.clone(),
                }),
        );
    }
    items.sort();
    items.dedup();
    items
}

/// The functions of the groups no record of which ran, sorted.
fn llvm_functions(groups: &[Group<'_>]) -> Vec<FunctionItem> {
    let mut items: Vec<FunctionItem> = groups
        .iter()
        .filter(|g| {
            std::iter::once(g.first)
                .chain(g.rest.iter().copied())
                .all(|r| r.count == 0 && !r.function_ignored)
        })
        .map(|g| FunctionItem {
            line: Some(g.first.key.0),
            name: demangle(&g.first.name),
        })
        .collect();
    items.sort();
    items
}

/// True when a group's records stand for more than one instantiation: a record merged from
/// several ([`FunctionStats::several_instantiations`]), or records whose names differ once
/// demangled (names not kept are not told apart: the same function of several exports, or
/// of several shards, or built into several crates, is one instantiation).
fn several_instantiations(first: &FunctionStats, rest: &[&FunctionStats]) -> bool {
    let records = || std::iter::once(first).chain(rest.iter().copied());
    let mut names = records().map(|r| &*r.name).filter(|name| !name.is_empty());
    let one = names.next().unwrap_or_default();
    records().any(|r| r.several_instantiations) || names.any(|name| !same_function(one, name))
}

fn from_lcov(file: &LcovFile, wants: Wanted<'_>) -> Uncovered {
    let mut out = Uncovered::default();
    if wants(Metric::Lines) {
        let lines = file
            .uncovered_lines()
            .into_iter()
            .map(|l| LineRange { start: l, end: l })
            .collect();
        out.lines = merge_ranges(lines);
    }
    if wants(Metric::Branches) {
        out.branches = file
            .uncovered_branches()
            .into_iter()
            .map(|b| BranchItem {
                line: b.line,
                column: None,
                side: format!("block {} branch {}", b.block, b.branch),
                what: if b.taken.is_none() {
                    "never evaluated"
                } else {
                    "never taken"
                },
                from: None,
            })
            .collect();
    }
    if wants(Metric::Functions) {
        // One item per function (copies and instantiations are one), as the counts see it.
        out.functions = file
            .missed_functions()
            .into_iter()
            .map(|(line, name)| FunctionItem {
                line,
                name: demangle(&name),
            })
            .collect();
    }
    out
}

/// Sorts ranges and merges overlapping or adjacent ones.
pub(crate) fn merge_ranges(mut ranges: Vec<LineRange>) -> Vec<LineRange> {
    ranges.sort_by_key(|r| (r.start, r.end));
    let mut merged: Vec<LineRange> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match merged.last_mut() {
            Some(last) if r.start <= last.end.saturating_add(1) => last.end = last.end.max(r.end),
            _ => merged.push(r),
        }
    }
    merged
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    fn r(start: u32, end: u32) -> LineRange {
        LineRange { start, end }
    }

    /// A group merged from several instantiations names, per metric, the record its items came
    /// from (`Origins`): here the decisions' record, `_Z1fIdEvT_` (`f<double>`).
    #[test]
    fn a_merged_group_names_the_record_of_its_decisions() {
        use crate::model::Counts;
        use crate::report::llvm_json::{Instances, RecordItems};
        let record = FunctionStats {
            name: "_Z1fIiEvT_".into(),
            count: 1,
            key: (1, 1),
            regions: Counts::new(1, 1),
            lines: Counts::new(1, 1),
            branches: Counts::default(),
            mcdc: Counts::new(1, 2),
            function_ignored: false,
            several_instantiations: true,
            instances: Instances::of(1),
            items: Some(Box::new(RecordItems {
                origins: Some(Box::new(Origins {
                    decisions: "_Z1fIdEvT_".into(),
                    ..Origins::default()
                })),
                ..RecordItems::default()
            })),
        };
        let mut other = record.clone();
        other.mcdc = Counts::new(0, 2);
        let group = Group {
            first: &record,
            rest: vec![&other],
        };
        // The record with more conditions shown independent is the group's best.
        assert!(std::ptr::eq(
            group.best(|r| (r.mcdc.covered, r.mcdc.total)),
            &record
        ));
        assert_eq!(
            group.from(&record, |o| &o.decisions).as_deref(),
            Some("f<double>")
        );
        // No decision is held, so no condition is listed, whatever the origin.
        assert!(llvm_conditions(std::slice::from_ref(&group)).is_empty());
    }

    #[test]
    fn ranges_merge_and_print() {
        let merged = merge_ranges(vec![r(20, 20), r(12, 13), r(14, 14), r(13, 13)]);
        assert_eq!(merged, vec![r(12, 14), r(20, 20)]);
        let texts: Vec<String> = merged.iter().map(range_text).collect();
        assert_eq!(texts, ["12-14", "20"]);
    }

    #[test]
    fn len_and_items_count_each_metric_and_notes_stay_apart() {
        let u = Uncovered {
            lines: vec![r(3, 4), r(9, 9)],
            regions: vec![],
            branches: vec![
                BranchItem {
                    line: 7,
                    column: Some(9),
                    side: "true".to_string(),
                    what: "never taken",
                    from: Some("clamp_to<double>".to_string()),
                },
                BranchItem {
                    line: 8,
                    column: None,
                    side: "block 0 branch 1".to_string(),
                    what: "never evaluated",
                    from: None,
                },
            ],
            functions: vec![
                FunctionItem {
                    line: None,
                    name: "g".to_string(),
                },
                FunctionItem {
                    line: Some(3),
                    name: "crate::f".to_string(),
                },
            ],
            conditions: Vec::new(),
            notes: vec![
                (Metric::Regions, "no detail".to_string()),
                (Metric::Lines, "more missed".to_string()),
            ],
        };
        assert_eq!(u.len(Metric::Regions), 0);
        assert!(u.items(Metric::Regions, usize::MAX).is_empty());
        assert_eq!(
            u.notes_of(Metric::Regions).collect::<Vec<_>>(),
            ["no detail"]
        );
        assert_eq!(u.len(Metric::Lines), 2);
        assert_eq!(u.items(Metric::Lines, usize::MAX), ["3-4", "9"]);
        assert_eq!(
            u.notes_of(Metric::Lines).collect::<Vec<_>>(),
            ["more missed"]
        );
        assert_eq!(u.items(Metric::Lines, 1), ["3-4"]);
        assert_eq!(u.notes_of(Metric::Functions).count(), 0);
        assert_eq!(u.len(Metric::Branches), 2);
        assert_eq!(
            u.items(Metric::Branches, usize::MAX),
            [
                "7:9 true never taken (in clamp_to<double>)",
                "8 block 0 branch 1 never evaluated"
            ]
        );
        assert_eq!(u.len(Metric::Functions), 2);
        assert_eq!(
            u.items(Metric::Functions, usize::MAX),
            ["g", "crate::f (line 3)"]
        );
        assert_eq!(Uncovered::default().len(Metric::Lines), 0);
    }

    #[test]
    fn demangles_rust_symbols() {
        assert_eq!(
            demangle("_RNvCs7zRqp3NVN0z_4tiny9perimeter"),
            "tiny::perimeter"
        );
        assert_eq!(demangle("_ZN4tiny4area17h0123456789abcdefE"), "tiny::area");
        assert_eq!(demangle("main"), "main");
        assert_eq!(demangle("_ZNK1S3getEv"), "S::get() const");
        assert_eq!(
            demangle("_Z4pickIiiET_S0_T0_"),
            "int pick<int, int>(int, int)"
        );
        assert_eq!(demangle("_Zinvalid"), "_Zinvalid");
        assert_eq!(demangle("h"), "h");
        assert_eq!(instantiation_name("_Z4pickIiiET_S0_T0_"), "pick<int, int>");
        assert_eq!(
            instantiation_name("_RINvCs7zRqp3NVN0z_4tiny4pickdEB2_"),
            "tiny::pick::<f64>"
        );
        assert_eq!(instantiation_name("main"), "main");
    }

    #[test]
    fn a_function_in_several_binaries_is_listed_once() {
        let text = "SF:src/lib.rs\nFN:3,_RNvCs7zRqp3NVN0z_4tiny9perimeter\n\
                    FN:3,_RNvCs8NwYtU1Mohg_4tiny9perimeter\nFNDA:0,_RNvCs7zRqp3NVN0z_4tiny9perimeter\n\
                    FNDA:0,_RNvCs8NwYtU1Mohg_4tiny9perimeter\nDA:3,0\nend_of_record\n";
        let report = crate::report::read("t.info", text.as_bytes()).expect("tracefile");
        let coverage = &report.files.first().expect("a file").coverage;
        let summary = Summary {
            functions: Some(crate::model::Counts::new(0, 1)),
            ..Summary::default()
        };
        let listed = list(coverage, &[Metric::Functions], &summary);
        let names: Vec<(Option<u32>, &str)> = listed
            .functions
            .iter()
            .map(|f| (f.line, f.name.as_str()))
            .collect();
        assert_eq!(names, [(Some(3), "tiny::perimeter")]);
        assert!(listed.notes.is_empty(), "{:?}", listed.notes);
    }

    #[test]
    fn a_metric_missing_more_than_its_records_name_says_so() {
        // llvm-cov's LH counts per instantiation group: 2 of 4 lines, though the records miss
        // one line only.
        let text =
            "SF:a.rs\nFNF:0\nFNH:0\nDA:1,1\nDA:2,1\nDA:3,1\nDA:4,0\nLF:4\nLH:2\nend_of_record\n";
        let report = crate::report::read("t.info", text.as_bytes()).expect("tracefile");
        let coverage = &report.files.first().expect("a file").coverage;
        let FileCoverage::Lcov(file) = coverage else {
            panic!("LCOV");
        };
        let listed = list(coverage, &[Metric::Lines], &file.summary());
        assert_eq!(listed.lines, [LineRange { start: 4, end: 4 }]);
        assert_eq!(listed.notes.len(), 1, "{:?}", listed.notes);
        assert!(
            listed.notes[0]
                .1
                .starts_with("1 of the 2 missed are named: the rest are missed only by"),
            "{:?}",
            listed.notes
        );
        assert_eq!(listed.items(Metric::Lines, 9), ["4"]);
        assert_eq!(listed.notes_of(Metric::Lines).count(), 1);
    }
}
