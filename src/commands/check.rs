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

use crate::error::{Error, Result};
use crate::identity::Identity;
use crate::judge::{self, Dropped};
use crate::markers;
use crate::measure::{self, Part};
use crate::model::Metric;
use crate::outcome::{ConditionFacts, Facts, Outcome, RosterFacts, SuiteFacts, TargetFacts};
use crate::paths::{self, Location, PathCase, Remap, Resolver};
use crate::platform::{self, Platform, PlatformOptions};
use crate::policy::Policy;
use crate::report::{self, Detail, FileCoverage, Report};
use crate::roster::{self, Roster};
use crate::scope::{self, Class, Named, Reported, Scope};
use crate::walk::{self, Walked};

mod beyond;
mod stale;

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

/// What every command reads before it looks at a report: the policy, the platform of this leg
/// and which conditional entries apply on it, and the root.
#[derive(Debug, Clone)]
pub(crate) struct Setup {
    /// The policy.
    pub policy: Policy,
    /// The platform (target, cfg values, programs on PATH).
    pub platform: Platform,
    /// The root: normalised and absolute.
    pub root: String,
    /// `--remap-path-prefix` values, parsed (a relative `TO` anchored at the current folder).
    pub remaps: Vec<Remap>,
}

impl Setup {
    /// Finds and reads the policy, builds the platform and decides every condition.
    ///
    /// Errors (exit 2): no policy, a bad policy, a bad `--target` or `--cfg`, a bad
    /// `--remap-path-prefix`.
    pub(crate) fn load(opts: &CheckOptions) -> Result<Setup> {
        let policy_path = match &opts.policy {
            Some(p) => opts.cwd.join(p),
            None => Policy::find(&opts.cwd)?,
        };
        let mut policy = Policy::load(&policy_path)?;
        let path_var = std::env::var_os("PATH");
        let platform = Platform::new(
            &opts.platform,
            platform::HOST_TARGET,
            &policy.programs(),
            policy.has_when(),
            path_var.as_deref(),
            &opts.cwd,
        )?;
        policy.decide(&platform);
        let root = root_folder(opts, &policy);
        let cwd = paths::normalize(&opts.cwd.to_string_lossy());
        let remaps = opts
            .remaps
            .iter()
            .map(|r| Remap::parse(r).map(|remap| anchor(remap, &cwd)))
            .collect::<Result<Vec<_>>>()?;
        Ok(Setup {
            policy,
            platform,
            root,
            remaps,
        })
    }

    /// Verifies the `[[suite]]` roster in the cargo workspace at the root (see
    /// [`roster::verify`]).
    pub(crate) fn roster(&self) -> Result<Roster> {
        Ok(self.roster_walking(&|_| false)?.0)
    }

    /// [`Setup::roster`], with the walk of the root for its `.rs` files and the paths that
    /// satisfy `also`.
    fn roster_walking(&self, also: &dyn Fn(&str) -> bool) -> Result<(Roster, Walked)> {
        roster::verify(
            &self.policy.suites,
            &self.root,
            &self.platform.features(),
            also,
        )
    }
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

/// Sets a [`Sources`] being found to "nothing known" if finding it panics, so that the reader
/// waiting for it goes on; the panic then ends the check ([`std::thread::scope`] passes it on).
struct Unblock<'a>(&'a OnceLock<Sources>);

impl Drop for Unblock<'_> {
    fn drop(&mut self) {
        // Already set when finding the sources ended normally.
        let _ = self.0.set(Sources::default());
    }
}

