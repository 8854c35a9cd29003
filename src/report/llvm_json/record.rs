//! One entry of an export's `functions[]` array, and its reduction to [`FunctionStats`].
//!
//! A record is `{name, count, regions, branches, mcdc_records, filenames}` (keys in any order).
//! It is held only while it is being reduced: the caller keeps the small [`FunctionStats`].

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::hash::{Hash, Hasher};

use serde::de::{Deserialize, Deserializer, SeqAccess, Visitor};
use serde::Deserialize as DeriveDeserialize;

use crate::model::Counts;

use super::count::{next_count, next_u32, skip_rest, Count};
use super::evidence::Evidence;
use super::mcdc::{self, RawDecision};
use super::segments::{line_summary, loc, LineRule, SegRegion, SegmentKind};
use super::{BranchSide, CoveredItems, FunctionStats, Instances, Kept, RecordItems, Span};

/// Region kind of an expansion (macro use site) region.
const EXPANSION: u32 = 1;

/// Most regions whose room a spare vector keeps between records ([`spare_regions`]).
const SPARE_ROOM: usize = 1 << 12;

thread_local! {
    /// The regions' vector of the last record reduced on this thread, emptied.
    static SPARE_REGIONS: std::cell::Cell<Vec<Region>> = const { std::cell::Cell::new(Vec::new()) };
    /// The file names' vector of the last record reduced on this thread, emptied.
    static SPARE_FILENAMES: std::cell::Cell<Vec<String>> = const { std::cell::Cell::new(Vec::new()) };
}

/// An empty vector for a record's regions, with the room of the last record reduced on this
/// thread ([`RawRecord::into_stats`] gives it back): most records are read, reduced and
/// dropped on one thread, one after the other, and a fresh vector each time cost an
/// allocation of 1 kB and its first touch.
pub(super) fn spare_regions() -> Vec<Region> {
    SPARE_REGIONS.with(std::cell::Cell::take)
}

/// An empty vector for a record's file names, as [`spare_regions`].
pub(super) fn spare_filenames() -> Vec<String> {
    SPARE_FILENAMES.with(std::cell::Cell::take)
}

/// Keeps the room of a record's vectors (at most [`SPARE_ROOM`] elements of each) for the
/// next record.
fn give_back(mut regions: Vec<Region>, mut filenames: Vec<String>) {
    regions.clear();
    regions.shrink_to(SPARE_ROOM);
    SPARE_REGIONS.with(|spare| spare.set(regions));
    filenames.clear();
    filenames.shrink_to(SPARE_ROOM);
    SPARE_FILENAMES.with(|spare| spare.set(filenames));
}

/// Region kind of a code region.
const CODE: u32 = 0;

/// A function record as written in the export.
#[derive(Debug, DeriveDeserialize)]
pub(super) struct RawRecord<'a> {
    /// Mangled name, borrowed from the input unless it holds an escape: most records do not
    /// keep their name ([`RawRecord::into_stats`]), and a copy of each cost an allocation.
    #[serde(borrow)]
    pub(super) name: Cow<'a, str>,
    /// Execution count.
    pub(super) count: Count,
    /// `CountedRegions` of the record, in mapping order.
    pub(super) regions: Vec<Region>,
    /// `CountedBranchRegions` (absent before LLVM 12).
    #[serde(default)]
    pub(super) branches: Vec<Branch>,
    /// Present (maybe empty) from LLVM 18 on: the MC/DC decisions ([`mcdc`]).
    #[serde(default)]
    pub(super) mcdc_records: Option<Vec<RawDecision>>,
    /// The files the record's `file_id`s index.
    pub(super) filenames: Vec<String>,
}

/// `[line_start, col_start, line_end, col_end, execution_count, file_id, expanded_file_id, kind]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Region {
    pub(super) span: Span,
    pub(super) count: u64,
    pub(super) file_id: u32,
    pub(super) expanded_file_id: u32,
    pub(super) kind: u32,
}

/// `[line_start, col_start, line_end, col_end, true_count, false_count, file_id,
/// expanded_file_id, kind]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Branch {
    pub(super) span: Span,
    pub(super) true_count: u64,
    pub(super) false_count: u64,
    pub(super) file_id: u32,
}

