//! LCOV tracefile reader. (Being written: see the helper's brief.)

use crate::error::Result;
use crate::model::Summary;

use super::Report;

/// The records of one source file, all sections of one path merged.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LcovFile {}

impl LcovFile {
    /// Merges another section (or shard) of the same file into this one.
    pub fn merge(&mut self, _other: LcovFile) {}

    /// The file's counts; `regions` is always `None` (LCOV carries no regions).
    pub fn summary(&self) -> Summary {
        Summary::default()
    }
}

/// Reads an LCOV tracefile.
pub fn read(origin: &str, _bytes: &[u8]) -> Result<Report> {
    Err(crate::error::Error::new(format!("{origin}: LCOV not yet supported")))
}
