//! llvm-cov JSON export reader (`llvm-cov export -format=text`, `cargo llvm-cov --json`).
//!
//! The document is read in one streaming pass (serde visitors over
//! `serde_json::Deserializer::from_slice`; no `serde_json::Value` tree is ever built, so exports of
//! gigabytes stay cheap): `data[] → export → files[] / functions[]`. Each function record is
//! reduced to a small [`FunctionStats`] as soon as it has been read, and its regions are dropped.
//!
//! The statistics mirror llvm-cov (LLVM `tools/llvm-cov/CoverageSummaryInfo.cpp`,
//! `CoverageReport.cpp` and `lib/ProfileData/Coverage/CoverageMapping.cpp`):
//!
//! * a record belongs to its *main file*, the one `filenames` index that is never the
//!   `expanded_file_id` of an expansion region (`findMainViewFileID`);
//! * its group key is the start of its first main-file region in record order
//!   (`FunctionInstantiationSetCollector`); LLVM's coverage-mapping writer sorts regions by file
//!   and start, so this is also the earliest main-file region;
//! * regions are the code regions (kind 0) of every file id, branches are two sides per branch
//!   entry reachable from the main file, lines come from LLVM's `SegmentBuilder` and
//!   `LineCoverageStats` run over the main-file regions (see [`LineRule`] for the two variants);
//! * [`recompute`] merges records into instantiation groups as `prepareSingleFileReport` does.

mod count;
mod digits;
mod evidence;
mod export;
mod groups;
mod lane;
mod lines;
mod mcdc;
#[cfg(test)]
mod oracle;
mod pieces;
mod record;
mod segments;
mod stream;
mod unique;
mod wire;

use std::collections::{BTreeMap, HashMap, HashSet};

use std::fmt;
use std::io::Read;

use crate::error::{Error, Result};
use crate::model::{BranchSide, Counts, LineRange, Span};

use super::Report;

pub use mcdc::{independence, Condition, Decision, TestVector};
pub use segments::LineRule;

/// A file's summary as llvm-cov computes it (the `summary` object of a `files[]` entry, or the
/// result of [`recompute`]). Every pair counts items (regions, groups, records, lines, branch
/// sides), never percent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LlvmSummary {
    /// Code regions.
    pub regions: Counts,
    /// Functions (instantiation groups).
    pub functions: Counts,
    /// Instantiations (function records).
    pub instantiations: Counts,
    /// Lines.
    pub lines: Counts,
    /// Branch sides.
    pub branches: Counts,
    /// MC/DC conditions (covered = shown independent); 0 of 0 when the export has none
    /// (LLVM before 18, or a build without `-fcoverage-mcdc`).
    pub mcdc: Counts,
}

impl std::ops::Add for LlvmSummary {
    type Output = LlvmSummary;

    /// Component-wise sum of two summaries.
    fn add(self, other: LlvmSummary) -> LlvmSummary {
        LlvmSummary {
            regions: self.regions + other.regions,
            functions: self.functions + other.functions,
            instantiations: self.instantiations + other.instantiations,
            lines: self.lines + other.lines,
            branches: self.branches + other.branches,
            mcdc: self.mcdc + other.mcdc,
        }
    }
}

/// Per-record statistics of one function record whose main file is this file.
///
/// The counts are always there; the items behind them ([`RecordItems`]) only as far as the
/// reader was asked to keep them ([`Kept`]), so a record costs 120 bytes plus its misses,
/// whatever its size in the export.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionStats {
    /// Mangled name; empty when not kept: in a file kept for its misses only, a group that ran
    /// keeps it only when its records are of several instantiations (names are listed for
    /// functions that never ran, and for the instantiation of an item only then).
    pub name: Box<str>,
    /// Execution count of the record.
    pub count: u64,
    /// Group key: (line, column) where the record's first main-file region starts.
    pub key: (u32, u32),
    /// Code regions of the record (kind 0, every file id).
    pub regions: Counts,
    /// Lines of the record (llvm-cov's line rule over its main-file regions).
    pub lines: Counts,
    /// Branch sides of the record (two per branch entry reachable from the main file).
    pub branches: Counts,
    /// MC/DC conditions of the record's decisions, covered = shown independent.
    pub mcdc: Counts,
    /// True when an inline ignore marker covers the function's start line: its group then
    /// leaves the functions and instantiations metrics (set by [`crate::measure::apply`]).
    pub function_ignored: bool,
    /// True when this record stands for a group merged as it was read whose records are of
    /// more than one instantiation (names that differ once demangled; a record whose name was
    /// not kept is not told apart). Item lists then name the instantiation of each item.
    pub several_instantiations: bool,
    /// How many records this stands for: one, or a whole instantiation group merged as it was
    /// read (files kept for their misses only; see [`Kept::Misses`]).
    pub instances: Instances,
    /// The record's items; `None` when none was kept (nothing uncovered, and covered items not
    /// asked for).
    pub items: Option<Box<RecordItems>>,
}

