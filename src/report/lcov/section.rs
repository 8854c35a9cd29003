//! One `SF` section: its records gathered as they are read, its functions resolved when it
//! closes, and the order of its records (which tells llvm-cov's writer apart).

use std::collections::{BTreeMap, HashMap};

use crate::model::Counts;

use super::file::{judged, sorted_lines, Branch, Closed, DeclaredTotals, Function, LcovFile};
use super::index::{Aliases, Keys, Name, Names};
use super::instances::group_apart;
use super::lex::{fnda_count, named_line, Record, TotalKind};
use super::lines::Lines;

/// The records of one open section, before its functions are resolved.
#[derive(Debug, Default)]
pub(super) struct Section {
    pub(super) path: String,
    pub(super) file: LcovFile,
    /// `DA` records: (line, count), in input order.
    da: Vec<(u32, u64)>,
    /// `FN` records, in input order, each with the counts of `FNDA` records of its name met
    /// right after it or in the order of the `FN` records ([`FnRecord`]).
    fn_records: Vec<FnRecord>,
    /// `FNDA` records (name, count), in input order, but those kept in `fn_records`.
    fnda: Vec<(Name, u64)>,
    /// The index in `fn_records` of the `FN` record whose name the next `FNDA` is expected to
    /// have (llvm-cov, lcov, gcovr write the `FNDA` records after all `FN` records, in their
    /// order): an `FNDA` of that name is kept with it, unnamed, and the next one is expected.
    /// How many `FNDA` records came right after an `FN` of their name (their counts are in
    /// `fn_records`). When every `FNDA` of the section is such (coverage.py, Foundry write `FN`, `FNDA` pairs),
    /// each counts for its `FN` only, as its writer means, even where several `FN` share the
    /// name; otherwise they are keyed by name like the others (lcov, llvm-cov, gcovr, istanbul
    /// write the `FNDA` after all `FN`).
    paired: usize,
    next_fnda: usize,
    /// The index in `fn_records` of the `FN` record just read (cleared by any other record).
    last_fn: Option<usize>,
    /// `FNL`: index → (start, end).
    fnl: BTreeMap<u64, (u32, Option<u32>)>,
    /// `FNA`: index → (alias, count).
    fna: BTreeMap<u64, Vec<(Name, u64)>>,
    /// The order of the section's records, to recognise llvm-cov's writer.
    pub(super) order: Order,
    /// Line numbers of the section's `LF`, `BRF` and `FNF` records (0: none), for warnings.
    declared_at: [u64; 3],
}

/// An `FN` record of an open section.
#[derive(Debug)]
struct FnRecord {
    start: u32,
    end: Option<u32>,
    name: Name,
    /// The count of the `FNDA` of its name right after it (see `Section::paired`).
    own: Option<u64>,
    /// The count of the `FNDA` of its name met where it was expected (see
    /// `Section::next_fnda`): an `FNDA` keyed by name, as those in `Section::fnda` are, kept
    /// here without looking its name up.
    in_order: Option<u64>,
}

/// Stages of llvm-cov's LCOV section, in the order its writer emits them
/// (`tools/llvm-cov/CoverageExporterLcov.cpp`: `renderFunctions`, `renderFunctionSummary`,
/// `renderLineExecutionCounts`, `renderBranchExecutionCounts`, `renderBranchSummary`,
/// `renderLineSummary`).
const STAGE_FN: u8 = 0;
const STAGE_FNDA: u8 = 1;
const STAGE_FNF: u8 = 2;
const STAGE_FNH: u8 = 3;
const STAGE_DA: u8 = 4;
const STAGE_BRDA: u8 = 5;
const STAGE_BRF: u8 = 6;
const STAGE_BRH: u8 = 7;
const STAGE_LF: u8 = 8;
const STAGE_LH: u8 = 9;
/// A record llvm-cov never writes (`TN`, `VER`, `FNL`, `FNA`, unknown records).
pub(super) const STAGE_FOREIGN: u8 = 15;

