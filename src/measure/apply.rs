//! Applying inline markers to coverage data: the items on ignored lines leave the counts, by
//! line ranges, for both formats (the LCOV half of the editing is `LcovFile::without`, beside
//! the LCOV model). The markers themselves are found by [`crate::markers`].

use std::collections::BTreeSet;

use crate::error::{Error, Result};
use crate::markers::Ignores;
use crate::model::{Counts, LineRange};
use crate::report::lcov::LcovFile;
use crate::report::llvm_json::{
    self, CoveredItems, Decision, FunctionStats, LlvmFile, RecordItems,
};
use crate::report::FileCoverage;

/// How many items inline markers removed from one file, per metric (llvm-cov JSON: in the units
/// of llvm-cov's summary, i.e. per instantiation group; LCOV: records).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ignored {
    /// Lines.
    pub lines: u64,
    /// Code regions (0 for LCOV).
    pub regions: u64,
    /// Branch sides.
    pub branches: u64,
    /// Functions.
    pub functions: u64,
    /// MC/DC conditions (llvm-cov JSON with MC/DC records; 0 for LCOV), gated or not: a
    /// decision goes with the line it starts on.
    pub conditions: u64,
}

impl std::ops::Add for Ignored {
    type Output = Ignored;

    fn add(self, o: Ignored) -> Ignored {
        Ignored {
            lines: self.lines + o.lines,
            regions: self.regions + o.regions,
            branches: self.branches + o.branches,
            functions: self.functions + o.functions,
            conditions: self.conditions + o.conditions,
        }
    }
}

/// Removes what `ignores` covers from one file's coverage: lines on ignored lines; regions,
/// branch sides and functions whose start lies on an ignored line; branch sides on `BR`-marked
/// lines. llvm-cov JSON counts are then recomputed from the function records by llvm-cov's
/// instantiation-group rule (so branches count folded sides the summary leaves out, which is
/// stricter); LCOV counts come from the remaining records.
///
/// Errors: a JSON file without function records (a `-summary-only` export, or records absent;
/// `origins` names the reports), which holds no detail to remove items from.
pub fn apply(
    path: &str,
    coverage: &FileCoverage,
    ignores: &Ignores,
    origins: &[String],
) -> Result<(FileCoverage, Ignored)> {
    match coverage {
        FileCoverage::Lcov(file) => Ok(apply_lcov(file, ignores)),
        FileCoverage::Llvm(file) => match &file.functions {
            Some(records) => Ok(apply_llvm(records, ignores)),
            None => Err(Error::new(format!(
                "{path}: carries {} inline ignore marker(s), but {} holds only its summary (a \
             -summary-only export, or no function record of the file): ignored items cannot be \
             taken out of a summary; give a full export",
                ignores.markers,
                origins.join(", ")
            ))),
        },
    }
}

fn apply_lcov(file: &LcovFile, ignores: &Ignores) -> (FileCoverage, Ignored) {
    let drop_line = |line: u32| ignores.lines.contains(&line);
    let drop_branch = |line: u32| ignores.ignores_branch(line);
    let ignored = Ignored {
        lines: file.lines().filter(|(line, _)| drop_line(*line)).count() as u64,
        regions: 0,
        branches: file
            .branches()
            .iter()
            .filter(|b| drop_branch(b.line))
            .count() as u64,
        functions: file.count_functions(|f| f.start.is_some_and(drop_line)),
        conditions: 0,
    };
    if ignored == Ignored::default() {
        // Nothing to take out: keep the file as read (declared totals included).
        return (FileCoverage::Lcov(Box::new(file.clone())), ignored);
    }
    (
        FileCoverage::Lcov(Box::new(file.without(drop_line, drop_branch))),
        ignored,
    )
}

fn apply_llvm(records: &[FunctionStats], ignores: &Ignores) -> (FileCoverage, Ignored) {
    let before = llvm_json::recompute(records);
    let runs = runs(&ignores.lines);
    let kept: Vec<FunctionStats> = records.iter().map(|r| without(r, ignores, &runs)).collect();
    let after = llvm_json::recompute(&kept);
    let ignored = Ignored {
        lines: before.lines.total.saturating_sub(after.lines.total),
        regions: before.regions.total.saturating_sub(after.regions.total),
        branches: before.branches.total.saturating_sub(after.branches.total),
        functions: before.functions.total.saturating_sub(after.functions.total),
        conditions: before.mcdc.total.saturating_sub(after.mcdc.total),
    };
    let file = LlvmFile {
        summary: after,
        functions: Some(kept),
    };
    (FileCoverage::Llvm(Box::new(file)), ignored)
}

