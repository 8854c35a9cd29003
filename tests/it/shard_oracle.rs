//! The shard oracle: `tests/crates/shards` is instrumented with cargo-llvm-cov and its tests are
//! run as two and as three partitions (`cargo llvm-cov --no-report -- FILTER`), each partition
//! exported alone; `cargo llvm-cov report` over the profiles of all partitions is the oracle.
//! covgate's merge of the partition exports must give the oracle's numbers on every file and
//! metric, on stable and on nightly with `--branch` (builds cached under `target/tmp`).
//!
//! Skips, saying why, only when cargo-llvm-cov (or, for the nightly test, the nightly
//! toolchain) is not installed (`.ci/run` installs both).

use crate::common;

use std::path::{Path, PathBuf};

use common::{cargo_on, copy_dir, metric};
use serde_json::Value;

/// Runs cargo, failing the test with its output when it fails.
fn run(toolchain: Option<&str>, dir: &Path, args: &[&str]) {
    let out = cargo_on(toolchain, dir, args);
    assert!(
        out.status.success(),
        "cargo {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Copies the crate to `target/tmp/<name>`; `None` (with the reason printed) when the tools
/// are missing.
fn workspace(name: &str, toolchain: Option<&str>) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/crates/shards"),
        &dir,
    );
    let ready = cargo_on(toolchain, &dir, &["llvm-cov", "--version"]);
    if !ready.status.success() {
        eprintln!(
            "SKIP: cargo-llvm-cov on {} is not installed: {}",
            toolchain.unwrap_or("this toolchain"),
            String::from_utf8_lossy(&ready.stderr)
        );
        return None;
    }
    Some(dir)
}

/// Runs each partition alone and exports it (`<filter>.json`), then exports the profiles of
/// all of them together (`<all>.json`, the oracle). `branch` adds `--branch`.
fn partitions(
    dir: &Path,
    toolchain: Option<&str>,
    branch: bool,
    filters: &[&str],
    all: &str,
) -> Vec<String> {
    let flags: &[&str] = if branch { &["--branch"] } else { &[] };
    let profiles = dir.join("target/llvm-cov-target");
    let stash = dir.join(format!("stash-{all}"));
    let _ = std::fs::remove_dir_all(&stash);
    std::fs::create_dir_all(&stash).expect("stash");
    let mut exports = Vec::new();
    for filter in filters {
        run(toolchain, dir, &["llvm-cov", "clean", "--profraw-only"]);
        let mut test = vec!["llvm-cov", "--no-report"];
        test.extend_from_slice(flags);
        test.extend(["--", filter]);
        run(toolchain, dir, &test);
        let export = format!("{filter}.json");
        let mut report = vec!["llvm-cov", "report", "--json", "--output-path", &export];
        report.extend_from_slice(flags);
        run(toolchain, dir, &report);
        let tracefile = format!("{filter}.info");
        let mut report = vec!["llvm-cov", "report", "--lcov", "--output-path", &tracefile];
        report.extend_from_slice(flags);
        run(toolchain, dir, &report);
        for entry in std::fs::read_dir(&profiles).expect("profiles") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "profraw") {
                let name = path.file_name().expect("name");
                std::fs::rename(&path, stash.join(name)).expect("stash a profile");
            }
        }
        exports.push(export);
    }
    for entry in std::fs::read_dir(&stash).expect("stash") {
        let path = entry.expect("entry").path();
        std::fs::copy(&path, profiles.join(path.file_name().expect("name"))).expect("restore");
    }
    let oracle = format!("{all}.json");
    let mut report = vec!["llvm-cov", "report", "--json", "--output-path", &oracle];
    report.extend_from_slice(flags);
    run(toolchain, dir, &report);
    let oracle = format!("{all}.info");
    let mut report = vec!["llvm-cov", "report", "--lcov", "--output-path", &oracle];
    report.extend_from_slice(flags);
    run(toolchain, dir, &report);
    exports
}

