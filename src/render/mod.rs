//! Rendering a verdict: the terminal table and JSON for machines.

pub mod json;
pub mod table;

use crate::judge::{FileStatus, Verdict};

/// The facts a verdict was reached under, printed first by every format.
#[derive(Debug, Clone, PartialEq)]
pub struct Facts {
    /// covgate's version.
    pub version: String,
    /// The policy file used.
    pub policy: String,
    /// The root that paths are relative to.
    pub root: String,
    /// Each report: origin and format description (e.g. `llvm-cov JSON 3.1.0`).
    pub reports: Vec<(String, String)>,
    /// Whether the root was walked for unmeasured files (`--no-walk` turns it off).
    pub walked: bool,
    /// Policy threshold, percent 0–100.
    pub threshold: f64,
}

/// Which files a table lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Show {
    /// Failing and unmeasured files only.
    Failing,
    /// Every in-scope file.
    All,
}

/// `N measured: N passed, N failed; N unmeasured, N excluded, N no code, N outside include`.
pub fn summary_line(verdict: &Verdict) -> String {
    let passed = verdict.count(FileStatus::Pass);
    let failed = verdict.count(FileStatus::Fail);
    format!(
        "{} measured: {passed} passed, {failed} failed; {} unmeasured, {} excluded, {} no code, {} outside include",
        passed + failed,
        verdict.count(FileStatus::Unmeasured),
        verdict.count(FileStatus::Excluded),
        verdict.count(FileStatus::NoCode),
        verdict.outside_include,
    )
}
