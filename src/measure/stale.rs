//! Two builds of different source among the reports of one check: one compiled Rust function
//! (one symbol) mapped differently in two exports.
//!
//! A Rust symbol names one instantiation of one function of one build of a crate (the crate's
//! hash covers its compiler and `-C metadata`), so the records of one symbol in two exports
//! are one compiled function seen in two runs, and [`pool`](crate::report::llvm_json::pool) sums them. When they
//! count different code regions or lines, or start elsewhere, the source changed between the
//! builds: a stale export of an earlier commit (a cached `target/`, an old shard artifact) is
//! among the reports, and taking the best record would pass new code with old coverage. Names
//! that are not Rust symbols (C and C++: one function built in two configurations, `#ifdef`
//! variants, is legitimate) are left to the instantiation-group rule.

use crate::demangle;
use crate::error::{Error, Result};
use crate::report::llvm_json::FunctionStats;
use crate::report::Report;

/// Errors (exit 2) when a Rust symbol of `path` is mapped differently in two of `exports` (the
/// records of each report, in the order of the reports), naming the function, both reports and
/// what to do.
pub(super) fn check(path: &str, exports: &[(&Report, Vec<FunctionStats>)]) -> Result<()> {
    let mut first: std::collections::HashMap<&str, (&Report, &FunctionStats)> =
        std::collections::HashMap::new();
    for (report, records) in exports {
        for record in records.iter().filter(|r| is_rust_symbol(&r.name)) {
            let (earlier, seen) = *first.entry(&record.name).or_insert((report, record));
            if !std::ptr::eq(earlier, *report) && shape(seen) != shape(record) {
                return Err(stale(path, (earlier, seen), (report, record)));
            }
        }
    }
    Ok(())
}

/// What one build of a function fixes: where it starts, and how many code regions and lines
/// it maps (counts, not spans: a build with branch coverage maps the same code regions plus
/// branches, which [`pool`](crate::report::llvm_json::pool) keeps apart but is no other source).
fn shape(record: &FunctionStats) -> ((u32, u32), u64, u64) {
    (record.key, record.regions.total, record.lines.total)
}

fn stale(path: &str, a: (&Report, &FunctionStats), b: (&Report, &FunctionStats)) -> Error {
    let mapping = |(report, record): (&Report, &FunctionStats)| {
        format!(
            "{} maps {} code regions and {} lines from {path}:{}",
            report.origin, record.regions.total, record.lines.total, record.key.0
        )
    };
    Error::new(format!(
        "{path}: the reports hold two builds of different source: `{}` (symbol `{}`) is one \
         compiled function, but {}, and {}. One of them is stale (an export of an earlier \
         commit: a cached target/, an old shard artifact, a leftover report matched by a \
         glob). Give the reports of one build only (remove the stale export, or clear the \
         cached target/ and run the tests again)",
        demangle::demangle(&a.1.name),
        a.1.name,
        mapping(a),
        mapping(b)
    ))
}

/// True for a mangled Rust symbol: v0 (`_R…`) or legacy (`_ZN…17h<16 hex digits>E`).
pub(super) fn is_rust_symbol(name: &str) -> bool {
    let legacy = || {
        name.starts_with("_ZN")
            && name.len() > 20
            && name.ends_with('E')
            && name.get(name.len() - 20..name.len() - 17) == Some("17h")
            && (name.get(name.len() - 17..name.len() - 1))
                .is_some_and(|hash| hash.bytes().all(|b| b.is_ascii_hexdigit()))
    };
    name.starts_with("_R") || legacy()
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn rust_symbols_are_told_from_other_names() {
        assert!(is_rust_symbol("_RNvCsb2XTOLoCcT5_2st1f"));
        assert!(is_rust_symbol("_ZN2st1f17h0123456789abcdefE"));
        assert!(!is_rust_symbol("_ZN2st1f17h0123456789abcdeE"));
        assert!(!is_rust_symbol("_ZN2st1f17h0123456789abcdefX"));
        assert!(!is_rust_symbol("_ZN2st1f17h0123456789abcdgfE"));
        assert!(!is_rust_symbol("_ZN2st1f17x0123456789abcdefE"));
        assert!(!is_rust_symbol("_ZN2st1fE"));
        assert!(!is_rust_symbol("_Z4pickIiET_S0_S0_b"));
        assert!(!is_rust_symbol("main"));
        assert!(!is_rust_symbol(""));
    }
}
