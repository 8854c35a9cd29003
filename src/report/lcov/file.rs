//! The model of one LCOV file: its records (lines, branch sides, functions), merged across
//! sections, shards and reports, and its counts, with the declared-count rule (see the module
//! documentation of [`super`], "Declared totals").

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::model::{Counts, Summary};

use super::claims::Weighed;
use super::extra::Extra;
use super::functions::Functions;
use super::identity::{function_identity, llvm_only};
use super::index::{Aliases, Index, Keys, Name};
use super::lines::Lines;

/// One `BRDA` branch side of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    /// Source line (0 occurs: coverage.py writes exits there).
    pub line: u32,
    /// Block id as written, exception/unreachable flags included (`0`, `e0`, `U3`).
    pub block: Name,
    /// Branch id as written; may be an expression with commas (`clampi(v, lo) < lo`).
    pub branch: Name,
    /// Times taken, summed over merged sections; `None` for `-` (never evaluated).
    pub taken: Option<u64>,
}

impl Branch {
    /// True when the side was taken at least once.
    pub fn is_covered(&self) -> bool {
        self.taken.is_some_and(|t| t > 0)
    }
}

/// One function of a file: an `FN` record, or an `FNL` group with its `FNA` aliases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// Start line; `None` when only `FNDA`/`FNA` named the function.
    pub start: Option<u32>,
    /// End line, when the writer gave one.
    pub end: Option<u32>,
    /// The name (for an `FNL` group, its smallest alias name).
    pub name: Name,
    /// For an `FNL` group, every alias name, sorted; empty for an `FN` record.
    pub aliases: Aliases,
    /// Execution count, summed over aliases and merged sections.
    pub count: u64,
}

impl Function {
    /// True when the function ran at least once.
    pub fn is_covered(&self) -> bool {
        self.count > 0
    }
}

/// A function that never ran, as listed by [`LcovFile::uncovered_functions`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UncoveredFunction {
    /// The function record.
    pub function: Function,
    /// True when another function record starting on the same line ran. Writers such as llvm-cov
    /// emit one record per instantiation and per binary, so such a record is usually an unused
    /// copy of a function that did run (llvm-cov then counts the function as covered); it may also
    /// be a distinct function sharing the line (gcovr: several functions on one line).
    pub shares_line_with_executed: bool,
}

/// A writer's declared found/hit totals for one metric (`LF`/`LH`, `BRF`/`BRH`, `FNF`/`FNH`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Declared {
    pub(super) found: Option<u64>,
    pub(super) hit: Option<u64>,
}

impl Declared {
    /// The declared counts when both are present (the reader refuses hit > found).
    pub(super) fn consistent(self) -> Option<Counts> {
        match (self.found, self.hit) {
            (Some(found), Some(hit)) => Some(Counts::new(hit, found)),
            _ => None,
        }
    }
}

/// The lines of a file, for [`LcovFile::same_shape`]: equal when the same lines are covered alike (compared as they
/// are decoded, without a list of them).
#[derive(Debug)]
pub(super) struct Cover<'a>(&'a Lines);

impl PartialEq for Cover<'_> {
    fn eq(&self, other: &Self) -> bool {
        // Equal lines and counts (a tracefile given twice, shards of equal runs) are equal
        // bytes; otherwise the lines are compared by whether each is covered.
        self.0 == other.0 || self.0.covered().eq(other.0.covered())
    }
}

impl Eq for Cover<'_> {}

/// The declared totals of one section: found and hit of lines, branches and functions, each
/// when its record was read. 56 bytes (six `Option<u64>` would take 96, in every file).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct DeclaredTotals {
    /// Found, hit of lines, of branches, of functions ([`DeclaredTotals::LINES`] …); 0 where
    /// not declared, so that equal totals compare equal.
    values: [u64; 6],
    /// Bit `i` set when `values[i]` was declared.
    set: u8,
}

impl DeclaredTotals {
    /// Where the pair of lines (`LF`, `LH`) starts in `values`.
    pub(super) const LINES: usize = 0;
    /// Where the pair of branches (`BRF`, `BRH`) starts.
    pub(super) const BRANCHES: usize = 2;
    /// Where the pair of functions (`FNF`, `FNH`) starts.
    pub(super) const FUNCTIONS: usize = 4;

    fn get(&self, at: usize) -> Option<u64> {
        let set = self.set & (1 << at) != 0;
        self.values.get(at).copied().filter(|_| set)
    }

    /// Set in `set` when the totals are a merge's bound ([`DeclaredTotals::merged`]), not a
    /// writer's.
    const BOUND: u8 = 1 << 6;

    /// The pair that starts at `at` ([`DeclaredTotals::LINES`] …). A bound's hit count, which
    /// may pass its found count, is given as at most the found count (a writer's never passes
    /// it: the reader refuses such a pair).
    pub(super) fn pair(&self, at: usize) -> Declared {
        let found = self.get(at);
        let most = match self.is_bound() {
            true => found.unwrap_or(u64::MAX),
            false => u64::MAX,
        };
        Declared {
            found,
            hit: self.get(at + 1).map(|hit| hit.min(most)),
        }
    }

