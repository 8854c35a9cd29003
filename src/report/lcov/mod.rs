//! LCOV tracefile reader: a small, tolerant, line-oriented parser of our own.
//!
//! The `lcov` crate rejects or miscounts too many real tracefiles (see `spec/lcov.md`), so covgate
//! reads the format itself. Every rule below comes from a real generator's output.
//!
//! # Lexing
//! - A UTF-8 byte-order mark is skipped, at the start of the file and at the start of any line
//!   (`cat` of two files written with a BOM puts one mid-file).
//! - Lines end at `\n`; a trailing `\r` (CRLF files) and any other trailing or leading whitespace
//!   is dropped. Blank lines and lines starting with `#` are comments (lcov 2.x, gcovr and JaCoCo
//!   converters write them; lcov's own reader skips them).
//! - Bytes that are not UTF-8 are replaced with U+FFFD (`String::from_utf8_lossy`) and the line is
//!   reported in a warning: a path may hold odd bytes, and one bad byte must not lose a whole
//!   report. Two paths that differ only in invalid bytes would then share one name; the warning
//!   says so. (covgate's walk names files on disk the same lossy way, so such a file still
//!   meets its record.) A NUL byte in an `SF` path is an error: no file system allows one.
//! - A line may be at most [`MAX_LINE`] bytes long; a longer one is an error, found without
//!   holding more than [`MAX_LINE`] + [`STREAM_CHUNK`] bytes of it ([`read_from`] streams).
//!   Quoted input in messages is clipped.
//! - A record is `TAG:value`, split at the first `:`; `SF: path` keeps working because the path
//!   is trimmed.
//! - `end_of_record` may carry trailing whitespace and may be missing before the next `SF` or at
//!   the end of the file (a warning, never an error: the next `SF` names the next file). An
//!   `end_of_record` outside a section closes nothing and is ignored with a warning.
//! - `end_of_recordSF:…` on one line is what `cat a.info b.info` yields when `a.info` has no final
//!   newline (cargo-llvm-cov writes none). The line is split into `end_of_record` plus the record
//!   that follows, with a warning. Any other text glued after `end_of_record` is an error, so no
//!   record is ever attributed to the wrong file. A `DA` checksum must look like base64 or hex for
//!   the same reason: `DA:7,1,abcSF:/x` would otherwise swallow the next file's `SF`.
//!
//! # Records
//! - `TN` and `VER` are accepted anywhere and ignored (never meaningful for a gate). `MCDC`, `MCF`
//!   and `MCH` (lcov ≥ 2.3 MC/DC) are accepted inside a section and skipped: covgate does not gate
//!   MC/DC. Outside a section they are errors like every other data record.
//! - `SF:<path>` opens a section; the path is the rest of the line, trimmed, and must not be empty.
//! - `FN:<start>,[<end>,]<name>`: the end line is optional (lcov 2.0–2.1, coverage.py ≥ 7.6.2)
//!   and the name may contain commas, so the second field is an end line only when it is all
//!   digits *and* a third field follows (a C/C++/Rust symbol never starts with a digit):
//!   `FN:1,5,legacy_sum` is start 1, end 5.
//! - `FNDA:<count>,<name>` may come before its `FN`; counts of one name in a section are summed and
//!   go to every `FN` of that name in the section (the format cannot tell same-named functions
//!   apart). An `FNDA` whose name has no `FN` in its section is a function with no start line.
//! - `FNL:<index>,<start>[,<end>]` and `FNA:<index>,<count>,<alias>` (lcov ≥ 2.2): all aliases of
//!   one index are one function, covered when any alias ran (counts are summed). Indexes are local
//!   to a section; the function is keyed by its start line and its smallest alias name, so the
//!   same group from two shards merges whatever order the aliases were written in.
//! - `BRDA:<line>,[e|f][U]<block>,<branch>,<taken>`: the block is split off from the left and the
//!   taken count from the right, so a branch field holding commas (coverage.py's expression ids)
//!   stays whole. `taken` `-` means the branch was never evaluated: it exists and is not covered.
//! - `DA:<line>,<count>[,<checksum>]`: the same line repeated in a section is summed (as lcov does).
//! - `LF/LH`, `BRF/BRH`, `FNF/FNH` are the writer's declared totals (see below), any order.
//! - Line number 0 occurs (coverage.py) and is accepted.
//! - Any other `TAG:` is skipped with a warning naming the line and the tag.
//!
//! # Errors
//! Every error names the origin and the 1-based line, and says what was expected:
//! a known record with a missing field, a count or line that is not a non-negative decimal
//! integer (`-1`, `1.0e3`), a number beyond `u64` (counts) or `u32` (line numbers), a data record
//! outside an `SF` section (it would belong to no file), text glued after `end_of_record`, a `DA`
//! checksum that is not base64 or hex, an `SF` path with a NUL byte, a line longer than
//! [`MAX_LINE`], and a tracefile with no `SF` at all
//! (an empty tracefile is an error, never an empty pass). Sums that would pass `u64::MAX`
//! saturate. At most [`MAX_WARNINGS`] warnings are kept; a last one counts the rest.
//!
//! # Speed
//! Sections are independent until files are merged by path, so the input is cut into blocks of
//! whole sections (after a line that is exactly `end_of_record`), parsed in parallel, and joined
//! in input order: files, merges, warnings and the first error are those of one pass over the
//! lines. [`read_from`] does the same per chunk of [`STREAM_CHUNK`] bytes. Function names and
//! branch ids are stored once (their indexes hold hashes), `DA` lines are a sorted vector.
//!
//! # Merging
//! All sections of one `SF` string are merged, and [`LcovFile::merge`] merges shards and reports
//! the same way: `DA` counts summed per line; `BRDA` summed per (line, block, branch) with
//! `-` + `-` = `-` and `-` + n = n; functions keyed by (start line, name) — an `FNL` group by
//! (start line, smallest alias) — counts summed.
//!
//! # Counting
//! Lines are the distinct `DA` lines, covered when the summed count is above 0. Branches are the
//! `BRDA` sides, `-` and 0 not covered. Functions are the distinct functions, covered when the
//! summed count is above 0. LCOV has no regions: `regions` is always `None`.
//!
//! ## Declared totals: the worse of declared and recorded, for single-section files
//! llvm-cov writes one `FN` (and one set of `BRDA`) per instantiation and per binary, but counts
//! instantiation groups in `FNF/FNH`, and computes `LH`/`BRH` per group, so its declared totals
//! can report *fewer* covered items than the detail records (a generic whose arms are covered by
//! different instantiations: every `DA` hit, yet `LH:8` of `LF:9`), and can also count *fewer*
//! items (`FNF:2` with 8 `FN`). The declared pair is llvm-cov's own answer, the one its JSON
//! summary gives; the detail records are the only answer once files are merged.
//!
//! Rule: for a file that came in exactly one section (never merged with another section or shard)
//! and declares both found and hit for a metric, the declared pair is used when it says at
//! least as many items are missed as the detail records prove missed (a pair with hit > found
//! is refused as the section is read); otherwise the detail counts are used. Once two sections are merged the declared
//! pairs are dropped, unless both declare the same pairs over the same items covered alike (a
//! tracefile given twice), which the merge does not change. What the records *prove* missed:
//! - lines: the `DA` lines with count 0 (a line is one item, no copies);
//! - functions: the start lines whose function records all have count 0 (records at one start line
//!   may be instantiations or per-binary copies of one source function, so only a line where
//!   none ran proves a missed function);
//! - branches: per line, the fewest untaken sides of any one block, summed over lines (blocks on
//!   one line may be copies of one condition from several instantiations or translation units).
//!
//! This keeps llvm-cov's numbers wherever its records do not contradict them and takes the worse
//! answer where they do. It cannot see llvm-cov's folded branch sides: LCOV writes them as 0, so a
//! file with folded sides gets the (lower) detail branch count.

use std::collections::hash_map::{DefaultHasher, Entry, RandomState};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};
use std::io::BufRead;
use std::sync::OnceLock;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::model::{Counts, Summary};

use super::{clip, FileCoverage, FileData, Report, ReportKind};

/// The longest line the reader accepts, in bytes (16 MiB, without the line break). Real lines
/// are far shorter (the longest are C++ function names, some kilobytes); the limit bounds the
/// memory one line can take when the tracefile is streamed ([`read_from`]).
pub const MAX_LINE: usize = 16 << 20;

/// How many warnings a tracefile keeps; one more says how many were left out.
pub const MAX_WARNINGS: usize = 100;

/// One `BRDA` branch side of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    /// Source line (0 occurs: coverage.py writes exits there).
    pub line: u32,
    /// Block id as written, exception/unreachable flags included (`0`, `e0`, `U3`).
    pub block: String,
    /// Branch id as written; may be an expression with commas (`clampi(v, lo) < lo`).
    pub branch: String,
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
    pub name: String,
    /// For an `FNL` group, every alias name, sorted; empty for an `FN` record.
    pub aliases: Vec<String>,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UncoveredFunction<'a> {
    /// The function record.
    pub function: &'a Function,
    /// True when another function record starting on the same line ran. Writers such as llvm-cov
    /// emit one record per instantiation and per binary, so such a record is usually an unused
    /// copy of a function that did run (llvm-cov then counts the function as covered); it may also
    /// be a distinct function sharing the line (gcovr: several functions on one line).
    pub shares_line_with_executed: bool,
}

/// A writer's declared found/hit totals for one metric (`LF`/`LH`, `BRF`/`BRH`, `FNF`/`FNH`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Declared {
    found: Option<u64>,
    hit: Option<u64>,
}

impl Declared {
    /// The declared counts when both are present (the reader refuses hit > found).
    fn consistent(self) -> Option<Counts> {
        match (self.found, self.hit) {
            (Some(found), Some(hit)) => Some(Counts::new(hit, found)),
            _ => None,
        }
    }
}

/// What [`LcovFile::shape`] returns.
#[derive(Debug, PartialEq, Eq)]
struct Shape<'a> {
    lines: Vec<(u32, bool)>,
    branches: Vec<((u32, &'a str, &'a str), bool)>,
    functions: Vec<((Option<u32>, &'a str), bool)>,
}

/// Which half of a [`Declared`] pair a record sets.
enum Slot {
    Found,
    Hit,
}

/// The declared totals of one section.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct DeclaredTotals {
    lines: Declared,
    branches: Declared,
    functions: Declared,
}

/// Positions of keyed items in a vector, found through a hash of the key, so that a key (a
/// function name, a branch id) is stored once, in its item. The hash is SipHash with random keys
/// ([`Keys`]), so input cannot be made to collide; a collision is still handled (the item is then
/// found by a scan of the few colliding positions).
#[derive(Debug, Clone, Default)]
struct Index<S = Keys> {
    hasher: S,
    /// Hash → position of the first item with that hash.
    first: HashMap<u64, usize, BuildHasherDefault<Passthrough>>,
    /// Positions of items whose hash an earlier item already had (a box: almost always empty).
    collided: Box<[usize]>,
}

impl<S: BuildHasher> Index<S> {
    fn hash(&self, key: impl Hash) -> u64 {
        self.hasher.hash_one(key)
    }

    /// The position of the item with hash `hash` for which `is` holds.
    fn find(&self, hash: u64, is: &dyn Fn(usize) -> bool) -> Option<usize> {
        match self.first.get(&hash) {
            None => None,
            Some(&at) if is(at) => Some(at),
            Some(_) => self.collided.iter().copied().find(|at| is(*at)),
        }
    }

    /// Records that the item at `at`, not yet indexed, has hash `hash`.
    fn insert(&mut self, hash: u64, at: usize) {
        match self.first.entry(hash) {
            Entry::Occupied(_) => {
                let mut collided = std::mem::take(&mut self.collided).into_vec();
                collided.push(at);
                self.collided = collided.into_boxed_slice();
            }
            Entry::Vacant(slot) => {
                slot.insert(at);
            }
        }
    }
}

/// The process's random SipHash keys, drawn once ([`RandomState`]): one set for every index, so
/// an index takes no room for them.
#[derive(Debug, Clone, Copy, Default)]
struct Keys;

impl BuildHasher for Keys {
    type Hasher = DefaultHasher;

    fn build_hasher(&self) -> DefaultHasher {
        static KEYS: OnceLock<RandomState> = OnceLock::new();
        KEYS.get_or_init(RandomState::new).build_hasher()
    }
}

/// A hasher for keys that are hashes already: the key's `u64` is the hash.
#[derive(Debug, Clone, Copy, Default)]
struct Passthrough(u64);

impl Hasher for Passthrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*byte);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
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
    lines: Vec<(u32, u64)>,
    /// `BRDA` sides in first-appearance order.
    branches: Vec<Branch>,
    branch_index: Index,
    /// Functions in first-appearance order.
    functions: Vec<Function>,
    function_index: Index,
    /// Declared totals, kept only while the file is a single section.
    declared: DeclaredTotals,
    /// Number of sections merged into this file (0 for an empty default value).
    sections: u32,
    /// True when a section of the file has llvm-cov's shape ([`Order`]): its declared totals
    /// are then the file's numbers, and its functions are grouped by start line.
    llvm: bool,
    /// True when sections were merged of which one is llvm-cov's with declared totals its
    /// records cannot reproduce: no exact merge exists ([`LcovFile::merge_conflict`]).
    conflict: bool,
}

