//! Deciding which files are measured.
//!
//! A file is *in scope* when its root-relative path matches an `include` glob, whether a report
//! names it or it only exists on disk (found by walking the root). Each in-scope file lands in
//! exactly one class: measured (in a report, not excluded), excluded (an `[[exclude]]` covers
//! it), no code (on disk only, a `.rs` file with nothing instrumentable), or unmeasured (on disk
//! only, with code, or not parseable). Report files that match no include glob, or lie outside
//! the root, are counted as "outside include" and not judged.
//!
//! A conditional `[[exclude]]` that does not apply on this leg (see [`crate::platform`]) is
//! *inactive*: it excludes nothing, so the files it names are measured like any other (or fail
//! as unmeasured), and it is never stale. Active entries, conditional or not, exclude and are
//! checked for staleness.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use walkdir::{DirEntry, WalkDir};

use crate::error::{Error, Result};
use crate::nocode::{self, RustSource};
use crate::paths::{self, Location};
use crate::platform::Activation;
use crate::policy::{Pattern, Policy};

/// Why an in-scope file is or is not measured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Class {
    /// In a report and not excluded: judged.
    Measured,
    /// Covered by the `[[exclude]]` entry with this index in the policy.
    Excluded(usize),
    /// On disk with no instrumentable code (see [`crate::nocode`]): passes.
    NoCode,
    /// On disk, in scope, but in no report: fails. The text says why it needs coverage.
    Unmeasured(String),
}

/// The scope of one check.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// Every in-scope file by root-relative path, with its class.
    pub files: BTreeMap<String, Class>,
    /// Report files that are outside the root or match no include glob (display paths).
    pub outside_include: BTreeSet<String>,
    /// True when the root was walked for files no report mentions.
    pub walked: bool,
    /// Indices of the `[[exclude]]` entries that are inactive on this leg, in policy order.
    pub inactive: Vec<usize>,
}

/// Classifies the report files and, when `walk` is set, the files on disk under `root` (the
/// files [`walk`] finds, or `walked` when the caller has walked the root already).
/// `activations` holds one entry per `[[exclude]]` of the policy, in order (an entry without
/// one is taken as active); only active entries exclude files.
///
/// Errors (exit 2), in this order:
/// - with `walk`, the root is not a folder (checked first: a wrong root also makes the report
///   look irrelevant, and the root is the thing to fix);
/// - no report file is selected by `include` (an irrelevant report, or paths that need
///   `--root`/`--remap-path-prefix`);
/// - with `walk`, `include` matches nothing on disk;
/// - with `walk`, an `include` glob that matches no in-scope file (dead: nothing on disk or in
///   the reports), or an `[[exclude]]` glob that matches no in-scope file (stale).
///
/// Without `walk` the globs are not checked, since the sources are not at hand.
pub fn resolve(
    report_files: &BTreeSet<Location>,
    policy: &Policy,
    activations: &[Activation],
    root: &Path,
    walk: bool,
    walked: Option<&BTreeSet<String>>,
) -> Result<Scope> {
    let included = |p: &str| policy.include.iter().any(|g| g.is_match(p));
    let active = active_excludes(policy, activations);
    let mut scope = Scope {
        walked: walk,
        inactive: (0..policy.excludes.len())
            .filter(|i| !active.contains(i))
            .collect(),
        ..Scope::default()
    };
    if walk && !root.is_dir() {
        return Err(Error::new(format!(
            "the root {} is not a folder; fix `root` in the policy or --root",
            root.display()
        )));
    }
    let mut reported = BTreeSet::new();
    for location in report_files {
        match location {
            Location::Inside(rel) if included(rel) => {
                reported.insert(rel.clone());
            }
            other => {
                scope.outside_include.insert(other.as_str().to_string());
            }
        }
    }
    if reported.is_empty() {
        return Err(irrelevant_report(report_files, policy, root));
    }
    let on_disk = match (walk, walked) {
        (true, Some(walked)) => walked.clone(),
        (true, None) => walk_root(root, &included)?,
        (false, _) => BTreeSet::new(),
    };
    if walk && on_disk.is_empty() {
        return Err(Error::new(format!(
            "{}: `include` ({}) matches no file under the root {}; fix the globs or `root`",
            policy.file.display(),
            globs(policy),
            root.display()
        )));
    }
    for rel in reported.iter().chain(on_disk.difference(&reported)) {
        let excluded = active.iter().copied().find(|&i| {
            policy
                .excludes
                .get(i)
                .is_some_and(|e| e.pattern.is_match(rel))
        });
        let class = match excluded {
            Some(index) => Class::Excluded(index),
            None if reported.contains(rel) => Class::Measured,
            None => classify_unreported(&root.join(rel)),
        };
        scope.files.insert(rel.clone(), class);
    }
    if walk {
        check_globs(&scope, policy, &active)?;
    }
    Ok(scope)
}

