//! llvm-cov JSON export reader. (Being written: see the helper's brief.)

use crate::error::Result;
use crate::model::Counts;

use super::Report;

/// A file's summary as llvm-cov computes it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LlvmSummary {
    /// Code regions.
    pub regions: Counts,
    /// Functions (instantiation groups).
    pub functions: Counts,
    /// Instantiations (function records).
    pub instantiations: Counts,
    /// Lines.
    pub lines: Counts,
    /// Branch sides.
    pub branches: Counts,
}

/// Per-record statistics of one function record whose main file is this file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionStats {
    /// Mangled name.
    pub name: String,
    /// Execution count of the record.
    pub count: u64,
    /// Group key: (line, column) where the record's first main-file region starts.
    pub key: (u32, u32),
    /// Code regions of the record.
    pub regions: Counts,
    /// Lines of the record (llvm-cov's line rule over its main-file regions).
    pub lines: Counts,
    /// Branch sides of the record.
    pub branches: Counts,
}

/// One file of a JSON export.
#[derive(Debug, Clone, PartialEq)]
pub struct LlvmFile {
    /// The export's own per-file `summary`.
    pub summary: LlvmSummary,
    /// Function records whose main file is this file; `None` for a `-summary-only` export.
    pub functions: Option<Vec<FunctionStats>>,
}

/// Recomputes a file summary from function records, by llvm-cov's instantiation-group rule.
pub fn recompute(_functions: &[FunctionStats]) -> LlvmSummary {
    LlvmSummary::default()
}

/// Reads an llvm-cov JSON export.
pub fn read(origin: &str, _bytes: &[u8]) -> Result<Report> {
    Err(crate::error::Error::new(format!("{origin}: JSON not yet supported")))
}
