//! LLVM's `LineCoverageIterator` and `LineCoverageStats` (`lib/ProfileData/Coverage/
//! CoverageMapping.cpp`) over the segments of one record ([`super::segments`]): every line from
//! the first segment's line to the last one's is mapped or not, with a count.
//!
//! One pass over the segments, taking each line's segments as they come; lines without a segment
//! are classified as a run (the segment that wraps them alone decides them).

use crate::model::{Counts, LineRange};

use super::segments::{LineRule, Segment};

/// The line statistics of one record.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct LineSummary {
    /// Mapped lines, and those with a count above 0.
    pub counts: Counts,
    /// Mapped lines with count 0, as sorted, disjoint ranges.
    pub uncovered: Vec<LineRange>,
    /// Mapped lines with a count above 0, as sorted, disjoint ranges (left empty unless asked
    /// for).
    pub covered: Vec<LineRange>,
}

/// What the segments starting on one line say (`LineCoverageStats`' inputs).
#[derive(Clone, Copy)]
struct OnLine {
    /// The first segment on the line is a region entry without a count (a skipped region).
    starts_skipped: bool,
    /// Non-gap region entries with a count on the line, and the largest of their counts.
    starts: bool,
    largest_start: u64,
    /// A region entry with a count (gap or not) is on the line.
    any_entry: bool,
}

impl OnLine {
    /// The line whose first segment is `first`.
    fn new(first: &Segment) -> OnLine {
        let mut line = OnLine {
            starts_skipped: !first.has_count && first.is_region_entry,
            starts: false,
            largest_start: 0,
            any_entry: false,
        };
        line.add(first);
        line
    }

    /// Takes in one more segment of the line.
    fn add(&mut self, segment: &Segment) {
        let entry = segment.has_count & segment.is_region_entry;
        self.any_entry |= entry;
        if entry & !segment.is_gap {
            self.starts = true;
            self.largest_start = self.largest_start.max(segment.count);
        }
    }

    /// `LineCoverageStats`: `None` when the line is not mapped, else its count.
    fn count(&self, wrapped: Option<&Segment>, rule: LineRule) -> Option<u64> {
        let wrapped_counts = wrapped.is_some_and(|w| w.has_count);
        let mut mapped = !self.starts_skipped && (wrapped_counts || self.starts);
        mapped |= rule == LineRule::Current && self.any_entry;
        let wrapped_count = wrapped.map_or(0, |w| w.count);
        mapped.then_some(wrapped_count.max(self.largest_start))
    }
}

/// `LineCoverageIterator` + `LineCoverageStats` over the segments: every line from the first
/// segment's line to the last one's, tallied in `tally` (emptied first; its room is reused).
/// The covered ranges are copied out only with `keep_covered`.
pub(super) fn summarize_lines(
    segments: &[Segment],
    rule: LineRule,
    tally: &mut LineTally,
    keep_covered: bool,
) -> LineSummary {
    tally.clear();
    let mut line = segments.first().map_or(0, |first| first.line);
    let mut wrapped: Option<&Segment> = None;
    let mut rest = segments.iter().peekable();
    while let Some(first) = rest.next() {
        if first.line > line {
            // Lines without segments: the wrapped segment alone decides them.
            let count = wrapped.filter(|w| w.has_count).map(|w| w.count);
            tally.add_lines(line, first.line.saturating_sub(1), count);
            line = first.line;
        }
        // Segments out of order (never in real exports) are taken as part of this line.
        let mut on_line = OnLine::new(first);
        let mut last = first;
        while let Some(segment) = rest.next_if(|s| s.line <= line) {
            on_line.add(segment);
            last = segment;
        }
        tally.add_lines(line, line, on_line.count(wrapped, rule));
        wrapped = Some(last);
        line = line.saturating_add(1);
    }
    tally.summary(keep_covered)
}

/// Appends `start..=end` to sorted ranges, extending the last one when adjacent.
fn add_range(ranges: &mut Vec<LineRange>, start: u32, end: u32) {
    match ranges.last_mut() {
        Some(last) if last.end.checked_add(1) == Some(start) => last.end = end,
        _ => ranges.push(LineRange { start, end }),
    }
}

/// Accumulates mapped lines and the ranges of uncovered and covered ones (buffers reused from
/// record to record).
#[derive(Debug, Default)]
pub(super) struct LineTally {
    counts: Counts,
    uncovered: Vec<LineRange>,
    covered: Vec<LineRange>,
}

impl LineTally {
    /// Empties the tally, keeping its room.
    fn clear(&mut self) {
        self.counts = Counts::default();
        self.uncovered.clear();
        self.covered.clear();
    }

    /// Adds lines `start..=end`, all with the same `count` (`None`: not mapped).
    fn add_lines(&mut self, start: u32, end: u32, count: Option<u64>) {
        let Some(count) = count else {
            return;
        };
        let lines = u64::from(end.saturating_sub(start)) + 1;
        let covered = if count > 0 { lines } else { 0 };
        self.counts = self.counts + Counts::new(covered, lines);
        let ranges = if count == 0 {
            &mut self.uncovered
        } else {
            &mut self.covered
        };
        add_range(ranges, start, end);
    }

    /// The summary so far, its ranges copied out at their exact size (the uncovered ones are
    /// kept to the end of the read).
    fn summary(&self, keep_covered: bool) -> LineSummary {
        LineSummary {
            counts: self.counts,
            uncovered: self.uncovered.clone(),
            covered: if keep_covered {
                self.covered.clone()
            } else {
                Vec::new()
            },
        }
    }
}
