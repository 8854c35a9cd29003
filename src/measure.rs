//! Counting: merging every report's data for one normalised file and computing its summary.
//!
//! Merge rules (several reports on one command line are shards of one run, and one export may
//! name one physical file under two spellings):
//! - LCOV with LCOV: records summed per line, branch and function (see [`crate::report::lcov`]);
//!   llvm-cov sections whose declared totals their records cannot reproduce are refused (an
//!   error asking for a profile-level merge or the JSON exports), and so are sections in
//!   another writer's shape that sum Rust instantiations that ran (an llvm-cov tracefile
//!   rewritten by lcov), and a file whose sections place one Rust symbol at two start lines
//!   (two builds of different source: a stale tracefile among the reports, [`stale`]).
//! - llvm-cov JSON with JSON: when every part carries function detail, the function records are
//!   pooled ([`llvm_json::pool`]) and the summary recomputed by llvm-cov's instantiation-group
//!   rule ([`llvm_json::recompute`]). Records of one compiled function in different exports
//!   (same name, start and region/branch layout: the same test binary run as two partitions or
//!   CI shards; the same MC/DC decisions too) are summed, as `llvm-profdata merge` sums the
//!   runs' counters, so the merge equals the report of one run of all the tests. Records that differ (generic instantiations,
//!   a file built into two crates, several spellings in one export) stay distinct and llvm-cov's
//!   rule takes the best single record per group, as llvm-cov would had they been in one
//!   export; one Rust symbol mapped differently in two exports (two builds of different
//!   source, a stale export among the reports) is refused ([`stale`]). When a part is `-summary-only`, the parts must agree exactly; otherwise the merge
//!   is refused with an error naming the reports.
//! - LCOV with JSON for the same file: refused (the formats count differently).
//! - Branches and MC/DC of a merged file are unavailable when a function only parts without
//!   that data hold; for branches also when lines of a JSON function's code only parts without
//!   branch records hold, or an LCOV function only sections without `BRDA` of one tracefile
//!   ([`gaps`]).
//! - A file named once keeps its report's own numbers (llvm-cov's per-file summary, exactly).

use std::collections::BTreeMap;
use std::ops::Deref;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::markers::Ignores;
use crate::model::{Counts, Summary};
use crate::report::llvm_json::{self, FunctionStats, LlvmFile, LlvmSummary};
use crate::report::{FileCoverage, Report};

mod apply;
mod gaps;
mod stale;

pub use apply::{apply, Ignored};
pub(crate) use gaps::{notes as unmeasured_notes, Unmeasured};

/// One report file's contribution to a normalised file.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Part<'a> {
    /// The report it comes from.
    pub report: &'a Report,
    /// The coverage the report holds for it.
    pub coverage: &'a FileCoverage,
}

/// A measured file: its merged coverage and the summary judged.
#[derive(Debug, Clone)]
pub(crate) struct Measured<'a> {
    /// The four metric counts (`None` = not available from this input).
    pub summary: Summary,
    /// The merged coverage behind the summary (for listing uncovered items): the report's own
    /// when one report names the file and no marker applies, so nothing is copied.
    pub coverage: Coverage<'a>,
    /// What inline ignore markers took out of the file's metrics.
    pub ignored: Ignored,
    /// The code no part measured for branches or MC/DC, when the file is merged from several
    /// parts (or LCOV sections) of which some lack that data (those metrics are then
    /// unavailable; see [`gaps`]); `None` otherwise.
    pub unmeasured: Option<Box<Unmeasured>>,
}

impl Measured<'_> {
    /// The measurement with its own copy of the report's coverage it points to, so that it
    /// outlives the report file (freed once judged: see [`crate::judge::evaluate`]).
    pub(crate) fn into_owned(self) -> Measured<'static> {
        let coverage = match self.coverage {
            Coverage::Read(read) => Box::new(read.clone()),
            Coverage::Made(made) => made,
        };
        Measured {
            summary: self.summary,
            coverage: Coverage::Made(coverage),
            ignored: self.ignored,
            unmeasured: self.unmeasured,
        }
    }
}

/// The coverage behind a measured file: one pointer either way, so that the measurements of
/// 30,000 files do not each hold room for a whole [`FileCoverage`].
#[derive(Debug, Clone)]
pub(crate) enum Coverage<'a> {
    /// The report's own (one report names the file, and no marker applies).
    Read(&'a FileCoverage),
    /// Made by merging several parts, or by taking out what markers ignore.
    Made(Box<FileCoverage>),
}