    /// True when the totals are the bound a merge left ([`DeclaredTotals::merged`]): the
    /// best counts the merged sections' declared totals allow, not a writer's own.
    pub(super) fn is_bound(&self) -> bool {
        self.set & Self::BOUND != 0
    }

    /// The bound that two merged parts of one file (sections, shards, reports; each a
    /// writer's declared totals or the bound of an earlier merge) set on the merge, per metric
    /// that both declare in full: found at least the larger found count (a merge adds items,
    /// never removes one), hit at most the sum of the hit counts (an item the merge covers is
    /// covered in one of the parts). The hit sum is kept as it is, above the found count if
    /// so, for further merges; [`DeclaredTotals::pair`] gives it as at most the found count.
    /// No verdict of the merge can be better than this pair's share, whatever the parts
    /// covered in common: it is judged as another writer's declared pair ([`judged`]). A metric
    /// that one part does not declare in full has no bound.
    pub(super) fn merged(&self, other: &DeclaredTotals) -> DeclaredTotals {
        let mut out = DeclaredTotals::default();
        for at in [Self::LINES, Self::BRANCHES, Self::FUNCTIONS] {
            let raw = |totals: &DeclaredTotals| Some((totals.get(at)?, totals.get(at + 1)?));
            if let (Some((found, hit)), Some((more, hits))) = (raw(self), raw(other)) {
                out.set(at, false, found.max(more));
                out.set(at, true, hit.saturating_add(hits));
                out.set |= Self::BOUND;
            }
        }
        out
    }

    pub(super) fn lines(&self) -> Declared {
        self.pair(Self::LINES)
    }

    pub(super) fn branches(&self) -> Declared {
        self.pair(Self::BRANCHES)
    }

    pub(super) fn functions(&self) -> Declared {
        self.pair(Self::FUNCTIONS)
    }

    /// Declares `value` for the found (`hit` false) or hit half of the pair at `at`.
    pub(super) fn set(&mut self, at: usize, hit: bool, value: u64) {
        let at = at + usize::from(hit);
        self.values
            .get_mut(at)
            .into_iter()
            .for_each(|slot| *slot = value);
        self.set |= 1 << at;
    }
}

/// The records of one source file, all sections of one path merged.
///
/// Read-only views: [`lines`](Self::lines), [`branches`](Self::branches),
/// [`functions`](Self::functions) and the `uncovered_*` lists; counts via
/// [`summary`](Self::summary).
#[derive(Debug, Clone, Default)]
pub struct LcovFile {
    /// `DA`: (line, summed execution count), ascending by line, one entry per line.
    pub(super) lines: Lines,
    /// `BRDA` sides and what only some files hold, boxed apart ([`Extra`]); `None` when empty.
    pub(super) extra: Option<Box<Extra>>,
    /// Functions in first-appearance order (packed once the file is read whole).
    pub(super) functions: Functions,
    pub(super) function_index: Index,
    /// Declared totals, kept only while the file is a single section.
    pub(super) declared: DeclaredTotals,
    /// Number of sections merged into this file (0 for an empty default value).
    pub(super) sections: u32,
    /// True when a section of the file has llvm-cov's shape ([`Order`]): its declared totals
    /// are then the file's numbers, and its functions are grouped by start line.
    pub(super) llvm: bool,
    /// True when sections were merged of which one is llvm-cov's with declared totals its
    /// records cannot reproduce: no exact merge exists ([`LcovFile::merge_conflict`]).
    pub(super) conflict: bool,
    /// True when the file was reduced to its verdict (see `reduced`): it cannot merge.
    pub(super) reduced: bool,
    /// For a reduced file: the last line its records named, and whether a section was in
    /// llvm-cov's shape, as read ([`LcovFile::last_line`]).
    pub(super) as_read: (u32, bool),
    /// Per metric, whether [`LcovFile::judged`] took the declared pair, as worked out when the
    /// file's llvm-cov section was closed; none once anything changed it (a merge, lines set
    /// aside), or when it was not worked out. The reduction reads it instead of weighing the
    /// pairs again ([`LcovFile::judged_as_closed`]).
    pub(super) closed: Closed,
}

/// [`LcovFile::closed`] in one byte (bit 3 set once worked out, bit `i` when metric `i` took
/// its declared pair): an `Option<[bool; 3]>` made every file 8 bytes larger.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Closed(u8);

impl Closed {
    /// Per metric (lines, branches, functions), whether the declared pair was taken.
    pub(super) fn of(declared: [bool; 3]) -> Closed {
        let taken = declared.into_iter().zip(0..);
        Closed(taken.fold(8, |bits, (taken, at)| bits | (u8::from(taken) << at)))
    }

