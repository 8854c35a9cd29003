//! What a file's function records show ran, against what its `files[]` summary claims.
//!
//! A file whose summary is at 100% keeps no records ([`super::Kept::Nothing`]): its summary is
//! all that is judged. llvm-cov makes that summary from the file's records (one group per
//! function, each metric the best record of the group, [`super::recompute`]), so no summary of
//! llvm-cov's counts more covered than the records give: a group is covered only when one of
//! its records ran, and a region, line or branch side only when a record counts it. A summary
//! that claims more (a post-processed export whose records were zeroed and whose totals were
//! left as they were) is not trusted: the file is counted from its records, with a warning,
//! as an LCOV section whose declared totals claim more than its records is.
//!
//! The bounds are summed over the records as they are read, in every reading mode (records
//! that are not kept are parsed all the same), so the check costs no memory per record:
//! regions and branch sides that ran, the records that ran, and the lines that regions that
//! ran span. Each is at least what llvm-cov's rule can count from the records, whatever the
//! grouping: a bound above the claim says nothing, a bound below it proves the claim false.

use crate::model::Counts;

use super::record::{Branch, Region};
use super::{recompute, FunctionStats, LlvmSummary};

/// Upper bounds of what the function records of one file can make llvm-cov count as covered,
/// summed over the records (each sum stops at `u32::MAX`, which bounds nothing).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Evidence {
    /// Function records.
    records: u32,
    /// Records whose execution count is above 0 (a group, or an instantiation, is covered
    /// only when one of its records ran).
    ran: u32,
    /// Code regions (kind 0, any file id) whose count is above 0.
    regions: u32,
    /// The lines that regions whose count is above 0 span, summed per region (a line counts
    /// as covered only when a segment on it, which one of these regions starts or carries
    /// over, has a count above 0).
    lines: u32,
    /// Branch sides whose count is above 0 (an MC/DC condition is shown independent only when
    /// both sides of its branch ran).
    sides: u32,
}

/// The metrics of a summary that are weighed, as messages name them.
const NAMES: [&str; 6] = [
    "regions",
    "functions",
    "instantiations",
    "lines",
    "branch sides",
    "MC/DC conditions",
];

/// The counts of `summary` in the order of [`NAMES`].
pub(super) fn counts(summary: &mut LlvmSummary) -> [&mut Counts; 6] {
    [
        &mut summary.regions,
        &mut summary.functions,
        &mut summary.instantiations,
        &mut summary.lines,
        &mut summary.branches,
        &mut summary.mcdc,
    ]
}

impl Evidence {
    /// One record with the execution count `count` (its regions and branches added with
    /// [`Evidence::region`] and [`Evidence::branch`]).
    pub(super) fn record(count: u64) -> Evidence {
        Evidence {
            records: 1,
            ran: u32::from(count > 0),
            ..Evidence::default()
        }
    }

    /// One whole record.
    pub(super) fn of(count: u64, regions: &[Region], branches: &[Branch]) -> Evidence {
        let mut evidence = Evidence::record(count);
        regions.iter().for_each(|r| evidence.region(r));
        branches
            .iter()
            .for_each(|b| evidence.branch(b.true_count, b.false_count));
        evidence
    }

    /// Adds a region of the record.
    #[inline]
    pub(super) fn region(&mut self, region: &Region) {
        if region.count > 0 {
            let span = region.span;
            let lines = span
                .line_end
                .saturating_sub(span.line_start)
                .saturating_add(1);
            self.lines = self.lines.saturating_add(lines);
            self.regions = self.regions.saturating_add(u32::from(region.kind == 0));
        }
    }

    /// Adds a branch of the record (its two sides' counts).
    pub(super) fn branch(&mut self, true_count: u64, false_count: u64) {
        let sides = u32::from(true_count > 0) + u32::from(false_count > 0);
        self.sides = self.sides.saturating_add(sides);
    }

    /// Adds the evidence of another record of the file.
    pub(super) fn add(&mut self, other: Evidence) {
        self.records = self.records.saturating_add(other.records);
        self.ran = self.ran.saturating_add(other.ran);
        self.regions = self.regions.saturating_add(other.regions);
        self.lines = self.lines.saturating_add(other.lines);
        self.sides = self.sides.saturating_add(other.sides);
    }

    /// The bounds in the order of [`NAMES`].
    fn bounds(&self) -> [u32; 6] {
        [
            self.regions,
            self.ran,
            self.ran,
            self.lines,
            self.sides,
            self.sides,
        ]
    }

