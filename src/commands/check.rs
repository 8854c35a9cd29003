//! `covgate check`: the pipeline from report files to a verdict.
//!
//! read reports → normalise paths → scope → measure → judge. Rendering is left to the caller.
//! The platform (target, cfg values, programs on PATH) is built from the options and the
//! policy first; it decides which conditional `[[exclude]]` and `[[suite]]` entries apply, and
//! its facts head the output. A policy with a `[[suite]]` roster has it verified first (see
//! [`crate::roster`]): a roster that does not verify is a broken policy (exit 2), as a stale
//! `[[exclude]]` is. Without `[[suite]]` entries, cargo is never run.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::error::Result;
use crate::identity::Identity;
use crate::judge::{self};
use crate::markers;
use crate::measure::{self, Part};
use crate::model::Metric;
use crate::outcome::Outcome;
use crate::paths::{self, PathCase, Resolver};
use crate::platform::PlatformOptions;
use crate::policy::CoverageOff;
use crate::report::{Report, ReportKind};
use crate::scope::{self, Class};
use crate::walk::Walked;

mod beyond;
mod facts;
mod read;
mod resolve;
mod setup;
mod sources;
mod stale;

use facts::facts;
use read::{detail_for, read_reports};
use resolve::{dropped, idle_reports, reclassify, resolve_all, unevidenced, Resolved};
pub(crate) use setup::Setup;
use sources::{Sources, Unblock};

/// Inputs of a check, as given on the command line.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// Report paths; `-` is stdin.
    pub reports: Vec<String>,
    /// `--policy`, else found from `cwd` upwards.
    pub policy: Option<PathBuf>,
    /// `--root`.
    pub root: Option<PathBuf>,
    /// `--remap-path-prefix` values (`FROM=TO`).
    pub remaps: Vec<String>,
    /// False with `--no-walk`.
    pub walk: bool,
    /// The current folder (relative paths above are relative to it).
    pub cwd: PathBuf,
    /// `--target`, `--cfg`, `--features`: the platform conditional exclusions are decided for.
    pub platform: PlatformOptions,
    /// `--path-case`: how report paths are compared with the files on disk.
    pub path_case: PathCase,
    /// `--tighten`: the debt ledger is about to be tightened, so its stale entries are no error.
    pub tighten: bool,
    /// `--file`: judge and show only these files (relative to `cwd`); empty: every file.
    pub files: Vec<String>,
}

/// Runs a check. Errors (exit 2) on any usage, policy or input problem, including a
/// `[[suite]]` roster that does not verify (checked only when the root is walked).
pub fn run(opts: &CheckOptions) -> Result<Outcome> {
    let setup = Setup::load(opts)?;
    let verified = !setup.policy.suites.is_empty() && opts.walk;
    if !verified {
        return check_with_walk(&setup, opts, false, None);
    }
    // One walk for the roster's `.rs` files and the check's included files.
    let (roster, walked) = setup.roster_walking(&|p| setup.policy.includes(p))?;
    if let Some(err) = roster.error() {
        return Err(err);
    }
    let included = walked.select(&|p| setup.policy.includes(p));
    check_with_walk(&setup, opts, verified, Some(included))
}

/// The check of `opts.reports` under `setup`, without verifying the roster; `verified` says
/// whether the caller has verified it (for the facts).
pub(crate) fn check_verified(
    setup: &Setup,
    opts: &CheckOptions,
    verified: bool,
) -> Result<Outcome> {
    check_with_walk(setup, opts, verified, None)
}

/// [`check_verified`], with the root's included files when they are already walked.
fn check_with_walk(
    setup: &Setup,
    opts: &CheckOptions,
    verified: bool,
    walked: Option<Walked>,
) -> Result<Outcome> {
    // The sources are walked and scanned on a thread of their own while the reports are read:
    // the reader waits for them only when it decides what to keep of the function records.
    let found = OnceLock::new();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let _unblock = Unblock(&found);
            found.get_or_init(|| Sources::find(setup, opts, walked));
        });
        judge_with(setup, opts, verified, &found)
    })
}

