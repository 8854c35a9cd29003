//! Deciding which files are measured.
//!
//! A file is *in scope* when its root-relative path matches an `include` glob, whether a report
//! names it or it only exists on disk (found by walking the root). Each in-scope file lands in
//! exactly one class: measured (in a report, not excluded), excluded (an `[[exclude]]` covers
//! it), no code (on disk only, a `.rs` file with nothing instrumentable), or unmeasured (on disk
//! only, with code, or not parseable). Report files that match no include glob, or lie outside
//! the root, are counted as "outside include", each with why ([`Why`]), and not judged.
//!
//! A conditional `[[exclude]]` that does not apply on this leg (see [`crate::platform`]) is
//! *inactive*: it excludes nothing, so the files it names are measured like any other (or fail
//! as unmeasured), and it is never stale. Active entries, conditional or not, exclude and are
//! checked for staleness.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use crate::error::{Error, Result};
use crate::nocode::c::CSource;
use crate::nocode::{self, RustSource};
use crate::paths::{self, Location};
use crate::platform::Cfg;
use crate::policy::{Exclude, Index, Policy};
use crate::source::{self, Refused};
use crate::walk;

mod files;
mod reported;

pub(crate) use files::Files;
pub(crate) use reported::{parts, spellings, Named, Reported, Same};

/// Why an in-scope file is or is not measured. 24 bytes (texts as `Box<str>`: as `String`
/// they made every in-scope file 8 bytes larger).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Class {
    /// In a report and not excluded: judged.
    Measured,
    /// Covered by an active `[[exclude]]` entry (the first that matches), with its reason.
    Excluded(Box<str>),
    /// On disk with no instrumentable code (see [`crate::nocode`]): passes.
    NoCode,
    /// On disk, in scope, but in no report: fails. The text says why it needs coverage.
    Unmeasured(Box<str>),
}

/// [`Class::Unmeasured`] of the text `why`.
fn unmeasured(why: String) -> Class {
    Class::Unmeasured(why.into_boxed_str())
}

/// Why a report file is not in scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// It lies outside the root.
    OutsideRoot,
    /// It lies below the root, but no `include` glob selects it.
    NotIncluded,
}

impl Why {
    /// The reason as the outputs word it: `outside the root`, `not selected by include`.
    pub fn describe(self) -> &'static str {
        match self {
            Why::OutsideRoot => "outside the root",
            Why::NotIncluded => "not selected by include",
        }
    }
}

/// The scope of one check.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scope {
    /// Every in-scope file by root-relative path, with its class.
    pub files: Files,
    /// Report files that are outside the root or match no include glob, with why.
    pub outside_include: BTreeMap<Location, Why>,
    /// The in-scope files a report recorded on a case-insensitive system names: globs match
    /// them without case ([`Scope::matches`]).
    pub folded: BTreeSet<String>,
    /// Warnings for the check's outputs: each `[[exclude]]` with a `when` condition that
    /// exempts files a report measures on this leg ([`measured_exemptions`]).
    pub warnings: Vec<String>,
}

