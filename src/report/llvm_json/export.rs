//! The rules of an export's outer layers, in one place for the streaming reader
//! ([`super::stream`]) and the reference reader that tests check it against:
//! the root's `type` and `version`, the keys it must hold, how a parse error is worded, and how
//! the exports of `data` become one [`Report`].

use std::collections::{HashMap, HashSet};

use serde_json::error::Category;

use crate::error::{Error, Result};
use crate::report::{clip, FileCoverage, FileData, Report, ReportKind};

use super::evidence::{counts, Evidence};
use super::groups::in_batches;
use super::{FunctionStats, LlvmFile, LlvmSummary};

/// The only `type` an llvm-cov export has (LLVM `CoverageExporterJson.cpp`, `LLVM_COVERAGE_EXPORT_JSON_TYPE_STR`).
pub(super) const EXPORT_TYPE: &str = "llvm.coverage.json.export";
/// Major versions this reader understands (`LLVM_COVERAGE_EXPORT_JSON_STR`: 2.0.0 to 3.1.0 seen).
const SUPPORTED_MAJORS: [u32; 2] = [2, 3];
/// Advice appended to messages about documents that are not usable exports.
pub(super) const REMAKE: &str = "produce it with `cargo llvm-cov --json --output-path FILE` or \
                      `llvm-cov export -format=text`";

/// The root's `type` and `version`, as far as they were read.
#[derive(Debug, Default, Clone)]
pub(super) struct Header {
    pub(super) kind: Option<String>,
    pub(super) version: Option<String>,
}

impl Header {
    /// What is wrong with a `type` other than the export's or an unsupported version; absent
    /// values pass here.
    pub(super) fn problem(&self) -> Option<String> {
        if let Some(kind) = self.kind.as_deref().filter(|k| *k != EXPORT_TYPE) {
            return Some(format!(
                "`type` is \"{}\", not \"{EXPORT_TYPE}\": not an llvm-cov JSON export; {REMAKE}",
                clip(kind)
            ));
        }
        self.version
            .as_deref()
            .filter(|v| !is_supported(v))
            .map(unsupported)
    }
}

/// True for versions whose major number this reader understands (`2.0.1`, `3.1.0`, …): numbers
/// of ASCII digits joined by dots, nothing else, so a version that only starts like a known one
/// (`"2.0.1\n::error …"`, `"3 "`) is refused.
pub(super) fn is_supported(version: &str) -> bool {
    let well_formed = version
        .split('.')
        .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    let major = version
        .split('.')
        .next()
        .and_then(|m| m.parse::<u32>().ok());
    well_formed && major.is_some_and(|m| SUPPORTED_MAJORS.contains(&m))
}

fn unsupported(version: &str) -> String {
    format!(
        "unsupported llvm-cov JSON export version \"{}\"; covgate reads versions 2.x and 3.x \
         (2.0.0 to 3.1.0 seen); use an llvm-cov of LLVM 22 or older, or a newer covgate",
        clip(version)
    )
}

/// Rejects an empty `filename` or one holding a NUL byte (no file system allows one, so it can
/// only be corruption).
pub(super) fn check_filename(name: &str) -> std::result::Result<(), String> {
    if name.is_empty() {
        Err("a `files[]` entry has an empty `filename`".to_string())
    } else if name.contains('\0') {
        Err(format!(
            "`filename` {:?} holds a NUL byte, which no file system allows in a path",
            clip(name)
        ))
    } else {
        Ok(())
    }
}

/// What kind of problem a parse error is, which decides its wording ([`word`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// The document ends inside a value.
    Eof,
    /// Not JSON.
    Syntax,
    /// JSON, but not an export (a value of the wrong type or range, a key twice, …).
    Data,
}

impl Kind {
    /// The kind of a serde_json error.
    pub(super) fn of(err: &serde_json::Error) -> Kind {
        match err.classify() {
            Category::Eof => Kind::Eof,
            Category::Syntax => Kind::Syntax,
            Category::Data | Category::Io => Kind::Data,
        }
    }
}

/// A parser's message (without its position, clipped: serde_json quotes offending values, so a
/// huge string in the wrong place cannot make a huge message) worded for a user.
pub(super) fn word(kind: Kind, message: &str) -> String {
    let message = clip(message);
    match kind {
        Kind::Eof => {
            format!("the llvm-cov JSON export ends early (truncated?): {message}; {REMAKE}")
        }
        Kind::Syntax => format!("not valid JSON: {message}; {REMAKE}"),
        Kind::Data => format!("not a valid llvm-cov JSON export: {message}"),
    }
}

/// A serde_json error's message without the position serde_json appends.
pub(super) fn bare(err: &serde_json::Error) -> String {
    let position = format!(" at line {} column {}", err.line(), err.column());
    let text = err.to_string();
    text.strip_suffix(&position).unwrap_or(&text).to_string()
}

/// One element of `data`, reduced.
#[derive(Debug, Default)]
pub(super) struct Export {
    /// `files[]`: filename and own summary, in order.
    pub(super) files: Vec<(String, LlvmSummary)>,
    /// Records by main file, for the files that keep them; `None` when the export has no
    /// `functions` array.
    pub(super) functions: Option<HashMap<String, Vec<FunctionStats>>>,
    /// The files whose records were read without being kept.
    pub(super) skipped: HashSet<String>,
    /// True when any function record lists a branch.
    pub(super) has_branch_records: bool,
    /// What the records of each file of `files` show ran, by index (shorter when the last
    /// files have no record).
    pub(super) evidence: Vec<Evidence>,
    /// The same by file name, for records read before `files`.
    pub(super) named: HashMap<String, Evidence>,
}

/// The files of an export whose summaries claim more covered than their function records
/// show ([`Evidence`]) but whose records were not kept: the export must be read again keeping
/// them, to count them from their records.
pub(super) type Recount = Vec<String>;