/// How many function records a [`FunctionStats`] stands for, and how many of them ran: what
/// llvm-cov's instantiations metric counts (records, and records with a count above 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instances {
    /// Function records (a group of more than 2^32 records, 200 GB of export, counts 2^32 - 1).
    pub records: u32,
    /// Function records whose execution count is above 0.
    pub executed: u32,
}

impl Instances {
    /// One record with the execution count `count`.
    pub fn of(count: u64) -> Instances {
        Instances {
            records: 1,
            executed: u32::from(count > 0),
        }
    }
}

/// The items of one function record: its misses, and (for files that carry inline markers, or
/// reports to pool) what it covers, so ignored items can be taken out of both sides and runs
/// summed. 112 bytes: a failing gigabyte keeps over a hundred thousand, nearly all with misses
/// only ([`Kept::Misses`]), so what it covers is boxed apart.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordItems {
    /// Code regions with count 0, in record order. A region inside a macro expansion (another
    /// file id) is given as the span of the expansion site in the main file, so one macro call
    /// may appear several times; a region whose expansion chain does not lead to the main file
    /// keeps its own span.
    pub uncovered_regions: Vec<Span>,
    /// Branch sides with count 0, in record order (located as `uncovered_regions` are).
    pub uncovered_branches: Vec<BranchSide>,
    /// Mapped lines with count 0, as sorted, disjoint ranges.
    pub uncovered_lines: Vec<LineRange>,
    /// The record's MC/DC decisions, kept when one of them has a condition without an
    /// independence pair, or with everything else ([`Kept::Everything`], for [`pool`]).
    pub decisions: Vec<Decision>,
    /// For a record that stands for a merged instantiation group ([`Kept::Misses`]): the
    /// records its uncovered regions, branch sides and decisions come from; `None` when they
    /// are the record's own (named by [`FunctionStats::name`]).
    pub origins: Option<Box<Origins>>,
    /// What the record covers; `None` when not kept (a file kept for its misses).
    pub covered: Option<Box<CoveredItems>>,
}

/// What a function record covers, kept with everything else ([`Kept::Everything`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CoveredItems {
    /// Start lines (in the main file) of the covered code regions, one per region.
    pub covered_region_lines: Vec<u32>,
    /// Start lines (in the main file) of the covered branch sides, one per side.
    pub covered_branch_lines: Vec<u32>,
    /// Mapped lines with a count above 0, as sorted, disjoint, inclusive ranges.
    pub covered_lines: Vec<LineRange>,
    /// One flag per code region (kind 0, every file id) in record order: true when its count is
    /// above 0, so that [`pool`] can sum two records of one compiled function; empty once
    /// inline markers took items out. Never held alone (a record with a code region lists it
    /// as covered or uncovered).
    pub region_hits: Vec<bool>,
    /// One flag per branch side (true side, then false side, per branch entry reachable from
    /// the main file, in record order), as [`CoveredItems::region_hits`].
    pub branch_hits: Vec<bool>,
    /// A hash of the record's layout (its regions and branches without their counts), never 0
    /// when known ([`FunctionStats::layout`]).
    pub layout: u64,
}

/// The mangled names of the instantiations whose uncovered items a merged group holds, per
/// metric (empty when the group holds no such item).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origins {
    /// The record of the uncovered regions.
    pub regions: Box<str>,
    /// The record of the uncovered branch sides.
    pub branches: Box<str>,
    /// The record of the MC/DC decisions.
    pub decisions: Box<str>,
}

impl RecordItems {
    /// True when no item is held.
    pub fn is_empty(&self) -> bool {
        self.uncovered_regions.is_empty()
            && self.uncovered_branches.is_empty()
            && self.uncovered_lines.is_empty()
            && self.decisions.is_empty()
            && self.covered.as_deref().is_none_or(CoveredItems::is_empty)
    }

    /// What the record covers (empty when not kept).
    fn covers(&self) -> &CoveredItems {
        static NONE: CoveredItems = CoveredItems {
            covered_region_lines: Vec::new(),
            covered_branch_lines: Vec::new(),
            covered_lines: Vec::new(),
            region_hits: Vec::new(),
            branch_hits: Vec::new(),
            layout: 0,
        };
        self.covered.as_deref().unwrap_or(&NONE)
    }
}

