//! Properties of inline ignores, on every JSON and LCOV fixture and on generated sources:
//! ignoring nothing changes nothing; ignoring every line leaves every metric vacuous; a marker
//! range and the equivalent line markers give the same ignored lines.

use crate::common;

use std::collections::BTreeSet;

use covgate::markers::{self, Ignores, Lang};
use covgate::measure;
use covgate::policy::Family;
use covgate::report::{self, FileCoverage};
use proptest::prelude::*;

fn fixtures() -> Vec<(String, report::Report)> {
    let mut out = Vec::new();
    for dir in ["real", "llvm", "lcov"] {
        for entry in std::fs::read_dir(common::fixture(dir)).expect("fixture dir") {
            let path = entry.expect("entry").path();
            let name = path.display().to_string();
            let is_report = [".json", ".info", ".lcov", ".dat"]
                .iter()
                .any(|e| name.ends_with(e));
            if let (true, Ok(bytes)) = (is_report, std::fs::read(&path)) {
                if let Ok(report) = report::read(&name, &bytes) {
                    out.push((name, report));
                }
            }
        }
    }
    assert!(out.len() > 30, "fixtures: {}", out.len());
    out
}

fn nothing() -> Ignores {
    Ignores {
        markers: 1,
        ..Ignores::default()
    }
}

fn everything() -> Ignores {
    Ignores {
        lines: (0..=100_000).collect(),
        markers: 1,
        ..Ignores::default()
    }
}

#[test]
fn ignoring_nothing_changes_nothing() {
    let mut files = 0;
    for (name, report) in fixtures() {
        for file in &report.files {
            let origins = [name.clone()];
            let Ok((after, ignored)) =
                measure::apply(&file.path, &file.coverage, &nothing(), &origins)
            else {
                continue; // summary-only exports refuse markers
            };
            assert_eq!(ignored, measure::Ignored::default(), "{name} {}", file.path);
            match (&file.coverage, &after) {
                (FileCoverage::Lcov(before), FileCoverage::Lcov(after)) => {
                    let (b, a) = (before.summary(), after.summary());
                    assert_eq!(b, a, "{name} {}", file.path);
                    assert_eq!(before.uncovered_lines(), after.uncovered_lines(), "{name}");
                    assert_eq!(before.branches(), after.branches(), "{name}");
                }
                (FileCoverage::Llvm(before), FileCoverage::Llvm(after)) => {
                    let (b, a) = (before.summary, after.summary);
                    assert_eq!(
                        (b.regions, b.lines, b.functions),
                        (a.regions, a.lines, a.functions),
                        "{name} {}",
                        file.path
                    );
                    assert_eq!(b.instantiations, a.instantiations, "{name} {}", file.path);
                    // Folded branch sides are in the records but not in the summary.
                    assert!(a.branches.total >= b.branches.total, "{name} {}", file.path);
                    if !name.contains("folded") {
                        assert_eq!(b.branches, a.branches, "{name} {}", file.path);
                    }
                }
                _ => panic!("{name}: format changed"),
            }
            files += 1;
        }
    }
    assert!(files > 100, "files checked: {files}");
}

#[test]
fn ignoring_every_line_leaves_every_metric_vacuous() {
    for (name, report) in fixtures() {
        for file in &report.files {
            let origins = [name.clone()];
            let Ok((after, _)) =
                measure::apply(&file.path, &file.coverage, &everything(), &origins)
            else {
                continue;
            };
            let totals = match &after {
                FileCoverage::Lcov(f) => {
                    let s = f.summary();
                    [s.lines, s.branches, s.functions].map(|c| c.map_or(0, |c| c.total))
                }
                FileCoverage::Llvm(f) => [
                    f.summary.lines.total,
                    f.summary.branches.total,
                    f.summary.functions.total + f.summary.regions.total,
                ],
            };
            assert_eq!(totals, [0, 0, 0], "{name} {}", file.path);
        }
    }
}

fn scanned(text: &str) -> BTreeSet<u32> {
    markers::scan("gen.rs", text, Lang::Rust, &Family::ALL, true)
        .expect("markers balance")
        .lines
}

proptest! {
    #[test]
    fn a_range_equals_its_line_markers(lines in 1usize..40, a in 0usize..40, len in 0usize..10) {
        let start = a.min(lines - 1);
        let end = (start + len).min(lines - 1);
        let code = |i: usize| format!("let x{i} = \"// LCOV_EXCL_LINE in a string\";");
        let ranged: Vec<String> = (0..lines)
            .map(|i| match i {
                i if i == start && i == end => format!("{} // covgate:ignore-start -- r // covgate:ignore-end", code(i)),
                i if i == start => format!("{} // LCOV_EXCL_START", code(i)),
                i if i == end => format!("{} // LCOV_EXCL_STOP", code(i)),
                i => code(i),
            })
            .collect();
        let per_line: Vec<String> = (0..lines)
            .map(|i| if (start..=end).contains(&i) {
                format!("{} // covgate:ignore -- same lines", code(i))
            } else {
                code(i)
            })
            .collect();
        let want: BTreeSet<u32> = ((start + 1) as u32..=(end + 1) as u32).collect();
        prop_assert_eq!(scanned(&per_line.join("\n")), want.clone());
        prop_assert_eq!(scanned(&ranged.join("\n")), want);
    }
}