/// Classifies the report files and, when `walk` is set, the files on disk under `root` (the
/// files [`walk`] finds, or `walked` when the caller has walked the root already).
/// Only the `[[exclude]]` entries active on this leg (their `activation`) exclude files.
/// Globs match the report files in `folded` (root-relative names that a report recorded on a
/// case-insensitive system gives) without case, as that system would.
///
/// Errors (exit 2), in this order:
/// - with `walk`, the root is not a folder (checked first: a wrong root also makes the report
///   look irrelevant, and the root is the thing to fix);
/// - no report file is selected by `include` (an irrelevant report, or paths that need
///   `--root`/`--remap-path-prefix`; the message suggests a mapping when a report path ends in
///   a file on disk);
/// - with `walk`, an `include` glob that matches no in-scope file (dead: nothing on disk and
///   nothing in the reports; a glob only report files match is live), or an `[[exclude]]` glob
///   that matches no in-scope file (stale).
///
/// Without `walk` the globs are not checked, since the sources are not at hand.
///
/// Globs are matched through an [`Index`] (a file only against the globs its name and folders
/// can match), so thousands of exclusions over hundreds of thousands of files take time near
/// their sum, not their product.
pub(crate) fn resolve(
    report_files: &Reported<'_>,
    policy: &Policy,
    root: &Path,
    walk: bool,
    walked: Option<&BTreeSet<String>>,
    folded: &BTreeSet<String>,
) -> Result<Scope> {
    let included = |p: &str| policy.includes(p);
    let fold = |p: &str| folded.contains(p);
    let active = Active::of(policy);
    let includes = Index::new(policy.include.iter().collect());
    let mut scope = Scope::default();
    if walk {
        walk::folder(root)?;
    }
    // The report files in scope, borrowed, in path order (the names are in order, root-relative
    // ones first): a copy of each path is made once, for `scope.files`.
    let mut reported: Vec<&str> = Vec::with_capacity(report_files.names().count());
    for location in report_files.names() {
        match location {
            Location::Inside(rel) if includes.first(rel, fold(rel)).is_some() => reported.push(rel),
            Location::Inside(_) => {
                scope
                    .outside_include
                    .insert(location.clone(), Why::NotIncluded);
            }
            Location::Outside(_) => {
                scope
                    .outside_include
                    .insert(location.clone(), Why::OutsideRoot);
            }
        }
    }
    let on_disk = match (walk, walked) {
        (true, Some(walked)) => walked.clone(),
        // Reached when the walk before the reports were read failed (the root cannot be
        // walked): walking again reports why.
        (true, None) => walk::walk(root, &included)?.files,
        (false, _) => BTreeSet::new(),
    };
    if reported.is_empty() {
        return Err(irrelevant_report(report_files, &on_disk, policy, root));
    }
    let unreported = || {
        on_disk
            .iter()
            .map(String::as_str)
            .filter(|rel| reported.binary_search(rel).is_err())
    };
    let files = reported
        .iter()
        .map(|rel| (*rel, true))
        .chain(unreported().map(|rel| (rel, false)));
    // Made at its size and sorted in place: no second copy of the files while it is made.
    let mut classed = Vec::with_capacity(reported.len() + unreported().count());
    classed.extend(files.map(|(rel, is_reported)| {
        let class = match active.first(rel, fold(rel)) {
            Some((_, exclude)) => Class::Excluded(exclude.reason.as_str().into()),
            None if is_reported => Class::Measured,
            None => classify_unreported(&root.join(rel)),
        };
        (Box::from(rel), class)
    }));
    classed.sort_unstable_by(|a: &(Box<str>, Class), b| a.0.cmp(&b.0));
    scope.files = Files::from_sorted(classed);
    check_compiled(&reported, &active, &fold)?;
    scope.warnings = measured_exemptions(&reported, &active, &fold);
    scope.folded = reported
        .iter()
        .filter(|rel| fold(rel))
        .map(|rel| rel.to_string())
        .collect();
    if walk {
        check_globs(&scope, policy, &includes, &active, root)?;
    }
    Ok(scope)
}

/// The `[[exclude]]` entries active on this leg, in policy order, and their [`Index`].
struct Active<'p> {
    entries: Vec<&'p Exclude>,
    index: Index<'p>,
}

impl<'p> Active<'p> {
    fn of(policy: &'p Policy) -> Active<'p> {
        let entries: Vec<&Exclude> = policy
            .excludes
            .iter()
            .filter(|e| e.activation.active)
            .collect();
        let index = Index::new(entries.iter().map(|e| &e.pattern).collect());
        Active { entries, index }
    }

    /// The entries that match `rel` (without case when `fold` is set), in policy order.
    fn matching<'a>(&'a self, rel: &'a str, fold: bool) -> impl Iterator<Item = &'p Exclude> + 'a {
        self.index
            .matching(rel, fold)
            .filter_map(|at| self.entries.get(at).copied())
    }

    /// The first entry that matches `rel` (without case when `fold` is set), with its place.
    fn first(&self, rel: &str, fold: bool) -> Option<(usize, &'p Exclude)> {
        self.index
            .first(rel, fold)
            .and_then(|at| self.entries.get(at).map(|e| (at, *e)))
    }
}

