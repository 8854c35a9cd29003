//! The exempt-suite roster end to end: `covgate roster --verify`, `--args`, the roster facts of
//! `covgate check`, a real cargo-nextest run of the derived arguments, and the admission check
//! on real `cargo llvm-cov` exports.
//!
//! The fixture workspace is written once per test binary (a `OnceLock`) under
//! `CARGO_TARGET_TMPDIR`: two packages, single-file test targets, a folder target
//! (`tests/folder/main.rs` with a helper module), a shared `tests/common/mod.rs`, and a test
//! name (`fast`) that both packages have. It has no
//! dependencies, so `cargo metadata` needs no network. Each scenario is a policy of its own,
//! written beside the workspace and passed with `--policy` and `--root`.
//!
//! The nextest and llvm-cov tests skip, saying why, only when the tool is not installed.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

use common::{cargo, covgate, Run, Sandbox};

const LINUX: &str = "x86_64-unknown-linux-gnu";
const WINDOWS: &str = "x86_64-pc-windows-msvc";

/// The fixture workspace's files.
const WORKSPACE: &[(&str, &str)] = &[
    (
        "Cargo.toml",
        "[workspace]\nmembers = [\"alpha\", \"beta\"]\nresolver = \"2\"\n",
    ),
    (
        "alpha/Cargo.toml",
        "[package]\nname = \"alpha\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [[example]]\nname = \"ex\"\ntest = true\n",
    ),
    // `cargo test` runs the tests of an example or a bench with `test = true`, not of others.
    (
        "alpha/examples/ex.rs",
        "fn main() {}\n\n#[test]\nfn example_test() {}\n",
    ),
    (
        "alpha/examples/demo.rs",
        "fn main() {}\n\n#[test]\nfn never_run() {}\n",
    ),
    (
        "alpha/src/lib.rs",
        "pub fn one() -> u32 { 1 }\n\n#[test]\nfn unit_alpha() {\n    assert_eq!(one(), 1);\n}\n",
    ),
    (
        "alpha/tests/common/mod.rs",
        "pub fn shared() -> u32 {\n    alpha::one()\n}\n",
    ),
    (
        "alpha/tests/fast.rs",
        "mod common;\n\n#[test]\nfn fast() {\n    assert_eq!(common::shared(), 1);\n}\n",
    ),
    (
        "alpha/tests/heavy.rs",
        "mod common;\n\n#[test]\nfn heavy() {\n    assert_eq!(common::shared(), 1);\n}\n",
    ),
    (
        "alpha/tests/folder/main.rs",
        "mod helper;\n\n#[test]\nfn folder() {\n    assert_eq!(helper::two(), 2);\n}\n",
    ),
    (
        "alpha/tests/folder/helper.rs",
        "pub fn two() -> u32 {\n    2\n}\n",
    ),
    (
        "beta/Cargo.toml",
        "[package]\nname = \"beta-pkg\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [[bench]]\nname = \"perf\"\ntest = true\n",
    ),
    ("beta/benches/perf.rs", "#[test]\nfn bench_test() {}\n"),
    (
        "beta/src/main.rs",
        "fn main() {}\n\n#[test]\nfn unit_beta() {}\n",
    ),
    ("beta/tests/slow.rs", "#[test]\nfn slow() {}\n"),
    ("beta/tests/fast.rs", "#[test]\nfn fast_beta() {}\n"),
    ("beta/tests/other.rs", "#[test]\nfn other() {}\n"),
    ("beta/tests/posix.rs", "#[test]\nfn posix() {}\n"),
];

/// Writes `text` to `path` unless it already holds it (unchanged files keep their mtime, so
/// cargo's builds under the workspace stay fresh between test runs).
fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() == Some(text) {
        return;
    }
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// The fixture workspace, written once per test binary.
fn workspace() -> &'static Path {
    static WS: OnceLock<PathBuf> = OnceLock::new();
    WS.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("roster-workspace");
        for (rel, text) in WORKSPACE {
            write_if_changed(&dir.join(rel), text);
        }
        dir
    })
}

fn ws() -> String {
    workspace().display().to_string()
}