/// The report of a whole document once it has been read: every required key must be there
/// (the values of `type` and `version` were checked as soon as they were read); with the
/// files to [`Recount`].
pub(super) fn finish(
    origin: &str,
    header: Header,
    manifest_path: Option<String>,
    exports: Option<Vec<Export>>,
) -> Result<(Report, Recount)> {
    let missing = |key: &str| {
        Error::new(format!(
            "{origin}: the llvm-cov JSON export has no `{key}`; {REMAKE}"
        ))
    };
    match (header.kind, header.version, exports) {
        (None, None, None) => Err(Error::new(format!(
            "{origin}: not an llvm-cov JSON export (no `type`, `version` or `data`); {REMAKE}"
        ))),
        (_, None, _) => Err(missing("version")),
        (None, _, _) => Err(missing("type")),
        (_, _, None) => Err(missing("data")),
        (Some(_), Some(version), Some(exports)) => {
            Ok(assemble(origin, version, manifest_path, exports))
        }
    }
}

/// The records of a file when they carry its summary: `None` for a file whose summary counts
/// items but that no record has as its main file (llvm-cov derives every count from the
/// records, so they are absent, as in a `-summary-only` export: recomputing from none would
/// say 0 of 0). A file that counts nothing keeps its (no) records: a C header holding only
/// macros, whose code is counted in the files that expand them.
fn carried(records: Vec<FunctionStats>, summary: &LlvmSummary) -> Option<Vec<FunctionStats>> {
    (!records.is_empty() || *summary == LlvmSummary::default()).then_some(records)
}

/// Counts nothing of `summary` as covered (each metric 0 of its total), for a file that counts
/// items while its export holds function records of other files but none of it: llvm-cov
/// derives every count from the records, so they were removed (a summary kept, or raised,
/// after its file's records were deleted), and nothing shows that any of its items ran. Says
/// so.
fn unproven(summary: &mut LlvmSummary) -> String {
    let claimed = *summary;
    for counts in counts(summary) {
        counts.covered = 0;
    }
    format!(
        "the summary claims regions {}, functions {} and lines {}, but the export holds no \
         function record of this file while it holds records of other files (llvm-cov derives \
         every count from the records: they were removed); nothing shows that any of them ran, \
         so covgate counts none as covered",
        claimed.regions, claimed.functions, claimed.lines
    )
}

/// One file of an export: its summary settled against its records ([`Evidence::settle`]) or
/// counted as [`unproven`] when `with_records` (its export holds records of other files) and
/// it has none, with what was said of it.
fn settle_file(
    origin: &str,
    path: String,
    mut summary: LlvmSummary,
    functions: Option<Vec<FunctionStats>>,
    shown: Evidence,
    with_records: bool,
) -> (FileData, Vec<String>) {
    let mut said = Vec::new();
    let settled = (functions.as_deref()).and_then(|f| shown.settle(&mut summary, f));
    said.extend(settled.map(|warning| format!("{origin}: {path}: {warning}")));
    if with_records && !shown.has_records() && summary != LlvmSummary::default() {
        said.push(format!("{origin}: {path}: {}", unproven(&mut summary)));
    }
    let coverage = FileCoverage::Llvm(Box::new(LlvmFile { summary, functions }));
    (FileData { path, coverage }, said)
}

/// Builds the report: every export's files in order, each with the records of its main file.
/// A summary that claims more covered than the file's records show, or fewer misses than they
/// prove, is counted from the records (see [`Evidence::settle`]), with a warning, or the file
/// is listed to [`Recount`] when its records were not kept. A file that counts items without a
/// record of its own in an export that holds records of other files counts none as covered
/// ([`unproven`]), with a warning.
fn assemble(
    origin: &str,
    version: String,
    manifest_path: Option<String>,
    exports: Vec<Export>,
) -> (Report, Recount) {
    let summary_only = !exports.is_empty() && exports.iter().all(|e| e.functions.is_none());
    let mut has_branch_data = false;
    let mut has_mcdc_data = false;
    let mut files = Vec::new();
    let (mut warnings, mut recount) = (Vec::new(), Vec::new());
    for export in exports {
        has_branch_data |= export.has_branch_records;
        let with_records = export.functions.is_some()
            && (export.evidence.iter().chain(export.named.values())).any(Evidence::has_records);
        let Export {
            files: listed,
            mut functions,
            skipped,
            evidence,
            named,
            ..
        } = export;
        // Each file's records taken out of the export in order, then settled on every core.
        let taken = (listed.into_iter().enumerate()).map(|(at, (path, summary))| {
            has_branch_data |= summary.branches.total > 0;
            has_mcdc_data |= summary.mcdc.total > 0;
            let shown = evidence.get(at).or_else(|| named.get(&path));
            let shown = shown.copied().unwrap_or_default();
            let records = match functions.as_mut() {
                Some(_) if skipped.contains(&path) => {
                    if shown.contradicts(&summary) {
                        recount.push(path.clone());
                    }
                    None
                }
                Some(by_file) => carried(by_file.remove(&path).unwrap_or_default(), &summary),
                None => None,
            };
            (path, summary, records, shown)
        });
        let settle = |(path, summary, records, shown)| {
            settle_file(origin, path, summary, records, shown, with_records)
        };
        in_batches(taken, settle, |(file, said)| {
            files.push(file);
            warnings.extend(said);
        });
    }
    let report = Report {
        origin: origin.to_string(),
        kind: ReportKind::LlvmJson {
            version,
            summary_only,
        },
        manifest_path,
        has_branch_data,
        has_mcdc_data,
        has_function_data: true,
        has_line_data: true,
        files,
        warnings,
    };
    (report, recount)
}