/// Files are equal when their records, declared totals and section counts are (the indexes are
/// derived from the records).
impl PartialEq for LcovFile {
    fn eq(&self, other: &LcovFile) -> bool {
        (
            &self.lines,
            &self.branches,
            &self.functions,
            self.declared,
            self.sections,
        ) == (
            &other.lines,
            &other.branches,
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
    /// `-` + n = n), functions per (start line, name). Declared totals are dropped once two
    /// non-empty files merge, since they cannot be combined, unless both sides declare the same
    /// totals over the same items covered alike (a tracefile merged with itself), which the
    /// merge leaves as they were. Merging into or from an empty (default) value keeps the other
    /// side unchanged. (The reader leaves out sections without records, and `covgate check`
    /// files without records, before merging: see [`has_records`](Self::has_records).)
    pub fn merge(&mut self, other: LcovFile) {
        if other.sections == 0 {
            return;
        }
        if self.sections == 0 {
            *self = other;
            return;
        }
        // Both sides declaring the same totals over the same items, covered alike (the same
        // report given twice): the merge covers those items alike, so the totals still hold.
        let same = self.declared == other.declared && self.shape() == other.shape();
        self.conflict |=
            other.conflict | (!same && (self.unreproducible() || other.unreproducible()));
        self.llvm |= other.llvm;
        self.lines = merge_lines(std::mem::take(&mut self.lines), other.lines);
        for branch in other.branches {
            self.add_branch(branch);
        }
        for function in other.functions {
            self.add_function(function);
        }
        if !same {
            self.declared = DeclaredTotals::default();
        }
        self.sections = self.sections.saturating_add(other.sections);
    }

    /// Which items the file has and whether each is covered, sorted: lines, branch sides
    /// `(line, block, branch)`, functions `(start, name)`. Two sections of one shape merge to
    /// that shape.
    fn shape(&self) -> Shape<'_> {
        let lines = self
            .lines
            .iter()
            .map(|&(line, count)| (line, count > 0))
            .collect();
        let mut branches: Vec<_> = self
            .branches
            .iter()
            .map(|b| {
                (
                    (b.line, b.block.as_str(), b.branch.as_str()),
                    b.is_covered(),
                )
            })
            .collect();
        branches.sort_unstable();
        let mut functions: Vec<_> = self
            .functions
            .iter()
            .map(|f| ((f.start, f.name.as_str()), f.is_covered()))
            .collect();
        functions.sort_unstable();
        Shape {
            lines,
            branches,
            functions,
        }
    }

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
        kept.lines = self
            .lines
            .iter()
            .filter(|(line, _)| !drop_line(*line))
            .copied()
            .collect();
        for branch in self.branches.iter().filter(|b| !drop_branch(b.line)) {
            kept.add_branch(branch.clone());
        }
        let starts_kept = |f: &&Function| !f.start.is_some_and(&drop_line);
        for function in self.functions.iter().filter(starts_kept) {
            kept.add_function(function.clone());
        }
        kept
    }

    /// The file's counts: `branches`, `functions` and `lines` are always `Some` (0 of 0 when the
    /// file has no such record), `regions` is always `None` (LCOV carries no regions).
    ///
    /// Counts come from the records, except in a single llvm-cov section (or one given several
    /// times alike), whose declared pairs are llvm-cov's own numbers (see the module
    /// documentation, "Generators").
    pub fn summary(&self) -> Summary {
        let declared = |pair: Declared| pair.consistent().filter(|_| self.llvm);
        Summary {
            regions: None,
            branches: Some(
                declared(self.declared.branches).unwrap_or_else(|| self.detail_branches()),
            ),
            functions: Some(
                declared(self.declared.functions).unwrap_or_else(|| self.detail_functions()),
            ),
            lines: Some(declared(self.declared.lines).unwrap_or_else(|| self.detail_lines())),
        }
    }

    /// True when sections were merged that no merge of records can count exactly: one of them
    /// is llvm-cov's, with declared totals that its records cannot reproduce (llvm-cov counts
    /// per instantiation group, which LCOV records do not carry). `covgate check` refuses such
    /// a file, asking for a profile-level merge or the JSON exports.
    pub fn merge_conflict(&self) -> bool {
        self.conflict
    }

    /// True for an llvm-cov section whose declared totals differ from what its records count.
    fn unreproducible(&self) -> bool {
        let differs =
            |pair: Declared, detail: Counts| pair.consistent().is_some_and(|d| d != detail);
        self.llvm
            && (differs(self.declared.lines, self.detail_lines())
                | differs(self.declared.branches, self.detail_branches())
                | differs(self.declared.functions, self.detail_functions()))
    }

