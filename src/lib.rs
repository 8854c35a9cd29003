//! covgate: a per-file coverage gate for LLVM source-based coverage.
//!
//! Data flows one way: [`report`] reads exports → [`paths`] normalises file names and
//! [`identity`] names each real file once → [`scope`]
//! decides which files are measured → [`measure`] merges and counts → [`judge`] gives verdicts →
//! [`render`] prints them. [`check`] runs that pipeline; [`cli`] holds the argument definitions.
//! [`platform`] holds the facts of the CI leg (target, cfg values, programs on PATH) that decide
//! which conditional exclusions apply. [`roster`] verifies the exempt-suite roster
//! (`[[suite]]`: test suites left out of the instrumented run) and derives the arguments of the
//! instrumented and plain runs.

#![forbid(unsafe_code)]
// Input must never reach a panic: no unwrap, expect or indexing in library code. Test code may
// (clippy.toml allows them in tests); a value that is provably present gets a local allow with
// the proof in a comment.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
// Test modules inside src/ carry `#[cfg_attr(coverage_nightly, coverage(off))]`: test code is not
// product code, so covgate's self-coverage run (cargo-llvm-cov sets `coverage_nightly`) leaves it out.
#![cfg_attr(coverage_nightly, feature(coverage_attribute))]

pub mod app;
pub mod check;
pub mod cli;
pub mod comment;
pub mod debt;
pub mod error;
pub mod focus;
pub mod hint;
pub mod identity;
pub mod ignore;
pub mod init;
pub mod judge;
pub mod measure;
pub mod model;
pub mod nocode;
pub mod output;
pub mod paths;
pub mod platform;
pub mod policy;
pub mod render;
pub mod report;
pub mod roster;
pub mod scope;
pub mod source;
pub mod tighten;
pub mod uncovered;