impl Deref for Coverage<'_> {
    type Target = FileCoverage;

    fn deref(&self) -> &FileCoverage {
        match self {
            Coverage::Read(coverage) => coverage,
            Coverage::Made(coverage) => coverage,
        }
    }
}

/// Measured files by root-relative path, ascending, one per path: what [`measure`] gives. A
/// sorted vector rather than a map, so the measurements of 189,000 files take one allocation
/// of their size (a map built from them took a second copy while it was built).
#[derive(Debug, Default)]
pub(crate) struct MeasuredFiles<'a>(Vec<(String, Measured<'a>)>);

impl<'a> MeasuredFiles<'a> {
    /// The measurement of `path`.
    pub(crate) fn get(&self, path: &str) -> Option<&Measured<'a>> {
        let at = self
            .0
            .binary_search_by(|(p, _)| p.as_str().cmp(path))
            .ok()?;
        self.0.get(at).map(|(_, m)| m)
    }

    /// Every (path, measurement), by path.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&String, &Measured<'a>)> {
        self.0.iter().map(|(p, m)| (p, m))
    }
}

impl<'a> IntoIterator for MeasuredFiles<'a> {
    type Item = (String, Measured<'a>);
    type IntoIter = std::vec::IntoIter<(String, Measured<'a>)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// Measurements of distinct paths in any order, sorted by path.
impl<'a> FromIterator<(String, Measured<'a>)> for MeasuredFiles<'a> {
    fn from_iter<I: IntoIterator<Item = (String, Measured<'a>)>>(files: I) -> Self {
        let mut files: Vec<(String, Measured<'a>)> = files.into_iter().collect();
        files.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        MeasuredFiles(files)
    }
}

/// Merges and counts every measured file. `parts` maps root-relative paths to their parts.
///
/// Branches are available for a file when at least one report naming it holds branch records
/// (see [`Report::has_branch_data`](crate::report::Report::has_branch_data)); otherwise they are
/// unavailable (`None`), never 0 of 0: a file only a stable shard names was not measured for
/// branches, whatever the other shards hold. MC/DC is available for a file when a part
/// measures it ([`measures_mcdc`], decided per file), else unavailable. In a merge, both are
/// also decided per function (branches of JSON functions per line of their code): a file with
/// code that only parts without the data hold has the metric unavailable
/// ([`Measured::unmeasured`] names the functions).
///
/// Files with inline ignore markers (`ignores`, by path) have the ignored items taken out after
/// merging (see [`apply`]).
///
/// Errors: a file that is in both an LCOV and a JSON report; JSON parts that cannot be merged;
/// markers in a file that only a `-summary-only` export names.
pub(crate) fn measure<'a>(
    parts: &BTreeMap<String, Vec<Part<'a>>>,
    ignores: &BTreeMap<String, Ignores>,
) -> Result<MeasuredFiles<'a>> {
    // Measured on every core, then gathered in path order (the first error in that order wins;
    // the results' vector becomes the files' in place).
    let measured: Vec<Result<(String, Measured<'a>)>> = parts
        .par_iter()
        .map(|(path, parts)| Ok((path.clone(), measure_one(path, parts, ignores.get(path))?)))
        .collect();
    measured
        .into_iter()
        .collect::<Result<_>>()
        .map(MeasuredFiles)
}

/// Merges and counts one file from its `parts` (at least one), with its inline `ignores` if
/// any: what [`measure`] does for each file.
///
/// Errors: as for [`measure`].
pub(crate) fn measure_one<'a>(
    path: &str,
    parts: &[Part<'a>],
    ignores: Option<&Ignores>,
) -> Result<Measured<'a>> {
    let origins: Vec<String> = parts.iter().map(|p| p.report.origin.clone()).collect();
    let branches_available = parts.iter().any(|p| p.report.has_branch_data);
    let mcdc_available = parts.iter().any(measures_mcdc);
    let unmeasured = gaps::unmeasured(parts, branches_available, mcdc_available);
    let gap = unmeasured.as_deref();
    let branches_available = branches_available && gap.is_none_or(|u| u.branches.is_empty());
    let mcdc_available = mcdc_available && gap.is_none_or(|u| u.mcdc.is_empty());
    let merged = merge(path, parts)?;
    if let FileCoverage::Lcov(file) = &*merged {
        stale::check_lcov(path, parts, file)?;
        if file.merge_conflict() {
            return Err(lcov_conflict(path, &origins));
        }
        if let Some((line, function)) = file.summed_instantiations() {
            return Err(lcov_summed(path, line, &function, &origins));
        }
    }
    let (coverage, ignored) = match ignores {
        Some(ignores) => {
            let (applied, ignored) = apply(path, &merged, ignores, &origins)?;
            (Coverage::Made(Box::new(applied)), ignored)
        }
        None => (merged, Ignored::default()),
    };
    let mut summary = match &*coverage {
        FileCoverage::Lcov(file) => file.summary(),
        FileCoverage::Llvm(file) => llvm_summary(&file.summary),
    };
    summary.branches = summary.branches.filter(|_| branches_available);
    summary.mcdc = summary.mcdc.filter(|_| mcdc_available);
    // A tracefile whose writer records no function (or no line) measures none: unavailable.
    let functions_available = parts.iter().any(|p| p.report.has_function_data);
    let lines_available = parts.iter().any(|p| p.report.has_line_data);
    summary.functions = summary.functions.filter(|_| functions_available);
    summary.lines = summary.lines.filter(|_| lines_available);
    Ok(Measured {
        summary,
        coverage,
        ignored,
        unmeasured,
    })
}

