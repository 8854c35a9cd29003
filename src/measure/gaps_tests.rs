use super::*;
use crate::measure::{Coverage, Ignored, Measured, MeasuredFiles};
use crate::model::Summary;
use crate::report::llvm_json::{LlvmFile, LlvmSummary};

/// A measured file with `unmeasured`.
fn file(unmeasured: Option<Unmeasured>) -> Measured<'static> {
    Measured {
        summary: Summary::default(),
        coverage: Coverage::Made(Box::new(FileCoverage::Llvm(Box::new(LlvmFile {
            summary: LlvmSummary::default(),
            functions: None,
        })))),
        ignored: Ignored::default(),
        unmeasured: unmeasured.map(Box::new),
    }
}

#[test]
fn notes_name_five_functions_and_count_the_rest() {
    let functions: Vec<Gap> = (1..=7)
        .map(|n| Gap {
            line: n,
            name: format!("f{n}"),
            lines: Vec::new(),
        })
        .collect();
    let measured: MeasuredFiles<'static> = [
        ("a.c".to_string(), file(None)),
        (
            "b.c".to_string(),
            file(Some(Unmeasured {
                branches: Vec::new(),
                mcdc: functions.clone(),
            })),
        ),
        (
            "c.rs".to_string(),
            file(Some(Unmeasured {
                branches: functions[..1].to_vec(),
                mcdc: Vec::new(),
            })),
        ),
        (
            "d.rs".to_string(),
            file(Some(Unmeasured {
                branches: vec![
                    Gap {
                        line: 2,
                        name: "inner::both".to_string(),
                        lines: vec![4, 5, 6, 9],
                    },
                    Gap {
                        line: 20,
                        name: "inner::edge".to_string(),
                        lines: vec![u32::MAX],
                    },
                ],
                mcdc: Vec::new(),
            })),
        ),
    ]
    .into_iter()
    .collect();
    let all = [Metric::Branches, Metric::Mcdc];
    assert_eq!(
        notes(&all, measured.iter()),
        [
            "b.c: mcdc is unavailable: no report with MC/DC data for the file holds f1 (line 1), \
             f2 (line 2), f3 (line 3), f4 (line 4), f5 (line 5), 2 more, which only the other \
             merged reports hold; build every merged run with `-fcoverage-mcdc`, or drop \
             \"mcdc\" from `metrics`",
            "c.rs: branches are unavailable: no report with branch records holds f1 (line 1), \
             which only the other merged reports hold; make every merged report with branch \
             data (`cargo +nightly llvm-cov --branch`), or drop \"branches\" from `metrics`",
            "d.rs: branches are unavailable: no report with branch records holds inner::both \
             (line 2: its code at lines 4-6, 9), inner::edge (line 20: its code at line \
             4294967295), which only the other merged reports hold; make every merged report \
             with branch data (`cargo +nightly llvm-cov --branch`), or drop \"branches\" from \
             `metrics`",
        ]
    );
    // Metrics the policy does not gate get no note.
    assert!(notes(&[Metric::Lines], measured.iter()).is_empty());
}
