//! The arguments of the two runs, derived from a verified roster: the instrumented run of every
//! suite but the roster's, and the plain run of the roster's suites alone.
//!
//! Every argument is free of whitespace and of the shell's glob characters (package and target
//! names cannot hold them), so `cargo llvm-cov nextest $(covgate roster --args instrumented)`
//! splits the printed line back into the same words.
//!
//! - nextest, instrumented: `--workspace -E !(binary_id(=PKG::NAME)|...)`: every test binary of
//!   the workspace but the roster's (nextest's binary IDs: `PKG::NAME` for a test,
//!   `PKG::bench/NAME`, `PKG::example/NAME`).
//! - nextest, plain: `-p PKG... --test NAME... -E binary_id(=PKG::NAME)|...`: the roster's
//!   targets are built, and the filterset keeps exactly their binaries.
//! - cargo, instrumented: `--workspace --lib --bins --test NAME... --bench NAME...
//!   --example NAME...` listing every other target that `cargo test` runs when none is named
//!   (`--lib`/`--bins` only when a member has one; tests, benches and examples whose manifest
//!   `test` flag is set, as `cargo metadata` reports it: examples and benches with
//!   `test = true`, tests without `test = false`). An explicit list leaves out doc tests; run
//!   them apart (`cargo test --doc`).
//! - cargo, plain: `-p PKG... --test NAME...`. cargo selects targets by name across the chosen
//!   packages, so a roster target whose name another package's target of the same kind also
//!   has cannot be told apart: that is an error; use nextest.
//!
//! With no active entry on this leg, the instrumented run is `--workspace` (everything), and
//! the plain run runs nothing: nextest `--workspace -E none() --no-tests=pass`, cargo
//! `--workspace --no-run`.

use super::Roster;
use crate::workspace::{Kind, Target};

/// Which of the two runs to derive arguments for (`covgate roster --args RUN`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Run {
    /// The instrumented run: every suite but the roster's.
    Instrumented,
    /// The plain run: the roster's suites alone.
    Plain,
}

/// The test runner the arguments are for (`covgate roster --runner`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Runner {
    /// `cargo nextest run` / `cargo llvm-cov nextest`.
    #[default]
    Nextest,
    /// `cargo test` / `cargo llvm-cov`.
    Cargo,
}

/// The arguments of `run` for `runner`.
///
/// Errors (as a message): with cargo, a roster target whose name is also the name of another
/// target of the same kind, or an instrumented run left with nothing to run.
pub(crate) fn derive(roster: &Roster, run: Run, runner: Runner) -> Result<Vec<String>, String> {
    let exempt = roster.exempt();
    if exempt.is_empty() {
        let words: &[&str] = match (run, runner) {
            (Run::Instrumented, _) => &["--workspace"],
            (Run::Plain, Runner::Nextest) => &["--workspace", "-E", "none()", "--no-tests=pass"],
            (Run::Plain, Runner::Cargo) => &["--workspace", "--no-run"],
        };
        return Ok(words.iter().map(|w| w.to_string()).collect());
    }
    let ids: Vec<String> = exempt
        .iter()
        .map(|t| format!("binary_id(={})", t.label()))
        .collect();
    match (run, runner) {
        (Run::Instrumented, Runner::Nextest) => Ok(vec![
            "--workspace".to_string(),
            "-E".to_string(),
            format!("!({})", ids.join("|")),
        ]),
        (Run::Plain, Runner::Nextest) => {
            let mut words = selection(&exempt);
            words.extend(["-E".to_string(), ids.join("|")]);
            Ok(words)
        }
        (run, Runner::Cargo) => {
            let others: Vec<&Target> = roster
                .workspace
                .targets
                .iter()
                .filter(|t| !exempt.contains(t))
                .collect();
            if let Some((a, b)) = exempt.iter().find_map(|a| {
                others
                    .iter()
                    .find(|b| a.kind == b.kind && a.name == b.name)
                    .map(|b| (a, b))
            }) {
                return Err(format!(
                    "--runner cargo cannot tell {} (in the roster) from {}: cargo selects {}s by name across packages; \
                     use --runner nextest, or rename one",
                    a.label(),
                    b.label(),
                    a.kind.noun()
                ));
            }
            match run {
                Run::Plain => Ok(selection(&exempt)),
                Run::Instrumented => instrumented_cargo(roster, &others),
            }
        }
    }
}