/// [`check_verified`], with the sources found (or being found) in `found`.
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
    let reports = read_reports(opts, &opts.reports, detail_for(opts.reports.len(), &needed))?;
    let sources = found.wait();
    let identity = Identity::new(&root, sources.walked()).through_links(&sources.outside);
    // The reports read again, keeping every record, when their first reading kept too little.
    let mut again = Vec::new();
    let Resolved { reported, folded } =
        resolve_all(&reports, &mut again, setup, opts, &opts.reports, &identity)?;
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
    let idle = idle_reports(&reports, &scope, &reported);
    drop(unevidenced);
    // The files to measure: named below the root with records, and measured by the scope.
    let measured =
        || (reported.measured()).filter(|(rel, _)| scope.files.get(rel) == Some(&Class::Measured));
    let mut notes = sources.notes.clone();
    notes.append(&mut scope.warnings);
    let ignores = if opts.walk {
        let scanned = measured()
            .map(|(rel, _)| rel)
            .filter(|rel| sources.may_carry(rel));
        markers::scan_files(Path::new(&root), scanned, &policy.inline, &mut notes)?
    } else {
        BTreeMap::new()
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
    let (mut verdict, judged) = judge::evaluate(scope, reported, &ignores, policy, &keep)?;
    drop(ignores);
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
    notes.extend(crate::focus::apply(
        &mut verdict,
        &measured,
        &opts.files,
        &cwd,
        &root,
    )?);
    verdict.dropped = dropped;
    let mut facts = facts(setup, &reports, opts.walk, verified);
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

/// The files of `reports` (read from `names`) by name ([`resolve_parts`]); when there is one
/// report and its reading kept too little for a file it names twice
/// ([`spelled_twice_without_records`]), the report is read again into `again`, keeping every
/// record, and that is resolved instead.
///
/// Errors: as [`resolve_parts`] and [`reread`]; and no evidence: no report holds a record
/// ([`no_evidence`]).
fn resolve_all<'a>(
    reports: &'a [Report],
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
            drop(resolved);
            *again = reread(opts, names)?;
            let again: &'a Vec<Report> = again;
            resolve_parts(again, setup, opts, identity)
        }
        resolved => resolved,
    }?;
    if resolved.reported.measures_nothing() {
        return Err(no_evidence(reports));
    }
    Ok(resolved)
}

/// True when a file is named more than once (several spellings in one report: relative and
/// absolute, through a link) and a part of it lacks records the merge needs: the reader kept
/// none of its function records (an llvm-cov spelling at 100%, and nothing seemed to need
/// them), or reduced it to its verdict (an LCOV file, see
/// [`LcovFile::is_reduced`](crate::report::lcov::LcovFile::is_reduced)). (A `-summary-only`
/// export has none to keep: read again, it merges on its summaries.)
fn spelled_twice_without_records(reported: &Reported<'_>) -> bool {
    let kept_none = |part: Part<'_>| match part.coverage {
        FileCoverage::Llvm(file) => file.functions.is_none(),
        FileCoverage::Lcov(file) => file.is_reduced(),
    };
    reported
        .files()
        .any(|(_, same)| scope::parts(same).count() > 1 && scope::parts(same).any(kept_none))
}

/// The one report `names` read again keeping every record ([`spelled_twice_without_records`]).
///
/// Errors: standard input, which cannot be read twice (with what to do instead), and the errors
/// of reading.
fn reread(opts: &CheckOptions, names: &[String]) -> Result<Vec<Report>> {
    if names.iter().any(|r| r == "-") {
        return Err(Error::new(
            "<stdin>: the export names one file under two spellings, and merging them needs \
             records that reading standard input once did not keep; give the export as a file",
        ));
    }
    read_reports(opts, names, Detail::All)
}

/// What to keep of the records of `count` reports: what each file needs (see [`Detail`]) when
/// there is one; everything when there are several, since a file they both name has its
/// records pooled.
fn detail_for<'a>(count: usize, marked: &'a (dyn Fn(&str) -> bool + Sync)) -> Detail<'a> {
    if count == 1 {
        Detail::Needed(marked)
    } else {
        Detail::All
    }
}

/// What is known of the sources before the reports are read: the files an `include` glob
/// selects on disk, and those among them that mention an inline marker
/// ([`markers::mentions_markers`]). Both are empty when the root is not walked (`--no-walk`, or
/// a root that cannot be walked, which [`scope::resolve`] then reports).
#[derive(Debug, Default)]
struct Sources {
    walked: BTreeSet<String>,
    /// The links to folders outside the root that the walk did not follow ([`Walked::outside`]).
    outside: Vec<(String, std::path::PathBuf)>,
    marked: BTreeSet<String>,
    /// The walk's notes on paths it skipped ([`Walked::notes`]).
    notes: Vec<String>,
    /// True when the root was not walked: no file carries markers then.
    unwalked: bool,
    /// The length of the longest walked path, in bytes: no longer ending of a report path can
    /// be a walked file.
    longest: usize,
}

impl Sources {
    /// The sources under the root, from `walked` when the root is walked already.
    fn find(setup: &Setup, opts: &CheckOptions, walked: Option<Walked>) -> Sources {
        let root = Path::new(&setup.root);
        let included = |p: &str| setup.policy.includes(p);
        let walk = || walked.map_or_else(|| walk::walk(root, &included), Ok);
        let (walked, outside, notes) = match opts.walk.then(walk) {
            Some(Ok(mut walked)) => {
                walked.admit(&|folder| setup.policy.names_folder_above(folder));
                let notes = walked.notes();
                (walked.files, walked.outside, notes)
            }
            _ => {
                return Sources {
                    unwalked: true,
                    ..Sources::default()
                }
            }
        };
        let marked =
            markers::files_mentioning_markers(root, &walked, &setup.policy.inline.families);
        let longest = walked.iter().map(String::len).max().unwrap_or_default();
        Sources {
            walked,
            outside,
            marked,
            notes,
            unwalked: false,
            longest,
        }
    }