const REGION_SHAPE: &str = "a region [line_start, col_start, line_end, col_end, \
                            execution_count, file_id, expanded_file_id, kind]";
const BRANCH_SHAPE: &str = "a branch [line_start, col_start, line_end, col_end, true_count, \
                            false_count, file_id, expanded_file_id, kind]";

/// Reads the four leading positions of a region or branch array.
fn next_span<'de, A: SeqAccess<'de>>(seq: &mut A, shape: &'static str) -> Result<Span, A::Error> {
    Ok(Span {
        line_start: next_u32(seq, 0, shape)?,
        col_start: next_u32(seq, 1, shape)?,
        line_end: next_u32(seq, 2, shape)?,
        col_end: next_u32(seq, 3, shape)?,
    })
}

impl<'de> Deserialize<'de> for Region {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Region, D::Error> {
        deserializer.deserialize_seq(RegionVisitor)
    }
}

struct RegionVisitor;

impl<'de> Visitor<'de> for RegionVisitor {
    type Value = Region;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REGION_SHAPE)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Region, A::Error> {
        let region = Region {
            span: next_span(&mut seq, REGION_SHAPE)?,
            count: next_count(&mut seq, 4, REGION_SHAPE)?,
            file_id: next_u32(&mut seq, 5, REGION_SHAPE)?,
            expanded_file_id: next_u32(&mut seq, 6, REGION_SHAPE)?,
            kind: next_u32(&mut seq, 7, REGION_SHAPE)?,
        };
        skip_rest(&mut seq)?;
        Ok(region)
    }
}

impl<'de> Deserialize<'de> for Branch {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Branch, D::Error> {
        deserializer.deserialize_seq(BranchVisitor)
    }
}

struct BranchVisitor;

impl<'de> Visitor<'de> for BranchVisitor {
    type Value = Branch;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(BRANCH_SHAPE)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Branch, A::Error> {
        let span = next_span(&mut seq, BRANCH_SHAPE)?;
        let true_count = next_count(&mut seq, 4, BRANCH_SHAPE)?;
        let false_count = next_count(&mut seq, 5, BRANCH_SHAPE)?;
        let file_id = next_u32(&mut seq, 6, BRANCH_SHAPE)?;
        next_u32(&mut seq, 7, BRANCH_SHAPE)?;
        next_u32(&mut seq, 8, BRANCH_SHAPE)?;
        skip_rest(&mut seq)?;
        Ok(Branch {
            span,
            true_count,
            false_count,
            file_id,
        })
    }
}

/// The error for a record whose regions or branches name a file id that its `filenames` lack
/// (llvm-cov writes every file a record's ids index; such a record would add phantom items).
pub(super) const FILE_ID_PAST_FILENAMES: &str =
    "a function record's region or branch names a file id past the record's `filenames`";

/// True when every id in `ids` indexes one of `files` names.
pub(super) fn ids_fit(ids: impl Iterator<Item = u32>, files: usize) -> bool {
    ids.max()
        .is_none_or(|max| usize::try_from(max).is_ok_and(|max| max < files))
}