impl CoveredItems {
    /// True when no covered item is held (hit flags are never held alone).
    fn is_empty(&self) -> bool {
        self.covered_region_lines.is_empty()
            && self.covered_branch_lines.is_empty()
            && self.covered_lines.is_empty()
    }
}

/// What a reader keeps of a file's function records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kept {
    /// No record: the file's own summary is all that is needed.
    Nothing,
    /// Counts, and the uncovered items (with the names of records that never ran). The records
    /// of one instantiation group are merged into one as they are read ([`Instances`]): its
    /// counts are the group's (largest covered and largest total per metric, summed execution
    /// count), and its uncovered items per metric those of the group's best record for that
    /// metric (largest covered, then largest total; the last of equals), all that llvm-cov's
    /// rule and the list of uncovered items need.
    Misses,
    /// Counts, every item and every name (inline markers are applied to the file).
    Everything,
}

impl FunctionStats {
    /// The kept items (empty when none was kept).
    fn held(&self) -> &RecordItems {
        static NONE: RecordItems = RecordItems {
            uncovered_regions: Vec::new(),
            uncovered_branches: Vec::new(),
            uncovered_lines: Vec::new(),
            decisions: Vec::new(),
            origins: None,
            covered: None,
        };
        self.items.as_deref().unwrap_or(&NONE)
    }

    /// See [`RecordItems::uncovered_regions`].
    pub fn uncovered_regions(&self) -> &[Span] {
        &self.held().uncovered_regions
    }

    /// See [`RecordItems::uncovered_branches`].
    pub fn uncovered_branches(&self) -> &[BranchSide] {
        &self.held().uncovered_branches
    }

    /// See [`RecordItems::uncovered_lines`].
    pub fn uncovered_lines(&self) -> &[LineRange] {
        &self.held().uncovered_lines
    }

    /// See [`CoveredItems::covered_region_lines`].
    pub fn covered_region_lines(&self) -> &[u32] {
        &self.held().covers().covered_region_lines
    }

    /// See [`CoveredItems::covered_branch_lines`].
    pub fn covered_branch_lines(&self) -> &[u32] {
        &self.held().covers().covered_branch_lines
    }

    /// See [`RecordItems::decisions`].
    pub fn decisions(&self) -> &[Decision] {
        &self.held().decisions
    }

    /// The mangled name of the instantiation whose items of one metric this record holds
    /// (`pick` chooses the metric's field of [`Origins`]): its own name, or, for a merged
    /// group, the name of the record they come from. Empty when not known.
    pub fn origin(&self, pick: fn(&Origins) -> &str) -> &str {
        match &self.held().origins {
            Some(origins) => pick(origins),
            None => &self.name,
        }
    }

    /// A hash of the record's layout (its regions and branches without their counts), never 0
    /// when known; 0 when the record was not kept whole ([`Kept::Everything`]). Records of one
    /// compiled function in several exports share name, key and layout ([`pool`]).
    pub fn layout(&self) -> u64 {
        self.held().covers().layout
    }

    /// See [`CoveredItems::covered_lines`].
    pub fn covered_lines(&self) -> &[LineRange] {
        &self.held().covers().covered_lines
    }
}

/// One file of a JSON export.
#[derive(Debug, Clone, PartialEq)]
pub struct LlvmFile {
    /// The export's own per-file `summary`.
    pub summary: LlvmSummary,
    /// Function records whose main file is this file; `None` when the export has no
    /// `functions` array (`-summary-only`, or `-skip-functions`), when the reader kept none
    /// of them ([`Kept::Nothing`]: the summary is at 100% and the file carries no marker), or
    /// when the summary counts items but no record has the file as its main file (the records
    /// are absent: recomputing from none would count 0 of 0).
    pub functions: Option<Vec<FunctionStats>>,
}

/// Recomputes a file summary from function records, by llvm-cov's instantiation-group rule.
///
/// All `functions` must have the same main file. Records sharing a [`FunctionStats::key`] form
/// one group (generic instantiations, or one function built into several binaries). Per group,
/// each of regions, lines and branches takes `covered = max` and `total = max` over its records,
/// independently (LLVM `FunctionCoverageSummary::get(const InstantiationGroup &, …)`); the group
/// is one function, covered when the summed execution count is above 0; every record is one
/// instantiation, covered when its own count is above 0. The file sums its groups
/// (`CoverageReport::prepareSingleFileReport`). A group with a record whose function an inline
/// marker ignores ([`FunctionStats::function_ignored`]) adds no function and no instantiation.
pub fn recompute(functions: &[FunctionStats]) -> LlvmSummary {
    let mut groups: BTreeMap<(u32, u32), Group> = BTreeMap::new();
    for record in functions {
        groups.entry(record.key).or_default().add(record);
    }
    groups
        .values()
        .fold(LlvmSummary::default(), |sum, group| sum + group.summary())
}

