//! The exempt-suite roster: test suites left out of the instrumented run, as long as they still
//! run plainly beside it and the files they exercise are fully covered by the other suites.
//!
//! Each `[[suite]]` of the policy names a suite twice: by a `filter` (cargo's target
//! selection, see [`crate::policy::filter`]) and by a `glob` (its test files, relative to the root). The roster
//! verifies when, for every entry, both select the same non-empty set of files (a target's
//! files are its root file and its folder, see [`crate::workspace`]), and no two active entries share
//! a file. An inactive entry (its `when`/`when-missing` does not hold on this leg, see
//! [`crate::platform`]) is still checked against its own glob, but not against the others: its
//! suite runs in the instrumented run like any other.
//!
//! From a verified roster, [`args`] derives the arguments of both runs, [`admit`] checks that
//! the files the roster suites execute are fully covered by the main run, and
//! [`crate::commands::roster`] runs `covgate roster`.

pub(crate) mod admit;
pub(crate) mod args;

use std::collections::BTreeSet;
use std::path::Path;

use crate::error::{Error, Result};
use crate::policy::Suite;
use crate::walk::{self, Walked};
use crate::workspace::{Target, Workspace};

/// How one `[[suite]]` entry fares on this leg.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Its `name`.
    pub name: String,
    /// Where its name is written: `file:line:col`.
    pub location: String,
    /// True when the suite is left out of the instrumented run on this leg.
    pub active: bool,
    /// Why it is active or inactive (empty for an entry without conditions).
    pub why: String,
    /// The targets its filter selects.
    pub targets: Vec<Target>,
    /// The files of those targets.
    pub filter_files: BTreeSet<String>,
    /// The `.rs` files its glob selects.
    pub glob_files: BTreeSet<String>,
    /// What does not hold (empty when the entry verifies).
    pub problems: Vec<String>,
}

impl Entry {
    /// One line: `NAME: verified, active — 2 target(s) (a::x, a::y), 3 file(s)`, with the
    /// reason for a conditional state in parentheses after it.
    pub(crate) fn line(&self) -> String {
        let verdict = if self.problems.is_empty() {
            "verified"
        } else {
            "does not verify"
        };
        let state = match (self.active, self.why.is_empty()) {
            (true, true) => "active".to_string(),
            (true, false) => format!("active ({})", self.why),
            (false, _) => format!("inactive ({})", self.why),
        };
        let labels: Vec<String> = self.targets.iter().map(Target::label).collect();
        let files = self.filter_files.union(&self.glob_files).count();
        format!(
            "{}: {verdict}, {state} — {} target(s) ({}), {files} file(s)",
            self.name,
            labels.len(),
            labels.join(", ")
        )
    }
}

/// The roster of one leg: every entry, and the files that active entries share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Roster {
    /// Every `[[suite]]`, in policy order.
    pub entries: Vec<Entry>,
    /// `suites `a` and `b` share: FILES`, for each pair of active entries that overlap.
    pub overlaps: Vec<String>,
    /// The workspace the filters were resolved in.
    pub workspace: Workspace,
}

impl Roster {
    /// True when every entry verifies and no two active entries overlap.
    pub(crate) fn verified(&self) -> bool {
        self.overlaps.is_empty() && self.entries.iter().all(|e| e.problems.is_empty())
    }

    /// One line per entry (each followed by its problems, indented), then the overlaps: what
    /// `covgate roster --verify` prints.
    pub(crate) fn report(&self) -> String {
        let mut out = String::new();
        for entry in &self.entries {
            out.push_str(&entry.line());
            out.push('\n');
            for problem in &entry.problems {
                out.push_str(&format!("  {problem}\n"));
            }
        }
        for overlap in &self.overlaps {
            out.push_str(overlap);
            out.push('\n');
        }
        out
    }

    /// Every problem, one per line, each naming its entry: the error `covgate check` stops
    /// with when the roster does not verify (`None` when it does).
    pub(crate) fn error(&self) -> Option<Error> {
        if self.verified() {
            return None;
        }
        let mut lines = vec![
            "the [[suite]] roster does not verify; fix the policy or the tests (docs/roster.md):"
                .to_string(),
        ];
        for entry in &self.entries {
            lines.extend(
                entry
                    .problems
                    .iter()
                    .map(|p| format!("  suite `{}` ({}): {p}", entry.name, entry.location)),
            );
        }
        lines.extend(self.overlaps.iter().map(|o| format!("  {o}")));
        Some(Error::lines(lines))
    }

