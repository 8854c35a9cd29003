//! Functions of an LCOV file that no section with branch records holds.
//!
//! A tracefile without any `BRDA` record measured no branch (stable `cargo llvm-cov --lcov`
//! writes none, and `BRF:0`). When it is merged with one that did (`cargo +nightly llvm-cov
//! --branch --lcov`), a function only the branch-less one holds (built only by a stable leg of
//! a CI matrix, with `--features extra`) had its branches measured by no run: counting the
//! others' branch records would pass it on branches it never measured. Across reports, the
//! report decides (`Report::has_branch_data`: a report with branch records somewhere measured
//! the branches of every file it names, even of a file without any); inside one tracefile
//! (`cat stable.info nightly.info`), sections of one file are told apart by their own `BRDA`
//! records: once a file has a section with branch records, the functions that only its
//! sections without any hold are kept ([`LcovFile::unbranched`]).
//!
//! Functions are identified as the merge counts them: start line and identity
//! ([`function_identity`]); a function that only `FNDA` named (no start line) is left out.

use std::collections::{BTreeMap, HashSet};

use super::file::LcovFile;
use super::identity::function_identity;
use super::index::Name;

/// A function as the merge counts it: (start line, identity).
pub type FunctionKey = (u32, String);

/// The placed functions of one part of a merge, split by whether the part measured their
/// branches.
#[derive(Debug, Default)]
pub struct Split {
    /// Functions the part holds from a section with branch records.
    pub measured: HashSet<FunctionKey>,
    /// Functions the part holds only from sections without, with a name of theirs.
    pub unmeasured: BTreeMap<FunctionKey, Name>,
}

/// The placed functions of `file`, split: all unmeasured when `measured` is false (the part
/// measured no branch), else those [`LcovFile::unbranched`] lists unmeasured and the others
/// measured.
pub fn split(file: &LcovFile, measured: bool) -> Split {
    let unbranched: HashSet<FunctionKey> = file
        .unbranched()
        .iter()
        .map(|(line, name)| (*line, function_identity(name.as_str())))
        .collect();
    let mut out = Split::default();
    for function in file.functions().iter() {
        let Some(start) = function.start else {
            continue;
        };
        let key = (start, function_identity(function.name.as_str()));
        if measured && !unbranched.contains(&key) {
            out.measured.insert(key);
        } else {
            out.unmeasured.entry(key).or_insert(function.name.clone());
        }
    }
    out
}

/// The functions that some part holds unmeasured and no part measured, by key.
pub fn unmeasured(splits: Vec<Split>) -> BTreeMap<FunctionKey, Name> {
    let measured: HashSet<&FunctionKey> = splits.iter().flat_map(|s| &s.measured).collect();
    let mut found = BTreeMap::new();
    for split in &splits {
        for (key, name) in &split.unmeasured {
            if !measured.contains(key) {
                found.entry(key.clone()).or_insert_with(|| name.clone());
            }
        }
    }
    found
}

/// What [`LcovFile::unbranched`] becomes when `b` merges into `a` (sections of one file): the
/// functions held only by sections without branch records, once some section has them (a file
/// whose sections have none measured no branch, and is not tracked: called only when one side
/// has branch records). `None` when there is none to keep.
pub(super) fn after_merge(a: &LcovFile, b: &LcovFile) -> Option<Box<[(u32, Name)]>> {
    let of = |file: &LcovFile| split(file, !file.branches().is_empty());
    let found = unmeasured(vec![of(a), of(b)]);
    let kept: Vec<(u32, Name)> = found
        .into_iter()
        .map(|((line, _), name)| (line, name))
        .collect();
    (!kept.is_empty()).then(|| kept.into_boxed_slice())
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "unbranched_tests.rs"]
mod tests;