/// Indices of the `[[exclude]]` entries that apply: those whose activation is active or absent.
fn active_excludes(policy: &Policy, activations: &[Activation]) -> Vec<usize> {
    (0..policy.excludes.len())
        .filter(|&i| activations.get(i).is_none_or(|a| a.active))
        .collect()
}

fn globs(policy: &Policy) -> String {
    policy
        .include
        .iter()
        .map(|g| g.glob.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn irrelevant_report(report_files: &BTreeSet<Location>, policy: &Policy, root: &Path) -> Error {
    let sample: Vec<&str> = report_files.iter().take(3).map(Location::as_str).collect();
    Error::new(format!(
        "no file in the report(s) is selected by `include` ({}) under the root {}; the report names {} file(s), e.g. {}. \
         If the report was made elsewhere, pass --root or --remap-path-prefix FROM=TO",
        globs(policy),
        root.display(),
        report_files.len(),
        sample.join(", ")
    ))
}

/// Every glob of the policy must match an in-scope file (reported or on disk). An `include`
/// glob that matches none is dead; an active `[[exclude]]` (index in `active`) whose glob
/// matches none is stale. A file that two exclusions match is excluded by the first, and neither
/// of them is stale. An inactive exclusion is never stale.
fn check_globs(scope: &Scope, policy: &Policy, active: &[usize]) -> Result<()> {
    let matches_a_file = |pattern: &Pattern| scope.files.keys().any(|f| pattern.is_match(f));
    let dead: Vec<String> = policy
        .include
        .iter()
        .filter(|p| !matches_a_file(p))
        .map(|p| format!("  {}: `{}`", p.location, p.glob))
        .collect();
    let stale: Vec<String> = active
        .iter()
        .filter_map(|&i| policy.excludes.get(i))
        .filter(|e| !matches_a_file(&e.pattern))
        .map(|e| {
            format!(
                "  {}: `{}` ({})",
                e.pattern.location, e.pattern.glob, e.reason
            )
        })
        .collect();
    let mut problems = Vec::new();
    if !dead.is_empty() {
        problems.push(
            "dead `include` globs match no file, on disk or in the report(s); fix or remove them:"
                .to_string(),
        );
        problems.extend(dead);
    }
    if !stale.is_empty() {
        problems.push(
            "stale [[exclude]] entries match no in-scope file; remove them or fix their globs:"
                .to_string(),
        );
        problems.extend(stale);
    }
    if problems.is_empty() {
        return Ok(());
    }
    Err(Error::lines(problems))
}

fn classify_unreported(file: &Path) -> Class {
    let is_rust = file.extension().is_some_and(|e| e == "rs");
    if !is_rust {
        return Class::Unmeasured("in no report".to_string());
    }
    match std::fs::read_to_string(file).map(|text| nocode::classify(&text)) {
        Ok(RustSource::NoCode) => Class::NoCode,
        Ok(RustSource::HasCode) => Class::Unmeasured("in no report, but has code".to_string()),
        Ok(RustSource::Unparsable(why)) => {
            Class::Unmeasured(format!("in no report, and does not parse ({why})"))
        }
        Err(e) => Class::Unmeasured(format!("in no report, and cannot be read ({e})")),
    }
}

/// Walks `root` for files whose relative path satisfies `included`, skipping hidden folders,
/// `target/` at the root and any folder holding a `CACHEDIR.TAG` (cargo's build folders).
/// The caller has checked that `root` is a folder.
/// The files under `root` that an `include` glob of `policy` selects, root-relative and
/// `/`-separated, as [`resolve`] walks them (hidden folders, `target/` at the top and folders
/// holding a `CACHEDIR.TAG` are skipped; links to folders are not followed).
///
/// Errors: an entry that cannot be read while walking.
pub fn walk(root: &Path, policy: &Policy) -> Result<BTreeSet<String>> {
    walk_root(root, &|p| policy.include.iter().any(|g| g.is_match(p)))
}

fn walk_root(root: &Path, included: &dyn Fn(&str) -> bool) -> Result<BTreeSet<String>> {
    let mut found = BTreeSet::new();
    let walker = WalkDir::new(root)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !skipped(e));
    for entry in walker {
        let entry = entry.map_err(|e| Error::new(format!("walking {}: {e}", root.display())))?;
        // A symbolic link to a file is a source file too (skipping it would pass it unseen);
        // links to folders are not followed, so a link loop ends at once.
        let is_file = entry.file_type().is_file() || entry.path().is_file();
        if !is_file {
            continue;
        }
        let rel = entry.path().strip_prefix(root).unwrap_or(entry.path());
        let rel = paths::normalize(&rel.to_string_lossy());
        if included(&rel) {
            found.insert(rel);
        }
    }
    Ok(found)
}

fn skipped(entry: &DirEntry) -> bool {
    let is_dir = entry.file_type().is_dir();
    let name = entry.file_name().to_string_lossy();
    is_dir
        && (name.starts_with('.')
            || (entry.depth() == 1 && name == "target")
            || entry.path().join("CACHEDIR.TAG").exists())
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    /// The default include cannot be dead through the binary: a report file must match it first,
    /// or the report is irrelevant. It is checked like any written glob all the same.
    #[test]
    fn the_default_include_is_checked_like_a_written_one() {
        let policy = Policy::parse(Path::new("p.toml"), "").expect("the empty policy");
        let err = check_globs(&Scope::default(), &policy, &[]).expect_err("dead");
        assert_eq!(
            err.message(),
            "dead `include` globs match no file, on disk or in the report(s); fix or remove them:\n  \
             p.toml (default include): `src/**/*.rs`"
        );
        let mut scope = Scope::default();
        scope
            .files
            .insert("src/a/b.rs".to_string(), Class::Measured);
        assert_eq!(check_globs(&scope, &policy, &[]), Ok(()));
    }

    #[test]
    fn inactive_exclusions_exclude_nothing_and_are_never_stale() {
        let policy = Policy::parse(
            Path::new("p.toml"),
            "[[exclude]]\npath = \"src/win.rs\"\nreason = \"w\"\nwhen = \"cfg(windows)\"\n\
             [[exclude]]\npath = \"src/gone.rs\"\nreason = \"g\"\nwhen = \"cfg(windows)\"\n\
             [[exclude]]\npath = \"src/*.rs\"\nreason = \"all\"\n",
        )
        .expect("policy");
        let on = |active: bool| Activation {
            conditional: true,
            active,
            why: String::new(),
        };
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("src")).expect("mkdir");
        std::fs::write(dir.path().join("src/win.rs"), "fn f() {}\n").expect("write");
        let reported: BTreeSet<Location> = [Location::Inside("src/win.rs".to_string())].into();
        // Inactive: the unconditional third entry excludes the file; the second is not stale.
        let scope = resolve(
            &reported,
            &policy,
            &[on(false), on(false)],
            dir.path(),
            true,
            None,
        )
        .expect("scope");
        assert_eq!(scope.files["src/win.rs"], Class::Excluded(2));
        assert_eq!(scope.inactive, vec![0, 1]);
        // Active (or without an activation): the first entry excludes, the second is stale.
        let err =
            resolve(&reported, &policy, &[on(true)], dir.path(), true, None).expect_err("stale");
        assert!(
            err.message().contains("  p.toml:6:8: `src/gone.rs` (g)"),
            "{err}"
        );
        let scope = resolve(
            &reported,
            &policy,
            &[on(true), on(true)],
            dir.path(),
            false,
            None,
        )
        .expect("no walk, no staleness");
        assert_eq!(scope.files["src/win.rs"], Class::Excluded(0));
        assert!(scope.inactive.is_empty());
    }
}
