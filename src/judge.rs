//! Verdicts: each measured file, each policy metric, covered/total against the threshold.
//!
//! 0 of 0 is vacuously met (shown as `—`; llvm-cov's `percent` says 0.0 there and is never read).
//! A metric the input cannot carry is `unavailable` and fails closed, with a note saying how to
//! produce it or drop it from `metrics`.

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::error::Result;
use crate::markers::{Ignores, OffItem};
use crate::measure::{self, Ignored, Measured, MeasuredFiles, Part};
use crate::model::{Counts, Metric, Summary, Threshold};
use crate::policy::Policy;
use crate::scope::{self, Class, Reported, Scope, Why};
use crate::uncovered::{self, Listed};

pub(crate) mod coverage_off;
mod metrics;

pub use metrics::Metrics;

/// The outcome of one metric of one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetricStatus {
    /// At or above the threshold.
    Pass,
    /// Below the threshold.
    Fail,
    /// 0 of 0: nothing to cover, met.
    Vacuous,
    /// The input cannot carry this metric: fails closed.
    Unavailable,
    /// A `[[debt]]` entry allows more missed items than there are: fails until the entry is
    /// tightened (see [`crate::debt`]).
    Loose,
}

impl MetricStatus {
    /// The JSON name: `pass`, `fail`, `vacuous`, `unavailable`, `loose`.
    pub fn name(self) -> &'static str {
        match self {
            MetricStatus::Pass => "pass",
            MetricStatus::Fail => "fail",
            MetricStatus::Vacuous => "vacuous",
            MetricStatus::Unavailable => "unavailable",
            MetricStatus::Loose => "loose",
        }
    }

    /// True for the statuses that fail a file.
    pub fn fails(self) -> bool {
        matches!(
            self,
            MetricStatus::Fail | MetricStatus::Unavailable | MetricStatus::Loose
        )
    }
}

/// One metric's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetricVerdict {
    /// Which metric.
    pub metric: Metric,
    /// Its counts, `None` when unavailable.
    pub counts: Option<Counts>,
    /// The outcome.
    pub status: MetricStatus,
    /// The missed items a `[[debt]]` entry allows, when the file has one (then the metric is
    /// judged by counts, not by the threshold; see [`crate::debt`]); `None` otherwise.
    pub allowed: Option<u64>,
}

/// The status of one in-scope file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FileStatus {
    /// Measured and below the bar on at least one metric.
    Fail,
    /// In scope, in no report, with code.
    Unmeasured,
    /// Measured and at or above the bar on every policy metric.
    Pass,
    /// Covered by an `[[exclude]]`.
    Excluded,
    /// Nothing instrumentable.
    NoCode,
}

impl FileStatus {
    /// The JSON name: `pass`, `fail`, `unmeasured`, `excluded`, `no-code`.
    pub fn name(self) -> &'static str {
        match self {
            FileStatus::Pass => "pass",
            FileStatus::Fail => "fail",
            FileStatus::Unmeasured => "unmeasured",
            FileStatus::Excluded => "excluded",
            FileStatus::NoCode => "no-code",
        }
    }

    /// True for the statuses that fail the check.
    pub fn fails(self) -> bool {
        matches!(self, FileStatus::Fail | FileStatus::Unmeasured)
    }
}

/// The verdict on one in-scope file.
#[derive(Debug, Clone)]
pub struct FileVerdict {
    /// Root-relative path, `/`-separated.
    pub path: String,
    /// Its status.
    pub status: FileStatus,
    /// One entry per policy metric for a measured file (pass or fail); empty otherwise
    /// (excluded files are not measured, even when a report names them). Packed (see
    /// [`Metrics`]).
    pub metrics: Metrics,
    /// The exclusion's reason, or why an unmeasured file fails.
    pub reason: Option<String>,
    /// What is uncovered, for each metric this file fails (empty otherwise).
    pub uncovered: Listed,
    /// What inline ignore markers took out of this file's metrics; `None` when they took out
    /// nothing (most files: boxed, so that the verdicts of 189,000 files do not each hold 32
    /// bytes of zeros).
    pub ignored: Option<Box<Ignored>>,
    /// Each Rust `coverage(off)` attribute of a measured file (in file order; empty for most
    /// files, and for files not measured): counted and shown, and with `[inline] coverage-off =
    /// "deny"` failing the file when outside test code ([`coverage_off::deny`]).
    pub coverage_off: Box<[OffItem]>,
}

