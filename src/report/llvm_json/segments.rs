//! Line coverage of one function record: a port of LLVM's `SegmentBuilder` and
//! `LineCoverageStats` / `LineCoverageIterator` (`lib/ProfileData/Coverage/CoverageMapping.cpp`).
//!
//! The main-file regions of a record are sorted and merged, turned into *segments* (points where
//! the count in effect changes), and every line from the first segment's line to the last one is
//! classified as mapped or not, with a count.
//!
//! LLVM's builder keeps its open regions in a vector that it partitions at every region, and looks
//! ahead through the completed ones for each: quadratic in the number of regions (100,000 nested
//! regions take minutes). This port gives the same segments in O(n log n): open regions are kept
//! ordered both by end and by arrival ([`Active`]), and a completed region's look-ahead is one
//! backward pass. The lines are classified in [`super::lines`].
//!
//! Every record of a read goes through here: each thread keeps its buffers ([`Scratch`]) from
//! one record to the next, so a record allocates nothing for its lines but the ranges it keeps.

use std::cell::Cell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::lines::{summarize_lines, LineSummary, LineTally};

/// Which version of llvm-cov's line rule to apply.
///
/// LLVM 19 (single-byte-coverage work, `[InstrProf] Single byte counters in coverage`) changed
/// two things: a line is also mapped when *any* segment starting on it is a region entry with a
/// count (even a gap or one after a skipped region), and a zero-length skipped region no longer
/// swallows the count of the region around it. The export does not carry the LLVM version, so
/// the reader uses the closest marker it has: function records with an `mcdc_records` key (LLVM
/// 18 and later) get [`LineRule::Current`], records without it (LLVM 17 and earlier)
/// [`LineRule::Legacy`]. LLVM 18 exports are therefore judged by the newer rule; the two agree
/// unless a line holds a zero-length region or starts with a skipped region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineRule {
    /// LLVM up to 18: mapped when not starting with a skipped region and either the wrapping
    /// segment has a count or a non-gap region with a count starts on the line.
    Legacy,
    /// LLVM 19 and later: the legacy rule, or any region entry with a count on the line.
    Current,
}

/// Region kinds that take part in segment building (LLVM `CounterMappingRegion::RegionKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum SegmentKind {
    /// Kind 0.
    Code,
    /// Kind 1 (macro use site).
    Expansion,
    /// Kind 2 (preprocessor-skipped code).
    Skipped,
    /// Kind 3 (whitespace between regions).
    Gap,
}

impl SegmentKind {
    /// The kind for an export's numeric region kind; branch and MC/DC kinds (4–6) take no part.
    pub(super) fn from_kind(kind: u32) -> Option<SegmentKind> {
        match kind {
            0 => Some(SegmentKind::Code),
            1 => Some(SegmentKind::Expansion),
            2 => Some(SegmentKind::Skipped),
            3 => Some(SegmentKind::Gap),
            _ => None,
        }
    }
}

/// A (line, column) location, packed with the line in the high half so that locations order as
/// LLVM's `LineColPair` does (by line, then column) in one comparison.
type Loc = u64;

/// The location of `(line, column)`.
pub(super) fn loc((line, col): (u32, u32)) -> Loc {
    (u64::from(line) << 32) | u64::from(col)
}

/// The (line, column) of a location.
fn line_col(loc: Loc) -> (u32, u32) {
    ((loc >> 32) as u32, loc as u32)
}

/// One main-file region as the segment builder sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct SegRegion {
    /// Start location.
    pub start: Loc,
    /// End location.
    pub end: Loc,
    /// Execution count.
    pub count: u64,
    /// Region kind.
    pub kind: SegmentKind,
}

/// LLVM's `CoverageSegment`: from (line, col) on, `count` is in effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Segment {
    pub(super) line: u32,
    pub(super) col: u32,
    pub(super) count: u64,
    pub(super) has_count: bool,
    pub(super) is_region_entry: bool,
    pub(super) is_gap: bool,
}

/// One thread's buffers, reused from record to record (their room is kept between records).
#[derive(Default)]
struct Scratch {
    regions: Vec<SegRegion>,
    builder: Builder,
    tally: LineTally,
}

/// Buffers that grew past this many elements are dropped after their record, so that one huge
/// record does not hold its room until the end of the read.
const KEPT_ROOM: usize = 1 << 16;