impl RawRecord<'_> {
    /// True when the record lists at least one branch.
    pub(super) fn has_branches(&self) -> bool {
        !self.branches.is_empty()
    }

    /// True when every file id of the record's regions (and expansions) and branches indexes
    /// its `filenames` (else see [`FILE_ID_PAST_FILENAMES`]).
    pub(super) fn file_ids_fit(&self) -> bool {
        let regions = self.regions.iter().flat_map(|r| {
            let expanded = (r.kind == EXPANSION).then_some(r.expanded_file_id);
            std::iter::once(r.file_id).chain(expanded)
        });
        let branches = self.branches.iter().map(|b| b.file_id);
        ids_fit(regions.chain(branches), self.filenames.len())
    }

    /// What the record shows ran.
    pub(super) fn evidence(&self) -> Evidence {
        Evidence::of(self.count.0, &self.regions, &self.branches)
    }

    /// The name of the record's main file (see [`main_file`]), without reducing the record.
    pub(super) fn main_file_name(&self) -> Option<&str> {
        main_file(&self.regions, self.filenames.len(), self.filenames.iter())
            .map(|(_, name)| name.as_str())
    }

    /// Reduces the record to its main file's name and its statistics, with the items `kept`
    /// asks for ([`Kept::Misses`] or [`Kept::Everything`]).
    ///
    /// `None` when the record has no main file or no region in it (llvm-cov ignores such a
    /// record for file summaries).
    pub(super) fn into_stats(mut self, kept: Kept) -> Option<(String, FunctionStats)> {
        let files = self.filenames.len();
        let (main, filename) = main_file(&self.regions, files, self.filenames.iter_mut())?;
        let filename = std::mem::take(filename);
        let key = self
            .regions
            .iter()
            .find(|r| r.file_id == main && SegmentKind::from_kind(r.kind).is_some())
            .map(|r| (r.span.line_start, r.span.col_start))?;
        let rule = if self.mcdc_records.is_some() {
            LineRule::Current
        } else {
            LineRule::Legacy
        };
        let everything = kept == Kept::Everything;
        let sites = ExpansionSites::new(&self.regions, main);
        let (regions, uncovered_regions, covered_region_lines, region_hits) =
            region_stats(&self.regions, &sites, everything);
        let (branches, uncovered_branches, covered_branch_lines, branch_hits) =
            branch_stats(&self.branches, &sites, everything);
        let lines = line_summary(main_segment_regions(&self.regions, main), rule, everything);
        let decisions = mcdc::locate(
            self.mcdc_records.as_deref().unwrap_or_default(),
            &self.branches,
            main,
            &|file, span| sites.locate(file, span),
        );
        let mcdc = mcdc::counts(&decisions);
        // Kept to the end of the read: sized exactly by `line_summary`.
        let uncovered_lines = lines.uncovered;
        let items = RecordItems {
            uncovered_regions,
            uncovered_branches,
            uncovered_lines,
            decisions: if everything || mcdc.covered < mcdc.total {
                decisions
            } else {
                Vec::new()
            },
            origins: None,
            covered: everything.then(|| {
                Box::new(CoveredItems {
                    covered_region_lines,
                    covered_branch_lines,
                    covered_lines: lines.covered,
                    region_hits,
                    branch_hits,
                    layout: layout(&self.regions, &self.branches),
                })
            }),
        };
        let count = self.count.0;
        give_back(
            std::mem::take(&mut self.regions),
            std::mem::take(&mut self.filenames),
        );
        // Names are kept for records with misses too: item lists name the instantiation an
        // uncovered item comes from.
        let stats = FunctionStats {
            name: if everything || count == 0 || !items.is_empty() {
                Box::from(self.name)
            } else {
                Box::default()
            },
            count,
            key,
            regions,
            lines: lines.counts,
            branches,
            mcdc,
            function_ignored: false,
            several_instantiations: false,
            instances: Instances::of(count),
            // A record kept whole keeps its layout, for pooling, even with no item.
            items: (everything || !items.is_empty()).then(|| Box::new(items)),
        };
        Some((filename, stats))
    }
}

/// A function record read only as far as finding its main file: every field is checked as
/// [`RawRecord`] checks it (so a record that one rejects, the other rejects), but regions and
/// branches are not kept. Names are borrowed from the input where they hold no escapes.
#[derive(Debug, DeriveDeserialize)]
pub(super) struct RecordHead<'a> {
    /// Mangled name (checked to be a string).
    #[serde(borrow, rename = "name")]
    _name: Cow<'a, str>,
    /// Execution count.
    count: Count,
    /// The expanded file ids of the record's expansion regions.
    regions: Expansions,
    /// True when the record lists a branch.
    #[serde(default)]
    branches: AnyBranch,
    /// Present (maybe empty) from LLVM 18 on; its entries are not read.
    #[serde(default, rename = "mcdc_records")]
    _mcdc_records: Option<Vec<RawDecision>>,
    /// The files the record's `file_id`s index.
    #[serde(borrow)]
    filenames: Vec<Cow<'a, str>>,
}

