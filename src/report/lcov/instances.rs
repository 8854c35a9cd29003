//! Whether two llvm-cov sections of one file merge exactly: llvm-cov counts lines and branches
//! per instantiation group (the best single instantiation, or copy built into another binary,
//! of a function), while its `DA` and `BRDA` records sum the instantiations. A merge of records
//! is what `llvm-profdata merge` of the runs would give only when no function has instantiations
//! that ran apart.

use std::collections::hash_map::Entry;
use std::collections::{BTreeSet, HashMap};

use super::file::{Function, LcovFile};
use super::identity::{function_identity, llvm_only};
use super::index::{Keys, Name};

impl LcovFile {
    /// True when the file holds more than one section (of one tracefile, or of several
    /// reports merged).
    pub fn is_merged(&self) -> bool {
        self.sections > 1
    }

    /// The last line the file's records name (`DA`, `BRDA`, `FN`), and whether a section is in
    /// llvm-cov's shape (written by `llvm-cov export -format=lcov`, as `cargo llvm-cov --lcov`:
    /// its lines are the source's own); for a file reduced to its verdict, as it was read.
    /// `None` when no record names a line.
    pub fn last_line(&self) -> Option<(u32, bool)> {
        if self.reduced {
            return Some(self.as_read).filter(|(line, _)| *line > 0);
        }
        let lines = self.lines.iter().map(|(line, _)| line);
        let branches = self.branches().iter().map(|b| b.line);
        let functions = self.functions();
        let starts = functions.iter().filter_map(|f| f.start);
        let last = lines.chain(branches).chain(starts).max()?;
        Some((last, self.llvm))
    }

    /// True when `self` and `other` (sections of one file about to be merged) both ran a
    /// function (records sharing start line and identity, see `function_identity`) and, between
    /// them, more than one of its records ran: two instantiations of a generic, or two copies
    /// of a function built into different test binaries. Each section's records are then exact
    /// only per section: a merged instantiation covers what it covered in either run, and
    /// llvm-cov takes the best one, which summed `DA`/`BRDA` records cannot tell (each could
    /// have run one arm). Where only one section ran a function, or both ran the same single
    /// record, its merged records are its best instantiation's, as llvm-cov counts them.
    ///
    /// Asked (`check`) before `other` is merged into `self`, whose [`Ran`] it then grows by
    /// `other`'s records: a file's records that ran are gathered once, when a merge first asks,
    /// and each merge after looks only at the records of the part it merges (a file of many
    /// sections, each with a function of its own on one line, merges in linear time, not
    /// quadratic). Not asked (`false`), the gathered records are dropped, to be gathered again
    /// when a later merge asks. Names are demangled only on a start line where more than one
    /// name ran.
    pub(super) fn instances_apart(&mut self, other: &LcovFile, check: bool) -> bool {
        if !check {
            if let Some(extra) = self.extra.as_deref_mut() {
                extra.ran = None;
            }
            self.tidy();
            return false;
        }
        let functions = &self.functions;
        let extra = self.extra.get_or_insert_with(Box::default);
        let ran = extra
            .ran
            .get_or_insert_with(|| Box::new(Ran::of(&functions.list())));
        ran.add(&other.functions.list())
    }
}

/// The function records of a file that ran, by start line ([`LcovFile::instances_apart`]).
#[derive(Debug, Clone, Default)]
pub(super) struct Ran(HashMap<Option<u32>, Slot, Keys>);

/// The records that ran on one start line.
#[derive(Debug, Clone)]
struct Slot {
    /// The name of the first record that ran there.
    first: Name,
    /// Empty while only `first` ran there; once another name ran, per identity
    /// (`function_identity`), the first name of that identity that ran and whether another
    /// name of it ran.
    identities: HashMap<String, (Name, bool), Keys>,
}

impl Ran {
    /// The records of `functions` that ran.
    fn of(functions: &[Function]) -> Ran {
        let mut ran = Ran::default();
        ran.add(functions);
        ran
    }