    /// What [`Closed::of`] was given; `None` for the default (not worked out).
    pub(super) fn get(self) -> Option<[bool; 3]> {
        let bit = |at: u8| self.0 & (1 << at) != 0;
        bit(3).then(|| [bit(0), bit(1), bit(2)])
    }
}

/// Files are equal when their records, declared totals and section counts are (the indexes are
/// derived from the records).
impl PartialEq for LcovFile {
    fn eq(&self, other: &LcovFile) -> bool {
        (
            &self.lines,
            self.branches(),
            &self.functions,
            self.declared,
            self.sections,
        ) == (
            &other.lines,
            other.branches(),
            &other.functions,
            other.declared,
            other.sections,
        )
    }
}

impl LcovFile {
    /// Merges another section (or shard, or report) of the same file into this one.
    ///
    /// `DA` counts are summed per line, `BRDA` per (line, block, branch) (`-` + `-` = `-`,
    /// `-` + n = n), functions per (start line, name) (a function that only `FNDA` named is
    /// counted as the function of its name with a start line: see `counted_functions`).
    /// Declared totals are replaced by the bound they set on the merge
    /// ([`DeclaredTotals::merged`]: found at least the larger found, hit at most the sum of
    /// hits) once two non-empty files merge, unless both sides declare the same totals over
    /// the same items covered alike (a tracefile merged with itself), which the merge leaves
    /// as they were. A merge of llvm-cov sections that llvm-cov's own count of the
    /// merged profiles may contradict is marked ([`merge_conflict`](Self::merge_conflict)).
    /// Merging into or from an empty (default) value keeps the other side unchanged. (The
    /// reader leaves out sections without records, and `covgate check` files without records,
    /// before merging: see [`has_records`](Self::has_records).)
    pub fn merge(&mut self, other: LcovFile) {
        let mut lines = self.merge_kept(other);
        self.merge_pending(&mut lines);
    }

    /// Merges `others` into this file one after another, as [`merge`](Self::merge) does, in
    /// time linear in their records: the `DA` lines of each are set aside and merged once, at
    /// the end (merging them at each merge would take time quadratic in the number of parts:
    /// many tracefiles of one file), except while the file keeps a writer's declared totals,
    /// whose merges compare its lines (a tracefile given several times alike).
    pub fn merge_all(&mut self, others: impl IntoIterator<Item = LcovFile>) {
        self.merge_each(&mut others.into_iter());
    }

    /// [`LcovFile::merge_all`], compiled once (a generic function would be compiled, and
    /// measured, per input type).
    fn merge_each(&mut self, others: &mut dyn Iterator<Item = LcovFile>) {
        let mut pending: Vec<(u32, u64)> = Vec::new();
        for other in others {
            let writers = !self.declared.is_bound() && self.declared != DeclaredTotals::default();
            if writers && !pending.is_empty() {
                self.merge_pending(&mut pending);
            }
            pending.append(&mut self.merge_kept(other));
        }
        self.merge_pending(&mut pending);
    }

    /// Merges the `DA` lines in `pending` (any order) into the file's, and empties it.
    fn merge_pending(&mut self, pending: &mut Vec<(u32, u64)>) {
        if !pending.is_empty() {
            let lines = sorted_lines(std::mem::take(pending));
            self.lines = Lines::pack(merge_lines(self.lines.unpack(), lines));
        }
    }

    /// [`LcovFile::merge_records`], keeping whether a section of either side was cut short
    /// ([`LcovFile::is_cut_short`]), which an empty side's records do not carry.
    fn merge_kept(&mut self, other: LcovFile) -> Vec<(u32, u64)> {
        let cut = self.is_cut_short() || other.is_cut_short();
        let lines = self.merge_records(other);
        self.cut_short_if(cut);
        lines
    }

    /// Marks the file as cut short ([`LcovFile::is_cut_short`]) when `cut` is set.
    pub(super) fn cut_short_if(&mut self, cut: bool) {
        if cut {
            self.extra_mut().cut = true;
        }
    }

    /// [`merge`](Self::merge) but for the `DA` lines of `other`, which it returns (empty when
    /// they need no merging: `other` was empty, or taken whole).
    fn merge_records(&mut self, mut other: LcovFile) -> Vec<(u32, u64)> {
        self.closed = Closed::default();
        if other.sections == 0 {
            return Vec::new();
        }
        if self.sections == 0 {
            *self = other;
            return Vec::new();
        }
        // A file reduced to its verdict has lost the records a merge needs: never counted.
        self.conflict |= self.reduced | other.reduced;
        self.indexed();
        // Both sides declaring the same totals over the same items, covered alike (the same
        // report given twice): the merge covers those items alike, so the totals still hold.
        // Without declared totals on either side, `same` changes nothing (nothing to keep, no
        // conflict): the shapes are not compared.
        // A bound is no writer's: two merges' bounds are combined, never kept as they are.
        let same = self.declared == other.declared
            && !self.declared.is_bound()
            && (self.declared == DeclaredTotals::default() || self.same_shape(&other));
        self.conflict |=
            other.conflict | (!same && (self.unreproducible() || other.unreproducible()));
        // Instantiations that ran apart cannot be counted from records (see `instances`),
        // unless the merge keeps the declared totals, which still hold.
        let kept = same && self.declared != DeclaredTotals::default();
        self.conflict |= self.instances_apart(&other, !kept && (self.llvm || other.llvm));
        self.llvm |= other.llvm;
        let lines = std::mem::take(&mut other.lines).unpack();
        for branch in other.extra.take().map(|e| e.branches).unwrap_or_default() {
            self.add_branch(branch);
        }
        for function in other.functions.into_vec() {
            self.add_function(function);
        }
        if !same {
            self.declared = self.declared.merged(&other.declared);
        }
        self.sections = self.sections.saturating_add(other.sections);
        lines
    }

