//! Adopting covgate on a crate below 100%, end to end: builds `tests/crates/ledger` with
//! `cargo llvm-cov` (under `target/tmp/ledger`, its build cached there), then
//! `covgate init cov.json` → `check` passes; an uncovered function is added → `check` fails
//! naming it; a test covering an old gap is added → `check` fails saying "tighten";
//! `check --tighten` → passes, and the ledger's diff is exactly the lowered counts, its comments
//! kept.
//!
//! Skips, saying why, only when cargo-llvm-cov is not installed (`.ci/run` installs it).

use crate::common;

use std::path::{Path, PathBuf};

use common::{cargo, copy_dir, Run};

/// A fresh copy of the crate's sources (its `target/` kept from an earlier run), or `None`
/// when cargo-llvm-cov is not installed.
fn crate_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ledger");
    let _ = std::fs::remove_dir_all(dir.join("src"));
    let _ = std::fs::remove_dir_all(dir.join("tests"));
    let _ = std::fs::remove_file(dir.join("coverage-policy.toml"));
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/crates/ledger");
    copy_dir(&src, &dir);
    let version = cargo(&dir, &["llvm-cov", "--version"]);
    if !version.status.success() {
        eprintln!("SKIP: cargo-llvm-cov is not installed (cargo install --locked cargo-llvm-cov)");
        return None;
    }
    Some(dir)
}

/// Runs the crate's tests under `cargo llvm-cov` and writes `cov.json`.
fn export(dir: &Path) {
    let out = cargo(dir, &["llvm-cov", "--json", "--output-path", "cov.json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn check(dir: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["check", "cov.json"];
    args.extend_from_slice(extra);
    common::covgate(dir, &args)
}

/// `(regions, functions, lines)` missed in `src/parse.rs` by the export's own summary.
fn missed_in_parse(dir: &Path) -> (u64, u64, u64) {
    let text = std::fs::read_to_string(dir.join("cov.json")).expect("cov.json");
    let doc: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let file = doc["data"][0]["files"]
        .as_array()
        .expect("files")
        .iter()
        .find(|f| {
            f["filename"]
                .as_str()
                .is_some_and(|n| n.ends_with("src/parse.rs"))
        })
        .expect("src/parse.rs in the export");
    let missed = |metric: &str| {
        let s = &file["summary"][metric];
        s["count"].as_u64().expect("count") - s["covered"].as_u64().expect("covered")
    };
    (missed("regions"), missed("functions"), missed("lines"))
}

/// The `[[debt]]` entry of `path` in `policy`: its lines, from `[[debt]]` to `reason`.
fn entry<'a>(policy: &'a str, path: &str) -> &'a str {
    let head = format!("[[debt]]\npath = \"{path}\"\n");
    let start = policy
        .find(&head)
        .unwrap_or_else(|| panic!("no entry for {path}:\n{policy}"));
    let end = start + policy[start..].find("reason = ").expect("reason");
    &policy[start..end]
}

#[test]
fn adopting_a_crate_below_100_percent() {
    let Some(dir) = crate_dir() else { return };
    export(&dir);
    let (regions, functions, lines) = missed_in_parse(&dir);
    assert_eq!(functions, 2, "old_gap and other_gap are never run");

    // 1. init records today's debt; the check passes on it.
    let init = common::covgate(&dir, &["init", "cov.json"]);
    assert_eq!(init.code, 0, "{}", init.stderr);
    assert!(
        init.stdout
            .starts_with("wrote coverage-policy.toml: 2 [[debt]] entries"),
        "{}",
        init.stdout
    );
    assert!(init.stdout.ends_with("next: covgate check cov.json\n"));
    let policy_path = dir.join("coverage-policy.toml");
    let written = std::fs::read_to_string(&policy_path).expect("policy");
    assert!(
        written.contains("include = [\"src/**/*.rs\"]\n"),
        "{written}"
    );
    assert_eq!(
        entry(&written, "src/parse.rs"),
        format!(
            "[[debt]]\npath = \"src/parse.rs\"\nregions = {regions}\nfunctions = 2\nlines = {lines}\n"
        )
    );
    assert!(!written.contains("path = \"src/lib.rs\""), "{written}");
    let run = check(&dir, &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("debt: "), "{}", run.stdout);

    // The team annotates the ledger; the comments must survive --tighten.
    let annotated = written
        .replace(
            "[[debt]]\npath = \"src/parse.rs\"\n",
            "# The parser: tests pending (see the tracking issue).\n[[debt]]\npath = \"src/parse.rs\"\n",
        )
        .replace("functions = 2\n", "functions = 2 # old_gap and other_gap\n");
    std::fs::write(&policy_path, &annotated).expect("annotate");

    // 2. A new uncovered function fails the check, named.
    let util = dir.join("src/util.rs");
    let before = std::fs::read_to_string(&util).expect("util.rs");
    std::fs::write(
        &util,
        format!("{before}\n/// New and untested.\npub fn fresh_gap() -> u32 {{\n    8\n}}\n"),
    )
    .expect("add a function");
    export(&dir);
    let run = check(&dir, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("fresh_gap"), "{}", run.stdout);
    assert!(
        run.stdout.contains("more than the [[debt]] entry at"),
        "{}",
        run.stdout
    );
    std::fs::write(&util, &before).expect("restore util.rs");

    // 3. A test covers an old gap: the ledger is loose, the check says to tighten it.
    std::fs::create_dir_all(dir.join("tests")).expect("tests/");
    std::fs::write(
        dir.join("tests/old_gap.rs"),
        "#[test]\nfn old_gap_is_covered() {\n    assert_eq!(ledger::parse::old_gap(\"ab\"), 4);\n}\n",
    )
    .expect("add a test");
    export(&dir);
    let (regions_now, functions_now, lines_now) = missed_in_parse(&dir);
    assert_eq!(functions_now, 1);
    assert!(regions_now < regions && lines_now < lines);
    let run = check(&dir, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("tighten `functions` to 1"),
        "{}",
        run.stdout
    );
    assert!(run
        .stdout
        .contains(&format!("tighten `lines` to {lines_now}")));
    assert_eq!(std::fs::read_to_string(&policy_path).unwrap(), annotated);

    // 4. --tighten lowers exactly those counts, keeps the comments, and the check passes.
    let run = check(&dir, &["--tighten"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let tightened = std::fs::read_to_string(&policy_path).expect("policy");
    let expected = annotated.replace(
        &format!(
            "path = \"src/parse.rs\"\nregions = {regions}\nfunctions = 2 # old_gap and other_gap\nlines = {lines}\n"
        ),
        &format!(
            "path = \"src/parse.rs\"\nregions = {regions_now}\nfunctions = 1 # old_gap and other_gap\nlines = {lines_now}\n"
        ),
    );
    assert_ne!(expected, annotated, "the entry is spelled as expected");
    assert_eq!(tightened, expected);
    assert!(
        run.stderr.contains("src/parse.rs: functions 2 → 1"),
        "{}",
        run.stderr
    );
}