/// The order of one section's records: recognises llvm-cov's LCOV writer. Its sections hold no
/// `TN`/`VER` (before the `SF` or inside) and give `FN`*, `FNDA`*, `FNF`, `FNH`, `DA`*,
/// `BRDA`*, [`BRF`, `BRH`], `LF`, `LH` in this order (`MCDC`, `MCF`, `MCH` anywhere). Every
/// other writer of the corpus breaks it: lcov's geninfo, gcovr, istanbul/c8, gcov2lcov,
/// Foundry, JaCoCo converters, SpiderMonkey and Bazel write `TN:` before each `SF` (geninfo
/// and gcovr also `BRDA` before `DA`); grcov writes one `TN:` at the top and `BRDA`, `BRF`,
/// `BRH` before `DA` in every section (`src/output.rs`, `output_lcov`); coverage.py ≥ 7.6.2
/// writes `DA` before `FN`; Dart and gcov2lcov write no `FNF`; lcov ≥ 2.0 writes `VER` and
/// `FNL`/`FNA`.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Order {
    last: u8,
    seen: u16,
    broken: bool,
}

impl Order {
    pub(super) fn note(&mut self, stage: u8) {
        self.broken |= stage < self.last;
        self.last = stage;
        self.seen |= 1 << stage;
    }

    /// True when the section so far is llvm-cov's.
    fn is_llvm(&self) -> bool {
        let needed = [STAGE_FNF, STAGE_FNH, STAGE_LF, STAGE_LH]
            .iter()
            .fold(0u16, |bits, stage| bits | 1 << stage);
        !self.broken && self.seen & needed == needed && self.seen & (1 << STAGE_FOREIGN) == 0
    }
}

/// The stage of a data record (see [`Order`]).
fn stage(record: &Record<'_>, last: u8) -> u8 {
    match record {
        Record::Fn { .. } => STAGE_FN,
        Record::Fnda { .. } => STAGE_FNDA,
        Record::Total(TotalKind::FunctionsFound, _) => STAGE_FNF,
        Record::Total(TotalKind::FunctionsHit, _) => STAGE_FNH,
        Record::Da { .. } => STAGE_DA,
        Record::Brda { .. } => STAGE_BRDA,
        Record::Total(TotalKind::BranchesFound, _) => STAGE_BRF,
        Record::Total(TotalKind::BranchesHit, _) => STAGE_BRH,
        Record::Total(TotalKind::LinesFound, _) => STAGE_LF,
        Record::Total(TotalKind::LinesHit, _) => STAGE_LH,
        Record::Skipped => last,
        Record::Fnl { .. }
        | Record::Fna { .. }
        | Record::Ignored
        | Record::Sf(_)
        | Record::Unknown(_) => STAGE_FOREIGN,
    }
}

impl Section {
    pub(super) fn new(path: &str) -> Section {
        let (da, fn_records) = Spare::take();
        Section {
            path: path.to_string(),
            da,
            fn_records,
            ..Section::default()
        }
    }

    /// Sets a declared total. Errors when the section now declares more hit than found for a
    /// metric (`LH:5` with `LF:1`): no writer does, and the JSON reader refuses the same.
    fn set_total(&mut self, kind: TotalKind, value: u64) -> std::result::Result<(), String> {
        let (at, hit, names) = match kind {
            TotalKind::LinesFound => (DeclaredTotals::LINES, false, ("LH", "LF")),
            TotalKind::LinesHit => (DeclaredTotals::LINES, true, ("LH", "LF")),
            TotalKind::BranchesFound => (DeclaredTotals::BRANCHES, false, ("BRH", "BRF")),
            TotalKind::BranchesHit => (DeclaredTotals::BRANCHES, true, ("BRH", "BRF")),
            TotalKind::FunctionsFound => (DeclaredTotals::FUNCTIONS, false, ("FNH", "FNF")),
            TotalKind::FunctionsHit => (DeclaredTotals::FUNCTIONS, true, ("FNH", "FNF")),
        };
        self.file.declared.set(at, hit, value);
        let pair = self.file.declared.pair(at);
        match (pair.hit, pair.found) {
            (Some(hit), Some(found)) if hit > found => Err(format!(
                "{}:{hit} is more than {}:{found}; a tracefile cannot declare more items hit than found",
                names.0, names.1
            )),
            _ => Ok(()),
        }
    }