/// The suites of the verified roster: the heavy alpha suites (a single-file target and the
/// folder target), one beta suite, and a beta suite that is left out only on Unix.
const ROSTER: &str = r#"
[[suite]]
name = "heavy"
filter = "-p alpha --test heavy --test folder"
glob = "alpha/tests/{heavy.rs,folder/**}"
reason = "compiler-analysis tests, minutes under instrumentation"

[[suite]]
name = "slow"
filter = "--package=beta-pkg --test 'sl*'"
glob = "beta/tests/slow.rs"
reason = "spawns real subprocesses"

[[suite]]
name = "posix"
filter = "-p beta-pkg --test posix"
glob = "beta/tests/posix.rs"
reason = "needs a POSIX shell"
when = "cfg(unix)"
"#;

/// Runs `covgate ARGS --policy P --root WS` with `policy` in a sandbox of its own.
fn roster_run(policy: &str, args: &[&str]) -> (Sandbox, Run) {
    let sandbox = Sandbox::new();
    sandbox.policy(policy);
    let ws = ws();
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--policy", "coverage-policy.toml", "--root", &ws]);
    let run = sandbox.run(&all);
    (sandbox, run)
}

fn verify(policy: &str, extra: &[&str]) -> Run {
    let mut args = vec!["roster", "--verify"];
    args.extend_from_slice(extra);
    roster_run(policy, &args).1
}

fn suite(name: &str, filter: &str, glob: &str) -> String {
    format!(
        "[[suite]]\nname = \"{name}\"\nfilter = \"{filter}\"\nglob = \"{glob}\"\nreason = \"r\"\n"
    )
}

#[test]
fn a_verified_roster_gives_one_line_per_entry() {
    let run = verify(ROSTER, &["--target", LINUX]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        "heavy: verified, active — 2 target(s) (alpha::heavy, alpha::folder), 3 file(s)\n\
         slow: verified, active — 1 target(s) (beta-pkg::slow), 1 file(s)\n\
         posix: verified, active (`cfg(unix)` holds on x86_64-unknown-linux-gnu) — 1 target(s) (beta-pkg::posix), 1 file(s)\n"
    );
    assert_eq!(run.stderr, "");
}

#[test]
fn a_file_only_the_filter_selects() {
    let run = verify(
        &suite(
            "folder",
            "-p alpha --test folder",
            "alpha/tests/folder/main.rs",
        ),
        &[],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        "folder: does not verify, active — 1 target(s) (alpha::folder), 2 file(s)\n  \
         only the filter selects: alpha/tests/folder/helper.rs\n"
    );
}

#[test]
fn a_file_only_the_glob_selects() {
    // The shared tests/common/mod.rs belongs to no target: a glob over all of tests/ has it.
    let run = verify(&suite("heavy", "--test heavy", "alpha/tests/*.rs"), &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        "heavy: does not verify, active — 1 target(s) (alpha::heavy), 2 file(s)\n  \
         only the glob selects: alpha/tests/fast.rs\n"
    );
    let run = verify(&suite("heavy", "--test heavy", "alpha/tests/**/*.rs"), &[]);
    assert!(run.stdout.contains(
        "  only the glob selects: alpha/tests/common/mod.rs, alpha/tests/fast.rs, alpha/tests/folder/helper.rs, alpha/tests/folder/main.rs\n"
    ), "{}", run.stdout);
}

#[test]
fn an_empty_filter_an_empty_glob_and_unknown_names() {
    let run = verify(
        &(suite("none", "--test 'nothing*'", "alpha/tests/heavy.rs")
            + &suite("void", "--test heavy", "alpha/tests/none/*.rs")
            + &suite("typo", "--test heavvy", "alpha/tests/fast.rs")
            + &suite("gamma", "-p gamma --test x", "beta/tests/other.rs")),
        &[],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        "none: does not verify, active — 0 target(s) (), 1 file(s)\n  \
         no test target matches `nothing*` (packages: alpha, beta-pkg)\n  \
         the filter selects no file\n\
         void: does not verify, active — 1 target(s) (alpha::heavy), 1 file(s)\n  \
         the glob `alpha/tests/none/*.rs` selects no file\n\
         typo: does not verify, active — 0 target(s) (), 1 file(s)\n  \
         unknown test target `heavvy` (packages: alpha, beta-pkg)\n  \
         the filter selects no file\n\
         gamma: does not verify, active — 0 target(s) (), 1 file(s)\n  \
         unknown package `gamma` (workspace members: alpha, beta-pkg)\n  \
         the filter selects no file\n\
         suites `none` and `void` share: alpha/tests/heavy.rs\n"
    );
}

