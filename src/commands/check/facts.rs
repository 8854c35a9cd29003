//! The facts that head a check's output: version, target, conditions, roster, suites.

use super::setup::Setup;
use crate::outcome::{ConditionFacts, Facts, RosterFacts, SuiteFacts, TargetFacts};
use crate::report::Report;

pub(super) fn facts(setup: &Setup, reports: &[Report], walked: bool, verified: bool) -> Facts {
    let (policy, platform) = (&setup.policy, &setup.platform);
    Facts {
        version: env!("CARGO_PKG_VERSION").to_string(),
        target: TargetFacts {
            triple: platform.triple.clone(),
            source: if platform.from_flag {
                "--target"
            } else {
                "host"
            },
            known: platform.known(),
            cfg: platform.cfg_values(),
        },
        programs: platform
            .programs
            .iter()
            .map(|p| {
                (
                    p.name.clone(),
                    p.path.as_ref().map(|path| path.display().to_string()),
                )
            })
            .collect(),
        conditions: policy
            .excludes
            .iter()
            .filter(|exclude| exclude.activation.conditional)
            .map(|exclude| ConditionFacts {
                glob: exclude.pattern.glob.clone(),
                location: exclude.pattern.location.clone(),
                reason: exclude.reason.clone(),
                when: exclude.when.as_ref().map(|cfg| cfg.text.clone()),
                when_missing: exclude.when_missing.clone(),
                active: exclude.activation.active,
                why: exclude.activation.why.clone(),
            })
            .collect(),
        roster: (!policy.suites.is_empty()).then(|| RosterFacts {
            verified,
            suites: policy
                .suites
                .iter()
                .map(|suite| SuiteFacts {
                    name: suite.name.clone(),
                    location: suite.location.clone(),
                    reason: suite.reason.clone(),
                    filter: suite.filter.text.clone(),
                    glob: suite.glob.glob.clone(),
                    when: suite.when.as_ref().map(|cfg| cfg.text.clone()),
                    when_missing: suite.when_missing.clone(),
                    active: suite.activation.active,
                    why: suite.activation.why.clone(),
                })
                .collect(),
        }),
        policy: policy.file.display().to_string(),
        root: setup.root.clone(),
        reports: reports
            .iter()
            .map(|r| (r.origin.clone(), r.kind.describe()))
            .collect(),
        walked,
        threshold: policy.threshold,
        warnings: reports.iter().flat_map(|r| r.warnings.clone()).collect(),
    }
}
