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
//! backward pass.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::model::Counts;

use super::LineRange;

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

/// A (line, column) location; tuples order as LLVM's `LineColPair`.
type Loc = (u32, u32);

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
struct Segment {
    line: u32,
    col: u32,
    count: u64,
    has_count: bool,
    is_region_entry: bool,
    is_gap: bool,
}

/// The line statistics of one record.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct LineSummary {
    /// Mapped lines, and those with a count above 0.
    pub counts: Counts,
    /// Mapped lines with count 0, as sorted, disjoint ranges.
    pub uncovered: Vec<LineRange>,
    /// Mapped lines with a count above 0, as sorted, disjoint ranges.
    pub covered: Vec<LineRange>,
}

/// Computes the line coverage of one record from its main-file regions.
pub(super) fn line_summary(regions: Vec<SegRegion>, rule: LineRule) -> LineSummary {
    let segments = build_segments(regions, rule);
    summarize_lines(&segments, rule)
}

/// LLVM `SegmentBuilder::buildSegments`: sort, merge same-area regions, emit segments.
fn build_segments(mut regions: Vec<SegRegion>, rule: LineRule) -> Vec<Segment> {
    sort_nested(&mut regions);
    let combined = combine(regions);
    let mut builder = Builder {
        segments: Vec::with_capacity(combined.len() * 2),
        active: Active::with_capacity(combined.len()),
        completed: Vec::new(),
        rule,
    };
    builder.build(&combined);
    builder.segments
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
fn combine(mut regions: Vec<SegRegion>) -> Vec<SegRegion> {
    regions.dedup_by(|region, active| {
        let same_area = active.start == region.start && active.end == region.end;
        if same_area && active.kind == region.kind {
            active.count = active.count.saturating_add(region.count);
        }
        same_area
    });
    regions
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
    /// Room for `regions` regions of the nested shape without growing.
    fn with_capacity(regions: usize) -> Active {
        Active {
            nested: Vec::with_capacity(regions),
            ..Active::default()
        }
    }

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

    /// Takes out the regions that end at or before `loc` (all of them for `None`) and appends
    /// them to `done`, sorted by end and, for equal ends, by arrival.
    fn take_ending_by(&mut self, loc: Option<Loc>, done: &mut Vec<SegRegion>) {
        if !self.general {
            // Those still open are the bottom of the stack; the top, latest end first, closes:
            // runs of equal ends from the top down, each in arrival order.
            let open = self
                .nested
                .iter()
                .rposition(|region| loc.is_some_and(|loc| region.end > loc))
                .map_or(0, |last_open| last_open + 1);
            let closed = self.nested.get(open..).unwrap_or_default();
            for run in closed.chunk_by(|a, b| a.end == b.end).rev() {
                done.extend_from_slice(run);
            }
            self.nested.truncate(open);
            return;
        }
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
struct Builder {
    segments: Vec<Segment>,
    active: Active,
    /// Scratch for the regions each step completes (kept to reuse its memory).
    completed: Vec<SegRegion>,
    rule: LineRule,
}

impl Builder {
    /// `buildSegmentsImpl`.
    fn build(&mut self, regions: &[SegRegion]) {
        let mut rest = regions.iter().peekable();
        while let Some(&region) = rest.next() {
            let next_start = rest.peek().map(|next| next.start);
            self.close_regions_ending_by(Some(region.start));
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
        self.completed.clear();
        self.active.take_ending_by(loc, &mut self.completed);
        if !self.completed.is_empty() {
            let completed = std::mem::take(&mut self.completed);
            self.complete_regions_until(loc, &completed);
            self.completed = completed;
        }
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
        let has_count = !skip && region.kind != SegmentKind::Skipped;
        if !is_region_entry && !skip {
            if let Some(last) = self.segments.last() {
                if last.has_count == has_count
                    && last.count == region.count
                    && !last.is_region_entry
                {
                    return;
                }
            }
        }
        self.segments.push(Segment {
            line: loc.0,
            col: loc.1,
            count: if has_count { region.count } else { 0 },
            has_count,
            is_region_entry,
            is_gap: has_count && region.kind == SegmentKind::Gap,
        });
    }

    /// `completeRegionsUntil`: emits the segments where the `completed` regions (taken out of the
    /// active ones, sorted by end, then arrival) end. `loc` is where the next region starts
    /// (`None`: the end).
    fn complete_regions_until(&mut self, loc: Option<Loc>, completed: &[SegRegion]) {
        self.emit_completed(completed);
        // Callers complete at least one region; with none there would be nothing to close.
        match (self.active.last(), completed.last().copied()) {
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

/// `LineCoverageIterator` + `LineCoverageStats` over the segments: every line from the first
/// segment's line to the last one's.
fn summarize_lines(segments: &[Segment], rule: LineRule) -> LineSummary {
    let mut tally = LineTally::default();
    let Some(first) = segments.first() else {
        return tally.finish();
    };
    let mut line = first.line;
    let mut wrapped: Option<Segment> = None;
    let mut rest = segments;
    while let Some(next) = rest.first() {
        if next.line > line {
            // Lines without segments: the wrapped segment alone decides them.
            let count = wrapped.filter(|w| w.has_count).map(|w| w.count);
            tally.add_lines(line, next.line.saturating_sub(1), count);
            line = next.line;
        }
        // Segments out of order (never in real exports) are taken as part of this line.
        let on_line = rest.iter().take_while(|s| s.line <= line).count().max(1);
        let (current, after) = rest.split_at(on_line.min(rest.len()));
        tally.add_lines(line, line, line_count(current, wrapped.as_ref(), rule));
        wrapped = current.last().copied().or(wrapped);
        rest = after;
        line = line.saturating_add(1);
    }
    tally.finish()
}

/// `LineCoverageStats`: `None` when the line is not mapped, else its count.
fn line_count(on_line: &[Segment], wrapped: Option<&Segment>, rule: LineRule) -> Option<u64> {
    let is_start = |s: &&Segment| !s.is_gap && s.has_count && s.is_region_entry;
    let starts = on_line.iter().filter(is_start).count();
    let starts_skipped = on_line
        .first()
        .is_some_and(|s| !s.has_count && s.is_region_entry);
    let wrapped_counts = wrapped.is_some_and(|w| w.has_count);
    let mut mapped = !starts_skipped && (wrapped_counts || starts > 0);
    if rule == LineRule::Current {
        mapped |= on_line.iter().any(|s| s.is_region_entry && s.has_count);
    }
    if !mapped {
        return None;
    }
    let wrapped_count = wrapped.map_or(0, |w| w.count);
    let entries = on_line.iter().filter(is_start).map(|s| s.count);
    Some(entries.fold(wrapped_count, u64::max))
}

/// Appends `start..=end` to sorted ranges, extending the last one when adjacent.
fn add_range(ranges: &mut Vec<LineRange>, start: u32, end: u32) {
    match ranges.last_mut() {
        Some(last) if last.end.checked_add(1) == Some(start) => last.end = end,
        _ => ranges.push(LineRange { start, end }),
    }
}

/// Accumulates mapped lines and the ranges of uncovered and covered ones.
#[derive(Default)]
struct LineTally {
    summary: LineSummary,
}

impl LineTally {
    /// Adds lines `start..=end`, all with the same `count` (`None`: not mapped).
    fn add_lines(&mut self, start: u32, end: u32, count: Option<u64>) {
        let Some(count) = count else {
            return;
        };
        let lines = u64::from(end.saturating_sub(start)) + 1;
        let covered = if count > 0 { lines } else { 0 };
        let counts = &mut self.summary.counts;
        *counts = *counts + Counts::new(covered, lines);
        let ranges = if count == 0 {
            &mut self.summary.uncovered
        } else {
            &mut self.summary.covered
        };
        add_range(ranges, start, end);
    }

    fn finish(self) -> LineSummary {
        self.summary
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    fn code(start: Loc, end: Loc, count: u64) -> SegRegion {
        SegRegion {
            start,
            end,
            count,
            kind: SegmentKind::Code,
        }
    }

    fn of_kind(kind: SegmentKind, start: Loc, end: Loc, count: u64) -> SegRegion {
        SegRegion {
            start,
            end,
            count,
            kind,
        }
    }

    fn lines(regions: Vec<SegRegion>, rule: LineRule) -> (Counts, Vec<(u32, u32)>) {
        let summary = line_summary(regions, rule);
        let ranges = summary.uncovered.iter().map(|r| (r.start, r.end)).collect();
        (summary.counts, ranges)
    }

    #[test]
    fn empty_record_has_no_lines() {
        assert_eq!(
            lines(vec![], LineRule::Current),
            (Counts::new(0, 0), vec![])
        );
    }

    #[test]
    fn one_function_with_a_branch_never_taken() {
        // fn f(x) {        line 1, count 1
        //     if x {       line 2
        //         a();     line 3, count 0
        //     }            line 4, count 0 (the body's `}`), then a gap, then back to 1
        // }                line 5
        let regions = vec![
            code((1, 1), (5, 2), 1),
            code((2, 8), (2, 9), 1),
            code((2, 10), (4, 6), 0),
            of_kind(SegmentKind::Gap, (4, 6), (4, 7), 0),
        ];
        let (counts, uncovered) = lines(regions, LineRule::Legacy);
        assert_eq!(counts, Counts::new(3, 5));
        assert_eq!(uncovered, vec![(3, 4)]);
    }

    #[test]
    fn lines_between_segments_follow_the_wrapped_count() {
        let regions = vec![code((10, 1), (40, 2), 3)];
        let (counts, uncovered) = lines(regions, LineRule::Current);
        assert_eq!(counts, Counts::new(31, 31));
        assert!(uncovered.is_empty());
        let (counts, uncovered) = lines(vec![code((10, 1), (40, 2), 0)], LineRule::Current);
        assert_eq!(counts, Counts::new(0, 31));
        assert_eq!(uncovered, vec![(10, 40)]);
    }

    #[test]
    fn skipped_region_at_line_start_unmaps_the_line() {
        let regions = vec![
            code((1, 1), (6, 2), 1),
            of_kind(SegmentKind::Skipped, (3, 1), (4, 7), 0),
        ];
        // Line 3 starts with the skipped region; line 4 only has the non-entry segment where
        // the code count resumes (4:7) and wraps the skipped one, so it is not mapped either.
        for rule in [LineRule::Legacy, LineRule::Current] {
            assert_eq!(lines(regions.clone(), rule).0, Counts::new(4, 4));
        }
    }

    #[test]
    fn the_newer_rule_maps_a_line_holding_a_counted_entry_after_a_skipped_start() {
        // Line 3 starts with a skipped region, then a code region with a count starts on it.
        let regions = vec![
            code((1, 1), (6, 2), 1),
            of_kind(SegmentKind::Skipped, (3, 1), (3, 5), 0),
            code((3, 6), (3, 9), 1),
        ];
        let (legacy, _) = lines(regions.clone(), LineRule::Legacy);
        let (current, _) = lines(regions, LineRule::Current);
        assert_eq!(legacy.total + 1, current.total);
    }

    #[test]
    fn zero_length_skipped_region_differs_between_rules() {
        let regions = vec![
            code((1, 1), (3, 2), 2),
            of_kind(SegmentKind::Skipped, (2, 5), (2, 5), 0),
        ];
        let (legacy, _) = lines(regions.clone(), LineRule::Legacy);
        let (current, _) = lines(regions, LineRule::Current);
        // Legacy: the skipped mark at 2:5 swallows the count for the rest of the function.
        assert_eq!(legacy, Counts::new(1, 1));
        // Current: the count resumes right after the mark, so line 3 is mapped again.
        assert_eq!(current, Counts::new(2, 2));
    }

    #[test]
    fn same_area_regions_of_one_kind_add_up() {
        let regions = vec![code((1, 1), (1, 9), 0), code((1, 1), (1, 9), 2)];
        assert_eq!(lines(regions, LineRule::Current).0, Counts::new(1, 1));
    }

    #[test]
    fn branch_and_mcdc_kinds_take_no_part() {
        assert_eq!(SegmentKind::from_kind(3), Some(SegmentKind::Gap));
        for kind in [4, 5, 6, u32::MAX] {
            assert_eq!(SegmentKind::from_kind(kind), None, "{kind}");
        }
    }

    #[test]
    fn same_area_regions_of_another_kind_keep_the_first_count() {
        // The code region sorts first; the gap over the same area adds nothing to it.
        let regions = vec![
            of_kind(SegmentKind::Gap, (1, 1), (1, 9), 5),
            code((1, 1), (1, 9), 0),
        ];
        assert_eq!(
            lines(regions, LineRule::Current),
            (Counts::new(0, 1), vec![(1, 1)])
        );
    }

    #[test]
    fn a_record_starting_with_a_gap_opens_with_a_non_entry_segment() {
        let segments = build_segments(
            vec![of_kind(SegmentKind::Gap, (1, 1), (2, 1), 3)],
            LineRule::Legacy,
        );
        let at = |line, col, count, has_count, is_gap| Segment {
            line,
            col,
            count,
            has_count,
            is_region_entry: false,
            is_gap,
        };
        assert_eq!(
            segments,
            vec![at(1, 1, 3, true, true), at(2, 1, 0, false, false)]
        );
        // Line 1 holds no region entry; line 2 is wrapped by the gap's count.
        assert_eq!(
            summarize_lines(&segments, LineRule::Legacy),
            LineSummary {
                counts: Counts::new(1, 1),
                uncovered: vec![],
                covered: vec![LineRange { start: 2, end: 2 }],
            }
        );
    }

    #[test]
    fn regions_ending_where_the_next_starts_close_without_segments() {
        // 1:1–5:1 (count 1) holds 2:1–5:1 (count 0); both end where 5:1–6:1 starts.
        let regions = vec![
            code((1, 1), (5, 1), 1),
            code((2, 1), (5, 1), 0),
            code((5, 1), (6, 1), 4),
        ];
        let entry = |line, count| Segment {
            line,
            col: 1,
            count,
            has_count: true,
            is_region_entry: true,
            is_gap: false,
        };
        let end = Segment {
            line: 6,
            col: 1,
            count: 0,
            has_count: false,
            is_region_entry: false,
            is_gap: false,
        };
        assert_eq!(
            build_segments(regions.clone(), LineRule::Current),
            vec![entry(1, 1), entry(2, 0), entry(5, 4), end]
        );
        assert_eq!(
            lines(regions, LineRule::Current),
            (Counts::new(4, 6), vec![(3, 4)])
        );
    }

    #[test]
    fn overlapping_garbage_does_not_panic() {
        let regions = vec![
            code((5, 1), (2, 1), 1),
            code((1, 1), (9, 9), 0),
            code((3, 3), (3, 3), 4),
            of_kind(
                SegmentKind::Gap,
                (u32::MAX, u32::MAX),
                (u32::MAX, u32::MAX),
                1,
            ),
            code((0, 0), (u32::MAX, 0), 7),
        ];
        let _ = lines(regions.clone(), LineRule::Legacy);
        let _ = lines(regions, LineRule::Current);
    }
}

/// The segment builder against the `segments` that llvm-cov itself wrote for every file of the
/// test fixtures: a file's segments are built from the regions of every record in that file
/// (LLVM `getCoverageForFile`), with LLVM 14's builder for 2.0.1 exports without MC/DC keys and
/// LLVM 22's for the others.
#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod fixture_tests {
    use std::path::Path;

    use serde_json::Value;

    use super::*;

    const EXPORTS: &[&str] = &[
        "llvm/c2_llvm14.json",
        "llvm/c2_llvm22.json",
        "llvm/c3_macroheader_llvm14.json",
        "llvm/c3_macroheader_llvm22.json",
        "llvm/c_llvm14.json",
        "llvm/c_llvm22.json",
        "llvm/folded_nightly_branch.json",
        "llvm/tricky_nightly_branch.json",
        "llvm/tricky_stable_raw_noignore.json",
        "real/semver.json",
        "real/walkdir.branch.json",
    ];

    fn load(rel: &str) -> Value {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(rel);
        let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        serde_json::from_slice(&text).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    fn num(value: &Value) -> u64 {
        value
            .as_u64()
            .or_else(|| value.as_f64().map(|f| f as u64))
            .unwrap_or_else(|| panic!("not a count: {value}"))
    }

    fn small(value: &Value) -> u32 {
        u32::try_from(num(value)).unwrap_or_else(|_| panic!("too big: {value}"))
    }

    fn file_regions(functions: &[Value], filename: &str) -> Vec<SegRegion> {
        let mut regions = Vec::new();
        for record in functions {
            let names = record["filenames"].as_array().expect("filenames");
            for region in record["regions"].as_array().expect("regions") {
                let r = region.as_array().expect("region");
                let in_file = names.get(num(&r[5]) as usize).and_then(Value::as_str);
                let Some(kind) = SegmentKind::from_kind(small(&r[7])) else {
                    continue;
                };
                if in_file == Some(filename) {
                    regions.push(SegRegion {
                        start: (small(&r[0]), small(&r[1])),
                        end: (small(&r[2]), small(&r[3])),
                        count: num(&r[4]),
                        kind,
                    });
                }
            }
        }
        regions
    }

    fn written_segments(file: &Value) -> Vec<Segment> {
        let flag = |s: &[Value], i: usize| s.get(i).and_then(Value::as_bool).unwrap_or(false);
        file["segments"]
            .as_array()
            .expect("segments")
            .iter()
            .map(|s| {
                let s = s.as_array().expect("segment");
                Segment {
                    line: small(&s[0]),
                    col: small(&s[1]),
                    count: num(&s[2]),
                    has_count: flag(s, 3),
                    is_region_entry: flag(s, 4),
                    is_gap: flag(s, 5),
                }
            })
            .collect()
    }

    #[test]
    fn builder_reproduces_the_segments_llvm_cov_wrote() {
        let mut files = 0;
        for rel in EXPORTS {
            let doc = load(rel);
            for export in doc["data"].as_array().expect("data") {
                let functions = export["functions"].as_array().expect("functions");
                let rule = if functions.iter().any(|f| f.get("mcdc_records").is_some()) {
                    LineRule::Current
                } else {
                    LineRule::Legacy
                };
                for file in export["files"].as_array().expect("files") {
                    let name = file["filename"].as_str().expect("filename");
                    let built = build_segments(file_regions(functions, name), rule);
                    assert_eq!(built, written_segments(file), "{rel}: {name}");
                    files += 1;
                }
            }
        }
        assert_eq!(files, 35);
    }
}

/// The O(n log n) builder against a direct port of LLVM's quadratic one (a vector of active
/// regions, stable-partitioned at every region; a look-ahead per completed region), on random
/// regions with many equal starts and ends.
#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod reference_tests {
    use proptest::prelude::*;

    use super::*;

    /// LLVM's `SegmentBuilder`, as covgate ported it before the O(n log n) rewrite.
    struct Reference {
        segments: Vec<Segment>,
        active: Vec<SegRegion>,
        rule: LineRule,
    }

    impl Reference {
        fn segments(mut regions: Vec<SegRegion>, rule: LineRule) -> Vec<Segment> {
            sort_nested(&mut regions);
            let combined = combine(regions);
            let mut builder = Reference {
                segments: Vec::new(),
                active: Vec::new(),
                rule,
            };
            let mut rest = combined.iter().peekable();
            while let Some(&region) = rest.next() {
                let next_start = rest.peek().map(|next| next.start);
                builder.close_regions_ending_by(region.start);
                let is_gap = region.kind == SegmentKind::Gap;
                if region.start == region.end {
                    builder.zero_length(region, next_start.is_none());
                    continue;
                }
                if next_start != Some(region.start) {
                    builder.start_segment(region, region.start, !is_gap, false);
                }
                builder.active.push(region);
            }
            if !builder.active.is_empty() {
                builder.complete_regions_until(None, 0);
            }
            builder.segments
        }

        fn close_regions_ending_by(&mut self, loc: Loc) {
            let (open, done): (Vec<SegRegion>, Vec<SegRegion>) =
                self.active.iter().partition(|active| active.end > loc);
            if done.is_empty() {
                return;
            }
            let first_completed = open.len();
            self.active = open;
            self.active.extend(done);
            self.complete_regions_until(Some(loc), first_completed);
        }

        fn zero_length(&mut self, region: SegRegion, is_last: bool) {
            let is_gap = region.kind == SegmentKind::Gap;
            let current = self.rule == LineRule::Current;
            let skipped = is_last || (current && region.kind == SegmentKind::Skipped);
            let around = self.active.last().copied();
            self.start_segment(around.unwrap_or(region), region.start, !is_gap, skipped);
            if let (true, true, Some(around)) = (current, skipped, around) {
                self.start_segment(around, region.start, false, false);
            }
        }

        fn start_segment(&mut self, region: SegRegion, loc: Loc, entry: bool, skip: bool) {
            let has_count = !skip && region.kind != SegmentKind::Skipped;
            if !entry && !skip {
                if let Some(last) = self.segments.last() {
                    if last.has_count == has_count
                        && last.count == region.count
                        && !last.is_region_entry
                    {
                        return;
                    }
                }
            }
            self.segments.push(Segment {
                line: loc.0,
                col: loc.1,
                count: if has_count { region.count } else { 0 },
                has_count,
                is_region_entry: entry,
                is_gap: has_count && region.kind == SegmentKind::Gap,
            });
        }

        fn complete_regions_until(&mut self, loc: Option<Loc>, first_completed: usize) {
            let mut completed = self.active.split_off(first_completed);
            completed.sort_by_key(|region| region.end);
            let pairs = completed.iter().zip(completed.iter().skip(1));
            for (index, (&prev, &region)) in pairs.enumerate() {
                let mut region = region;
                let segment_loc = prev.end;
                if segment_loc == region.end {
                    continue;
                }
                for later in completed.iter().skip(index + 2) {
                    if later.end == region.end {
                        region = *later;
                    }
                }
                self.start_segment(region, segment_loc, false, false);
            }
            match (self.active.last().copied(), completed.last().copied()) {
                (Some(enclosing), Some(last)) if loc != Some(last.end) => {
                    self.start_segment(enclosing, last.end, false, false);
                }
                (None, Some(last)) if loc != Some(last.end) => {
                    self.start_segment(last, last.end, false, true);
                }
                _ => {}
            }
        }
    }

    fn region() -> impl Strategy<Value = SegRegion> {
        (1u32..6, 1u32..4, 0u32..3, 1u32..4, 0u64..3, 0u8..4).prop_map(
            |(line, col, lines, end_col, count, kind)| {
                let start = (line, col);
                let end = std::cmp::max(start, (line + lines, end_col));
                let kind = match kind {
                    0 => SegmentKind::Code,
                    1 => SegmentKind::Expansion,
                    2 => SegmentKind::Skipped,
                    _ => SegmentKind::Gap,
                };
                SegRegion {
                    start,
                    end,
                    count,
                    kind,
                }
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn same_segments_as_llvms_quadratic_builder(
            regions in proptest::collection::vec(region(), 0..24),
        ) {
            for rule in [LineRule::Legacy, LineRule::Current] {
                prop_assert_eq!(
                    build_segments(regions.clone(), rule),
                    Reference::segments(regions.clone(), rule)
                );
            }
        }
    }

    #[test]
    fn a_hundred_thousand_nested_regions_take_no_time() {
        let n = 100_000u32;
        let regions: Vec<SegRegion> = (0..n)
            .map(|i| SegRegion {
                start: (1 + i, 1),
                end: (2 * n - i, 9),
                count: u64::from(i % 2),
                kind: SegmentKind::Code,
            })
            .collect();
        let started = std::time::Instant::now();
        let summary = line_summary(regions, LineRule::Current);
        assert_eq!(summary.counts.total, u64::from(2 * n));
        // A guard against quadratic time (which takes minutes here), not a benchmark: the bound
        // is loose so a busy CI machine passes it.
        assert!(
            started.elapsed().as_secs_f64() < 20.0,
            "{:?}",
            started.elapsed()
        );
    }
}
