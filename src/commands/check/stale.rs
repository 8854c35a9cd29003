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
        let stale = ignores
            .get(path)
            .map_or(&[][..], |found| &found.marks)
            .iter()
            .filter(|mark| !ignores_uncovered(mark, &items));
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

/// True when `mark` ignores an item of `items`: a branch side on its lines, or (unless it is a
/// `BR` marker) a line, or a region or function that starts on its lines.
fn ignores_uncovered(mark: &Mark, items: &Uncovered) -> bool {
    let LineRange {
        start: first,
        end: last,
    } = mark.lines;
    let on = |line: u32| (first..=last).contains(&line);
    let branches = items.branches.iter().any(|b| on(b.line));
    let lines = items
        .lines
        .iter()
        .any(|r| r.start.max(first) <= r.end.min(last));
    let regions = items.regions.iter().any(|r| on(r.span.line_start));
    let functions = items.functions.iter().any(|f| f.line.is_some_and(on));
    branches | (!mark.branches_only & (lines | regions | functions))
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
                ignores_uncovered(&mark(start, end, false), &items),
                "{start}-{end}"
            );
        }
        // Nothing uncovered on its lines: a region that only ends there does not count.
        for (start, end) in [(1, 9), (11, 19), (30, 30), (46, 49), (51, 60)] {
            assert!(
                !ignores_uncovered(&mark(start, end, false), &items),
                "{start}-{end}"
            );
        }
        // A BR marker ignores branches only.
        assert!(ignores_uncovered(&mark(10, 10, true), &items));
        assert!(!ignores_uncovered(&mark(40, 40, true), &items));
        assert!(!ignores_uncovered(
            &mark(10, 10, false),
            &Uncovered::default()
        ));
    }
}