    /// The files the walk found; `None` when the root was not walked.
    fn walked(&self) -> Option<&BTreeSet<String>> {
        (!self.unwalked).then_some(&self.walked)
    }

    /// True when the measured file `rel` may carry markers: it mentions one, or the walk did
    /// not see it (so it was not read).
    fn may_carry(&self, rel: &String) -> bool {
        self.marked.contains(rel) || !self.walked.contains(rel)
    }

    /// True when a report file, resolved without the report's own manifest hint (which may
    /// come after its records), may be a file that carries markers: one of its path's
    /// endings is a marked file, or none of them is a walked file (then nothing is known of it).
    /// The file is resolved (by `location`) only when the root was walked: without a walk,
    /// nothing carries markers, and the names of 30,000 files are not resolved for nothing.
    fn may_mark(&self, location: &dyn Fn() -> Location) -> bool {
        if self.unwalked {
            return false;
        }
        let location = location();
        let path = location.as_str();
        // Only endings no longer than the longest walked path are looked up (a report path of
        // megabytes is not looked up once per `/`).
        let endings = std::iter::once(path)
            .chain(
                path.match_indices('/')
                    .filter_map(|(at, _)| path.get(at + 1..)),
            )
            .filter(|ending| ending.len() <= self.longest);
        let mut known = false;
        for ending in endings {
            if self.marked.contains(ending) {
                return true;
            }
            known |= self.walked.contains(ending);
        }
        !known
    }
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
    let reports = read_reports(opts, names, detail_for(names.len(), &|_| false))?;
    let identity = Identity::new(&setup.root, None);
    let mut again = Vec::new();
    // No evidence is no admission: a suite export without records, or whose files all lie
    // outside `include` (made elsewhere, without `--remap-path-prefix`), fails as `check` does.
    let resolved = resolve_all(&reports, &mut again, setup, opts, names, &identity)?;
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

fn read_reports(opts: &CheckOptions, names: &[String], detail: Detail<'_>) -> Result<Vec<Report>> {
    if names.iter().filter(|r| *r == "-").count() > 1 {
        return Err(Error::new(
            "`-` (standard input) is given more than once; stdin can be read only once",
        ));
    }
    let mut reports = names
        .iter()
        .map(|r| read_report(&opts.cwd, r, detail))
        .collect::<Result<Vec<_>>>()?;
    // Shards are one run: their order on the command line changes nothing.
    reports.sort_by(|a, b| a.origin.cmp(&b.origin));
    Ok(reports)
}

fn facts(setup: &Setup, reports: &[Report], walked: bool, verified: bool) -> Facts {
    let (policy, platform) = (&setup.policy, &setup.platform);
    Facts {
        version: env!("CARGO_PKG_VERSION").to_string(),
        target: TargetFacts {
            triple: platform.triple.clone(),
            source: if platform.from_flag {
                "--target"
            } else {
                "host"
            },
            known: platform.known(),
            cfg: platform.cfg_values(),
        },
        programs: platform
            .programs
            .iter()
            .map(|p| {
                (
                    p.name.clone(),
                    p.path.as_ref().map(|path| path.display().to_string()),
                )
            })
            .collect(),
        conditions: policy
            .excludes
            .iter()
            .filter(|exclude| exclude.activation.conditional)
            .map(|exclude| ConditionFacts {
                glob: exclude.pattern.glob.clone(),
                location: exclude.pattern.location.clone(),
                reason: exclude.reason.clone(),
                when: exclude.when.as_ref().map(|cfg| cfg.text.clone()),
                when_missing: exclude.when_missing.clone(),
                active: exclude.activation.active,
                why: exclude.activation.why.clone(),
            })
            .collect(),
        roster: (!policy.suites.is_empty()).then(|| RosterFacts {
            verified,
            suites: policy
                .suites
                .iter()
                .map(|suite| SuiteFacts {
                    name: suite.name.clone(),
                    location: suite.location.clone(),
                    reason: suite.reason.clone(),
                    filter: suite.filter.text.clone(),
                    glob: suite.glob.glob.clone(),
                    when: suite.when.as_ref().map(|cfg| cfg.text.clone()),
                    when_missing: suite.when_missing.clone(),
                    active: suite.activation.active,
                    why: suite.activation.why.clone(),
                })
                .collect(),
        }),
        policy: policy.file.display().to_string(),
        root: setup.root.clone(),
        reports: reports
            .iter()
            .map(|r| (r.origin.clone(), r.kind.describe()))
            .collect(),
        walked,
        threshold: policy.threshold,
        warnings: reports.iter().flat_map(|r| r.warnings.clone()).collect(),
    }
}

fn read_report(cwd: &Path, name: &str, detail: Detail<'_>) -> Result<Report> {
    let report = if name == "-" {
        report::read_from("<stdin>", std::io::stdin().lock(), detail)?
    } else {
        let path = cwd.join(name);
        if path.is_dir() {
            return Err(Error::new(format!(
                "{name}: is a folder, not a report; give the report file itself (an llvm-cov JSON export or an LCOV tracefile, e.g. target/coverage.json)"
            )));
        }
        report::read_file(name, &path, detail)?
    };
    let origin = &report.origin;
    if report.files.is_empty() {
        return Err(Error::new(format!(
            "{origin}: the report holds no source files ({}); an empty report proves nothing. \
             Check the producer's filters (e.g. --ignore-filename-regex) and that tests ran",
            report.kind.describe()
        )));
    }
    if report.files.iter().all(counts_nothing) {
        return Err(Error::new(format!(
            "{origin}: no file of the report counts anything ({}: every summary is 0 of 0 and \
             no function record carries one); an empty report proves nothing. Check that the \
             export was made from the test run's profiles and binaries (`cargo llvm-cov --json`)",
            report.kind.describe()
        )));
    }
    Ok(report)
}

/// True for an llvm-cov JSON file whose summary counts nothing (every pair 0 of 0). An LCOV
/// file without records is no evidence either, decided once every report is read
/// ([`no_evidence`]).
fn counts_nothing(file: &report::FileData) -> bool {
    matches!(&file.coverage, FileCoverage::Llvm(f) if f.summary == Default::default())
}

fn root_folder(opts: &CheckOptions, policy: &Policy) -> String {
    let folder = match (&opts.root, &policy.root) {
        (Some(root), _) => within(&opts.cwd, root),
        (None, Some(root)) => within(&opts.cwd.join(policy.folder()), Path::new(root)),
        (None, None) => opts.cwd.join(policy.folder()),
    };
    let spelled = folder.to_string_lossy();
    physical_root(&spelled).unwrap_or_else(|| paths::normalize(&spelled))
}

/// The root the kernel opens when `spelled` climbs out of a folder it names (`link/..` is the
/// folder above the link's target, not the folder that holds the link), as for report paths:
/// the part up to the last `..`, canonical, and the rest as spelled. `None` when it does not
/// climb, or that part does not exist.
fn physical_root(spelled: &str) -> Option<String> {
    let unified = spelled.replace('\\', "/");
    let parts: Vec<&str> = unified.split('/').collect();
    let cut = parts
        .iter()
        .rposition(|p| *p == "..")
        .map_or(0, |at| at + 1);
    let (head, tail) = parts.split_at(cut);
    paths::climbs_out(spelled)
        .then(|| std::fs::canonicalize(head.join("/")).ok())
        .flatten()
        .map(|real| paths::join(&paths::normalize(&real.to_string_lossy()), &tail.join("/")))
}

/// `path` taken relative to `base` unless it is absolute, on this system or as a Windows path
/// (`D:\\a\\p`, a root matching reports recorded on Windows, with `--no-walk`).
fn within(base: &Path, path: &Path) -> PathBuf {
    let spelled = paths::normalize(&path.to_string_lossy());
    if paths::is_absolute(&spelled) {
        PathBuf::from(spelled)
    } else {
        base.join(path)
    }
}

/// A relative `TO` is relative to the current folder, as a user typing the flag expects.
fn anchor(remap: Remap, cwd: &str) -> Remap {
    if paths::is_absolute(&remap.to) {
        remap
    } else {
        Remap {
            to: paths::join(cwd, &remap.to),
            from: remap.from,
        }
    }
}

/// The report files by the name [`Identity`] gives them (see [`Reported`]), and the
/// root-relative names that a report recorded on a case-insensitive system gives.
#[derive(Default)]
struct Resolved<'a> {
    reported: Reported<'a>,
    folded: BTreeSet<String>,
}