/// One function record without the ignored items (`runs` are the ignored lines as [`runs`]).
fn without(record: &FunctionStats, ignores: &Ignores, runs: &[LineRange]) -> FunctionStats {
    let line_kept = |line: &u32| !ignores.lines.contains(line);
    let branch_kept = |line: &u32| !ignores.ignores_branch(*line);
    let covered_region_lines: Vec<u32> = record
        .covered_region_lines()
        .iter()
        .copied()
        .filter(line_kept)
        .collect();
    let uncovered_regions: Vec<_> = record
        .uncovered_regions()
        .iter()
        .copied()
        .filter(|s| line_kept(&s.line_start))
        .collect();
    let covered_branch_lines: Vec<u32> = record
        .covered_branch_lines()
        .iter()
        .copied()
        .filter(branch_kept)
        .collect();
    let uncovered_branches: Vec<_> = record
        .uncovered_branches()
        .iter()
        .copied()
        .filter(|b| branch_kept(&b.span.line_start))
        .collect();
    let (covered_lines, covered) = subtract(record.covered_lines(), runs);
    let (uncovered_lines, uncovered) = subtract(record.uncovered_lines(), runs);
    // A decision goes with the line it starts on.
    let decisions: Vec<Decision> = record
        .decisions()
        .iter()
        .filter(|d| line_kept(&d.at.0))
        .cloned()
        .collect();
    FunctionStats {
        name: record.name.clone(),
        count: record.count,
        key: record.key,
        regions: counts(covered_region_lines.len(), uncovered_regions.len()),
        lines: Counts::new(covered, covered + uncovered),
        branches: counts(covered_branch_lines.len(), uncovered_branches.len()),
        mcdc: decisions
            .iter()
            .fold(Counts::default(), |sum, d| sum + d.counts()),
        function_ignored: ignores.lines.contains(&record.key.0),
        several_instantiations: record.several_instantiations,
        instances: record.instances,
        items: Some(Box::new(RecordItems {
            uncovered_regions,
            uncovered_branches,
            uncovered_lines,
            decisions,
            origins: record
                .items
                .as_ref()
                .and_then(|items| items.origins.clone()),
            covered: Some(Box::new(CoveredItems {
                covered_region_lines,
                covered_branch_lines,
                covered_lines,
                // Items are taken out: the hits no longer line up with them (nothing is summed
                // after markers are applied).
                region_hits: Vec::new(),
                branch_hits: Vec::new(),
                layout: record.layout(),
            })),
        })),
    }
}

fn counts(covered: usize, uncovered: usize) -> Counts {
    Counts::new(covered as u64, (covered + uncovered) as u64)
}

/// `lines` as sorted, disjoint, inclusive ranges of consecutive lines.
fn runs(lines: &BTreeSet<u32>) -> Vec<LineRange> {
    let mut out: Vec<LineRange> = Vec::new();
    for &line in lines {
        match out.last_mut() {
            Some(last) if last.end.checked_add(1) == Some(line) => last.end = line,
            _ => out.push(LineRange {
                start: line,
                end: line,
            }),
        }
    }
    out
}

