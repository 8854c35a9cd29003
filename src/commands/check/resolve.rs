//! Naming every file of every report (remaps, anchoring, the file's identity), and what the
//! names say: reports that are no evidence, files that no report measures, report files left
//! out of scope.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::read::reread;
use super::setup::Setup;
use super::CheckOptions;
use crate::error::{Error, Result};
use crate::identity::Identity;
use crate::judge::Dropped;
use crate::measure::Part;
use crate::paths::{self, Location};
use crate::report::{self, FileCoverage, FileData, Report};
use crate::scope::{self, Class, Named, Reported, Scope};

/// The files of `reports` (read from `names`) by name ([`resolve_parts`]), moved out of them;
/// when there is one report and its reading kept too little for a file it names twice
/// ([`spelled_twice_without_records`]), the report is read again into `again`, keeping every
/// record, and that is resolved instead (with `reports` and its files' [`Listed`] still given as
/// the reports read).
///
/// Errors: as [`resolve_parts`] and [`reread`]; and no evidence: no report holds a record
/// ([`no_evidence`]).
pub(super) fn resolve_all<'a>(
    reports: &'a mut [Report],
    again: &'a mut Vec<Report>,
    setup: &Setup,
    opts: &CheckOptions,
    names: &[String],
    identity: &Identity,
) -> Result<Resolved<'a>> {
    let resolved = match resolve_parts(reports, setup, opts, identity) {
        // Rare: one report names one file twice, and a spelling kept too few records (none
        // seemed needed), which its merge needs.
        Ok(resolved) if names.len() == 1 && spelled_twice_without_records(&resolved.reported) => {
            let Resolved {
                reports, listed, ..
            } = resolved;
            *again = reread(opts, names)?;
            let again: &'a mut Vec<Report> = again;
            resolve_parts(again, setup, opts, identity).map(|resolved| Resolved {
                reports,
                listed,
                ..resolved
            })
        }
        resolved => resolved,
    }?;
    if resolved.reported.measures_nothing() {
        return Err(no_evidence(resolved.reports));
    }
    Ok(resolved)
}

/// True when a file is named more than once (several spellings in one report: relative and
/// absolute, through a link) and a part of it lacks records the merge needs: the reader kept
/// none of its function records (an llvm-cov spelling at 100%, and nothing seemed to need
/// them), or reduced it to its verdict (an LCOV file, see
/// [`LcovFile::is_reduced`](crate::report::lcov::LcovFile::is_reduced)). (A `-summary-only`
/// export has none to keep: read again, it merges on its summaries.)
pub(super) fn spelled_twice_without_records(reported: &Reported<'_>) -> bool {
    let kept_none = |part: Part<'_>| match part.coverage {
        FileCoverage::Llvm(file) => file.functions.is_none(),
        FileCoverage::Lcov(file) => file.is_reduced(),
    };
    reported
        .files()
        .any(|(_, same)| scope::parts(same).count() > 1 && scope::parts(same).any(kept_none))
}

/// The report files by the name [`Identity`] gives them (see [`Reported`]), and the
/// root-relative names that a report recorded on a case-insensitive system gives.
pub(super) struct Resolved<'a> {
    pub(super) reported: Reported<'a>,
    pub(super) folded: BTreeSet<String>,
    /// The reports read, their files moved out into `reported`.
    pub(super) reports: &'a [Report],
    /// What each report listed (for [`idle_reports`]), in the order of `reports`.
    pub(super) listed: Vec<Listed>,
}

/// How many files a report listed, and the path of its first one (empty without files).
pub(super) struct Listed {
    files: usize,
    first: String,
}

impl Listed {
    fn of(report: &Report) -> Listed {
        let first = report.files.first().map_or("", |f| f.path.as_str());
        Listed {
            files: report.files.len(),
            first: first.to_string(),
        }
    }
}

/// Names every file of every report, each report with its own resolver (see
/// [`Identity::resolver`]), and moves the files out of the reports into the names.
///
/// Errors (exit 2): a path of a report recorded on a case-insensitive system that two files on
/// disk match.
fn resolve_parts<'a>(
    reports: &'a mut [Report],
    setup: &Setup,
    opts: &CheckOptions,
    identity: &Identity,
) -> Result<Resolved<'a>> {
    let hints = opts.root.is_none() && setup.policy.root.is_none();
    // Every file's name, and whether its report was recorded on a case-insensitive system.
    let mut located = Vec::with_capacity(reports.len());
    for report in reports.iter() {
        let resolver = identity.resolver(report, &setup.remaps, opts.path_case, hints)?;
        // Named on every core; the first error in the report's order wins.
        let names = identity.locate_files(&resolver, report);
        let names = report.files.iter().zip(names).map(|(file, location)| {
            location.map_err(|e| {
                Error::new(format!(
                    "{}: `{}`: {}",
                    report.origin,
                    report::clip(&file.path),
                    e.message()
                ))
            })
        });
        located.push((names.collect::<Result<Vec<Location>>>()?, resolver.folds()));
    }
    identity.forget_lookups();
    let listed = reports.iter().map(Listed::of).collect();
    let files: Vec<Vec<FileData>> = (reports.iter_mut())
        .map(|report| std::mem::take(&mut report.files))
        .collect();
    let reports: &'a [Report] = reports;
    let count = files.iter().map(Vec::len).sum();
    let (mut named, mut folds) = (Vec::with_capacity(count), Vec::with_capacity(count));
    for ((report, files), (locations, folding)) in reports.iter().zip(files).zip(located) {
        for (place, (file, location)) in files.into_iter().zip(locations).enumerate() {
            named.push(Named {
                location,
                report,
                place,
                file,
            });
            folds.push(folding);
        }
    }
    // Names from case-insensitive reports that differ only by case (files not on disk, which
    // have no on-disk spelling to take) are one file, under the spelling that sorts last (lower
    // case sorts after upper case), whatever the order of the reports.
    let mut last: BTreeMap<(bool, String), Location> = BTreeMap::new();
    for (file, _) in named.iter().zip(&folds).filter(|(_, folds)| **folds) {
        let kept = last
            .entry(folded(&file.location))
            .or_insert_with(|| file.location.clone());
        *kept = (&*kept).max(&file.location).clone();
    }
    let mut folded_names = BTreeSet::new();
    for (file, _) in named.iter_mut().zip(&folds).filter(|(_, folds)| **folds) {
        let spelled = last.get(&folded(&file.location)).unwrap_or(&file.location);
        file.location = spelled.clone();
        if let Location::Inside(rel) = &file.location {
            folded_names.insert(rel.clone());
        }
    }
    Ok(Resolved {
        reported: Reported::new(named),
        folded: folded_names,
        reports,
        listed,
    })
}

