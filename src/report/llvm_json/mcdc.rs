//! MC/DC: the `mcdc_records` of a function record (clang `-fcoverage-mcdc`, LLVM 18 on), read
//! and reduced to condition counts and the conditions without an independence pair.
//!
//! A record is a positional array, in one of two layouts (the version string does not say
//! which, so the layout is told by where the first array stands):
//!
//! - LLVM 18–19 (export 2.0.1): `[line_start, col_start, line_end, col_end, expanded_file_id,
//!   kind, [independent…]]`;
//! - LLVM 20 on (3.x): `[line_start, col_start, line_end, col_end, true_decisions,
//!   false_decisions, file_id, expanded_file_id, kind, [independent…]]`, and from 3.1.0 a last
//!   array of the executed test vectors `{conditions: [true|false|null…], executed, result}`.
//!
//! `independent[i]` is true when condition `i` of the decision was shown to change the decision
//! on its own (llvm-cov's `isConditionIndependencePairCovered`). A record counts one condition
//! per entry and covers the true ones, as llvm-cov's `sumMCDCPairs` does (conditions llvm-cov
//! folds, constant ones, are not marked in the JSON and count here as not covered).
//!
//! The JSON gives no condition's position: it is taken from the record's branches, which hold
//! one entry per condition (kind 6, MCDCBranchRegion) inside the decision's range, in source
//! order, as clang numbers conditions. Branches inside a nested decision belong to that one.

use std::fmt;

use serde::de::{Deserialize, Deserializer, SeqAccess, Visitor};
use serde::Deserialize as DeriveDeserialize;

use crate::model::Counts;

use super::record::Branch;
use super::Span;

/// One decision as the export writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RawDecision {
    /// The decision's range.
    pub(super) span: Span,
    /// The decision's file id (3.x layout only).
    pub(super) file_id: Option<u32>,
    /// Per condition, in condition order: shown independent.
    pub(super) independent: Vec<bool>,
    /// The executed test vectors (3.1.0 on); empty when the export has none.
    pub(super) vectors: Vec<TestVector>,
}

/// One executed test vector of a decision.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TestVector {
    /// Per condition: its value, `None` when it was not evaluated (short-circuited).
    pub conditions: Vec<Option<bool>>,
    /// The decision's outcome.
    pub result: bool,
}

/// A decision of a function record, kept for item lists and for merging runs.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Decision {
    /// Where the decision starts in the main file (line, column).
    pub at: (u32, u32),
    /// Where each condition starts in the main file (line, column), in condition order.
    pub conditions: Vec<(u32, u32)>,
    /// Per condition: shown independent.
    pub independent: Vec<bool>,
    /// The executed test vectors (sorted, distinct); empty when the export has none.
    pub vectors: Vec<TestVector>,
}

/// A condition of a decision without an independence pair: `5:19 in the decision at 5:7`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Condition {
    /// Where the condition starts (line, column).
    pub at: (u32, u32),
    /// Where its decision starts (line, column).
    pub decision: (u32, u32),
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{} in the decision at {}:{}",
            self.at.0, self.at.1, self.decision.0, self.decision.1
        )
    }
}

impl Decision {
    /// Conditions and the ones shown independent.
    pub fn counts(&self) -> Counts {
        let covered = self.independent.iter().filter(|i| **i).count() as u64;
        Counts::new(covered, self.independent.len() as u64)
    }

    /// The conditions without an independence pair.
    pub fn uncovered(&self) -> impl Iterator<Item = Condition> + '_ {
        self.independent
            .iter()
            .zip(&self.conditions)
            .filter(|(independent, _)| !**independent)
            .map(|(_, &at)| Condition {
                at,
                decision: self.at,
            })
    }

    /// The decision of two runs of one compiled function: a condition is independent when
    /// either run shows it, or when the union of the runs' test vectors holds a pair for it
    /// (3.1.0 exports; see [`independence`]).
    pub fn merge(&self, other: &Decision) -> Decision {
        let mut vectors: Vec<TestVector> =
            self.vectors.iter().chain(&other.vectors).cloned().collect();
        vectors.sort();
        vectors.dedup();
        let paired = independence(&vectors, self.independent.len());
        let independent = self
            .independent
            .iter()
            .zip(other.independent.iter().chain(std::iter::repeat(&false)))
            .zip(paired)
            .map(|((a, b), c)| *a | *b | c)
            .collect();
        Decision {
            at: self.at,
            conditions: self.conditions.clone(),
            independent,
            vectors,
        }
    }
}

/// Which of `n` conditions have an independence pair among `vectors`: a vector with a false
/// result and one with a true result that differ in exactly one condition evaluated in both
/// (LLVM `MCDCRecordProcessor::findIndependencePairs`).
pub fn independence(vectors: &[TestVector], n: usize) -> Vec<bool> {
    let mut paired = vec![false; n];
    for a in vectors.iter().filter(|v| !v.result) {
        for b in vectors.iter().filter(|v| v.result) {
            let mut differ = a
                .conditions
                .iter()
                .zip(&b.conditions)
                .enumerate()
                .filter(|(_, (x, y))| matches!((x, y), (Some(x), Some(y)) if x != y))
                .map(|(i, _)| i);
            if let (Some(i), None) = (differ.next(), differ.next()) {
                if let Some(slot) = paired.get_mut(i) {
                    *slot = true;
                }
            }
        }
    }
    paired
}

