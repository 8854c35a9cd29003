//! The policy file (`coverage-policy.toml`): its schema, defaults and validation.
//!
//! Every error names the policy file, line and column. Unknown keys are errors, so a typo never
//! silently weakens the gate. An `[[exclude]]` may carry conditions (`when`, `when-missing`);
//! whether they hold on a CI leg is decided by [`crate::platform`]. `[[suite]]` entries form the
//! exempt-suite roster (test suites left out of the instrumented run, see [`crate::roster`]);
//! they take the same conditions.

use std::ops::Range;
use std::path::{Path, PathBuf};

use globset::GlobMatcher;
use toml::Spanned;

use crate::error::{Error, Result};
use crate::model::{Metric, Threshold};
use crate::platform::{Activation, Cfg, Platform};
use crate::source;

pub mod debt;
pub mod filter;
mod index;
mod locate;
mod program;
mod raw;
mod validate;

use filter::Filter;
pub(crate) use index::Index;
pub(crate) use locate::line_col;
use locate::{located, toml_error};
use raw::RawPolicy;
use validate::{allow_empty, compile, compile_all, excludes, inline, metrics, suites, threshold};

/// The default policy file name, looked up in the current folder and its ancestors.
pub(crate) const POLICY_FILE_NAME: &str = "coverage-policy.toml";

/// The include globs used when `[measure] include` is absent.
pub(crate) const DEFAULT_INCLUDE: &str = "src/**/*.rs";

/// A validated policy.
#[derive(Debug, Clone)]
pub struct Policy {
    /// The policy file it was read from (as given or found).
    pub file: PathBuf,
    /// The `root` key, as written (relative to the policy's folder), if present.
    pub root: Option<String>,
    /// `[measure] include`: files (relative to the root) that are in scope.
    pub include: Vec<Pattern>,
    /// `[measure] metrics`, in covgate's fixed order, without duplicates.
    pub metrics: Vec<Metric>,
    /// `[measure] threshold`: percent in 0–100 that every measured file must reach on each metric.
    pub threshold: Threshold,
    /// `[measure] allow-empty = true` with its `allow-empty-reason`: the reason, when a check in
    /// which every in-scope file is excluded or has no code may pass. `None` (the default):
    /// such a check fails, since it measured nothing.
    pub allow_empty: Option<String>,
    /// `[[exclude]]` entries, in file order.
    pub excludes: Vec<Exclude>,
    /// `[inline]`: which marker families are honoured, and whether covgate markers need reasons.
    pub inline: Inline,
    /// `[[suite]]` entries (the exempt-suite roster), in file order; empty when there are none.
    pub suites: Vec<Suite>,
    /// The debt ledger (`[[debt]]` entries, here or in the file `debt = "…"` names; see
    /// [`crate::debt`]). After [`Policy::parse`] a named file is still to be read
    /// ([`debt::Ledger::load`]); [`Policy::load`] reads it.
    pub debt: debt::Ledger,
}

/// A marker family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// covgate's own markers (`covgate:ignore…`), which carry a reason.
    Covgate,
    /// lcov's `LCOV_EXCL_*` markers.
    Lcov,
    /// grcov's `grcov-excl-*` markers.
    Grcov,
}

impl Family {
    /// All families, in policy order.
    pub const ALL: [Family; 3] = [Family::Covgate, Family::Lcov, Family::Grcov];

    /// The policy name: `covgate`, `lcov`, `grcov`.
    pub fn name(self) -> &'static str {
        match self {
            Family::Covgate => "covgate",
            Family::Lcov => "lcov",
            Family::Grcov => "grcov",
        }
    }

    /// Parses a policy name.
    pub(crate) fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// The `[inline]` section: inline ignore markers in source (see [`crate::markers`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inline {
    /// `markers`: the families honoured (default: all of `covgate`, `lcov`, `grcov`).
    pub families: Vec<Family>,
    /// `require-reason` (default true): a covgate marker without `-- reason` is an error.
    pub require_reason: bool,
    /// `coverage-off` (default `count`): what Rust's `coverage(off)` outside test code does.
    pub coverage_off: CoverageOff,
}

/// What Rust's `coverage(off)` attribute outside test code does to a file (`[inline]
/// coverage-off`). Either way each one is counted and shown (see [`crate::markers::OffItem`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CoverageOff {
    /// `count` (the default): shown, the file's verdict unchanged.
    #[default]
    Count,
    /// `deny`: the file fails, with the attributes' lines and the fix.
    Deny,
}