/// A report file that is not judged: outside the root, or selected by no `include` glob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    /// The report that names it.
    pub report: String,
    /// The path as the report spells it.
    pub path: String,
    /// The name covgate gave it: root-relative below the root, else absolute.
    pub name: String,
    /// Why it is not judged.
    pub why: Why,
}

/// The verdict of a whole check.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// Every in-scope file: failing and unmeasured first, then by path.
    pub files: Vec<FileVerdict>,
    /// Report files outside the root or the include globs.
    pub outside_include: usize,
    /// Each spelling of those files, with its report and why it was dropped: root-relative
    /// names first, then absolute ones, each in path order (filled by [`crate::commands::check`], which
    /// knows the spellings).
    pub dropped: Vec<Dropped>,
    /// Metrics that were unavailable for at least one measured file.
    pub unavailable: Vec<Metric>,
    /// Whether the check measured nothing at all.
    pub empty: Empty,
}

/// Whether a check measured anything. A check whose in-scope files are all excluded or without
/// code has judged no coverage at all: it fails unless the policy allows it
/// (`[measure] allow-empty = true` with `allow-empty-reason`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Empty {
    /// At least one in-scope file is measured or unmeasured.
    #[default]
    No,
    /// Every in-scope file is excluded or has no code: the check fails.
    Fails,
    /// Every in-scope file is excluded or has no code, and the policy allows it for this reason.
    Allowed(String),
}

impl Empty {
    /// What to tell the user, `None` when the check measured something.
    pub fn note(&self) -> Option<String> {
        match self {
            Empty::No => None,
            Empty::Fails => Some(
                "no file was measured: every in-scope file is excluded or has no code, and a check \
                 that measures nothing proves nothing; narrow `[[exclude]]` or widen `include`, or \
                 set `allow-empty = true` with `allow-empty-reason` in `[measure]`"
                    .to_string(),
            ),
            Empty::Allowed(reason) => Some(format!(
                "no file was measured (every in-scope file is excluded or has no code); allowed \
                 by `allow-empty`: {reason}"
            )),
        }
    }
}

impl Verdict {
    /// True when no in-scope file fails and the check measured something (or the policy
    /// allows it not to, see [`Empty`]).
    pub fn passed(&self) -> bool {
        !self.files.iter().any(|f| f.status.fails()) && self.empty != Empty::Fails
    }

    /// What inline ignore markers took out, summed over all files, and how many files had any.
    pub fn ignored(&self) -> (Ignored, usize) {
        let with_markers = self.files.iter().filter_map(|f| f.ignored.as_deref());
        let files = with_markers.clone().count();
        (
            with_markers.fold(Ignored::default(), |sum, ignored| sum + *ignored),
            files,
        )
    }

    /// The `coverage(off)` attributes of all files: how many, how many of them outside test
    /// code, and in how many files.
    pub fn coverage_off(&self) -> (usize, usize, usize) {
        let with = self.files.iter().filter(|f| !f.coverage_off.is_empty());
        let items = with.clone().map(|f| f.coverage_off.len()).sum();
        let outside = with
            .clone()
            .flat_map(|f| f.coverage_off.iter())
            .filter(|o| !o.in_tests);
        (items, outside.count(), with.count())
    }

    /// Number of files with `status`.
    pub fn count(&self, status: FileStatus) -> usize {
        self.files.iter().filter(|f| f.status == status).count()
    }
}

/// What [`evaluate`] gives besides the verdict: what later stages read of the measurements.
#[derive(Debug, Default)]
pub(crate) struct Judged {
    /// The measurements of the files `keep` selected (their `[[debt]]` entries and `--file`
    /// list their uncovered items again), by path, each with its own copy of the coverage
    /// (the report files are freed as they are judged).
    pub kept: MeasuredFiles<'static>,
    /// The measured files that count an MC/DC condition ([`crate::ungated::counted`]), by path.
    pub mcdc: Vec<(String, Counts)>,
    /// The notes on functions no merged report measured ([`crate::measure::unmeasured_notes`]),
    /// in path order.
    pub notes: Vec<String>,
}

