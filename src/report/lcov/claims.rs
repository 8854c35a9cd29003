//! Declared hits of an llvm-cov section that no record backs (breaker session 15, finding 1).
//!
//! llvm-cov's `LF`/`LH`, `BRF`/`BRH` and `FNF`/`FNH` are its own counts (per instantiation
//! group), which the records cannot reproduce, so covgate judges them; but what its LCOV
//! writer (`CoverageExporterLcov.cpp`) emits bounds them. It writes one `FN` and one `FNDA` per
//! function record of the file (every instantiation), and counts a group hit when one of its
//! records ran: `FNH` is at most the number of `FN` records whose `FNDA` is above 0.
//! (Distinct start lines are no bound: closures share one. A larger `FNF` claims more misses,
//! never a better verdict: not bounded here.) A line or branch side hit in a function is hit in the file, so `LH` above 0
//! needs a `DA` above 0 and `BRH` above 0 a `BRDA` taken. (`LF` may exceed the `DA` lines and
//! `LH` the `DA` lines hit: a line of two functions counts in both.) A pair past these bounds
//! was edited or post-processed (records dropped, totals kept): its records are counted.
//! (`llvm-cov export -skip-functions` writes `FNF`/`FNH` without any `FN` record: kept.)

use crate::model::Counts;

use super::file::{Branch, Declared, LcovFile};

/// What weighing an llvm-cov section's declared pairs needs, per metric (lines, branch sides,
/// functions): the items its records prove missed in every instantiation and copy, and whether
/// the declared hits have no record behind them (see the module documentation).
///
/// Proved missed: the `DA` lines with count 0; the start lines none of whose function records
/// ran. None for branches: llvm-cov writes `BRDA` sides that its `BRF` leaves out (folded
/// constant conditions, written as 0; a macro's branches under its header, with `BRF:0`
/// there).
pub(super) type Weighed = [(u64, bool); 3];

impl LcovFile {
    /// The file's [`Weighed`]: one pass over its lines and one over its functions.
    pub(super) fn weighed(&self) -> Weighed {
        self.weighed_with(self.detail_lines())
    }

    /// [`LcovFile::weighed`], its `lines` counted already ([`LcovFile::detail_lines`]).
    pub(super) fn weighed_with(&self, lines: Counts) -> Weighed {
        let claims = |pair: Declared| pair.consistent().filter(|d| d.covered > 0);
        let starts = self.starts();
        let branches_unbacked = claims(self.declared.branches())
            .is_some_and(|_| !self.branches().iter().any(Branch::is_covered));
        // No `FN` record at all: `llvm-cov export -skip-functions`, totals kept.
        let functions_unbacked = claims(self.declared.functions())
            .is_some_and(|d| starts.placed > 0 && d.covered > starts.hit);
        [
            (
                lines.total - lines.covered,
                claims(self.declared.lines()).is_some_and(|_| lines.covered == 0),
            ),
            (0, branches_unbacked),
            (starts.missed, functions_unbacked),
        ]
    }

    /// The functions with a start line: how many there are, how many ran, and how many start
    /// lines none of them ran on. Each is one key (start line and whether it ran), sorted: a
    /// start line is missed when its last key (the one that ran, if any) did not run.
    fn starts(&self) -> Starts {
        let functions = self.functions.list();
        let mut keys = Vec::with_capacity(functions.len());
        keys.extend(
            functions
                .iter()
                .filter_map(|f| Some(u64::from(f.start?) << 1 | u64::from(f.is_covered()))),
        );
        keys.sort_unstable();
        let ends = keys
            .iter()
            .zip(keys.iter().skip(1).map(Some).chain([None]))
            .filter(|(this, next)| next.is_none_or(|n| n >> 1 != *this >> 1));
        Starts {
            placed: keys.len() as u64,
            hit: keys.iter().filter(|k| *k & 1 == 1).count() as u64,
            missed: ends.filter(|(this, _)| *this & 1 == 0).count() as u64,
        }
    }
}

/// The functions with a start line ([`LcovFile::starts`]).
struct Starts {
    placed: u64,
    hit: u64,
    missed: u64,
}