impl CoverageOff {
    /// The policy names, in order.
    pub(crate) const NAMES: [&'static str; 2] = ["count", "deny"];

    /// Parses a policy name.
    pub(crate) fn from_name(name: &str) -> Option<CoverageOff> {
        match name {
            "count" => Some(CoverageOff::Count),
            "deny" => Some(CoverageOff::Deny),
            _ => None,
        }
    }
}

/// A compiled glob with the text it came from. `*` and `?` never match `/`; `**` does.
#[derive(Debug, Clone)]
pub struct Pattern {
    /// The glob as written.
    pub glob: String,
    /// Where it is written: `file:line:col`.
    pub location: String,
    matcher: Matchers,
}

/// A glob compiled twice: to match as written, and to match without case.
#[derive(Debug, Clone)]
struct Matchers {
    exact: GlobMatcher,
    folded: GlobMatcher,
}

impl Pattern {
    /// True when the root-relative, `/`-separated `path` matches.
    pub fn is_match(&self, path: &str) -> bool {
        self.matcher.exact.is_match(path)
    }

    /// The glob as compiled: as written, normalised as report paths are (`\\` a separator,
    /// no `./` or repeated `/`).
    pub(crate) fn compiled(&self) -> &str {
        self.matcher.exact.glob().glob()
    }

    /// True when `path` matches, ignoring case when `fold` is set: for a path a report recorded
    /// on a case-insensitive system names (see [`crate::paths::PathCase`]), where `Src/A.rs`
    /// is the file `src/a.rs` names.
    pub fn matches(&self, path: &str, fold: bool) -> bool {
        if fold {
            self.matcher.folded.is_match(path)
        } else {
            self.is_match(path)
        }
    }
}

/// One `[[exclude]]` entry: files that are in scope but not measured, with the reason why.
///
/// With conditions, the entry applies only on a CI leg where all of them hold (see
/// [`crate::platform`]); elsewhere it is inactive: it excludes nothing and is never stale.
#[derive(Debug, Clone)]
pub struct Exclude {
    /// The files it covers.
    pub pattern: Pattern,
    /// Why (non-empty).
    pub reason: String,
    /// `when = "cfg(...)"`: applies only where this cfg holds. Never one that can hold on no
    /// known target.
    pub when: Option<Cfg>,
    /// `when-missing = ["pwsh", ...]`: applies only while at least one of these programs is not
    /// found on PATH. Empty when absent; never empty when written.
    pub when_missing: Vec<String>,
    /// Whether it applies on this leg: [`Activation::always`] as parsed, decided for a platform
    /// by [`Policy::decide`].
    pub activation: Activation,
}

/// One `[[suite]]` entry of the exempt-suite roster: a test suite left out of the instrumented
/// run that still runs plainly beside it (see [`crate::roster`]).
///
/// With conditions, the entry applies only on a CI leg where all of them hold; elsewhere it is
/// inactive: the suite runs in the instrumented run like any other.
#[derive(Debug, Clone)]
pub struct Suite {
    /// `name`: unique and non-empty.
    pub name: String,
    /// Where the entry's `name` is written: `file:line:col`.
    pub location: String,
    /// `filter`: cargo's target selection (`-p PKG --test NAME ...`), parsed.
    pub filter: Filter,
    /// `glob`: the suite's test files, relative to the root.
    pub glob: Pattern,
    /// `reason` (non-empty).
    pub reason: String,
    /// `when`, as for an `[[exclude]]`.
    pub when: Option<Cfg>,
    /// `when-missing`, as for an `[[exclude]]`: empty when absent; never empty when written.
    pub when_missing: Vec<String>,
    /// Whether it applies on this leg, as for an `[[exclude]]`.
    pub activation: Activation,
}

impl Policy {
    /// Decides on `platform` whether each `[[exclude]]` and `[[suite]]` applies (its
    /// `activation`).
    pub fn decide(&mut self, platform: &Platform) {
        for exclude in &mut self.excludes {
            exclude.activation = platform.activation(exclude.when.as_ref(), &exclude.when_missing);
        }
        for suite in &mut self.suites {
            suite.activation = platform.activation(suite.when.as_ref(), &suite.when_missing);
        }
        self.debt.decide(platform);
    }

