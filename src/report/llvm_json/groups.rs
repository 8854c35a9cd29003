//! The kept function records of an export, by main file, gathered as they are read: whole for a
//! file that keeps everything, one record per instantiation group for a file kept for its
//! misses ([`Kept::Misses`]).

use std::hash::BuildHasher;

use hashbrown::hash_table::Entry;
use hashbrown::{DefaultHashBuilder, HashMap, HashTable};
use rayon::prelude::*;

use crate::model::Counts;

use super::evidence::Evidence;
use super::{FunctionStats, Kept, Origins};
use crate::demangle::SameNames;

/// One record's contribution.
pub(super) struct RecordOut {
    /// True when the record lists a branch.
    pub(super) has_branches: bool,
    /// What the record shows ran, for its main file ([`Evidence`]).
    pub(super) evidence: Evidence,
    /// The index in `files[]` of the record's main file when the record is not kept (`None`:
    /// kept, or of a file not in `files[]`).
    pub(super) skipped_at: Option<u32>,
    /// The main file, the reduced record and what its file keeps, when kept.
    pub(super) kept: Option<(MainFile, FunctionStats, Kept)>,
}

/// The main file of a kept record.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum MainFile {
    /// The file at this index of the export's `files[]` (named when the records are handed
    /// over, [`KeptRecords::into_parts`]): the record's own copy of the name is dropped on the
    /// thread that read it, not sent on to be dropped by another (freeing memory of another
    /// thread cost more in the allocator than the whole look-up of the name).
    At(u32),
    /// A file named by the record (its export's `files[]` was not read yet).
    Named(String),
}

/// The kept records by main file, gathered in order as they are read.
#[derive(Default)]
pub(super) struct KeptRecords {
    /// Each main file and its records, in the order of their first record (a file given by
    /// its index in `files[]` is named at the end: its name here is empty until then).
    files: Vec<(String, FileRecords)>,
    /// Places in `files`, found by name (hashed with `hasher`).
    places: HashTable<usize>,
    /// Places in `files` by index in `files[]` ([`MainFile::At`]; `usize::MAX`: none yet).
    at: Vec<usize>,
    hasher: DefaultHashBuilder,
    /// The place of the file of the last record added: records of one file mostly come one
    /// after the other, and a comparison of names is cheaper than a look-up.
    last: Option<usize>,
    has_branches: bool,
    /// The instantiation names of the records compared so far.
    names: SameNames,
    /// What the records of the file at each index of `files[]` show ran (grown as needed).
    evidence: Vec<Evidence>,
}

/// The kept records of an export by main file, and what the records of each file show ran.
pub(super) struct Parts {
    /// The kept records by main file.
    pub(super) by_file: std::collections::HashMap<String, Vec<FunctionStats>>,
    /// True when any record lists a branch.
    pub(super) has_branches: bool,
    /// What the records of each file of `files[]` show ran, by index (shorter than `files[]`
    /// when its last files have no record).
    pub(super) evidence: Vec<Evidence>,
    /// The same for files named by records read before `files[]`.
    pub(super) named: std::collections::HashMap<String, Evidence>,
}

/// The kept records of one file, in the order of their first record. For a file kept for its
/// misses ([`Kept::Misses`]), one record per instantiation group: `groups` gives its place in
/// `records`, found by the group key that record holds (4 bytes a group: a map of keys to
/// places took 16, and most of a failing gigabyte's peak is such small per-file tables), and
/// `best` the (covered, total) of a group's best record so far for regions, lines, branches and
/// MC/DC, for the groups where it is not the group's own counts (largest covered and largest
/// total): a group of one record is its own best, and so is a group whose records share their
/// totals (copies of one function, instantiations of one layout), so few groups have an entry.
#[derive(Default)]
struct FileRecords {
    records: Vec<FunctionStats>,
    groups: HashTable<u32>,
    best: HashMap<usize, [(u64, u64); 4]>,
    /// True when the file is kept for its misses (its records are groups, see [`settle`]).
    misses: bool,
    /// The file's index in `files[]` when it was given by it ([`MainFile::At`]).
    index: Option<u32>,
    /// What the file's records show ran, for a file named by its records ([`MainFile::Named`]).
    evidence: Evidence,
}