    /// The functions that never ran, one entry per function: records sharing start line and
    /// identity ([`function_identity`]: copies of one function built into several binaries,
    /// instantiations of a Rust generic or a C++ template) are one function, as the records
    /// count them. A function is listed when none of its records ran. Each entry: start line
    /// (`None` when only `FNDA`/`FNA` named it) and name (of a single record, its name as
    /// written; of several, their identity: a Rust or C++ symbol demangled without hash,
    /// parameters and generic arguments), in start-line order.
    pub fn missed_functions(&self) -> Vec<(Option<u32>, String)> {
        // (start, identity) → (the first record's name, records, any ran).
        let mut groups: BTreeMap<(Option<u32>, String), (&str, usize, bool)> = BTreeMap::new();
        for f in &self.functions {
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

    /// True when the file holds at least one `DA`, `BRDA`, `FN`/`FNDA` or `FNL`/`FNA` record.
    /// An `SF` section without any (Bazel's `baseline_coverage.dat` writes one per source file)
    /// names the file without measuring it: it is no evidence that the file has nothing to
    /// cover, so such a file is not judged on 0 of 0 (`covgate check` counts it unmeasured).
    pub fn has_records(&self) -> bool {
        !(self.lines.is_empty() && self.branches.is_empty() && self.functions.is_empty())
    }

    /// Every `DA` line with its summed execution count, in line order.
    pub fn lines(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.lines.iter().copied()
    }

    /// Every `BRDA` side, in first-appearance order.
    pub fn branches(&self) -> &[Branch] {
        &self.branches
    }

    /// Every function, in first-appearance order.
    pub fn functions(&self) -> &[Function] {
        &self.functions
    }

    /// The `DA` lines whose summed count is 0, ascending.
    ///
    /// When [`summary`](Self::summary) uses a declared `LH` that reports more missed lines than
    /// this list holds (llvm-cov instantiation groups), the extra misses cannot be named.
    pub fn uncovered_lines(&self) -> Vec<u32> {
        self.lines
            .iter()
            .filter(|(_, count)| *count == 0)
            .map(|(line, _)| *line)
            .collect()
    }

    /// The `BRDA` sides not covered (`taken` 0 or `-`), ordered by line, then appearance.
    pub fn uncovered_branches(&self) -> Vec<&Branch> {
        let mut list: Vec<&Branch> = self.branches.iter().filter(|b| !b.is_covered()).collect();
        list.sort_by_key(|b| b.line);
        list
    }

    /// The functions that never ran, ordered by start line (unknown start first), then
    /// appearance; each says whether another record on its start line ran (see
    /// [`UncoveredFunction::shares_line_with_executed`]).
    pub fn uncovered_functions(&self) -> Vec<UncoveredFunction<'_>> {
        let executed = self.executed_start_lines();
        let mut list: Vec<UncoveredFunction<'_>> = self
            .functions
            .iter()
            .filter(|f| !f.is_covered())
            .map(|f| UncoveredFunction {
                function: f,
                shares_line_with_executed: f.start.is_some_and(|s| executed.contains(&s)),
            })
            .collect();
        list.sort_by_key(|u| u.function.start);
        list
    }

    fn add_branch(&mut self, branch: Branch) {
        let key = (branch.line, branch.block.as_str(), branch.branch.as_str());
        let hash = self.branch_index.hash(key);
        let branches = &self.branches;
        let found = self.branch_index.find(hash, &|at| {
            branches
                .get(at)
                .is_some_and(|b| (b.line, b.block.as_str(), b.branch.as_str()) == key)
        });
        match found.and_then(|at| self.branches.get_mut(at)) {
            Some(existing) => existing.taken = add_taken(existing.taken, branch.taken),
            None => {
                self.branch_index.insert(hash, self.branches.len());
                self.branches.push(branch);
            }
        }
    }

    /// The position of the function keyed (`start`, `name`), with the key's hash.
    fn find_function(&self, start: Option<u32>, name: &str) -> (Option<usize>, u64) {
        let hash = self.function_index.hash((start, name));
        let found = self.function_index.find(hash, &|at| {
            self.functions
                .get(at)
                .is_some_and(|f| (f.start, f.name.as_str()) == (start, name))
        });
        (found, hash)
    }

    fn add_function(&mut self, function: Function) {
        let (found, hash) = self.find_function(function.start, &function.name);
        match found.and_then(|at| self.functions.get_mut(at)) {
            Some(existing) => {
                existing.count = existing.count.saturating_add(function.count);
                existing.end = existing.end.or(function.end);
                for alias in function.aliases {
                    if let Err(at) = existing.aliases.binary_search(&alias) {
                        existing.aliases.insert(at, alias);
                    }
                }
            }
            None => {
                self.function_index.insert(hash, self.functions.len());
                self.functions.push(function);
            }
        }
    }

    fn detail_lines(&self) -> Counts {
        let covered = self.lines.iter().filter(|(_, c)| *c > 0).count();
        Counts::new(covered as u64, self.lines.len() as u64)
    }

    fn detail_branches(&self) -> Counts {
        let covered = self.branches.iter().filter(|b| b.is_covered()).count();
        Counts::new(covered as u64, self.branches.len() as u64)
    }

    /// How many functions (counted as [`summary`](Self::summary) counts them from the records:
    /// copies and instantiations of one function are one) have a record for which `which`
    /// holds: what an inline marker takes out of the functions metric.
    pub fn count_functions(&self, which: impl Fn(&Function) -> bool) -> u64 {
        let kept = LcovFile {
            functions: self
                .functions
                .iter()
                .filter(|f| which(f))
                .cloned()
                .collect(),
            ..LcovFile::default()
        };
        kept.detail_functions().total
    }

    /// Distinct functions by (start line, identity): llvm-cov writes one `FN` per test binary
    /// and per instantiation, whose Rust names differ only in the crate hash and the generic
    /// arguments, so those count once (covered when any copy ran).
    ///
    /// Only records that share a start line need their identity (a demangling) worked out.
    fn detail_functions(&self) -> Counts {
        let mut by_start: Vec<&Function> = self.functions.iter().collect();
        by_start.sort_by_key(|f| f.start);
        let (mut covered, mut total) = (0u64, 0u64);
        for group in by_start.chunk_by(|a, b| a.start == b.start) {
            if let [one] = group {
                covered += u64::from(one.is_covered());
                total += 1;
                continue;
            }
            let mut seen: HashMap<String, bool> = HashMap::new();
            for f in group {
                *seen.entry(function_identity(&f.name)).or_insert(false) |= f.is_covered();
            }
            covered += seen.values().filter(|ran| **ran).count() as u64;
            total += seen.len() as u64;
        }
        Counts::new(covered, total)
    }

    /// The start lines where at least one function record ran.
    fn executed_start_lines(&self) -> BTreeSet<u32> {
        self.functions
            .iter()
            .filter(|f| f.is_covered())
            .filter_map(|f| f.start)
            .collect()
    }
}

/// `DA` records as (line, count) pairs in any order, sorted by line with the counts of one line
/// summed: the `lines` of an [`LcovFile`].
fn sorted_lines(mut lines: Vec<(u32, u64)>) -> Vec<(u32, u64)> {
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
fn merge_lines(a: Vec<(u32, u64)>, b: Vec<(u32, u64)>) -> Vec<(u32, u64)> {
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

/// The longest demangled name worked out, in bytes. A corrupt or hostile v0 symbol can hold
/// back-references that expand to rustc-demangle's own limit of a megabyte from a hundred bytes
/// (milliseconds per name, seconds per file); its demangling is abandoned at this length.
pub const MAX_DEMANGLED: usize = 4096;

/// `name` demangled as a Rust symbol (legacy or v0) without its hash, or `None` when it is not
/// one or its demangling is longer than [`MAX_DEMANGLED`].
pub fn demangle_rust(name: &str) -> Option<String> {
    let symbol = rustc_demangle::try_demangle(name).ok()?;
    let mut out = Bounded(String::new());
    // The demangler stops at the first refused write.
    write!(out, "{symbol:#}").ok()?;
    Some(out.0)
}

/// A string that refuses writes past [`MAX_DEMANGLED`] bytes.
struct Bounded(String);

impl std::fmt::Write for Bounded {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if self.0.len() + s.len() > MAX_DEMANGLED {
            return Err(std::fmt::Error);
        }
        self.0.push_str(s);
        Ok(())
    }
}

/// A function's identity across copies and instantiations: a Rust symbol demangled without its
/// hash and without generic arguments (`::<…>`); an Itanium C++ symbol (`_Z…`, also after
/// llvm-cov's `file.cpp:` prefix of a static function) demangled to its qualified name without
/// parameters, return type and template arguments; any other name (or a symbol too long to
/// demangle) unchanged. llvm-cov writes one `FN` per instantiation and per binary, all of one
/// source function (one group in its counts); names that other writers demangle themselves
/// (gcovr: `void foo<int>(int)`) stay apart, as those writers count them.
fn function_identity(name: &str) -> String {
    let demangled = demangle_rust(name)
        .or_else(|| cpp_base_name(name))
        .unwrap_or_else(|| name.to_string());
    let mut out = String::with_capacity(demangled.len());
    let mut depth = 0usize;
    let mut rest = demangled.as_str();
    while let Some(c) = rest.chars().next() {
        if depth == 0 && rest.starts_with("::<") {
            depth = 1;
            rest = &rest[3..];
            continue;
        }
        match (depth, c) {
            (0, _) => out.push(c),
            (_, '<') => depth += 1,
            (_, '>') => depth -= 1,
            _ => {}
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// An Itanium C++ symbol, possibly after a `file:` prefix, as its qualified name without
/// parameters, return type and template arguments (`_Z4pickIiiET_S0_T0_` → `pick`).
fn cpp_base_name(name: &str) -> Option<String> {
    let at = name.find("_Z")?;
    let (prefix, mangled) = name.split_at(at);
    if !(prefix.is_empty() || prefix.ends_with(':')) {
        return None;
    }
    let symbol = cpp_demangle::Symbol::new(mangled).ok()?;
    let options = cpp_demangle::DemangleOptions::new()
        .no_params()
        .no_return_type();
    symbol
        .demangle_with_options(&options)
        .ok()
        .map(|text| without_templates(&text))
}

/// `text` without its template arguments (every `<…>`, nested ones included).
fn without_templates(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Sum of two `taken` values: `-` + `-` = `-`, `-` + n = n.
fn add_taken(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.saturating_add(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Reads an LCOV tracefile into a [`Report`] of kind [`ReportKind::Lcov`], dropping warnings.
///
/// The report has one [`FileData`] per distinct `SF` string (trimmed), in first-appearance order,
/// with all its sections merged into one [`LcovFile`]; `manifest_path` is `None` and
/// `has_branch_data` says whether any section has a `BRDA` record (stable `cargo llvm-cov --lcov`
/// writes none: branches are then unavailable, not 0 of 0). See
/// [`read_with_warnings`] for the warnings and the module documentation for the semantics.
///
/// # Errors
/// An error names `origin` and the 1-based line: a malformed known record (missing field, count
/// or line number that is not a non-negative decimal integer or is too large, a `DA` checksum
/// that is not base64/hex), a data record outside an `SF` section, text glued after
/// `end_of_record`; and, without a line, a tracefile with no `SF` record (empty).
pub fn read(origin: &str, bytes: &[u8]) -> Result<Report> {
    read_with_warnings(origin, bytes).map(|(report, _)| report)
}

/// Reads an LCOV tracefile like [`read`] and also returns the warnings, each a complete message
/// `"<origin>:<line>: …"`: unknown record types (skipped), non-UTF-8 bytes (replaced), a missing
/// `end_of_record`, an `end_of_record` outside a section (ignored), and `end_of_record` glued to
/// the next record (split).
///
/// # Errors
/// As [`read`].
pub fn read_with_warnings(origin: &str, bytes: &[u8]) -> Result<(Report, Vec<String>)> {
    read_in_blocks(origin, bytes, block_size(bytes.len()))
}

/// [`read_with_warnings`] with blocks of about `size` bytes (see [`blocks`]).
fn read_in_blocks(origin: &str, bytes: &[u8], size: usize) -> Result<(Report, Vec<String>)> {
    let mut parser = Parser::new(origin);
    parse_lines(&mut parser, 1, bytes, size)?;
    parser.finish()
}

/// Parses `text`, whole lines from line `first` on, into `parser` as one pass would: the lines
/// up to the first whole `end_of_record` line in order (they may continue an open section), the
/// rest in blocks of about `size` bytes ([`blocks`]), in parallel when there are several. Each
/// block is parsed from its own first line number; the blocks' files and warnings are then
/// joined in input order, and the first error in input order is returned. Returns the number
/// of line breaks in `text`.
fn parse_lines(parser: &mut Parser<'_>, first: u64, text: &[u8], size: usize) -> Result<u64> {
    let head_end = section_end(text, 1).unwrap_or(text.len());
    let (head, rest) = text.split_at_checked(head_end).unwrap_or((text, &[]));
    let head_lines = parser.feed(first, head)?;
    let first = first + head_lines;
    let blocks = blocks(rest, size);
    if let [one] = blocks.as_slice() {
        return Ok(head_lines + parser.feed(first, one)?);
    }
    let lines: Vec<u64> = blocks.par_iter().map(|b| line_breaks(b)).collect();
    let firsts = lines.iter().scan(first, |next, n| {
        let first = *next;
        *next += n;
        Some(first)
    });
    let work: Vec<(u64, &[u8])> = firsts.zip(blocks.iter().copied()).collect();
    let origin = parser.origin;
    let parsed: Vec<Result<Parser<'_>>> = work
        .into_par_iter()
        .map(|(first, block)| {
            let mut block_parser = Parser::new(origin);
            block_parser.feed(first, block).map(|_| block_parser)
        })
        .collect();
    for block in parsed {
        parser.absorb(block?);
    }
    Ok(head_lines + lines.iter().sum::<u64>())
}

/// The smallest block of a tracefile parsed on its own thread, in bytes.
const MIN_BLOCK: usize = 1 << 20;

/// The block size for a tracefile of `len` bytes: a few blocks per thread, at least
/// [`MIN_BLOCK`].
fn block_size(len: usize) -> usize {
    MIN_BLOCK.max(len / (4 * rayon::current_num_threads()))
}

/// `bytes` cut into blocks of whole sections: every block but the last is at least `size` bytes
/// long and ends just after a line that is exactly `end_of_record` (optionally with `\r`), so no
/// section is open across blocks and every block starts in the state a single pass would have
/// there. Without such a line, the rest is one block.
fn blocks(bytes: &[u8], size: usize) -> Vec<&[u8]> {
    let mut blocks = Vec::new();
    let mut rest = bytes;
    while let Some(end) = section_end(rest, size) {
        let (block, after) = rest.split_at_checked(end).unwrap_or((rest, &[]));
        blocks.push(block);
        rest = after;
    }
    blocks.push(rest);
    blocks
}

/// The offset just after the first whole line `end_of_record` (or `end_of_record\r`) that ends
/// at or after `from`, when bytes follow it.
fn section_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from.checked_sub(1)?;
    loop {
        let newline = at + bytes.get(at..)?.iter().position(|b| *b == b'\n')?;
        let next = bytes.get(newline + 1..).unwrap_or_default();
        let line = next.strip_prefix(END_OF_RECORD.as_bytes());
        let end = line.and_then(|l| match l {
            [b'\n', ..] => Some(1),
            [b'\r', b'\n', ..] => Some(2),
            _ => None,
        });
        match end {
            Some(n) if newline + 1 + END_OF_RECORD.len() + n < bytes.len() => {
                return Some(newline + 1 + END_OF_RECORD.len() + n);
            }
            Some(_) => return None,
            None => at = newline + 1,
        }
    }
}

/// The number of line breaks in `bytes`.
fn line_breaks(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|b| **b == b'\n').count() as u64
}

/// Reads an LCOV tracefile from a stream like [`read_with_warnings`]: in chunks of whole lines
/// (about [`STREAM_CHUNK`] bytes, each parsed in parallel blocks as [`read_with_warnings`]
/// parses a whole input), so memory holds one chunk plus the records read, never the whole
/// input. A line over [`MAX_LINE`] is an error as soon as its first [`MAX_LINE`] + 1 bytes have
/// been read.
///
/// # Errors
/// As [`read`], and a read error of `input` (with the line it happened on).
pub fn read_from(origin: &str, mut input: impl BufRead) -> Result<(Report, Vec<String>)> {
    read_lines(origin, &mut input)
}

/// How many bytes [`read_from`] reads before it parses the whole lines among them.
pub const STREAM_CHUNK: usize = 8 << 20;

/// [`read_from`], compiled once (a generic function would be compiled, and measured, per input
/// type).
fn read_lines(origin: &str, input: &mut dyn BufRead) -> Result<(Report, Vec<String>)> {
    read_chunks(origin, input, STREAM_CHUNK, block_size(STREAM_CHUNK))
}

/// [`read_lines`] with chunks of `chunk` bytes parsed in blocks of `size` bytes.
fn read_chunks(
    origin: &str,
    input: &mut dyn BufRead,
    chunk: usize,
    size: usize,
) -> Result<(Report, Vec<String>)> {
    let mut parser = Parser::new(origin);
    // Bytes read and not parsed yet, from the start of line `first`.
    let mut pending = Vec::new();
    let mut first = 1u64;
    loop {
        // At least `chunk` more bytes: a line longer than a chunk needs several.
        // What is pending already holds no line break (whole lines were parsed).
        let old = pending.len();
        let filled = fill(input, &mut pending, old.saturating_add(chunk));
        // At the end of the input, the last line needs no line break.
        let whole = match filled {
            Ok(true) => pending.len(),
            _ => pending
                .get(old..)
                .and_then(|new| new.iter().rposition(|b| *b == b'\n'))
                .map_or(0, |at| old + at + 1),
        };
        let lines = pending.get(..whole).unwrap_or_default();
        first += parse_lines(&mut parser, first, lines, size)?;
        pending.drain(..whole);
        match filled {
            Ok(true) => break,
            Ok(false) => parser.check_length(first, pending.len())?,
            Err(e) => return Err(parser.error(first, format!("cannot read the report: {e}"))),
        }
    }
    parser.finish()
}

/// Moves bytes from `input` to `pending` until it holds at least `want` bytes (taking no more
/// than that from a reader that offers more) or the input ends: `Ok(true)` at the end.
/// Interrupted reads are retried.
fn fill(input: &mut dyn BufRead, pending: &mut Vec<u8>, want: usize) -> std::io::Result<bool> {
    while pending.len() < want {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(true);
        }
        let taken = available.len().min(want - pending.len());
        pending.extend_from_slice(available.get(..taken).unwrap_or_default());
        input.consume(taken);
    }
    Ok(false)
}

/// One lexed record.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Record<'a> {
    /// `TN`, `VER`: accepted anywhere, ignored.
    Ignored,
    /// `MCDC`, `MCF`, `MCH`: accepted inside a section, skipped.
    Skipped,
    Sf(&'a str),
    Fn {
        start: u32,
        end: Option<u32>,
        name: &'a str,
    },
    Fnda {
        count: u64,
        name: &'a str,
    },
    Fnl {
        index: u64,
        start: u32,
        end: Option<u32>,
    },
    Fna {
        index: u64,
        count: u64,
        alias: &'a str,
    },
    Brda(Branch),
    Da {
        line: u32,
        count: u64,
    },
    Total(TotalKind, u64),
    Unknown(&'a str),
}

/// Which declared total a record sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TotalKind {
    LinesFound,
    LinesHit,
    BranchesFound,
    BranchesHit,
    FunctionsFound,
    FunctionsHit,
}

/// The records of one open section, before its functions are resolved.
#[derive(Debug, Default)]
struct Section {
    path: String,
    file: LcovFile,
    /// `DA` records: (line, count), in input order.
    da: Vec<(u32, u64)>,
    /// `FN` records: (start, end, name, count of the `FNDA` right after it, see `paired`).
    fn_records: Vec<(u32, Option<u32>, String, Option<u64>)>,
    /// `FNDA` records (name, count), in input order, but those that follow their `FN`.
    fnda: Vec<(String, u64)>,
    /// How many `FNDA` records came right after an `FN` of their name (their counts are in
    /// `fn_records`). When every `FNDA` of the section is such (coverage.py, Foundry write `FN`, `FNDA` pairs),
    /// each counts for its `FN` only, as its writer means, even where several `FN` share the
    /// name; otherwise they are keyed by name like the others (lcov, llvm-cov, gcovr, istanbul
    /// write the `FNDA` after all `FN`).
    paired: usize,
    /// The index in `fn_records` of the `FN` record just read (cleared by any other record).
    last_fn: Option<usize>,
    /// `FNL`: index → (start, end).
    fnl: BTreeMap<u64, (u32, Option<u32>)>,
    /// `FNA`: index → (alias, count).
    fna: BTreeMap<u64, Vec<(String, u64)>>,
    /// The order of the section's records, to recognise llvm-cov's writer.
    order: Order,
    /// Line numbers of the section's `LF`, `BRF` and `FNF` records (0: none), for warnings.
    declared_at: [u64; 3],
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
const STAGE_FOREIGN: u8 = 15;

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
struct Order {
    last: u8,
    seen: u16,
    broken: bool,
}

impl Order {
    fn note(&mut self, stage: u8) {
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
        Record::Brda(_) => STAGE_BRDA,
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
    fn new(path: &str) -> Section {
        Section {
            path: path.to_string(),
            ..Section::default()
        }
    }

    /// Sets a declared total. Errors when the section now declares more hit than found for a
    /// metric (`LH:5` with `LF:1`): no writer does, and the JSON reader refuses the same.
    fn set_total(&mut self, kind: TotalKind, value: u64) -> std::result::Result<(), String> {
        let d = &mut self.file.declared;
        let (pair, slot, names) = match kind {
            TotalKind::LinesFound => (&mut d.lines, Slot::Found, ("LH", "LF")),
            TotalKind::LinesHit => (&mut d.lines, Slot::Hit, ("LH", "LF")),
            TotalKind::BranchesFound => (&mut d.branches, Slot::Found, ("BRH", "BRF")),
            TotalKind::BranchesHit => (&mut d.branches, Slot::Hit, ("BRH", "BRF")),
            TotalKind::FunctionsFound => (&mut d.functions, Slot::Found, ("FNH", "FNF")),
            TotalKind::FunctionsHit => (&mut d.functions, Slot::Hit, ("FNH", "FNF")),
        };
        match slot {
            Slot::Found => pair.found = Some(value),
            Slot::Hit => pair.hit = Some(value),
        }
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
    fn close(mut self) -> (String, LcovFile, Vec<(u64, String)>) {
        let records = std::mem::take(&mut self.fn_records);
        let mut fnda = std::mem::take(&mut self.fnda);
        // Positional only when the writer interleaves (every `FNDA` right after its `FN`, and
        // more than one): an `FNDA` that happens to follow the last `FN` is keyed by name.
        let positional = self.paired >= 2 && fnda.is_empty();
        if !positional {
            fnda.extend(records.iter().filter_map(|r| r.3.map(|c| (r.2.clone(), c))));
        }
        // Name → (summed count, taken by an `FN` or already added).
        let mut counts: HashMap<&str, (u64, bool)> = HashMap::with_capacity(fnda.len());
        for (name, count) in &fnda {
            let entry = counts.entry(name.as_str()).or_insert((0, false));
            entry.0 = entry.0.saturating_add(*count);
        }
        let mut untaken = counts.len();
        for (start, end, name, own) in records {
            let named = match counts.get_mut(name.as_str()) {
                Some((count, taken)) => {
                    untaken -= usize::from(!*taken);
                    *taken = true;
                    *count
                }
                None => 0,
            };
            let own = own.filter(|_| positional).unwrap_or_default();
            self.add_fn_record(start, end, name, named.saturating_add(own));
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
        self.close_groups();
        self.file.llvm = self.order.is_llvm();
        let warnings = if self.file.llvm {
            Vec::new()
        } else {
            self.disagreements()
        };
        self.file.lines = sorted_lines(std::mem::take(&mut self.da));
        self.file.sections = 1;
        (self.path, self.file, warnings)
    }

    /// Declared pairs (`LF`/`LH`, `BRF`/`BRH`, `FNF`/`FNH`) of a section whose records are
    /// counted (not llvm-cov's) that differ from what the records count, with the line of the
    /// found record. One difference is explained, and not reported: `LF`/`LH` counting `DA`
    /// records rather than lines, where a line repeats (SpiderMonkey's writer, which grcov
    /// reads). `self.da` holds the section's `DA` records as written.
    fn disagreements(&self) -> Vec<(u64, String)> {
        let file = &self.file;
        let (mut lines, mut hit) = (HashMap::new(), 0u64);
        for &(line, count) in &self.da {
            *lines.entry(line).or_insert(0u64) |= count;
            hit += u64::from(count > 0);
        }
        let distinct = Counts::new(
            lines.values().filter(|c| **c > 0).count() as u64,
            lines.len() as u64,
        );
        let per_record = Counts::new(hit, self.da.len() as u64);
        let checks = [
            (
                "LF",
                "LH",
                "lines",
                0,
                file.declared.lines,
                distinct,
                per_record,
            ),
            (
                "BRF",
                "BRH",
                "branch sides",
                1,
                file.declared.branches,
                file.detail_branches(),
                file.detail_branches(),
            ),
            (
                "FNF",
                "FNH",
                "functions",
                2,
                file.declared.functions,
                file.detail_functions(),
                file.detail_functions(),
            ),
        ];
        let mut out = Vec::new();
        for (found, hit, what, at, pair, records, explained) in checks {
            let Some(declared) = pair.consistent() else {
                continue;
            };
            if declared != records && declared != explained {
                let line = self.declared_at.get(at).copied().unwrap_or_default();
                out.push((
                    line,
                    format!(
                        "{found}:{} {hit}:{} disagree with the section's records ({} {what}, {} hit); covgate counts the records",
                        declared.total, declared.covered, records.total, records.covered
                    ),
                ));
            }
        }
        out
    }

    /// Adds one `FN` record; a repeated (start, name) in a section is one function, not two.
    fn add_fn_record(&mut self, start: u32, end: Option<u32>, name: String, count: u64) {
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
            let count = aliases
                .iter()
                .fold(0u64, |acc, (_, c)| acc.saturating_add(*c));
            let mut names: Vec<String> = aliases.into_iter().map(|(n, _)| n).collect();
            names.dedup();
            let name = names
                .first()
                .cloned()
                .unwrap_or_else(|| format!("<FNL index {index}>"));
            self.file.add_function(Function {
                start,
                end,
                name,
                aliases: names,
                count,
            });
        }
    }
}

fn plain_function(start: Option<u32>, end: Option<u32>, name: String, count: u64) -> Function {
    Function {
        start,
        end,
        name,
        aliases: Vec::new(),
        count,
    }
}

/// A file as the parser holds it: path, file, `DA` records of its later sections.
type StoredFile = (String, LcovFile, Vec<(u32, u64)>);

/// The reader's state across lines.
struct Parser<'a> {
    origin: &'a str,
    /// Files by first appearance, each with the `DA` records of its later sections, merged
    /// into its lines once at the end (merging sorted lines per section would take time
    /// quadratic in the number of sections of one file).
    files: Vec<StoredFile>,
    index: HashMap<String, usize>,
    section: Option<Section>,
    warnings: Vec<String>,
    /// Warnings beyond [`MAX_WARNINGS`], counted only.
    unshown_warnings: u64,
    /// The last line that held a record, for the missing-`end_of_record` warning.
    last_line: u64,
    /// True when the last record outside a section was `TN` or `VER` (the next section is then
    /// not llvm-cov's, see [`Order`]).
    after_tn: bool,
}

impl<'a> Parser<'a> {
    fn new(origin: &'a str) -> Parser<'a> {
        Parser {
            origin,
            files: Vec::new(),
            index: HashMap::new(),
            section: None,
            warnings: Vec::new(),
            unshown_warnings: 0,
            last_line: 0,
            after_tn: false,
        }
    }

    fn warn(&mut self, line: u64, message: impl std::fmt::Display) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings
                .push(format!("{}:{line}: {message}", self.origin));
        } else {
            self.unshown_warnings += 1;
        }
    }

    /// Handles one physical line as bytes: checks its length and encoding, then parses it.
    fn raw_line(&mut self, number: u64, raw: &[u8]) -> Result<()> {
        self.check_length(number, raw.len())?;
        let text = String::from_utf8_lossy(raw);
        if matches!(text, std::borrow::Cow::Owned(_)) {
            self.warn(
                number,
                "bytes that are not UTF-8 replaced with U+FFFD (paths differing only there merge)",
            );
        }
        self.line(number, &text)
    }

    /// Parses whole lines (`bytes`, the first being line `first`) one after the other and
    /// returns the number of line breaks passed.
    fn feed(&mut self, first: u64, bytes: &[u8]) -> Result<u64> {
        let mut number = first;
        // Bytes that are UTF-8 as a whole need no check per line (lines split at an ASCII byte).
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                for line in text.split('\n') {
                    self.check_length(number, line.len())?;
                    self.line(number, line)?;
                    number += 1;
                }
            }
            Err(_) => {
                for line in bytes.split(|b| *b == b'\n') {
                    self.raw_line(number, line)?;
                    number += 1;
                }
            }
        }
        // `split` gives one piece more than there are line breaks.
        Ok(number - first - 1)
    }

    /// A line of `len` bytes is longer than [`MAX_LINE`]: an error.
    fn check_length(&self, number: u64, len: usize) -> Result<()> {
        if len > MAX_LINE {
            return Err(self.error(
                number,
                format!(
                    "the line is longer than {MAX_LINE} bytes (16 MiB), the longest LCOV line \
                     covgate reads; this is not a usable tracefile"
                ),
            ));
        }
        Ok(())
    }

    fn error(&self, line: u64, message: impl std::fmt::Display) -> Error {
        Error::at(self.origin, line, None, message)
    }

    /// Handles one physical line (1-based `number`).
    fn line(&mut self, number: u64, text: &str) -> Result<()> {
        let text = text.trim_start_matches('\u{FEFF}').trim();
        if text.is_empty() || text.starts_with('#') {
            return Ok(());
        }
        self.last_line = number;
        let rest = self.glued_end_of_records(number, text)?;
        if rest.is_empty() {
            return Ok(());
        }
        let record = lex(rest).map_err(|m| self.error(number, m))?;
        self.record(number, record)
    }

    /// Closes one section per leading `end_of_record` and returns what follows them: empty, or a
    /// known record glued on (split, with a warning). Anything else glued on is an error.
    fn glued_end_of_records<'t>(&mut self, number: u64, text: &'t str) -> Result<&'t str> {
        let mut rest = text;
        let mut closed = false;
        while let Some(after) = rest.strip_prefix(END_OF_RECORD) {
            self.end_of_record(number);
            closed = true;
            rest = after.trim_start();
        }
        if !closed || rest.is_empty() {
            return Ok(rest);
        }
        let tag = split_at(rest, b':').map(|(tag, _)| tag);
        if tag.is_some_and(|t| KNOWN_TAGS.contains(&t)) {
            self.warn(
                number,
                "`end_of_record` glued to the next record (a missing newline, e.g. from `cat`); split into two lines",
            );
            Ok(rest)
        } else {
            Err(self.error(
                number,
                format!("unexpected text `{}` after `end_of_record`; expected a line break before the next record", clip(rest)),
            ))
        }
    }

    fn end_of_record(&mut self, number: u64) {
        match self.section.take() {
            Some(section) => self.store(section),
            None => self.warn(number, "`end_of_record` outside an `SF` section ignored"),
        }
    }

    fn store(&mut self, section: Section) {
        let (path, file, warnings) = section.close();
        for (line, message) in warnings {
            self.warn(line, message);
        }
        self.store_file(path, file, Vec::new());
    }

    /// Merges `file` (with `more_lines`, `DA` records of further sections) into the file of
    /// `path`, or adds it as a new file.
    ///
    /// A section that repeats the file's declared totals over the same items, covered alike,
    /// merges whole and keeps them (see [`LcovFile::merge`]); any other leaves its `DA` records
    /// pending and drops them.
    fn store_file(&mut self, path: String, mut file: LcovFile, mut more_lines: Vec<(u32, u64)>) {
        match self.index.get(&path).and_then(|i| self.files.get_mut(*i)) {
            // A section without records names the file again and adds nothing (no declared
            // totals dropped).
            Some((_, _, pending)) if !file.has_records() => pending.append(&mut more_lines),
            // Records after sections without any: they are the file's first.
            Some((_, existing, pending)) if !existing.has_records() => {
                *existing = file;
                pending.append(&mut more_lines);
            }
            Some((_, existing, pending)) => {
                // A file with pending records has no declared totals left (they were dropped
                // when the records were set aside), so either side's pending records make
                // `repeated` false.
                let repeated = existing.declared != DeclaredTotals::default()
                    && existing.declared == file.declared
                    && existing.shape() == file.shape();
                if !repeated {
                    // Checked while the totals and the records are still together.
                    existing.conflict |= existing.unreproducible() | file.unreproducible();
                    pending.append(&mut file.lines);
                    pending.append(&mut more_lines);
                    file.declared = DeclaredTotals::default();
                    existing.declared = DeclaredTotals::default();
                }
                existing.merge(file);
            }
            None => {
                self.index.insert(path.clone(), self.files.len());
                self.files.push((path, file, more_lines));
            }
        }
    }

    fn record(&mut self, number: u64, record: Record<'_>) -> Result<()> {
        match record {
            Record::Ignored => {
                // llvm-cov writes no `TN`/`VER`: the section is not its (see [`Order`]).
                match self.section.as_mut() {
                    Some(section) => section.order.note(STAGE_FOREIGN),
                    None => self.after_tn = true,
                }
                Ok(())
            }
            Record::Unknown(tag) => {
                self.warn(
                    number,
                    format!("unknown record type `{}` skipped", clip(tag)),
                );
                Ok(())
            }
            Record::Sf(path) => {
                if let Some(open) = self.section.take() {
                    self.warn(
                        number,
                        format!(
                            "`SF` without `end_of_record` closing the section of `{}`",
                            clip(&open.path)
                        ),
                    );
                    self.store(open);
                }
                let mut section = Section::new(path);
                if std::mem::take(&mut self.after_tn) {
                    section.order.note(STAGE_FOREIGN);
                }
                self.section = Some(section);
                Ok(())
            }
            data => {
                let Some(section) = self.section.as_mut() else {
                    return Err(self.error(
                        number,
                        "record outside an `SF` section; expected `SF:<path>` before it",
                    ));
                };
                let applied = apply(section, number, data);
                applied.map_err(|message| self.error(number, message))
            }
        }
    }

    /// Takes over what a parser of the next block found: its files (merged in order), its
    /// warnings (up to the limit), its open section and last record line. No section is open
    /// here when the next block starts (blocks end with `end_of_record`).
    fn absorb(&mut self, next: Parser<'a>) {
        for (path, file, more_lines) in next.files {
            self.store_file(path, file, more_lines);
        }
        for warning in next.warnings {
            if self.warnings.len() < MAX_WARNINGS {
                self.warnings.push(warning);
            } else {
                self.unshown_warnings += 1;
            }
        }
        self.unshown_warnings += next.unshown_warnings;
        self.section = next.section;
        self.last_line = self.last_line.max(next.last_line);
    }

    fn finish(mut self) -> Result<(Report, Vec<String>)> {
        if let Some(open) = self.section.take() {
            self.warn(
                self.last_line,
                format!("missing final `end_of_record` for `{}`", clip(&open.path)),
            );
            self.store(open);
        }
        if self.unshown_warnings > 0 {
            self.warnings.push(format!(
                "{}: {} more warning(s) not shown",
                self.origin, self.unshown_warnings
            ));
        }
        if self.files.is_empty() {
            return Err(Error::new(format!(
                "{}: no `SF:` record: the LCOV tracefile is empty or not a tracefile; produce it with `cargo llvm-cov --lcov --output-path FILE`",
                self.origin
            )));
        }
        let has_branch_data = self.files.iter().any(|(_, f, _)| !f.branches.is_empty());
        let files = self
            .files
            .into_iter()
            .map(|(path, mut file, mut more_lines)| {
                if !more_lines.is_empty() {
                    more_lines.append(&mut file.lines);
                    file.lines = sorted_lines(more_lines);
                }
                FileData {
                    path,
                    coverage: FileCoverage::Lcov(file),
                }
            })
            .collect();
        let report = Report {
            origin: self.origin.to_string(),
            kind: ReportKind::Lcov,
            manifest_path: None,
            has_branch_data,
            files,
            warnings: self.warnings.clone(),
        };
        Ok((report, self.warnings))
    }
}

/// Applies a data record to the open section; errors as [`Section::set_total`] does.
fn apply(
    section: &mut Section,
    number: u64,
    record: Record<'_>,
) -> std::result::Result<(), String> {
    section.order.note(stage(&record, section.order.last));
    let last_fn = section.last_fn.take();
    match record {
        Record::Fn { start, end, name } => {
            section.last_fn = Some(section.fn_records.len());
            section
                .fn_records
                .push((start, end, name.to_string(), None));
        }
        Record::Fnda { count, name } => {
            let own = last_fn
                .and_then(|at| section.fn_records.get_mut(at))
                .filter(|r| r.2 == name);
            match own {
                Some(record) => {
                    record.3 = Some(count);
                    section.paired += 1;
                }
                None => section.fnda.push((name.to_string(), count)),
            }
        }
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
            .push((alias.to_string(), count)),
        Record::Brda(branch) => section.file.add_branch(branch),
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

const END_OF_RECORD: &str = "end_of_record";

/// Record tags of geninfo(1); a tag glued after `end_of_record` must be one of these.
const KNOWN_TAGS: [&str; 18] = [
    "TN", "SF", "VER", "FN", "FNDA", "FNL", "FNA", "FNF", "FNH", "BRDA", "BRF", "BRH", "DA", "LF",
    "LH", "MCDC", "MCF", "MCH",
];

/// Lexes one trimmed, non-empty, non-comment line that does not start with `end_of_record`.
/// The error is the message without location.
fn lex(text: &str) -> std::result::Result<Record<'_>, String> {
    let record = split_at(text, b':').filter(|(tag, _)| is_tag(tag));
    let Some((tag, value)) = record else {
        return Err(format!(
            "`{}` is not an LCOV record (`TAG:VALUE`, a `#` comment or `end_of_record`); is this a tracefile?",
            clip(text)
        ));
    };
    match tag {
        "TN" | "VER" => Ok(Record::Ignored),
        "MCDC" | "MCF" | "MCH" => Ok(Record::Skipped),
        "SF" => lex_sf(value),
        "FN" => lex_fn(value),
        "FNDA" => lex_fnda(value),
        "FNL" => lex_fnl(value),
        "FNA" => lex_fna(value),
        "BRDA" => lex_brda(value),
        "DA" => lex_da(value),
        _ => match total_kind(tag) {
            Some(kind) => Ok(Record::Total(kind, count(value, tag, "count")?)),
            None => Ok(Record::Unknown(tag)),
        },
    }
}

/// True for a record name as tracefile writers spell them: an ASCII letter, then letters, digits
/// or `_` (an unknown one is skipped with a warning; anything else is not a record).
fn is_tag(tag: &str) -> bool {
    let mut chars = tag.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn total_kind(tag: &str) -> Option<TotalKind> {
    Some(match tag {
        "LF" => TotalKind::LinesFound,
        "LH" => TotalKind::LinesHit,
        "BRF" => TotalKind::BranchesFound,
        "BRH" => TotalKind::BranchesHit,
        "FNF" => TotalKind::FunctionsFound,
        "FNH" => TotalKind::FunctionsHit,
        _ => return None,
    })
}

const SF_SYNTAX: &str = "`SF:<path>`";
const FN_SYNTAX: &str = "`FN:<start>,[<end>,]<name>`";
const FNDA_SYNTAX: &str = "`FNDA:<count>,<name>`";
const FNL_SYNTAX: &str = "`FNL:<index>,<start>[,<end>]`";
const FNA_SYNTAX: &str = "`FNA:<index>,<count>,<alias>`";
const BRDA_SYNTAX: &str = "`BRDA:<line>,<block>,<branch>,<taken>`";
const DA_SYNTAX: &str = "`DA:<line>,<count>[,<checksum>]`";

fn lex_sf(value: &str) -> std::result::Result<Record<'_>, String> {
    let path = value.trim();
    if path.is_empty() {
        return Err(format!("SF: missing path; expected {SF_SYNTAX}"));
    }
    if path.contains('\0') {
        return Err(format!(
            "SF: path {:?} holds a NUL byte, which no file system allows in a path",
            clip(path)
        ));
    }
    Ok(Record::Sf(path))
}

fn lex_fn(value: &str) -> std::result::Result<Record<'_>, String> {
    let (start, rest) = split_field(value, "FN", "name", FN_SYNTAX)?;
    let start = line_number(start, "FN", "start line", FN_SYNTAX)?;
    let (end, name) = match split_at(rest, b',') {
        Some((end, name)) if is_digits(end.trim()) => {
            (Some(line_number(end, "FN", "end line", FN_SYNTAX)?), name)
        }
        _ => (None, rest),
    };
    Ok(Record::Fn {
        start,
        end,
        name: non_empty(name, "FN", "name", FN_SYNTAX)?,
    })
}

fn lex_fnda(value: &str) -> std::result::Result<Record<'_>, String> {
    let (c, name) = split_field(value, "FNDA", "name", FNDA_SYNTAX)?;
    Ok(Record::Fnda {
        count: count(c, "FNDA", "execution count")?,
        name: non_empty(name, "FNDA", "name", FNDA_SYNTAX)?,
    })
}

fn lex_fnl(value: &str) -> std::result::Result<Record<'_>, String> {
    let (index, rest) = split_field(value, "FNL", "start line", FNL_SYNTAX)?;
    let (start, end) = match split_at(rest, b',') {
        Some((start, end)) => (
            start,
            Some(line_number(end, "FNL", "end line", FNL_SYNTAX)?),
        ),
        None => (rest, None),
    };
    Ok(Record::Fnl {
        index: number(index, "FNL", "index", FNL_SYNTAX)?,
        start: line_number(start, "FNL", "start line", FNL_SYNTAX)?,
        end,
    })
}

