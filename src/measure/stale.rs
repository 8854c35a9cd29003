//! Two builds of different source among the reports of one check: one compiled Rust function
//! (one symbol) mapped differently in two exports ([`check`]), or starting at two lines in the
//! LCOV sections of one file ([`check_lcov`]).
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
use crate::report::lcov::LcovFile;
use crate::report::llvm_json::FunctionStats;
use crate::report::{FileCoverage, Report};

use super::Part;

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
    two_builds(path, &a.1.name, &mapping(a), &mapping(b))
}

/// The error for two builds of `symbol` among the reports of `path`, each as `a` and `b` say.
fn two_builds(path: &str, symbol: &str, a: &str, b: &str) -> Error {
    Error::new(format!(
        "{path}: the reports hold two builds of different source: `{}` (symbol `{symbol}`) is \
         one compiled function, but {a}, and {b}. One of them is stale (an export or tracefile \
         of an earlier commit: a cached target/, an old shard artifact, a leftover report \
         matched by a glob). Give the reports of one build only (remove the stale report, or \
         clear the cached target/ and run the tests again)",
        demangle::demangle(symbol),
    ))
}

/// Errors (exit 2) when the LCOV sections of `path` (`merged`, the merge of `parts`' records)
/// place one Rust symbol at two start lines, naming the function, the reports (the first part
/// that holds each start) and what to do.
///
/// A symbol is one function of one build (see the module documentation), and llvm-cov writes
/// its `FN` at the line where its code starts: two start lines are two builds of different
/// source, one of them stale. Only merged files are checked (one llvm-cov section writes each
/// symbol once). Demangled names are not: they lose the crate's hash, so `#[cfg(unix)]` and
/// `#[cfg(windows)]` variants of one function, at two lines, share a name across the two
/// platforms' tracefiles.
pub(super) fn check_lcov(path: &str, parts: &[Part<'_>], merged: &LcovFile) -> Result<()> {
    if !merged.is_merged() {
        return Ok(());
    }
    let functions = merged.functions();
    let mut starts: Vec<(&str, u32)> = (functions.iter())
        .filter(|f| is_rust_symbol(&f.name))
        .filter_map(|f| Some((f.name.as_str(), f.start?)))
        .collect();
    starts.sort_unstable();
    starts.dedup();
    let moved = starts.chunk_by(|a, b| a.0 == b.0).find(|one| one.len() > 1);
    let Some([(symbol, first), (_, second), ..]) = moved else {
        return Ok(());
    };
    let origin = |line: u32| {
        let part = parts.iter().find(|p| holds(p, symbol, line));
        part.map(|p| p.report.origin.as_str()).unwrap_or_default()
    };
    let (a, b) = (origin(*first), origin(*second));
    let (a, b) = match a == b {
        true => (
            format!("{a} has its FN at {path}:{first} in one section"),
            format!("at {path}:{second} in another"),
        ),
        false => (
            format!("{a} has its FN at {path}:{first}"),
            format!("{b} at {path}:{second}"),
        ),
    };
    Err(two_builds(path, symbol, &a, &b))
}

/// True when `part` is an LCOV file with a function `symbol` starting at `line`.
fn holds(part: &Part<'_>, symbol: &str, line: u32) -> bool {
    let FileCoverage::Lcov(file) = part.coverage else {
        return false;
    };
    (file.functions().iter()).any(|f| f.start == Some(line) && f.name.as_str() == symbol)
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

    #[test]
    fn only_lcov_parts_hold_lcov_functions() {
        let export = r#"{"type":"llvm.coverage.json.export","version":"3.1.0","data":[{"files":[
            {"filename":"a.rs","summary":{"lines":{"count":1,"covered":1},
            "functions":{"count":1,"covered":1},"instantiations":{"count":1,"covered":1},
            "regions":{"count":1,"covered":1},"branches":{"count":0,"covered":0}}}],
            "functions":[{"name":"f","count":1,"filenames":["a.rs"],
            "regions":[[1,1,1,9,1,0,0,0]],"branches":[]}]}]}"#;
        let json = crate::report::llvm_json::read("r", export.as_bytes()).expect("export");
        let part = Part {
            report: &json,
            coverage: &json.files[0].coverage,
        };
        assert!(!holds(&part, "f", 1));
        let text = b"SF:a.rs\nFN:1,f\nFNDA:1,f\nend_of_record\n";
        let lcov = crate::report::lcov::read("t.info", text).expect("lcov");
        let part = Part {
            report: &lcov,
            coverage: &lcov.files[0].coverage,
        };
        assert!(holds(&part, "f", 1));
        assert!(!holds(&part, "f", 2) && !holds(&part, "g", 1));
    }
}