    /// True when the root-relative folder `folder` lies below a folder that an `include` glob
    /// names literally: `src/extra` for `src/**/*.rs` (its part before the first wildcard),
    /// never for `**/*.rs`. The walk skips hidden and cache folders, but not there: a folder
    /// the policy names is the project's, whatever a change puts in it.
    pub fn names_folder_above(&self, folder: &str) -> bool {
        self.include.iter().any(|pattern| {
            let literal: Vec<&str> = pattern
                .glob
                .split('/')
                .take_while(|part| !part.contains(['*', '?', '[', '{']))
                .collect();
            // The last literal part names a file unless a wildcard part follows it.
            let whole = literal.len() == pattern.glob.split('/').count();
            let folders = literal
                .get(..literal.len() - usize::from(whole))
                .unwrap_or_default();
            !folders.is_empty() && folder.starts_with(&format!("{}/", folders.join("/")))
        })
    }

    /// True when an `include` glob selects the root-relative path `rel`.
    pub fn includes(&self, rel: &str) -> bool {
        self.selects(rel, false)
    }

    /// True when an `include` glob selects `rel`, ignoring case when `fold` is set (see
    /// [`Pattern::matches`]).
    pub fn selects(&self, rel: &str, fold: bool) -> bool {
        self.include.iter().any(|g| g.matches(rel, fold))
    }

    /// The folder that `root` is relative to (the policy file's folder).
    pub fn folder(&self) -> PathBuf {
        self.file.parent().unwrap_or(Path::new(".")).to_path_buf()
    }

    /// Parses and validates policy text; `file` names it in errors.
    ///
    /// Errors: TOML syntax, unknown keys, wrong types, a bad glob, an unknown or repeated metric,
    /// a threshold outside 0–100, an empty reason, `allow-empty = true` without
    /// `allow-empty-reason` (or a reason without it), a `when` that does not parse or can hold on
    /// no known target, an empty `when-missing` or program name — each with line and column.
    pub fn parse(file: &Path, text: &str) -> Result<Policy> {
        let shown = file.display().to_string();
        let raw: RawPolicy = toml::from_str(text).map_err(|e| toml_error(&shown, text, &e))?;
        let here = |span: Range<usize>, msg: String| located(&shown, text, span, msg);
        let include = match raw.measure.include {
            Some(globs) if globs.get_ref().is_empty() => {
                return Err(here(
                    globs.span(),
                    "`[measure] include` is empty; list the source files to measure, e.g. include = [\"src/**/*.rs\"]"
                        .to_string(),
                ))
            }
            Some(globs) => compile_all(globs.get_ref(), &here)?,
            None => vec![Pattern {
                glob: DEFAULT_INCLUDE.to_string(),
                location: format!("{shown} (default include)"),
                // A constant glob, not input: it compiles on every call or on none, and the
                // tests of a policy without `include` call it. An error path here could never run.
                #[allow(clippy::expect_used)]
                matcher: compile(DEFAULT_INCLUDE).expect("the default include is a valid glob"),
            }],
        };
        let metrics = metrics(raw.measure.metrics, &here)?;
        Ok(Policy {
            file: file.to_path_buf(),
            root: raw.root.map(Spanned::into_inner),
            include,
            debt: debt::Ledger::in_policy(file, text, raw.debt, &metrics)?,
            metrics,
            threshold: threshold(raw.measure.threshold, &here)?,
            allow_empty: allow_empty(
                raw.measure.allow_empty,
                raw.measure.allow_empty_reason,
                &here,
            )?,
            excludes: excludes(raw.exclude, &here)?,
            inline: inline(raw.inline, &here)?,
            suites: suites(raw.suite, &here)?,
        })
    }

