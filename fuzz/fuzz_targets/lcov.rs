//! The LCOV reader on arbitrary bytes: it must return a report or an error, never panic, hang
//! or blow up memory; a report it returns must be internally consistent, and merging a file with
//! itself must not change which items are uncovered.
#![no_main]

use libfuzzer_sys::fuzz_target;

use covgate::report::lcov;
use covgate::report::FileCoverage;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(report) = lcov::read("fuzz.info", data) else {
        return;
    };
    assert!(
        !report.files.is_empty(),
        "an LCOV report without files was accepted"
    );
    for file in &report.files {
        let FileCoverage::Lcov(f) = &file.coverage else {
            panic!("an LCOV tracefile gave a JSON file");
        };
        let summary = f.summary();
        assert_eq!(summary.regions, None, "LCOV has no regions");
        common::assert_summary(&summary);
        let mut twice = f.clone();
        twice.merge((**f).clone());
        common::assert_summary(&twice.summary());
        assert_eq!(twice.uncovered_lines(), f.uncovered_lines());
        assert_eq!(
            twice.uncovered_branches().len(),
            f.uncovered_branches().len()
        );
        assert_eq!(
            twice.uncovered_functions().len(),
            f.uncovered_functions().len()
        );
    }
    common::exercise(&report, data.first().copied().unwrap_or(0));
});
