//! The report files by the name covgate gave them, in one sorted vector.
//!
//! A check names each file of each report ([`crate::identity`]) and then needs, per name, the
//! parts to merge, the spellings (report, path as written) to word the dropped files and the
//! idle reports, and the names alone to scope. One entry per report file, sorted by name, holds
//! all three: a name's entries are adjacent, so no map or per-name vector is built (on 189,000
//! files, those took about 40 MB and four allocations a file).

use rayon::prelude::*;

use crate::measure::Part;
use crate::paths::Location;
use crate::report::{FileCoverage, FileData, Report};

/// One report file, by the name covgate gave it. It owns the file, moved out of its report, so
/// that the judging frees each file once it is judged (see [`Reported::split_from`]).
#[derive(Debug, Clone)]
pub(crate) struct Named<'a> {
    /// The name: root-relative inside the root, absolute outside.
    pub location: Location,
    /// The report that held it.
    pub report: &'a Report,
    /// Its place in the report's files (files of one name are ordered by it).
    pub place: usize,
    /// The file as the report held it.
    pub file: FileData,
}

impl Named<'_> {
    /// True when the report names the file without a record (an LCOV `SF` section without
    /// `DA`, `BRDA`, `FN` or `FNL`: see
    /// [`LcovFile::has_records`](crate::report::lcov::LcovFile::has_records)): no evidence.
    pub(crate) fn is_empty(&self) -> bool {
        matches!(&self.file.coverage, FileCoverage::Lcov(lcov) if !lcov.has_records())
    }

    /// True when the file is an LCOV file a section of which was cut short
    /// ([`LcovFile::is_cut_short`](crate::report::lcov::LcovFile::is_cut_short)): its records
    /// are not all known.
    pub(crate) fn is_cut_short(&self) -> bool {
        matches!(&self.file.coverage, FileCoverage::Lcov(lcov) if lcov.is_cut_short())
    }

    /// The file as a part to merge.
    pub(crate) fn part(&self) -> Part<'_> {
        Part {
            report: self.report,
            coverage: &self.file.coverage,
        }
    }
}

/// Every report file by name: sorted by name, and within a name the files with records first,
/// each group in the order of the reports (and of the files in a report).
#[derive(Debug, Default)]
pub(crate) struct Reported<'a> {
    named: Vec<Named<'a>>,
}

/// The report files of one name: at least one, those with records first.
pub(crate) type Same<'s, 'a> = &'s [Named<'a>];

impl<'a> Reported<'a> {
    /// The files of `named` (any order), sorted.
    pub(crate) fn new(mut named: Vec<Named<'a>>) -> Reported<'a> {
        // In place (a stable sort takes a scratch copy of the files): the files of a name are
        // ordered by their report's place in the reports' slice, then by their own place in its
        // files, which is the order a stable sort keeps.
        let key = |n: &Named<'a>| (n.is_empty(), std::ptr::from_ref(n.report), n.place);
        named.sort_unstable_by(|a, b| {
            a.location
                .cmp(&b.location)
                .then_with(|| key(a).cmp(&key(b)))
        });
        Reported { named }
    }

    /// Every name with its files, in name order.
    pub(crate) fn files(&self) -> impl Iterator<Item = (&Location, Same<'_, 'a>)> + Clone {
        self.named
            .chunk_by(|a, b| a.location == b.location)
            .filter_map(|same| same.first().map(|first| (&first.location, same)))
    }

    /// Every name, in order, once.
    pub(crate) fn names(&self) -> impl Iterator<Item = &Location> + Clone {
        self.files().map(|(location, _)| location)
    }

    /// The files named `location`: none when no report names it.
    pub(crate) fn get(&self, location: &Location) -> Same<'_, 'a> {
        let start = self.named.partition_point(|n| n.location < *location);
        let rest = self.named.get(start..).unwrap_or_default();
        let len = rest.partition_point(|n| n.location == *location);
        rest.get(..len).unwrap_or_default()
    }

    /// True when no report file holds a record: no name is measured.
    pub(crate) fn measures_nothing(&self) -> bool {
        self.named.iter().all(Named::is_empty)
    }

    /// Every name below the root with a file with records, with its files, in name order.
    pub(crate) fn measured(&self) -> impl Iterator<Item = (&String, Same<'_, 'a>)> {
        self.files().filter_map(|(location, same)| match location {
            Location::Inside(rel) if parts(same).next().is_some() => Some((rel, same)),
            _ => None,
        })
    }

    /// The files named `rel` (below the root) or after, taken out, sorted. The room they took
    /// is given back once the files left fill at most half of it.
    pub(crate) fn split_from(&mut self, rel: &str) -> Reported<'a> {
        let before = |n: &Named<'_>| matches!(&n.location, Location::Inside(p) if p.as_str() < rel);
        let tail = self.named.split_off(self.named.partition_point(before));
        if self.named.len() <= self.named.capacity() / 2 {
            self.named.shrink_to_fit();
        }
        Reported { named: tail }
    }
}

