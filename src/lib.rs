//! covgate: a per-file coverage gate for LLVM source-based coverage.
//!
//! Data flows one way, through layers that each use only those below them (docs/ARCHITECTURE.md;
//! `ci/module-graph.py` checks it): [`model`] (metrics, counts, spans) → [`report`] (the two
//! readers) → [`paths`], [`policy`], platform, walk → [`markers`] (scanning sources) and
//! [`measure`] (merging parts, applying markers) → [`scope`], [`judge`], [`uncovered`] →
//! [`outcome`] (the result and its facts) → [`render`] and [`output`] → [`commands`]
//! (`check`, `roster`) → cli and [`app`], the only modules that know clap.

#![forbid(unsafe_code)]
// Input must never reach a panic: no unwrap, expect or indexing in library code. Test code may
// (clippy.toml allows them in tests); a value that is provably present gets a local allow with
// the proof in a comment.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
// Test modules inside src/ carry `#[cfg_attr(coverage_nightly, coverage(off))]`: test code is not
// product code, so covgate's self-coverage run (cargo-llvm-cov sets `coverage_nightly`) leaves it out.
#![cfg_attr(all(coverage_nightly, test), feature(coverage_attribute))]

pub mod app;
pub(crate) mod cli;
pub mod commands;
pub(crate) mod comment;
pub mod debt;
pub(crate) mod demangle;
pub mod error;
pub(crate) mod focus;
pub(crate) mod hint;
pub(crate) mod identity;
pub mod judge;
pub mod markers;
pub mod measure;
pub mod memory;
pub mod model;
pub(crate) mod nocode;
pub mod outcome;
pub mod output;
pub mod paths;
pub(crate) mod platform;
pub mod policy;
pub mod render;
pub mod report;
pub(crate) mod roster;
pub mod scope;
pub(crate) mod source;
pub(crate) mod text;
pub mod uncovered;
pub(crate) mod ungated;
pub(crate) mod walk;
pub(crate) mod workspace;