/// The decisions of a record, located: each decision's start and its conditions' starts
/// through `locate` (file id, span → the span in the main file), the conditions taken from the
/// `branches` inside the decision's range and in no smaller decision of the record. A decision
/// whose branches do not number its conditions gives the decision's start for each.
pub(super) fn locate(
    raw: &[RawDecision],
    branches: &[Branch],
    main: u32,
    locate: &dyn Fn(u32, Span) -> Span,
) -> Vec<Decision> {
    raw.iter()
        .map(|d| {
            let file = d.file_id.unwrap_or(main);
            let inner = |b: &Branch| {
                contains(d.span, b.span)
                    && !raw
                        .iter()
                        .any(|o| o != d && contains(d.span, o.span) && contains(o.span, b.span))
            };
            let mut found: Vec<&Branch> = branches
                .iter()
                .filter(|b| d.file_id.is_none_or(|f| f == b.file_id) && inner(b))
                .collect();
            found.sort_by_key(|b| (b.span.line_start, b.span.col_start));
            let start = |s: Span| (s.line_start, s.col_start);
            let at = start(locate(file, d.span));
            let conditions = if found.len() == d.independent.len() {
                found
                    .iter()
                    .map(|b| start(locate(b.file_id, b.span)))
                    .collect()
            } else {
                vec![at; d.independent.len()]
            };
            let mut vectors = d.vectors.clone();
            vectors.sort();
            vectors.dedup();
            Decision {
                at,
                conditions,
                independent: d.independent.clone(),
                vectors,
            }
        })
        .collect()
}

/// True when `inner` lies within `outer`.
fn contains(outer: Span, inner: Span) -> bool {
    (outer.line_start, outer.col_start) <= (inner.line_start, inner.col_start)
        && (inner.line_end, inner.col_end) <= (outer.line_end, outer.col_end)
}

/// The conditions of `decisions`, and the ones shown independent.
pub(super) fn counts(decisions: &[Decision]) -> Counts {
    decisions
        .iter()
        .fold(Counts::default(), |sum, d| sum + d.counts())
}

const SHAPE: &str = "an MC/DC record [line_start, col_start, line_end, col_end, …, [conditions], \
                     [test vectors]]";

impl<'de> Deserialize<'de> for RawDecision {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RawDecision, D::Error> {
        deserializer.deserialize_seq(DecisionVisitor)
    }
}

/// An element of an MC/DC record after its range: a number, the conditions' flags, or the
/// test vectors.
#[derive(DeriveDeserialize)]
#[serde(untagged)]
enum Element {
    Number(u64),
    Flags(Vec<bool>),
    Vectors(Vec<VectorJson>),
}

/// `{conditions, executed, result}`.
#[derive(DeriveDeserialize)]
struct VectorJson {
    conditions: Vec<Option<bool>>,
    #[serde(default = "yes")]
    executed: bool,
    result: bool,
}

fn yes() -> bool {
    true
}

/// The executed test vectors of a record.
fn executed(read: Vec<VectorJson>) -> Vec<TestVector> {
    read.into_iter()
        .filter(|v| v.executed)
        .map(|v| TestVector {
            conditions: v.conditions,
            result: v.result,
        })
        .collect()
}

struct DecisionVisitor;

impl<'de> Visitor<'de> for DecisionVisitor {
    type Value = RawDecision;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(SHAPE)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawDecision, A::Error> {
        use super::count::next_u32;
        let span = Span {
            line_start: next_u32(&mut seq, 0, SHAPE)?,
            col_start: next_u32(&mut seq, 1, SHAPE)?,
            line_end: next_u32(&mut seq, 2, SHAPE)?,
            col_end: next_u32(&mut seq, 3, SHAPE)?,
        };
        let mut numbers = Vec::new();
        let (mut independent, mut vectors) = (None, Vec::new());
        while let Some(element) = seq.next_element::<Element>()? {
            match (element, &independent) {
                (Element::Number(n), None) => numbers.push(n),
                (Element::Flags(flags), None) => independent = Some(flags),
                (Element::Vectors(read), Some(_)) => vectors = executed(read),
                // No test vector (`[]` reads as flags), or what a later LLVM may add.
                _ => {}
            }
        }
        let independent = independent
            .ok_or_else(|| serde::de::Error::invalid_length(4 + numbers.len(), &SHAPE))?;
        // 3.x: true and false decisions, file id, expanded file id, kind.
        let file_id = match numbers.as_slice() {
            [_, _, file_id, _, _] => u32::try_from(*file_id).ok(),
            _ => None,
        };
        Ok(RawDecision {
            span,
            file_id,
            independent,
            vectors,
        })
    }
}

#[cfg(test)]
#[path = "mcdc_tests.rs"]
mod tests;