/// Pools the records that several exports hold for one file, summing the records of one
/// compiled function.
///
/// `exports` holds, per export in command-line order, the records of the file it names. A
/// record of a later export with the name, [`FunctionStats::key`], [`FunctionStats::layout`]
/// and MC/DC decisions of a record of an earlier export is the same compiled function seen in another run (a test
/// partition, a CI shard): the two are summed, as `llvm-profdata merge` sums the counters of
/// one function (records match by name and structural hash, `InstrProfWriter::addRecord`), so
/// the result is what one run of all the tests gives. A code region or branch side is covered
/// when either run covered it; a line too (a segment's count is the sum of its regions' counts,
/// and llvm-cov's line count is the largest count of a set of segments that the layout fixes);
/// the execution counts add up. Records that differ (generic instantiations, copies of a
/// function built into different crates) stay distinct, for [`recompute`] to take the best
/// single record per group as llvm-cov does. Inside one export nothing is summed (llvm-cov has
/// merged its records already), and a record not kept whole (layout 0) is never summed.
pub fn pool(exports: Vec<Vec<FunctionStats>>) -> Vec<FunctionStats> {
    let mut pooled: Vec<FunctionStats> = Vec::new();
    let mut seen: HashMap<Identity, Vec<usize>> = HashMap::new();
    for records in exports {
        let mut taken: HashMap<Identity, usize> = HashMap::new();
        for record in records {
            if record.layout() == 0 {
                pooled.push(record);
                continue;
            }
            let identity = (record.name.clone(), record.key, mapping(&record));
            let used = taken.entry(identity.clone()).or_default();
            let slots = seen.entry(identity).or_default();
            match slots.get(*used).and_then(|&at| pooled.get_mut(at)) {
                Some(earlier) => *earlier = sum(earlier, &record),
                None => {
                    slots.push(pooled.len());
                    pooled.push(record);
                }
            }
            *used += 1;
        }
    }
    pooled
}

/// What makes two records one compiled function: name, key and mapping ([`mapping`]).
type Identity = (Box<str>, (u32, u32), u64);

/// A hash of a record's coverage mapping: its layout ([`FunctionStats::layout`]: regions and
/// branches) and its MC/DC decisions (where each starts and where its conditions start). A
/// build with `-fcoverage-mcdc` maps a function with a decision of several conditions with the
/// same regions and branch spans as a build without it, plus decision regions: the two are
/// different compiled functions (their structural hashes differ, so `llvm-profdata merge`
/// keeps them apart), and summing them would drop the conditions.
fn mapping(record: &FunctionStats) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    record.layout().hash(&mut hasher);
    for decision in record.decisions() {
        (decision.at, &decision.conditions).hash(&mut hasher);
    }
    hasher.finish()
}

/// Two records of one compiled function (same name, key and layout), summed (see [`pool`]).
fn sum(a: &FunctionStats, b: &FunctionStats) -> FunctionStats {
    let (x, y) = (a.held(), b.held());
    let (cx, cy) = (x.covers(), y.covers());
    let (region_hits, uncovered_regions, covered_region_lines) = or_hits(
        (&cx.region_hits, &cy.region_hits),
        &x.uncovered_regions,
        &cx.covered_region_lines,
        |s| s.line_start,
    );
    let (branch_hits, uncovered_branches, covered_branch_lines) = or_hits(
        (&cx.branch_hits, &cy.branch_hits),
        &x.uncovered_branches,
        &cx.covered_branch_lines,
        |s| s.span.line_start,
    );
    let uncovered_lines = intersect(&x.uncovered_lines, &y.uncovered_lines);
    let covered_lines = union(&cx.covered_lines, &cy.covered_lines);
    let hit_counts = |hits: &[bool]| {
        Counts::new(
            hits.iter().filter(|h| **h).count() as u64,
            hits.len() as u64,
        )
    };
    let covered = line_count(&covered_lines);
    let decisions: Vec<Decision> = x
        .decisions
        .iter()
        .zip(&y.decisions)
        .map(|(a, b)| a.merge(b))
        .collect();
    FunctionStats {
        name: a.name.clone(),
        count: a.count.saturating_add(b.count),
        key: a.key,
        regions: hit_counts(&region_hits),
        lines: Counts::new(covered, covered + line_count(&uncovered_lines)),
        branches: hit_counts(&branch_hits),
        mcdc: mcdc::counts(&decisions),
        function_ignored: a.function_ignored | b.function_ignored,
        several_instantiations: a.several_instantiations,
        instances: Instances::of(a.count.saturating_add(b.count)),
        items: Some(Box::new(RecordItems {
            uncovered_regions,
            uncovered_branches,
            uncovered_lines,
            decisions,
            origins: None,
            covered: Some(Box::new(CoveredItems {
                covered_region_lines,
                covered_branch_lines,
                covered_lines,
                region_hits,
                branch_hits,
                layout: a.layout(),
            })),
        })),
    }
}