    /// [`LcovFile::merge`] of another section (or sections) of the file in one tracefile,
    /// keeping the functions that only its sections without branch records hold
    /// ([`LcovFile::unbranched`]; worked out only when the two sides differ in having branch
    /// records, or one lists some). Reports are told apart by their own branch records
    /// instead (`measure`), so their merge keeps none.
    pub(super) fn merge_section(&mut self, other: LcovFile) {
        let tracked = self.branches().is_empty() != other.branches().is_empty()
            || !self.unbranched().is_empty()
            || !other.unbranched().is_empty();
        let unbranched = match tracked {
            true => super::unbranched::after_merge(self, &other),
            false => None,
        };
        self.merge(other);
        self.extra_mut().unbranched = unbranched;
        self.tidy();
    }

    /// True when `self` and `other` have the same items, each covered alike: lines, branch
    /// sides `(line, block, branch)` and functions `(start, name)`, as multisets. Two sections
    /// of one shape merge to that shape.
    pub(super) fn same_shape(&self, other: &LcovFile) -> bool {
        Cover(&self.lines) == Cover(&other.lines)
            && same_items(self.branches(), other.branches(), branch_shape)
            && same_items(&self.functions(), &other.functions(), function_shape)
    }

    /// The file's counts: `branches`, `functions` and `lines` are always `Some` (0 of 0 when the
    /// file has no such record), `regions` and `mcdc` are always `None` (LCOV from llvm-cov carries neither).
    ///
    /// Counts come from the records, except in a single llvm-cov section (or one given several
    /// times alike), whose declared pairs are llvm-cov's own numbers (see the module
    /// documentation, "Generators").
    pub fn summary(&self) -> Summary {
        let [lines, branches, functions] = self.judged().map(|(counts, _)| Some(counts));
        Summary {
            regions: None,
            branches,
            functions,
            lines,
            mcdc: None,
        }
    }

    /// Per metric (lines, branches, functions), the counts the file is judged on and whether
    /// they are the declared pair ([`judged`]).
    pub(super) fn judged(&self) -> [(Counts, bool); 3] {
        self.judged_with(self.weighs().then(|| self.weighed()))
    }

    /// [`LcovFile::judged`] of a file as its section was closed (`declared`: per metric,
    /// whether the declared pair was taken, [`LcovFile::closed`]): the declared pairs taken
    /// as they are, the other metrics' records counted, nothing weighed again.
    pub(super) fn judged_as_closed(&self, declared: [bool; 3]) -> [(Counts, bool); 3] {
        let metrics: [(Declared, &dyn Fn() -> Counts); 3] = [
            (self.declared.lines(), &|| self.detail_lines()),
            (self.declared.branches(), &|| self.detail_branches()),
            (self.declared.functions(), &|| self.detail_functions()),
        ];
        let mut judged = [(Counts::default(), false); 3];
        for ((out, (pair, records)), taken) in judged.iter_mut().zip(metrics).zip(declared) {
            *out = match pair.consistent().filter(|_| taken) {
                Some(counts) => (counts, true),
                None => (records(), false),
            };
        }
        judged
    }

    /// True when the file's declared pairs are weighed against what its records prove
    /// ([`LcovFile::weighed`]): only an llvm-cov section's (a reduced file's are its verdict,
    /// its records only those of its misses; a merge's bound is judged as another writer's
    /// declared pair: no verdict better).
    pub(super) fn weighs(&self) -> bool {
        self.llvm
            && !self.declared.is_bound()
            && !self.reduced
            && self.declared != DeclaredTotals::default()
    }