fn globs(policy: &Policy) -> String {
    policy
        .include
        .iter()
        .map(|g| g.glob.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn irrelevant_report(
    report_files: &Reported<'_>,
    on_disk: &BTreeSet<String>,
    policy: &Policy,
    root: &Path,
) -> Error {
    let sample: Vec<&str> = report_files.names().take(3).map(Location::as_str).collect();
    let example = remap_example(report_files, on_disk, root)
        .map(|remap| format!(", e.g. --remap-path-prefix {remap}"))
        .unwrap_or_default();
    Error::new(format!(
        "no file in the report(s) is selected by `include` ({}) under the root {}; the report names {} file(s), e.g. {}. \
         If the report was made elsewhere, pass --root or --remap-path-prefix FROM=TO{example}",
        globs(policy),
        root.display(),
        report_files.names().count(),
        sample.join(", ")
    ))
}

/// A `--remap-path-prefix` value that would bring a report file onto a file on disk: a report
/// path (as written, normalised) that ends in an in-scope file under the root, its leading part
/// mapped to the root; never one of a file that is on disk here outside the root. Of several,
/// the leading part that ends like the root does wins (`crates/units` for the root
/// `…/ws/crates/units`), then the first.
fn remap_example(
    report_files: &Reported<'_>,
    on_disk: &BTreeSet<String>,
    root: &Path,
) -> Option<String> {
    let root = paths::normalize(&root.to_string_lossy());
    let shared_tail = |from: &str| {
        from.rsplit('/')
            .zip(root.rsplit('/'))
            .take_while(|(a, b)| a == b)
            .count()
    };
    let candidates: Vec<String> = report_files
        .files()
        // A file that is on disk here, outside the root, is another package's, not one to map
        // onto the root (a sibling member's export made elsewhere lands in that member).
        .filter(|(location, _)| !matches!(location, Location::Outside(p) if Path::new(p).is_file()))
        .flat_map(|(_, same)| spellings(same))
        .map(|(_, raw)| paths::normalize(raw))
        .filter_map(|path| {
            // Each `/` splits the path into a leading part and a file, longest file first.
            path.match_indices('/').find_map(|(at, _)| {
                let (from, rest) = path.split_at(at);
                let file = rest.get(1..).unwrap_or_default();
                (!from.is_empty() && on_disk.contains(file)).then(|| from.to_string())
            })
        })
        .collect();
    let best = candidates
        .iter()
        .enumerate()
        .max_by_key(|(at, from)| (shared_tail(from), std::cmp::Reverse(*at)))?;
    Some(format!("{}={root}", best.1))
}

/// Every glob of the policy must match an in-scope file (reported or on disk). An `include`
/// glob that matches none is dead; an active `[[exclude]]` (in `active`) whose glob
/// matches none is stale. A file that two exclusions match is excluded by the first, and neither
/// of them is stale. An inactive exclusion is never stale.
/// Refuses a report file that only exclusions whose `when` names a feature or custom cfg
/// exempt (`when = 'cfg(not(feature = "extra"))'`): the report shows the leg compiled it, so the
/// condition holds only because covgate was not given the leg's `--features` or `--cfg`, and
/// the exclusion would hide a file the leg measured. Exclusions by target predicates or
/// `when-missing` are what the leg is, and exempt measured files as unconditional ones do.
///
/// Errors (exit 2): each such file, with the exclusion and its condition.
fn check_compiled(reported: &[&str], active: &Active, fold: &dyn Fn(&str) -> bool) -> Result<()> {
    fn by_flags(e: &Exclude) -> Option<&Cfg> {
        e.when.as_ref().filter(|w| w.names_free_cfgs())
    }
    if active.entries.iter().all(|e| by_flags(e).is_none()) {
        return Ok(());
    }
    // A file that an entry without such a condition exempts is not one; else the first entry
    // that exempts it is named.
    let problems: Vec<String> = reported
        .iter()
        .filter_map(|rel| {
            let flagged: Option<Vec<(&Exclude, &Cfg)>> = active
                .matching(rel, fold(rel))
                .map(|e| by_flags(e).map(|when| (e, when)))
                .collect();
            let (e, when) = flagged?.into_iter().next()?;
            Some(format!(
                "  {rel}: the [[exclude]] at {} (`{}`)",
                e.pattern.location, when.text
            ))
        })
        .collect();
    if problems.is_empty() {
        return Ok(());
    }
    let mut lines = vec![
        "a report measures these files, so this leg compiled them, but an [[exclude]] whose \
         `when` holds only for the --features and --cfg given to covgate exempts them: give \
         covgate the leg's --features and --cfg (those given to cargo), or fix the condition:"
            .to_string(),
    ];
    lines.extend(problems);
    Err(Error::lines(lines))
}

/// A warning for each active `[[exclude]]` with a `when` target condition (`cfg(not(windows))`)
/// that exempts files a report measures: this leg compiled and ran them, so an exemption whose
/// reason is that the leg cannot ("compiled only on Windows") may have gone stale, and their
/// coverage would never be gated. Each names the exclusion, its condition and reason, and the
/// files (the first one and how many more). `when-missing` exemptions (a tool the leg lacks)
/// exempt files the leg compiles by design and are left out; feature conditions are an error
/// before this ([`check_compiled`]). Break session 14: a Linux leg's report measured a file
/// exempt as "compiled only on Windows", silently.
fn measured_exemptions(
    reported: &[&str],
    active: &Active,
    fold: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    // Per exclusion, in the order first met (by its place in `active`): the exclusion and its
    // first file; and how many more files it exempts.
    let mut exempted: Vec<(usize, &Exclude, &str)> = Vec::new();
    let mut others: HashMap<usize, usize> = HashMap::new();
    for rel in reported {
        let first = active.first(rel, fold(rel));
        let Some((at, e)) = first.filter(|(_, e)| e.when.is_some()) else {
            continue;
        };
        match others.entry(at) {
            Entry::Occupied(mut more) => *more.get_mut() += 1,
            Entry::Vacant(more) => {
                more.insert(0);
                exempted.push((at, e, rel));
            }
        }
    }
    exempted
        .into_iter()
        .map(|(at, e, first)| {
            let more = others.get(&at).copied().unwrap_or_default();
            let when = e.when.as_ref().map_or("", |w| w.text.as_str());
            let more = match more {
                0 => String::new(),
                n => format!(" and {n} more"),
            };
            format!(
                "the [[exclude]] at {} (`when = '{when}'`, reason: \"{}\") exempts {first}{more}, \
                 though a report measures it on this leg, which therefore compiled it: if the \
                 reason no longer holds, remove the exclusion (the exempt files' coverage is not \
                 gated here)",
                e.pattern.location, e.reason
            )
        })
        .collect()
}

/// For a stale `[[exclude]]` whose path is a symbolic link on disk (`src/gen.rs` → `real.rs`):
/// the name covgate gives the file instead (the link's target, root-relative, as the walk and
/// the reports meet it); empty for any other path.
fn link_hint(root: &Path, glob: &str) -> String {
    let path = root.join(glob);
    let is_link = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
    let target = is_link.then(|| std::fs::canonicalize(&path).ok()).flatten();
    match (target, std::fs::canonicalize(root)) {
        (Some(target), Ok(root)) => format!(
            " (it is a link to `{}`: covgate names a linked file by its target; exclude that path)",
            target.strip_prefix(&root).unwrap_or(&target).display()
        ),
        _ => String::new(),
    }
}

/// For a dead `include` glob that names a hidden folder (`.ci/**/*.rs`): why it selects
/// nothing though such files may exist (the walk skips hidden folders, [`walk::walk`]); empty
/// for any other glob.
fn hidden_hint(glob: &str) -> &'static str {
    let hidden = glob
        .split('/')
        .any(|part| part.starts_with('.') && part != "." && part != "..");
    if hidden {
        " (it names a hidden folder, which the walk skips: its files are measured only when a \
         report names them)"
    } else {
        ""
    }
}

/// Globs are matched without case for the files in `scope.folded`.
fn check_globs(
    scope: &Scope,
    policy: &Policy,
    includes: &Index,
    active: &Active,
    root: &Path,
) -> Result<()> {
    let files = || scope.files.keys().map(|f| (f, scope.folded.contains(f)));
    let dead: Vec<String> = policy
        .include
        .iter()
        .zip(includes.unmatched(files()))
        .filter(|(_, dead)| *dead)
        .map(|(p, _)| format!("  {}: `{}`{}", p.location, p.glob, hidden_hint(&p.glob)))
        .collect();
    let stale: Vec<String> = active
        .entries
        .iter()
        .zip(active.index.unmatched(files()))
        .filter(|(_, stale)| *stale)
        .map(|(e, _)| {
            format!(
                "  {}: `{}` ({}){}",
                e.pattern.location,
                e.pattern.glob,
                e.reason,
                link_hint(root, &e.pattern.glob)
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

/// The class of a file on disk that no report names: no code only for a Rust source of at most
/// [`source::MAX_NOCODE`] bytes that parses and holds nothing instrumentable, or a C or C++
/// source of at most [`source::MAX_SOURCE`] bytes without a function body.
pub(crate) fn classify_unreported(file: &Path) -> Class {
    let extension = file.extension().and_then(|e| e.to_str()).unwrap_or("");
    if extension == "rs" {
        classify_rust(file)
    } else if nocode::c::is_c_family(extension) {
        classify_c(file, nocode::c::unit_of(extension))
    } else {
        unmeasured(
            "in no report (covgate tells whether a file has code only for Rust, C and C++ sources)"
                .to_string(),
        )
    }
}

fn classify_rust(file: &Path) -> Class {
    let text = source::read(file, source::MAX_NOCODE).map(String::from_utf8);
    match text {
        Ok(Ok(text)) => match nocode::classify(&text) {
            RustSource::NoCode => Class::NoCode,
            RustSource::HasCode => unmeasured("in no report, but has code".to_string()),
            RustSource::Unparsable(why) => {
                unmeasured(format!("in no report, and does not parse ({why})"))
            }
        },
        Ok(Err(_)) => unmeasured(
            "in no report, and cannot be read (stream did not contain valid UTF-8)".to_string(),
        ),
        Err(why) => unreadable(why, source::MAX_NOCODE),
    }
}

fn classify_c(file: &Path, unit: nocode::c::Unit) -> Class {
    match source::read(file, source::MAX_SOURCE).map(|bytes| nocode::c::classify(&bytes, unit)) {
        Ok(CSource::NoCode) => Class::NoCode,
        Ok(CSource::HasCode(line)) => unmeasured(format!(
            "in no report, but has code (a function body at line {line})"
        )),
        Ok(CSource::MacroCall(line)) => unmeasured(format!(
            "in no report, but has code (a macro call at line {line}, which may define functions)"
        )),
        Ok(CSource::Unrecognised(line, what)) => unmeasured(format!(
            "in no report, and may have code (not recognised as a declaration at line {line}: \
             {what})"
        )),
        Ok(CSource::Unparsable(why)) => unmeasured(format!(
            "in no report, and cannot be read as C or C++ ({why})"
        )),
        Err(why) => unreadable(why, source::MAX_SOURCE),
    }
}

/// The class of an unreported file that was not read (`limit`: the size it was read up to).
fn unreadable(why: Refused, limit: u64) -> Class {
    match why {
        Refused::TooLarge(size) => unmeasured(format!(
            "in no report, and not parsed for code: {size} bytes, above the {limit} bytes covgate \
             parses (exclude it if it holds no code)"
        )),
        why => unmeasured(format!("in no report, and cannot be read ({why})")),
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;
    use crate::platform::Activation;
    use crate::report::Report;

    /// An LCOV tracefile `r` with a section of one covered line for each of `paths`.
    fn lcov(paths: &[&str]) -> Report {
        let text: String = paths
            .iter()
            .map(|p| format!("SF:{p}\nDA:1,1\nend_of_record\n"))
            .collect();
        crate::report::read("r", text.as_bytes()).expect("lcov")
    }

    /// The files of `report`, each named by `name` from its path.
    fn named<'a>(report: &'a Report, name: &dyn Fn(&str) -> Location) -> Reported<'a> {
        let files = report.files.iter().enumerate().map(|(place, file)| Named {
            location: name(&file.path),
            report,
            place,
            file: file.clone(),
        });
        Reported::new(files.collect())
    }

    /// The default include cannot be dead through the binary: a report file must match it first,
    /// or the report is irrelevant. It is checked like any written glob all the same.
    #[test]
    fn a_glob_names_a_hidden_folder_by_a_part_that_starts_with_a_dot() {
        assert!(hidden_hint(".ci/*.rs").starts_with(" (it names a hidden folder"));
        assert!(!hidden_hint("src/**/.gen/*.rs").is_empty());
        for glob in ["./src/*.rs", "../x/*.rs", "src/**/*.rs"] {
            assert_eq!(hidden_hint(glob), "", "{glob}");
        }
    }

    #[test]
    fn the_default_include_is_checked_like_a_written_one() {
        let policy = Policy::parse(Path::new("p.toml"), "").expect("the empty policy");
        let includes = Index::new(policy.include.iter().collect());
        let active = Active::of(&policy);
        let check = |scope: &Scope| check_globs(scope, &policy, &includes, &active, Path::new("."));
        let err = check(&Scope::default()).expect_err("dead");
        assert_eq!(
            err.message(),
            "dead `include` globs match no file, on disk or in the report(s); fix or remove them:\n  \
             p.toml (default include): `src/**/*.rs`"
        );
        let scope = Scope {
            files: [("src/a/b.rs".to_string(), Class::Measured)]
                .into_iter()
                .collect(),
            ..Scope::default()
        };
        assert_eq!(check(&scope), Ok(()));
    }

    #[test]
    fn unreported_files_too_large_or_unreadable_are_unmeasured() {
        let dir = tempfile::tempdir().expect("tempdir");
        let big = dir.path().join("big.rs");
        let line = "pub struct S;\n";
        std::fs::write(
            &big,
            line.repeat(source::MAX_NOCODE as usize / line.len() + 1),
        )
        .expect("big");
        let size = std::fs::metadata(&big).expect("stat").len();
        assert_eq!(
            classify_unreported(&big),
            Class::Unmeasured(
                format!(
                    "in no report, and not parsed for code: {size} bytes, above the 1048576 bytes \
                 covgate parses (exclude it if it holds no code)"
                )
                .into()
            )
        );
        let Class::Unmeasured(why) = classify_unreported(&dir.path().join("gone.rs")) else {
            panic!("a missing file is unmeasured")
        };
        assert!(
            why.starts_with("in no report, and cannot be read (No such file"),
            "{why}"
        );
        // Every other class, from the same copy of the function (self-coverage counts one).
        let write = |name: &str, text: &[u8]| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).expect("write");
            classify_unreported(&path)
        };
        assert_eq!(
            write("a.txt", b"x"),
            Class::Unmeasured(
                "in no report (covgate tells whether a file has code only for Rust, C and C++ \
                 sources)"
                    .into()
            )
        );
        assert_eq!(write("api.h", b"int f(void);\n"), Class::NoCode);
        assert_eq!(
            write("f.c", b"\nint f(void) { return 0; }\n"),
            Class::Unmeasured("in no report, but has code (a function body at line 2)".into())
        );
        assert_eq!(
            write("m.c", b"DEFINE_HANDLER(f)\n"),
            Class::Unmeasured(
                "in no report, but has code (a macro call at line 1, which may define functions)"
                    .into()
            )
        );
        assert_eq!(
            write("open.h", b"/* x"),
            Class::Unmeasured(
                "in no report, and cannot be read as C or C++ (a comment that begins on line 1 \
                 never ends)"
                    .into()
            )
        );
        let Class::Unmeasured(why) = classify_unreported(&dir.path().join("gone.c")) else {
            panic!("a missing file is unmeasured")
        };
        assert!(
            why.starts_with("in no report, and cannot be read (No such file"),
            "{why}"
        );
        assert_eq!(write("types.rs", b"pub struct S;\n"), Class::NoCode);
        assert_eq!(
            write("f.rs", b"fn f() {}\n"),
            Class::Unmeasured("in no report, but has code".into())
        );
        let Class::Unmeasured(why) = write("broken.rs", b"fn (") else {
            panic!("a broken file is unmeasured")
        };
        assert!(
            why.starts_with("in no report, and does not parse (line 1:"),
            "{why}"
        );
        assert_eq!(
            write("latin1.rs", b"// \xE9\n"),
            Class::Unmeasured(
                "in no report, and cannot be read (stream did not contain valid UTF-8)".into()
            )
        );
    }

    #[test]
    fn the_remap_example_maps_the_part_before_a_file_on_disk_to_the_root() {
        let outside = |p: &str| Location::Outside(p.to_string());
        let on_disk: BTreeSet<String> = ["src/lib.rs".to_string()].into();
        let root = Path::new("/ws/crates/units");
        // No report path ends in the file, or only without a `/` before it, or it is the whole path.
        for paths in [
            &["/ci/other.rs"][..],
            &["/ci/xsrc/lib.rs"],
            &["/src/lib.rs"],
        ] {
            let report = lcov(paths);
            assert_eq!(
                remap_example(&named(&report, &outside), &on_disk, root),
                None,
                "{paths:?}"
            );
        }
        // The leading part that ends like the root wins; else the first.
        let report = lcov(&[r"crates\app\src\lib.rs", "crates/units/src/lib.rs"]);
        assert_eq!(
            remap_example(&named(&report, &outside), &on_disk, root).as_deref(),
            Some("crates/units=/ws/crates/units")
        );
        let report = lcov(&["/ci/b/src/lib.rs", "/ci/a/src/lib.rs"]);
        assert_eq!(
            remap_example(&named(&report, &outside), &on_disk, root).as_deref(),
            Some("/ci/a=/ws/crates/units")
        );
    }

    #[test]
    fn exemptions_of_measured_files_are_warned_in_the_order_first_met() {
        let policy = Policy::parse(
            Path::new("p.toml"),
            "[[exclude]]\npath = \"src/b/*.rs\"\nreason = \"b\"\nwhen = \"cfg(unix)\"\n\
             [[exclude]]\npath = \"src/**\"\nreason = \"all\"\nwhen = \"cfg(unix)\"\n\
             [[exclude]]\npath = \"src/a/x.rs\"\nreason = \"never first\"\nwhen = \"cfg(unix)\"\n",
        )
        .expect("policy");
        let active = Active::of(&policy);
        let reported = [
            "src/a/x.rs",
            "src/b/1.rs",
            "src/b/2.rs",
            "src/c.rs",
            "src/b/3.rs",
        ];
        let warnings = measured_exemptions(&reported, &active, &|_| false);
        let heads: Vec<&str> = warnings
            .iter()
            .map(|w| w.split(", though").next().unwrap())
            .collect();
        assert_eq!(
            heads,
            [
                "the [[exclude]] at p.toml:6:8 (`when = 'cfg(unix)'`, reason: \"all\") exempts \
                 src/a/x.rs and 1 more",
                "the [[exclude]] at p.toml:2:8 (`when = 'cfg(unix)'`, reason: \"b\") exempts \
                 src/b/1.rs and 2 more",
            ]
        );
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
        let decided = |actives: &[bool]| {
            let mut policy = policy.clone();
            for (exclude, &active) in policy.excludes.iter_mut().zip(actives) {
                exclude.activation = on(active);
            }
            policy
        };
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("src")).expect("mkdir");
        std::fs::write(dir.path().join("src/win.rs"), "fn f() {}\n").expect("write");
        let report = lcov(&["src/win.rs"]);
        let reported = named(&report, &|p| Location::Inside(p.to_string()));
        // Inactive: the unconditional third entry excludes the file; the second is not stale.
        let inactive = decided(&[false, false]);
        let scope = resolve(
            &reported,
            &inactive,
            dir.path(),
            true,
            None,
            &BTreeSet::new(),
        )
        .expect("scope");
        assert_eq!(
            scope.files.get("src/win.rs"),
            Some(&Class::Excluded("all".into()))
        );
        // Active (or as parsed, undecided): the first entry excludes, the second is stale.
        let err = resolve(
            &reported,
            &decided(&[true]),
            dir.path(),
            true,
            None,
            &BTreeSet::new(),
        )
        .expect_err("stale");
        assert!(
            err.message().contains("  p.toml:6:8: `src/gone.rs` (g)"),
            "{err}"
        );
        let scope = resolve(
            &reported,
            &decided(&[true, true]),
            dir.path(),
            false,
            None,
            &BTreeSet::new(),
        )
        .expect("no walk, no staleness");
        assert_eq!(
            scope.files.get("src/win.rs"),
            Some(&Class::Excluded("w".into()))
        );
    }
}