/// The hit flags `a | b`, with the items of the first record regrouped: its uncovered items
/// that `b` hits move to the covered start lines (`line` gives an item's start line).
fn or_hits<T: Copy>(
    (a, b): (&[bool], &[bool]),
    uncovered: &[T],
    covered: &[u32],
    line: fn(&T) -> u32,
) -> (Vec<bool>, Vec<T>, Vec<u32>) {
    let hits = a.iter().zip(b).map(|(a, b)| *a | *b).collect();
    let missed_by_a = a.iter().zip(b).filter(|(a, _)| !**a).map(|(_, b)| *b);
    let mut still = Vec::new();
    let mut covered = covered.to_vec();
    for (item, hit) in uncovered.iter().zip(missed_by_a) {
        if hit {
            covered.push(line(item));
        } else {
            still.push(*item);
        }
    }
    (hits, still, covered)
}

/// The lines in both of two sorted, disjoint range lists.
fn intersect(a: &[LineRange], b: &[LineRange]) -> Vec<LineRange> {
    let mut out = Vec::new();
    let (mut a, mut b) = (a.iter().peekable(), b.iter().peekable());
    while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
        let (start, end) = (x.start.max(y.start), x.end.min(y.end));
        if start <= end {
            out.push(LineRange { start, end });
        }
        if x.end < y.end {
            a.next();
        } else {
            b.next();
        }
    }
    out
}

/// The lines in either of two range lists, as sorted, disjoint ranges.
fn union(a: &[LineRange], b: &[LineRange]) -> Vec<LineRange> {
    let mut all: Vec<LineRange> = a.iter().chain(b).copied().collect();
    all.sort_unstable();
    let mut out: Vec<LineRange> = Vec::new();
    for range in all {
        match out.last_mut() {
            Some(last) if range.start <= last.end.saturating_add(1) => {
                last.end = last.end.max(range.end);
            }
            _ => out.push(range),
        }
    }
    out
}

/// The number of lines in disjoint ranges.
fn line_count(ranges: &[LineRange]) -> u64 {
    ranges
        .iter()
        .map(|r| u64::from(r.end.saturating_sub(r.start)) + 1)
        .sum()
}

/// The merged statistics of one instantiation group.
#[derive(Debug, Default)]
struct Group {
    regions: Counts,
    lines: Counts,
    branches: Counts,
    mcdc: Counts,
    execution_count: u64,
    records: u64,
    executed_records: u64,
    ignored: bool,
}

impl Group {
    fn add(&mut self, record: &FunctionStats) {
        self.regions = max_counts(self.regions, record.regions);
        self.lines = max_counts(self.lines, record.lines);
        self.branches = max_counts(self.branches, record.branches);
        self.mcdc = max_counts(self.mcdc, record.mcdc);
        self.execution_count = self.execution_count.saturating_add(record.count);
        self.records += u64::from(record.instances.records);
        self.executed_records += u64::from(record.instances.executed);
        self.ignored |= record.function_ignored;
    }

    fn summary(&self) -> LlvmSummary {
        let (functions, instantiations) = if self.ignored {
            (Counts::default(), Counts::default())
        } else {
            (
                Counts::new(u64::from(self.execution_count > 0), 1),
                Counts::new(self.executed_records, self.records),
            )
        };
        LlvmSummary {
            regions: self.regions,
            functions,
            instantiations,
            lines: self.lines,
            branches: self.branches,
            mcdc: self.mcdc,
        }
    }
}

/// LLVM's `CoverageInfo::merge`: the larger covered count and the larger total, independently.
fn max_counts(a: Counts, b: Counts) -> Counts {
    Counts::new(a.covered.max(b.covered), a.total.max(b.total))
}

/// Which files of an export keep their function records ([`LlvmFile::functions`]): the detail
/// that recomputing (inline markers, merging reports) and naming uncovered items need. Records
/// of the other files are checked as strictly, but not kept, so memory follows what a verdict
/// needs rather than the size of the export.
#[derive(Clone, Copy)]
pub enum Detail<'a> {
    /// Every file keeps everything ([`Kept::Everything`]).
    All,
    /// A file keeps everything when the function returns true for its name as the export
    /// spells it (files that may carry inline markers); else its misses when its own summary is
    /// below 100% on regions, functions, instantiations, lines, branches or MC/DC (a file whose
    /// records are not kept then claims that every record ran, which their sums check); else
    /// nothing. The function is
    /// called on the thread that reads (never on a rayon worker), once per file of `files[]`,
    /// before the first record is parsed; it may block until its answer is known (`covgate
    /// check` scans the sources for markers while the export is read). An LCOV tracefile in a
    /// regular file is read the same way: a file the function does not mark is reduced to its
    /// counts and misses once its section is read (the function called, on the reading thread,
    /// with the `SF` path; see [`LcovFile::is_reduced`](super::lcov::LcovFile::is_reduced)).
    Needed(&'a (dyn Fn(&str) -> bool + Sync)),
}