    /// Every program named by a `when-missing` (of an `[[exclude]]` or a `[[suite]]`), sorted,
    /// without duplicates.
    pub fn programs(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .excludes
            .iter()
            .flat_map(|e| e.when_missing.iter().cloned())
            .chain(
                self.suites
                    .iter()
                    .flat_map(|s| s.when_missing.iter().cloned()),
            )
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// True when an `[[exclude]]` or a `[[suite]]` has a `when` (the target's cfg values are
    /// then needed).
    pub(crate) fn has_when(&self) -> bool {
        self.excludes.iter().any(|e| e.when.is_some())
            || self.suites.iter().any(|s| s.when.is_some())
            || self.debt.entries.iter().any(|e| e.when.is_some())
    }

    /// Reads and parses the policy at `path`.
    ///
    /// Errors: `path` is not a regular file (a FIFO, a device such as `/dev/zero`, a folder:
    /// none is opened), is larger than [`source::MAX_POLICY`], cannot be read or is not UTF-8;
    /// the policy is not valid (see [`Policy::parse`]).
    pub fn load(path: &Path) -> Result<Policy> {
        let cannot = |why: &dyn std::fmt::Display| {
            Error::new(format!(
                "{}: cannot read the policy: {why}; give the path of a policy file (a TOML file \
                 of at most {} bytes)",
                path.display(),
                source::MAX_POLICY
            ))
        };
        let bytes = source::read(path, source::MAX_POLICY).map_err(|why| cannot(&why))?;
        let text = crate::text::utf8(bytes).map_err(|why| cannot(&why))?;
        let mut policy = Policy::parse(path, &text)?;
        policy.debt = std::mem::take(&mut policy.debt).load(&policy.metrics)?;
        Ok(policy)
    }

    /// Finds `coverage-policy.toml` in `start` or its nearest ancestor.
    pub fn find(start: &Path) -> Result<PathBuf> {
        start
            .ancestors()
            .map(|dir| dir.join(POLICY_FILE_NAME))
            // Anything but a folder is taken (and a FIFO or a device then refused by `load`),
            // so that such a file cannot hand the choice to a policy further up.
            .find(|candidate| candidate.metadata().is_ok_and(|meta| !meta.is_dir()))
            .ok_or_else(|| {
                Error::new(format!(
                    "no {POLICY_FILE_NAME} in {} or any parent folder; write one (see docs/policy.md) or pass --policy PATH",
                    start.display()
                ))
            })
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    /// True when the entry has a `when` or a `when-missing`.
    fn conditional(exclude: &Exclude) -> bool {
        exclude.when.is_some() || !exclude.when_missing.is_empty()
    }

    fn parse(text: &str) -> Result<Policy> {
        Policy::parse(Path::new("p.toml"), text)
    }

    #[test]
    fn defaults() {
        let p = parse("").unwrap();
        assert_eq!(p.metrics, Metric::DEFAULT.to_vec());
        assert_eq!(p.threshold, Threshold::FULL);
        assert_eq!(p.inline.families, Family::ALL.to_vec());
        assert!(p.inline.require_reason);
        let q = parse("[inline]\nmarkers = [\"grcov\"]\nrequire-reason = false\n").unwrap();
        assert_eq!(q.inline.families, vec![Family::Grcov]);
        assert!(!q.inline.require_reason);
        assert_eq!(p.inline.coverage_off, CoverageOff::Count);
        for (name, rule) in [("count", CoverageOff::Count), ("deny", CoverageOff::Deny)] {
            let r = parse(&format!("[inline]\ncoverage-off = \"{name}\"\n")).unwrap();
            assert_eq!(r.inline.coverage_off, rule);
        }
        let e = parse("[inline]\ncoverage-off = \"Deny\"\n").unwrap_err();
        assert!(
            e.message().contains(
                "unknown `coverage-off` value `Deny`; expected count or deny; did you mean `deny`?"
            ),
            "{}",
            e.message()
        );
        assert_eq!(p.include.len(), 1);
        assert!(p.include[0].is_match("src/a/b.rs"));
        assert!(!p.include[0].is_match("tests/a.rs"));
        assert!(p.root.is_none());
    }

    #[test]
    fn allow_empty_needs_a_reason_and_a_reason_needs_it() {
        let allowed = |text: &str| parse(&format!("[measure]\n{text}")).map(|p| p.allow_empty);
        assert_eq!(allowed("").unwrap(), None);
        assert_eq!(allowed("allow-empty = false\n").unwrap(), None);
        assert_eq!(
            allowed("allow-empty = true\nallow-empty-reason = \"generated only\"\n").unwrap(),
            Some("generated only".to_string())
        );
        for (text, want) in [
            (
                "allow-empty = true\n",
                "p.toml:2:15: `allow-empty = true` needs `allow-empty-reason",
            ),
            (
                "allow-empty-reason = \"x\"\n",
                "p.toml:2:22: `allow-empty-reason` without `allow-empty = true`",
            ),
            (
                "allow-empty = false\nallow-empty-reason = \"x\"\n",
                "p.toml:3:22: `allow-empty-reason` without `allow-empty = true`",
            ),
            (
                "allow-empty = true\nallow-empty-reason = \" \"\n",
                "p.toml:3:22: `allow-empty-reason` is empty",
            ),
        ] {
            let e = allowed(text).expect_err(text);
            assert!(e.message().starts_with(want), "{text}: {}", e.message());
        }
    }

    #[test]
    fn full_policy() {
        let p = parse(
            "root = \"..\"\n[measure]\ninclude = [\"src/*.rs\"]\nmetrics = [\"lines\", \"regions\"]\nthreshold = 90\n[[exclude]]\npath = \"src/main.rs\"\nreason = \"entry\"\n",
        )
        .unwrap();
        assert_eq!(p.root.as_deref(), Some(".."));
        assert_eq!(p.metrics, vec![Metric::Regions, Metric::Lines]);
        assert_eq!(p.threshold.to_string(), "90");
        assert!(!p.include[0].is_match("src/a/b.rs"));
        assert_eq!(p.excludes[0].reason, "entry");
        assert_eq!(p.excludes[0].pattern.location, "p.toml:7:8");
        assert_eq!(p.folder(), PathBuf::from(""));
    }

    #[test]
    fn a_toml_error_of_two_lines_is_one_line() {
        let e = parse("[measure]\ninclude = [\"a\"\n").unwrap_err();
        let message = e.message();
        assert!(!message.contains('\n'), "{message}");
        assert!(
            message.starts_with("p.toml:3:1: invalid array; expected `]`"),
            "{message}"
        );
    }

    #[test]
    fn errors_carry_line_and_column() {
        let e = parse("[measure]\nincluded = []\n").unwrap_err();
        assert!(
            e.message()
                .starts_with("p.toml:2:1: unknown field `included`"),
            "{e}"
        );
        let e = parse("[[exclude]]\npath = \"a\"\nreason = \" \"\n").unwrap_err();
        assert!(
            e.message().starts_with("p.toml:3:10: an [[exclude]] needs"),
            "{e}"
        );
        let e = parse("[measure]\ninclude = [\"src/[.rs\"]\n").unwrap_err();
        assert!(e.message().starts_with("p.toml:2:12: bad glob"), "{e}");
        let e = parse("[measure]\nmetrics = [\"lines\", \"lines\"]\n").unwrap_err();
        assert!(e.message().contains("listed twice"), "{e}");
        let e = parse("[measure]\nmetrics = [\"statements\"]\n").unwrap_err();
        assert!(e.message().contains("unknown metric `statements`"), "{e}");
        let e = parse("[measure]\nmetrics = []\n").unwrap_err();
        assert!(
            e.message()
                .starts_with("p.toml:2:11: `[measure] metrics` is empty"),
            "{e}"
        );
        let e = parse("[measure]\nthreshold = 101\n").unwrap_err();
        assert!(e.message().starts_with("p.toml:2:13: threshold 101"), "{e}");
        let e = parse("[measure]\nthreshold = nan\n").unwrap_err();
        assert_eq!(
            e.message(),
            "p.toml:2:13: threshold NaN is not a percent between 0 and 100"
        );
        let e = parse("[measure]\nthreshold = 64.40001\n").unwrap_err();
        assert_eq!(
            e.message(),
            "p.toml:2:13: threshold 64.40001 has more than 4 decimal places; round it to at most 4"
        );
        let p = parse("[measure]\nthreshold = 64.40\n").unwrap();
        assert_eq!(p.threshold.to_string(), "64.4");
        let e = parse("[measure]\ninclude = []\n").unwrap_err();
        assert!(
            e.message()
                .starts_with("p.toml:2:11: `[measure] include` is empty"),
            "{e}"
        );
        let e = parse("[inline]\nmarkers = [\"lcov\", \"gcov\"]\n").unwrap_err();
        assert!(
            e.message()
                .starts_with("p.toml:2:20: unknown marker family `gcov`"),
            "{e}"
        );
        let e = parse("[inline]\nrequire_reason = true\n").unwrap_err();
        assert!(
            e.message().contains("unknown field `require_reason`"),
            "{e}"
        );
        let e = parse("[[exclude]]\npath = \"a\"\n").unwrap_err();
        assert!(e.message().contains("missing field `reason`"), "{e}");
        let e = parse("[[exclude]]\npath = \"src/{a\"\nreason = \"r\"\n").unwrap_err();
        assert!(
            e.message().starts_with("p.toml:2:8: bad glob `src/{a`"),
            "{e}"
        );
        let e = parse("[measure]\n[measure]\n").unwrap_err();
        assert!(e.message().starts_with("p.toml:2:"), "{e}");
    }

    #[test]
    fn exclude_conditions() {
        let p = parse(
            "[[exclude]]\npath = \"src/win.rs\"\nreason = \"Windows only\"\nwhen = \"cfg(not(windows))\"\n\
             [[exclude]]\npath = \"src/ps.rs\"\nreason = \"needs pwsh\"\nwhen-missing = [\"pwsh\", \"bash\"]\n\
             [[exclude]]\npath = \"src/main.rs\"\nreason = \"entry\"\n\
             [[exclude]]\npath = \"src/sh.rs\"\nreason = \"r\"\nwhen = \"unix\"\nwhen-missing = [\"pwsh\"]\n",
        )
        .unwrap();
        let when = |i: usize| p.excludes[i].when.as_ref().map(|c| c.text.as_str());
        assert_eq!(when(0), Some("cfg(not(windows))"));
        assert!(p.excludes[0].when_missing.is_empty());
        assert!(conditional(&p.excludes[0]));
        assert_eq!(when(1), None);
        assert_eq!(p.excludes[1].when_missing, ["pwsh", "bash"]);
        assert!(conditional(&p.excludes[1]));
        assert!(!conditional(&p.excludes[2]));
        assert_eq!(when(3), Some("unix"));
        assert_eq!(p.programs(), ["bash", "pwsh"]);
        assert!(parse("").unwrap().programs().is_empty());
    }

    #[test]
    fn bad_exclude_conditions_are_located() {
        let entry = |extra: &str| {
            parse(&format!(
                "[[exclude]]\npath = \"a\"\nreason = \"r\"\n{extra}\n"
            ))
        };
        let e = entry("when = \"cfg(all(windows, unix))\"").unwrap_err();
        assert!(
            e.message().starts_with(
                "p.toml:4:8: the condition `cfg(all(windows, unix))` can hold on no known target"
            ),
            "{e}"
        );
        let e = entry("when = \"cfg(windows\"").unwrap_err();
        assert!(
            e.message()
                .starts_with("p.toml:4:8: bad condition `cfg(windows`: "),
            "{e}"
        );
        let e = entry("when-missing = []").unwrap_err();
        assert!(
            e.message()
                .starts_with("p.toml:4:16: `when-missing` is empty"),
            "{e}"
        );
        let e = entry("when-missing = [\"pwsh\", \" \"]").unwrap_err();
        assert!(
            e.message().starts_with(
                "p.toml:4:25: `when-missing` names ` `, which is empty: no PATH lookup"
            ),
            "{e}"
        );
        let e = entry("when_missing = [\"pwsh\"]").unwrap_err();
        assert!(e.message().contains("unknown field `when_missing`"), "{e}");
        let e = entry("when = [\"unix\"]").unwrap_err();
        assert!(e.message().starts_with("p.toml:4:8: "), "{e}");
    }

    #[test]
    fn suites() {
        let p = parse(
            "[[suite]]\nname = \"heavy\"\nfilter = \"-p app --test 'heavy_*'\"\nglob = \"tests/heavy_*.rs\"\nreason = \"spawns cargo\"\n\
             [[suite]]\nname = \"posix\"\nfilter = \"--test shell\"\nglob = \"tests/shell.rs\"\nreason = \"needs sh\"\n\
             when = \"cfg(unix)\"\nwhen-missing = [\"sh\", \"bash\"]\n",
        )
        .unwrap();
        assert_eq!(p.suites.len(), 2);
        let heavy = &p.suites[0];
        assert_eq!(heavy.name, "heavy");
        assert_eq!(heavy.location, "p.toml:2:8");
        assert_eq!(heavy.filter.text, "-p app --test 'heavy_*'");
        assert_eq!(heavy.filter.packages[0].text, "app");
        assert!(heavy.glob.is_match("tests/heavy_one.rs"));
        assert_eq!(heavy.reason, "spawns cargo");
        assert!(heavy.when.is_none() && heavy.when_missing.is_empty());
        let posix = &p.suites[1];
        assert_eq!(
            posix.when.as_ref().map(|c| c.text.as_str()),
            Some("cfg(unix)")
        );
        assert_eq!(posix.when_missing, ["sh", "bash"]);
        assert_eq!(p.programs(), ["bash", "sh"]);
        assert!(p.has_when());
        assert!(!parse("").unwrap().has_when());
        assert!(parse("").unwrap().suites.is_empty());
        let excluded =
            parse("[[exclude]]\npath = \"a\"\nreason = \"r\"\nwhen = \"unix\"\n").unwrap();
        assert!(excluded.has_when());
    }

    #[test]
    fn folders_the_include_names() {
        let p = parse("[measure]\ninclude = [\"src/**/*.rs\", \"crates/a/lib.rs\", \"*.rs\"]\n")
            .unwrap();
        assert!(p.names_folder_above("src/.gen"));
        assert!(p.names_folder_above("src/a/b"));
        assert!(p.names_folder_above("crates/a/.x"));
        assert!(!p.names_folder_above("srcx/y"));
        assert!(!p.names_folder_above(".cargo"));
        assert!(!p.names_folder_above("crates/b"));
        let anywhere = parse("[measure]\ninclude = [\"**/*.rs\"]\n").unwrap();
        assert!(!anywhere.names_folder_above("src/.gen"));
    }

    #[test]
    fn bad_suites_are_located() {
        let suite = |name: &str, filter: &str, extra: &str| {
            parse(&format!(
                "[[suite]]\nname = \"{name}\"\nfilter = \"{filter}\"\nglob = \"tests/*.rs\"\nreason = \"r\"\n{extra}\n"
            ))
            .unwrap_err()
            .message()
            .to_string()
        };
        assert_eq!(
            suite(" ", "--test a", ""),
            "p.toml:2:8: a [[suite]] needs a non-empty `name`"
        );
        assert_eq!(
            suite("a", "--lib", ""),
            "p.toml:3:10: `--lib` is not a target selection; a filter takes -p PKG, --test NAME, --bench NAME and --example NAME"
        );
        assert!(
            suite("a", "--test a", "when = \"cfg(all(unix, windows))\"").starts_with(
                "p.toml:6:8: the condition `cfg(all(unix, windows))` can hold on no known target"
            )
        );
        assert!(suite("a", "--test a", "when-missing = []")
            .starts_with("p.toml:6:16: `when-missing` is empty"));
        assert!(
            suite("a", "--test a", "path = \"x\"").starts_with("p.toml:6:1: unknown field `path`")
        );
        let twice = parse(
            "[[suite]]\nname = \"a\"\nfilter = \"--test a\"\nglob = \"a\"\nreason = \"r\"\n\
             [[suite]]\nname = \"a\"\nfilter = \"--test b\"\nglob = \"b\"\nreason = \"r\"\n",
        )
        .unwrap_err();
        assert_eq!(
            twice.message(),
            "p.toml:7:8: suite `a` is named twice (first at p.toml:2:8); give each [[suite]] its own name"
        );
        let reasonless =
            parse("[[suite]]\nname = \"a\"\nfilter = \"--test a\"\nglob = \"a\"\nreason = \"\"\n")
                .unwrap_err();
        assert!(reasonless
            .message()
            .starts_with("p.toml:5:10: a [[suite]] needs a non-empty `reason`"));
        let bad_glob = parse(
            "[[suite]]\nname = \"a\"\nfilter = \"--test a\"\nglob = \"tests/[\"\nreason = \"r\"\n",
        )
        .unwrap_err();
        assert!(bad_glob
            .message()
            .starts_with("p.toml:4:8: bad glob `tests/[`"));
        let missing =
            parse("[[suite]]\nname = \"a\"\nfilter = \"--test a\"\nreason = \"r\"\n").unwrap_err();
        assert!(
            missing.message().contains("missing field `glob`"),
            "{missing}"
        );
    }

    #[test]
    fn line_col_counts_chars() {
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("é", 99), (1, 2));
    }
}
