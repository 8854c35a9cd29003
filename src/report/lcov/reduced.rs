//! A file reduced to its verdict: what `covgate check` asks of a file that no later section,
//! shard or inline marker can change, and nothing more.
//!
//! A tracefile of many distinct files keeps, read whole, every `DA` line and every function
//! record of every file until the check is done (about 300 bytes a file of a Rust crate's
//! tracefile). Reduced, a file keeps its counts, as [`LcovFile::summary`] gives them (the
//! declared-count rule applied to the file as read), and only the records that name its
//! uncovered items:
//! - the `DA` lines with count 0 ([`LcovFile::uncovered_lines`]);
//! - the `BRDA` sides not taken, in their order ([`LcovFile::uncovered_branches`]);
//! - the function records of the functions that never ran: records with one start line and one
//!   identity (`function_identity`) are one function, listed when none of them ran
//!   ([`LcovFile::missed_functions`]). They are kept as counted (a function that only `FNDA`
//!   named is folded into the function of its name), with every record of such a function, so
//!   that the list made from them is the list made from the whole file.
//!
//! Its counts are kept as declared totals of llvm-cov's shape, which [`LcovFile::summary`] then
//! gives back as they are. Its indexes are empty. [`LcovFile::has_records`],
//! [`LcovFile::merge_conflict`] and [`LcovFile::summed_instantiations`] answer as for the file
//! read whole: a file is reduced only when it has records and sums no instantiations.
//!
//! What a reduced file can no longer do is merge: its records are gone. The reader reduces a
//! file only when it is told which files may carry inline markers (those keep everything) and
//! reads the tracefile again, keeping everything, when a reduced file's path comes again in a
//! later section (see `parse`); `covgate check` reads the report again when two spellings of
//! one file name two parts, one of them reduced. A merge that still meets one is marked as a
//! conflict ([`LcovFile::merge_conflict`]), never counted from what is left. The views of the
//! records ([`LcovFile::lines`], [`LcovFile::branches`], [`LcovFile::functions`],
//! [`LcovFile::uncovered_functions`]) give what is left.

use std::collections::HashMap;

use super::extra::Extra;
use super::file::{DeclaredTotals, Function, LcovFile};
use super::identity::function_identity;
use super::index::{Keys, Name};
use super::lines::Lines;

/// The identities of function names (`function_identity`: a demangling), worked out once per
/// name for a whole tracefile: the same names come in every copy of a file.
#[derive(Debug, Default)]
pub(super) struct Identities {
    /// Name's number → identity's number.
    by_name: HashMap<usize, u32, Keys>,
    /// Identity → its number.
    numbers: HashMap<String, u32, Keys>,
}

impl Identities {
    /// The number of `name`'s identity: equal numbers, equal identities.
    fn of(&mut self, name: &Name) -> u32 {
        if let Some(id) = self.by_name.get(&name.number()) {
            return *id;
        }
        let next = self.numbers.len() as u32;
        let id = *self.numbers.entry(function_identity(name)).or_insert(next);
        self.by_name.insert(name.number(), id);
        id
    }
}

impl LcovFile {
    /// True when the file was reduced to its verdict (see the module documentation).
    pub fn is_reduced(&self) -> bool {
        self.reduced
    }

    /// Reduces a file read whole (its sections merged, nothing pending) to its verdict: its
    /// counts and the records of its uncovered items. A file without records, or one whose
    /// records sum instantiations ([`LcovFile::summed_instantiations`], an error for
    /// `covgate check` that names them), stays as it is. `identities` is the reader's cache.
    pub(super) fn reduce(&mut self, identities: &mut Identities) {
        if !self.has_records() || self.summed_instantiations().is_some() {
            return;
        }
        // As the file's section was closed, if nothing changed it since (`summary`).
        let judged = match self.closed.get() {
            Some(declared) => self.judged_as_closed(declared),
            None => self.judged(),
        };
        let mut declared = DeclaredTotals::default();
        let at = [
            DeclaredTotals::LINES,
            DeclaredTotals::BRANCHES,
            DeclaredTotals::FUNCTIONS,
        ];
        for (at, (counts, _)) in at.into_iter().zip(judged) {
            declared.set(at, false, counts.total);
            declared.set(at, true, counts.covered);
        }
        // One list of the functions (borrowed while they are open, as the reader keeps them
        // until here) for the last line and the missed records.
        let counted = self.counted_functions();
        let starts = counted.iter().filter_map(|f| f.start);
        let mut last = self.branches().iter().map(|b| b.line).chain(starts).max();
        let functions = missed_records(&counted, identities);
        drop(counted);
        let mut lines = Vec::new();
        for (line, count) in self.lines.iter() {
            last = last.max(Some(line));
            if count == 0 {
                lines.push((line, count));
            }
        }
        // What `last_line` gave for the file as read.
        let as_read = (last.unwrap_or_default(), self.llvm);
        // The branch sides that name uncovered items, and whether a section was cut short.
        let extra = self.extra.take().map(|e| (e.branches, e.cut));
        let (mut branches, cut) = extra.unwrap_or_default();
        branches.retain(|b| !b.is_covered());
        branches.shrink_to_fit();
        let extra = (!branches.is_empty() || cut).then(|| {
            Box::new(Extra {
                branches,
                cut,
                ..Extra::default()
            })
        });
        *self = LcovFile {
            lines: Lines::pack(lines),
            extra,
            functions: functions.into(),
            declared,
            sections: self.sections,
            llvm: true,
            conflict: self.conflict,
            reduced: true,
            as_read,
            ..LcovFile::default()
        };
        self.functions.pack();
    }
}

/// The records of `functions` (as counted) of the functions that never ran: per start line and
/// identity, all records when none of them ran; in their order.
fn missed_records(functions: &[Function], identities: &mut Identities) -> Vec<Function> {
    // (start, identity) of every record that ran, sorted: a file has a few dozen functions, so
    // a sorted vector is cheaper to build and search than a set.
    let mut ran: Vec<(Option<u32>, u32)> = functions
        .iter()
        .filter(|f| f.is_covered())
        .map(|f| (f.start, identities.of(&f.name)))
        .collect();
    ran.sort_unstable();
    ran.dedup();
    // The identity of a record that did not run is looked up (once per name: `identities`)
    // only on a start line where one ran.
    let mut missed = |f: &Function| {
        let from = ran.partition_point(|r| r.0 < f.start);
        let ran_there = ran.get(from).is_some_and(|r| r.0 == f.start);
        !ran_there
            || ran
                .binary_search(&(f.start, identities.of(&f.name)))
                .is_err()
    };
    functions
        .iter()
        .filter(|f| !f.is_covered() && missed(f))
        .cloned()
        .collect()
}