impl Detail<'_> {
    /// What the file `name` with the summary `summary` keeps of its records.
    pub fn kept(&self, name: &str, summary: &LlvmSummary) -> Kept {
        match self {
            Detail::All => Kept::Everything,
            Detail::Needed(marked) if marked(name) => Kept::Everything,
            Detail::Needed(_) => {
                let full = [
                    summary.regions,
                    summary.functions,
                    summary.instantiations,
                    summary.lines,
                    summary.branches,
                    summary.mcdc,
                ]
                .iter()
                .all(|c| c.covered >= c.total);
                if full {
                    Kept::Nothing
                } else {
                    Kept::Misses
                }
            }
        }
    }
}

impl Detail<'_> {
    /// True when the file `name` keeps everything whatever its summary says.
    fn marks(&self, name: &str) -> bool {
        match self {
            Detail::All => true,
            Detail::Needed(marked) => marked(name),
        }
    }
}

impl fmt::Debug for Detail<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Detail::All => "Detail::All",
            Detail::Needed(_) => "Detail::Needed(..)",
        })
    }
}

/// Reads an llvm-cov JSON export (versions 2.x and 3.x) from its bytes; every file keeps its
/// records.
///
/// Errors (located by line and column where the JSON parser knows them): malformed or truncated
/// JSON, a value of the wrong type, a key written twice in one object, a count that is negative
/// or not integral, a missing `type`/`version`/`data`, a `type` other than
/// `llvm.coverage.json.export`, or an unsupported major version.
pub fn read(origin: &str, bytes: &[u8]) -> Result<Report> {
    read_with(origin, bytes, Detail::All)
}

/// [`read`], keeping the records that `detail` asks for.
pub fn read_with(origin: &str, bytes: &[u8], detail: Detail<'_>) -> Result<Report> {
    read_counting(detail, &mut |detail| {
        read_stream(origin, &mut &*bytes, detail)
    })
}

/// What one pass over an export gave.
#[derive(Debug)]
pub enum Pass {
    /// The report.
    Done(Report),
    /// Files whose summary claims more covered than their function records show, or fewer
    /// misses than their sums prove (no llvm-cov run writes that: a post-processed export),
    /// whose records this pass did not keep: the export is to be read again keeping them, to
    /// count them from their records ([`read_counting`]).
    Recount(Vec<String>),
}