/// Files measured and judged together: each batch's files on every core, then the batch before
/// it (the scope and the report files are taken apart from their ends as their files are
/// judged).
const BATCH: usize = 4096;

/// Measures (from the report files `reported`, with the inline `ignores`) and judges every
/// in-scope file of `scope`; a file of class [`Class::Measured`] is measured from the files of
/// its name that hold records. The scope and the report files are taken apart from their ends
/// as they are judged, a batch at a time, and shrink while the verdicts grow: each file's
/// verdict keeps its path and reason, and a file's measurement and its report files (owned by
/// `reported`) are dropped once it is judged, unless `keep` selects its path (see
/// [`Judged::kept`]): the measurements of 189,000 files are never held together, and neither
/// are the report files and the verdicts.
///
/// Each measured file's `coverage(off)` attributes (`coverage_off`, by path) go into its
/// verdict.
///
/// Errors: as for [`crate::measure::measure`] (the first in path order).
pub(crate) fn evaluate(
    scope: Scope,
    mut reported: Reported<'_>,
    ignores: &BTreeMap<String, Ignores>,
    coverage_off: &BTreeMap<String, Vec<OffItem>>,
    policy: &Policy,
    keep: &(dyn Fn(&str) -> bool + Sync),
) -> Result<(Verdict, Judged)> {
    let outside_include = scope.outside_include.len();
    drop(scope.outside_include);
    let mut scoped = scope.files;
    let mut files: Vec<FileVerdict> = Vec::with_capacity(scoped.len());
    // Each batch's notes and MC/DC counts, last batch first; the first error in path order.
    let (mut mcdc, mut notes, mut kept, mut error) = (Vec::new(), Vec::new(), Vec::new(), None);
    while !scoped.is_empty() {
        let batch = scoped.split_tail(BATCH);
        let named = reported.split_from(batch.first().map_or("", |(path, _)| path));
        let batch = with_parts(batch, &named);
        // Files are judged on every core: a failing file's uncovered items take some work.
        let done: Vec<Result<Done<'_>>> = batch
            .into_par_iter()
            .map(|(path, class, parts)| {
                let measured = parts
                    .map(|parts| measure::measure_one(&path, &parts, ignores.get(&path)))
                    .transpose()?;
                let mut file = judge_file(path, class, measured.as_ref(), policy);
                if measured.is_some() {
                    let offs = coverage_off.get(&file.path).map(Vec::as_slice);
                    file.coverage_off = offs.unwrap_or_default().into();
                }
                Ok((file, measured))
            })
            .collect();
        let (mut batch_mcdc, mut batch_notes) = (Vec::new(), Vec::new());
        for one in done {
            let (file, measured) = match one {
                Ok(one) => one,
                Err(e) => {
                    // A batch before this one may hold an error that comes first.
                    error = Some(e);
                    break;
                }
            };
            if let Some(measured) = measured {
                let path = &file.path;
                let counted = crate::ungated::counted(&measured.summary);
                batch_mcdc.extend(counted.map(|c| (path.clone(), c)));
                let unmeasured = measure::unmeasured_notes(&policy.metrics, [(path, &measured)]);
                batch_notes.extend(unmeasured);
                if keep(path) {
                    kept.push((path.clone(), measured.into_owned()));
                }
            }
            files.push(file);
        }
        mcdc.push(batch_mcdc);
        notes.push(batch_notes);
        named.free();
    }
    if let Some(error) = error {
        return Err(error);
    }
    let judged = Judged {
        kept: kept.into_iter().collect(),
        mcdc: mcdc.into_iter().rev().flatten().collect(),
        notes: notes.into_iter().rev().flatten().collect(),
    };
    // Failing (and unmeasured) files first, then every other file, each group in path order
    // (paths are unique: an unstable sort gives the same order, without a copy of the files).
    files.sort_unstable_by(|a, b| (!a.status.fails(), &a.path).cmp(&(!b.status.fails(), &b.path)));
    let verdict = verdict(files, outside_include, policy);
    Ok((verdict, judged))
}