#[test]
fn overlapping_entries_and_an_entry_inactive_on_another_os() {
    let policy = format!(
        "{ROSTER}\n[[suite]]\nname = \"again\"\nfilter = \"-p beta-pkg --test posix --test slow\"\n\
         glob = \"beta/tests/{{posix,slow}}.rs\"\nreason = \"r\"\nwhen = \"cfg(unix)\"\n"
    );
    let run = verify(&policy, &["--target", LINUX]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.ends_with(
            "suites `slow` and `again` share: beta/tests/slow.rs\n\
             suites `posix` and `again` share: beta/tests/posix.rs\n"
        ),
        "{}",
        run.stdout
    );
    // On Windows both conditional entries are inactive: reported as such, checked against
    // their own globs, not against the others.
    let run = verify(&policy, &["--target", WINDOWS]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(
        "posix: verified, inactive (`cfg(unix)` does not hold on x86_64-pc-windows-msvc) — 1 target(s) (beta-pkg::posix), 1 file(s)\n"
    ), "{}", run.stdout);
    assert!(
        run.stdout.contains("again: verified, inactive ("),
        "{}",
        run.stdout
    );
    // Inactive entries still have to match their own globs.
    let stale = format!(
        "{ROSTER}\n[[suite]]\nname = \"stale\"\nfilter = \"--test gone\"\nglob = \"gone.rs\"\nreason = \"r\"\nwhen = \"cfg(unix)\"\n"
    );
    let run = verify(&stale, &["--target", WINDOWS]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("stale: does not verify, inactive"),
        "{}",
        run.stdout
    );
}

#[test]
fn when_missing_decides_too() {
    let policy = suite("heavy", "--test heavy", "alpha/tests/heavy.rs")
        + "when-missing = [\"no-such-program-covgate\"]\n";
    let run = verify(&policy, &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        "heavy: verified, active (not found on PATH: no-such-program-covgate) — 1 target(s) (alpha::heavy), 1 file(s)\n"
    );
}

fn args(policy: &str, run: &str, runner: &str, target: &str) -> Run {
    roster_run(
        policy,
        &[
            "roster", "--args", run, "--runner", runner, "--target", target,
        ],
    )
    .1
}

/// The arguments printed, as `$(covgate roster --args …)` hands them on: split at whitespace.
fn words(run: &Run) -> Vec<String> {
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout.lines().count(), 1, "{}", run.stdout);
    run.stdout.split_whitespace().map(String::from).collect()
}

#[test]
fn the_arguments_of_both_runs() {
    let line =
        |run: &str, runner: &str, target: &str| words(&args(ROSTER, run, runner, target)).join(" ");
    let all = "binary_id(=alpha::heavy)|binary_id(=alpha::folder)|binary_id(=beta-pkg::slow)|binary_id(=beta-pkg::posix)";
    assert_eq!(
        line("instrumented", "nextest", LINUX),
        format!("--workspace -E !({all})")
    );
    assert_eq!(
        line("plain", "nextest", LINUX),
        format!(
            "-p alpha -p beta-pkg --test heavy --test folder --test slow --test posix -E {all}"
        )
    );
    assert_eq!(
        line("instrumented", "cargo", LINUX),
        "--workspace --lib --bins --test fast --test other --bench perf --example ex"
    );
    assert_eq!(
        line("plain", "cargo", LINUX),
        "-p alpha -p beta-pkg --test heavy --test folder --test slow --test posix"
    );
    // On Windows the posix suite is not in the roster: it runs in the instrumented run.
    assert_eq!(
        line("instrumented", "cargo", WINDOWS),
        "--workspace --lib --bins --test fast --test other --test posix --bench perf --example ex"
    );
    // nextest is the default runner.
    let run = roster_run(ROSTER, &["roster", "--args", "plain", "--target", WINDOWS]).1;
    assert_eq!(
        words(&run).join(" "),
        "-p alpha -p beta-pkg --test heavy --test folder --test slow -E binary_id(=alpha::heavy)|binary_id(=alpha::folder)|binary_id(=beta-pkg::slow)"
    );
}