    /// Per metric of [`NAMES`], true when `summary` claims more covered than the records
    /// allow. None for a file without records (they are absent, see `export::carried`).
    fn overclaimed(&self, summary: &LlvmSummary) -> [bool; 6] {
        let mut summary = *summary;
        let claims = counts(&mut summary).map(|c| c.covered);
        let mut out = [false; 6];
        for ((out, claim), bound) in out.iter_mut().zip(claims).zip(self.bounds()) {
            *out = self.records > 0 && bound < u32::MAX && claim > u64::from(bound);
        }
        out
    }

    /// True when the file has function records.
    pub(super) fn has_records(&self) -> bool {
        self.records > 0
    }

    /// True when `summary` claims fewer misses than the sums prove: fewer missed
    /// instantiations than records that never ran, or no missed function while no record ran
    /// (each group of the file is then missed). Only the records, grouped, tell the rest
    /// ([`Evidence::settle`]).
    fn underclaimed(&self, summary: &LlvmSummary) -> bool {
        let never_ran = u64::from(self.records.saturating_sub(self.ran));
        let summed = self.records > 0 && self.records < u32::MAX;
        summed
            && (missed(summary.instantiations) < never_ran
                || (self.ran == 0 && missed(summary.functions) == 0))
    }

    /// True when `summary` claims more covered than the records allow in some metric, or
    /// fewer misses than their sums prove: the file is to be counted from its records.
    pub(super) fn contradicts(&self, summary: &LlvmSummary) -> bool {
        self.overclaimed(summary).contains(&true) || self.underclaimed(summary)
    }

    /// Counts from `records` (the file's, [`recompute`]) each metric that `summary` claims
    /// more of than the records allow, and judges by the worse of the two pairs each metric
    /// of which `summary` claims fewer misses than the records prove ([`proven_misses`]), and
    /// says so: `None` when it claims neither.
    pub(super) fn settle(
        &self,
        summary: &mut LlvmSummary,
        records: &[FunctionStats],
    ) -> Option<String> {
        let overclaimed = self.overclaimed(summary);
        let mut counted = recompute(records);
        let underclaimed = proven_misses(summary, &counted);
        if !overclaimed.contains(&true) && !underclaimed.contains(&true) {
            return None;
        }
        let (mut claims, mut shown) = (Vec::new(), Vec::new());
        let (mut fewer, mut proved) = (Vec::new(), Vec::new());
        let metrics = counts(summary).into_iter().zip(counts(&mut counted));
        let weighed = NAMES.iter().zip(self.bounds()).zip(overclaimed);
        for ((((name, bound), over), under), (claimed, count)) in
            weighed.zip(underclaimed).zip(metrics)
        {
            if over {
                claims.push(format!("{name} {}/{}", claimed.covered, claimed.total));
                shown.push(format!(
                    "{name}: at most {bound} from the records, counted {}/{}",
                    count.covered, count.total
                ));
                *claimed = *count;
            } else if under {
                fewer.push(format!("{name} {}/{}", claimed.covered, claimed.total));
                proved.push(format!(
                    "{name}: {} missed in the records, counted {}/{}",
                    missed(*count),
                    count.covered,
                    count.total
                ));
                *claimed = worse(*claimed, *count);
            }
        }
        let mut said = Vec::new();
        if !claims.is_empty() {
            said.push(format!(
                "the summary's {} claim more covered than the file's function records show \
                 ({}; no llvm-cov run counts more than its records give); covgate counts the \
                 records",
                claims.join(", "),
                shown.join("; ")
            ));
        }
        if !fewer.is_empty() {
            said.push(format!(
                "the summary's {} claim fewer missed than the file's function records prove \
                 ({}; no llvm-cov run counts fewer misses than its records prove); covgate \
                 judges the worse of the summary and the records",
                fewer.join(", "),
                proved.join("; ")
            ));
        }
        Some(said.join("; "))
    }
}

/// The items of `counts` not covered.
fn missed(counts: Counts) -> u64 {
    counts.total.saturating_sub(counts.covered)
}

/// The worse of two pairs: the lower share covered, or as low a share with more misses.
fn worse(a: Counts, b: Counts) -> Counts {
    let lower = u128::from(a.covered) * u128::from(b.total);
    let higher = u128::from(b.covered) * u128::from(a.total);
    if lower < higher || (lower == higher && missed(a) > missed(b)) {
        a
    } else {
        b
    }
}