impl RecordHead<'_> {
    /// True when the record lists at least one branch.
    pub(super) fn has_branches(&self) -> bool {
        self.branches.any
    }

    /// [`RawRecord::file_ids_fit`] for the head.
    pub(super) fn file_ids_fit(&self) -> bool {
        let ids = self
            .regions
            .largest
            .into_iter()
            .chain(self.branches.largest);
        ids_fit(ids, self.filenames.len())
    }

    /// What the record shows ran.
    pub(super) fn evidence(&self) -> Evidence {
        let mut evidence = Evidence::record(self.count.0);
        evidence.add(self.regions.evidence);
        evidence.add(self.branches.evidence);
        evidence
    }

    /// The name of the record's main file, as [`main_file`] finds it; `None` when every file id
    /// is expanded.
    pub(super) fn main_file(&self) -> Option<&str> {
        (0..u32::MAX)
            .zip(&self.filenames)
            .find(|(id, _)| !self.regions.expanded.contains(id))
            .map(|(_, name)| name.as_ref())
    }
}

/// `regions` read for the `expanded_file_id`s of its expansion regions, the largest file id
/// any region names, and what the regions show ran.
#[derive(Debug)]
struct Expansions {
    expanded: Vec<u32>,
    largest: Option<u32>,
    evidence: Evidence,
}

impl<'de> Deserialize<'de> for Expansions {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Expansions, D::Error> {
        deserializer.deserialize_seq(ExpansionsVisitor)
    }
}

struct ExpansionsVisitor;

impl<'de> Visitor<'de> for ExpansionsVisitor {
    type Value = Expansions;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("`regions`: an array of regions")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Expansions, A::Error> {
        let mut expanded = Vec::new();
        let mut largest = None;
        let mut evidence = Evidence::default();
        while let Some(region) = seq.next_element::<Region>()? {
            evidence.region(&region);
            let mut id = region.file_id;
            if region.kind == EXPANSION {
                expanded.push(region.expanded_file_id);
                id = id.max(region.expanded_file_id);
            }
            largest = largest.max(Some(id));
        }
        Ok(Expansions {
            expanded,
            largest,
            evidence,
        })
    }
}

/// `branches` read for whether it holds any branch, the largest file id one names, and the
/// sides that ran.
#[derive(Debug, Default)]
struct AnyBranch {
    any: bool,
    largest: Option<u32>,
    evidence: Evidence,
}

impl<'de> Deserialize<'de> for AnyBranch {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<AnyBranch, D::Error> {
        deserializer.deserialize_seq(AnyBranchVisitor)
    }
}

struct AnyBranchVisitor;

impl<'de> Visitor<'de> for AnyBranchVisitor {
    type Value = AnyBranch;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("`branches`: an array of branches")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<AnyBranch, A::Error> {
        let mut largest = None;
        let mut evidence = Evidence::default();
        while let Some(branch) = seq.next_element::<Branch>()? {
            largest = largest.max(Some(branch.file_id));
            evidence.branch(branch.true_count, branch.false_count);
        }
        Ok(AnyBranch {
            any: largest.is_some(),
            largest,
            evidence,
        })
    }
}

/// LLVM `findMainViewFileID`: the first file id that no expansion region expands, with its
/// entry of `names` (the record's `files` filenames; file ids are `u32`, so at most `u32::MAX`
/// names are considered).
fn main_file<T>(
    regions: &[Region],
    files: usize,
    names: impl Iterator<Item = T>,
) -> Option<(u32, T)> {
    let mut ids = (0..u32::MAX).zip(names);
    // Most records name one to three files: a scan of the regions per file beats building a
    // set; records naming many files (macro-heavy code, or hostile input) build it.
    if files <= 4 {
        let expanded = |id: u32| {
            regions
                .iter()
                .any(|r| r.kind == EXPANSION && r.expanded_file_id == id)
        };
        ids.find(|(id, _)| !expanded(*id))
    } else {
        let expanded: BTreeSet<u32> = regions
            .iter()
            .filter(|r| r.kind == EXPANSION)
            .map(|r| r.expanded_file_id)
            .collect();
        ids.find(|(id, _)| !expanded.contains(id))
    }
}

