//! The LCOV half of inline ignore markers: a file without the records that markers drop, and
//! the functions a marker takes out.

use std::collections::BTreeMap;

use crate::model::Counts;

use super::file::{Declared, DeclaredTotals, Function, LcovFile};
use super::lines::Lines;

impl LcovFile {
    /// A copy without the records that inline ignore markers drop: `DA` lines where
    /// `drop_line` holds, `BRDA` sides where `drop_branch` holds for their line, and functions
    /// whose start line `drop_line` holds.
    ///
    /// Declared totals are kept as their writer meant them. Another writer's are dropped (its
    /// records are the truth, so the counts come from the remaining records). llvm-cov's are
    /// its own numbers, counted per instantiation group (the best single instantiation), which
    /// its records (summed over instantiations) cannot give: they are kept, less the items taken
    /// out ([`LcovFile::declared_without`]), so a file with markers is judged by the rule it is
    /// judged by without them.
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
        for branch in self.branches().iter().filter(|b| !drop_branch(b.line)) {
            kept.add_branch(branch.clone());
        }
        let starts_kept = |f: &&Function| !f.start.is_some_and(&drop_line);
        for function in self.functions().iter().filter(starts_kept) {
            kept.add_function(function.clone());
        }
        if self.llvm {
            // A merge's bound is no count of llvm-cov's: dropped, as a merge's totals were.
            let less = self.declared_without(&kept, &drop_line, &drop_branch);
            kept.declared = self.unless_bound(less);
            kept.llvm = true;
        }
        kept
    }

    /// `totals`, unless `self`'s declared totals are a merge's bound (none then).
    fn unless_bound(&self, totals: DeclaredTotals) -> DeclaredTotals {
        match self.declared.is_bound() {
            true => DeclaredTotals::default(),
            false => totals,
        }
    }

    /// llvm-cov's declared totals of `self` less what markers took out (`kept` is `self`
    /// without it). Per metric, the items taken out leave the found count, and the misses
    /// shrink by the taken-out items that every instantiation missed, which the records prove:
    /// a `DA` line with count 0; per line, the fewest untaken sides of any one `BRDA` block (the
    /// blocks on a line may be copies of one condition); a start line none of whose function
    /// records ran. An item that some instantiation covered may be one llvm-cov counted missed
    /// (its best instantiation missed it), which a tracefile cannot tell: its misses stay, so
    /// the count is never laxer than llvm-cov's, and never below what `kept`'s records prove
    /// (nor above the items they hold: with every record of a metric taken out, it is 0 of 0).
    pub(super) fn declared_without(
        &self,
        kept: &LcovFile,
        drop_line: &impl Fn(u32) -> bool,
        drop_branch: &impl Fn(u32) -> bool,
    ) -> DeclaredTotals {
        let (lines_before, lines_after) = (self.detail_lines(), kept.detail_lines());
        let proved_lines = missed(lines_before).saturating_sub(missed(lines_after));
        // Per dropped line, per block: untaken sides.
        let mut untaken: BTreeMap<u32, BTreeMap<&str, u64>> = BTreeMap::new();
        for b in self.branches().iter().filter(|b| drop_branch(b.line)) {
            let block = untaken.entry(b.line).or_default();
            *block.entry(b.block.as_str()).or_default() += u64::from(!b.is_covered());
        }
        let proved_branches = untaken
            .values()
            .map(|blocks| blocks.values().min().copied().unwrap_or_default())
            .sum();
        // Per dropped start line: whether a record ran.
        let mut starts: BTreeMap<u32, bool> = BTreeMap::new();
        for f in self.functions.list().iter() {
            if let Some(start) = f.start.filter(|s| drop_line(*s)) {
                *starts.entry(start).or_default() |= f.is_covered();
            }
        }
        let proved_functions = starts.values().filter(|ran| !**ran).count() as u64;
        let metrics = [
            (
                DeclaredTotals::LINES,
                self.declared.lines(),
                lines_before,
                lines_after,
                proved_lines,
            ),
            (
                DeclaredTotals::BRANCHES,
                self.declared.branches(),
                self.detail_branches(),
                kept.detail_branches(),
                proved_branches,
            ),
            (
                DeclaredTotals::FUNCTIONS,
                self.declared.functions(),
                self.function_groups(),
                kept.function_groups(),
                proved_functions,
            ),
        ];
        let mut out = DeclaredTotals::default();
        for (at, pair, before, after, proved) in metrics {
            if let Some(left) = less(pair, before.total - after.total, proved, after) {
                out.set(at, false, left.total);
                out.set(at, true, left.covered);
            }
        }
        out
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
        kept.function_groups().total
    }
}

/// The items of `counts` not covered.
fn missed(counts: Counts) -> u64 {
    counts.total - counts.covered
}