thread_local! {
    static SCRATCH: Cell<Option<Box<Scratch>>> = const { Cell::new(None) };
}

/// Computes the line coverage of one record from its main-file regions (in any order). The
/// covered lines' ranges are listed only with `keep_covered` (else left empty).
pub(super) fn line_summary(
    regions: impl IntoIterator<Item = SegRegion>,
    rule: LineRule,
    keep_covered: bool,
) -> LineSummary {
    SCRATCH.with(|cell| {
        let mut scratch = cell.take().unwrap_or_default();
        scratch.regions.clear();
        scratch.regions.extend(regions);
        scratch.builder.build_segments(&mut scratch.regions, rule);
        let summary = summarize_lines(
            &scratch.builder.segments,
            rule,
            &mut scratch.tally,
            keep_covered,
        );
        if scratch.regions.capacity() <= KEPT_ROOM {
            cell.set(Some(scratch));
        }
        summary
    })
}

/// `sortNestedRegions`: by start; an enclosing region before the regions it contains; for the
/// same area, code before expansion before skipped (before gap).
///
/// Regions that compare equal have the same area and kind, and [`combine`] adds up their counts
/// whatever their order: an unstable sort gives the same segments, without allocating.
fn sort_nested(regions: &mut [SegRegion]) {
    let order = |a: &SegRegion, b: &SegRegion| {
        a.start
            .cmp(&b.start)
            .then_with(|| b.end.cmp(&a.end))
            .then_with(|| a.kind.cmp(&b.kind))
    };
    // Exports mostly list a record's regions in this order already.
    if !regions.is_sorted_by(|a, b| order(a, b).is_le()) {
        regions.sort_unstable_by(order);
    }
}

/// `combineRegions`: regions covering the same area become one, summing the counts of those of
/// the first one's kind (in place).
fn combine(regions: &mut Vec<SegRegion>) {
    regions.dedup_by(|region, active| {
        let same_area = active.start == region.start && active.end == region.end;
        if same_area && active.kind == region.kind {
            active.count = active.count.saturating_add(region.count);
        }
        same_area
    });
}

/// The regions still open (LLVM's `ActiveRegions`).
///
/// While each region opened ends by the end of the one still open before it (properly nested
/// code, the common shape), the open regions are a stack ordered by end, and those that end by
/// a location are its top. Otherwise they are kept in arrival order with a heap by end: a
/// min-heap orders the open ones by (end, arrival) and a stack by arrival (closed ones leave it
/// lazily), so taking k of them out costs O(k log n) and finding the most recent open one is
/// amortised O(1). Plain vectors: most records have a handful of regions.
#[derive(Debug, Default)]
struct Active {
    /// In the nested shape, the open regions in arrival order (so by end, latest end first).
    nested: Vec<SegRegion>,
    /// True once a region overlapped the end of the region open before it: the fields below
    /// hold the open regions from then on.
    general: bool,
    /// Every region pushed, by arrival number, and whether it is still open.
    arrived: Vec<(SegRegion, bool)>,
    /// `(end, arrival)` of each open region, least first: the order LLVM's stable sort by end
    /// gives completed regions.
    by_end: BinaryHeap<Reverse<(Loc, usize)>>,
    /// Arrival numbers, most recent on top; numbers of closed regions are popped when seen.
    stack: Vec<usize>,
}

impl Active {
    /// Empties the structure, keeping its room.
    fn clear(&mut self) {
        self.nested.clear();
        self.general = false;
        self.arrived.clear();
        self.by_end.clear();
        self.stack.clear();
    }

    /// True when an open region ends at or before `loc`.
    #[inline]
    fn closes_by(&self, loc: Loc) -> bool {
        if self.general {
            self.by_end
                .peek()
                .is_some_and(|Reverse((end, _))| *end <= loc)
        } else {
            self.nested.last().is_some_and(|top| top.end <= loc)
        }
    }

    #[inline]
    fn push(&mut self, region: SegRegion) {
        if !self.general {
            if self.nested.last().is_none_or(|top| top.end >= region.end) {
                self.nested.push(region);
                return;
            }
            // Not nested: the open regions, in arrival order, go to the general structure.
            self.general = true;
            for open in std::mem::take(&mut self.nested) {
                self.push_general(open);
            }
        }
        self.push_general(region);
    }