/// `-p PKG` for each package, then `--test NAME` (or `--bench`, `--example`) for each target,
/// without repeats.
fn selection(targets: &[&Target]) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut push = |flag: &str, name: &str| {
        let pair = [flag.to_string(), name.to_string()];
        if !words.chunks(2).any(|c| c == pair) {
            words.extend(pair);
        }
    };
    for target in targets {
        push("-p", &target.package);
    }
    for target in targets {
        push(target.kind.flag(), &target.name);
    }
    words
}

/// `--workspace --lib --bins`, then `--test NAME`, `--bench NAME` and `--example NAME` for
/// every target but the roster's that `cargo test` runs by default (its `test` flag is set).
fn instrumented_cargo(roster: &Roster, others: &[&Target]) -> Result<Vec<String>, String> {
    let mut words = vec!["--workspace".to_string()];
    for (kind, flag) in [(Kind::Lib, "--lib"), (Kind::Bin, "--bins")] {
        if roster.workspace.has(kind) {
            words.push(flag.to_string());
        }
    }
    let mut named: Vec<[String; 2]> = Vec::new();
    for kind in [Kind::Test, Kind::Bench, Kind::Example] {
        for target in others.iter().filter(|t| t.kind == kind && t.tested) {
            let pair = [kind.flag().to_string(), target.name.clone()];
            if !named.contains(&pair) {
                named.push(pair);
            }
        }
    }
    words.extend(named.into_iter().flatten());
    if words.len() == 1 {
        return Err(
            "every test target of the workspace is in the roster and it has no library or binary: \
             nothing is left for the instrumented run"
                .to_string(),
        );
    }
    Ok(words)
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;
    use crate::roster::Entry;
    use crate::workspace::Workspace;

    fn target(package: &str, name: &str, kind: Kind) -> Target {
        Target {
            package: package.to_string(),
            name: name.to_string(),
            kind,
            src: String::new(),
            tested: !matches!(kind, Kind::Bench | Kind::Example),
        }
    }

    fn roster(targets: Vec<Target>, exempt: &[(&str, &str)], active: bool) -> Roster {
        let chosen: Vec<Target> = exempt
            .iter()
            .map(|(p, n)| {
                targets
                    .iter()
                    .find(|t| t.package == *p && t.name == *n)
                    .expect("a target")
                    .clone()
            })
            .collect();
        Roster {
            entries: vec![Entry {
                name: "heavy".to_string(),
                location: String::new(),
                active,
                why: String::new(),
                targets: chosen,
                filter_files: Default::default(),
                glob_files: Default::default(),
                problems: vec![],
            }],
            overlaps: vec![],
            workspace: Workspace {
                features: Default::default(),
                members: vec![],
                defaults: vec![],
                targets,
            },
        }
    }

    fn usual() -> Vec<Target> {
        vec![
            target("alpha", "alpha", Kind::Lib),
            target("alpha", "fast", Kind::Test),
            target("alpha", "heavy", Kind::Test),
            target("alpha", "folder", Kind::Test),
            target("alpha", "perf", Kind::Bench),
            target("beta-pkg", "beta-pkg", Kind::Bin),
            target("beta-pkg", "slow", Kind::Test),
            target("beta-pkg", "other", Kind::Test),
        ]
    }

    fn line(roster: &Roster, run: Run, runner: Runner) -> String {
        derive(roster, run, runner).expect("arguments").join(" ")
    }

    #[test]
    fn nextest_arguments() {
        let r = roster(
            usual(),
            &[
                ("alpha", "heavy"),
                ("beta-pkg", "slow"),
                ("alpha", "perf"),
                ("alpha", "heavy"),
            ],
            true,
        );
        assert_eq!(
            line(&r, Run::Instrumented, Runner::Nextest),
            "--workspace -E !(binary_id(=alpha::heavy)|binary_id(=beta-pkg::slow)|binary_id(=alpha::bench/perf))"
        );
        assert_eq!(
            line(&r, Run::Plain, Runner::Nextest),
            "-p alpha -p beta-pkg --test heavy --test slow --bench perf -E binary_id(=alpha::heavy)|binary_id(=beta-pkg::slow)|binary_id(=alpha::bench/perf)"
        );
    }

    #[test]
    fn cargo_arguments() {
        let r = roster(usual(), &[("alpha", "heavy"), ("beta-pkg", "slow")], true);
        assert_eq!(
            line(&r, Run::Instrumented, Runner::Cargo),
            "--workspace --lib --bins --test fast --test folder --test other"
        );
        assert_eq!(
            line(&r, Run::Plain, Runner::Cargo),
            "-p alpha -p beta-pkg --test heavy --test slow"
        );
        // Benches and examples that `cargo test` runs (`test = true`) are listed, the others
        // not; a test with `test = false` neither; a name shared by two kinds is listed for
        // each, and by two packages once.
        let mut more = usual();
        more.extend([
            Target {
                tested: true,
                ..target("alpha", "ex", Kind::Example)
            },
            target("alpha", "demo", Kind::Example),
            Target {
                tested: true,
                ..target("beta-pkg", "fast", Kind::Bench)
            },
            Target {
                tested: true,
                ..target("beta-pkg", "ex", Kind::Example)
            },
            Target {
                tested: false,
                ..target("beta-pkg", "manual", Kind::Test)
            },
        ]);
        let r = roster(more, &[("alpha", "heavy"), ("beta-pkg", "slow")], true);
        assert_eq!(
            line(&r, Run::Instrumented, Runner::Cargo),
            "--workspace --lib --bins --test fast --test folder --test other --bench fast \
             --example ex"
        );
        // Without a library or binaries, only the test targets are listed.
        let tests_only = vec![
            target("a", "x", Kind::Test),
            target("a", "y", Kind::Test),
            target("b", "y", Kind::Test),
        ];
        let r = roster(tests_only.clone(), &[("a", "x")], true);
        assert_eq!(
            line(&r, Run::Instrumented, Runner::Cargo),
            "--workspace --test y"
        );
        // Nothing left: an error.
        let r = roster(tests_only[..1].to_vec(), &[("a", "x")], true);
        assert!(derive(&r, Run::Instrumented, Runner::Cargo)
            .unwrap_err()
            .ends_with("nothing is left for the instrumented run"));
        assert_eq!(line(&r, Run::Plain, Runner::Cargo), "-p a --test x");
    }

    #[test]
    fn cargo_cannot_tell_same_named_targets_apart() {
        let r = roster(
            vec![
                target("a", "x", Kind::Test),
                target("b", "x", Kind::Bench),
                target("c", "x", Kind::Test),
            ],
            &[("a", "x")],
            true,
        );
        for run in [Run::Instrumented, Run::Plain] {
            assert_eq!(
                derive(&r, run, Runner::Cargo).unwrap_err(),
                "--runner cargo cannot tell a::x (in the roster) from c::x: cargo selects test targets by name across packages; \
                 use --runner nextest, or rename one"
            );
        }
        assert_eq!(
            line(&r, Run::Plain, Runner::Nextest),
            "-p a --test x -E binary_id(=a::x)"
        );
    }

    #[test]
    fn an_empty_roster_on_this_leg() {
        let r = roster(usual(), &[("alpha", "heavy")], false);
        assert_eq!(line(&r, Run::Instrumented, Runner::Nextest), "--workspace");
        assert_eq!(line(&r, Run::Instrumented, Runner::Cargo), "--workspace");
        assert_eq!(
            line(&r, Run::Plain, Runner::Nextest),
            "--workspace -E none() --no-tests=pass"
        );
        assert_eq!(line(&r, Run::Plain, Runner::Cargo), "--workspace --no-run");
    }
}