#[test]
fn no_arguments_from_a_roster_that_does_not_verify() {
    let run = args(
        &suite("heavy", "--test heavy", "alpha/tests/*.rs"),
        "instrumented",
        "nextest",
        LINUX,
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "heavy: does not verify, active — 1 target(s) (alpha::heavy), 2 file(s)\n  \
         only the glob selects: alpha/tests/fast.rs\n\
         covgate: the roster does not verify, so no arguments are printed (see covgate roster --verify)\n"
    );
}

#[test]
fn an_empty_roster() {
    let (sandbox, run) = roster_run("", &["roster", "--verify"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "no [[suite]] in {}: the roster is empty\n",
            sandbox.path().join("coverage-policy.toml").display()
        )
    );
    assert_eq!(
        words(&args("", "plain", "nextest", LINUX)),
        ["--workspace", "-E", "none()", "--no-tests=pass"]
    );
    assert_eq!(
        words(&args("", "instrumented", "cargo", LINUX)),
        ["--workspace"]
    );
}

#[test]
fn usage_policy_and_cargo_errors_exit_2() {
    let sandbox = Sandbox::new();
    sandbox.policy(&suite("a", "--test a", "tests/a.rs"));
    // No cargo workspace at the root.
    let run = sandbox.run(&["roster", "--verify"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.starts_with(
            "covgate: error: the [[suite]] roster needs the cargo workspace at the root "
        ),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "");
    // A bad filter is a policy error, located.
    let run = verify(&suite("a", "--lib", "tests/a.rs"), &[]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("coverage-policy.toml:3:10: `--lib` is not a target selection"),
        "{}",
        run.stderr
    );
    // --verify or --args, not both, not neither; --suite-report needs --report and --verify.
    for bad in [
        vec!["roster"],
        vec!["roster", "--verify", "--args", "plain"],
        vec!["roster", "--verify", "--suite-report", "s.json"],
        vec!["roster", "--args", "plain", "--report", "m.json"],
        vec!["roster", "--verify", "--runner", "cargo"],
        vec!["roster", "--args", "everything"],
    ] {
        let run = sandbox.run(&bad);
        assert_eq!(run.code, 2, "{bad:?}: {}{}", run.stdout, run.stderr);
    }
}

/// A one-line LCOV report of alpha's library, and a policy that measures only that file.
fn check_sandbox(suites: &str) -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.policy(&format!(
        "[measure]\ninclude = [\"alpha/src/**/*.rs\"]\nmetrics = [\"lines\"]\n{suites}"
    ));
    sandbox.write(
        "lib.info",
        "SF:alpha/src/lib.rs\nDA:1,1\nDA:5,1\nend_of_record\n",
    );
    sandbox
}

fn check(sandbox: &Sandbox, extra: &[&str]) -> Run {
    let ws = ws();
    let mut args = vec![
        "check",
        "lib.info",
        "--policy",
        "coverage-policy.toml",
        "--root",
        &ws,
    ];
    args.extend_from_slice(extra);
    sandbox.run(&args)
}