/// [`check_verified`], with the sources found (or being found) in `found`.
/// Whether the binary's allocator gives memory freed while the report files are named, scoped
/// and judged back at once ([`crate::memory`]): when a report is a tracefile, whose many small
/// files' names, scope entries and verdicts outgrow what its reading held (the LCOV gigabyte of
/// 189,000 files: 92 MB peak RSS against 126 MB). An llvm-cov export peaks while it is read
/// (its windows and the records in flight): giving the pages of its records back at once only
/// cost system time (TLB shootdowns; about 50 ms of the failing gigabyte's 2.5 s, the peak the
/// same). See docs/performance.md.
fn gives_back_at_once(reports: &[Report]) -> bool {
    reports.iter().any(|r| r.kind == ReportKind::Lcov)
}

fn judge_with(
    setup: &Setup,
    opts: &CheckOptions,
    verified: bool,
    found: &OnceLock<Sources>,
) -> Result<Outcome> {
    let policy = &setup.policy;
    let root = setup.root.clone();
    let plain = Resolver::new(&root, setup.remaps.clone(), None);
    let needed = |name: &str| found.wait().may_mark(&|| plain.resolve(name));
    let mut reports = read_reports(opts, &opts.reports, detail_for(opts.reports.len(), &needed))?;
    let sources = found.wait();
    // Read and walked: the report files are named, scoped and judged, and freed as judged.
    crate::memory::give_back_at_once(gives_back_at_once(&reports));
    let identity = Identity::new(&root, sources.walked()).through_links(&sources.outside);
    // The reports read again, keeping every record, when their first reading kept too little.
    let mut again = Vec::new();
    // The report files are moved out of the reports (`read`), and freed as they are judged.
    let Resolved {
        reported,
        folded,
        reports: read,
        listed,
    } = resolve_all(
        &mut reports,
        &mut again,
        setup,
        opts,
        &opts.reports,
        &identity,
    )?;
    let unevidenced = unevidenced(&reported);
    let mut scope = scope::resolve(
        &reported,
        policy,
        Path::new(&root),
        opts.walk,
        identity.walked(),
        &folded,
    )?;
    reclassify(&mut scope, &unevidenced, Path::new(&root));
    let dropped = dropped(&scope.outside_include, &reported);
    let idle = idle_reports(read, &listed, &scope, &reported);
    drop(unevidenced);
    // The files to measure: named below the root with records, and measured by the scope.
    let measured =
        || (reported.measured()).filter(|(rel, _)| scope.files.get(rel) == Some(&Class::Measured));
    let mut notes = sources.notes.clone();
    notes.append(&mut scope.warnings);
    let markers::Found {
        ignores,
        coverage_off,
    } = if opts.walk {
        let scanned = measured()
            .map(|(rel, _)| rel)
            .filter(|rel| sources.may_carry(rel));
        markers::scan_files(Path::new(&root), scanned, &policy.inline, &mut notes)?
    } else {
        markers::Found::default()
    };
    // The files with markers are measured again without them for the stale-marker notes, and
    // every file measured and judged (the report files taken apart as they are judged).
    let stale = stale::stale_markers(measured(), &ignores);
    if opts.walk {
        notes.extend(beyond::check(measured(), Path::new(&root)));
    }
    let cwd = paths::normalize(&opts.cwd.to_string_lossy());
    let focused: Vec<String> = (opts.files.iter())
        .map(|f| crate::focus::name(f, &cwd, &root))
        .collect();
    // `[[debt]]` and `--file` list the uncovered items of their files again.
    let keep = |path: &str| policy.debt.entry(path).is_some() || focused.iter().any(|f| f == path);
    let judged = judge::evaluate(scope, reported, &ignores, &coverage_off, policy, &keep);
    crate::memory::give_back_at_once(false);
    let (mut verdict, judged) = judged?;
    drop((ignores, coverage_off));
    notes.extend(stale);
    notes.extend(crate::ungated::mcdc_note(&policy.metrics, &judged.mcdc));
    notes.extend(judged.notes);
    let measured = judged.kept;
    crate::debt::judge(
        &policy.debt,
        &mut verdict,
        &measured,
        opts.walk,
        opts.tighten,
    )?;
    if policy.inline.coverage_off == CoverageOff::Deny {
        judge::coverage_off::deny(&mut verdict);
    }
    notes.extend(crate::focus::apply(
        &mut verdict,
        &measured,
        &opts.files,
        &cwd,
        &root,
    )?);
    verdict.dropped = dropped;
    let mut facts = facts(setup, read, opts.walk, verified);
    facts.warnings.extend(notes);
    facts.warnings.extend(idle);
    drop(measured);
    // Freeing every record read takes a while: a worker does it while the verdict is rendered.
    rayon::spawn(move || drop((reports, again)));
    Ok(Outcome {
        facts,
        verdict,
        metrics: policy.metrics.clone(),
    })
}