    /// Adds the records of `functions` that ran; true when a function ran both here (before)
    /// and there, as more than one record between them (see [`LcovFile::instances_apart`]).
    fn add(&mut self, functions: &[Function]) -> bool {
        let mut names: Vec<(Option<u32>, &Name)> = functions
            .iter()
            .filter(|f| f.is_covered())
            .map(|f| (f.start, &f.name))
            .collect();
        names.sort_unstable();
        names.dedup();
        let mut apart = false;
        for line in names.chunk_by(|a, b| a.0 == b.0) {
            let names = line.iter().map(|(_, name)| *name);
            // The line's start and first name (`chunk_by` gives no empty chunk).
            for &(start, first) in line.iter().take(1) {
                match self.0.entry(start) {
                    Entry::Occupied(slot) => apart |= slot.into_mut().add(names.clone(), true),
                    Entry::Vacant(slot) => {
                        let slot = slot.insert(Slot {
                            first: first.clone(),
                            identities: HashMap::default(),
                        });
                        slot.add(names.clone(), false);
                    }
                }
            }
        }
        apart
    }
}

impl Slot {
    /// Adds `names` (distinct) that ran on the line; when `check`, true when a function ran
    /// here before and among `names`, as more than one name between them.
    fn add<'a>(&mut self, names: impl Iterator<Item = &'a Name> + Clone, check: bool) -> bool {
        if self.identities.is_empty() {
            if names.clone().all(|name| *name == self.first) {
                return false;
            }
            let identity = function_identity(&self.first);
            self.identities
                .insert(identity, (self.first.clone(), false));
        }
        let names: Vec<(String, &Name)> = names.map(|n| (function_identity(n), n)).collect();
        let apart = check
            && names.iter().any(|(identity, name)| {
                let before = self.identities.get(identity);
                before.is_some_and(|(first, more)| *more || first != *name)
            });
        for (identity, name) in names {
            self.identities
                .entry(identity)
                .and_modify(|(first, more)| *more |= first != name)
                .or_insert_with(|| (name.clone(), false));
        }
        apart
    }
}

impl LcovFile {
    /// For a file none of whose sections is in llvm-cov's shape: the start line and identity
    /// of a function of which more than one rustc-mangled record ran (`_R…`, or `_ZN…17h…E`, or
    /// demangled with its generic arguments, `lg::pick::<u8>`:
    /// two instantiations of a generic, or copies built into two test binaries, that a rewriter
    /// such as `lcov -a` or `lcov --remove` summed into one section); `None` when there is
    /// none, or a section is llvm-cov's (whose totals, or merge check, hold). Such records sum
    /// the instantiations, which llvm-cov counts apart (the best single one), so the file
    /// cannot be counted exactly from them. rustc's symbols come only from LLVM's coverage, and
    /// so do clang's names of `static` C functions (`a.c:pick` and `b.c:pick`: a header's
    /// `static inline` function compiled into two files, one group for llvm-cov);
    /// C++ symbols are left alone, since gcc's gcov also writes one record per template
    /// instantiation and counts the sum, as lcov does.
    pub fn summed_instantiations(&self) -> Option<(u32, String)> {
        if self.llvm {
            return None;
        }
        let functions = self.counted_functions();
        let ran = functions.iter().filter(|f| f.is_covered());
        let mut ran: Vec<(u32, &str)> = ran
            .filter_map(|f| Some((f.start?, f.name.as_str())))
            .collect();
        ran.sort_unstable();
        ran.dedup();
        ran.chunk_by(|a, b| a.0 == b.0)
            .filter(|records| records.len() > 1)
            .find_map(llvm_instances)
    }
}

/// The start line and identity of a function with two distinct records among `records`
/// (distinct records that ran on one start line) named as only LLVM's coverage names
/// functions: rustc-mangled symbols, and clang's `file:name` of a `static` C function
/// ([`clang_local`]), or as their demanglers write a Rust generic's instantiation
/// (`rustfilt`, `grcov --demangle`: `lg::pick::<u8>`, [`rust_instance`]).
fn llvm_instances(records: &[(u32, &str)]) -> Option<(u32, String)> {
    let mut seen = BTreeSet::new();
    let rust = records.iter().filter(|(_, name)| llvm_only(name));
    rust.map(|(line, name)| (*line, function_identity(name)))
        .find(|(_, identity)| !seen.insert(identity.clone()))
}

