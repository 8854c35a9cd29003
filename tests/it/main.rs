//! covgate's integration tests, in one test binary (as ripgrep and cargo lay theirs out): one
//! binary links the library and its dependencies once instead of once per file. Each module
//! was a `tests/*.rs` binary of its own; `common` holds the helpers they share (fixture paths,
//! sandboxes, running the built `covgate`). Run one module with `cargo test --test it MODULE::`.

mod common;

mod absent_sources;
mod action;
mod bad_inputs;
mod breaks_s14;
mod breaks_s15;
mod case_fold;
mod cases;
mod clang_e2e;
mod closed_pipe;
mod cov_core_cli;
mod cov_output_render;
mod coverage_off;
mod cut_short;
mod debt;
mod debt_e2e;
mod declared_totals;
mod docs_paths;
mod exclusion_index;
mod foreign_package;
mod geninfo_templates;
mod hostile;
mod hostile14;
mod identity_breaks;
mod identity_properties;
mod ignore_properties;
mod json_misses;
mod json_trust;
mod lcov_claims15;
mod lcov_merge15;
mod lcov_reader;
mod llvm_cov_e2e;
mod llvm_json_reader;
mod markdown_math;
mod marker_lexers;
mod mcdc;
mod merge_semantics;
mod mixed_shards;
mod outputs;
mod paths_identity;
mod platform;
mod properties;
mod readme;
mod real_exports;
mod roster;
mod shard_oracle;