/// The main-file regions that take part in segment building (code, expansion, skipped, gap).
fn main_segment_regions(regions: &[Region], main: u32) -> impl Iterator<Item = SegRegion> + '_ {
    regions
        .iter()
        .filter(move |r| r.file_id == main)
        .filter_map(|r| {
            Some(SegRegion {
                start: loc((r.span.line_start, r.span.col_start)),
                end: loc((r.span.line_end, r.span.col_end)),
                count: r.count,
                kind: SegmentKind::from_kind(r.kind)?,
            })
        })
}

/// The layout of a record: a hash of everything in its regions and branches but their counts
/// (spans, file ids, expansions, kinds), never 0. Two records of one compiled function (the same
/// function seen in two runs) have the same layout; see [`super::pool`].
fn layout(regions: &[Region], branches: &[Branch]) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    for r in regions {
        (r.span, r.file_id, r.expanded_file_id, r.kind).hash(&mut hasher);
    }
    for b in branches {
        (b.span, b.file_id).hash(&mut hasher);
    }
    hasher.finish() | 1
}

/// Regions: every code region of any file id counts (LLVM `sumRegions` over
/// `Function.CountedRegions`); the uncovered ones are kept, located in the main file, and, when
/// `keep_covered`, the start lines (in the main file) of the covered ones and one hit flag per
/// code region in record order.
fn region_stats(
    regions: &[Region],
    sites: &ExpansionSites,
    keep_covered: bool,
) -> (Counts, Vec<Span>, Vec<u32>, Vec<bool>) {
    let mut counts = Counts::default();
    // Sized once: the misses are kept to the end of the read, and a vector's doubling would
    // keep its spare room as long.
    let missed = regions.iter().filter(|r| r.kind == CODE && r.count == 0);
    let mut uncovered = Vec::with_capacity(missed.count());
    let mut covered = Vec::new();
    let mut hits = Vec::new();
    for r in regions.iter().filter(|r| r.kind == CODE) {
        counts = counts + Counts::new(u64::from(r.count > 0), 1);
        if r.count == 0 {
            uncovered.push(sites.locate(r.file_id, r.span));
        } else if keep_covered {
            covered.push(sites.locate(r.file_id, r.span).line_start);
        }
        if keep_covered {
            hits.push(r.count > 0);
        }
    }
    (counts, uncovered, covered, hits)
}

/// Branches: two sides per branch entry of a file reachable from the main file (LLVM
/// `sumBranches` over the main file plus `sumBranchExpansions`).
fn branch_stats(
    branches: &[Branch],
    sites: &ExpansionSites,
    keep_covered: bool,
) -> (Counts, Vec<BranchSide>, Vec<u32>, Vec<bool>) {
    let mut counts = Counts::default();
    let reached = || branches.iter().filter(|b| sites.reaches(b.file_id));
    // Sized once, as the regions' misses are.
    let missed =
        reached().map(|b| usize::from(b.true_count == 0) + usize::from(b.false_count == 0));
    let mut uncovered = Vec::with_capacity(missed.sum());
    let mut covered = Vec::new();
    let mut hits = Vec::new();
    for branch in reached() {
        let span = sites.locate(branch.file_id, branch.span);
        for (outcome, count) in [(true, branch.true_count), (false, branch.false_count)] {
            counts = counts + Counts::new(u64::from(count > 0), 1);
            if count == 0 {
                uncovered.push(BranchSide { span, outcome });
            } else if keep_covered {
                covered.push(span.line_start);
            }
            if keep_covered {
                hits.push(count > 0);
            }
        }
    }
    (counts, uncovered, covered, hits)
}

/// Where each expanded file id of a record is expanded, to place its items in the main file.
///
/// Every file id's outermost site is worked out once, when the record is reduced, so a record
/// with long expansion chains costs O(n log n), not a walk up the chain per region.
struct ExpansionSites {
    main: u32,
    /// Expanded file id → the outermost expansion site in the main file of its chain, or `None`
    /// when the chain does not lead to the main file (it ends, or loops in a malformed record).
    sites: BTreeMap<u32, Option<Span>>,
}