/// True when an `FNL` group's `aliases` (name, count) are not one function as the `FN` form
/// would count it: aliases of several identities (lcov 2.2 groups by location, so two closures
/// on one line share a group), or two distinct LLVM-named records of one identity that ran
/// ([`llvm_instances`]: summed instantiations, refused as in the `FN` form). Each alias is
/// then a function of its own.
pub(super) fn group_apart(aliases: &[(Name, u64)]) -> bool {
    if aliases.len() < 2 {
        return false;
    }
    let identities: BTreeSet<String> = aliases.iter().map(|(n, _)| function_identity(n)).collect();
    let mut ran: Vec<(u32, &str)> = aliases
        .iter()
        .filter(|(_, count)| *count > 0)
        .map(|(name, _)| (0, name.as_str()))
        .collect();
    ran.dedup();
    identities.len() > 1 || llvm_instances(&ran).is_some()
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use crate::model::Counts;
    use crate::report::FileCoverage;

    use super::super::LcovFile;

    /// An llvm-cov section of `pick<T>` (line 2; `if left` on line 3, arms on lines 4 and 6)
    /// with its `u8` and `u16` instantiations (`u8`, `u16`: their counts), `a` and `b` the
    /// counts of the arms, and a plain function `other` on line 10 (`other`: its count).
    /// Its declared totals are what its records count.
    fn section(u8: u64, u16: u64, a: u64, b: u64, other: u64) -> String {
        let ran = |n: u64| u64::from(n > 0);
        let pick = u8 + u16;
        let fnh = ran(pick) + ran(other);
        let lh = 2 * ran(pick) + ran(a) + ran(b) + ran(other);
        format!(
            "SF:/ws/src/lib.rs\nFN:2,_RINvCs1_6shards4pickhEB2_\nFN:2,_RINvCs1_6shards4picktEB2_\n\
             FN:10,_RNvCs1_6shards5other\nFNDA:{u8},_RINvCs1_6shards4pickhEB2_\n\
             FNDA:{u16},_RINvCs1_6shards4picktEB2_\nFNDA:{other},_RNvCs1_6shards5other\n\
             FNF:2\nFNH:{fnh}\nDA:2,{pick}\nDA:3,{pick}\nDA:4,{a}\nDA:6,{b}\nDA:10,{other}\n\
             LF:5\nLH:{lh}\nend_of_record\n"
        )
    }

    fn read(text: &str) -> LcovFile {
        let report = crate::report::read("t.info", text.as_bytes()).expect("tracefile");
        match report.files.into_iter().next().map(|f| f.coverage) {
            Some(FileCoverage::Lcov(file)) => *file,
            other => panic!("one LCOV file, not {other:?}"),
        }
    }

    /// The merge of the sections as `covgate check` merges shards, and as one tracefile of
    /// both (`cat`), with whether each conflicts.
    fn merged(a: &str, b: &str) -> (LcovFile, bool, bool) {
        let mut file = read(a);
        file.merge(read(b));
        let conflict = file.merge_conflict();
        let joined = read(&format!("{a}{b}")).merge_conflict();
        (file, conflict, joined)
    }

    #[test]
    fn instantiations_that_ran_apart_do_not_merge_on_records() {
        // One shard ran `pick::<u8>` down the `a` arm, the other `pick::<u16>` down `b`:
        // each alone is exact, their records together say 5 of 5 lines, llvm-cov over the
        // merged profiles 4 of 5 (no single instantiation ran both arms).
        let (_, conflict, joined) = merged(&section(1, 0, 1, 0, 1), &section(0, 1, 0, 1, 0));
        assert!(conflict && joined);
        // Copies of one function built into two test binaries are records of their own too.
        let copy = section(1, 0, 1, 1, 0).replace("Cs1_", "Cs2_");
        assert!(merged(&section(1, 0, 1, 0, 1), &copy).1);
    }

    #[test]
    fn a_rewritten_section_that_sums_rust_instantiations_that_ran_is_found() {
        // lcov's shape (`TN:`, `BRDA` before `DA`) of `section`, with its totals recounted.
        let rewritten = |u8: u64, u16: u64| {
            let text = section(u8, u16, 1, 1, 1);
            format!("TN:\n{text}")
        };
        // Both instantiations ran: their summed records are not llvm-cov's count.
        assert_eq!(
            read(&rewritten(1, 2)).summed_instantiations(),
            Some((2, "shards::pick".to_string()))
        );
        // One ran: the records are its own, as llvm-cov counts it.
        assert_eq!(read(&rewritten(1, 0)).summed_instantiations(), None);
        // Demangled (`rustfilt`, `grcov --demangle`: finding 6), likewise.
        let demangled = rewritten(1, 2)
            .replace("_RINvCs1_6shards4pickhEB2_", "shards::pick::<u8>")
            .replace("_RINvCs1_6shards4picktEB2_", "shards::pick::<u16>");
        assert_eq!(
            read(&demangled).summed_instantiations(),
            Some((2, "shards::pick".to_string()))
        );
        // llvm-cov's own shape keeps its declared totals.
        assert_eq!(read(&section(1, 2, 1, 1, 1)).summed_instantiations(), None);
        // Two Rust functions on one line (a macro's), and C++ template instantiations (gcc's
        // gcov counts their sum, as the records do), and a function only `FNDA` names.
        let others = "TN:\nSF:/ws/src/lib.rs\nFN:3,_RNvCs1_6shards1f\nFN:3,_RNvCs1_6shards1g\n\
             FN:5,_Z4pickIiEvT_\nFN:5,_Z4pickIdEvT_\nFNDA:1,_RNvCs1_6shards1f\n\
             FNDA:1,_RNvCs1_6shards1g\nFNDA:1,_Z4pickIiEvT_\nFNDA:1,_Z4pickIdEvT_\n\
             FNDA:1,unplaced\nFN:7,int pick<int>(int)\nFN:7,double pick<double>(double)\n\
             FNDA:1,int pick<int>(int)\nFNDA:1,double pick<double>(double)\n\
             DA:3,1\nDA:5,2\nend_of_record\n";
        assert_eq!(read(others).summed_instantiations(), None);
    }

    #[test]
    fn a_function_run_as_one_record_or_in_one_shard_merges_on_records() {
        // The same instantiation ran in both shards (test partitions of one binary): its
        // merged records are its own.
        let (file, conflict, joined) = merged(&section(1, 0, 1, 0, 0), &section(2, 0, 0, 1, 1));
        assert!(!conflict && !joined);
        assert_eq!(file.summary().lines, Some(Counts::new(5, 5)));
        assert_eq!(file.summary().functions, Some(Counts::new(2, 2)));
        // Both instantiations ran, in one shard only: that shard's records are exact.
        let (file, conflict, joined) = merged(&section(1, 1, 1, 1, 0), &section(0, 0, 0, 0, 1));
        assert!(!conflict && !joined);
        assert_eq!(file.summary().lines, Some(Counts::new(5, 5)));
        // The same tracefile twice keeps its declared totals, whatever ran.
        let same = section(1, 1, 1, 1, 1);
        let (file, conflict, _) = merged(&same, &same);
        assert!(!conflict);
        assert_eq!(file.summary().lines, Some(Counts::new(5, 5)));
        // Two functions on one line (a macro's), each run in one shard only: each is exact.
        let two = |f: u64, g: u64| {
            format!(
                "SF:/ws/src/lib.rs\nFN:3,_RNvCs1_6shards1f\nFN:3,_RNvCs1_6shards1g\n\
                 FNDA:{f},_RNvCs1_6shards1f\nFNDA:{g},_RNvCs1_6shards1g\nFNF:2\nFNH:1\n\
                 DA:3,1\nLF:1\nLH:1\nend_of_record\n"
            )
        };
        let (file, conflict, joined) = merged(&two(1, 0), &two(0, 1));
        assert!(!conflict && !joined);
        assert_eq!(file.summary().functions, Some(Counts::new(2, 2)));
        // Other writers' records are the truth: instantiations never conflict.
        let plain = |text: String| format!("TN:\n{text}");
        let (_, conflict, joined) = merged(
            &plain(section(1, 0, 1, 0, 1)),
            &plain(section(0, 1, 0, 1, 0)),
        );
        assert!(!conflict && !joined);
    }
}
