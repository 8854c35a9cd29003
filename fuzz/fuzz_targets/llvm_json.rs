//! The llvm-cov JSON export reader on arbitrary bytes: it must return a report or an error,
//! never panic, hang or blow up memory; a report it returns must be internally consistent.
#![no_main]

use libfuzzer_sys::fuzz_target;

use covgate::model::LineRange;
use covgate::report::llvm_json;
use covgate::report::FileCoverage;

#[path = "common.rs"]
mod common;

/// Lines in sorted, disjoint, non-empty inclusive ranges.
fn range_lines(ranges: &[LineRange]) -> u64 {
    let mut total = 0u64;
    let mut last_end: Option<u32> = None;
    for r in ranges {
        assert!(r.start <= r.end, "range {r:?} runs backwards");
        if let Some(end) = last_end {
            assert!(r.start > end, "ranges overlap or are unsorted: {ranges:?}");
        }
        last_end = Some(r.end);
        total += u64::from(r.end - r.start) + 1;
    }
    total
}

fuzz_target!(|data: &[u8]| {
    let Ok(report) = llvm_json::read("fuzz.json", data) else {
        return;
    };
    for file in &report.files {
        let FileCoverage::Llvm(f) = &file.coverage else {
            panic!("a JSON export gave an LCOV file");
        };
        let s = f.summary;
        for (name, c) in [
            ("regions", s.regions),
            ("functions", s.functions),
            ("instantiations", s.instantiations),
            ("lines", s.lines),
            ("branches", s.branches),
        ] {
            common::assert_counts(name, c);
        }
        let Some(records) = &f.functions else {
            continue;
        };
        for r in records {
            common::assert_counts("record regions", r.regions);
            common::assert_counts("record lines", r.lines);
            common::assert_counts("record branches", r.branches);
            assert_eq!(
                r.uncovered_regions().len() + r.covered_region_lines().len(),
                r.regions.total as usize
            );
            assert_eq!(
                r.uncovered_branches().len() + r.covered_branch_lines().len(),
                r.branches.total as usize
            );
            assert_eq!(
                range_lines(&r.uncovered_lines()),
                r.lines.total - r.lines.covered
            );
            assert_eq!(range_lines(&r.covered_lines()), r.lines.covered);
        }
        let again = llvm_json::recompute(records);
        common::assert_counts("recomputed regions", again.regions);
        common::assert_counts("recomputed lines", again.lines);
        common::assert_counts("recomputed branches", again.branches);
        common::assert_counts("recomputed functions", again.functions);
    }
    common::exercise(&report, data.first().copied().unwrap_or(0));
});