/// The partitions' tracefiles (`NAME.info` beside each `NAME.json` export) merged: never other
/// numbers than the oracle's tracefile, and refused (exit 2, asking for the profiles' merge or
/// the JSON exports) where an instantiation group ran apart across partitions, as `larger`
/// does (`larger::<i32>` in one half, `larger::<f64>` in the other): summed records would call
/// both its arms covered, llvm-cov over the merged profiles does not.
fn tracefiles_never_disagree_with_the_oracle(
    dir: &Path,
    exports: &[String],
    all: &str,
    name: &str,
) {
    let tracefiles: Vec<String> = exports
        .iter()
        .map(|e| e.replace(".json", ".info"))
        .collect();
    let mut args = vec!["check"];
    args.extend(tracefiles.iter().map(String::as_str));
    args.extend(["--format", "json"]);
    let merged = common::covgate(dir, &args);
    assert_eq!(
        merged.code, 2,
        "{name} {all}: {}{}",
        merged.stdout, merged.stderr
    );
    assert!(
        merged.stderr.contains("src/lib.rs: llvm-cov LCOV sections")
            && merged.stderr.contains("cannot be merged exactly"),
        "{name} {all}: {}",
        merged.stderr
    );
    // Without the file whose instantiations ran apart, the merge is the oracle's.
    let others = format!("{all}-others.toml");
    std::fs::write(
        dir.join(&others),
        "[measure]\ninclude = [\"src/shapes.rs\"]\nmetrics = [\"functions\", \"lines\"]\n",
    )
    .expect("policy");
    args.extend(["--policy", &others]);
    let merged = common::covgate(dir, &args).json();
    let oracle_file = format!("{all}.info");
    let oracle = common::covgate(
        dir,
        &[
            "check",
            &oracle_file,
            "--format",
            "json",
            "--policy",
            &others,
        ],
    )
    .json();
    for m in ["functions", "lines"] {
        assert_eq!(
            metric(&merged, "src/shapes.rs", m),
            metric(&oracle, "src/shapes.rs", m),
            "{name} {all}: src/shapes.rs {m}"
        );
    }
}

fn check(dir: &Path, reports: &[String]) -> Value {
    let mut args = vec!["check"];
    args.extend(reports.iter().map(String::as_str));
    args.extend(["--format", "json", "--show", "all"]);
    common::covgate(dir, &args).json()
}

fn paths(doc: &Value) -> Vec<String> {
    doc["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f["path"].as_str().expect("path").to_string())
        .collect()
}

/// Covered count of `metric` in `path`.
fn covered(doc: &Value, path: &str, metric: &str) -> u64 {
    common::file(doc, path)["metrics"][metric]["covered"]
        .as_u64()
        .unwrap_or_default()
}

/// The partitions' merge equals the oracle on every file and metric, and no partition alone
/// reaches it on some metric (so the merge had something to add).
fn merge_equals_the_combined_report(toolchain: Option<&str>, branch: bool, name: &str) {
    let Some(dir) = workspace(name, toolchain) else {
        return;
    };
    let metrics: &[&str] = if branch {
        &["regions", "branches", "functions", "lines"]
    } else {
        &["regions", "functions", "lines"]
    };
    let list: Vec<String> = metrics.iter().map(|m| format!("\"{m}\"")).collect();
    std::fs::write(
        dir.join("coverage-policy.toml"),
        format!(
            "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [{}]\n",
            list.join(", ")
        ),
    )
    .expect("policy");
    for (filters, all) in [
        (&["h1", "h2"][..], "halves"),
        (&["x1", "x2", "x3"][..], "thirds"),
    ] {
        let exports = partitions(&dir, toolchain, branch, filters, all);
        tracefiles_never_disagree_with_the_oracle(&dir, &exports, all, name);
        let oracle = check(&dir, &[format!("{all}.json")]);
        let merged = check(&dir, &exports);
        assert_eq!(paths(&merged), paths(&oracle), "{name} {all}");
        assert_eq!(
            paths(&oracle),
            ["src/lib.rs", "src/shapes.rs"],
            "{name} {all}"
        );
        for path in paths(&oracle) {
            for m in metrics {
                assert_eq!(
                    metric(&merged, &path, m),
                    metric(&oracle, &path, m),
                    "{name} {all}: {path} {m}"
                );
            }
            let alone: Vec<Value> = exports
                .iter()
                .map(|e| check(&dir, std::slice::from_ref(e)))
                .collect();
            let short = metrics.iter().any(|m| {
                alone
                    .iter()
                    .all(|doc| covered(doc, &path, m) < covered(&oracle, &path, m))
            });
            assert!(
                short,
                "{name} {all}: {path}: some partition alone is complete"
            );
        }
    }
}

#[test]
fn merged_partitions_equal_the_combined_report_on_stable() {
    merge_equals_the_combined_report(None, false, "shards-stable");
}

#[test]
fn merged_partitions_equal_the_combined_report_on_nightly_with_branches() {
    merge_equals_the_combined_report(Some("nightly"), true, "shards-nightly");
}