/// A batch of in-scope files (ascending) with the parts of those of class [`Class::Measured`],
/// from `named` (the report files of the batch's names, and maybe of others, ascending).
fn with_parts<'n>(
    batch: Vec<(String, Class)>,
    named: &'n Reported<'_>,
) -> Vec<(String, Class, Option<Vec<Part<'n>>>)> {
    let mut measured = named.measured().peekable();
    batch
        .into_iter()
        .map(|(path, class)| {
            while measured.next_if(|(name, _)| **name < path).is_some() {}
            let same = measured.next_if(|(name, _)| **name == path);
            let parts = match (&class, same) {
                (Class::Measured, Some((_, same))) => Some(scope::parts(same).collect()),
                _ => None,
            };
            (path, class, parts)
        })
        .collect()
}

/// The verdict on the judged `files` (in their final order).
fn verdict(files: Vec<FileVerdict>, outside_include: usize, policy: &Policy) -> Verdict {
    let mut unavailable: Vec<Metric> = files
        .iter()
        .filter(|f| f.status != FileStatus::Excluded)
        .flat_map(|f| f.metrics.iter())
        .filter(|m| m.status == MetricStatus::Unavailable)
        .map(|m| m.metric)
        .collect();
    unavailable.sort();
    unavailable.dedup();
    let nothing = files
        .iter()
        .all(|f| matches!(f.status, FileStatus::Excluded | FileStatus::NoCode));
    let empty = match (nothing, &policy.allow_empty) {
        (false, _) => Empty::No,
        (true, None) => Empty::Fails,
        (true, Some(reason)) => Empty::Allowed(reason.clone()),
    };
    Verdict {
        files,
        outside_include,
        dropped: Vec::new(),
        unavailable,
        empty,
    }
}

/// One file judged, with its measurement when it has one.
type Done<'a> = (FileVerdict, Option<Measured<'a>>);

fn judge_file(
    path: String,
    class: Class,
    measured: Option<&Measured<'_>>,
    policy: &Policy,
) -> FileVerdict {
    let metrics = measured.map_or_else(Metrics::default, |m| judge_metrics(&m.summary, policy));
    let failing = metrics.iter().any(|m| m.status.fails());
    let below: Vec<Metric> = metrics
        .iter()
        .filter(|m| m.status == MetricStatus::Fail)
        .map(|m| m.metric)
        .collect();
    let uncovered = match (&class, measured) {
        (Class::Measured, Some(m)) if !below.is_empty() => {
            Listed::from(uncovered::list(&m.coverage, &below, &m.summary))
        }
        _ => Listed::default(),
    };
    let (status, reason) = match class {
        Class::Measured if failing => (FileStatus::Fail, None),
        Class::Measured => (FileStatus::Pass, None),
        Class::Excluded(reason) => (FileStatus::Excluded, Some(reason.into_string())),
        Class::NoCode => (FileStatus::NoCode, None),
        Class::Unmeasured(why) => (FileStatus::Unmeasured, Some(why.into_string())),
    };
    FileVerdict {
        path,
        status,
        metrics,
        reason,
        uncovered,
        ignored: (measured.map(|m| m.ignored))
            .filter(|ignored| *ignored != Ignored::default())
            .map(Box::new),
        coverage_off: Box::default(),
    }
}

/// Judges each policy metric of one summary.
pub(crate) fn judge_metrics(summary: &Summary, policy: &Policy) -> Metrics {
    policy
        .metrics
        .iter()
        .map(|&metric| {
            let counts = summary.get(metric);
            MetricVerdict {
                metric,
                counts,
                status: metric_status(counts, policy.threshold),
                allowed: None,
            }
        })
        .collect()
}

/// The status of one metric's counts against a threshold: no counts are unavailable, a total
/// of 0 is vacuous, else [`Threshold::meets`] (exact, in integers) decides.
pub(crate) fn metric_status(counts: Option<Counts>, threshold: Threshold) -> MetricStatus {
    match counts {
        None => MetricStatus::Unavailable,
        Some(c) if c.total == 0 => MetricStatus::Vacuous,
        Some(c) if threshold.meets(c) => MetricStatus::Pass,
        Some(_) => MetricStatus::Fail,
    }
}