/// Names every file of every report, each report with its own resolver (see
/// [`Identity::resolver`]).
///
/// Errors (exit 2): a path of a report recorded on a case-insensitive system that two files on
/// disk match.
fn resolve_parts<'a>(
    reports: &'a [Report],
    setup: &Setup,
    opts: &CheckOptions,
    identity: &Identity,
) -> Result<Resolved<'a>> {
    let hints = opts.root.is_none() && setup.policy.root.is_none();
    let count = reports.iter().map(|r| r.files.len()).sum();
    // The files, and whether each one's report was recorded on a case-insensitive system.
    let (mut named, mut folds) = (Vec::with_capacity(count), Vec::with_capacity(count));
    for report in reports {
        let resolver = identity.resolver(report, &setup.remaps, opts.path_case, hints)?;
        // Named on every core; the first error in the report's order wins.
        let located = identity.locate_files(&resolver, report);
        for (file, location) in report.files.iter().zip(located) {
            let location = location.map_err(|e| {
                Error::new(format!(
                    "{}: `{}`: {}",
                    report.origin,
                    report::clip(&file.path),
                    e.message()
                ))
            })?;
            named.push(Named {
                location,
                report,
                file,
            });
            folds.push(resolver.folds());
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
    })
}

/// The names that reports give without any record (no file of the name has one: see
/// [`Named::is_empty`]), with the origins of those reports.
fn unevidenced(reported: &Reported<'_>) -> Unevidenced {
    reported
        .files()
        .filter(|(_, same)| scope::parts(same).next().is_none())
        .map(|(location, same)| {
            let origins = same.iter().map(|n| n.report.origin.clone()).collect();
            (location.clone(), origins)
        })
        .collect()
}