/// Whether a part measures MC/DC for its file, decided per file (one export may link files
/// built with and without `-fcoverage-mcdc`). Only an llvm-cov JSON export with MC/DC data
/// somewhere ([`Report::has_mcdc_data`]) can, and there, from the file's own summary (kept at
/// every reading detail, `-summary-only` included):
/// - a file that counts MC/DC conditions was built for MC/DC;
/// - a file without branches has no decision at all: MC/DC is 0 of 0;
/// - a file with branches but no MC/DC condition holds only plain branch regions (kind 4, no
///   `MCDCBranchRegion`, kind 6, and no `mcdc_records`): either a build without
///   `-fcoverage-mcdc` (its `&&`/`||` conditions then plain branches) or a build with it whose
///   decisions all have one condition. The export cannot tell them apart, so MC/DC is
///   unavailable for it (with the hint to build with `-fcoverage-mcdc`), never a silent 0 of 0.
fn measures_mcdc(part: &Part<'_>) -> bool {
    let FileCoverage::Llvm(file) = part.coverage else {
        return false;
    };
    let summary = &file.summary;
    part.report.has_mcdc_data && (summary.mcdc.total > 0 || summary.branches.total == 0)
}

/// The error for llvm-cov LCOV sections of one file that cannot be merged exactly (see
/// [`LcovFile::merge_conflict`](crate::report::lcov::LcovFile::merge_conflict)).
fn lcov_conflict(path: &str, origins: &[String]) -> Error {
    Error::new(format!(
        "{path}: llvm-cov LCOV sections from {} cannot be merged exactly: llvm-cov counts lines \
         and branches per instantiation group (the best single instantiation, or copy built into \
         another test binary, of a function), and tracefiles carry only records summed over \
         instantiations and declared totals (LF/LH, BRF/BRH, FNF/FNH) that do not add up: a \
         section's totals are not what its records count, or instantiations of one function ran \
         in different sections. Merge the runs' profiles first (`cargo llvm-cov report --lcov` \
         over all of them) or give the JSON exports (`--json`), which covgate merges exactly",
        origins.join(", ")
    ))
}

/// The error for an LCOV file, not in llvm-cov's shape, whose records sum instantiations of a
/// Rust function that ran (see
/// [`LcovFile::summed_instantiations`](crate::report::lcov::LcovFile::summed_instantiations)).
fn lcov_summed(path: &str, line: u32, function: &str, origins: &[String]) -> Error {
    Error::new(format!(
        "{path}:{line}: `{function}` has several instantiations (or copies built into several \
         test binaries) that ran, and the LCOV records of {} sum them in a section that is not \
         in llvm-cov's shape (rewritten by `lcov -a`, `lcov --remove` or another tool, which \
         recount LF/LH and BRF/BRH from the summed records): llvm-cov counts lines and branches \
         per instantiation group (the best single instantiation), so this file cannot be \
         counted exactly. Give the llvm-cov export (`cargo llvm-cov --json`) or an unmodified \
         `cargo llvm-cov --lcov` tracefile",
        origins.join(", ")
    ))
}

/// The model summary of an llvm-cov file summary.
///
/// llvm-cov counts every line from the regions of a function record, so a file that counts
/// lines but no function carries no data for functions and regions (a summary written without
/// its records): those two are unavailable (failing closed, as a metric the input cannot carry),
/// never a vacuous 0 of 0.
pub fn llvm_summary(s: &LlvmSummary) -> Summary {
    let carried = |c: Counts| Some(c).filter(|_| s.lines.total == 0 || s.functions.total > 0);
    Summary {
        regions: carried(s.regions),
        branches: Some(s.branches),
        functions: carried(s.functions),
        lines: Some(s.lines),
        mcdc: Some(s.mcdc),
    }
}