impl ExpansionSites {
    fn new(regions: &[Region], main: u32) -> ExpansionSites {
        // `expanded_file_id → (file_id, span)` of the first expansion region expanding it.
        let mut parents: BTreeMap<u32, (u32, Span)> = BTreeMap::new();
        for region in regions.iter().filter(|r| r.kind == EXPANSION) {
            parents
                .entry(region.expanded_file_id)
                .or_insert((region.file_id, region.span));
        }
        let mut sites: BTreeMap<u32, Option<Span>> = BTreeMap::new();
        for &start in parents.keys() {
            // Walk up until the main file, a file already resolved, a file with no parent, or a
            // file seen on this walk (a cycle); every file on the walk shares the answer.
            let mut walked = BTreeSet::new();
            let mut file = start;
            let mut span = None;
            let site = loop {
                if file == main {
                    break span;
                }
                if let Some(&known) = sites.get(&file) {
                    break known;
                }
                if !walked.insert(file) {
                    break None;
                }
                let Some(&(parent, site)) = parents.get(&file) else {
                    break None;
                };
                file = parent;
                span = Some(site);
            };
            for file in walked {
                sites.insert(file, site);
            }
        }
        ExpansionSites { main, sites }
    }

    /// The outermost expansion site in the main file of an item of `file_id`, following the
    /// chain of expansions (`None` for the main file itself, or a chain that does not lead there).
    fn site(&self, file_id: u32) -> Option<Span> {
        self.sites.get(&file_id).copied().flatten()
    }

    /// True when `file_id` is the main file or an expansion chain leads there from it.
    fn reaches(&self, file_id: u32) -> bool {
        file_id == self.main || self.site(file_id).is_some()
    }

    /// The span of an item of `file_id` as seen from the main file.
    fn locate(&self, file_id: u32, span: Span) -> Span {
        if file_id == self.main {
            return span;
        }
        self.site(file_id).unwrap_or(span)
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    fn record(json: &str) -> RawRecord<'_> {
        match serde_json::from_str(json) {
            Ok(record) => record,
            Err(err) => panic!("{err}"),
        }
    }