    /// [`LcovFile::judged`], with the file's [`Weighed`] given when it [`LcovFile::weighs`]
    /// its declared pairs (`None` otherwise): a declared pair whose hits no record backs is
    /// weighed as one that claims too few misses (`u64::MAX` proved), and its records are
    /// counted.
    pub(super) fn judged_with(&self, weighed: Option<Weighed>) -> [(Counts, bool); 3] {
        let llvm = self.llvm && !self.declared.is_bound();
        let proved = weighed.map_or([0; 3], |w| {
            w.map(|(missed, unbacked)| if unbacked { u64::MAX } else { missed })
        });
        // The records are counted only when the declared pair does not settle the metric
        // alone: counting functions works out each record's identity (a demangling), which a
        // file in llvm-cov's shape, judged on its declared pairs, never needs.
        let (lines, branches, functions) = (
            || self.detail_lines(),
            || self.detail_branches(),
            || self.detail_functions(),
        );
        [
            judged(llvm, self.declared.lines().consistent(), lines, proved[0]),
            judged(
                llvm,
                self.declared.branches().consistent(),
                branches,
                proved[1],
            ),
            judged(
                llvm,
                self.declared.functions().consistent(),
                functions,
                proved[2],
            ),
        ]
    }

    /// True when sections were merged that no merge of records can count exactly: one of them
    /// is llvm-cov's, with declared totals that its records cannot reproduce, or one function
    /// had several instantiations (or copies in several binaries) that ran in different
    /// sections (llvm-cov counts per instantiation group, the best single instantiation, which
    /// LCOV records do not carry; see `instances`). `covgate check` refuses such a file, asking
    /// for a profile-level merge or the JSON exports.
    pub fn merge_conflict(&self) -> bool {
        self.conflict
    }

    /// True for an llvm-cov section whose declared totals differ from what its records count.
    pub(super) fn unreproducible(&self) -> bool {
        // The records are counted only for a declared pair: a merge asks at each part, and a
        // file without declared totals would be counted whole each time.
        let differs = |pair: Declared, detail: &dyn Fn() -> Counts| {
            pair.consistent().is_some_and(|d| d != detail())
        };
        self.llvm
            && !self.declared.is_bound()
            && (differs(self.declared.lines(), &|| self.detail_lines())
                | differs(self.declared.branches(), &|| self.detail_branches())
                | differs(self.declared.functions(), &|| self.detail_functions()))
    }

    /// The functions that never ran, one entry per function: records sharing start line and
    /// identity (`function_identity`: copies of one function built into several binaries,
    /// instantiations of a Rust generic or a C++ template) are one function, as the records
    /// count them. A function is listed when none of its records ran. Each entry: start line
    /// (`None` when only `FNDA`/`FNA` named it) and name (of a single record, its name as
    /// written; of several, their identity: a Rust or C++ symbol demangled without hash,
    /// parameters and generic arguments), in start-line order.
    pub fn missed_functions(&self) -> Vec<(Option<u32>, String)> {
        // (start, identity) → (the first record's name, records, any ran).
        let functions = self.counted_functions();
        let mut groups: BTreeMap<(Option<u32>, String), (&str, usize, bool)> = BTreeMap::new();
        for f in functions.iter() {
            let group = groups
                .entry((f.start, function_identity(&f.name)))
                .or_insert((&f.name, 0, false));
            group.1 += 1;
            group.2 |= f.is_covered();
        }
        groups
            .into_iter()
            .filter(|(_, (_, _, ran))| !ran)
            .map(|((start, identity), (name, records, _))| {
                let name = if records == 1 {
                    name.to_string()
                } else {
                    identity
                };
                (start, name)
            })
            .collect()
    }

    /// Whether the file carries functions and lines, as read (before a reduction): a function
    /// record (`FN`, `FNDA`, `FNL`/`FNA`) or a declared `FNF` above 0; a `DA` record or a
    /// declared `LF` above 0 (see [`crate::report::Report::has_function_data`]).
    pub(super) fn carries(&self) -> (bool, bool) {
        let declared = |d: Declared| d.found.is_some_and(|n| n > 0);
        (
            !self.functions.is_empty() || declared(self.declared.functions()),
            !self.lines.is_empty() || declared(self.declared.lines()),
        )
    }

    /// True when the file holds at least one `DA`, `BRDA`, `FN`/`FNDA` or `FNL`/`FNA` record.
    /// An `SF` section without any (Bazel's `baseline_coverage.dat` writes one per source file)
    /// names the file without measuring it: it is no evidence that the file has nothing to
    /// cover, so such a file is not judged on 0 of 0 (`covgate check` counts it unmeasured).
    /// A file reduced to its verdict had records (it may keep none: every item covered).
    pub fn has_records(&self) -> bool {
        self.reduced
            || !(self.lines.is_empty() && self.branches().is_empty() && self.functions.is_empty())
    }

    /// Every `DA` line with its summed execution count, in line order.
    pub fn lines(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.lines.iter()
    }

    /// Every `BRDA` side, in first-appearance order.
    pub fn branches(&self) -> &[Branch] {
        self.extra.as_deref().map_or(&[], |e| &e.branches)
    }

    /// True when a section of the file was cut short (no `end_of_record` before the next `SF`
    /// or the end of the tracefile): its records were dropped, so the file's records are not
    /// all known, whatever other sections hold (the dropped ones may list items that no other
    /// section lists). `covgate check` counts such a file unmeasured.
    pub fn is_cut_short(&self) -> bool {
        self.extra.as_deref().is_some_and(|e| e.cut)
    }