    fn push_general(&mut self, region: SegRegion) {
        let arrival = self.arrived.len();
        self.arrived.push((region, true));
        self.by_end.push(Reverse((region.end, arrival)));
        self.stack.push(arrival);
    }

    /// The most recently opened region still open (the top of LLVM's vector).
    fn last(&mut self) -> Option<SegRegion> {
        if !self.general {
            return self.nested.last().copied();
        }
        while let Some(&arrival) = self.stack.last() {
            match self.arrived.get(arrival) {
                Some(&(region, true)) => return Some(region),
                _ => self.stack.pop(),
            };
        }
        None
    }

    /// In the general shape, takes out the regions that end at or before `loc` (all of them
    /// for `None`) and appends them to `done`, sorted by end and, for equal ends, by arrival.
    fn take_ending_by(&mut self, loc: Option<Loc>, done: &mut Vec<SegRegion>) {
        while let Some(&Reverse((end, arrival))) = self.by_end.peek() {
            if loc.is_some_and(|loc| end > loc) {
                break;
            }
            self.by_end.pop();
            let closed = self.arrived.get_mut(arrival).map(|entry| {
                entry.1 = false;
                entry.0
            });
            done.extend(closed);
        }
    }
}

/// The state of LLVM's `SegmentBuilder`: segments so far and the regions still open.
#[derive(Debug)]
struct Builder {
    segments: Vec<Segment>,
    active: Active,
    /// Scratch for the regions each step completes (kept to reuse its memory).
    completed: Vec<SegRegion>,
    rule: LineRule,
}

impl Default for Builder {
    fn default() -> Builder {
        Builder {
            segments: Vec::new(),
            active: Active::default(),
            completed: Vec::new(),
            rule: LineRule::Legacy,
        }
    }
}

impl Builder {
    /// LLVM `SegmentBuilder::buildSegments`: sort, merge same-area regions (both in `regions`,
    /// in place), and emit the segments into `self.segments` (the builder's previous segments
    /// and state are dropped, their room kept).
    fn build_segments(&mut self, regions: &mut Vec<SegRegion>, rule: LineRule) {
        sort_nested(regions);
        combine(regions);
        self.segments.clear();
        self.active.clear();
        self.rule = rule;
        self.build(regions);
    }

    /// `buildSegmentsImpl`.
    fn build(&mut self, regions: &[SegRegion]) {
        let mut rest = regions.iter().peekable();
        while let Some(&region) = rest.next() {
            let next_start = rest.peek().map(|next| next.start);
            if self.active.closes_by(region.start) {
                self.close_regions_ending_by(Some(region.start));
            }
            let is_gap = region.kind == SegmentKind::Gap;
            if region.start == region.end {
                self.zero_length(region, next_start.is_none());
                continue;
            }
            if next_start != Some(region.start) {
                // Emit a segment unless the next region starts at the same place.
                self.start_segment(region, region.start, !is_gap, false);
            }
            self.active.push(region);
        }
        self.close_regions_ending_by(None);
    }

    /// Takes out the active regions that end at or before `loc` (all of them for `None`) and
    /// completes them.
    fn close_regions_ending_by(&mut self, loc: Option<Loc>) {
        if !self.active.general {
            self.close_nested(loc);
            return;
        }
        self.completed.clear();
        self.active.take_ending_by(loc, &mut self.completed);
        if !self.completed.is_empty() {
            let completed = std::mem::take(&mut self.completed);
            self.complete_regions_until(loc, &completed);
            self.completed = completed;
        }
    }

    /// [`Builder::close_regions_ending_by`] in the nested shape, where the open regions are a
    /// stack ordered by end: those that close are its top, and they complete (sorted by end,
    /// then arrival) in runs of equal ends from the top down, each run in arrival order. The
    /// segments are emitted straight from the stack: what [`Builder::emit_completed`] and
    /// [`Builder::complete_regions_until`] emit for those completed regions.
    fn close_nested(&mut self, loc: Option<Loc>) {
        let nested = &mut self.active.nested;
        let open = nested
            .iter()
            .rposition(|region| loc.is_some_and(|loc| region.end > loc))
            .map_or(0, |last_open| last_open + 1);
        // The last (in arrival order: the topmost) region of the run met last, and its end.
        let mut last: Option<SegRegion> = None;
        for &region in nested.get(open..).unwrap_or_default().iter().rev() {
            match last {
                Some(run) if run.end == region.end => {}
                _ => {
                    // A new run: its topmost region's count takes over where the previous
                    // run ended.
                    if let Some(run) = last {
                        start_segment(&mut self.segments, region, run.end, false, false);
                    }
                    last = Some(region);
                }
            }
        }
        nested.truncate(open);
        let enclosing = nested.last().copied();
        self.complete_tail(loc, enclosing, last);
    }