    /// The targets of the active entries: the suites left out of the instrumented run.
    pub(crate) fn exempt(&self) -> Vec<&Target> {
        let mut targets: Vec<&Target> = Vec::new();
        for target in self
            .entries
            .iter()
            .filter(|e| e.active)
            .flat_map(|e| e.targets.iter())
        {
            if !targets.contains(&target) {
                targets.push(target);
            }
        }
        targets
    }
}

/// Verifies the roster of `suites` (each with its activation decided) in the cargo
/// workspace at `root` (a normalised absolute folder), where `features` (the `--features`
/// names) must be declared.
///
/// The root's `.rs` files are found by one walk ([`crate::walk`]), which also selects the paths
/// that satisfy `also` (a check's `include` globs): that walk is returned, so that a check
/// walks the root once.
///
/// Errors (exit 2): cargo metadata fails (see [`Workspace::load`]), a feature that no member
/// declares ([`Workspace::check_features`]), or the root cannot be walked.
/// A roster that does not verify is not an error: see [`Roster::verified`].
pub(crate) fn verify(
    suites: &[Suite],
    root: &str,
    features: &[&str],
    also: &dyn Fn(&str) -> bool,
) -> Result<(Roster, Walked)> {
    let workspace = Workspace::load(root)?;
    workspace.check_features(features, root)?;
    // The root is a folder: cargo ran in it.
    let walked = walk::walk(Path::new(root), &|p| is_rust(p) || also(p))?;
    let files = walked.select(&is_rust).files;
    Ok((assess(suites, workspace, &files), walked))
}

/// True for the path of a Rust source file.
fn is_rust(path: &str) -> bool {
    path.ends_with(".rs")
}

/// [`verify`] on a workspace already read and the root's `.rs` files.
pub(crate) fn assess(suites: &[Suite], workspace: Workspace, files: &BTreeSet<String>) -> Roster {
    let entries: Vec<Entry> = suites
        .iter()
        .map(|suite| entry(suite, &workspace, files))
        .collect();
    let mut overlaps = Vec::new();
    let active: Vec<&Entry> = entries.iter().filter(|e| e.active).collect();
    for (i, a) in active.iter().enumerate() {
        for b in active.iter().skip(i + 1) {
            let shared: Vec<&str> = a
                .filter_files
                .union(&a.glob_files)
                .filter(|f| b.filter_files.contains(*f) || b.glob_files.contains(*f))
                .map(String::as_str)
                .collect();
            if !shared.is_empty() {
                overlaps.push(format!(
                    "suites `{}` and `{}` share: {}",
                    a.name,
                    b.name,
                    shared.join(", ")
                ));
            }
        }
    }
    Roster {
        entries,
        overlaps,
        workspace,
    }
}