/// Reads an export with `read`, one pass with the detail it is given: with `detail`, and, when
/// that pass did not keep the records of files that must be counted from them ([`Pass`]),
/// again keeping them too.
///
/// Errors: those of `read`.
pub fn read_counting(
    detail: Detail<'_>,
    read: &mut dyn FnMut(Detail<'_>) -> Result<Pass>,
) -> Result<Report> {
    match read(detail)? {
        Pass::Done(report) => Ok(report),
        Pass::Recount(names) => {
            let names: HashSet<String> = names.into_iter().collect();
            let keep = |name: &str| detail.marks(name) || names.contains(name);
            read_counting(Detail::Needed(&keep), read)
        }
    }
}

/// [`read_stream`] for an input that only this thread may read (standard input's lock): the
/// next chunk is read between windows rather than while one is parsed.
///
/// Errors: as [`read_stream`]; a file that must be counted from records that were not kept
/// ([`Pass::Recount`]: the input cannot be read again).
pub fn read_local(origin: &str, input: &mut dyn Read, detail: Detail<'_>) -> Result<Report> {
    let (report, recount) =
        stream::read(origin, stream::Input::Local(input), &detail, stream::SIZES)?;
    match recount.is_empty() {
        true => Ok(report),
        false => Err(Error::new(format!(
            "{origin}: {}: the export's summary claims more covered than the file's function \
             records show, or fewer misses than they prove (no llvm-cov run writes that), and \
             covgate, which keeps no records \
             of a file at 100%, cannot read this input again to count them; give the export \
             as a regular file",
            recount.join(", ")
        ))),
    }
}

/// Reads an export from a stream (a file, a pipe) in chunks, in one pass, keeping the records
/// that `detail` asks for: memory follows the largest element and the kept detail, not the
/// export's size.
///
/// Errors: as [`read`], located in the stream; a read error of `input`.
pub fn read_stream(
    origin: &str,
    input: &mut (dyn Read + Send),
    detail: Detail<'_>,
) -> Result<Pass> {
    let (report, recount) =
        stream::read(origin, stream::Input::Shared(input), &detail, stream::SIZES)?;
    Ok(match recount.is_empty() {
        true => Pass::Done(report),
        false => Pass::Recount(recount),
    })
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn detail_all_marks_every_file() {
        assert!(Detail::All.marks("any.rs"));
        let marked = |name: &str| name == "m.rs";
        let needed = Detail::Needed(&marked);
        assert!(needed.marks("m.rs") && !needed.marks("a.rs"));
    }

    #[test]
    fn files_keep_what_their_summary_and_markers_need() {
        let full = LlvmSummary {
            regions: Counts::new(2, 2),
            lines: Counts::new(3, 3),
            ..LlvmSummary::default()
        };
        let short = |counts: Counts, set: fn(&mut LlvmSummary, Counts)| {
            let mut summary = full;
            set(&mut summary, counts);
            summary
        };
        let marked = |name: &str| name == "m.rs";
        let needed = Detail::Needed(&marked);
        assert_eq!(Detail::All.kept("a.rs", &full), Kept::Everything);
        assert_eq!(needed.kept("m.rs", &full), Kept::Everything);
        assert_eq!(needed.kept("a.rs", &full), Kept::Nothing);
        let setters: [fn(&mut LlvmSummary, Counts); 4] = [
            |s, c| s.regions = c,
            |s, c| s.functions = c,
            |s, c| s.lines = c,
            |s, c| s.branches = c,
        ];
        for set in setters {
            assert_eq!(
                needed.kept("a.rs", &short(Counts::new(1, 2), set)),
                Kept::Misses
            );
        }
        // An instantiation that never ran keeps the file's misses too: a file whose records
        // are not kept claims that every record ran, which their sums check.
        let mut summary = full;
        summary.instantiations = Counts::new(1, 2);
        assert_eq!(needed.kept("a.rs", &summary), Kept::Misses);
        assert_eq!(format!("{:?}", Detail::All), "Detail::All");
        assert_eq!(format!("{needed:?}"), "Detail::Needed(..)");
    }

    #[test]
    fn records_without_items_read_as_empty() {
        let record = FunctionStats {
            name: Box::default(),
            count: 1,
            key: (1, 1),
            regions: Counts::new(1, 1),
            lines: Counts::new(1, 1),
            branches: Counts::default(),
            mcdc: Counts::default(),
            function_ignored: false,
            several_instantiations: false,
            instances: Instances::of(1),
            items: None,
        };
        assert!(record.uncovered_regions().is_empty());
        assert!(record.uncovered_branches().is_empty());
        assert!(record.uncovered_lines().is_empty());
        assert!(record.covered_region_lines().is_empty());
        assert!(record.covered_branch_lines().is_empty());
        assert!(record.covered_lines().is_empty());
        assert!(RecordItems::default().is_empty());
        let covering = |covered: CoveredItems| RecordItems {
            covered: Some(Box::new(covered)),
            ..RecordItems::default()
        };
        assert!(covering(CoveredItems::default()).is_empty());
        let missing_a_line = RecordItems {
            uncovered_lines: vec![LineRange { start: 2, end: 2 }],
            ..RecordItems::default()
        };
        assert!(!missing_a_line.is_empty());
        for covered in [
            CoveredItems {
                covered_lines: vec![LineRange { start: 1, end: 1 }],
                ..CoveredItems::default()
            },
            CoveredItems {
                covered_region_lines: vec![1],
                ..CoveredItems::default()
            },
            CoveredItems {
                covered_branch_lines: vec![1],
                ..CoveredItems::default()
            },
        ] {
            assert!(!covering(covered).is_empty());
        }
        assert_eq!(std::mem::size_of::<RecordItems>(), 112);
        assert_eq!(std::mem::size_of::<FunctionStats>(), 120);
    }

    /// A record of `f` in `a.rs`: one region on each of lines 1 (entry), 2 and 3, a branch on
    /// line 2.
    fn shard(counts: [u64; 3], sides: [u64; 2]) -> FunctionStats {
        let [entry, two, three] = counts;
        let [t, f] = sides;
        let json = format!(
            r#"{{"name":"f","count":{entry},"filenames":["a.rs"],
                "regions":[[1,1,1,20,{entry},0,0,0],[2,1,2,20,{two},0,0,0],[3,1,3,20,{three},0,0,0]],
                "branches":[[2,1,2,20,{t},{f},0,0,4]]}}"#
        );
        let raw: record::RawRecord = serde_json::from_str(&json).expect("record");
        raw.into_stats(Kept::Everything).expect("stats").1
    }

    #[test]
    fn one_function_in_two_exports_sums_and_instantiations_do_not() {
        let one = shard([1, 1, 0], [1, 0]);
        let two = shard([1, 0, 1], [0, 1]);
        assert_eq!(one.layout(), two.layout());
        assert_ne!(one.layout(), 0);
        let summed = pool(vec![vec![one.clone()], vec![two.clone()]]);
        assert_eq!(summed.len(), 1);
        let s = &summed[0];
        assert_eq!(
            (s.count, s.regions, s.branches),
            (2, Counts::new(3, 3), Counts::new(2, 2))
        );
        assert_eq!(s.lines, Counts::new(3, 3));
        assert!(s.uncovered_regions().is_empty() && s.uncovered_lines().is_empty());
        assert_eq!(s.covered_region_lines(), [1, 2, 3]);
        assert_eq!(s.covered_branch_lines(), [2, 2]);
        assert_eq!(recompute(&summed).lines, Counts::new(3, 3));
        // Best single record (the rule inside one export): 2 of 3 lines.
        let both = [one.clone(), two.clone()];
        assert_eq!(recompute(&both).lines, Counts::new(2, 3));
        assert_eq!(recompute(&both).regions, Counts::new(2, 3));

        // A record neither covers stays uncovered; a run with nothing adds nothing.
        let idle = shard([0, 0, 0], [0, 0]);
        let summed = pool(vec![vec![one.clone()], vec![idle.clone()]]);
        assert_eq!(summed[0].regions, one.regions);
        assert_eq!(summed[0].lines, one.lines);
        assert_eq!(summed[0].uncovered_regions(), one.uncovered_regions());
        assert_eq!(summed[0].uncovered_branches(), one.uncovered_branches());
        let summed = pool(vec![vec![idle.clone()], vec![idle.clone()]]);
        assert_eq!((summed[0].count, summed[0].lines), (0, Counts::new(0, 3)));

        // Inside one export nothing is summed; a later export sums into the first match only.
        let summed = pool(vec![vec![one.clone(), idle.clone()], vec![two.clone()]]);
        assert_eq!(summed.len(), 2);
        assert_eq!(summed[0].regions, Counts::new(3, 3));
        assert_eq!(summed[1].regions, Counts::new(0, 3));
        let summed = pool(vec![vec![one.clone()], vec![two.clone(), idle.clone()]]);
        assert_eq!(summed.len(), 2);

        // Another layout (an instantiation), another name, or no layout: not summed.
        let mut other = two.clone();
        if let Some(covered) = other.items.as_mut().and_then(|i| i.covered.as_mut()) {
            covered.layout ^= 2;
        }
        assert_eq!(pool(vec![vec![one.clone()], vec![other]]).len(), 2);
        let mut renamed = two.clone();
        renamed.name = "g".into();
        assert_eq!(pool(vec![vec![one.clone()], vec![renamed]]).len(), 2);
        let mut unknown = one.clone();
        unknown.items = None;
        let pooled = pool(vec![vec![unknown.clone()], vec![unknown]]);
        assert_eq!(pooled.len(), 2);
    }

    #[test]
    fn line_ranges_intersect_and_unite() {
        let r = |start, end| LineRange { start, end };
        let a = [r(1, 3), r(5, 9), r(20, 20)];
        let b = [r(2, 6), r(8, 12), r(14, 15)];
        assert_eq!(intersect(&a, &b), [r(2, 3), r(5, 6), r(8, 9)]);
        assert_eq!(intersect(&b, &a), [r(2, 3), r(5, 6), r(8, 9)]);
        assert_eq!(intersect(&a, &[]), []);
        assert_eq!(union(&a, &b), [r(1, 12), r(14, 15), r(20, 20)]);
        assert_eq!(
            union(&[r(1, 2)], &[r(3, 3), r(u32::MAX, u32::MAX)]),
            [r(1, 3), r(u32::MAX, u32::MAX)]
        );
        assert_eq!(line_count(&[r(1, 3), r(7, 7)]), 4);
    }

    #[test]
    fn stream_errors_are_read_errors() {
        struct Failing;
        impl Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("unplugged"))
            }
        }
        let e = read_stream("r.json", &mut Failing, Detail::All).expect_err("io");
        assert_eq!(e.message(), "r.json: cannot read the report: unplugged");
        let e = read_stream("r.json", &mut &b"{"[..], Detail::All).expect_err("cut");
        assert!(e.message().contains("ends early"), "{}", e.message());
    }
}