/// The names that reports give without any record (no file of the name has one: see
/// [`Named::is_empty`]), with the origins of those reports.
pub(super) fn unevidenced(reported: &Reported<'_>) -> Unevidenced {
    reported
        .files()
        .filter(|(_, same)| {
            scope::parts(same).next().is_none() || same.iter().any(Named::is_cut_short)
        })
        .map(|(location, same)| {
            let cut: Vec<&Named<'_>> = same.iter().filter(|n| n.is_cut_short()).collect();
            let is_cut = !cut.is_empty();
            let named = if is_cut { cut } else { same.iter().collect() };
            let origins = named.iter().map(|n| n.report.origin.clone()).collect();
            (location.clone(), (origins, is_cut))
        })
        .collect()
}

/// Locations that reports name without any record, or with a section cut short, with the
/// origins of those reports (of those that cut it short, if any did) and whether one did.
type Unevidenced = BTreeMap<Location, (Vec<String>, bool)>;

/// The error when no report holds a single record: every file was named without being measured.
pub(super) fn no_evidence(reports: &[Report]) -> Error {
    let origins: Vec<&str> = reports.iter().map(|r| r.origin.as_str()).collect();
    Error::new(format!(
        "{}: no coverage record in any report: every `SF` section is empty (no `DA`, `BRDA`, \
         `FN` or `FNL`) or cut short (no `end_of_record`: its records are dropped), which names \
         files without measuring them (e.g. Bazel's baseline_coverage.dat); give the report \
         the tests wrote as well, whole",
        origins.join(", ")
    ))
}

/// Files that `unevidenced` names and the scope measures are unmeasured (or no code, for a
/// source without instrumentable code on disk, as [`scope`] decides for files in no report): a
/// name is no evidence of coverage.
pub(super) fn reclassify(scope: &mut Scope, unevidenced: &Unevidenced, root: &Path) {
    for (location, (origins, cut)) in unevidenced {
        let Location::Inside(rel) = location else {
            continue;
        };
        if let Some(class @ Class::Measured) = scope.files.get_mut(rel) {
            *class = unevidenced_class(&root.join(rel), origins, *cut);
        }
    }
}

/// The class of a file in scope that reports name without records.
fn unevidenced_class(file: &Path, origins: &[String], cut: bool) -> Class {
    if cut {
        return Class::Unmeasured(
            format!(
                "a section of it in {} is cut short (no `end_of_record`), so its records are not \
                 all known: produce the tracefile again, whole",
                origins.join(", ")
            )
            .into(),
        );
    }
    match scope::classify_unreported(file) {
        Class::NoCode => Class::NoCode,
        _ => Class::Unmeasured(
            format!(
                "named by {} without any record (an `SF` section alone is no evidence)",
                origins.join(", ")
            )
            .into(),
        ),
    }
}

/// A name compared without case: inside or not, and the path as [`paths::folded`] folds it.
pub(super) fn folded(location: &Location) -> (bool, String) {
    (
        matches!(location, Location::Inside(_)),
        paths::folded(location.as_str()),
    )
}

/// Every report file the scope dropped (outside the root, or selected by no `include` glob),
/// once per spelling: root-relative names first, then absolute ones, each in path order.
pub(super) fn dropped(
    outside: &BTreeMap<Location, scope::Why>,
    reported: &Reported<'_>,
) -> Vec<Dropped> {
    outside
        .iter()
        .flat_map(|(location, why)| {
            scope::spellings(reported.get(location))
                .into_iter()
                .map(move |(report, path)| Dropped {
                    report: report.to_string(),
                    path: path.to_string(),
                    name: location.as_str().to_string(),
                    why: *why,
                })
        })
        .collect()
}

/// A warning for each report that gives no in-scope file: its files are all outside the root
/// or `include`, most often because their paths need `--remap-path-prefix`. `listed` says what
/// each of `reports` listed.
pub(super) fn idle_reports(
    reports: &[Report],
    listed: &[Listed],
    scope: &scope::Scope,
    reported: &Reported<'_>,
) -> Vec<String> {
    let busy: BTreeSet<&str> = reported
        .files()
        .filter(|(location, _)| !scope.outside_include.contains_key(*location))
        .flat_map(|(_, same)| same.iter().map(|n| n.report.origin.as_str()))
        .collect();
    reports
        .iter()
        .zip(listed)
        .filter(|(r, _)| !busy.contains(r.origin.as_str()))
        .map(|(r, listed)| {
            format!(
                "{}: none of its {} file(s) is in scope (e.g. `{}`); did you forget \
                 `--remap-path-prefix FROM=TO` or `--root`?",
                r.origin,
                listed.files,
                report::clip(&listed.first)
            )
        })
        .collect()
}