fn lex_fna(value: &str) -> std::result::Result<Record<'_>, String> {
    let (index, rest) = split_field(value, "FNA", "count", FNA_SYNTAX)?;
    let (c, alias) = split_field(rest, "FNA", "alias", FNA_SYNTAX)?;
    Ok(Record::Fna {
        index: number(index, "FNA", "index", FNA_SYNTAX)?,
        count: count(c, "FNA", "execution count")?,
        alias: non_empty(alias, "FNA", "alias", FNA_SYNTAX)?,
    })
}

fn lex_brda(value: &str) -> std::result::Result<Record<'_>, String> {
    let (line, rest) = split_field(value, "BRDA", "block", BRDA_SYNTAX)?;
    let (block, rest) = split_field(rest, "BRDA", "branch", BRDA_SYNTAX)?;
    let Some((branch, taken)) = rest.rsplit_once(',') else {
        return Err(format!(
            "BRDA: missing taken count; expected {BRDA_SYNTAX} with `-` or a count"
        ));
    };
    let taken = match taken.trim() {
        "-" => None,
        t => Some(count(t, "BRDA", "taken count (or `-`)")?),
    };
    Ok(Record::Brda(Branch {
        line: line_number(line, "BRDA", "line", BRDA_SYNTAX)?,
        block: non_empty(block, "BRDA", "block", BRDA_SYNTAX)?.to_string(),
        branch: non_empty(branch, "BRDA", "branch", BRDA_SYNTAX)?.to_string(),
        taken,
    }))
}