    /// Resolves the section's functions and returns its path, its file and its warnings
    /// (line, message): declared totals that disagree with the records where the records are
    /// counted ([`Section::disagreements`]).
    pub(super) fn close(mut self) -> (String, LcovFile, Vec<(u64, String)>) {
        let mut records = std::mem::take(&mut self.fn_records);
        let fnda = std::mem::take(&mut self.fnda);
        // Positional only when the writer interleaves (every `FNDA` right after its `FN`, and
        // more than one): an `FNDA` that happens to follow the last `FN` is keyed by name.
        let positional =
            self.paired >= 2 && fnda.is_empty() && records.iter().all(|r| r.in_order.is_none());
        if fnda.is_empty() && distinct_names(&records) {
            self.add_distinct(&mut records, positional);
        } else {
            self.add_keyed(&mut records, fnda, positional);
        }
        if !(self.fnl.is_empty() && self.fna.is_empty()) {
            // `add_distinct` leaves the functions unindexed; the groups are looked up in them.
            self.file.indexed();
            self.close_groups();
        }
        self.file.llvm = self.order.is_llvm();
        let warnings = if self.file.llvm {
            Vec::new()
        } else {
            self.disagreements()
        };
        let mut da = std::mem::take(&mut self.da);
        let (lines, tally) = lines_of(&mut da);
        self.file.lines = lines;
        self.file.sections = 1;
        let mut warnings = warnings;
        warnings.extend(self.overclaims(tally));
        Spare::keep(da, records);
        (self.path, self.file, warnings)
    }

    /// Adds the `FN` records of a section whose `FNDA` records all name an `FN` of it and whose
    /// `FN` records all have distinct names (llvm-cov's sections, most often): each is a
    /// function of its own, with the counts of the `FNDA` records of its name (its own only,
    /// when `positional`), as [`Section::add_keyed`] would count them, without a table of names
    /// or an index (a file stored new drops its index, a merge builds one when it needs it).
    fn add_distinct(&mut self, records: &mut Vec<FnRecord>, positional: bool) {
        let functions = records
            .drain(..)
            .map(|r| {
                let own = r.own.unwrap_or_default();
                let count = match positional {
                    true => own,
                    false => r.in_order.unwrap_or_default().saturating_add(own),
                };
                plain_function(Some(r.start), r.end, r.name, count)
            })
            .collect::<Vec<_>>();
        self.file.functions = functions.into();
    }

    /// Adds the `FN` records, each with the summed count of the `FNDA` records of its name (its
    /// own only, when `positional`), a repeated (start, name) once, and then the names of
    /// `FNDA` records without an `FN`, in first-appearance order.
    fn add_keyed(
        &mut self,
        records: &mut Vec<FnRecord>,
        mut fnda: Vec<(Name, u64)>,
        positional: bool,
    ) {
        // Names of `FNDA` records kept with their `FN`: each has one, so where they go in
        // `fnda` does not change the order of the names without one.
        let kept = records.iter().flat_map(|r| {
            let own = r.own.filter(|_| !positional);
            [r.in_order, own]
                .into_iter()
                .flatten()
                .map(|count| (r.name.clone(), count))
        });
        fnda.extend(kept);
        // Name → (summed count, taken by an `FN` or already added).
        let mut counts: HashMap<&str, (u64, bool), Keys> =
            HashMap::with_capacity_and_hasher(fnda.len(), Keys);
        for (name, count) in &fnda {
            let entry = counts.entry(name.as_str()).or_insert((0, false));
            entry.0 = entry.0.saturating_add(*count);
        }
        let mut untaken = counts.len();
        for r in records.drain(..) {
            let named = match counts.get_mut(r.name.as_str()) {
                Some((count, taken)) => {
                    untaken -= usize::from(!*taken);
                    *taken = true;
                    *count
                }
                None => 0,
            };
            let own = r.own.filter(|_| positional).unwrap_or_default();
            self.add_fn_record(r.start, r.end, r.name, named.saturating_add(own));
        }
        // `FNDA` names without an `FN`, in first-appearance order (none, most often).
        for (name, _) in &fnda {
            if untaken == 0 {
                break;
            }
            if let Some((count, taken @ false)) = counts.get_mut(name.as_str()) {
                *taken = true;
                untaken -= 1;
                self.file
                    .add_function(plain_function(None, None, name.clone(), *count));
            }
        }
    }