/// What to do about an unavailable metric.
pub(crate) fn unavailable_hint(metric: Metric) -> &'static str {
    match metric {
        Metric::Regions => "regions are not in LCOV tracefiles, nor in a JSON file entry without function records: check a full llvm-cov JSON export (`cargo llvm-cov --json`), or drop \"regions\" from `metrics`",
        Metric::Branches => "a report holds no branch data: an llvm-cov JSON export has it when made with `cargo +nightly llvm-cov --branch`, an LCOV tracefile as `BRDA` records (`cargo +nightly llvm-cov --lcov --branch`); produce the reports so, or drop \"branches\" from `metrics`",
        Metric::Functions => "a report holds no function data: an LCOV tracefile without any `FN`/`FNDA` record (gcov2lcov, Dart's format_coverage, coverage.py before 7.6.2, llvm-cov's `-skip-functions` rewritten by lcov) measures no function; produce the reports with function records, or drop \"functions\" from `metrics`",
        Metric::Lines => "a report holds no line data: an LCOV tracefile without any `DA` record measures no line; produce the reports with line records, or drop \"lines\" from `metrics`",
        Metric::Mcdc => "the input holds no MC/DC data: LCOV tracefiles carry none, and an llvm-cov JSON export has it only for the files built with `clang -fcoverage-mapping -fcoverage-mcdc` (clang 18 or later); a file with branches but no MC/DC condition reads as built without it (its `&&`/`||` conditions are then plain branches), even when each of its decisions has one condition; build so and export with `llvm-cov export`, or drop \"mcdc\" from `metrics`",
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;
    use crate::scope::Named;

    fn t(percent: f64) -> Threshold {
        Threshold::from_f64(percent).unwrap()
    }

    /// An export whose files each have one line, covered `count` times.
    fn export(files: &[(&str, u64)]) -> crate::report::Report {
        let entries: Vec<String> = files
            .iter()
            .map(|(name, count)| {
                let covered = u64::from(*count > 0);
                format!(
                    r#"{{"filename":"{name}","summary":{{"lines":{{"count":1,"covered":{covered}}},
                    "functions":{{"count":1,"covered":{covered}}},"instantiations":{{"count":1,"covered":{covered}}},
                    "regions":{{"count":1,"covered":{covered}}},"branches":{{"count":0,"covered":0}}}}}}"#
                )
            })
            .collect();
        let functions: Vec<String> = files
            .iter()
            .map(|(name, count)| {
                format!(
                    r#"{{"name":"f","count":{count},"filenames":["{name}"],"regions":[[1,1,1,9,{count},0,0,0]],"branches":[]}}"#
                )
            })
            .collect();
        let text = format!(
            r#"{{"type":"llvm.coverage.json.export","version":"3.1.0","data":[{{"files":[{}],"functions":[{}]}}]}}"#,
            entries.join(","),
            functions.join(",")
        );
        crate::report::llvm_json::read("r", text.as_bytes()).expect("export")
    }

    #[test]
    fn files_are_measured_as_judged_and_only_the_selected_measurements_kept() {
        let report = export(&[("a.rs", 1), ("b.rs", 0), ("d.rs", 1), ("e.rs", 1)]);
        // `e.rs` is named by the report and not in scope (selected by no `include`).
        let named = report.files.iter().enumerate().map(|(place, file)| Named {
            location: crate::paths::Location::Inside(file.path.clone()),
            report: &report,
            place,
            file: file.clone(),
        });
        let reported = Reported::new(named.collect());
        let files = [
            ("a.rs".into(), Class::Measured),
            ("b.rs".into(), Class::Measured),
            ("c.rs".into(), Class::Unmeasured("why".into())),
            ("d.rs".into(), Class::Excluded("generated".into())),
        ]
        .into_iter()
        .collect();
        let scope = Scope {
            files,
            ..Scope::default()
        };
        let policy = Policy::parse(
            std::path::Path::new("p.toml"),
            "[measure]\nmetrics = [\"lines\"]\n",
        )
        .expect("policy");
        let keep = |path: &str| path == "b.rs";
        let (verdict, judged) = evaluate(
            scope,
            reported,
            &BTreeMap::new(),
            &BTreeMap::new(),
            &policy,
            &keep,
        )
        .expect("judged");
        let files: Vec<(&str, FileStatus)> = verdict
            .files
            .iter()
            .map(|f| (f.path.as_str(), f.status))
            .collect();
        assert_eq!(
            files,
            [
                ("b.rs", FileStatus::Fail),
                ("c.rs", FileStatus::Unmeasured),
                ("a.rs", FileStatus::Pass),
                ("d.rs", FileStatus::Excluded),
            ]
        );
        let lines = |at: usize| verdict.files[at].metrics.get(Metric::Lines);
        assert_eq!(lines(0).and_then(|m| m.counts), Some(Counts::new(0, 1)));
        assert_eq!(lines(2).and_then(|m| m.counts), Some(Counts::new(1, 1)));
        assert_eq!(verdict.files[0].uncovered.lines.len(), 1);
        // Only the selected file's measurement is kept, with its counts.
        let kept: Vec<&String> = judged.kept.iter().map(|(path, _)| path).collect();
        assert_eq!(kept, ["b.rs"]);
        let b = judged.kept.get("b.rs").expect("b.rs");
        assert_eq!(b.summary.lines, Some(Counts::new(0, 1)));
        assert!(judged.mcdc.is_empty());
        assert!(judged.notes.is_empty());
    }

    #[test]
    fn statuses() {
        assert_eq!(metric_status(None, t(100.0)), MetricStatus::Unavailable);
        assert_eq!(
            metric_status(Some(Counts::new(0, 0)), t(100.0)),
            MetricStatus::Vacuous
        );
        assert_eq!(
            metric_status(Some(Counts::new(3, 3)), t(100.0)),
            MetricStatus::Pass
        );
        assert_eq!(
            metric_status(Some(Counts::new(2, 3)), t(100.0)),
            MetricStatus::Fail
        );
        assert_eq!(
            metric_status(Some(Counts::new(2, 3)), t(66.0)),
            MetricStatus::Pass
        );
        assert_eq!(
            metric_status(Some(Counts::new(2, 3)), t(66.7)),
            MetricStatus::Fail
        );
        assert_eq!(
            metric_status(Some(Counts::new(2, 3)), t(66.6)),
            MetricStatus::Pass
        );
        let big = u64::MAX;
        assert_eq!(
            metric_status(Some(Counts::new(big - 1, big)), t(100.0)),
            MetricStatus::Fail
        );
        assert_eq!(
            metric_status(Some(Counts::new(0, 5)), t(0.0)),
            MetricStatus::Pass
        );
    }

    #[test]
    fn unavailable_hints_say_how_to_get_or_drop_the_metric() {
        let regions = unavailable_hint(Metric::Regions);
        assert!(regions.starts_with("regions are not in LCOV tracefiles"));
        assert!(regions.contains("cargo llvm-cov --json"));
        assert!(regions.ends_with("drop \"regions\" from `metrics`"));
        let branches = unavailable_hint(Metric::Branches);
        assert!(branches.contains("cargo +nightly llvm-cov --branch"));
        // Worded for both inputs: an LCOV tracefile carries branches as BRDA records.
        assert!(branches.contains("an LCOV tracefile as `BRDA` records"));
        assert!(!branches.contains("the export holds"));
        assert!(branches.ends_with("drop \"branches\" from `metrics`"));
        // Functions and lines: LCOV writers that record neither.
        let functions = unavailable_hint(Metric::Functions);
        assert!(
            functions.contains("without any `FN`/`FNDA` record"),
            "{functions}"
        );
        assert!(functions.ends_with("drop \"functions\" from `metrics`"));
        let lines = unavailable_hint(Metric::Lines);
        assert!(lines.contains("without any `DA` record"), "{lines}");
        assert!(lines.ends_with("drop \"lines\" from `metrics`"));
        let mcdc = unavailable_hint(Metric::Mcdc);
        assert!(mcdc.contains("-fcoverage-mcdc"), "{mcdc}");
        assert!(mcdc.ends_with("drop \"mcdc\" from `metrics`"), "{mcdc}");
    }
}