fn lex_da(value: &str) -> std::result::Result<Record<'_>, String> {
    let (line, rest) = split_field(value, "DA", "execution count", DA_SYNTAX)?;
    let (c, checksum) = match split_at(rest, b',') {
        Some((c, sum)) => (c, Some(sum.trim())),
        None => (rest, None),
    };
    if let Some(sum) = checksum.filter(|s| !is_checksum(s)) {
        return Err(format!(
            "DA: checksum `{sum}` is not base64 or hex (two records glued on one line?); expected {DA_SYNTAX}"
        ));
    }
    Ok(Record::Da {
        line: line_number(line, "DA", "line", DA_SYNTAX)?,
        count: count(c, "DA", "execution count")?,
    })
}

/// Splits `value` at its first comma; the error names the missing second field.
fn split_field<'v>(
    value: &'v str,
    tag: &str,
    missing: &str,
    syntax: &str,
) -> std::result::Result<(&'v str, &'v str), String> {
    split_at(value, b',').ok_or_else(|| format!("{tag}: missing {missing}; expected {syntax}"))
}

fn non_empty<'v>(
    field: &'v str,
    tag: &str,
    what: &str,
    syntax: &str,
) -> std::result::Result<&'v str, String> {
    if field.trim().is_empty() {
        Err(format!("{tag}: empty {what}; expected {syntax}"))
    } else {
        Ok(field)
    }
}

