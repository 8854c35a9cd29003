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
use crate::ignore;
use crate::judge::{self, Verdict};
use crate::measure::{self, Part};
use crate::model::Metric;
use crate::paths::{self, Location, Remap, Resolver};
use crate::platform::{self, Activation, Platform, PlatformOptions};
use crate::policy::Policy;
use crate::render::{ConditionFacts, Facts, RosterFacts, SuiteFacts, TargetFacts};
use crate::report::{self, Detail, Report};
use crate::roster::{self, Roster};
use crate::scope::{self, Class};

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
}

/// The result of a check: the facts it was judged under and the verdict.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Version, policy, root, reports.
    pub facts: Facts,
    /// The verdict on every in-scope file.
    pub verdict: Verdict,
    /// The policy's metrics, in output order.
    pub metrics: Vec<Metric>,
}

/// What every command reads before it looks at a report: the policy, the platform of this leg
/// and which conditional entries apply on it, and the root.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The policy.
    pub policy: Policy,
    /// The platform (target, cfg values, programs on PATH).
    pub platform: Platform,
    /// One activation per `[[exclude]]`, in policy order.
    pub activations: Vec<Activation>,
    /// One activation per `[[suite]]`, in policy order.
    pub suite_activations: Vec<Activation>,
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
    pub fn load(opts: &CheckOptions) -> Result<Setup> {
        let policy_path = match &opts.policy {
            Some(p) => opts.cwd.join(p),
            None => Policy::find(&opts.cwd)?,
        };
        let policy = Policy::load(&policy_path)?;
        let path_var = std::env::var_os("PATH");
        let platform = Platform::new(
            &opts.platform,
            platform::HOST_TARGET,
            &policy.programs(),
            policy.has_when(),
            path_var.as_deref(),
            &opts.cwd,
        )?;
        let activations = policy
            .excludes
            .iter()
            .map(|e| platform.activation(e.when.as_ref(), &e.when_missing))
            .collect();
        let suite_activations = policy
            .suites
            .iter()
            .map(|s| platform.activation(s.when.as_ref(), &s.when_missing))
            .collect();
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
            activations,
            suite_activations,
            root,
            remaps,
        })
    }

    /// Verifies the `[[suite]]` roster in the cargo workspace at the root (see
    /// [`roster::verify`]).
    pub fn roster(&self) -> Result<Roster> {
        roster::verify(
            &self.policy.suites,
            &self.suite_activations,
            &self.root,
            &self.platform.features(),
        )
    }
}

/// Runs a check. Errors (exit 2) on any usage, policy or input problem, including a
/// `[[suite]]` roster that does not verify (checked only when the root is walked).
pub fn run(opts: &CheckOptions) -> Result<Outcome> {
    let setup = Setup::load(opts)?;
    let verified = !setup.policy.suites.is_empty() && opts.walk;
    if verified {
        if let Some(err) = setup.roster()?.error() {
            return Err(err);
        }
    }
    judge(&setup, opts, verified)
}