    /// Declared pairs (`LF`/`LH`, `BRF`/`BRH`, `FNF`/`FNH`) of a section whose records are
    /// counted (not llvm-cov's) that differ from what the records count, with the line of the
    /// found record. One difference is explained, and not reported: `LF`/`LH` counting `DA`
    /// records rather than lines, where a line repeats (SpiderMonkey's writer, which grcov
    /// reads). `self.da` holds the section's `DA` records as written.
    fn disagreements(&self) -> Vec<(u64, String)> {
        let file = &self.file;
        let (mut lines, mut hit) = (HashMap::with_hasher(Keys), 0u64);
        for &(line, count) in &self.da {
            *lines.entry(line).or_insert(0u64) |= count;
            hit += u64::from(count > 0);
        }
        let distinct = Counts::new(
            lines.values().filter(|c| **c > 0).count() as u64,
            lines.len() as u64,
        );
        let per_record = Counts::new(hit, self.da.len() as u64);
        // Counted once each: counting functions works out every record's identity.
        let (branches, functions) = (file.detail_branches(), file.detail_functions());
        let checks = [
            (
                "LF",
                "LH",
                "lines",
                0,
                file.declared.lines(),
                distinct,
                per_record,
            ),
            (
                "BRF",
                "BRH",
                "branch sides",
                1,
                file.declared.branches(),
                branches,
                branches,
            ),
            (
                "FNF",
                "FNH",
                "functions",
                2,
                file.declared.functions(),
                functions,
                functions,
            ),
        ];
        let mut out = Vec::new();
        for (found, hit, what, at, pair, records, explained) in checks {
            let Some(declared) = pair.consistent() else {
                continue;
            };
            if declared != records && declared != explained {
                let line = self.declared_at.get(at).copied().unwrap_or_default();
                let verdict = match judged(false, Some(declared), || records, 0).1 {
                    true => "covgate judges the declared totals, the worse (the missed items the records do not hold cannot be listed)",
                    false => "covgate counts the records",
                };
                out.push((
                    line,
                    format!(
                        "{found}:{} {hit}:{} disagree with the section's records ({} {what}, {} hit); {verdict}",
                        declared.total, declared.covered, records.total, records.covered
                    ),
                ));
            }
        }
        out
    }

    /// Adds an `FN:<start>,<name>` record (no end line), as [`apply`] does.
    pub(super) fn fn_record(&mut self, start: u32, name: &str, names: &mut Names) {
        self.order.note(STAGE_FN);
        self.push_fn(start, None, names.get(name));
    }

    /// Adds an `FN` record: the function just read, for the `FNDA` that may follow it.
    fn push_fn(&mut self, start: u32, end: Option<u32>, name: Name) {
        self.last_fn = Some(self.fn_records.len());
        self.fn_records.push(FnRecord {
            start,
            end,
            name,
            own: None,
            in_order: None,
        });
    }

    /// Adds a `DA` record, as [`apply`] does.
    pub(super) fn da(&mut self, line: u32, count: u64) {
        self.order.note(STAGE_DA);
        self.last_fn = None;
        self.da.push((line, count));
    }

    /// A plain `FNDA:<count>,<name>` line at the start of `bytes` ([`fnda_count`],
    /// [`named_line`]) whose name is that of the `FN` record just read or of the one expected
    /// next: applied as [`apply`] applies it ([`Section::add_fnda`]), its name neither searched
    /// for nor looked up. Returns its length with its line break; `None`, with nothing done,
    /// for any other line.
    pub(super) fn fnda_line(&mut self, bytes: &[u8]) -> Option<usize> {
        let (count, rest) = fnda_count(bytes)?;
        let len = |at: usize| {
            let record = self.fn_records.get(at)?;
            named_line(rest, record.name.as_str()).map(|len| (at, len))
        };
        let (own, (at, len)) = match self.last_fn.and_then(len) {
            Some(found) => (true, found),
            None => (false, len(self.next_fnda)?),
        };
        // `len` found a record at `at`: the closure always runs, once.
        let (paired, next_fnda) = (&mut self.paired, &mut self.next_fnda);
        let records = self.fn_records.get_mut(at).into_iter();
        records.for_each(|record| match own {
            true => {
                record.own = Some(count);
                *paired += 1;
            }
            false => {
                record.in_order = Some(count);
                *next_fnda += 1;
            }
        });
        self.order.note(STAGE_FNDA);
        self.last_fn = None;
        Some(bytes.len() - rest.len() + len)
    }