/// `ranges` (sorted, disjoint) without the lines of `ignored` (sorted, disjoint runs), and how
/// many lines remain. Range by range, never line by line: a range of four billion lines costs
/// as much as one of four, and each range costs a binary search plus the runs inside it.
fn subtract(ranges: &[LineRange], ignored: &[LineRange]) -> (Vec<LineRange>, u64) {
    let mut out: Vec<LineRange> = Vec::new();
    let mut remaining = 0;
    for range in ranges {
        let first = ignored.partition_point(|run| run.end < range.start);
        let inside = ignored
            .get(first..)
            .unwrap_or_default()
            .iter()
            .take_while(|run| run.start <= range.end);
        // The next line of `range` not yet taken or ignored; `None` past its end.
        let mut next = Some(range.start);
        for run in inside {
            if let Some(start) = next.filter(|start| *start < run.start) {
                out.push(LineRange {
                    start,
                    end: run.start - 1,
                });
            }
            next = run.end.checked_add(1);
        }
        if let Some(start) = next.filter(|start| *start <= range.end) {
            out.push(LineRange {
                start,
                end: range.end,
            });
        }
    }
    for piece in &out {
        remaining += u64::from(piece.end - piece.start) + 1;
    }
    (out, remaining)
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;
    use crate::markers::{scan, Lang};
    use crate::policy::Family;

    const ALL: &[Family] = &Family::ALL;

    #[test]
    fn applying_to_lcov_keeps_what_markers_leave() {
        let tracefile = "SF:a.c\nFN:1,f\nFN:5,g\nFNDA:1,f\nFNDA:0,g\nDA:1,1\nDA:2,0\nDA:5,0\n\
                         BRDA:2,0,0,0\nBRDA:2,0,1,1\nBRDA:3,0,0,-\nBRDA:3,0,1,1\nend_of_record\n";
        let report = crate::report::read("t.info", tracefile.as_bytes()).unwrap();
        let coverage = &report.files[0].coverage;
        let ignores = scan(
            "a.c",
            "f\nx // LCOV_EXCL_LINE\ny // LCOV_EXCL_BR_LINE\n\n// LCOV_EXCL_LINE\n",
            Lang::CLike,
            ALL,
            true,
        )
        .unwrap();
        let (after, ignored) = apply("a.c", coverage, &ignores, &[]).unwrap();
        assert_eq!(
            ignored,
            Ignored {
                lines: 2,
                regions: 0,
                branches: 4,
                functions: 1,
                conditions: 0,
            }
        );
        let FileCoverage::Lcov(file) = after else {
            panic!("LCOV in, LCOV out")
        };
        let summary = file.summary();
        assert_eq!(summary.lines, Some(Counts::new(1, 1)));
        assert_eq!(summary.functions, Some(Counts::new(1, 1)));
        assert_eq!(summary.branches, Some(Counts::new(0, 0)));
        let kept_branch = scan("a.c", "f\nx // LCOV_EXCL_LINE\n", Lang::CLike, ALL, true).unwrap();
        let (after, _) = apply("a.c", coverage, &kept_branch, &[]).unwrap();
        let FileCoverage::Lcov(file) = after else {
            panic!("LCOV in, LCOV out")
        };
        assert_eq!(file.summary().branches, Some(Counts::new(1, 2)));
        assert_eq!(file.summary().lines, Some(Counts::new(1, 2)));
    }

    fn r(start: u32, end: u32) -> LineRange {
        LineRange { start, end }
    }

    #[test]
    fn ignored_lines_are_subtracted_as_ranges() {
        let lines: BTreeSet<u32> = [3, 4, 6, 12, u32::MAX - 1, u32::MAX].into();
        let ignored = runs(&lines);
        assert_eq!(
            ignored,
            [r(3, 4), r(6, 6), r(12, 12), r(u32::MAX - 1, u32::MAX)]
        );
        assert_eq!(
            subtract(&[r(1, 10), r(12, 12), r(14, 20)], &ignored),
            (vec![r(1, 2), r(5, 5), r(7, 10), r(14, 20)], 2 + 1 + 4 + 7)
        );
        // Runs at both ends of a range; a run to the last line.
        assert_eq!(
            subtract(&[r(3, 6), r(u32::MAX - 3, u32::MAX)], &ignored),
            (vec![r(5, 5), r(u32::MAX - 3, u32::MAX - 2)], 1 + 2)
        );
        assert_eq!(subtract(&[r(1, 2)], &[]), (vec![r(1, 2)], 2));
    }

    /// A guard against a blow-up, not a benchmark: one marker and a record whose lines reach
    /// line 4,000,000,000 took 18 s when ignored lines were taken out one by one.
    #[test]
    fn a_range_of_four_billion_lines_is_subtracted_at_once() {
        let ignores = scan("a.rs", "// LCOV_EXCL_LINE\n", Lang::Rust, ALL, true).unwrap();
        let record = FunctionStats {
            name: "f".into(),
            count: 1,
            key: (1, 1),
            regions: Counts::new(1, 1),
            lines: Counts::new(4_000_000_000, 4_000_000_000),
            branches: Counts::default(),
            mcdc: Counts::default(),
            function_ignored: false,
            several_instantiations: false,
            instances: crate::report::llvm_json::Instances::of(1),
            items: Some(Box::new(RecordItems {
                covered: Some(Box::new(CoveredItems {
                    covered_region_lines: vec![1],
                    covered_lines: vec![r(1, 4_000_000_000)],
                    ..CoveredItems::default()
                })),
                ..RecordItems::default()
            })),
        };
        let started = std::time::Instant::now();
        let (after, ignored) = apply(
            "a.rs",
            &FileCoverage::Llvm(Box::new(LlvmFile {
                summary: llvm_json::recompute(std::slice::from_ref(&record)),
                functions: Some(vec![record]),
            })),
            &ignores,
            &[],
        )
        .unwrap();
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(ignored.lines, 1);
        let FileCoverage::Llvm(file) = after else {
            panic!("JSON in, JSON out")
        };
        assert_eq!(
            file.summary.lines,
            Counts::new(3_999_999_999, 3_999_999_999)
        );
    }
}