#[test]
fn check_lists_the_roster_among_its_facts() {
    let sandbox = check_sandbox(ROSTER);
    let table = check(&sandbox, &["--target", LINUX]);
    assert_eq!(table.code, 0, "{}{}", table.stdout, table.stderr);
    assert!(table.stdout.contains(
        "exempt suites (roster verified):\n  \
         heavy: active, left out of the instrumented run — compiler-analysis tests, minutes under instrumentation\n  \
         slow: active, left out of the instrumented run — spawns real subprocesses\n  \
         posix: active, left out of the instrumented run — needs a POSIX shell (`cfg(unix)` holds on x86_64-unknown-linux-gnu)\n"
    ), "{}", table.stdout);
    let windows = check(&sandbox, &["--target", WINDOWS]);
    assert!(windows.stdout.contains(
        "  posix: inactive, runs in the instrumented run — needs a POSIX shell (`cfg(unix)` does not hold on x86_64-pc-windows-msvc)\n"
    ), "{}", windows.stdout);
    let markdown = check(&sandbox, &["--format", "markdown", "--target", WINDOWS]);
    assert!(markdown.stdout.contains(
        "**Exempt suites** (roster verified) on this leg:\n\n\
         - heavy — active, left out of the instrumented run: compiler-analysis tests, minutes under instrumentation\n\
         - slow — active, left out of the instrumented run: spawns real subprocesses\n\
         - posix — inactive, runs in the instrumented run: needs a POSIX shell (\\`cfg(unix)\\` does not hold on x86\\_64-pc-windows-msvc)\n"
    ), "{}", markdown.stdout);
    let json = check(&sandbox, &["--format", "json", "--target", LINUX]).json();
    let roster = &json["facts"]["roster"];
    assert_eq!(roster["verified"], true);
    assert_eq!(roster["suites"].as_array().map(Vec::len), Some(3));
    let posix = &roster["suites"][2];
    assert_eq!(posix["name"], "posix");
    assert_eq!(posix["filter"], "-p beta-pkg --test posix");
    assert_eq!(posix["glob"], "beta/tests/posix.rs");
    assert_eq!(posix["when"], "cfg(unix)");
    assert_eq!(posix["when_missing"], serde_json::json!([]));
    assert_eq!(posix["active"], true);
    let location = posix["location"].as_str().unwrap_or_default();
    assert!(
        location.ends_with("/coverage-policy.toml:18:8"),
        "{location}"
    );
    assert_eq!(roster["suites"][0]["when"], serde_json::Value::Null);
    assert_eq!(roster["suites"][0]["why"], "");
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/check-output.schema.json"),
        )
        .expect("the schema"),
    )
    .expect("JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
    let errors: Vec<String> = validator
        .iter_errors(&json)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    // --no-walk: the sources are not at hand, the roster is listed but not verified.
    let no_walk = check(&sandbox, &["--no-walk"]);
    assert!(
        no_walk
            .stdout
            .contains("exempt suites (roster not verified: --no-walk):\n"),
        "{}",
        no_walk.stdout
    );
    let md = check(&sandbox, &["--no-walk", "--format", "markdown"]);
    assert!(
        md.stdout
            .contains("**Exempt suites** (roster not verified: --no-walk)"),
        "{}",
        md.stdout
    );
    // Without [[suite]] entries, nothing about a roster is shown.
    let plain = check_sandbox("");
    for format in ["table", "markdown", "json"] {
        let run = check(&plain, &["--format", format]);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        assert!(
            !run.stdout.to_lowercase().contains("exempt suites"),
            "{}",
            run.stdout
        );
        assert!(!run.stdout.contains("\"roster\""), "{}", run.stdout);
    }
}

