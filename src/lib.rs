//! covgate: a per-file coverage gate for LLVM source-based coverage.
//!
//! Data flows one way: [`report`] reads exports → [`paths`] normalises file names → [`scope`]
//! decides which files are measured → [`measure`] merges and counts → [`judge`] gives verdicts →
//! [`render`] prints them.

pub mod error;
pub mod model;
pub mod report;