    /// Declared pairs of an llvm-cov section (its lines read) that claim fewer misses than its
    /// records prove ([`judged`]): no llvm-cov run writes them, so the records are counted,
    /// with a warning naming the line of the found record. The verdict is kept with the file
    /// ([`LcovFile::closed`]) for its reduction. `lines`: the file's lines, as
    /// [`LcovFile::detail_lines`] counts them.
    fn overclaims(&mut self, lines: Counts) -> Vec<(u64, String)> {
        let file = &self.file;
        if !file.llvm {
            return Vec::new();
        }
        let weighed = file.weighed_with(lines);
        let judged = file.judged_with(file.weighs().then_some(weighed));
        let checks = [
            ("LF", "LH", "lines", file.declared.lines()),
            ("BRF", "BRH", "branch sides", file.declared.branches()),
            ("FNF", "FNH", "functions", file.declared.functions()),
        ];
        let mut out = Vec::new();
        let metrics = checks.into_iter().zip(judged).zip(self.declared_at);
        for ((((found, hit, what, pair), judged), line), (proved, _)) in metrics.zip(weighed) {
            let (Some(declared), (records, false)) = (pair.consistent(), judged) else {
                continue;
            };
            // Else the declared hits have no records behind them (see `claims`).
            let why = match declared.total - declared.covered < proved {
                true => "counts fewer misses than its records prove",
                false => "claims more found or hit than its records hold",
            };
            out.push((
                line,
                format!(
                    "{found}:{} {hit}:{} claim more covered than the section's records show ({} {what}, {} hit, and no llvm-cov run {why}); covgate counts the records",
                    declared.total, declared.covered, records.total, records.covered
                ),
            ));
        }
        self.file.closed = Closed::of(judged.map(|(_, declared)| declared));
        out
    }

    /// Adds one `FN` record; a repeated (start, name) in a section is one function, not two.
    fn add_fn_record(&mut self, start: u32, end: Option<u32>, name: Name, count: u64) {
        let (found, hash) = self.file.find_function(Some(start), &name);
        match found.and_then(|at| self.file.functions.get_mut(at)) {
            Some(existing) => {
                existing.end = existing.end.or(end);
                // A repeated `FN` with an `FNDA` of its own (see `Section::paired`).
                existing.count = existing.count.max(count);
            }
            None => {
                let file = &mut self.file;
                file.function_index.insert(hash, file.functions.len());
                file.functions
                    .push(plain_function(Some(start), end, name, count));
            }
        }
    }

    /// Adds an `FNDA` record: to the `FN` record just read (`last_fn`) when it has its name,
    /// else to the `FN` record expected next ([`Section::next_fnda`]) when it has its name,
    /// else to the `FNDA` records keyed by name.
    fn add_fnda(&mut self, last_fn: Option<usize>, count: u64, name: &str, names: &mut Names) {
        let records = &mut self.fn_records;
        if let Some(record) = last_fn.and_then(|at| records.get_mut(at)) {
            if record.name == name {
                record.own = Some(count);
                self.paired += 1;
                return;
            }
        }
        match records.get_mut(self.next_fnda) {
            Some(record) if record.name == name => {
                record.in_order = Some(count);
                self.next_fnda += 1;
            }
            _ => self.fnda.push((names.get(name), count)),
        }
    }

    /// Turns `FNL`/`FNA` groups into functions keyed by (start, smallest alias).
    fn close_groups(&mut self) {
        let mut indexes: Vec<u64> = self.fnl.keys().chain(self.fna.keys()).copied().collect();
        indexes.sort_unstable();
        indexes.dedup();
        for index in indexes {
            let (start, end) = match self.fnl.get(&index) {
                Some((s, e)) => (Some(*s), *e),
                None => (None, None),
            };
            let mut aliases = self.fna.remove(&index).unwrap_or_default();
            aliases.sort();
            if group_apart(&aliases) {
                for (name, count) in aliases {
                    self.file
                        .add_function(plain_function(start, end, name, count));
                }
                continue;
            }
            let count = aliases
                .iter()
                .fold(0u64, |acc, (_, c)| acc.saturating_add(*c));
            let mut names: Vec<Name> = aliases.into_iter().map(|(n, _)| n).collect();
            names.dedup();
            let name = names
                .first()
                .cloned()
                .unwrap_or_else(|| Name::from(format!("<FNL index {index}>").as_str()));
            self.file.add_function(Function {
                start,
                end,
                name,
                aliases: Aliases::from_sorted(names),
                count,
            });
        }
    }
}

