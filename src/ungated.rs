//! What the reports measure that the policy does not judge: MC/DC conditions in an export of a
//! build with `-fcoverage-mcdc`, under a policy without `mcdc`. A team reading "PASS, 100 %
//! branches" must not take it for MC/DC, so the check says so (a note among the report warnings).

use crate::measure::MeasuredFiles;
use crate::model::{Counts, Metric};

/// Files named in the note at most; the rest are counted.
const NAMED: usize = 5;

/// The note for MC/DC data the policy does not gate: `None` when the policy names `mcdc` or no
/// measured file counts an MC/DC condition. Otherwise, e.g. `the reports hold MC/DC data that
/// the policy does not gate (it is not in `metrics`): src/interlock.c 1/3 conditions shown
/// independent; add "mcdc" to `metrics` to judge it`, naming at most five files and counting the
/// others.
pub(crate) fn mcdc_note(metrics: &[Metric], measured: &MeasuredFiles<'_>) -> Option<String> {
    if metrics.contains(&Metric::Mcdc) {
        return None;
    }
    let counted: Vec<(&String, Counts)> = measured
        .iter()
        .filter_map(|(path, m)| m.summary.mcdc.filter(|c| c.total > 0).map(|c| (path, c)))
        .collect();
    if counted.is_empty() {
        return None;
    }
    let mut named: Vec<String> = counted
        .iter()
        .take(NAMED)
        .map(|(path, c)| format!("{path} {c}"))
        .collect();
    if counted.len() > NAMED {
        named.push(format!("{} more files", counted.len() - NAMED));
    }
    Some(format!(
        "the reports hold MC/DC data that the policy does not gate (`mcdc` is not in `metrics`): \
         {} conditions shown independent; add \"mcdc\" to `metrics` to judge it",
        named.join(", ")
    ))
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;
    use crate::measure::{Coverage, Ignored, Measured};
    use crate::model::Summary;
    use crate::report::llvm_json::{LlvmFile, LlvmSummary};
    use crate::report::FileCoverage;

    fn measured(mcdc: &[Option<Counts>]) -> MeasuredFiles<'static> {
        mcdc.iter()
            .enumerate()
            .map(|(i, &mcdc)| {
                let m = Measured {
                    summary: Summary {
                        mcdc,
                        ..Summary::default()
                    },
                    coverage: Coverage::Made(Box::new(FileCoverage::Llvm(LlvmFile {
                        summary: LlvmSummary::default(),
                        functions: None,
                    }))),
                    ignored: Ignored::default(),
                    unmeasured: None,
                };
                (format!("f{i}.c"), m)
            })
            .collect()
    }

    #[test]
    fn mcdc_outside_the_policy_is_noted() {
        let some = measured(&[Some(Counts::new(1, 3)), None, Some(Counts::new(0, 0))]);
        assert_eq!(
            mcdc_note(&Metric::DEFAULT, &some).as_deref(),
            Some(
                "the reports hold MC/DC data that the policy does not gate (`mcdc` is not in \
                 `metrics`): f0.c 1/3 conditions shown independent; add \"mcdc\" to `metrics` \
                 to judge it"
            )
        );
        assert_eq!(mcdc_note(&Metric::ALL, &some), None);
        assert_eq!(mcdc_note(&Metric::DEFAULT, &measured(&[None])), None);
        let many = measured(&[Some(Counts::new(2, 2)); 7]);
        let note = mcdc_note(&Metric::DEFAULT, &many).expect("noted");
        assert!(
            note.contains("f0.c 2/2, f1.c 2/2, f2.c 2/2, f3.c 2/2, f4.c 2/2, 2 more files"),
            "{note}"
        );
    }
}