/// Locations that reports name without any record, with the origins of those reports.
type Unevidenced = BTreeMap<Location, Vec<String>>;

/// The error when no report holds a single record: every file was named without being measured.
fn no_evidence(reports: &[Report]) -> Error {
    let origins: Vec<&str> = reports.iter().map(|r| r.origin.as_str()).collect();
    Error::new(format!(
        "{}: no coverage record in any report: every `SF` section is empty (no `DA`, `BRDA`, \
         `FN` or `FNL`), which names files without measuring them (e.g. Bazel's \
         baseline_coverage.dat); give the report the tests wrote as well",
        origins.join(", ")
    ))
}

/// Files that `unevidenced` names and the scope measures are unmeasured (or no code, for a
/// source without instrumentable code on disk, as [`scope`] decides for files in no report): a
/// name is no evidence of coverage.
fn reclassify(scope: &mut Scope, unevidenced: &Unevidenced, root: &Path) {
    for (location, origins) in unevidenced {
        let Location::Inside(rel) = location else {
            continue;
        };
        if let Some(class @ Class::Measured) = scope.files.get_mut(rel) {
            *class = unevidenced_class(&root.join(rel), origins);
        }
    }
}

/// The class of a file in scope that reports name without records.
fn unevidenced_class(file: &Path, origins: &[String]) -> Class {
    match scope::classify_unreported(file) {
        Class::NoCode => Class::NoCode,
        _ => Class::Unmeasured(format!(
            "named by {} without any record (an `SF` section alone is no evidence)",
            origins.join(", ")
        )),
    }
}

/// A name compared without case: inside or not, and the lower-case path.
fn folded(location: &Location) -> (bool, String) {
    (
        matches!(location, Location::Inside(_)),
        location.as_str().to_lowercase(),
    )
}

/// Every report file the scope dropped (outside the root, or selected by no `include` glob),
/// once per spelling: root-relative names first, then absolute ones, each in path order.
fn dropped(outside: &BTreeMap<Location, scope::Why>, reported: &Reported<'_>) -> Vec<Dropped> {
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
/// or `include`, most often because their paths need `--remap-path-prefix`.
fn idle_reports(reports: &[Report], scope: &scope::Scope, reported: &Reported<'_>) -> Vec<String> {
    let busy: BTreeSet<&str> = reported
        .files()
        .filter(|(location, _)| !scope.outside_include.contains_key(*location))
        .flat_map(|(_, same)| same.iter().map(|n| n.report.origin.as_str()))
        .collect();
    reports
        .iter()
        .filter(|r| !busy.contains(r.origin.as_str()))
        .map(|r| {
            let example = r.files.first().map_or("", |f| f.path.as_str());
            format!(
                "{}: none of its {} file(s) is in scope (e.g. `{}`); did you forget \
                 `--remap-path-prefix FROM=TO` or `--root`?",
                r.origin,
                r.files.len(),
                report::clip(example)
            )
        })
        .collect()
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

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
