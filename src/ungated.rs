//! What the reports measure that the policy does not judge: MC/DC conditions in an export of a
//! build with `-fcoverage-mcdc`, under a policy without `mcdc`. A team reading "PASS, 100 %
//! branches" must not take it for MC/DC, so the check says so (a note among the report warnings).

use crate::model::{Counts, Metric, Summary};

/// Files named in the note at most; the rest are counted.
const NAMED: usize = 5;

/// The note for MC/DC data the policy does not gate: `None` when the policy names `mcdc` or no
/// measured file counts an MC/DC condition. Otherwise, e.g. `the reports hold MC/DC data that
/// the policy does not gate (it is not in `metrics`): src/interlock.c 1/3 conditions shown
/// independent; add "mcdc" to `metrics` to judge it`, naming at most five files and counting the
/// others. `counted` holds the measured files that count an MC/DC condition ([`counted`]), by
/// path.
pub(crate) fn mcdc_note(metrics: &[Metric], counted: &[(String, Counts)]) -> Option<String> {
    if metrics.contains(&Metric::Mcdc) {
        return None;
    }
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

/// The MC/DC counts of a measured file's `summary` when it counts a condition (a total above
/// 0): what [`mcdc_note`] names.
pub(crate) fn counted(summary: &Summary) -> Option<Counts> {
    summary.mcdc.filter(|c| c.total > 0)
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    /// The files `f0.c`, `f1.c`, … with these MC/DC counts, as the check gathers them.
    fn measured(mcdc: &[Option<Counts>]) -> Vec<(String, Counts)> {
        mcdc.iter()
            .enumerate()
            .filter_map(|(i, &mcdc)| {
                let summary = Summary {
                    mcdc,
                    ..Summary::default()
                };
                counted(&summary).map(|c| (format!("f{i}.c"), c))
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