    #[test]
    fn main_file_is_the_one_never_expanded() {
        // file 0 expands file 1 (a macro in a header) at 4:11–4:15.
        let raw = record(
            r#"{"name":"f","count":1,"filenames":["d.c","mh.h"],"branches":[[1,24,1,27,0,1,1,0,4]],
                "regions":[[3,17,7,2,1,0,0,0],[4,11,4,15,1,0,1,1],[1,23,1,40,0,1,0,0]]}"#,
        );
        let Some((file, stats)) = raw.into_stats(Kept::Everything) else {
            panic!("no main file");
        };
        assert_eq!(file, "d.c");
        assert_eq!(stats.key, (3, 17));
        assert_eq!(stats.regions, Counts::new(1, 2));
        let site = Span {
            line_start: 4,
            col_start: 11,
            line_end: 4,
            col_end: 15,
        };
        assert_eq!(stats.uncovered_regions(), vec![site]);
        assert_eq!(stats.branches, Counts::new(1, 2));
        assert_eq!(
            stats.uncovered_branches(),
            vec![BranchSide {
                span: site,
                outcome: true
            }]
        );
        assert_eq!(stats.lines, Counts::new(5, 5));
    }

    #[test]
    fn record_without_regions_is_dropped() {
        let raw = record(r#"{"name":"f","count":0,"filenames":["a.rs"],"regions":[]}"#);
        assert!(raw.into_stats(Kept::Everything).is_none());
        let raw = record(r#"{"name":"f","count":0,"filenames":[],"regions":[[1,1,1,2,0,0,0,0]]}"#);
        assert!(raw.into_stats(Kept::Everything).is_none());
    }

    #[test]
    fn expansion_cycles_end() {
        let raw = record(
            r#"{"name":"f","count":1,"filenames":["a","b","c"],
                "regions":[[1,1,9,1,1,0,0,0],[2,1,2,5,0,1,2,1],[3,1,3,5,0,2,1,1],[1,1,1,2,0,2,0,0]]}"#,
        );
        let Some((file, stats)) = raw.into_stats(Kept::Everything) else {
            panic!("no main file");
        };
        assert_eq!(file, "a");
        assert_eq!(stats.regions, Counts::new(1, 2));
    }

    #[test]
    fn branch_and_mcdc_kinds_and_unexpanded_files_take_no_part() {
        // A branch-kind region (4) comes first in the main file: it is not the group key and
        // takes no part in lines. File 1 is never expanded: its uncovered region keeps its own
        // span and its branch is not reachable from the main file.
        let raw = record(
            r#"{"name":"f","count":1,"filenames":["a","b"],"mcdc_records":[],
                "regions":[[1,1,1,5,0,0,0,4],[2,1,4,2,1,0,0,0],[3,1,3,5,0,1,0,0]],
                "branches":[[2,3,2,6,1,0,1,0,4]]}"#,
        );
        let Some((file, stats)) = raw.into_stats(Kept::Everything) else {
            panic!("no main file");
        };
        assert_eq!(file, "a");
        assert_eq!(stats.key, (2, 1));
        assert_eq!(stats.regions, Counts::new(1, 2));
        assert_eq!(
            stats.uncovered_regions(),
            vec![Span {
                line_start: 3,
                col_start: 1,
                line_end: 3,
                col_end: 5,
            }]
        );
        assert_eq!(stats.branches, Counts::new(0, 0));
        assert!(stats.uncovered_branches().is_empty());
        assert_eq!(stats.lines, Counts::new(3, 3));
    }

    #[test]
    fn the_main_file_may_come_after_the_header_it_expands() {
        // File 0 (a header) is expanded by file 1 at 6:5–6:9, so file 1 is the main file and
        // its first region, not the header's, is the group key.
        let raw = record(
            r#"{"name":"m","count":2,"filenames":["m.h","a.c"],
                "regions":[[1,10,1,20,0,0,0,0],[5,1,8,2,2,1,0,0],[6,5,6,9,2,1,0,1]]}"#,
        );
        let Some((file, stats)) = raw.into_stats(Kept::Everything) else {
            panic!("no main file");
        };
        assert_eq!(file, "a.c");
        assert_eq!(stats.key, (5, 1));
        assert_eq!(stats.regions, Counts::new(1, 2));
        assert_eq!(
            stats.uncovered_regions(),
            vec![Span {
                line_start: 6,
                col_start: 5,
                line_end: 6,
                col_end: 9,
            }]
        );
        assert_eq!(stats.lines, Counts::new(4, 4));
    }

    #[test]
    fn a_branch_that_is_not_an_array_is_an_error() {
        let err = serde_json::from_str::<RawRecord>(
            r#"{"name":"f","count":1,"filenames":["a"],"regions":[],"branches":[{}]}"#,
        )
        .map(|_| ())
        .expect_err("a branch object");
        assert!(
            err.to_string().contains("expected a branch [line_start"),
            "{err}"
        );
    }

    /// The outermost site by walking up the chain for each file id, as covgate did before the
    /// sites were resolved once per record (bounded, so cycles end).
    fn walked_site(regions: &[Region], main: u32, file_id: u32) -> Option<Span> {
        let mut parents = BTreeMap::new();
        for region in regions.iter().filter(|r| r.kind == EXPANSION) {
            parents
                .entry(region.expanded_file_id)
                .or_insert((region.file_id, region.span));
        }
        let mut file = file_id;
        let mut span = None;
        for _ in 0..=parents.len() {
            if file == main {
                return span;
            }
            let &(parent, site) = parents.get(&file)?;
            file = parent;
            span = Some(site);
        }
        None
    }

    proptest::proptest! {
        #[test]
        fn resolved_sites_match_walking_the_chain(
            links in proptest::collection::vec((0u32..6, 0u32..6, 1u32..4, proptest::bool::ANY), 0..12),
            main in 0u32..6,
        ) {
            let regions: Vec<Region> = links
                .iter()
                .map(|&(file_id, expanded, line, expansion)| Region {
                    span: Span { line_start: line, col_start: 1, line_end: line, col_end: 2 },
                    count: 0,
                    file_id,
                    expanded_file_id: expanded,
                    kind: if expansion { EXPANSION } else { CODE },
                })
                .collect();
            let sites = ExpansionSites::new(&regions, main);
            for file_id in 0..6 {
                proptest::prop_assert_eq!(
                    sites.site(file_id),
                    if file_id == main { None } else { walked_site(&regions, main, file_id) },
                    "file {}", file_id
                );
            }
        }
    }

    #[test]
    fn a_long_expansion_chain_takes_no_time() {
        // File i + 1 is expanded in file i, 50,000 deep, with a region in each file.
        let n = 50_000u32;
        let span = Span {
            line_start: 1,
            col_start: 1,
            line_end: 1,
            col_end: 5,
        };
        let mut regions: Vec<Region> = (0..n)
            .map(|i| Region {
                span,
                count: 1,
                file_id: i,
                expanded_file_id: i + 1,
                kind: EXPANSION,
            })
            .collect();
        regions.extend((0..=n).map(|i| Region {
            span,
            count: 0,
            file_id: i,
            expanded_file_id: 0,
            kind: CODE,
        }));
        let started = std::time::Instant::now();
        let sites = ExpansionSites::new(&regions, 0);
        let (counts, uncovered, _, _) = region_stats(&regions, &sites, true);
        assert_eq!(counts, Counts::new(0, u64::from(n) + 1));
        assert!(uncovered.iter().all(|s| *s == span));
        assert_eq!(sites.site(n), Some(span));
        assert!(
            started.elapsed().as_secs_f64() < 20.0,
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn short_or_mistyped_arrays_are_errors() {
        for bad in [
            r#"{"name":"f","count":1,"filenames":["a"],"regions":[[1,1,1,2,0,0,0]]}"#,
            r#"{"name":"f","count":1,"filenames":["a"],"regions":[[1,1,1,2,"0",0,0,0]]}"#,
            r#"{"name":"f","count":1,"filenames":["a"],"regions":[[1,1,1,2,0.5,0,0,0]]}"#,
            r#"{"name":"f","count":1,"filenames":["a"],"regions":[[1,1,1,2,0,0,0,4294967296]]}"#,
            r#"{"name":"f","count":-1,"filenames":["a"],"regions":[]}"#,
            r#"{"name":"f","filenames":["a"],"regions":[]}"#,
        ] {
            assert!(serde_json::from_str::<RawRecord>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_record_head_checks_as_the_record_does() {
        fn head(text: &str) -> Result<RecordHead<'_>, String> {
            serde_json::from_str(text).map_err(|e| e.to_string())
        }
        let good = r#"{"name":"f","count":1,"filenames":["h.rs","m.rs"],"regions":[[1,1,1,9,1,1,0,1],[2,1,2,5,1,1,0,0]],"branches":[[2,1,2,5,1,0,1,0,4]]}"#;
        let read = head(good).expect("a record");
        assert!(read.has_branches());
        assert_eq!(read.main_file(), Some("m.rs"));
        let no_branches = good.replace(r#","branches":[[2,1,2,5,1,0,1,0,4]]"#, "");
        assert!(!head(&no_branches).expect("a record").has_branches());
        let e = head(&good.replace(
            r#""regions":[[1,1,1,9,1,1,0,1],[2,1,2,5,1,1,0,0]]"#,
            r#""regions":5"#,
        ))
        .expect_err("regions");
        assert!(e.contains("`regions`: an array of regions"), "{e}");
        let e = head(&good.replace(r#""branches":[[2,1,2,5,1,0,1,0,4]]"#, r#""branches":5"#))
            .expect_err("branches");
        assert!(e.contains("`branches`: an array of branches"), "{e}");
        let e = head(&good.replace("[2,1,2,5,1,0,1,0,4]", "[2,1,2,5,1]")).expect_err("short");
        assert!(e.contains("invalid length 5"), "{e}");
    }
}