impl Reported<'_> {
    /// Drops the files on every core. The records of an export were read on every core, and
    /// freeing memory of another thread's heap is the dearest part of freeing it: dropped on
    /// one thread, a batch's files of the failing gigabyte held the other core idle.
    pub(crate) fn free(self) {
        self.named.into_par_iter().for_each(drop);
    }
}

/// The spellings of one name's files: (report, path as written), sorted, without repeats.
pub(crate) fn spellings<'s>(same: Same<'s, '_>) -> Vec<(&'s str, &'s str)> {
    let mut spelled: Vec<(&'s str, &'s str)> = same
        .iter()
        .map(|n| (n.report.origin.as_str(), n.file.path.as_str()))
        .collect();
    spelled.sort_unstable();
    spelled.dedup();
    spelled
}

/// The files of one name with records, as parts to merge; empty when none has any.
pub(crate) fn parts<'s>(same: Same<'s, '_>) -> impl Iterator<Item = Part<'s>> + 's {
    same.iter().take_while(|n| !n.is_empty()).map(Named::part)
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    fn read(origin: &str, text: &str) -> Report {
        crate::report::read(origin, text.as_bytes()).expect("tracefile")
    }

    /// Every file of `reports` (one slice), named by its path: below the root unless it
    /// starts with `/`.
    fn by_path(reports: &[Report]) -> Reported<'_> {
        let named = reports.iter().flat_map(|report| {
            report
                .files
                .iter()
                .enumerate()
                .map(move |(place, file)| Named {
                    location: match file.path.strip_prefix('/') {
                        Some(_) => Location::Outside(file.path.clone()),
                        None => Location::Inside(file.path.clone()),
                    },
                    report,
                    place,
                    file: file.clone(),
                })
        });
        let mut named: Vec<Named<'_>> = named.collect();
        named.shrink_to_fit();
        Reported::new(named)
    }

    #[test]
    fn the_files_of_a_name_are_together_those_with_records_first() {
        let reports = [
            read("a.info", "SF:b.rs\nend_of_record\nSF:/x.rs\nDA:1,1\nend_of_record\nSF:c.rs\nDA:1,0\nend_of_record\n"),
            read("b.info", "SF:b.rs\nDA:1,1\nend_of_record\nSF:c.rs\nDA:2,1\nend_of_record\nSF:e.rs\nend_of_record\n"),
        ];
        let reported = by_path(&reports);
        let names: Vec<&str> = reported.names().map(Location::as_str).collect();
        assert_eq!(names, ["b.rs", "c.rs", "e.rs", "/x.rs"]);
        // `b.rs`: the file with records first, though its report comes second.
        let b = reported.get(&Location::Inside("b.rs".into()));
        let origins: Vec<&str> = b.iter().map(|n| n.report.origin.as_str()).collect();
        assert_eq!(origins, ["b.info", "a.info"]);
        assert_eq!(parts(b).count(), 1);
        assert_eq!(spellings(b), [("a.info", "b.rs"), ("b.info", "b.rs")]);
        // `c.rs`: both have records, in the reports' order.
        let c = reported.get(&Location::Inside("c.rs".into()));
        let origins: Vec<&str> = parts(c).map(|p| p.report.origin.as_str()).collect();
        assert_eq!(origins, ["a.info", "b.info"]);
        assert!(reported.get(&Location::Inside("d.rs".into())).is_empty());
        // Measured: below the root, with records.
        let measured: Vec<&String> = reported.measured().map(|(rel, _)| rel).collect();
        assert_eq!(measured, ["b.rs", "c.rs"]);
        assert!(!reported.measures_nothing());
        let empty = [read("e.info", "SF:e.rs\nend_of_record\n")];
        assert!(by_path(&empty).measures_nothing());
    }

    #[test]
    fn files_are_taken_from_a_name_on_and_the_rest_shrinks_when_half_empty() {
        let text: String = ["a.rs", "b.rs", "c.rs", "d.rs", "/x.rs"]
            .iter()
            .map(|p| format!("SF:{p}\nDA:1,1\nend_of_record\n"))
            .collect();
        let reports = [
            read("r.info", &text),
            read("s.info", "SF:b.rs\nDA:1,1\nend_of_record\n"),
        ];
        let mut reported = by_path(&reports);
        // Outside names sort last: taken with any tail.
        let tail = reported.split_from("d.rs");
        let names: Vec<&str> = tail.names().map(Location::as_str).collect();
        assert_eq!(names, ["d.rs", "/x.rs"]);
        assert_eq!(reported.named.len(), 4);
        assert_eq!(
            reported.named.capacity(),
            6,
            "not shrunk: more than half left"
        );
        let tail = reported.split_from("b.rs");
        assert_eq!(tail.named.len(), 3);
        assert_eq!(reported.named.capacity(), 1, "shrunk");
        assert_eq!(reported.split_from("").named.len(), 1);
        assert!(reported.named.is_empty());
    }
}