/// A declared pair less `removed` items of which `proved` were missed, never with fewer
/// misses than `records` (the remaining records) prove nor more than they hold (every item
/// llvm-cov counts has a record), and 0 of 0 without any record left; `None` when the pair was
/// not declared.
fn less(pair: Declared, removed: u64, proved: u64, records: Counts) -> Option<Counts> {
    let declared = pair.consistent()?;
    let missed = missed(declared)
        .saturating_sub(proved)
        .min(records.total)
        .max(missed(records));
    if records.total == 0 {
        // Nothing left to count (llvm-cov's found count may exceed the records': a line with
        // a closure counts once per function).
        return Some(Counts::default());
    }
    let total = declared.total.saturating_sub(removed).max(missed);
    Some(Counts::new(total - missed, total))
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use crate::model::Counts;
    use crate::report::FileCoverage;

    /// `cargo +nightly llvm-cov --branch --lcov` of `pick<T>(left, a, b)` (lines 2-8: `if left
    /// { a } else { b }`) and two tests (lines 15-17, 20-22), each instantiating it with its own
    /// type: every `DA` line ran, yet no single instantiation ran both arms (`LH:10` of `LF:11`).
    /// `shard` keeps only the first test's run (`pick::<u8>`, the `a` arm).
    fn tracefile(shard: bool) -> String {
        let (u16_ran, right, b_arm) = if shard { (0, 0, 0) } else { (1, 1, 1) };
        let (lh, fnh, brh) = if shard { (7, 2, 1) } else { (10, 3, 1) };
        format!(
            "SF:/ws/shards/src/lib.rs\nFN:2,_RINvCscMPqj74CKrv_6shards4pickhEB2_\n\
             FN:2,_RINvCscMPqj74CKrv_6shards4picktEB2_\n\
             FN:15,_RNvNtCscMPqj74CKrv_6shards5testss_4left\n\
             FN:20,_RNvNtCscMPqj74CKrv_6shards5testss_5right\n\
             FNDA:1,_RINvCscMPqj74CKrv_6shards4pickhEB2_\n\
             FNDA:{u16_ran},_RINvCscMPqj74CKrv_6shards4picktEB2_\n\
             FNDA:1,_RNvNtCscMPqj74CKrv_6shards5testss_4left\n\
             FNDA:{right},_RNvNtCscMPqj74CKrv_6shards5testss_5right\n\
             FNF:3\nFNH:{fnh}\nDA:2,2\nDA:3,2\nDA:4,1\nDA:6,{b_arm}\nDA:8,2\nDA:15,1\nDA:16,1\n\
             DA:17,1\nDA:20,{right}\nDA:21,{right}\nDA:22,{right}\nBRDA:3,0,0,1\n\
             BRDA:3,0,1,{b_arm}\nBRF:2\nBRH:{brh}\nLF:11\nLH:{lh}\nend_of_record\n"
        )
    }

    fn file(text: &str) -> super::LcovFile {
        let report = crate::report::read("t.info", text.as_bytes()).expect("tracefile");
        match report.files.into_iter().next().map(|f| f.coverage) {
            Some(FileCoverage::Lcov(file)) => *file,
            other => panic!("one LCOV file, not {other:?}"),
        }
    }

    fn counts(covered: u64, total: u64) -> Option<Counts> {
        Some(Counts::new(covered, total))
    }

    #[test]
    fn llvm_cov_counts_stay_per_instantiation_once_lines_are_taken_out() {
        let whole = file(&tracefile(false));
        assert_eq!(whole.summary().lines, counts(10, 11));
        // A covered line of a test taken out: one line less, the instantiation's miss stays
        // (the records alone, summed over instantiations, would say 10 of 10).
        let less = whole.without(|l| l == 16, |_| false);
        assert_eq!(less.summary().lines, counts(9, 10));
        assert_eq!(less.summary().functions, counts(3, 3));
        assert_eq!(less.summary().branches, counts(1, 2));
        // The `b` arm taken out: `pick::<u8>` missed it and `pick::<u16>` ran it, so which
        // one is best is not in the tracefile: the miss stays (never laxer than llvm-cov).
        assert_eq!(
            whole.without(|l| l == 6, |_| false).summary().lines,
            counts(9, 10)
        );
        // Every branch side taken out: nothing is left to miss.
        let no_branches = whole.without(|_| false, |l| l == 3);
        assert_eq!(no_branches.summary().branches, counts(0, 0));
        assert_eq!(no_branches.summary().lines, counts(10, 11));
    }

    #[test]
    fn items_every_instantiation_missed_leave_the_misses() {
        let shard = file(&tracefile(true));
        assert_eq!(shard.summary().lines, counts(7, 11));
        assert_eq!(shard.summary().functions, counts(2, 3));
        // The `b` arm (count 0) and the second test (never ran) taken out.
        let ignored = |l: u32| l == 6 || (20..=22).contains(&l);
        let less = shard.without(ignored, ignored);
        assert_eq!(less.summary().lines, counts(7, 7));
        assert_eq!(less.summary().functions, counts(2, 2));
        // The untaken side of line 3 goes with its line.
        assert_eq!(less.summary().branches, counts(1, 2));
        let no_branch = shard.without(ignored, |l| l == 3);
        assert_eq!(no_branch.summary().branches, counts(0, 0));
        // Another writer's totals count where they are worse than its records (10 of 11, not
        // the records' 11 of 11); a marker drops them: its records are counted.
        let plain = file(&format!("TN:\n{}", tracefile(false)));
        assert_eq!(plain.summary().lines, counts(10, 11));
        assert_eq!(
            plain.without(|l| l == 16, |_| false).summary().lines,
            counts(10, 10)
        );
    }
}
