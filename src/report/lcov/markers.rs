//! The LCOV half of inline ignore markers: a file without the records that markers drop, and
//! the functions a marker takes out.

use super::file::{Function, LcovFile};
use super::lines::Lines;

impl LcovFile {
    /// A copy without the records that inline ignore markers drop: `DA` lines where
    /// `drop_line` holds, `BRDA` sides where `drop_branch` holds for their line, and functions
    /// whose start line `drop_line` holds. Declared totals are dropped (they cannot be adjusted),
    /// so the counts come from the remaining records.
    pub fn without(
        &self,
        drop_line: impl Fn(u32) -> bool,
        drop_branch: impl Fn(u32) -> bool,
    ) -> LcovFile {
        let mut kept = LcovFile {
            sections: self.sections,
            ..LcovFile::default()
        };
        kept.lines = Lines::pack(
            self.lines
                .iter()
                .filter(|(line, _)| !drop_line(*line))
                .collect(),
        );
        for branch in self.branches.iter().filter(|b| !drop_branch(b.line)) {
            kept.add_branch(branch.clone());
        }
        let starts_kept = |f: &&Function| !f.start.is_some_and(&drop_line);
        for function in self.functions().iter().filter(starts_kept) {
            kept.add_function(function.clone());
        }
        kept
    }

    /// How many functions (counted as [`summary`](Self::summary) counts them from the records:
    /// copies and instantiations of one function are one) have a record for which `which`
    /// holds: what an inline marker takes out of the functions metric.
    pub fn count_functions(&self, which: impl Fn(&Function) -> bool) -> u64 {
        let kept = LcovFile {
            functions: self
                .functions()
                .iter()
                .filter(|f| which(f))
                .cloned()
                .collect::<Vec<_>>()
                .into(),
            ..LcovFile::default()
        };
        kept.detail_functions().total
    }
}