/// Pushes `record`, growing `records` by a quarter rather than doubling it: a failing
/// gigabyte keeps hundreds of thousands of records in small per-file vectors, and doubling
/// left a third of their room unused until the end of the read.
fn push(records: &mut Vec<FunctionStats>, record: FunctionStats) {
    if records.len() == records.capacity() {
        records.reserve_exact(records.len() / 4 + 4);
    }
    records.push(record);
}

/// The hash of a group key (line, column): a multiplicative hash, folded so that both its high
/// bits (the table's tags) and its low bits (the table's buckets) depend on every input bit.
fn key_hash((line, column): (u32, u32)) -> u64 {
    let mixed = ((u64::from(line) << 32) | u64::from(column)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    mixed ^ (mixed >> 29)
}

impl KeptRecords {
    /// Takes one record's contribution: kept whole, or merged into its instantiation group.
    pub(super) fn add(&mut self, record: RecordOut) {
        self.has_branches |= record.has_branches;
        let Some((file, stats, kept)) = record.kept else {
            if let Some(index) = record.skipped_at {
                self.note(index, record.evidence);
            }
            return;
        };
        let at = match file {
            MainFile::At(index) => {
                self.note(index, record.evidence);
                self.place_at(index)
            }
            MainFile::Named(name) => {
                let at = self.place_named(name);
                let file = self.files.get_mut(at).map(|(_, file)| file);
                file.into_iter()
                    .for_each(|file| file.evidence.add(record.evidence));
                at
            }
        };
        let names = &mut self.names;
        // `at` is a place in `files` (`place` made it).
        self.files
            .get_mut(at)
            .into_iter()
            .zip([stats])
            .for_each(|((_, file), stats)| add_to(file, stats, kept, names));
    }

    /// Adds what a record of the file at `index` of `files[]` shows ran.
    fn note(&mut self, index: u32, evidence: Evidence) {
        let slot = index as usize;
        if slot >= self.evidence.len() {
            self.evidence.resize(slot + 1, Evidence::default());
        }
        self.evidence
            .get_mut(slot)
            .into_iter()
            .for_each(|known| known.add(evidence));
    }

    /// The place of the file at `index` of `files[]`, made when the file is new.
    fn place_at(&mut self, index: u32) -> usize {
        let slot = index as usize;
        if slot >= self.at.len() {
            self.at.resize(slot + 1, usize::MAX);
        }
        let known = self.at.get(slot).copied().unwrap_or(usize::MAX);
        if known != usize::MAX {
            return known;
        }
        let place = self.files.len();
        let file = FileRecords {
            index: Some(index),
            ..FileRecords::default()
        };
        self.files.push((String::new(), file));
        self.at.get_mut(slot).into_iter().for_each(|at| *at = place);
        place
    }

    /// The place of the file `name` in `files`, made when the file is new (the last file's
    /// place first: records of one file mostly come one after the other, and a comparison of
    /// names is cheaper than a look-up).
    fn place_named(&mut self, name: String) -> usize {
        let last = self
            .last
            .filter(|&at| self.files.get(at).is_some_and(|(known, _)| *known == name));
        let at = last.unwrap_or_else(|| self.place(name));
        self.last = Some(at);
        at
    }

    /// The place of the file `name` in `files`, made when the file is new.
    fn place(&mut self, name: String) -> usize {
        let files = &mut self.files;
        let hasher = &self.hasher;
        let found = self.places.entry(
            hasher.hash_one(&name),
            |&at| files.get(at).is_some_and(|(known, _)| *known == name),
            |&at| files.get(at).map_or(0, |(known, _)| hasher.hash_one(known)),
        );
        match found {
            Entry::Occupied(slot) => *slot.get(),
            Entry::Vacant(slot) => {
                slot.insert(files.len());
                files.push((name, FileRecords::default()));
                files.len() - 1
            }
        }
    }

    /// The records by main file, whether any record lists a branch, and what the records of
    /// each file show ran; `name_of` names a file given by its index in `files[]`. The files
    /// are settled on every core (their names and tables freed, their vectors shrunk): on a
    /// failing gigabyte this was a tenth of a second of one core between reading and judging.
    pub(super) fn into_parts(self, name_of: &(dyn Fn(u32) -> String + Sync)) -> Parts {
        let mut named = std::collections::HashMap::new();
        let mut by_file = std::collections::HashMap::with_capacity(self.files.len());
        let settle_file = |(name, file): (String, FileRecords)| {
            let evidence = file.index.is_none().then(|| (name.clone(), file.evidence));
            let name = file.index.map_or(name, name_of);
            let mut records = file.records;
            if file.misses {
                records.iter_mut().for_each(settle);
            }
            // Their growth's spare room is given back before the verdict is worked out.
            records.shrink_to_fit();
            (name, records, evidence)
        };
        in_batches(self.files, settle_file, |(name, records, evidence)| {
            named.extend(evidence);
            by_file.insert(name, records);
        });
        Parts {
            by_file,
            has_branches: self.has_branches,
            evidence: self.evidence,
            named,
        }
    }
}

/// How many items [`in_batches`] maps at once.
const BATCH: usize = 4096;

/// Maps `items` on every core, [`BATCH`] at a time, and gives the results to `sink` in order:
/// beside the input and the output, no more than a batch is held mapped (the files of an
/// export of 189,000 files would otherwise be held twice at the end of its reading). `items`
/// is iterated on the calling thread.
pub(super) fn in_batches<T: Send, U: Send>(
    items: impl IntoIterator<Item = T>,
    map: impl Fn(T) -> U + Sync + Send,
    mut sink: impl FnMut(U),
) {
    let mut items = items.into_iter();
    loop {
        let batch: Vec<T> = items.by_ref().take(BATCH).collect();
        if batch.is_empty() {
            return;
        }
        let mapped: Vec<U> = batch.into_par_iter().map(&map).collect();
        mapped.into_iter().for_each(&mut sink);
    }
}

/// Adds a record of `file`: kept whole, or merged into its instantiation group.
fn add_to(file: &mut FileRecords, mut stats: FunctionStats, kept: Kept, names: &mut SameNames) {
    if kept == Kept::Everything {
        push(&mut file.records, stats);
        return;
    }
    file.misses = true;
    let records = &mut file.records;
    let key_at = |at: &u32| records.get(*at as usize).map(|r| r.key);
    let found = file.groups.entry(
        key_hash(stats.key),
        |at| key_at(at) == Some(stats.key),
        |at| key_at(at).map_or(0, key_hash),
    );
    match found {
        Entry::Vacant(slot) => {
            // A file's records are far fewer than 2^32 (each takes dozens of input bytes).
            slot.insert(records.len() as u32);
            push(records, stats);
        }
        Entry::Occupied(slot) => {
            let at = *slot.get() as usize;
            let best = &mut file.best;
            // The group's record is at `at` (it was pushed when the group was made).
            records.get_mut(at).into_iter().for_each(|group| {
                let mut so_far = best.get(&at).copied().unwrap_or_else(|| counts_of(group));
                absorb(group, &mut so_far, &mut stats, names);
                if so_far == counts_of(group) {
                    best.remove(&at);
                } else {
                    best.insert(at, so_far);
                }
            });
        }
    }
}

/// A group of a file kept for its misses, once every record is read, reduced to what its items
/// are listed with (`uncovered::from_llvm`): the names of the records its items come from only
/// when its records are of several instantiations (items name their instantiation only then),
/// and its own name only then or when it never ran (a function that never ran is listed by
/// name). The names of a failing gigabyte's groups were a tenth of its peak.
fn settle(group: &mut FunctionStats) {
    if group.several_instantiations {
        return;
    }
    if group.count > 0 {
        group.name = Box::default();
    }
    if let Some(items) = &mut group.items {
        items.origins = None;
    }
}

/// The (covered, total) of a record's regions, lines, branches and MC/DC conditions: what
/// picks a group's best record per metric (`uncovered::from_llvm`'s rule).
fn counts_of(record: &FunctionStats) -> [(u64, u64); 4] {
    [record.regions, record.lines, record.branches, record.mcdc].map(|c| (c.covered, c.total))
}

/// Merges `record` into its instantiation group's record `group` (see [`Kept::Misses`]):
/// largest covered and largest total per metric, summed execution count and instances, and per
/// metric the uncovered items of the best record (a later record of equal counts wins, as the
/// last of equals does in the list of uncovered items).
fn absorb(
    group: &mut FunctionStats,
    so_far: &mut [(u64, u64); 4],
    record: &mut FunctionStats,
    names: &mut SameNames,
) {
    let theirs = counts_of(record);
    let mut items = record.items.take().map(|items| *items).unwrap_or_default();
    let held = group.items.get_or_insert_with(Box::default);
    // The group's own items, met for the first time, come from its first record.
    let origins = held.origins.get_or_insert_with(|| {
        let first = |has: bool| {
            if has {
                group.name.clone()
            } else {
                Box::default()
            }
        };
        Box::new(Origins {
            regions: first(!held.uncovered_regions.is_empty()),
            branches: first(!held.uncovered_branches.is_empty()),
            decisions: first(!held.decisions.is_empty()),
        })
    });
    // The name of `record` for a metric whose items it gives (none: no name needed).
    let name = |has: bool| {
        if has {
            record.name.clone()
        } else {
            Box::default()
        }
    };
    if theirs[0] >= so_far[0] {
        held.uncovered_regions = std::mem::take(&mut items.uncovered_regions);
        origins.regions = name(!held.uncovered_regions.is_empty());
    }
    if theirs[1] >= so_far[1] {
        held.uncovered_lines = std::mem::take(&mut items.uncovered_lines);
    }
    if theirs[2] >= so_far[2] {
        held.uncovered_branches = std::mem::take(&mut items.uncovered_branches);
        origins.branches = name(!held.uncovered_branches.is_empty());
    }
    if theirs[3] >= so_far[3] {
        held.decisions = std::mem::take(&mut items.decisions);
        origins.decisions = name(!held.decisions.is_empty());
    }
    if held.is_empty() {
        group.items = None;
    }
    for (best, theirs) in so_far.iter_mut().zip(theirs) {
        *best = (*best).max(theirs);
    }
    let most = |a: Counts, b: Counts| Counts::new(a.covered.max(b.covered), a.total.max(b.total));
    group.regions = most(group.regions, record.regions);
    group.lines = most(group.lines, record.lines);
    group.branches = most(group.branches, record.branches);
    group.mcdc = most(group.mcdc, record.mcdc);
    group.count = group.count.saturating_add(record.count);
    if group.name.is_empty() {
        // The first named record stands for the group's name in the comparison below.
        group.name = std::mem::take(&mut record.name);
    } else if !record.name.is_empty() && !group.several_instantiations {
        // Names are compared (demangled: most of the cost of a merge) until two differ.
        let differ = !names.same(&group.name, &record.name);
        group.several_instantiations |= differ;
    }
    let instances = &mut group.instances;
    instances.records = instances.records.saturating_add(record.instances.records);
    instances.executed = instances.executed.saturating_add(record.instances.executed);
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "groups_tests.rs"]
mod tests;
