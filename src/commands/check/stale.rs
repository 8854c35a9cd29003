//! Stale inline markers: a marker whose lines hold nothing uncovered changes no verdict, and
//! is reported as a warning so it can be removed (the rule is in docs/markers.md).

use std::collections::BTreeMap;

use crate::markers::{Ignores, Mark};
use crate::measure::{self, Part};
use crate::model::{LineRange, Metric};
use crate::scope::{self, Same};
use crate::uncovered::{self, Uncovered};

/// A warning for each inline marker that is stale: the lines it ignores hold no uncovered
/// item (no code, or only covered code), so taking them out changes nothing. The markers'
/// files are measured again without them, and each marker is held against the uncovered items
/// of that measurement ([`uncovered::list`]; a `BR` marker against branches only). A stale
/// marker is only a warning: the verdict is the same with or without it. Called after the
/// same files were measured with their markers: measuring them without markers cannot fail
/// where that did not (were it to, no warning is given).
pub(super) fn stale_markers<'s, 'a: 's>(
    files: impl Iterator<Item = (&'s String, Same<'s, 'a>)>,
    ignores: &BTreeMap<String, Ignores>,
) -> Vec<String> {
    let marked: BTreeMap<String, Vec<Part<'_>>> = files
        .filter(|(path, _)| ignores.contains_key(*path))
        .map(|(path, same)| (path.clone(), scope::parts(same).collect()))
        .collect();
    let plain = measure::measure(&marked, &BTreeMap::new()).unwrap_or_default();
    let mut notes = Vec::new();
    for (path, measured) in plain.iter() {
        let items = uncovered::list(&measured.coverage, &Metric::DEFAULT, &measured.summary);
        let starts = Starts::of(&items);
        let stale = ignores
            .get(path)
            .map_or(&[][..], |found| &found.marks)
            .iter()
            .filter(|mark| !starts.ignored_by(mark));
        notes.extend(stale.map(|mark| {
            format!(
                "{path}:{}: stale {} marker: nothing uncovered on the lines it ignores ({}): no \
                 code, or only covered code; remove it",
                mark.line,
                mark.family.name(),
                uncovered::range_text(&mark.lines)
            )
        }));
    }
    notes
}

/// Where a file's uncovered items lie, sorted, so that each marker is held against them by
/// binary search: O((markers + items) log items), where holding every marker against every
/// item took seconds for 20,000 markers on 20,000 uncovered regions.
struct Starts {
    /// The lines of uncovered branch sides, sorted.
    branches: Vec<u32>,
    /// The start lines of uncovered regions and of functions never run, sorted.
    starts: Vec<u32>,
    /// Uncovered lines: sorted, disjoint ranges ([`Uncovered::lines`]).
    lines: Vec<LineRange>,
}

impl Starts {
    fn of(items: &Uncovered) -> Starts {
        let mut branches: Vec<u32> = items.branches.iter().map(|b| b.line).collect();
        let regions = items.regions.iter().map(|r| r.span.line_start);
        let functions = items.functions.iter().filter_map(|f| f.line);
        let mut starts: Vec<u32> = regions.chain(functions).collect();
        branches.sort_unstable();
        starts.sort_unstable();
        Starts {
            branches,
            starts,
            lines: items.lines.clone(),
        }
    }

    /// True when `mark` ignores an uncovered item: a branch side on its lines, or (unless it is
    /// a `BR` marker) a line, or a region or function that starts on its lines.
    fn ignored_by(&self, mark: &Mark) -> bool {
        let range = mark.lines;
        let branches = any_within(&self.branches, range);
        let starts = any_within(&self.starts, range);
        let first = self.lines.partition_point(|r| r.end < range.start);
        let lines = self.lines.get(first).is_some_and(|r| r.start <= range.end);
        branches | (!mark.branches_only & (lines | starts))
    }
}

/// True when the sorted `lines` hold one within `range`.
fn any_within(lines: &[u32], range: LineRange) -> bool {
    let first = lines.partition_point(|&line| line < range.start);
    lines.get(first).is_some_and(|&line| line <= range.end)
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn a_marker_is_stale_unless_an_uncovered_item_lies_on_its_lines() {
        use crate::model::Span;
        use crate::policy::Family;
        use crate::uncovered::{BranchItem, FunctionItem, RegionItem};
        let mark = |start, end, branches_only| Mark {
            family: Family::Lcov,
            line: start,
            lines: LineRange { start, end },
            branches_only,
        };
        let branch = BranchItem {
            line: 10,
            column: None,
            side: "true".to_string(),
            what: "never taken",
            from: None,
        };
        let region = RegionItem {
            span: Span {
                line_start: 20,
                col_start: 1,
                line_end: 30,
                col_end: 2,
            },
            from: None,
        };
        let function = |line| FunctionItem {
            line,
            name: "f".to_string(),
        };
        let items = Uncovered {
            lines: vec![LineRange { start: 40, end: 45 }],
            branches: vec![branch],
            regions: vec![region],
            functions: vec![function(Some(50)), function(None)],
            ..Uncovered::default()
        };
        // Each kind of item makes a marker on its line live.
        for (start, end) in [(10, 10), (20, 20), (45, 47), (38, 40), (50, 50), (1, 100)] {
            assert!(
                Starts::of(&items).ignored_by(&mark(start, end, false)),
                "{start}-{end}"
            );
        }
        // Nothing uncovered on its lines: a region that only ends there does not count.
        for (start, end) in [(1, 9), (11, 19), (30, 30), (46, 49), (51, 60)] {
            assert!(
                !Starts::of(&items).ignored_by(&mark(start, end, false)),
                "{start}-{end}"
            );
        }
        // A BR marker ignores branches only.
        assert!(Starts::of(&items).ignored_by(&mark(10, 10, true)));
        assert!(!Starts::of(&items).ignored_by(&mark(40, 40, true)));
        assert!(!Starts::of(&Uncovered::default()).ignored_by(&mark(10, 10, false)));
    }
}