    /// The file's [`Extra`], made when it has none.
    pub(super) fn extra_mut(&mut self) -> &mut Extra {
        self.extra.get_or_insert_with(Box::default)
    }

    /// Drops the file's [`Extra`] when it holds nothing.
    pub(super) fn tidy(&mut self) {
        if self.extra.as_deref().is_some_and(Extra::is_empty) {
            self.extra = None;
        }
    }

    /// Every function, in first-appearance order (borrowed while the file is built or merged;
    /// unpacked from its compact form once it is read whole).
    pub fn functions(&self) -> Cow<'_, [Function]> {
        self.functions.list()
    }

    /// The functions (start line, a name of theirs) that only sections without branch records
    /// hold, once a section of the file has them (see [`super::unbranched`]).
    pub fn unbranched(&self) -> &[(u32, Name)] {
        let unbranched = self.extra.as_deref().and_then(|e| e.unbranched.as_deref());
        unbranched.unwrap_or_default()
    }

    /// The functions as counted: a function that only `FNDA` named (no start line) is the
    /// function of its name that has a start line, as lcov keys a file's functions by name
    /// (`lcov -a` of a section with `FN:1,foo` and `FNDA:0,foo` and one with only
    /// `FNDA:5,foo` gives `foo` covered, 1 of 1, in lcov 1.16; lcov 2 refuses an `FNDA`
    /// without its `FN`). Its count goes to the one of that name with the lowest start line,
    /// so that the counts do not depend on the order of the merged sections or reports.
    pub(super) fn counted_functions(&self) -> Cow<'_, [Function]> {
        let functions = self.functions.list();
        if functions.iter().all(|f| f.start.is_some()) {
            return functions;
        }
        // Name → (start, position) of the placed function of that name with the lowest start
        // line (the first such): one pass, so that many unplaced names stay linear.
        let mut placed: HashMap<&str, (u32, usize), Keys> = HashMap::with_hasher(Keys);
        for (at, f) in functions.iter().enumerate() {
            if let Some(start) = f.start {
                let best = placed.entry(f.name.as_str()).or_insert((start, at));
                if start < best.0 {
                    *best = (start, at);
                }
            }
        }
        // Per function: the counts folded into it, and whether it is folded into another.
        let mut added = vec![0u64; functions.len()];
        let mut folded = vec![false; functions.len()];
        let unplaced = functions.iter().zip(folded.iter_mut());
        for (f, fold) in unplaced.filter(|(f, _)| f.start.is_none()) {
            if let Some(sum) = placed.get(f.name.as_str()).and_then(|p| added.get_mut(p.1)) {
                *sum = sum.saturating_add(f.count);
                *fold = true;
            }
        }
        if !folded.contains(&true) {
            return functions;
        }
        let mut functions = functions.into_owned();
        for (f, sum) in functions.iter_mut().zip(added) {
            f.count = f.count.saturating_add(sum);
        }
        let mut folds = folded.into_iter();
        functions.retain(|_| !folds.next().unwrap_or_default());
        Cow::Owned(functions)
    }

    /// The `DA` lines whose summed count is 0, ascending.
    ///
    /// When [`summary`](Self::summary) uses a declared `LH` that reports more missed lines than
    /// this list holds (llvm-cov instantiation groups), the extra misses cannot be named.
    pub fn uncovered_lines(&self) -> Vec<u32> {
        self.lines
            .covered()
            .filter(|(_, covered)| !covered)
            .map(|(line, _)| line)
            .collect()
    }

    /// The `BRDA` sides not covered (`taken` 0 or `-`), ordered by line, then appearance.
    pub fn uncovered_branches(&self) -> Vec<&Branch> {
        let mut list: Vec<&Branch> = self.branches().iter().filter(|b| !b.is_covered()).collect();
        list.sort_by_key(|b| b.line);
        list
    }

    /// The functions that never ran, ordered by start line (unknown start first), then
    /// appearance; each says whether another record on its start line ran (see
    /// [`UncoveredFunction::shares_line_with_executed`]).
    pub fn uncovered_functions(&self) -> Vec<UncoveredFunction> {
        let functions = self.counted_functions();
        let executed = executed_start_lines(&functions);
        let mut list: Vec<UncoveredFunction> = functions
            .iter()
            .filter(|f| !f.is_covered())
            .map(|f| UncoveredFunction {
                function: f.clone(),
                shares_line_with_executed: f.start.is_some_and(|s| executed.contains(&s)),
            })
            .collect();
        list.sort_by_key(|u| u.function.start);
        list
    }

    /// Drops the indexes (a file read whole needs them only if it is merged again, which
    /// builds them again: [`LcovFile::indexed`]) and the room its vectors kept for growth.
    pub(super) fn compact(&mut self) {
        self.unindexed();
        self.functions.pack();
    }

    /// [`LcovFile::compact`] but for the functions, which stay open (a file to be reduced
    /// soon: see `reduced`). A merge builds the indexes again ([`LcovFile::indexed`]).
    pub(super) fn unindexed(&mut self) {
        self.function_index = Index::default();
        if let Some(extra) = self.extra.as_deref_mut() {
            extra.branch_index = Index::default();
            extra.ran = None;
            extra.branches.shrink_to_fit();
        }
        self.tidy();
    }

    /// Builds the indexes again when [`LcovFile::compact`] dropped them.
    pub(super) fn indexed(&mut self) {
        if let Some(extra) = self.extra.as_deref_mut() {
            extra.indexed();
        }
        if self.function_index.len() < self.functions.len() {
            self.functions.unpack();
            let mut index = Index::default();
            for (at, f) in self.functions.opened().iter().enumerate() {
                index.insert(index.hash((f.start, f.name.as_str())), at);
            }
            self.function_index = index;
        }
    }

    /// Adds a `BRDA` side ([`Extra::add_branch`]).
    pub(super) fn add_branch(&mut self, branch: Branch) {
        self.extra_mut().add_branch(branch);
    }

    /// The position of the function keyed (`start`, `name`), with the key's hash.
    pub(super) fn find_function(&self, start: Option<u32>, name: &str) -> (Option<usize>, u64) {
        let hash = self.function_index.hash((start, name));
        let found = self.function_index.find(hash, &|at| {
            self.functions
                .opened()
                .get(at)
                .is_some_and(|f| (f.start, f.name.as_str()) == (start, name))
        });
        (found, hash)
    }

    pub(super) fn add_function(&mut self, function: Function) {
        let (found, hash) = self.find_function(function.start, &function.name);
        match found.and_then(|at| self.functions.get_mut(at)) {
            Some(existing) => {
                existing.count = existing.count.saturating_add(function.count);
                existing.end = existing.end.or(function.end);
                for alias in function.aliases.iter() {
                    existing.aliases.insert(alias.clone());
                }
            }
            None => {
                self.function_index.insert(hash, self.functions.len());
                self.functions.push(function);
            }
        }
    }

    pub(super) fn detail_lines(&self) -> Counts {
        let (covered, total) = self.lines.tally();
        Counts::new(covered, total)
    }

    pub(super) fn detail_branches(&self) -> Counts {
        let branches = self.branches();
        let covered = branches.iter().filter(|b| b.is_covered()).count();
        Counts::new(covered as u64, branches.len() as u64)
    }

    /// The functions as the records count them. In llvm-cov's shape, distinct functions by
    /// (start line, identity) ([`LcovFile::function_groups`]), as llvm-cov counts them. Any
    /// other writer's records are counted so too, unless counting each distinct record (start
    /// line and name) as a function is worse ([`worse`]): lcov and gcov count a C++ template's
    /// instantiations (`_Z5twiceIiET_S0_`, `_Z5twiceIdET_S0_`, one start line) as functions of
    /// their own, in a section's `FNF`/`FNH` and in `lcov -a`'s merge, so that no verdict is
    /// better than lcov's own, of a section or of a merge (breaker s16, finding 6). Names
    /// that only LLVM's coverage writes ([`llvm_only`]: Rust symbols, clang's `file:name`)
    /// are copies and instantiations of one function whoever rewrote them, and stay grouped.
    pub(super) fn detail_functions(&self) -> Counts {
        let groups = self.function_groups();
        match self.llvm {
            true => groups,
            false => worse(groups, self.count_functions_by(true)),
        }
    }

    /// Distinct functions by (start line, identity): llvm-cov writes one `FN` per test binary
    /// and per instantiation, whose Rust names differ only in the crate hash and the generic
    /// arguments, so those count once (covered when any copy ran).
    pub(super) fn function_groups(&self) -> Counts {
        self.count_functions_by(false)
    }

    /// Distinct functions by (start line, identity), or, `per_record`, by (start line, name),
    /// but for names that only LLVM's coverage writes ([`llvm_only`]), by identity still.
    ///
    /// Only records that share a start line need their identity (a demangling) worked out.
    fn count_functions_by(&self, per_record: bool) -> Counts {
        let functions = self.counted_functions();
        let mut by_start: Vec<&Function> = functions.iter().collect();
        by_start.sort_by_key(|f| f.start);
        let key = |name: &str| match per_record && !llvm_only(name) {
            true => name.to_string(),
            false => function_identity(name),
        };
        let (mut covered, mut total) = (0u64, 0u64);
        for group in by_start.chunk_by(|a, b| a.start == b.start) {
            if let [one] = group {
                covered += u64::from(one.is_covered());
                total += 1;
                continue;
            }
            let mut seen: HashMap<String, bool, Keys> = HashMap::with_hasher(Keys);
            for f in group {
                *seen.entry(key(&f.name)).or_insert(false) |= f.is_covered();
            }
            covered += seen.values().filter(|ran| **ran).count() as u64;
            total += seen.len() as u64;
        }
        Counts::new(covered, total)
    }
}