/// `text` split at the first `byte` (ASCII), which is dropped; `str::split_once` with a search
/// set up for short fields.
fn split_at(text: &str, byte: u8) -> Option<(&str, &str)> {
    let at = text.bytes().position(|b| b == byte)?;
    // `at` is the index of an ASCII byte: both gets succeed.
    Some((
        text.get(..at).unwrap_or_default(),
        text.get(at + 1..).unwrap_or_default(),
    ))
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Base64 (standard or URL-safe, with padding) or hex, as lcov, gcovr and coverage.py write.
fn is_checksum(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_'))
}

/// An execution count: a non-negative decimal integer up to `u64::MAX`.
fn count(field: &str, tag: &str, what: &str) -> std::result::Result<u64, String> {
    number(field, tag, what, "a non-negative integer count")
}

/// A line number: a non-negative decimal integer up to `u32::MAX`.
fn line_number(
    field: &str,
    tag: &str,
    what: &str,
    syntax: &str,
) -> std::result::Result<u32, String> {
    let n = number(field, tag, what, syntax)?;
    u32::try_from(n).map_err(|_| {
        format!(
            "{tag} {what} `{}` is too large (at most {}); expected {syntax}",
            clip(field.trim()),
            u32::MAX
        )
    })
}

/// `field` as a number when it is 1 to 19 ASCII digits and nothing else (a number that cannot
/// overflow `u64`): the common case, without trimming or checks.
fn plain_number(field: &str) -> Option<u64> {
    if field.is_empty() || field.len() > 19 {
        return None;
    }
    field.bytes().try_fold(0u64, |n, b| {
        b.is_ascii_digit().then(|| n * 10 + u64::from(b - b'0'))
    })
}

/// A non-negative decimal integer up to `u64::MAX`. The error names the record (`tag`) and the
/// field (`what`), says what was wrong and what was `expected`.
fn number(field: &str, tag: &str, what: &str, expected: &str) -> std::result::Result<u64, String> {
    if let Some(n) = plain_number(field) {
        return Ok(n);
    }
    let f = field.trim();
    let problem = if f.is_empty() {
        return Err(format!("{tag} {what} is missing; expected {expected}"));
    } else if f.strip_prefix('-').is_some_and(is_digits) {
        "is negative"
    } else if !is_digits(f) {
        "is not a non-negative decimal integer"
    } else {
        match f.parse::<u64>() {
            Ok(n) => return Ok(n),
            Err(_) => "is too large (at most 18446744073709551615)",
        }
    };
    Err(format!(
        "{tag} {what} `{}` {problem}; expected {expected}",
        clip(f)
    ))
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    fn read_ok(text: &str) -> (Report, Vec<String>) {
        match read_with_warnings("t.info", text.as_bytes()) {
            Ok(r) => r,
            Err(e) => panic!("unexpected error: {e}"),
        }
    }

    fn read_err(text: &[u8]) -> String {
        match read_with_warnings("t.info", text) {
            Ok(_) => panic!("expected an error"),
            Err(e) => e.message().to_string(),
        }
    }

    fn lcov(report: &Report, i: usize) -> &LcovFile {
        match report.files.get(i).map(|f| &f.coverage) {
            Some(FileCoverage::Lcov(f)) => f,
            other => panic!("no LCOV file {i}: {other:?}"),
        }
    }

    fn c(covered: u64, total: u64) -> Option<Counts> {
        Some(Counts::new(covered, total))
    }

    #[test]
    fn sections_without_records_name_a_file_and_measure_nothing() {
        // A section holding only declared totals or ignored records has no records.
        let (r, _) = read_ok("SF:a.c\nTN:x\nLF:0\nLH:0\nend_of_record\n");
        assert!(!lcov(&r, 0).has_records());
        for record in ["DA:1,0", "BRDA:1,0,0,-", "FN:1,f", "FNDA:0,f", "FNL:0,1"] {
            let (r, _) = read_ok(&format!("SF:a.c\n{record}\nend_of_record\n"));
            assert!(lcov(&r, 0).has_records(), "{record}");
        }
        // llvm-cov's declared LH (per instantiation group) stays when an empty section of the
        // same file comes before or after: the empty one adds nothing.
        let real = "SF:a.rs\nFNF:0\nFNH:0\nDA:1,1\nDA:2,1\nLF:2\nLH:1\nend_of_record\n";
        let bare = "SF:a.rs\nend_of_record\n";
        for text in [
            format!("{real}{bare}"),
            format!("{bare}{real}"),
            format!("{bare}{real}{bare}"),
        ] {
            let (r, _) = read_ok(&text);
            assert_eq!(r.files.len(), 1);
            assert_eq!(lcov(&r, 0).summary().lines, c(1, 2), "{text}");
        }
        // A later section with records, after an empty one and a split block, keeps them all.
        let text = format!(
            "{bare}SF:b.c\nDA:1,1\nend_of_record\n{bare}SF:a.rs\nDA:3,0\nend_of_record\n{real}"
        );
        for size in [1, 1 << 20] {
            let (r, _) = read_in_blocks("t.info", text.as_bytes(), size).expect("read");
            assert_eq!(lcov(&r, 0).summary().lines, c(2, 3), "{size}");
        }
    }

    #[test]
    fn bom_crlf_blank_comments_trailing_space_and_sf_space() {
        let text = "\u{FEFF}TN:\r\n# comment\r\n\r\nSF: src/a.rs  \r\nDA:1,1 \r\nDA:2,0\r\n   \r\nend_of_record  \r\n";
        let (report, warnings) = read_ok(text);
        assert_eq!(warnings, Vec::<String>::new());
        assert_eq!(report.files.len(), 1);
        assert_eq!(report.files[0].path, "src/a.rs");
        assert_eq!(report.kind, ReportKind::Lcov);
        assert!(
            !report.has_branch_data,
            "no BRDA anywhere: branches unavailable"
        );
        assert!(
            read_ok("SF:a\nBRDA:1,0,0,1\nend_of_record\n")
                .0
                .has_branch_data
        );
        assert_eq!(report.manifest_path, None);
        assert_eq!(lcov(&report, 0).summary().lines, c(1, 2));
        assert_eq!(lcov(&report, 0).uncovered_lines(), vec![2]);
    }

    #[test]
    fn missing_final_end_of_record_is_a_warning() {
        let (report, warnings) = read_ok("SF:a.c\nDA:1,1");
        assert_eq!(lcov(&report, 0).summary().lines, c(1, 1));
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].starts_with("t.info:2: missing final `end_of_record`"));
    }

    #[test]
    fn sf_without_end_of_record_closes_previous_section() {
        let (report, warnings) = read_ok("SF:a.c\nDA:1,1\nSF:b.c\nDA:1,0\nend_of_record\n");
        assert_eq!(report.files.len(), 2);
        assert_eq!(lcov(&report, 1).summary().lines, c(0, 1));
        assert!(warnings[0].starts_with("t.info:3:"), "{warnings:?}");
    }

    #[test]
    fn glued_end_of_record_is_split() {
        let text = "SF:a.c\nDA:1,1\nend_of_recordSF:b.c\nDA:2,0\nend_of_record";
        let (report, warnings) = read_ok(text);
        let paths: Vec<&str> = report.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["a.c", "b.c"]);
        assert_eq!(lcov(&report, 0).uncovered_lines(), Vec::<u32>::new());
        assert_eq!(lcov(&report, 1).uncovered_lines(), vec![2]);
        assert!(warnings[0].starts_with("t.info:3: `end_of_record` glued"));
    }

    #[test]
    fn other_text_after_end_of_record_is_an_error() {
        let e = read_err(b"SF:a.c\nDA:1,1\nend_of_recordgarbage\n");
        assert!(e.starts_with("t.info:3: unexpected text `garbage`"), "{e}");
    }

    #[test]
    fn non_utf8_bytes_are_replaced_with_a_warning() {
        let (report, warnings) = read_ok_bytes(b"SF:caf\xE9.c\nDA:1,1\nend_of_record\n");
        assert_eq!(report.files[0].path, "caf\u{FFFD}.c");
        assert!(warnings[0].starts_with("t.info:1: bytes that are not UTF-8"));
    }

    fn read_ok_bytes(bytes: &[u8]) -> (Report, Vec<String>) {
        match read_with_warnings("t.info", bytes) {
            Ok(r) => r,
            Err(e) => panic!("unexpected error: {e}"),
        }
    }

    #[test]
    fn unknown_records_warn() {
        let (_, warnings) = read_ok("SF:a.c\nXYZ:1\nDA:1,1\nend_of_record\n");
        assert_eq!(warnings, ["t.info:2: unknown record type `XYZ` skipped"]);
    }

    #[test]
    fn mid_file_bom_is_skipped() {
        let (report, _) =
            read_ok("SF:a.c\nDA:1,1\nend_of_record\n\u{FEFF}SF:b.c\nDA:1,1\nend_of_record\n");
        assert_eq!(report.files[1].path, "b.c");
    }

    #[test]
    fn fn_end_line_and_commas_in_names() {
        let text = "SF:a.cpp\nFN:1,5,legacy_sum\nFN:9,f(int, long)\nFN:12,20,g(a, b)\nFNDA:1,legacy_sum\nFNDA:0,f(int, long)\nend_of_record\n";
        let (report, _) = read_ok(text);
        let f = lcov(&report, 0).functions();
        assert_eq!(
            (f[0].start, f[0].end, f[0].name.as_str()),
            (Some(1), Some(5), "legacy_sum")
        );
        assert_eq!(
            (f[1].start, f[1].end, f[1].name.as_str()),
            (Some(9), None, "f(int, long)")
        );
        assert_eq!(
            (f[2].start, f[2].end, f[2].name.as_str()),
            (Some(12), Some(20), "g(a, b)")
        );
        let un = lcov(&report, 0).uncovered_functions();
        let names: Vec<&str> = un.iter().map(|u| u.function.name.as_str()).collect();
        assert_eq!(names, ["f(int, long)", "g(a, b)"]);
    }

    #[test]
    fn fn_name_that_is_digits_only() {
        let (report, _) = read_ok("SF:a\nFN:3,42\nend_of_record\n");
        let f = &lcov(&report, 0).functions()[0];
        assert_eq!((f.start, f.end, f.name.as_str()), (Some(3), None, "42"));
    }

    #[test]
    fn fnda_before_fn_and_fnda_without_fn() {
        let (report, _) =
            read_ok("SF:a\nFNDA:2,f\nFN:3,f\nFNDA:1,f\nFNDA:0,orphan\nend_of_record\n");
        let f = lcov(&report, 0).functions();
        assert_eq!(f.len(), 2);
        assert_eq!((f[0].start, f[0].count), (Some(3), 3));
        assert_eq!(
            (f[1].start, f[1].name.as_str(), f[1].count),
            (None, "orphan", 0)
        );
    }

    #[test]
    fn fnl_fna_aliases_are_one_function() {
        let text =
            "SF:s.cpp\nFNL:0,4,8\nFNA:0,0,C2\nFNA:0,3,C1\nFNL:1,11\nFNA:1,0,area\nend_of_record\n";
        let (report, _) = read_ok(text);
        let file = lcov(&report, 0);
        let f = file.functions();
        assert_eq!(f.len(), 2);
        assert_eq!(
            (f[0].start, f[0].end, f[0].name.as_str(), f[0].count),
            (Some(4), Some(8), "C1", 3)
        );
        assert_eq!(f[0].aliases, ["C1", "C2"]);
        assert_eq!(file.summary().functions, c(1, 2));
    }

    /// An llvm-cov section of `a`: two instantiations of template `f` at line 1 (one ran), `g`
    /// at line 5, DA lines 1 and 2 both run, a macro's branch repeated under `BRF:0`, declared
    /// LH:1.
    const LLVM: &str = "SF:a\nFN:1,_Z1fIiEvT_\nFN:1,_Z1fIdEvT_\nFN:5,g\nFNDA:1,_Z1fIiEvT_\nFNDA:0,_Z1fIdEvT_\nFNDA:0,g\nFNF:2\nFNH:1\nDA:1,1\nDA:2,3\nBRDA:1,0,0,0\nBRDA:1,0,1,1\nBRF:0\nBRH:0\nLF:2\nLH:1\nend_of_record\n";

    fn counts(text: &str) -> [Option<Counts>; 3] {
        let (r, _) = read_ok(text);
        let s = lcov(&r, 0).summary();
        [s.lines, s.branches, s.functions]
    }

    #[test]
    fn llvm_cov_sections_are_known_by_their_order_and_their_totals_stand() {
        // llvm-cov's: its declared totals, even where the records say otherwise.
        assert_eq!(counts(LLVM), [c(1, 2), c(0, 0), c(1, 2)]);
        let (r, _) = read_ok(LLVM);
        let file = lcov(&r, 0);
        assert_eq!(
            file.missed_functions(),
            [(Some(5), "g".to_string())],
            "one item per function"
        );
        // MC/DC records and a branch-less section (no BRF) keep the shape.
        let mcdc = LLVM.replace("BRF:0\n", "MCDC:1,2,t,0\nBRF:0\n");
        assert_eq!(counts(&mcdc), [c(1, 2), c(0, 0), c(1, 2)]);
        let plain = LLVM.replace("BRDA:1,0,0,0\nBRDA:1,0,1,1\nBRF:0\nBRH:0\n", "");
        assert_eq!(counts(&plain)[0], c(1, 2));
        // Any other order or record is another writer's: the records are counted.
        for other in [
            format!("TN:\n{LLVM}"),
            format!("VER:2\n{LLVM}"),
            LLVM.replace("FNF:2\n", "FNF:2\nTN:x\n"),
            LLVM.replace("DA:1,1\nDA:2,3\n", "")
                .replace("BRF:0\n", "BRF:0\nDA:1,1\nDA:2,3\n"),
            LLVM.replace("FN:1,f_a\n", "")
                .replace("FNF:2\n", "FN:1,f_a\nFNF:2\n"),
            LLVM.replace("FNF:2\nFNH:1\n", ""),
            LLVM.replace("LH:1\n", ""),
            LLVM.replace("FN:5,g\n", "FNL:0,5\n"),
            // grcov's writer: `BRDA`, `BRF`, `BRH` before `DA` (and one `TN:` at the top).
            LLVM.replace("DA:1,1\nDA:2,3\n", "")
                .replace("LF:2\n", "DA:1,1\nDA:2,3\nLF:2\n"),
        ] {
            assert_eq!(counts(&other)[0], c(2, 2), "{other}");
        }
        // Functions of other writers: the same items, the records' count.
        let (r, _) = read_ok(&format!("TN:\n{LLVM}"));
        assert_eq!(lcov(&r, 0).missed_functions(), [(Some(5), "g".to_string())]);
        assert_eq!(lcov(&r, 0).summary().functions, c(1, 2));
        assert_eq!(function_identity("t.cpp:_ZL6unusedi"), "unused");
        assert_eq!(function_identity("_ZNK1S3getEv"), "S::get");
        for name in ["x_Z1fv", "a:_Zjunk", "b:_Z", "void foo<int>(int)"] {
            assert_eq!(function_identity(name), name);
        }
        // Two missed instantiations: one item, named by the identity; one record: its name.
        let both = LLVM.replace("FNDA:1,_Z1fIiEvT_", "FNDA:0,_Z1fIiEvT_");
        let (r, _) = read_ok(&both);
        assert_eq!(
            lcov(&r, 0).missed_functions(),
            [(Some(1), "f".to_string()), (Some(5), "g".to_string())]
        );
    }

    #[test]
    fn declared_totals_of_other_writers_are_checked_not_used() {
        let text = "TN:\nSF:a\nDA:1,1\nDA:2,0\nLF:3\nLH:1\nBRDA:1,0,0,1\nBRF:2\nBRH:1\nFN:1,f\nFNDA:1,f\nFNF:1\nFNH:0\nend_of_record\n";
        let (r, warnings) = read_ok(text);
        assert_eq!(lcov(&r, 0).summary().lines, c(1, 2));
        assert_eq!(
            warnings,
            [
                "t.info:5: LF:3 LH:1 disagree with the section's records (2 lines, 1 hit); covgate counts the records",
                "t.info:8: BRF:2 BRH:1 disagree with the section's records (1 branch sides, 1 hit); covgate counts the records",
                "t.info:12: FNF:1 FNH:0 disagree with the section's records (1 functions, 1 hit); covgate counts the records",
            ]
        );
        // SpiderMonkey (read by grcov) counts `DA` records, a repeated line twice: explained.
        let (r, warnings) =
            read_ok("TN:\nSF:a\nDA:1,1\nDA:1,1\nDA:2,0\nLF:3\nLH:2\nend_of_record\n");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(lcov(&r, 0).summary().lines, c(1, 2));
        // Agreeing totals, or half a pair: nothing to say.
        let (_, warnings) = read_ok("TN:\nSF:a\nDA:1,1\nLF:1\nLH:1\nBRF:4\nend_of_record\n");
        assert!(warnings.is_empty(), "{warnings:?}");
    }

    #[test]
    fn llvm_cov_sections_merge_only_when_their_records_reproduce_their_totals() {
        // Given twice: the same numbers, declared totals kept.
        let (r, _) = read_ok(&format!("{LLVM}{LLVM}"));
        let file = lcov(&r, 0);
        assert!(!file.merge_conflict());
        assert_eq!(file.summary().lines, c(1, 2));
        // Two shards whose records give their totals: merged on the records (case 19).
        let one =
            "SF:a\nFN:1,f\nFNDA:1,f\nFNF:1\nFNH:1\nDA:1,1\nDA:2,0\nLF:2\nLH:1\nend_of_record\n";
        let two = one.replace("DA:1,1\nDA:2,0", "DA:1,0\nDA:2,4");
        let (r, _) = read_ok(&format!("{one}{two}"));
        assert!(!lcov(&r, 0).merge_conflict());
        assert_eq!(lcov(&r, 0).summary().lines, c(2, 2));
        // A shard whose totals its records cannot give: no exact merge, in either order and
        // across reports too.
        for text in [format!("{one}{LLVM}"), format!("{LLVM}{one}")] {
            let (r, _) = read_ok(&text);
            assert!(lcov(&r, 0).merge_conflict(), "{text}");
        }
        let (a, _) = read_ok(one);
        let (b, _) = read_ok(LLVM);
        let mut merged = lcov(&a, 0).clone();
        merged.merge(lcov(&b, 0).clone());
        assert!(merged.merge_conflict());
        let mut again = lcov(&a, 0).clone();
        again.merge(merged);
        assert!(again.merge_conflict(), "a conflict stays");
        // Merging into or from an empty value keeps the file as it was.
        let mut acc = LcovFile::default();
        acc.merge(lcov(&b, 0).clone());
        acc.merge(LcovFile::default());
        assert_eq!(acc.summary().lines, c(1, 2));
        assert!(!acc.merge_conflict());
    }

    #[test]
    fn fnl_groups_of_two_shards_merge() {
        let a = "SF:s.cpp\nFNL:0,4\nFNA:0,0,C2\nFNA:0,0,C1\nend_of_record\n";
        let b = "SF:s.cpp\nFNL:7,4\nFNA:7,1,C1\nFNA:7,0,C2\nend_of_record\n";
        let (report, _) = read_ok(&format!("{a}{b}"));
        assert_eq!(lcov(&report, 0).summary().functions, c(1, 1));
    }

    #[test]
    fn brda_dash_text_branches_and_flags() {
        let text = "SF:a\nBRDA:1,0,0,-\nBRDA:1,0,1,2\nBRDA:2,e0,x(a, b) < c,1\nBRDA:0,U1,0,0\nend_of_record\n";
        let (report, _) = read_ok(text);
        let file = lcov(&report, 0);
        assert_eq!(file.branches()[2].branch, "x(a, b) < c");
        assert_eq!(file.branches()[2].block, "e0");
        assert_eq!(file.summary().branches, c(2, 4));
        let un: Vec<(u32, Option<u64>)> = file
            .uncovered_branches()
            .iter()
            .map(|b| (b.line, b.taken))
            .collect();
        assert_eq!(un, [(0, Some(0)), (1, None)]);
    }

    #[test]
    fn da_repeats_sum_and_checksums_are_accepted() {
        let (report, _) =
            read_ok("SF:a\nDA:0,0\nDA:3,0,kq1T5v+/Yb0=\nDA:3,2,c150c688cc\nend_of_record\n");
        let file = lcov(&report, 0);
        assert_eq!(file.lines().collect::<Vec<_>>(), [(0, 0), (3, 2)]);
    }

    #[test]
    fn merge_sums_and_dash_rules() {
        let a = "SF:a\nDA:1,0\nBRDA:1,0,0,-\nBRDA:1,0,1,-\nBRDA:1,0,2,0\nFN:1,f\nFNDA:0,f\nLF:1\nLH:0\nend_of_record\n";
        let b = "SF:a\nDA:1,4\nBRDA:1,0,0,-\nBRDA:1,0,1,3\nBRDA:1,0,2,-\nFN:1,f\nFNDA:2,f\nend_of_record\n";
        let (report, _) = read_ok(&format!("{a}{b}"));
        let file = lcov(&report, 0);
        let taken: Vec<Option<u64>> = file.branches().iter().map(|b| b.taken).collect();
        assert_eq!(taken, [None, Some(3), Some(0)]);
        assert_eq!(file.lines().collect::<Vec<_>>(), [(1, 4)]);
        assert_eq!(file.functions()[0].count, 2);
        // declared LF/LH of the first section are dropped once merged
        assert_eq!(file.summary().lines, c(1, 1));
    }

    #[test]
    fn fnda_after_its_fn_counts_for_that_fn_when_the_writer_pairs_them() {
        let functions = |text: &str| {
            let (r, _) = read_ok(text);
            let file = lcov(&r, 0);
            (file.summary().functions, file.missed_functions())
        };
        let missed = |line: u32| vec![(Some(line), "f".to_string())];
        // coverage.py: `FN`, `FNDA` pairs; two `f` (conditional definitions), one ran.
        let paired = "SF:m.py\nFN:1,2,f\nFNDA:1,f\nFN:5,6,f\nFNDA:0,f\nend_of_record\n";
        assert_eq!(functions(paired), (c(1, 2), missed(5)));
        // lcov's order (every `FNDA` after every `FN`): keyed by name, as lcov means.
        let named = "SF:m.c\nFN:1,f\nFN:5,f\nFNDA:1,f\nend_of_record\n";
        assert_eq!(functions(named), (c(2, 2), vec![]));
        // Pairs, but not only: keyed by name.
        let mixed =
            "SF:m.py\nFN:1,f\nFNDA:0,f\nFN:5,f\nFNDA:1,f\nFNDA:2,g\nFN:9,g\nend_of_record\n";
        assert_eq!(functions(mixed), (c(3, 3), vec![]));
        // One pair only proves nothing: keyed by name.
        let one = "SF:m.c\nFN:1,f\nFN:5,f\nFNDA:0,f\nend_of_record\n";
        assert_eq!(functions(one).0, c(0, 2));
        // A repeated `FN` keeps the count of its own `FNDA`.
        let again = "SF:m.py\nFN:1,f\nFNDA:0,f\nFN:1,f\nFNDA:3,f\nend_of_record\n";
        assert_eq!(functions(again), (c(1, 1), vec![]));
    }

    #[test]
    fn declared_hit_above_found_is_an_error() {
        let e = read_err(b"SF:a\nDA:1,1\nLF:1\nLH:5\nend_of_record\n");
        assert!(e.starts_with("t.info:4: LH:5 is more than LF:1"), "{e}");
        let e = read_err(b"SF:a\nBRH:3\nFNF:9\nBRF:2\nend_of_record\n");
        assert!(e.starts_with("t.info:4: BRH:3 is more than BRF:2"), "{e}");
        let e = read_err(b"SF:a\nFNF:1\nFNH:2\nend_of_record\n");
        assert!(e.starts_with("t.info:3: FNH:2 is more than FNF:1"), "{e}");
    }

    #[test]
    fn empty_section_is_a_file_with_nothing() {
        let (r, _) = read_ok("TN:\nSF:empty.rs\nend_of_record\n");
        let s = lcov(&r, 0).summary();
        assert_eq!(
            (s.lines, s.functions, s.branches),
            (c(0, 0), c(0, 0), c(0, 0))
        );
    }

    #[test]
    fn records_outside_a_section_are_errors() {
        let e = read_err(b"TN:x\nVER:1\nDA:1,1\n");
        assert_eq!(
            e,
            "t.info:3: record outside an `SF` section; expected `SF:<path>` before it"
        );
        let e = read_err(b"SF:a\nDA:1,1\nend_of_record\nFN:1,f\n");
        assert!(e.starts_with("t.info:4: record outside"), "{e}");
        let e = read_err(b"SF:a\nend_of_record\nMCDC:1,1,t,1,0,a\n");
        assert!(e.starts_with("t.info:3: record outside"), "{e}");
    }

    #[test]
    fn no_sf_is_an_error() {
        let e = read_err(b"TN:\n# nothing\n");
        assert!(e.starts_with("t.info: no `SF:` record"), "{e}");
        let e = read_err(b"");
        assert!(e.starts_with("t.info: no `SF:` record"), "{e}");
    }

    #[test]
    fn malformed_numbers_name_the_line() {
        let cases: [(&str, &str); 14] = [
            ("DA:4,-3", "t.info:3: DA execution count `-3` is negative; expected a non-negative integer count"),
            ("DA:10,1.0e+19", "t.info:3: DA execution count `1.0e+19` is not a non-negative decimal integer"),
            ("DA:1,18446744073709551616", "t.info:3: DA execution count `18446744073709551616` is too large"),
            ("DA:4294967296,1", "t.info:3: DA line `4294967296` is too large (at most 4294967295)"),
            ("DA:590", "t.info:3: DA: missing execution count; expected `DA:<line>,<count>[,<checksum>]`"),
            ("DA:x,1", "t.info:3: DA line `x` is not a non-negative decimal integer"),
            ("DA:7,1,abcSF:/x", "t.info:3: DA: checksum `abcSF:/x` is not base64 or hex"),
            ("FNDA:-2,alias", "t.info:3: FNDA execution count `-2` is negative"),
            ("FNDA:1,", "t.info:3: FNDA: empty name"),
            ("FN:abc", "t.info:3: FN: missing name"),
            ("BRDA:1,1,1,-1", "t.info:3: BRDA taken count (or `-`) `-1` is negative"),
            ("BRDA:1,1,1", "t.info:3: BRDA: missing taken count"),
            ("FNA:0,x,foo", "t.info:3: FNA execution count `x` is not a non-negative decimal integer"),
            ("LH:", "t.info:3: LH count is missing; expected a non-negative integer count"),
        ];
        for (record, want) in cases {
            let e = read_err(format!("TN:\nSF:a.c\n{record}\nend_of_record\n").as_bytes());
            assert!(e.starts_with(want), "{record}: got {e}");
        }
    }

    #[test]
    fn errors_in_fnl_and_sf() {
        let e = read_err(b"SF:a\nFNL:0\n");
        assert!(e.starts_with("t.info:2: FNL: missing start line"), "{e}");
        let e = read_err(b"SF:a\nFNL:0,1,z\n");
        assert!(e.starts_with("t.info:2: FNL end line `z`"), "{e}");
        let e = read_err(b"SF:   \n");
        assert!(e.starts_with("t.info:1: SF: missing path"), "{e}");
    }

    #[test]
    fn fnl_groups_of_one_key_merge_their_aliases() {
        let a = "SF:s.cpp\nFNL:0,4\nFNA:0,0,C1\nFNA:0,0,C2\nend_of_record\n";
        let b = "SF:s.cpp\nFNL:5,4\nFNA:5,1,C1\nFNA:5,0,C3\nend_of_record\n";
        let (report, _) = read_ok(&format!("{a}{b}"));
        let f = lcov(&report, 0).functions();
        assert_eq!(f.len(), 1);
        assert_eq!(
            (f[0].start, f[0].name.as_str(), f[0].count),
            (Some(4), "C1", 1)
        );
        assert_eq!(f[0].aliases, ["C1", "C2", "C3"]);
    }

    #[test]
    fn fna_without_fnl_and_fnl_without_fna() {
        let (report, _) = read_ok("SF:a\nFNA:3,1,foo\nFNA:3,2,bar\nFNL:2,7,9\nend_of_record\n");
        let f = lcov(&report, 0).functions();
        assert_eq!(f.len(), 2);
        assert_eq!(
            (f[0].start, f[0].end, f[0].name.as_str(), f[0].count),
            (Some(7), Some(9), "<FNL index 2>", 0)
        );
        assert!(f[0].aliases.is_empty());
        assert_eq!(
            (f[1].start, f[1].end, f[1].name.as_str(), f[1].count),
            (None, None, "bar", 3)
        );
        assert_eq!(f[1].aliases, ["bar", "foo"]);
    }

    #[test]
    fn functions_without_a_start_line_are_told_apart_by_name() {
        // `orphan` never ran and shares no start line with `ran`: two functions.
        let (r, _) = read_ok("SF:a\nFNDA:0,orphan\nFNDA:3,ran\nend_of_record\n");
        assert_eq!(lcov(&r, 0).summary().functions, c(1, 2));
        assert_eq!(
            lcov(&r, 0).missed_functions(),
            [(None, "orphan".to_string())]
        );
    }

    #[test]
    fn taken_counts_of_merged_sections_add_up() {
        let (r, _) =
            read_ok("SF:a\nBRDA:1,0,0,2\nend_of_record\nSF:a\nBRDA:1,0,0,3\nend_of_record\n");
        let taken: Vec<Option<u64>> = lcov(&r, 0).branches().iter().map(|b| b.taken).collect();
        assert_eq!(taken, [Some(5)]);
    }

    #[test]
    fn too_large_lines_and_empty_fields_name_the_line() {
        let cases = [
            (
                "FN:1,4294967296,f",
                "t.info:2: FN end line `4294967296` is too large (at most 4294967295)",
            ),
            (
                "FNL:0,4294967296",
                "t.info:2: FNL start line `4294967296` is too large",
            ),
            (
                "FNA:0,1,",
                "t.info:2: FNA: empty alias; expected `FNA:<index>,<count>,<alias>`",
            ),
            (
                "BRDA:4294967296,0,0,1",
                "t.info:2: BRDA line `4294967296` is too large",
            ),
            ("BRDA:1, ,0,1", "t.info:2: BRDA: empty block"),
            ("BRDA:1,0, ,1", "t.info:2: BRDA: empty branch"),
        ];
        for (record, want) in cases {
            let e = read_err(format!("SF:a.c\n{record}\nend_of_record\n").as_bytes());
            assert!(e.starts_with(want), "{record}: got {e}");
        }
    }

    #[test]
    fn huge_sums_saturate() {
        let (r, _) = read_ok("SF:a\nDA:1,18446744073709551615\nDA:1,5\nend_of_record\n");
        assert_eq!(lcov(&r, 0).lines().collect::<Vec<_>>(), [(1, u64::MAX)]);
    }

    #[test]
    fn mcdc_and_ver_are_accepted() {
        let (r, w) =
            read_ok("VER:2\nSF:a\nVER:x\nMCDC:3,1,t,1,0,a\nMCF:2\nMCH:2\nDA:1,1\nend_of_record\n");
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(lcov(&r, 0).summary().lines, c(1, 1));
    }

    #[test]
    fn fn_with_end_line_needs_a_name() {
        let e = read_err(b"SF:a\nFN:1,5,\n");
        assert!(e.starts_with("t.info:2: FN: empty name"), "{e}");
    }

    #[test]
    fn repeated_fn_in_a_section_is_one_function() {
        let (r, _) = read_ok("SF:a\nFN:1,f\nFN:1,f\nFNDA:2,f\nend_of_record\n");
        let f = lcov(&r, 0).functions();
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].count, 2);
    }

    #[test]
    fn stray_and_repeated_end_of_record() {
        let (r, w) = read_ok("end_of_record\nSF:a\nDA:1,1\nend_of_recordend_of_record\n");
        assert_eq!(r.files.len(), 1);
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[0].starts_with("t.info:1: `end_of_record` outside"));
        assert!(w[1].starts_with("t.info:4: `end_of_record` outside"));
    }

    #[test]
    fn a_line_over_the_limit_is_an_error_naming_it() {
        // Line 2 is `DA:1,999…`, MAX_LINE + 1 bytes long.
        let mut text = b"SF:a.c\nDA:1,".to_vec();
        text.resize("SF:a.c\n".len() + MAX_LINE + 1, b'9');
        let e = read_err(&text);
        assert!(
            e.starts_with("t.info:2: the line is longer than 16777216 bytes"),
            "{}",
            clip(&e)
        );
        // The same with a byte that is not UTF-8 (the line is checked before it is decoded).
        let last = text.len() - 1;
        text[last] = 0xFF;
        let e = read_err(&text);
        assert!(
            e.starts_with("t.info:2: the line is longer than 16777216 bytes"),
            "{}",
            clip(&e)
        );
        text[last] = b'9';
        // One byte less is a line of exactly MAX_LINE bytes: read, and its count is too large.
        text.pop();
        let e = read_err(&text);
        assert!(
            e.starts_with("t.info:2: DA execution count `999"),
            "{}",
            clip(&e)
        );
        assert!(
            e.len() < 1000,
            "the message quotes a clipped field: {}",
            e.len()
        );
    }

    fn read_stream(
        input: impl std::io::Read,
    ) -> std::result::Result<(Report, Vec<String>), String> {
        read_from("t.info", std::io::BufReader::new(input)).map_err(|e| e.message().to_string())
    }

    #[test]
    fn a_stream_is_read_line_by_line_like_bytes() {
        for text in [
            "SF:a.c\nDA:1,1\nDA:2,0\nend_of_record\n",
            "\u{FEFF}SF:a.c\r\nDA:1,1\r\nend_of_record",
            "SF:a.c\nDA:1,1\n\n\nSF:b.c\nXYZ:1\n",
        ] {
            let (streamed, streamed_warnings) = read_stream(text.as_bytes()).expect(text);
            let (whole, whole_warnings) = read_ok(text);
            assert_eq!(streamed_warnings, whole_warnings, "{text:?}");
            assert_eq!(streamed.files.len(), whole.files.len(), "{text:?}");
            for (a, b) in streamed.files.iter().zip(&whole.files) {
                assert_eq!(a.path, b.path);
                assert_eq!(lcov_of(a).summary(), lcov_of(b).summary());
            }
        }
        let e = read_stream(&b"SF:a.c\nDA:1,x\n"[..])
            .map(|_| ())
            .expect_err("bad DA");
        assert!(e.starts_with("t.info:2: DA execution count `x`"), "{e}");
    }

    fn lcov_of(file: &FileData) -> &LcovFile {
        match &file.coverage {
            FileCoverage::Lcov(f) => f,
            FileCoverage::Llvm(_) => panic!("not LCOV"),
        }
    }

    #[test]
    fn an_endless_line_in_a_stream_stops_at_the_limit() {
        // `repeat` never ends: the reader must stop after MAX_LINE + 1 bytes of the line.
        let input = std::io::Read::chain(&b"SF:a.c\nDA:1,"[..], std::io::repeat(b'9'));
        let e = read_stream(input).map(|_| ()).expect_err("endless line");
        assert!(
            e.starts_with("t.info:2: the line is longer than"),
            "{}",
            clip(&e)
        );
    }

    /// Gives `good`, then fails.
    struct Failing(&'static [u8]);

    impl std::io::Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Err(std::io::Error::other("disk on fire"));
            }
            let n = self.0.len().min(buf.len());
            let (now, later) = self.0.split_at(n);
            buf[..n].copy_from_slice(now);
            self.0 = later;
            Ok(n)
        }
    }

    #[test]
    fn a_read_error_names_the_line() {
        let e = read_stream(Failing(b"SF:a.c\nDA:1,1\n"))
            .map(|_| ())
            .expect_err("read error");
        assert_eq!(e, "t.info:3: cannot read the report: disk on fire");
    }

    /// Interrupted once per read, then gives the next byte of `self.0`.
    struct Interrupting(&'static [u8], bool);

    impl std::io::Read for Interrupting {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.1 = !self.1;
            if self.1 {
                return Err(std::io::ErrorKind::Interrupted.into());
            }
            let Some((first, rest)) = self.0.split_first() else {
                return Ok(0);
            };
            buf[0] = *first;
            self.0 = rest;
            Ok(1)
        }
    }

    #[test]
    fn interrupted_reads_are_retried() {
        let (report, warnings) =
            read_stream(Interrupting(b"SF:a.c\nDA:1,1\nend_of_record\n", false)).expect("reads");
        assert_eq!(warnings, Vec::<String>::new());
        assert_eq!(lcov(&report, 0).summary().lines, c(1, 1));
    }

    #[test]
    fn a_nul_byte_in_a_path_is_an_error() {
        let e = read_err(b"SF:src/\0lib.rs\nDA:1,1\nend_of_record\n");
        assert_eq!(
            e,
            "t.info:1: SF: path \"src/\\0lib.rs\" holds a NUL byte, which no file system allows in a path"
        );
    }

    #[test]
    fn warnings_stop_at_the_limit_and_count_the_rest() {
        let mut text = String::from("SF:a.c\n");
        for i in 0..MAX_WARNINGS + 50 {
            text.push_str(&format!("XYZ{i}:1\n"));
        }
        let (report, warnings) = read_ok(&text);
        assert_eq!(warnings.len(), MAX_WARNINGS + 1);
        assert_eq!(report.warnings, warnings);
        assert_eq!(
            warnings.first().map(String::as_str),
            Some("t.info:2: unknown record type `XYZ0` skipped")
        );
        assert_eq!(
            warnings.last().map(String::as_str),
            Some("t.info: 51 more warning(s) not shown"),
            "50 unknown records and the missing end_of_record"
        );
    }

    #[test]
    fn a_line_that_is_no_record_is_an_error_and_an_unknown_record_a_warning() {
        for (line, at) in [
            ("garbage", "t.info:2: `garbage` is not an LCOV record"),
            (
                "\u{1}\u{2}:3",
                "t.info:2: `\u{1}\u{2}:3` is not an LCOV record",
            ),
            ("1DA:1,1", "t.info:2: `1DA:1,1` is not an LCOV record"),
            ("D A:1,1", "t.info:2: `D A:1,1` is not an LCOV record"),
            (":1", "t.info:2: `:1` is not an LCOV record"),
        ] {
            let e = read_err(format!("SF:a.c\n{line}\nDA:1,1\nend_of_record\n").as_bytes());
            assert!(e.starts_with(at), "{line:?}: {e}");
        }
        let (_, warnings) = read_ok("SF:a.c\nXYZ_2:whatever, it is\nDA:1,1\nend_of_record\n");
        assert_eq!(warnings, ["t.info:2: unknown record type `XYZ_2` skipped"]);
    }

    #[test]
    fn long_fields_are_clipped_in_messages() {
        let long = "7".repeat(5000);
        let e = read_err(format!("SF:a.c\nDA:{long},1\n").as_bytes());
        assert!(e.contains("… (5000 bytes)"), "{e}");
        assert!(e.len() < 600, "{e}");
        let e = read_err(format!("SF:a.c\nDA:1,{long}\n").as_bytes());
        assert!(e.contains("… (5000 bytes)") && e.len() < 600, "{e}");
        let e = read_err(format!("SF:a.c\nend_of_record{long}\n").as_bytes());
        assert!(e.contains("… (5000 bytes)") && e.len() < 600, "{e}");
        let e = read_err(format!("SF:a.c\n{long}\n").as_bytes());
        assert!(e.contains("… (5000 bytes)") && e.len() < 600, "{e}");
        let tag = "Q".repeat(5000);
        let (_, warnings) = read_ok(&format!("SF:a.c\n{tag}:1\nSF:{long}\nSF:b\n"));
        assert_eq!(warnings.len(), 4, "{warnings:?}");
        assert!(warnings.iter().all(|w| w.len() < 600), "{warnings:?}");
        let clipped = warnings
            .iter()
            .filter(|w| w.contains("… (5000 bytes)"))
            .count();
        assert_eq!(
            clipped, 2,
            "the unknown tag and the unclosed long path: {warnings:?}"
        );
    }

    /// A v0 symbol whose back-reference points into itself: rustc-demangle expands it to its
    /// 1 MB limit (found by the `lcov` fuzz target as a timeout).
    const EXPANDING: &str = "_RNCNvXNtCscpBoQPaMcWV_6semver7displayNtB3_7VersiovXNtCscpBoQPaMcWV\
                             _6semver7displayNtB3_7VersionNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmts_0B6_";

    #[test]
    fn symbols_that_expand_without_end_keep_their_mangled_name_fast() {
        assert_eq!(demangle_rust(EXPANDING), None);
        assert_eq!(function_identity(EXPANDING), EXPANDING);
        assert_eq!(
            demangle_rust("_RNvCs7zRqp3NVN0z_4tiny9perimeter").as_deref(),
            Some("tiny::perimeter")
        );
        assert_eq!(demangle_rust("perimeter"), None);
        let mut text = String::from("SF:a.rs\n");
        for line in 1..=1000 {
            text.push_str(&format!("FN:{line},{EXPANDING}\nFNDA:0,{EXPANDING}\n"));
        }
        let started = std::time::Instant::now();
        let (report, _) = read_ok(&text);
        assert_eq!(lcov(&report, 0).summary().functions, c(0, 1000));
        // A guard against the megabyte expansions (minutes without the limit), not a benchmark:
        // the bound is loose so a busy CI machine passes it.
        assert!(
            started.elapsed().as_secs_f64() < 20.0,
            "{:?}",
            started.elapsed()
        );
    }

    /// `read_in_blocks` with blocks of `size` bytes, as the messages a test compares.
    fn blocks_of(text: &[u8], size: usize) -> std::result::Result<(Report, Vec<String>), String> {
        read_in_blocks("t.info", text, size).map_err(|e| e.message().to_string())
    }

    #[test]
    fn blocks_end_after_whole_end_of_record_lines() {
        let text =
            b"SF:a\nend_of_recordX\nend_of_record\nSF:b\r\nend_of_record\r\nSF:c\nend_of_record\n";
        let pieces: Vec<&[u8]> = blocks(text, 1);
        assert_eq!(
            pieces,
            [
                &b"SF:a\nend_of_recordX\nend_of_record\n"[..],
                b"SF:b\r\nend_of_record\r\n",
                b"SF:c\nend_of_record\n"
            ]
        );
        // A block is at least `size` bytes; no line break after `from`; no empty last block.
        assert_eq!(blocks(text, 40).len(), 2);
        assert_eq!(blocks(text, text.len() + 5), [&text[..]]);
        assert_eq!(blocks(text, 0), [&text[..]]);
        assert_eq!(blocks(b"SF:a\nend_of_record", 1).len(), 1);
        assert_eq!(line_breaks(text), 7);
        assert_eq!(block_size(0), MIN_BLOCK);
    }

    #[test]
    fn blocks_read_as_one_pass_does() {
        let mut many_warnings = String::new();
        for i in 0..MAX_WARNINGS + 20 {
            many_warnings.push_str(&format!(
                "SF:w{}\nXYZ:{i}\nDA:{i},1\nend_of_record\n",
                i % 7
            ));
        }
        let texts: Vec<Vec<u8>> = vec![
            b"TN:\nSF:a\nFN:1,f\nFNDA:2,f\nDA:1,2\nBRDA:1,0,0,1\nend_of_record\nend_of_record\nSF:b\nDA:3,0\nend_of_record\nSF:a\nDA:1,1\nDA:2,0\nFN:1,f\nFNDA:1,f\nBRDA:1,0,0,-\nend_of_record\nSF:b\nDA:1,1\nSF:a\nDA:0,4".to_vec(),
            b"SF:a\nDA:1,1\nend_of_record\nSF:\xff\nDA:2,1\nend_of_record\nSF:a\nDA:1,3\nend_of_record\n".to_vec(),
            many_warnings.into_bytes(),
            b"SF:a\nDA:1,1\nend_of_record\nSF:b\nDA:x,1\nend_of_record\nSF:c\nDA:y,1\nend_of_record\n".to_vec(),
            b"SF:a\nDA:1,1\nend_of_record\nDA:1,1\nend_of_record\n".to_vec(),
        ];
        for text in &texts {
            let mut sequential = Parser::new("t.info");
            let one_pass = sequential
                .feed(1, text)
                .and_then(|_| sequential.finish())
                .map_err(|e| e.message().to_string());
            let streamed = |chunk: usize, size: usize| {
                read_chunks("t.info", &mut &text[..], chunk, size)
                    .map_err(|e| e.message().to_string())
            };
            let ways = [1, 5, 20, 64, usize::MAX].into_iter().flat_map(|size| {
                [
                    blocks_of(text, size),
                    streamed(1, size),
                    streamed(16, size),
                    streamed(100, size),
                ]
            });
            for (size, parsed) in ways.enumerate() {
                match (&one_pass, &parsed) {
                    (Ok((a, wa)), Ok((b, wb))) => {
                        assert_eq!(wa, wb, "{size}");
                        assert_eq!(a.warnings, b.warnings);
                        assert_eq!(a.has_branch_data, b.has_branch_data);
                        let paths = |r: &Report| -> Vec<String> {
                            r.files.iter().map(|f| f.path.clone()).collect()
                        };
                        assert_eq!(paths(a), paths(b), "{size}");
                        for (x, y) in a.files.iter().zip(&b.files) {
                            assert_eq!(lcov_of(x), lcov_of(y), "{size} {}", x.path);
                        }
                    }
                    (Err(a), Err(b)) => assert_eq!(a, b, "{size}"),
                    _ => panic!("{size}: {one_pass:?} vs {parsed:?}"),
                }
            }
        }
        // The merged file and the first error are those of a single pass.
        let (report, _) = blocks_of(&texts[0], 1).expect("reads");
        assert_eq!(
            lcov(&report, 0).lines().collect::<Vec<_>>(),
            [(0, 4), (1, 3), (2, 0)]
        );
        assert_eq!(lcov(&report, 0).branches()[0].taken, Some(1));
        assert_eq!(lcov(&report, 0).functions()[0].count, 3);
        let e = blocks_of(&texts[3], 1).map(|_| ()).expect_err("bad DA");
        assert!(e.starts_with("t.info:5: DA line `x`"), "{e}");
        let (_, warnings) = blocks_of(&texts[2], 1).expect("reads");
        assert_eq!(warnings.len(), MAX_WARNINGS + 1);
        assert_eq!(
            warnings[MAX_WARNINGS],
            "t.info: 20 more warning(s) not shown"
        );
    }

    #[test]
    fn fnda_names_without_fn_are_added_once_in_first_appearance_order() {
        let (report, _) = read_ok(
            "SF:a\nFNDA:1,g\nFNDA:2,g\nFNDA:0,h\nFN:1,f\nFNDA:3,f\nFNDA:1,h\nend_of_record\n",
        );
        let functions: Vec<(Option<u32>, &str, u64)> = lcov(&report, 0)
            .functions()
            .iter()
            .map(|f| (f.start, f.name.as_str(), f.count))
            .collect();
        assert_eq!(
            functions,
            [(Some(1), "f", 3), (None, "g", 3), (None, "h", 1)]
        );
    }

    #[test]
    fn lines_sort_merge_and_sum() {
        assert_eq!(
            sorted_lines(vec![(3, 1), (1, 0), (3, u64::MAX), (2, 5), (1, 0)]),
            [(1, 0), (2, 5), (3, u64::MAX)]
        );
        assert_eq!(
            merge_lines(
                vec![(1, 1), (4, 1), (6, 2)],
                vec![(2, 1), (4, 2), (7, 0), (9, 1)]
            ),
            [(1, 1), (2, 1), (4, 3), (6, 2), (7, 0), (9, 1)]
        );
        assert_eq!(merge_lines(vec![(1, 1)], vec![]), [(1, 1)]);
        assert_eq!(
            merge_lines(vec![(1, 1), (5, 0)], vec![(2, 1)]),
            [(1, 1), (2, 1), (5, 0)]
        );
        assert_eq!(merge_lines(vec![], vec![(1, 1)]), [(1, 1)]);
    }

    #[test]
    fn records_on_one_line_count_once_per_identity() {
        assert_eq!(function_identity("a::<Vec<u8>>::b::<u8>"), "a::b");
        assert_eq!(function_identity("a<b>"), "a<b>");
        let (report, _) = read_ok(
            "SF:a\nFN:3,f::<u8>\nFN:3,f::<Vec<u8>>\nFN:3,g\nFN:4,f::<u8>\nFNDA:1,f::<u8>\nend_of_record\n",
        );
        // Line 3: `f` (ran as `f::<u8>`) and `g` (never ran); line 4: `f`, ran.
        assert_eq!(lcov(&report, 0).summary().functions, c(2, 3));
    }

    #[test]
    fn files_differing_in_any_record_are_unequal() {
        let file = |text: &str| lcov(&read_ok(text).0, 0).clone();
        let base = file("SF:a\nDA:1,1\nend_of_record\n");
        assert_eq!(base, file("SF:a\nDA:1,1\nend_of_record\n"));
        for other in [
            "SF:a\nDA:1,2\nend_of_record\n",
            "SF:a\nDA:1,1\nBRDA:1,0,0,1\nend_of_record\n",
            "SF:a\nDA:1,1\nFN:1,f\nend_of_record\n",
            "SF:a\nDA:1,1\nLF:1\nend_of_record\n",
            "SF:a\nDA:1,1\nend_of_record\nSF:a\nDA:1,0\nend_of_record\n",
        ] {
            assert_ne!(base, file(other), "{other}");
        }
        // A section without records adds nothing, not even a section.
        assert_eq!(
            base,
            file("SF:a\nDA:1,1\nend_of_record\nSF:a\nend_of_record\n")
        );
    }

    /// A hasher under which every key collides.
    #[derive(Default)]
    struct Colliding;

    impl Hasher for Colliding {
        fn finish(&self) -> u64 {
            7
        }

        fn write(&mut self, _: &[u8]) {}
    }

    #[test]
    fn an_index_finds_items_whose_hashes_collide() {
        let items = ["a", "b", "c"];
        let mut index: Index<BuildHasherDefault<Colliding>> = Index::default();
        for (at, item) in items.iter().enumerate() {
            let hash = index.hash(item);
            assert_eq!(index.find(hash, &|i| items[i] == *item), None);
            index.insert(hash, at);
        }
        for (at, item) in items.iter().enumerate() {
            assert_eq!(
                index.find(index.hash(item), &|i| items[i] == *item),
                Some(at)
            );
        }
        assert_eq!(index.find(index.hash("d"), &|i| items[i] == "d"), None);
        assert_eq!(index.find(8, &|_| true), None);
        // The hash of a real index tells keys apart; `Passthrough` keeps a `u64` key as it is.
        let keys = Index::<Keys>::default();
        assert_ne!(keys.hash("a"), keys.hash("b"));
        assert_eq!(keys.hash("a"), Index::<Keys>::default().hash("a"));
        let mut hasher = Passthrough::default();
        hasher.write(&[1, 2]);
        assert_eq!(hasher.finish(), 0x0102);
        hasher.write_u64(9);
        assert_eq!(hasher.finish(), 9);
    }

    #[test]
    fn arbitrary_input_never_panics() {
        let pieces: [&[u8]; 16] = [
            b"SF:",
            b"DA:",
            b"BRDA:",
            b"FN:",
            b"FNDA:",
            b"FNL:",
            b"FNA:",
            b"LF:",
            b"end_of_record",
            b",",
            b"-",
            b"1",
            b"99999999999999999999",
            b"\n",
            b"\xFF\xFE",
            b"x",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..2000 {
            let mut input = Vec::new();
            for _ in 0..24 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let piece = pieces.get((seed % 16) as usize).copied().unwrap_or(b"");
                input.extend_from_slice(piece);
            }
            if let Ok((report, _)) = read_with_warnings("fuzz", &input) {
                for file in &report.files {
                    if let FileCoverage::Lcov(f) = &file.coverage {
                        let _ = (f.summary(), f.uncovered_lines(), f.uncovered_branches());
                        let _ = f.uncovered_functions();
                    }
                }
            }
        }
    }
}