/// The coverage of a file from its parts: borrowed when there is one part.
fn merge<'a>(path: &str, parts: &[Part<'a>]) -> Result<Coverage<'a>> {
    if let [only] = parts {
        return Ok(Coverage::Read(only.coverage));
    }
    merge_parts(path, parts).map(|made| Coverage::Made(Box::new(made)))
}

fn merge_parts(path: &str, parts: &[Part<'_>]) -> Result<FileCoverage> {
    let mut lcov = Vec::new();
    let mut llvm = Vec::new();
    for part in parts {
        match part.coverage {
            FileCoverage::Lcov(f) => lcov.push(&**f),
            FileCoverage::Llvm(f) => llvm.push((part.report, &**f)),
        }
    }
    match (lcov.split_first(), llvm.is_empty()) {
        (Some((first, rest)), true) => {
            let mut merged = Box::new((*first).clone());
            merged.merge_all(rest.iter().map(|other| (*other).clone()));
            Ok(FileCoverage::Lcov(merged))
        }
        (None, false) => merge_llvm(path, &llvm).map(|f| FileCoverage::Llvm(Box::new(f))),
        _ => {
            let origins = |lcov: bool| -> Vec<&str> {
                let parts = parts
                    .iter()
                    .filter(|p| matches!(p.coverage, FileCoverage::Lcov(_)) == lcov);
                parts.map(|p| p.report.origin.as_str()).collect()
            };
            Err(Error::new(format!(
                "{path}: named by both LCOV and llvm-cov JSON reports (LCOV: {}; JSON: {}); they count differently, so give this file in one format: the JSON exports only (merged exactly) or the tracefiles only",
                origins(true).join(", "),
                origins(false).join(", ")
            )))
        }
    }
}

fn merge_llvm(path: &str, parts: &[(&Report, &LlvmFile)]) -> Result<LlvmFile> {
    let mut exports: Vec<(&Report, Vec<FunctionStats>)> = Vec::new();
    for (report, file) in parts {
        let Some(functions) = &file.functions else {
            return merge_summaries(path, parts);
        };
        match exports.iter_mut().find(|(r, _)| std::ptr::eq(*r, *report)) {
            Some((_, records)) => records.extend(functions.iter().cloned()),
            None => exports.push((report, functions.clone())),
        }
    }
    stale::check(path, &exports)?;
    let functions = llvm_json::pool(exports.into_iter().map(|(_, f)| f).collect());
    let mut summary = llvm_json::recompute(&functions);
    let missed = summary.branches.total - summary.branches.covered;
    summary.branches.total -= folded(parts, summary.branches.total).min(missed);
    Ok(LlvmFile {
        summary,
        functions: Some(functions),
    })
}

/// The branch sides of a merge that llvm-cov folds (constant conditions such as `true && x`
/// or `cfg!(…)`): the records list them with a count of 0, but llvm-cov's summaries leave them
/// out, and the JSON does not say which they are. When every part is a run of the same code
/// (its records count `total` sides, as the merge does: test partitions, CI shards), each
/// part folds the same sides, as many as its records count beyond its own summary; that many
/// are left out of the merge, as `llvm-cov report` over the merged profiles leaves them out.
/// Otherwise none (the merge then counts folded sides as missed: stricter, never laxer).
fn folded(parts: &[(&Report, &LlvmFile)], total: u64) -> u64 {
    let folds: Vec<Option<u64>> = parts
        .iter()
        .map(|(_, file)| {
            let records = llvm_json::recompute(file.functions.as_deref().unwrap_or_default());
            let counted = records.branches.total;
            (counted == total).then(|| counted.saturating_sub(file.summary.branches.total))
        })
        .collect();
    match folds.split_first() {
        Some((Some(first), rest)) if rest.iter().all(|d| *d == Some(*first)) => *first,
        _ => 0,
    }
}

fn merge_summaries(path: &str, parts: &[(&Report, &LlvmFile)]) -> Result<LlvmFile> {
    match parts {
        [(_, first), rest @ ..] if rest.iter().all(|(_, f)| f.summary == first.summary) => {
            Ok((*first).clone())
        }
        _ => {
            let origins: Vec<&str> = parts.iter().map(|(r, _)| r.origin.as_str()).collect();
            Err(Error::new(format!(
                "{path}: named more than once ({}) with different numbers, and a part without \
                 function records (a summary-only export, or a file no record of its export \
                 belongs to) carries no detail to merge them; give full exports (without \
                 -summary-only)",
                origins.join(", ")
            )))
        }
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    /// An export of `a.rs` with one function whose branch entry has sides (`t`, `f`), and a
    /// summary that counts `summary_branches` sides.
    fn export(t: u64, f: u64, summary_branches: u64) -> Report {
        let text = format!(
            r#"{{"type":"llvm.coverage.json.export","version":"3.1.0","data":[{{"files":[{{"filename":"a.rs","summary":{{
            "lines":{{"count":1,"covered":1}},"functions":{{"count":1,"covered":1}},"instantiations":{{"count":1,"covered":1}},
            "regions":{{"count":1,"covered":1}},"branches":{{"count":{summary_branches},"covered":0}}}}}}],
            "functions":[{{"name":"f","count":1,"filenames":["a.rs"],"regions":[[1,1,1,9,1,0,0,0]],
            "branches":[[1,2,1,5,{t},{f},0,0,4]]}}]}}]}}"#
        );
        crate::report::llvm_json::read("r", text.as_bytes()).expect("export")
    }

    fn merged_branches(reports: &[&Report]) -> crate::model::Counts {
        let parts: Vec<Part<'_>> = reports
            .iter()
            .map(|&report| Part {
                report,
                coverage: &report.files[0].coverage,
            })
            .collect();
        let mut map = BTreeMap::new();
        map.insert("a.rs".to_string(), parts);
        let measured = measure(&map, &BTreeMap::new()).expect("measured");
        measured
            .get("a.rs")
            .expect("a.rs")
            .summary
            .branches
            .expect("branches")
    }

    #[test]
    fn a_measurement_made_owned_keeps_its_numbers_and_outlives_the_report() {
        let (one, other) = (export(1, 0, 2), export(0, 3, 2));
        fn part(report: &Report) -> Part<'_> {
            Part {
                report,
                coverage: &report.files[0].coverage,
            }
        }
        // One part: the report's own coverage, copied; merged parts: the merge, moved.
        let read = measure_one("a.rs", &[part(&one)], None).expect("read");
        let made = measure_one("a.rs", &[part(&one), part(&other)], None).expect("made");
        assert!(matches!(read.coverage, Coverage::Read(_)));
        assert!(matches!(made.coverage, Coverage::Made(_)));
        let (read, made) = (read.into_owned(), made.into_owned());
        drop((one, other));
        assert!(matches!(read.coverage, Coverage::Made(_)));
        // Named once: the export's own summary (0 of 2); merged: the records' (2 of 2).
        assert_eq!(read.summary.branches, Some(crate::model::Counts::new(0, 2)));
        assert_eq!(made.summary.branches, Some(crate::model::Counts::new(2, 2)));
        let FileCoverage::Llvm(file) = &*read.coverage else {
            panic!("not an export's file");
        };
        assert_eq!(file.functions.as_ref().map(Vec::len), Some(1));
    }

    #[test]
    fn sides_every_shard_folds_stay_out_of_the_merge() {
        // Both runs fold one side (their summaries count 1 of the 2 the records list).
        assert_eq!(
            merged_branches(&[&export(1, 0, 1), &export(2, 0, 1)]),
            crate::model::Counts::new(1, 1)
        );
        // Summaries that disagree on what is folded: nothing is left out.
        assert_eq!(
            merged_branches(&[&export(1, 0, 1), &export(2, 0, 2)]),
            crate::model::Counts::new(1, 2)
        );
        // Nothing folded: the records' count.
        assert_eq!(
            merged_branches(&[&export(1, 0, 2), &export(0, 3, 2)]),
            crate::model::Counts::new(2, 2)
        );
        // One export naming the file twice (two spellings): its records pool, unsummed; the
        // other export's record sums into the first of them.
        let (one, other) = (export(1, 0, 1), export(0, 1, 1));
        assert_eq!(
            merged_branches(&[&one, &one, &other]),
            crate::model::Counts::new(2, 2)
        );
        // With a summary-only part, the summaries must agree: they do here (both count one
        // side, none covered), and the export with records keeps its numbers.
        let mut summary_only = export(0, 0, 1);
        for file in &mut summary_only.files {
            if let FileCoverage::Llvm(llvm) = &mut file.coverage {
                llvm.functions = None;
            }
        }
        assert_eq!(
            merged_branches(&[&export(0, 0, 1), &summary_only]),
            crate::model::Counts::new(0, 1)
        );
    }
}
