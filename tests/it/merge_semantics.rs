//! Merges and markers keep llvm-cov's counting rule (per instantiation group, the best single
//! instantiation), in both formats: `tests/fixtures/merge/shards` is a crate whose two tests
//! each instantiate `pick<T>` with a type of their own and run one arm; `a.*` and `b.*` are
//! `cargo +nightly llvm-cov --branch` exports of each test alone, `all.*` of both (the merged
//! profiles; `all_report.txt` is `cargo llvm-cov report` of them: 10 of 11 lines, 1 of 2
//! branches).

use crate::common;

use common::{fixture, metric, status, Sandbox};

const LCOV_POLICY: &str =
    "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"branches\", \"functions\", \"lines\"]\n";
const JSON_POLICY: &str = "[measure]\ninclude = [\"src/**/*.rs\"]\n";

/// A copy of the crate with `policy`.
fn sandbox(policy: &str) -> Sandbox {
    let sandbox = Sandbox::copy_of("merge/shards/crate");
    sandbox.policy(policy);
    sandbox
}

/// `covgate check` of `reports` (names under `tests/fixtures/merge/shards`), as JSON.
fn check(sandbox: &Sandbox, reports: &[&str]) -> common::Run {
    let paths: Vec<String> = reports
        .iter()
        .map(|r| fixture(&format!("merge/shards/{r}")).display().to_string())
        .collect();
    let remap = format!("/ws/shards={}", sandbox.path().display());
    let mut args = vec!["check"];
    args.extend(paths.iter().map(String::as_str));
    args.extend(["--format", "json", "--remap-path-prefix", &remap]);
    sandbox.run(&args)
}

#[test]
fn the_fixture_is_what_llvm_cov_reports() {
    let report = std::fs::read_to_string(fixture("merge/shards/all_report.txt")).expect("report");
    let row: Vec<&str> = report
        .lines()
        .find(|l| l.starts_with("/ws/shards/src/lib.rs"))
        .expect("row")
        .split_whitespace()
        .collect();
    // Regions 19 (1 missed), functions 3 (0 missed), lines 11 (1 missed), branches 2 (1 missed).
    assert_eq!(
        [row[1], row[2], row[4], row[5], row[7], row[8], row[10], row[11]],
        ["19", "1", "3", "0", "11", "1", "2", "1"]
    );
    let sb = sandbox(LCOV_POLICY);
    let run = check(&sb, &["all.info"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "10/11 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "branches"), "1/2 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "3/3 pass");
}

#[test]
fn a_marker_in_an_llvm_cov_tracefile_keeps_the_per_instantiation_count() {
    let sb = sandbox(LCOV_POLICY);
    let lib = std::fs::read_to_string(sb.path().join("src/lib.rs")).expect("lib.rs");
    let marked = lib.replace(
        "assert_eq!(pick(true, 1u8, 2u8), 1);",
        "assert_eq!(pick(true, 1u8, 2u8), 1); // covgate:ignore -- a line of a test",
    );
    assert_ne!(lib, marked);
    sb.write("src/lib.rs", &marked);
    for report in ["all.info", "all.json"] {
        let run = check(&sb, &[report]);
        assert_eq!(run.code, 1, "{report}: {}{}", run.stdout, run.stderr);
        let doc = run.json();
        // One line less; `pick` still has no instantiation that ran both arms.
        assert_eq!(status(&doc, "src/lib.rs"), "fail", "{report}");
        assert_eq!(metric(&doc, "src/lib.rs", "lines"), "9/10 fail", "{report}");
        assert_eq!(
            metric(&doc, "src/lib.rs", "branches"),
            "1/2 fail",
            "{report}"
        );
    }
}

#[test]
fn shards_of_instantiations_that_ran_apart_never_pass() {
    // The JSON exports merge exactly: what llvm-cov reports for the merged profiles.
    let sb = sandbox(JSON_POLICY);
    let merged = check(&sb, &["a.json", "b.json"]);
    let oracle = check(&sb, &["all.json"]);
    assert_eq!(merged.code, 1, "{}{}", merged.stdout, merged.stderr);
    let (merged, oracle) = (merged.json(), oracle.json());
    for m in ["regions", "branches", "functions", "lines"] {
        assert_eq!(
            metric(&merged, "src/lib.rs", m),
            metric(&oracle, "src/lib.rs", m),
            "{m}"
        );
    }
    assert_eq!(metric(&merged, "src/lib.rs", "lines"), "10/11 fail");
    // The tracefiles cannot tell (their records sum the instantiations: 11 of 11 lines): a
    // clear error, whether given apart or as one file.
    let sb = sandbox(LCOV_POLICY);
    let run = check(&sb, &["a.info", "b.info"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("cannot be merged exactly")
            && run.stderr.contains("instantiations of one function ran")
            && run.stderr.contains("--json"),
        "{}",
        run.stderr
    );
    let joined = [
        std::fs::read_to_string(fixture("merge/shards/a.info")).expect("a"),
        std::fs::read_to_string(fixture("merge/shards/b.info")).expect("b"),
    ]
    .concat();
    sb.write("joined.info", &joined);
    let remap = format!("/ws/shards={}", sb.path().display());
    let run = sb.run(&["check", "joined.info", "--remap-path-prefix", &remap]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("cannot be merged exactly"),
        "{}",
        run.stderr
    );
}