/// True when `a` is worse than `b`: a lower share covered, or as low with more misses.
fn is_worse(a: Counts, b: Counts) -> bool {
    let missed = |c: Counts| c.total - c.covered;
    let (lower, higher) = (
        u128::from(a.covered) * u128::from(b.total),
        u128::from(b.covered) * u128::from(a.total),
    );
    lower < higher || (lower == higher && missed(a) > missed(b))
}

/// The worse of `a` and `b` ([`is_worse`]); `a` when neither is.
fn worse(a: Counts, b: Counts) -> Counts {
    match is_worse(b, a) {
        true => b,
        false => a,
    }
}

/// The counts of one metric and whether they are the `declared` pair rather than the
/// `records`' count. In llvm-cov's shape the declared pair is llvm-cov's own (per instantiation
/// group), unless it declares fewer misses than the records prove (`proved`): no llvm-cov run
/// writes that (a tracefile edited or post-processed), and the records are counted. Otherwise
/// the records are counted, unless the declared pair is worse (a lower share covered, or as
/// low with more misses: gcovr's lines of C++ templates, counted per instantiation; an `LF:9`
/// `LH:0` without `DA` records), so that no verdict is better than the writer's own.
/// `records` counts the records' pair; it is called only when the declared pair alone does not
/// settle the metric.
pub(super) fn judged(
    llvm: bool,
    declared: Option<Counts>,
    records: impl FnOnce() -> Counts,
    proved: u64,
) -> (Counts, bool) {
    let missed = |c: Counts| c.total - c.covered;
    let Some(d) = declared else {
        return (records(), false);
    };
    if llvm {
        return match missed(d) >= proved {
            true => (d, true),
            false => (records(), false),
        };
    }
    let records = records();
    match is_worse(d, records) {
        true => (d, true),
        false => (records, false),
    }
}

