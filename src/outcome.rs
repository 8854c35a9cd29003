//! The result of a check, as the commands produce it and every output format reads it: the
//! verdict ([`Outcome`]) and the facts it was reached under ([`Facts`]: the version, the target
//! and its cfg values, which conditional entries apply, the policy, the root and the reports).

use crate::judge::Verdict;
use crate::model::{Metric, Threshold};

/// The result of a check: the facts it was judged under and the verdict.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Version, policy, root, reports.
    pub facts: Facts,
    /// The verdict on every in-scope file.
    pub verdict: Verdict,
    /// The policy's metrics, in output order.
    pub metrics: Vec<Metric>,
}

/// The facts a verdict was reached under, printed first by every format, so that one CI leg's
/// result is never read as another's.
#[derive(Debug, Clone, PartialEq)]
pub struct Facts {
    /// covgate's version.
    pub version: String,
    /// The target conditions were evaluated for, and its cfg values.
    pub target: TargetFacts,
    /// Each program named by a `when-missing`, in name order: name and where it was found
    /// (`None`: not found on PATH).
    pub programs: Vec<(String, Option<String>)>,
    /// Each conditional `[[exclude]]`, in policy order, active or not.
    pub conditions: Vec<ConditionFacts>,
    /// The `[[suite]]` roster, when the policy has one (`None` otherwise: nothing is shown).
    pub roster: Option<RosterFacts>,
    /// The policy file used.
    pub policy: String,
    /// The root that paths are relative to.
    pub root: String,
    /// Each report: origin and format description (e.g. `llvm-cov JSON 3.1.0`).
    pub reports: Vec<(String, String)>,
    /// Whether the root was walked for unmeasured files (`--no-walk` turns it off).
    pub walked: bool,
    /// Policy threshold, percent 0–100.
    pub threshold: Threshold,
    /// Every report's warnings (problems that did not stop the read, each naming its report and
    /// line), in report order.
    pub warnings: Vec<String>,
}

/// The target of a check (see [`crate::platform`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetFacts {
    /// The target triple.
    pub triple: String,
    /// `host` (the target covgate was built for) or `--target`.
    pub source: &'static str,
    /// False when the triple is not in covgate's target database: no target cfg values are
    /// known, and a `when` cannot be evaluated.
    pub known: bool,
    /// The cfg values used, as `rustc --print cfg` writes them, sorted (the target's, every
    /// `--cfg` and every feature).
    pub cfg: Vec<String>,
}

/// One conditional `[[exclude]]` entry and whether it applies on this leg.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConditionFacts {
    /// Its `path` glob.
    pub glob: String,
    /// Where the glob is written: `file:line:col`.
    pub location: String,
    /// Its `reason`.
    pub reason: String,
    /// Its `when`, as written.
    pub when: Option<String>,
    /// Its `when-missing` programs.
    pub when_missing: Vec<String>,
    /// True when it excludes files here; false when inactive (its files are measured).
    pub active: bool,
    /// Why it is active or inactive, e.g. ``"`cfg(windows)` does not hold on x86_64-unknown-linux-gnu"``.
    pub why: String,
}

/// The exempt-suite roster of a check (see [`crate::roster`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RosterFacts {
    /// True when the roster was verified (a check stops with an error when it does not
    /// verify); false with `--no-walk`, where it is not checked.
    pub verified: bool,
    /// Every `[[suite]]`, in policy order.
    pub suites: Vec<SuiteFacts>,
}

/// One `[[suite]]` entry and whether it applies on this leg.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteFacts {
    /// Its `name`.
    pub name: String,
    /// Where its name is written: `file:line:col`.
    pub location: String,
    /// Its `reason`.
    pub reason: String,
    /// Its `filter`, as written.
    pub filter: String,
    /// Its `glob`, as written.
    pub glob: String,
    /// Its `when`, as written.
    pub when: Option<String>,
    /// Its `when-missing` programs.
    pub when_missing: Vec<String>,
    /// True when the suite is left out of the instrumented run here; false when inactive (it
    /// runs in the instrumented run like any other).
    pub active: bool,
    /// Why it is active or inactive (empty for an entry without conditions).
    pub why: String,
}