fn entry(suite: &Suite, workspace: &Workspace, files: &BTreeSet<String>) -> Entry {
    let (targets, mut problems) = suite.filter.resolve(workspace);
    let filter_files: BTreeSet<String> = targets.iter().flat_map(|t| t.files(files)).collect();
    let glob_files: BTreeSet<String> = files
        .iter()
        .filter(|f| suite.glob.is_match(f))
        .cloned()
        .collect();
    if filter_files.is_empty() {
        problems.push("the filter selects no file".to_string());
    }
    if glob_files.is_empty() {
        problems.push(format!("the glob `{}` selects no file", suite.glob.glob));
    }
    if !filter_files.is_empty() && !glob_files.is_empty() {
        let only = |these: &BTreeSet<String>, those: &BTreeSet<String>| -> Vec<String> {
            these.difference(those).cloned().collect()
        };
        let only_filter = only(&filter_files, &glob_files);
        if !only_filter.is_empty() {
            problems.push(format!(
                "only the filter selects: {}",
                only_filter.join(", ")
            ));
        }
        let only_glob = only(&glob_files, &filter_files);
        if !only_glob.is_empty() {
            problems.push(format!("only the glob selects: {}", only_glob.join(", ")));
        }
    }
    Entry {
        name: suite.name.clone(),
        location: suite.location.clone(),
        active: suite.activation.active,
        why: suite.activation.why.clone(),
        targets: targets.into_iter().cloned().collect(),
        filter_files,
        glob_files,
        problems,
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;
    use crate::platform::Activation;
    use crate::policy::Policy;
    use crate::workspace::Kind;

    fn target(package: &str, name: &str, src: &str) -> Target {
        Target {
            package: package.to_string(),
            name: name.to_string(),
            kind: Kind::Test,
            src: src.to_string(),
            tested: true,
        }
    }

    fn workspace() -> Workspace {
        Workspace {
            features: Default::default(),
            members: vec!["a".to_string()],
            defaults: vec!["a".to_string()],
            targets: vec![
                target("a", "heavy", "tests/heavy.rs"),
                target("a", "folder", "tests/folder/main.rs"),
                target("a", "fast", "tests/fast.rs"),
            ],
        }
    }

    fn files() -> BTreeSet<String> {
        [
            "tests/heavy.rs",
            "tests/folder/main.rs",
            "tests/folder/helper.rs",
            "tests/fast.rs",
            "tests/common/mod.rs",
        ]
        .map(String::from)
        .into()
    }

    fn roster(suites: &str, active: &[bool]) -> Roster {
        let mut policy = Policy::parse(Path::new("p.toml"), suites).expect("policy");
        for (suite, &active) in policy.suites.iter_mut().zip(active) {
            suite.activation = Activation {
                conditional: !active,
                active,
                why: if active {
                    String::new()
                } else {
                    "off".to_string()
                },
            };
        }
        assess(&policy.suites, workspace(), &files())
    }

    fn suite(name: &str, filter: &str, glob: &str) -> String {
        format!("[[suite]]\nname = \"{name}\"\nfilter = \"{filter}\"\nglob = \"{glob}\"\nreason = \"r\"\n")
    }

    #[test]
    fn a_verified_roster() {
        let r = roster(
            &(suite(
                "heavy",
                "--test heavy --test folder",
                "tests/{heavy.rs,folder/**}",
            ) + &suite("off", "--test heavy", "tests/heavy.rs")),
            &[true, false],
        );
        assert!(r.verified(), "{}", r.report());
        assert_eq!(r.error(), None);
        assert_eq!(
            r.report(),
            "heavy: verified, active — 2 target(s) (a::heavy, a::folder), 3 file(s)\n\
             off: verified, inactive (off) — 1 target(s) (a::heavy), 1 file(s)\n"
        );
        let exempt: Vec<String> = r.exempt().iter().map(|t| t.label()).collect();
        assert_eq!(exempt, ["a::heavy", "a::folder"]);
    }

    #[test]
    fn each_problem() {
        let r = roster(
            &(suite("narrow", "--test folder", "tests/folder/main.rs")
                + &suite("wide", "--test heavy", "tests/{heavy,fast}.rs")
                + &suite("nothing", "--test 'zz*'", "tests/none/*.rs")
                + &suite("unknown", "--test nope", "tests/fast.rs")),
            &[true, true, true, true],
        );
        assert!(!r.verified());
        let problems: Vec<Vec<String>> = r.entries.iter().map(|e| e.problems.clone()).collect();
        assert_eq!(
            problems,
            [
                vec!["only the filter selects: tests/folder/helper.rs".to_string()],
                vec!["only the glob selects: tests/fast.rs".to_string()],
                vec![
                    "no test target matches `zz*` (packages: a)".to_string(),
                    "the filter selects no file".to_string(),
                    "the glob `tests/none/*.rs` selects no file".to_string(),
                ],
                vec![
                    "unknown test target `nope` (packages: a)".to_string(),
                    "the filter selects no file".to_string(),
                ],
            ]
        );
        assert_eq!(
            r.overlaps,
            ["suites `wide` and `unknown` share: tests/fast.rs"]
        );
        let error = r.error().expect("an error").message().to_string();
        assert!(error.starts_with("the [[suite]] roster does not verify; fix the policy or the tests (docs/roster.md):\n  suite `narrow` (p.toml:2:8): only the filter selects: tests/folder/helper.rs\n"), "{error}");
        assert!(
            error.ends_with("\n  suites `wide` and `unknown` share: tests/fast.rs"),
            "{error}"
        );
        assert!(r.report().contains(
            "narrow: does not verify, active — 1 target(s) (a::folder), 2 file(s)\n  only the filter selects: tests/folder/helper.rs\n"
        ));
    }

    #[test]
    fn only_active_entries_overlap() {
        let two = suite("one", "--test heavy", "tests/heavy.rs")
            + &suite("two", "--test heavy", "tests/heavy.rs");
        let r = roster(&two, &[true, true]);
        assert_eq!(r.overlaps, ["suites `one` and `two` share: tests/heavy.rs"]);
        assert_eq!(r.exempt().len(), 1);
        let r = roster(&two, &[true, false]);
        assert!(r.verified());
        let conditional = Activation {
            conditional: true,
            active: true,
            why: "`cfg(unix)` holds on x".to_string(),
        };
        let mut policy = Policy::parse(Path::new("p.toml"), &two).unwrap();
        policy.suites[0].activation = conditional;
        let r = assess(&policy.suites[..1], workspace(), &files());
        assert_eq!(
            r.entries[0].line(),
            "one: verified, active (`cfg(unix)` holds on x) — 1 target(s) (a::heavy), 1 file(s)"
        );
    }
}
