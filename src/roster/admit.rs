//! Admission to the roster, made mechanical: every measured file that the roster suites
//! executed must be at 100% on every policy metric in the main run's export.
//!
//! "Executed" means any count above zero for the file in the suites' own export (see
//! [`crate::commands::check::executed`]); "measured" and the counts come from the main export's verdict,
//! after inline ignore markers, exactly as `covgate check` judges it. A file the main run does
//! not measure at all (unmeasured) fails; excluded and no-code files, and files outside
//! `include`, are not measured and are passed over.

use std::collections::BTreeSet;

use crate::judge::{FileStatus, MetricVerdict, Verdict};

/// The outcome of an admission check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Admission {
    /// How many measured files the roster suites executed.
    pub checked: usize,
    /// `PATH: METRIC covered/total, …` for each of them below 100% in the main export.
    pub below: Vec<String>,
}

/// Checks the files in `executed` (root-relative) against the main run's `main` verdict.
pub(crate) fn admit(executed: &BTreeSet<String>, main: &Verdict) -> Admission {
    let mut checked = 0;
    let mut below = Vec::new();
    for file in main.files.iter().filter(|f| executed.contains(&f.path)) {
        let short = match file.status {
            FileStatus::Pass | FileStatus::Fail => file
                .metrics
                .iter()
                .filter(|m| !full(m))
                .map(|m| match m.counts {
                    Some(c) => format!("{} {c}", m.metric),
                    None => format!("{} unavailable", m.metric),
                })
                .collect(),
            FileStatus::Unmeasured => vec!["in no report of the main run".to_string()],
            FileStatus::Excluded | FileStatus::NoCode => continue,
        };
        checked += 1;
        if !short.is_empty() {
            below.push(format!("{}: {}", file.path, short.join(", ")));
        }
    }
    Admission { checked, below }
}

/// True when every item of the metric is covered (0 of 0 included).
fn full(m: &MetricVerdict) -> bool {
    m.counts.is_some_and(|c| c.covered == c.total)
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;
    use crate::judge::{FileVerdict, MetricStatus};
    use crate::model::{Counts, Metric};

    fn file(
        path: &str,
        status: FileStatus,
        metrics: &[(Metric, Option<(u64, u64)>)],
    ) -> FileVerdict {
        FileVerdict {
            path: path.to_string(),
            status,
            metrics: metrics
                .iter()
                .map(|&(metric, counts)| MetricVerdict {
                    metric,
                    counts: counts.map(|(c, t)| Counts::new(c, t)),
                    status: MetricStatus::Pass,
                    allowed: None,
                })
                .collect(),
            reason: None,
            uncovered: Default::default(),
            ignored: Default::default(),
            coverage_off: Box::default(),
        }
    }

    #[test]
    fn files_below_100_percent_are_named() {
        let main = Verdict {
            files: vec![
                file(
                    "src/b.rs",
                    FileStatus::Fail,
                    &[
                        (Metric::Functions, Some((0, 1))),
                        (Metric::Lines, Some((2, 5))),
                    ],
                ),
                file(
                    "src/c.rs",
                    FileStatus::Pass,
                    &[(Metric::Lines, Some((9, 10))), (Metric::Branches, None)],
                ),
                file("src/orphan.rs", FileStatus::Unmeasured, &[]),
                file(
                    "src/a.rs",
                    FileStatus::Pass,
                    &[
                        (Metric::Lines, Some((4, 4))),
                        (Metric::Branches, Some((0, 0))),
                    ],
                ),
                file("src/gen.rs", FileStatus::Excluded, &[]),
                file("src/types.rs", FileStatus::NoCode, &[]),
                file(
                    "src/unrun.rs",
                    FileStatus::Fail,
                    &[(Metric::Lines, Some((0, 3)))],
                ),
            ],
            outside_include: 0,
            dropped: Vec::new(),
            unavailable: vec![],
            empty: Default::default(),
        };
        let executed: BTreeSet<String> = [
            "src/a.rs",
            "src/b.rs",
            "src/c.rs",
            "src/orphan.rs",
            "src/gen.rs",
            "src/types.rs",
            "tests/t.rs",
        ]
        .map(String::from)
        .into();
        assert_eq!(
            admit(&executed, &main),
            Admission {
                checked: 4,
                below: vec![
                    "src/b.rs: functions 0/1, lines 2/5".to_string(),
                    "src/c.rs: lines 9/10, branches unavailable".to_string(),
                    "src/orphan.rs: in no report of the main run".to_string(),
                ]
            }
        );
        assert_eq!(
            admit(&BTreeSet::new(), &main),
            Admission {
                checked: 0,
                below: vec![]
            }
        );
    }
}
