//! Checks shared by the reader targets: what any successfully read report must satisfy, and the
//! downstream steps (ignore markers, uncovered lists) run over it so their panics surface too.

use std::collections::BTreeSet;

use covgate::markers::Ignores;
use covgate::model::{Counts, Metric, Summary};
use covgate::report::{FileCoverage, Report};
use covgate::{measure, uncovered};

/// `covered <= total`.
pub fn assert_counts(what: &str, c: Counts) {
    assert!(
        c.covered <= c.total,
        "{what}: covered {} above total {}",
        c.covered,
        c.total
    );
}

/// Every available metric has `covered <= total`.
pub fn assert_summary(s: &Summary) {
    for metric in Metric::ALL {
        if let Some(c) = s.get(metric) {
            assert_counts(metric.name(), c);
        }
    }
}

/// The counts a file is judged on (before inline ignores).
fn summary(coverage: &FileCoverage) -> Summary {
    match coverage {
        FileCoverage::Llvm(f) => measure::llvm_summary(&f.summary),
        FileCoverage::Lcov(f) => f.summary(),
    }
}

/// Runs the steps after reading over every file: uncovered lists for all metrics, and inline
/// ignores on a few lines chosen from the input (`seed`).
pub fn exercise(report: &Report, seed: u8) {
    let _ = report.kind.describe();
    let lines: BTreeSet<u32> = [0, 1, u32::from(seed), u32::from(seed) + 1, u32::MAX]
        .into_iter()
        .collect();
    let ignores = Ignores {
        lines: lines.clone(),
        branch_lines: lines,
        markers: 1,
        marks: Vec::new(),
    };
    for file in &report.files {
        let _ = uncovered::list(&file.coverage, &Metric::ALL, &summary(&file.coverage));
        if let Ok((kept, _ignored)) = measure::apply(
            &file.path,
            &file.coverage,
            &ignores,
            &[report.origin.clone()],
        ) {
            let _ = uncovered::list(&kept, &Metric::ALL, &summary(&kept));
            if let FileCoverage::Lcov(f) = &kept {
                assert_summary(&f.summary());
            }
        }
    }
}