/// The start lines where at least one of `functions` ran.
fn executed_start_lines(functions: &[Function]) -> BTreeSet<u32> {
    functions
        .iter()
        .filter(|f| f.is_covered())
        .filter_map(|f| f.start)
        .collect()
}

/// `DA` records as (line, count) pairs in any order, sorted by line with the counts of one line
/// summed: the `lines` of an [`LcovFile`].
pub(super) fn sorted_lines(mut lines: Vec<(u32, u64)>) -> Vec<(u32, u64)> {
    lines.sort_by_key(|(line, _)| *line);
    lines.dedup_by(|next, kept| {
        let same = next.0 == kept.0;
        if same {
            kept.1 = kept.1.saturating_add(next.1);
        }
        same
    });
    lines.shrink_to_fit();
    lines
}

/// Two `lines` lists of [`LcovFile`] (sorted, one entry per line) as one, counts of a line
/// summed.
pub(super) fn merge_lines(a: Vec<(u32, u64)>, b: Vec<(u32, u64)>) -> Vec<(u32, u64)> {
    if b.is_empty() {
        return a;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let mut a = a.into_iter().peekable();
    let mut b = b.into_iter().peekable();
    loop {
        let next = match (a.peek().copied(), b.peek().copied()) {
            (Some(x), Some(y)) if x.0 == y.0 => {
                a.next();
                b.next();
                (x.0, x.1.saturating_add(y.1))
            }
            (Some(x), Some(y)) if x.0 < y.0 => {
                a.next();
                x
            }
            (Some(x), None) => {
                a.next();
                x
            }
            (_, Some(y)) => {
                b.next();
                y
            }
            (None, None) => break,
        };
        out.push(next);
    }
    out
}

/// Sum of two `taken` values: `-` + `-` = `-`, `-` + n = n.
pub(super) fn add_taken(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.saturating_add(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// True when `a` and `b` give the same keys as multisets: in the same order (one writer's
/// sections of a file, the common case), or else once sorted.
fn same_items<'a, T, K: Ord>(a: &'a [T], b: &'a [T], key: impl Fn(&'a T) -> K) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if a.iter().map(&key).eq(b.iter().map(&key)) {
        return true;
    }
    let sorted = |items: &'a [T]| {
        let mut keys: Vec<K> = items.iter().map(&key).collect();
        keys.sort_unstable();
        keys
    };
    sorted(a) == sorted(b)
}

/// A branch side in [`LcovFile::same_shape`]: its key and whether it is covered.
fn branch_shape(b: &Branch) -> (u32, &str, &str, bool) {
    (b.line, b.block.as_str(), b.branch.as_str(), b.is_covered())
}

/// A function in [`LcovFile::same_shape`]: its key and whether it is covered.
fn function_shape(f: &Function) -> (Option<u32>, &str, bool) {
    (f.start, f.name.as_str(), f.is_covered())
}