#[test]
fn check_fails_with_the_same_messages_when_the_roster_does_not_verify() {
    let policy = suite(
        "folder",
        "-p alpha --test folder",
        "alpha/tests/folder/main.rs",
    ) + &suite("twice", "-p alpha --test folder", "alpha/tests/folder/**");
    let sandbox = check_sandbox(&policy);
    let run = check(&sandbox, &[]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr.replace(&sandbox.path().display().to_string(), "[SANDBOX]"),
        "covgate: error: the [[suite]] roster does not verify; fix the policy or the tests (docs/roster.md):\n  \
         suite `folder` ([SANDBOX]/coverage-policy.toml:5:8): only the filter selects: alpha/tests/folder/helper.rs\n  \
         suites `folder` and `twice` share: alpha/tests/folder/helper.rs, alpha/tests/folder/main.rs\n"
    );
    let verified = verify(&policy, &[]);
    assert!(
        verified
            .stdout
            .contains("  only the filter selects: alpha/tests/folder/helper.rs\n"),
        "{}",
        verified.stdout
    );
    assert!(verified.stdout.contains(
        "suites `folder` and `twice` share: alpha/tests/folder/helper.rs, alpha/tests/folder/main.rs\n"
    ));
    // --no-walk does not verify, so it does not fail on the roster.
    assert_eq!(check(&sandbox, &["--no-walk"]).code, 0);
    // Verifying needs the cargo workspace: without one, the check stops (exit 2).
    let elsewhere = check_sandbox(&policy);
    elsewhere.write("alpha/src/lib.rs", "pub fn one() -> u32 { 1 }\n");
    let run = elsewhere.run(&["check", "lib.info"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.starts_with(
            "covgate: error: the [[suite]] roster needs the cargo workspace at the root "
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn cargo_cannot_run_a_roster_target_whose_name_another_package_shares() {
    let policy = suite("fast", "-p alpha --test fast", "alpha/tests/fast.rs");
    let run = args(&policy, "plain", "cargo", LINUX);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stderr,
        "covgate: error: --runner cargo cannot tell alpha::fast (in the roster) from beta-pkg::fast: \
         cargo selects test targets by name across packages; use --runner nextest, or rename one\n"
    );
    assert_eq!(
        words(&args(&policy, "instrumented", "nextest", LINUX)),
        ["--workspace", "-E", "!(binary_id(=alpha::fast))"]
    );
}

#[test]
fn a_root_that_cannot_be_walked_is_an_error() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "Cargo.toml",
        "[package]\nname = \"deep\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    sandbox.write("src/lib.rs", "");
    sandbox.policy(&suite("a", "--test a", "tests/a.rs"));
    // A folder nested deeper than PATH_MAX cannot be opened by its full path, even by root.
    let long = "d".repeat(200);
    let mut chain = sandbox.path().join("chain0");
    std::fs::create_dir(&chain).expect("mkdir");
    for i in 1..25 {
        let next = sandbox.path().join(format!("chain{i}"));
        std::fs::create_dir(&next).expect("mkdir");
        std::fs::rename(&chain, next.join(&long)).expect("rename");
        chain = next;
    }
    let run = sandbox.run(&["roster", "--verify"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.starts_with(&format!(
            "covgate: error: walking {}: ",
            sandbox.path().display()
        )),
        "{}",
        run.stderr
    );
}

#[test]
fn admission_on_lcov_shards() {
    let sandbox = check_sandbox(&suite(
        "heavy",
        "-p alpha --test heavy",
        "alpha/tests/heavy.rs",
    ));
    // The suites' export names alpha's library (executed) and a file outside the root.
    sandbox.write(
        "suite-a.info",
        "SF:alpha/src/lib.rs\nDA:1,1\nend_of_record\nSF:/elsewhere/x.rs\nDA:1,1\nend_of_record\n",
    );
    sandbox.write(
        "suite-b.info",
        "SF:alpha/src/lib.rs\nDA:5,0\nend_of_record\n",
    );
    let ws = ws();
    let admit = |extra: &[&str]| {
        let mut all = vec![
            "roster",
            "--verify",
            "--policy",
            "coverage-policy.toml",
            "--root",
            &ws,
        ];
        all.extend_from_slice(extra);
        sandbox.run(&all)
    };
    let run = admit(&[
        "--suite-report",
        "suite-a.info",
        "--suite-report",
        "suite-b.info",
        "--report",
        "lib.info",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.ends_with(
            "admission: the roster suites executed 1 measured file(s) (suite-a.info, suite-b.info); each is at 100% in lib.info\n"
        ),
        "{}",
        run.stdout
    );
    // The main run misses a line of the file the suites executed.
    sandbox.write(
        "main.info",
        "SF:alpha/src/lib.rs\nDA:1,1\nDA:5,0\nend_of_record\n",
    );
    let run = admit(&["--suite-report", "suite-a.info", "--report", "main.info"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.ends_with(
            "admission: the roster suites executed 1 measured file(s) (suite-a.info); these are below 100% in main.info:\n  \
             alpha/src/lib.rs: lines 1/2\n"
        ),
        "{}",
        run.stdout
    );
    // Exports that cannot be read: the main run's, then the suites'.
    let run = admit(&["--suite-report", "suite-a.info", "--report", "nope.info"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .starts_with("covgate: error: nope.info: cannot read the report"),
        "{}",
        run.stderr
    );
    let run = admit(&["--suite-report", "nope.info", "--report", "lib.info"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .starts_with("covgate: error: nope.info: cannot read the report"),
        "{}",
        run.stderr
    );
    // A suite export is evidence only when it lands in scope: CI paths without a mapping and
    // an export without records are errors (as for `check`), never a vacuous admission.
    sandbox.write(
        "suite-ci.info",
        "SF:/ci/ws/alpha/src/lib.rs\nDA:1,1\nend_of_record\n",
    );
    let run = admit(&["--suite-report", "suite-ci.info", "--report", "main.info"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("no file in the report(s) is selected by `include`"),
        "{}",
        run.stderr
    );
    let remap = format!("/ci/ws={ws}");
    let run = admit(&[
        "--suite-report",
        "suite-ci.info",
        "--report",
        "main.info",
        "--remap-path-prefix",
        &remap,
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("these are below 100% in main.info:\n  alpha/src/lib.rs: lines 1/2\n"),
        "{}",
        run.stdout
    );
    sandbox.write("suite-none.info", "SF:alpha/src/lib.rs\nend_of_record\n");
    let run = admit(&["--suite-report", "suite-none.info", "--report", "main.info"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("no coverage record in any report"),
        "{}",
        run.stderr
    );
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// The test binaries that ran, from nextest's own output: each `PASS [time] (i/n) BINARY TEST`
/// line names the binary ID before the test name.
fn binaries_run(out: &Output) -> BTreeSet<String> {
    let text =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    text.lines()
        .filter(|l| l.trim_start().starts_with("PASS "))
        .map(|l| {
            let tokens: Vec<&str> = l.split_whitespace().collect();
            tokens[tokens.len() - 2].to_string()
        })
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_real_nextest_run_of_the_derived_arguments() {
    let dir = workspace();
    if !cargo(dir, &strings(&["nextest", "--version"]))
        .status
        .success()
    {
        eprintln!("SKIP: cargo-nextest is not installed (cargo install --locked cargo-nextest)");
        return;
    }
    let run = |which: &str| {
        let mut cmd = strings(&["nextest", "run", "--color", "never"]);
        cmd.extend(words(&args(ROSTER, which, "nextest", LINUX)));
        binaries_run(&cargo(dir, &cmd))
    };
    assert_eq!(
        run("instrumented"),
        set(&[
            "alpha",
            "alpha::example/ex",
            "alpha::fast",
            "beta-pkg::bench/perf",
            "beta-pkg::bin/beta-pkg",
            "beta-pkg::fast",
            "beta-pkg::other"
        ])
    );
    assert_eq!(
        run("plain"),
        set(&[
            "alpha::folder",
            "alpha::heavy",
            "beta-pkg::posix",
            "beta-pkg::slow"
        ])
    );
    // The same split with cargo's own runner: `Running tests/NAME.rs` lines (same build).
    let cargo_run = |which: &str| -> BTreeSet<String> {
        let mut cmd = strings(&["test"]);
        cmd.extend(words(&args(ROSTER, which, "cargo", LINUX)));
        let out = cargo(dir, &cmd);
        let text = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{text}");
        text.lines()
            .filter_map(|l| l.trim_start().strip_prefix("Running "))
            .map(|l| {
                l.trim_start_matches("unittests ")
                    .split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect()
    };
    assert_eq!(
        cargo_run("instrumented"),
        set(&[
            "benches/perf.rs",
            "examples/ex.rs",
            "src/lib.rs",
            "src/main.rs",
            "tests/fast.rs",
            "tests/other.rs"
        ])
    );
    assert_eq!(
        cargo_run("plain"),
        set(&[
            "tests/folder/main.rs",
            "tests/heavy.rs",
            "tests/posix.rs",
            "tests/slow.rs"
        ])
    );
}

/// The admission crate: `src/b.rs` is covered in full only by the heavy (roster) suite.
const ADMISSION: &[(&str, &str)] = &[
    (
        "Cargo.toml",
        "[package]\nname = \"adm\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    ),
    ("src/lib.rs", "pub mod a;\npub mod b;\n"),
    ("src/a.rs", "pub fn double(x: u32) -> u32 {\n    x * 2\n}\n"),
    (
        "src/b.rs",
        "pub fn classify(x: u32) -> &'static str {\n    if x > 10 {\n        \"big\"\n    } else {\n        \"small\"\n    }\n}\n",
    ),
    (
        "tests/fast.rs",
        "#[test]\nfn fast() {\n    assert_eq!(adm::a::double(2), 4);\n    assert_eq!(adm::b::classify(1), \"small\");\n}\n",
    ),
    (
        "tests/heavy.rs",
        "#[test]\nfn heavy() {\n    assert_eq!(adm::a::double(3), 6);\n    assert_eq!(adm::b::classify(20), \"big\");\n}\n",
    ),
];

const ADMISSION_POLICY: &str = "[measure]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n\n\
    [[suite]]\nname = \"heavy\"\nfilter = \"--test heavy\"\nglob = \"tests/heavy.rs\"\nreason = \"slow\"\n";

/// Writes the admission crate under `CARGO_TARGET_TMPDIR` and makes both exports with
/// `cargo llvm-cov`, each run given the arguments covgate derives (`--runner cargo`).
fn admission_exports() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("roster-admission");
    for (rel, text) in ADMISSION {
        write_if_changed(&dir.join(rel), text);
    }
    write_if_changed(&dir.join("coverage-policy.toml"), ADMISSION_POLICY);
    if !cargo(&dir, &strings(&["llvm-cov", "--version"]))
        .status
        .success()
    {
        eprintln!("SKIP: cargo-llvm-cov is not installed (cargo install --locked cargo-llvm-cov)");
        return None;
    }
    for (which, export) in [("instrumented", "main.json"), ("plain", "suite.json")] {
        let run = covgate(&dir, &["roster", "--args", which, "--runner", "cargo"]);
        let mut cmd = strings(&["llvm-cov", "--json", "--output-path", export]);
        cmd.extend(words(&run));
        let out = cargo(&dir, &cmd);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Some(dir)
}

#[test]
fn admission_on_real_exports() {
    let Some(dir) = admission_exports() else {
        return;
    };
    let admit = &[
        "roster",
        "--verify",
        "--suite-report",
        "suite.json",
        "--report",
        "main.json",
    ];
    let run = covgate(&dir, admit);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        "heavy: verified, active — 1 target(s) (adm::heavy), 1 file(s)\n\
         admission: the roster suites executed 2 measured file(s) (suite.json); these are below 100% in main.json:\n  \
         src/b.rs: regions 4/5, lines 4/5\n"
    );
    // The main run alone fails src/b.rs too: the gate and the admission agree.
    let check = covgate(&dir, &["check", "main.json", "--format", "json"]);
    assert_eq!(check.code, 1, "{}{}", check.stdout, check.stderr);
    assert_eq!(
        common::metric(&check.json(), "src/b.rs", "lines"),
        "4/5 fail"
    );
    // Excluded, src/b.rs is not measured: what the suite executes is then all at 100%.
    let sandbox = Sandbox::new();
    sandbox.policy(&format!(
        "{ADMISSION_POLICY}\n[[exclude]]\npath = \"src/b.rs\"\nreason = \"covered by the heavy suite only\"\n"
    ));
    let root = dir.display().to_string();
    let suite = dir.join("suite.json").display().to_string();
    let main = dir.join("main.json").display().to_string();
    let run = sandbox.run(&[
        "roster",
        "--verify",
        "--suite-report",
        &suite,
        "--report",
        &main,
        "--root",
        &root,
        "--policy",
        "coverage-policy.toml",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.ends_with(&format!(
            "admission: the roster suites executed 1 measured file(s) ({suite}); each is at 100% in {main}\n"
        )),
        "{}",
        run.stdout
    );
    // Suite shards that cannot be merged (LCOV and JSON for one file) are an input error.
    std::fs::write(dir.join("a.info"), "SF:src/a.rs\nDA:2,1\nend_of_record\n").expect("write");
    let run = covgate(
        &dir,
        &[
            "roster",
            "--verify",
            "--suite-report",
            "suite.json",
            "--suite-report",
            "a.info",
            "--report",
            "main.json",
        ],
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.starts_with("covgate: error: "), "{}", run.stderr);
    assert!(run.stderr.contains("src/a.rs"), "{}", run.stderr);
}
