//! Reading coverage reports (llvm-cov JSON exports and LCOV tracefiles) into the coverage model.
//!
//! The format is detected from the content, never the file name: a document whose first
//! non-whitespace byte (after an optional UTF-8 BOM) is `{` is an llvm-cov JSON export, anything
//! else is read as LCOV. An empty input is an error.

pub mod lcov;
pub mod llvm_json;

use crate::error::{Error, Result};

/// The format (and version) of one report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReportKind {
    /// `llvm-cov export -format=text` (or `cargo llvm-cov --json`), with its `version` string.
    LlvmJson {
        /// The export's `version` field, e.g. `"3.1.0"`.
        version: String,
        /// True for a `-summary-only` export (no `functions`, no per-file detail).
        summary_only: bool,
    },
    /// An LCOV tracefile.
    Lcov,
}

impl ReportKind {
    /// A short human description, e.g. `llvm-cov JSON 3.1.0` or `LCOV`.
    pub fn describe(&self) -> String {
        match self {
            ReportKind::LlvmJson {
                version,
                summary_only: false,
            } => format!("llvm-cov JSON {version}"),
            ReportKind::LlvmJson {
                version,
                summary_only: true,
            } => format!("llvm-cov JSON {version} (summary only)"),
            ReportKind::Lcov => "LCOV".to_string(),
        }
    }
}

/// One report as read, before path normalisation.
#[derive(Debug, Clone)]
pub struct Report {
    /// Where it came from: the path given on the command line, or `<stdin>`.
    pub origin: String,
    /// Detected format and version.
    pub kind: ReportKind,
    /// cargo-llvm-cov's `cargo_llvm_cov.manifest_path`, when present (a hint for the root).
    pub manifest_path: Option<String>,
    /// False when the report holds no branch record at all (a JSON export made without
    /// `--branch`; an LCOV tracefile without any `BRDA`, as stable `cargo llvm-cov --lcov` writes):
    /// branches are then unavailable, not 0 of 0.
    pub has_branch_data: bool,
    /// Files as the report names them (raw, unnormalised paths), in report order.
    pub files: Vec<FileData>,
    /// Problems that did not stop the read, each `"<origin>:<line>: …"` (LCOV: unknown records,
    /// a missing final `end_of_record`, …). `covgate check` prints them on stderr.
    pub warnings: Vec<String>,
}

/// One file of a report, under the path the report gives it.
#[derive(Debug, Clone)]
pub struct FileData {
    /// The path exactly as written in the report (`SF:` or `filename`).
    pub path: String,
    /// The coverage behind the file's numbers.
    pub coverage: FileCoverage,
}

/// The coverage of one file, by input format.
#[derive(Debug, Clone)]
pub enum FileCoverage {
    /// LCOV records of the file (all sections of one path merged).
    Lcov(lcov::LcovFile),
    /// llvm-cov JSON summary and function detail of the file.
    Llvm(llvm_json::LlvmFile),
}

/// Reads one report from its bytes, detecting the format.
///
/// Errors: empty input; malformed JSON or LCOV (with file and line); an unknown major version.
pub fn read(origin: &str, bytes: &[u8]) -> Result<Report> {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match body.iter().find(|b| !b.is_ascii_whitespace()) {
        None => Err(Error::new(format!(
            "{origin}: the report is empty; produce it with `cargo llvm-cov --json --output-path FILE` or `--lcov`"
        ))),
        Some(b'{') => llvm_json::read(origin, bytes),
        Some(_) => lcov::read(origin, bytes),
    }
}
