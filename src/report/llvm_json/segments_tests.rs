//! Tests of the segment builder ([`super`]) and of the line summary over its segments.

use crate::model::{Counts, LineRange};

use super::super::lines::{summarize_lines, LineSummary, LineTally};
use super::*;

fn code(start: (u32, u32), end: (u32, u32), count: u64) -> SegRegion {
    SegRegion {
        start: loc(start),
        end: loc(end),
        count,
        kind: SegmentKind::Code,
    }
}

fn of_kind(kind: SegmentKind, start: (u32, u32), end: (u32, u32), count: u64) -> SegRegion {
    SegRegion {
        start: loc(start),
        end: loc(end),
        count,
        kind,
    }
}

fn lines(regions: Vec<SegRegion>, rule: LineRule) -> (Counts, Vec<(u32, u32)>) {
    let summary = line_summary(regions, rule, true);
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
        summarize(&segments, LineRule::Legacy),
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

/// The segments of `regions` (sorted and combined first), as [`line_summary`] builds them.
fn build_segments(mut regions: Vec<SegRegion>, rule: LineRule) -> Vec<Segment> {
    let mut builder = Builder::default();
    builder.build_segments(&mut regions, rule);
    builder.segments
}

/// The line summary of `segments`, covered ranges included.
fn summarize(segments: &[Segment], rule: LineRule) -> LineSummary {
    summarize_lines(segments, rule, &mut LineTally::default(), true)
}

/// The segment builder against the `segments` that llvm-cov itself wrote for every file of the
/// test fixtures: a file's segments are built from the regions of every record in that file
/// (LLVM `getCoverageForFile`), with LLVM 14's builder for 2.0.1 exports without MC/DC keys and
/// LLVM 22's for the others.
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
                        start: loc((small(&r[0]), small(&r[1]))),
                        end: loc((small(&r[2]), small(&r[3]))),
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
            combine(&mut regions);
            let combined = regions;
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
                line: line_col(loc).0,
                col: line_col(loc).1,
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
                    start: loc(start),
                    end: loc(end),
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
                start: loc((1 + i, 1)),
                end: loc((2 * n - i, 9)),
                count: u64::from(i % 2),
                kind: SegmentKind::Code,
            })
            .collect();
        let started = std::time::Instant::now();
        let summary = line_summary(regions, LineRule::Current, false);
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