/// `DA` records (line, count) in input order as a file's lines: packed as they are when their
/// lines ascend (llvm-cov, lcov, gcovr write them so), else sorted and summed per line first;
/// with their counts ([`LcovFile::detail_lines`], without decoding them again). `records` is
/// left empty, its room kept.
fn lines_of(records: &mut Vec<(u32, u64)>) -> (Lines, Counts) {
    let ascending = records
        .iter()
        .zip(records.iter().skip(1))
        .all(|(a, b)| a.0 < b.0);
    let tally = |lines: &[(u32, u64)]| {
        let covered = lines.iter().filter(|(_, count)| *count > 0).count();
        Counts::new(covered as u64, lines.len() as u64)
    };
    if ascending {
        let counts = tally(records);
        let lines = Lines::pack_from(records.iter().copied());
        records.clear();
        (lines, counts)
    } else {
        let sorted = sorted_lines(std::mem::take(records));
        let counts = tally(&sorted);
        (Lines::pack(sorted), counts)
    }
}

/// The emptied buffers of the last section closed on a thread, for the next section opened
/// there: a section's `DA` and `FN` records are gathered in vectors that grow as they are read;
/// reused, their room is not allocated and grown again for every section.
#[derive(Default)]
struct Spare {
    da: Vec<(u32, u64)>,
    fn_records: Vec<FnRecord>,
}

thread_local! {
    static SPARE: std::cell::RefCell<Spare> = std::cell::RefCell::default();
}

/// Buffers larger than this many records are not kept (a huge section's room is given back).
const SPARE_MAX: usize = 1 << 16;

impl Spare {
    /// This thread's spare buffers (empty vectors when there are none).
    fn take() -> (Vec<(u32, u64)>, Vec<FnRecord>) {
        let spare = SPARE.with_borrow_mut(std::mem::take);
        (spare.da, spare.fn_records)
    }

    /// Keeps `da` and `fn_records`, both empty, for the next section on this thread.
    fn keep(da: Vec<(u32, u64)>, fn_records: Vec<FnRecord>) {
        let small = |len: usize| len <= SPARE_MAX;
        let spare = Spare {
            da: if small(da.capacity()) { da } else { Vec::new() },
            fn_records: if small(fn_records.capacity()) {
                fn_records
            } else {
                Vec::new()
            },
        };
        SPARE.set(spare);
    }
}

/// True when no two of `records` have the same name (a name's number is its text's).
fn distinct_names(records: &[FnRecord]) -> bool {
    let mut numbers: Vec<usize> = records.iter().map(|r| r.name.number()).collect();
    numbers.sort_unstable();
    numbers.windows(2).all(|pair| pair.first() != pair.get(1))
}

fn plain_function(start: Option<u32>, end: Option<u32>, name: Name, count: u64) -> Function {
    Function {
        start,
        end,
        name,
        aliases: Aliases::default(),
        count,
    }
}

/// Applies a data record to the open section; errors as [`Section::set_total`] does.
pub(super) fn apply(
    section: &mut Section,
    number: u64,
    record: Record<'_>,
    names: &mut Names,
) -> std::result::Result<(), String> {
    section.order.note(stage(&record, section.order.last));
    let last_fn = section.last_fn.take();
    match record {
        Record::Fn { start, end, name } => section.push_fn(start, end, names.get(name)),
        Record::Fnda { count, name } => section.add_fnda(last_fn, count, name, names),
        Record::Fnl { index, start, end } => {
            section.fnl.insert(index, (start, end));
        }
        Record::Fna {
            index,
            count,
            alias,
        } => section
            .fna
            .entry(index)
            .or_default()
            .push((names.get(alias), count)),
        Record::Brda {
            line,
            block,
            branch,
            taken,
        } => section.file.add_branch(Branch {
            line,
            block: names.get(block),
            branch: names.get(branch),
            taken,
        }),
        Record::Da { line, count } => section.da.push((line, count)),
        Record::Total(kind, value) => {
            let at = match kind {
                TotalKind::LinesFound => Some(0),
                TotalKind::BranchesFound => Some(1),
                TotalKind::FunctionsFound => Some(2),
                _ => None,
            };
            if let Some(slot) = at.and_then(|at| section.declared_at.get_mut(at)) {
                *slot = number;
            }
            return section.set_total(kind, value);
        }
        Record::Ignored | Record::Skipped | Record::Sf(_) | Record::Unknown(_) => {}
    }
    Ok(())
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "section_tests.rs"]
mod tests;