/// The check of `opts.reports` under `setup`, without verifying the roster; `verified` says
/// whether the caller has verified it (for the facts).
pub fn judge(setup: &Setup, opts: &CheckOptions, verified: bool) -> Result<Outcome> {
    // The sources are walked and scanned on a thread of their own while the reports are read:
    // the reader waits for them only when it decides what to keep of the function records.
    let found = OnceLock::new();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let _unblock = Unblock(&found);
            found.get_or_init(|| Sources::find(setup, opts));
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

/// [`judge`], with the sources found (or being found) in `found`.
fn judge_with(
    setup: &Setup,
    opts: &CheckOptions,
    verified: bool,
    found: &OnceLock<Sources>,
) -> Result<Outcome> {
    let policy = &setup.policy;
    let root = setup.root.clone();
    let plain = Resolver::new(&root, setup.remaps.clone(), None);
    let needed = |name: &str| found.wait().may_mark(&plain.resolve(name));
    let reports = read_reports(opts, &opts.reports, detail_for(opts.reports.len(), &needed))?;
    let sources = found.wait();
    let resolver = resolver(setup, opts, &reports);
    let parts = resolve_parts(&reports, &resolver);
    let locations: BTreeSet<Location> = parts.keys().cloned().collect();
    let scope = scope::resolve(
        &locations,
        policy,
        &setup.activations,
        Path::new(&root),
        opts.walk,
        sources.walked(),
    )?;
    let measured_parts: BTreeMap<String, Vec<Part<'_>>> = parts
        .into_iter()
        .filter_map(|(loc, parts)| match loc {
            Location::Inside(rel) if scope.files.get(&rel) == Some(&Class::Measured) => {
                Some((rel, parts))
            }
            _ => None,
        })
        .collect();
    let ignores = if opts.walk {
        let scanned = measured_parts.keys().filter(|rel| sources.may_carry(rel));
        ignore::scan_files(Path::new(&root), scanned, &policy.inline)?
    } else {
        BTreeMap::new()
    };
    let measured = measure::measure(&measured_parts, &ignores)?;
    let verdict = judge::evaluate(&scope, &measured, policy);
    let facts = facts(setup, &reports, opts.walk, verified);
    drop((measured, measured_parts));
    // Freeing every record read takes a while: a worker does it while the verdict is rendered.
    rayon::spawn(move || drop(reports));
    Ok(Outcome {
        facts,
        verdict,
        metrics: policy.metrics.clone(),
    })
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
/// ([`ignore::mentions_markers`]). Both are empty when the root is not walked (`--no-walk`, or
/// a root that cannot be walked, which [`scope::resolve`] then reports).
#[derive(Debug, Default)]
struct Sources {
    walked: BTreeSet<String>,
    marked: BTreeSet<String>,
    /// True when the root was not walked: no file carries markers then.
    unwalked: bool,
}

impl Sources {
    fn find(setup: &Setup, opts: &CheckOptions) -> Sources {
        let root = Path::new(&setup.root);
        let walked = match opts.walk.then(|| scope::walk(root, &setup.policy)) {
            Some(Ok(walked)) => walked,
            _ => {
                return Sources {
                    unwalked: true,
                    ..Sources::default()
                }
            }
        };
        let marked = ignore::files_mentioning_markers(root, &walked, &setup.policy.inline.families);
        Sources {
            walked,
            marked,
            unwalked: false,
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
    fn may_mark(&self, location: &Location) -> bool {
        if self.unwalked {
            return false;
        }
        let path = location.as_str();
        let endings = std::iter::once(path).chain(
            path.match_indices('/')
                .filter_map(|(at, _)| path.get(at + 1..)),
        );
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
/// Errors (exit 2): as for reading and merging the reports of a check.
pub fn executed(
    setup: &Setup,
    opts: &CheckOptions,
    reports: &[String],
) -> Result<BTreeSet<String>> {
    let reports = read_reports(opts, reports, detail_for(reports.len(), &|_| false))?;
    let resolver = resolver(setup, opts, &reports);
    let inside: BTreeMap<String, Vec<Part<'_>>> = resolve_parts(&reports, &resolver)
        .into_iter()
        .filter_map(|(loc, parts)| match loc {
            Location::Inside(rel) => Some((rel, parts)),
            Location::Outside(_) => None,
        })
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
    names
        .iter()
        .map(|r| read_report(&opts.cwd, r, detail))
        .collect()
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
            .zip(&setup.activations)
            .filter(|(_, activation)| activation.conditional)
            .map(|(exclude, activation)| ConditionFacts {
                glob: exclude.pattern.glob.clone(),
                location: exclude.pattern.location.clone(),
                reason: exclude.reason.clone(),
                when: exclude.when.as_ref().map(|cfg| cfg.text.clone()),
                when_missing: exclude.when_missing.clone(),
                active: activation.active,
                why: activation.why.clone(),
            })
            .collect(),
        roster: (!policy.suites.is_empty()).then(|| RosterFacts {
            verified,
            suites: policy
                .suites
                .iter()
                .zip(&setup.suite_activations)
                .map(|(suite, activation)| SuiteFacts {
                    name: suite.name.clone(),
                    location: suite.location.clone(),
                    reason: suite.reason.clone(),
                    filter: suite.filter.text.clone(),
                    glob: suite.glob.glob.clone(),
                    when: suite.when.as_ref().map(|cfg| cfg.text.clone()),
                    when_missing: suite.when_missing.clone(),
                    active: activation.active,
                    why: activation.why.clone(),
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
                "{name}: is a folder, not a report; give the export file (e.g. target/coverage.json)"
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
    Ok(report)
}

fn root_folder(opts: &CheckOptions, policy: &Policy) -> String {
    let folder = match (&opts.root, &policy.root) {
        (Some(root), _) => opts.cwd.join(root),
        (None, Some(root)) => opts.cwd.join(policy.folder()).join(root),
        (None, None) => opts.cwd.join(policy.folder()),
    };
    paths::normalize(&folder.to_string_lossy())
}

fn resolver(setup: &Setup, opts: &CheckOptions, reports: &[Report]) -> Resolver {
    let hint = (opts.root.is_none() && setup.policy.root.is_none())
        .then(|| reports.iter().find_map(|r| r.manifest_path.as_deref()))
        .flatten()
        .map(|manifest| {
            let normalized = paths::normalize(manifest);
            normalized
                .rsplit_once('/')
                .map_or(String::new(), |(dir, _)| dir.to_string())
        });
    Resolver::new(&setup.root, setup.remaps.clone(), hint)
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

fn resolve_parts<'a>(
    reports: &'a [Report],
    resolver: &Resolver,
) -> BTreeMap<Location, Vec<Part<'a>>> {
    let mut parts: BTreeMap<Location, Vec<Part<'a>>> = BTreeMap::new();
    for report in reports {
        for file in &report.files {
            parts
                .entry(resolver.resolve(&file.path))
                .or_default()
                .push(Part {
                    report,
                    coverage: &file.coverage,
                });
        }
    }
    parts
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
            marked: set(&["src/m.rs"]),
            unwalked: false,
        };
        let inside = |p: &str| Location::Inside(p.to_string());
        let outside = |p: &str| Location::Outside(p.to_string());
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
        let sources = Sources::find(&setup, &opts);
        assert_eq!(sources.walked, set(&["src/a.rs", "src/m.rs"]));
        assert_eq!(sources.marked, set(&["src/m.rs"]));
        let unwalked = Sources::find(
            &setup,
            &CheckOptions {
                walk: false,
                ..opts.clone()
            },
        );
        assert!(unwalked.unwalked);
        let mut gone = setup.clone();
        gone.root = root.join("missing").to_string_lossy().into_owned();
        assert!(Sources::find(&gone, &opts).unwalked);
    }
}