    /// A zero-length region is never made active: it marks its start with the count of the
    /// region around it (or is skipped when it is the last region; since LLVM 19 also when it is
    /// a skipped region, after which the surrounding count resumes at once).
    fn zero_length(&mut self, region: SegRegion, is_last: bool) {
        let is_gap = region.kind == SegmentKind::Gap;
        let current = self.rule == LineRule::Current;
        let skipped = is_last || (current && region.kind == SegmentKind::Skipped);
        let around = self.active.last();
        self.start_segment(around.unwrap_or(region), region.start, !is_gap, skipped);
        if let (true, true, Some(around)) = (current, skipped, around) {
            self.start_segment(around, region.start, false, false);
        }
    }

    /// `startSegment`: emits a segment at `loc` with `region`'s count, unless it would change
    /// nothing.
    fn start_segment(&mut self, region: SegRegion, loc: Loc, is_region_entry: bool, skip: bool) {
        start_segment(&mut self.segments, region, loc, is_region_entry, skip);
    }

    /// `completeRegionsUntil`: emits the segments where the `completed` regions (taken out of the
    /// active ones, sorted by end, then arrival) end. `loc` is where the next region starts
    /// (`None`: the end).
    fn complete_regions_until(&mut self, loc: Option<Loc>, completed: &[SegRegion]) {
        self.emit_completed(completed);
        let enclosing = self.active.last();
        self.complete_tail(loc, enclosing, completed.last().copied());
    }

    /// The end of `completeRegionsUntil`, once the last completed region is `last` (none: no
    /// region completed) and the innermost region still open is `enclosing`.
    #[inline]
    fn complete_tail(
        &mut self,
        loc: Option<Loc>,
        enclosing: Option<SegRegion>,
        last: Option<SegRegion>,
    ) {
        match (enclosing, last) {
            (Some(enclosing), Some(last)) if loc != Some(last.end) => {
                // A gap after the last completed region: the enclosing region's count resumes.
                self.start_segment(enclosing, last.end, false, false);
            }
            (None, Some(last)) if loc != Some(last.end) => {
                // Nothing is active any more: mark the end as skipped.
                self.start_segment(last, last.end, false, true);
            }
            _ => {}
        }
    }

    /// The closing segments between completed regions, sorted by end.
    ///
    /// LLVM also stops at the first completed region that ends where the next region starts;
    /// every completed region after it ends there too (they end in order, none after that
    /// start), so they form the last run of equal ends, which emits nothing after its start.
    fn emit_completed(&mut self, completed: &[SegRegion]) {
        // LLVM uses the count of the last completed region that ends where this one does; with
        // regions sorted by end, that is the last of its run of equal ends. Where a run starts,
        // a segment at the previous run's end takes that count.
        let lasts = completed
            .chunk_by(|a, b| a.end == b.end)
            .filter_map(<[SegRegion]>::last);
        let mut previous_end = None;
        for &last in lasts {
            if let Some(end) = previous_end {
                self.start_segment(last, end, false, false);
            }
            previous_end = Some(last.end);
        }
    }
}

/// `startSegment`: appends a segment at `loc` with `region`'s count to `segments`, unless it
/// would change nothing.
#[inline]
fn start_segment(
    segments: &mut Vec<Segment>,
    region: SegRegion,
    loc: Loc,
    is_region_entry: bool,
    skip: bool,
) {
    let has_count = !skip && region.kind != SegmentKind::Skipped;
    if !is_region_entry && !skip {
        if let Some(last) = segments.last() {
            if last.has_count == has_count && last.count == region.count && !last.is_region_entry {
                return;
            }
        }
    }
    let (line, col) = line_col(loc);
    segments.push(Segment {
        line,
        col,
        count: if has_count { region.count } else { 0 },
        has_count,
        is_region_entry,
        is_gap: has_count && region.kind == SegmentKind::Gap,
    });
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "segments_tests.rs"]
mod tests;
