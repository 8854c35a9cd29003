//! End to end on a fresh export: builds `tests/crates/tiny` with `cargo llvm-cov` (cached under
//! `target/tmp`), then checks the JSON export and the LCOV tracefile of the same run; builds the
//! two-member workspace `tests/crates/lengths` with `--remap-path-prefix` (workspace-relative
//! paths) and checks it from the workspace's policy and from a member's.
//!
//! Skips, saying why, only when cargo-llvm-cov is not installed (`.ci/run` installs it).

use crate::common;

use std::path::{Path, PathBuf};

use common::{cargo, copy_dir, metric, status};

fn llvm_cov_available(dir: &Path) -> bool {
    let out = cargo(dir, &["llvm-cov", "--version"]);
    if !out.status.success() {
        eprintln!("SKIP: cargo-llvm-cov is not installed (cargo install --locked cargo-llvm-cov)");
    }
    out.status.success()
}

/// Copies the tiny crate to `target/tmp/tiny` and produces `cov.json` and `cov.info` there once.
fn exports() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tiny");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/crates/tiny");
    copy_dir(&src, &dir);
    if !llvm_cov_available(&dir) {
        return None;
    }
    let json = cargo(&dir, &["llvm-cov", "--json", "--output-path", "cov.json"]);
    assert!(
        json.status.success(),
        "{}",
        String::from_utf8_lossy(&json.stderr)
    );
    let lcov = cargo(
        &dir,
        &["llvm-cov", "report", "--lcov", "--output-path", "cov.info"],
    );
    assert!(
        lcov.status.success(),
        "{}",
        String::from_utf8_lossy(&lcov.stderr)
    );
    Some(dir)
}

#[test]
fn fresh_export_of_a_tiny_crate() {
    let Some(dir) = exports() else { return };
    std::fs::write(
        dir.join("coverage-policy.toml"),
        "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n",
    )
    .expect("policy");
    let run = common::covgate(
        &dir,
        &["check", "cov.json", "--format", "json", "--show", "all"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(doc["verdict"], "fail");
    assert_eq!(status(&doc, "src/covered.rs"), "pass");
    assert_eq!(metric(&doc, "src/covered.rs", "functions"), "1/1 pass");
    assert_eq!(status(&doc, "src/lib.rs"), "fail");
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "2/3 fail");
    assert_eq!(status(&doc, "src/types.rs"), "no-code");
    let uncovered = &common::file(&doc, "src/lib.rs")["uncovered"];
    assert_eq!(uncovered["functions"][0]["name"], "tiny::perimeter");
    assert_eq!(uncovered["functions"][0]["line"], 15);
    assert_eq!(uncovered["lines"][0]["start"], 15);
    let table = common::covgate(&dir, &["check", "cov.json"]);
    assert!(
        table
            .stdout
            .contains("functions: tiny::perimeter (line 15)"),
        "{}",
        table.stdout
    );
    assert_eq!(status(&doc, "src/orphan.rs"), "unmeasured");

    // Stable exports have no branch data: with branches in the policy, they fail closed.
    std::fs::write(dir.join("coverage-policy.toml"), "").expect("policy");
    let run = common::covgate(&dir, &["check", "cov.json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("cargo +nightly llvm-cov --branch"),
        "{}",
        run.stdout
    );

    // The LCOV tracefile of the same run gives the same functions and lines.
    std::fs::write(
        dir.join("coverage-policy.toml"),
        "[measure]\nmetrics = [\"functions\", \"lines\"]\n",
    )
    .expect("policy");
    let run = common::covgate(
        &dir,
        &["check", "cov.info", "--format", "json", "--show", "all"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let lcov = run.json();
    // Merging a tracefile with itself changes nothing (functions are not counted twice).
    let twice = common::covgate(&dir, &["check", "cov.info", "cov.info", "--format", "json"]);
    let twice = twice.json();
    for path in ["src/covered.rs", "src/lib.rs"] {
        for m in ["functions", "lines"] {
            assert_eq!(metric(&lcov, path, m), metric(&doc, path, m), "{path} {m}");
            assert_eq!(
                metric(&twice, path, m),
                metric(&doc, path, m),
                "twice: {path} {m}"
            );
        }
    }
}

/// Copies the `lengths` workspace to `target/tmp/lengths` and exports it with workspace-relative
/// paths (`cargo llvm-cov --workspace --remap-path-prefix`), as JSON and LCOV.
fn workspace_exports() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lengths");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/crates/lengths");
    copy_dir(&src, &dir);
    if !llvm_cov_available(&dir) {
        return None;
    }
    let json = cargo(
        &dir,
        &[
            "llvm-cov",
            "--workspace",
            "--remap-path-prefix",
            "--json",
            "--output-path",
            "cov.json",
        ],
    );
    assert!(
        json.status.success(),
        "{}",
        String::from_utf8_lossy(&json.stderr)
    );
    Some(dir)
}

#[test]
fn fresh_workspace_export_with_relative_paths_from_workspace_and_member_policies() {
    let Some(dir) = workspace_exports() else {
        return;
    };
    let export = std::fs::read_to_string(dir.join("cov.json")).expect("export");
    assert!(
        export.contains("\"filename\":\"crates/units/src/lib.rs\""),
        "not workspace-relative"
    );
    let json = [
        "check",
        "../../cov.json",
        "--format",
        "json",
        "--show",
        "all",
    ];
    // The numbers are llvm-cov's own file summaries (they differ between stable and nightly
    // rustc, whichever the outer run uses): covgate must give exactly those.
    let summaries: serde_json::Value = serde_json::from_str(&export).expect("export JSON");
    let llvm = |file: &str, m: &str, verdict: &str| {
        let files = summaries["data"][0]["files"].as_array().expect("files");
        let entry = files
            .iter()
            .find(|f| f["filename"] == file)
            .unwrap_or_else(|| panic!("{file} in the export"));
        let s = &entry["summary"][m];
        format!("{}/{} {verdict}", s["covered"], s["count"])
    };
    let member = common::covgate(&dir.join("crates/units"), &json);
    assert_eq!(member.code, 1, "{}{}", member.stdout, member.stderr);
    let doc = member.json();
    for m in ["regions", "functions", "lines"] {
        let want = llvm("crates/units/src/lib.rs", m, "fail");
        assert_eq!(metric(&doc, "src/lib.rs", m), want, "{m}");
    }
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "2/3 fail");
    assert_eq!(doc["summary"]["measured"], 1);
    assert_eq!(doc["dropped"][0]["path"], "crates/app/src/lib.rs");

    let workspace = common::covgate(&dir, &["check", "cov.json", "--format", "json"]);
    assert_eq!(
        workspace.code, 1,
        "{}{}",
        workspace.stdout, workspace.stderr
    );
    let doc = workspace.json();
    for m in ["regions", "functions", "lines"] {
        let units = llvm("crates/units/src/lib.rs", m, "fail");
        assert_eq!(metric(&doc, "crates/units/src/lib.rs", m), units, "{m}");
        let app = llvm("crates/app/src/lib.rs", m, "pass");
        assert_eq!(metric(&doc, "crates/app/src/lib.rs", m), app, "{m}");
    }
    assert_eq!(status(&doc, "crates/app/src/lib.rs"), "pass");
}