/// The root-relative files that `reports` execute: every file with a count above zero on any
/// metric (no inline markers applied), resolved as `covgate check` resolves report paths.
/// The roster's admission check reads the roster suites' export with it.
///
/// Errors (exit 2): as for reading and merging the reports of a check, and as a check's for
/// reports that are no evidence: no record in any report, or no report file selected by
/// `include` (paths of another machine: `--remap-path-prefix`).
pub(crate) fn executed(
    setup: &Setup,
    opts: &CheckOptions,
    reports: &[String],
) -> Result<BTreeSet<String>> {
    let names = reports;
    let mut reports = read_reports(opts, names, detail_for(names.len(), &|_| false))?;
    let identity = Identity::new(&setup.root, None);
    let mut again = Vec::new();
    // No evidence is no admission: a suite export without records, or whose files all lie
    // outside `include` (made elsewhere, without `--remap-path-prefix`), fails as `check` does.
    let resolved = resolve_all(&mut reports, &mut again, setup, opts, names, &identity)?;
    let root = Path::new(&setup.root);
    scope::resolve(
        &resolved.reported,
        &setup.policy,
        root,
        false,
        None,
        &resolved.folded,
    )?;
    let inside: BTreeMap<String, Vec<Part<'_>>> = (resolved.reported.measured())
        .map(|(rel, same)| (rel.clone(), scope::parts(same).collect()))
        .collect();
    let measured = measure::measure(&inside, &BTreeMap::new())?;
    Ok(measured
        .into_iter()
        .filter(|(_, m)| {
            Metric::ALL
                .iter()
                .any(|&metric| m.summary.get(metric).is_some_and(|c| c.covered > 0))
        })
        .map(|(path, _)| path)
        .collect())
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;
    use crate::paths::Location;

    fn set(paths: &[&str]) -> BTreeSet<String> {
        paths.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn report_files_may_carry_markers_unless_the_walk_knows_better() {
        let sources = Sources {
            walked: set(&["src/a.rs", "src/m.rs"]),
            outside: Vec::new(),
            marked: set(&["src/m.rs"]),
            notes: Vec::new(),
            unwalked: false,
            longest: "src/a.rs".len(),
        };
        let inside = |p: &'static str| move || Location::Inside(p.to_string());
        let outside = |p: &'static str| move || Location::Outside(p.to_string());
        assert!(sources.may_mark(&inside("src/m.rs")));
        assert!(!sources.may_mark(&inside("src/a.rs")));
        // Resolved later through the export's manifest hint: an ending is the file.
        assert!(sources.may_mark(&outside("/ci/ws/src/m.rs")));
        assert!(!sources.may_mark(&outside("/ci/ws/src/a.rs")));
        // Not seen by the walk: nothing is known, so its records are kept.
        assert!(sources.may_mark(&outside("/ci/ws/src/new.rs")));
        assert!(sources.may_carry(&"src/m.rs".to_string()));
        assert!(!sources.may_carry(&"src/a.rs".to_string()));
        assert!(sources.may_carry(&"src/hidden.rs".to_string()));
        assert_eq!(sources.walked(), Some(&sources.walked));
        let unwalked = Sources {
            unwalked: true,
            ..Sources::default()
        };
        assert!(!unwalked.may_mark(&inside("src/m.rs")));
        assert_eq!(unwalked.walked(), None);
    }

    #[test]
    fn executed_files_are_named_as_a_check_names_them() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("src")).expect("mkdir");
        std::fs::write(root.join("coverage-policy.toml"), "").expect("policy");
        for (name, text) in [
            ("src/Ran.rs", "fn r() {}\n"),
            ("src/idle.rs", "fn i() {}\n"),
            ("ran.info", "SF:C:\\ci\\src\\ran.rs\nDA:1,1\nend_of_record\nSF:src/idle.rs\nDA:1,0\nend_of_record\nSF:/usr/x.rs\nDA:1,1\nend_of_record\n"),
            ("twice.info", "SF:src/idle.rs\nDA:1,1\nend_of_record\n"),
            ("twice.json", r#"{"type":"llvm.coverage.json.export","version":"2.0.1","data":[{"files":[{"filename":"src/idle.rs","summary":{"lines":{"count":1,"covered":1},"functions":{"count":1,"covered":1},"instantiations":{"count":1,"covered":1},"regions":{"count":1,"covered":1}}}]}]}"#),
        ] {
            std::fs::write(root.join(name), text).expect("write");
        }
        let opts = CheckOptions {
            walk: true,
            cwd: root.to_path_buf(),
            remaps: vec![format!("C:/ci={}", root.display())],
            ..CheckOptions::default()
        };
        let setup = Setup::load(&opts).expect("setup");
        let run = |reports: &[&str]| {
            let reports: Vec<String> = reports.iter().map(|r| r.to_string()).collect();
            executed(&setup, &opts, &reports).map_err(|e| e.message().to_string())
        };
        // The Windows path takes the disk's spelling; a file that never ran, or lies outside
        // the root, is not listed.
        assert_eq!(run(&["ran.info"]), Ok(set(&["src/Ran.rs"])));
        let e = run(&["missing.info"]).expect_err("missing");
        assert!(e.starts_with("missing.info: cannot read the report"), "{e}");
        let e = run(&["twice.info", "twice.json"]).expect_err("both formats");
        assert!(
            e.contains("named by both LCOV and llvm-cov JSON reports"),
            "{e}"
        );
        std::fs::write(root.join("src/ran.rs"), "fn r() {}\n").expect("write");
        let e = run(&["ran.info"]).expect_err("ambiguous");
        assert!(e.contains("differ from it only by case"), "{e}");
    }

    #[test]
    fn several_reports_keep_every_record() {
        let none = |_: &str| false;
        assert_eq!(format!("{:?}", detail_for(1, &none)), "Detail::Needed(..)");
        assert_eq!(format!("{:?}", detail_for(2, &none)), "Detail::All");
    }

    #[test]
    fn sources_are_walked_and_scanned_before_the_reports_are_read() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("src")).expect("mkdir");
        std::fs::write(
            root.join("coverage-policy.toml"),
            "[measure]\ninclude = [\"src/**/*.rs\"]\n",
        )
        .expect("policy");
        std::fs::write(root.join("src/a.rs"), "fn a() {}\n").expect("a");
        std::fs::write(
            root.join("src/m.rs"),
            "fn m() {} // covgate:ignore -- why\n",
        )
        .expect("m");
        let opts = CheckOptions {
            walk: true,
            cwd: root.to_path_buf(),
            ..CheckOptions::default()
        };
        let setup = Setup::load(&opts).expect("setup");
        let sources = Sources::find(&setup, &opts, None);
        assert_eq!(sources.walked, set(&["src/a.rs", "src/m.rs"]));
        assert_eq!(sources.marked, set(&["src/m.rs"]));
        let unwalked = Sources::find(
            &setup,
            &CheckOptions {
                walk: false,
                ..opts.clone()
            },
            None,
        );
        assert!(unwalked.unwalked);
        let mut gone = setup.clone();
        gone.root = root.join("missing").to_string_lossy().into_owned();
        assert!(Sources::find(&gone, &opts, None).unwalked);
    }
}
