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

use super::file::LcovFile;

impl LcovFile {
    /// Per metric (lines, branch sides, functions): true when the declared pair claims hits
    /// that llvm-cov's writer never emits without records behind them (see the module
    /// documentation).
    pub(super) fn unbacked_hits(&self) -> [bool; 3] {
        let claims = |pair: super::file::Declared| pair.consistent().filter(|d| d.covered > 0);
        let lines = claims(self.declared.lines())
            .is_some_and(|_| !self.lines.covered().any(|(_, hit)| hit));
        let branches = claims(self.declared.branches())
            .is_some_and(|_| !self.branches.iter().any(|b| b.is_covered()));
        let functions = claims(self.declared.functions()).is_some_and(|d| {
            let functions = self.functions.list();
            let placed = functions.iter().filter(|f| f.start.is_some());
            let (found, hit) = placed.fold((0u64, 0u64), |(found, hit), f| {
                (found + 1, hit + u64::from(f.is_covered()))
            });
            // No `FN` record at all: `llvm-cov export -skip-functions`, totals kept.
            found > 0 && d.covered > hit
        });
        [lines, branches, functions]
    }

    /// [`LcovFile::proved_missed`], with every metric whose declared hits no record backs
    /// ([`LcovFile::unbacked_hits`]) at `u64::MAX`: no declared pair claims that few misses, so
    /// its records are counted ([`super::file::judged`]).
    pub(super) fn proved_or_unbacked(&self) -> [u64; 3] {
        let mut proved = self.proved_missed();
        for (missed, unbacked) in proved.iter_mut().zip(self.unbacked_hits()) {
            if unbacked {
                *missed = u64::MAX;
            }
        }
        proved
    }
}