/// Per metric of [`NAMES`], true when `summary` claims fewer misses than `counted` (the
/// file's records by llvm-cov's rule, [`recompute`]) proves: a group none of whose records ran
/// is a missed function, a record that never ran a missed instantiation, and a group's best
/// record misses the regions llvm-cov counts as missed. Lines (whose rule depends on the LLVM
/// version, [`super::LineRule`]) are weighed only once another metric proves the summary is
/// not llvm-cov's; branch sides and MC/DC conditions never (llvm-cov's summaries leave out
/// folded sides, which the records list with a count of 0).
fn proven_misses(summary: &LlvmSummary, counted: &LlvmSummary) -> [bool; 6] {
    let fewer = |claim: Counts, count: Counts| missed(claim) < missed(count);
    let regions = fewer(summary.regions, counted.regions);
    let functions = fewer(summary.functions, counted.functions);
    let instantiations = fewer(summary.instantiations, counted.instantiations);
    let lines = (regions || functions || instantiations) && fewer(summary.lines, counted.lines);
    [regions, functions, instantiations, lines, false, false]
}

/// LLVM `findMainViewFileID` for a record with `files` file ids whose expansion regions expand
/// the ids in `near` (as bits: the ids below 64) and in `far` (the others): the first id that
/// none of them expands.
pub(super) fn main_id(files: usize, near: u64, far: &mut [u32]) -> Option<usize> {
    far.sort_unstable();
    let expanded = |id: u32| match 1u64.checked_shl(id) {
        Some(bit) => near & bit != 0,
        None => far.binary_search(&id).is_ok(),
    };
    (0..u32::MAX)
        .take(files)
        .find(|id| !expanded(*id))
        .and_then(|id| usize::try_from(id).ok())
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;
    use crate::report::llvm_json::Span;

    fn region(lines: (u32, u32), count: u64, kind: u32) -> Region {
        Region {
            span: Span {
                line_start: lines.0,
                col_start: 1,
                line_end: lines.1,
                col_end: 2,
            },
            count,
            file_id: 0,
            expanded_file_id: 0,
            kind,
        }
    }

    fn branch(true_count: u64, false_count: u64) -> Branch {
        Branch {
            span: region((1, 1), 0, 0).span,
            true_count,
            false_count,
            file_id: 0,
        }
    }

    #[test]
    fn records_bound_what_a_summary_may_claim() {
        let regions = [
            region((1, 3), 2, 0),
            region((2, 2), 0, 0),
            region((5, 4), 1, 3),
        ];
        let one = Evidence::of(2, &regions, &[branch(1, 0), branch(3, 4)]);
        assert_eq!(
            one,
            Evidence {
                records: 1,
                ran: 1,
                regions: 1,
                lines: 4,
                sides: 3
            }
        );
        let mut file = one;
        file.add(Evidence::of(0, &[region((9, 9), 0, 0)], &[]));
        assert_eq!((file.records, file.ran, file.lines), (2, 1, 4));
        let full = |n: u64| Counts::new(n, n);
        let honest = LlvmSummary {
            regions: full(1),
            functions: full(1),
            instantiations: Counts::new(1, 2),
            lines: full(4),
            branches: full(3),
            mcdc: Counts::new(3, 4),
        };
        assert!(!file.contradicts(&honest));
        for (at, name) in NAMES.iter().enumerate() {
            let mut claims = honest;
            let metric = counts(&mut claims).into_iter().nth(at).expect("metric");
            metric.covered += 1;
            metric.total += 1;
            assert!(file.contradicts(&claims), "{name}");
            // Without records, or with a bound that stopped at its largest value, nothing.
            assert!(!Evidence::default().contradicts(&claims), "{name}");
            let huge = Evidence {
                records: 1,
                ran: u32::MAX,
                regions: u32::MAX,
                lines: u32::MAX,
                sides: u32::MAX,
            };
            assert!(!huge.contradicts(&claims), "{name}");
        }
    }

    /// A record at `key` with execution count `count`: `regions` and `lines` (covered, total).
    fn stats(key: u32, count: u64, regions: (u64, u64), lines: (u64, u64)) -> FunctionStats {
        FunctionStats {
            name: Box::from("f"),
            count,
            key: (key, 1),
            regions: Counts::new(regions.0, regions.1),
            lines: Counts::new(lines.0, lines.1),
            branches: Counts::default(),
            mcdc: Counts::default(),
            function_ignored: false,
            several_instantiations: false,
            instances: super::super::Instances::of(count),
            items: None,
        }
    }

    #[test]
    fn sums_prove_missed_instantiations_and_a_file_none_of_whose_records_ran() {
        let full = |n: u64| Counts::new(n, n);
        let claims = |functions: Counts, instantiations: Counts| LlvmSummary {
            functions,
            instantiations,
            ..LlvmSummary::default()
        };
        // Two records, one ran: a full instantiations claim hides the one that did not.
        let mut two = Evidence::record(1);
        two.add(Evidence::record(0));
        assert!(two.contradicts(&claims(full(1), full(2))));
        assert!(!two.contradicts(&claims(full(1), Counts::new(1, 2))));
        // None ran: a group is missed, whatever the instantiations say.
        let mut none = Evidence::record(0);
        none.add(Evidence::record(0));
        assert!(none.contradicts(&claims(full(1), Counts::new(0, 2))));
        assert!(!none.contradicts(&claims(Counts::new(0, 1), Counts::new(0, 2))));
        // No record, or sums that stopped at their largest value: nothing.
        assert!(!Evidence::default().contradicts(&claims(full(1), full(2))));
        let huge = Evidence {
            records: u32::MAX,
            ran: u32::MAX - 1,
            ..Evidence::default()
        };
        assert!(!huge.contradicts(&claims(full(1), full(2))));
    }

    #[test]
    fn a_summary_claiming_fewer_misses_than_the_records_is_judged_by_the_worse() {
        // Group 1: two instantiations, neither covers everything (3 of 4 regions at best);
        // group 2 never ran.
        let records = [
            stats(1, 1, (3, 4), (5, 6)),
            stats(1, 2, (2, 4), (4, 6)),
            stats(9, 0, (0, 2), (0, 2)),
        ];
        let counted = recompute(&records);
        assert_eq!(counted.regions, Counts::new(3, 6));
        assert_eq!(counted.functions, Counts::new(1, 2));
        let shown = records.iter().fold(Evidence::default(), |mut e, r| {
            e.add(Evidence::of(r.count, &[], &[]));
            e.regions = e
                .regions
                .saturating_add(u32::try_from(r.regions.covered).unwrap());
            e.lines = e
                .lines
                .saturating_add(u32::try_from(r.lines.covered).unwrap());
            e
        });
        let honest = counted;
        let mut summary = honest;
        assert_eq!(shown.settle(&mut summary, &records), None);
        // Counts lowered to covered: each taken from the records, lines too.
        let mut lowered = LlvmSummary {
            regions: Counts::new(3, 3),
            functions: Counts::new(1, 1),
            instantiations: Counts::new(2, 2),
            lines: Counts::new(5, 5),
            ..LlvmSummary::default()
        };
        let said = shown.settle(&mut lowered, &records).expect("warned");
        assert_eq!(lowered.regions, counted.regions);
        assert_eq!(lowered.functions, counted.functions);
        assert_eq!(lowered.instantiations, counted.instantiations);
        assert_eq!(lowered.lines, counted.lines);
        assert_eq!(
            said,
            "the summary's regions 3/3, functions 1/1, instantiations 2/2, lines 5/5 claim \
             fewer missed than the file's function records prove (regions: 3 missed in the \
             records, counted 3/6; functions: 1 missed in the records, counted 1/2; \
             instantiations: 1 missed in the records, counted 2/3; lines: 3 missed in the \
             records, counted 5/8; no llvm-cov run counts fewer misses than its records \
             prove); covgate judges the worse of the summary and the records"
        );
        // A claim with fewer misses but a lower share stays (the worse); lines alone prove
        // nothing; an overclaim and an underclaim are both said.
        let mut odd = LlvmSummary {
            regions: Counts::new(1, 3),
            functions: Counts::new(3, 3),
            instantiations: counted.instantiations,
            lines: Counts::new(8, 8),
            ..LlvmSummary::default()
        };
        let said = shown.settle(&mut odd, &records).expect("warned");
        assert_eq!(odd.regions, Counts::new(1, 3));
        assert_eq!(odd.functions, Counts::new(1, 2));
        assert!(said.contains("claim more covered"), "{said}");
        assert!(
            said.contains("; the summary's regions 1/3, lines 8/8 claim fewer missed"),
            "{said}"
        );
        assert_eq!(odd.lines, Counts::new(5, 8));
        let mut lines_only = honest;
        lines_only.lines = Counts::new(5, 5);
        assert_eq!(shown.settle(&mut lines_only, &records), None);
        // As low a share with more misses is the worse; of equals, the records.
        assert_eq!(
            worse(Counts::new(2, 4), Counts::new(1, 2)),
            Counts::new(2, 4)
        );
        assert_eq!(
            worse(Counts::new(1, 2), Counts::new(2, 4)),
            Counts::new(2, 4)
        );
        assert_eq!(
            worse(Counts::new(0, 0), Counts::new(1, 2)),
            Counts::new(1, 2)
        );
    }

    #[test]
    fn the_main_file_is_the_first_id_no_expansion_expands() {
        assert_eq!(main_id(1, 0, &mut []), Some(0));
        assert_eq!(main_id(3, 0b011, &mut []), Some(2));
        assert_eq!(main_id(2, 0b11, &mut []), None);
        assert_eq!(main_id(66, u64::MAX, &mut [65, 64]), None);
        assert_eq!(main_id(66, u64::MAX, &mut [65]), Some(64));
    }
}
