//! MC/DC as an opt-in fifth metric: case 37 (`tests/fixtures/cases/37-c-mcdc-compound-condition`,
//! real llvm-cov 22 exports of `(stopped && unlocked) || override`) with the verdicts of its
//! `expected.md`, in every output, and MC/DC unavailable where the input cannot carry it.

use crate::common;

use common::{fixture, metric, status};

const CASE37: &str = "37-c-mcdc-compound-condition";

/// Case 37 run as `run.sh` does: `--root project --remap-path-prefix /ws/interlock=project`.
fn case37(report: &str, policy: &str, extra: &[&str]) -> common::Run {
    let dir = fixture(&format!("cases/{CASE37}"));
    let mut args = vec![
        "check",
        report,
        "--policy",
        policy,
        "--root",
        "project",
        "--remap-path-prefix",
        "/ws/interlock=project",
    ];
    args.extend_from_slice(extra);
    common::covgate(&dir, &args)
}

fn json(report: &str, policy: &str) -> (i32, serde_json::Value) {
    let run = case37(report, policy, &["--format", "json"]);
    (run.code, run.json())
}

#[test]
fn case37_four_metrics_pass_and_say_mcdc_is_not_gated() {
    for (input, mcdc) in [("input-a.json", "1/3"), ("input-b.json", "3/3")] {
        let (code, doc) = json(input, "coverage-policy.toml");
        assert_eq!(code, 0, "{input}: {doc}");
        assert_eq!(metric(&doc, "src/interlock.c", "regions"), "8/8 pass");
        assert_eq!(metric(&doc, "src/interlock.c", "branches"), "6/6 pass");
        assert_eq!(metric(&doc, "src/interlock.c", "functions"), "1/1 pass");
        assert_eq!(metric(&doc, "src/interlock.c", "lines"), "5/5 pass");
        let file = common::file(&doc, "src/interlock.c");
        assert!(file["metrics"].get("mcdc").is_none(), "{file}");
        let warnings = doc["facts"]["warnings"].to_string();
        assert!(
            warnings.contains(&format!(
                "MC/DC data that the policy does not gate (`mcdc` is not in `metrics`): src/interlock.c {mcdc} conditions"
            )),
            "{warnings}"
        );
        assert_eq!(doc["schema_version"], 2);
    }
}

#[test]
fn case37_lcov_passes_without_mcdc_and_fails_closed_when_asked() {
    for input in ["input-a.info", "input-b.info"] {
        let (code, doc) = json(input, "coverage-policy-lcov.toml");
        assert_eq!(code, 0, "{input}: {doc}");
        assert_eq!(metric(&doc, "src/interlock.c", "branches"), "6/6 pass");
        assert_eq!(metric(&doc, "src/interlock.c", "functions"), "1/1 pass");
        assert_eq!(metric(&doc, "src/interlock.c", "lines"), "5/5 pass");
        assert_eq!(doc["facts"]["warnings"], serde_json::json!([]));
    }
    let dir = fixture(&format!("cases/{CASE37}"));
    let sandbox = tempfile::tempdir().expect("tempdir");
    let policy = sandbox.path().join("mcdc-lcov.toml");
    std::fs::write(
        &policy,
        "[measure]\ninclude = [\"src/**/*.c\"]\nmetrics = [\"lines\", \"mcdc\"]\n",
    )
    .expect("policy");
    let run = common::covgate(
        &dir,
        &[
            "check",
            "input-a.info",
            "--policy",
            &policy.display().to_string(),
            "--root",
            "project",
            "--remap-path-prefix",
            "/ws/interlock=project",
        ],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("n/a ✗"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("note: the input holds no MC/DC data: LCOV tracefiles carry none"),
        "{}",
        run.stdout
    );
}

#[test]
fn case37_mcdc_policy_fails_run_a_naming_its_conditions_and_passes_run_b() {
    let (code, doc) = json("input-a.json", "coverage-policy-mcdc.toml");
    assert_eq!(code, 1, "{doc}");
    assert_eq!(status(&doc, "src/interlock.c"), "fail");
    assert_eq!(metric(&doc, "src/interlock.c", "mcdc"), "1/3 fail");
    assert_eq!(metric(&doc, "src/interlock.c", "branches"), "6/6 pass");
    let conditions = &common::file(&doc, "src/interlock.c")["uncovered"]["conditions"];
    assert_eq!(
        *conditions,
        serde_json::json!([
            {"column": 19, "decision_column": 7, "decision_line": 5, "line": 5},
            {"column": 32, "decision_column": 7, "decision_line": 5, "line": 5}
        ])
    );
    assert_eq!(doc["facts"]["warnings"], serde_json::json!([]));

    let (code, doc) = json("input-b.json", "coverage-policy-mcdc.toml");
    assert_eq!(code, 0, "{doc}");
    assert_eq!(metric(&doc, "src/interlock.c", "mcdc"), "3/3 pass");
}

#[test]
fn case37_every_output_names_the_conditions() {
    let table = case37("input-a.json", "coverage-policy-mcdc.toml", &[]);
    assert_eq!(table.code, 1);
    assert!(table.stdout.contains("MC/DC"), "{}", table.stdout);
    assert!(
        table
            .stdout
            .contains("mcdc: 5:19 in the decision at 5:7, 5:32 in the decision at 5:7"),
        "{}",
        table.stdout
    );
    let github = case37(
        "input-a.json",
        "coverage-policy-mcdc.toml",
        &["--format", "github"],
    );
    assert!(
        github.stdout.contains(
            "::error file=src/interlock.c,line=5,col=19,title=covgate%3A MC/DC condition::condition 5:19 in the decision at 5:7 has no independence pair"
        ),
        "{}",
        github.stdout
    );
    let markdown = case37(
        "input-a.json",
        "coverage-policy-mcdc.toml",
        &["--format", "markdown"],
    );
    assert!(markdown.stdout.contains("| MC/DC |"), "{}", markdown.stdout);
    assert!(
        markdown.stdout.contains("5:32 in the decision at 5:7"),
        "{}",
        markdown.stdout
    );
}

/// An export of a build without `-fcoverage-mcdc` (every file at MC/DC 0 of 0, no decision
/// recorded): `mcdc` is unavailable, never a vacuous pass.
#[test]
fn an_export_without_mcdc_data_fails_closed() {
    let dir = fixture(&format!("cases/{CASE37}"));
    let text = std::fs::read_to_string(dir.join("input-a.json")).expect("input");
    let mut doc: serde_json::Value = serde_json::from_str(&text).expect("json");
    let zero = serde_json::json!({"count": 0, "covered": 0, "notcovered": 0, "percent": 0});
    for file in doc["data"][0]["files"].as_array_mut().expect("files") {
        file["summary"]["mcdc"] = zero.clone();
        file["mcdc_records"] = serde_json::json!([]);
    }
    for function in doc["data"][0]["functions"]
        .as_array_mut()
        .expect("functions")
    {
        function["mcdc_records"] = serde_json::json!([]);
    }
    let sandbox = tempfile::tempdir().expect("tempdir");
    let export = sandbox.path().join("plain.json");
    std::fs::write(&export, doc.to_string()).expect("write");
    let (code, out) = json(&export.display().to_string(), "coverage-policy-mcdc.toml");
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        metric(&out, "src/interlock.c", "mcdc"),
        "null/null unavailable"
    );
    let notes = out["summary"]["notes"].to_string();
    assert!(notes.contains("-fcoverage-mcdc"), "{notes}");
}

/// Runs A and B given together: their records are summed (one compiled function in two runs),
/// and the union of their test vectors pairs every condition, as one run of both gives.
#[test]
fn two_runs_merge_their_test_vectors() {
    let run = case37(
        "input-a.json",
        "coverage-policy-mcdc.toml",
        &["input-b.json", "--format", "json"],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/interlock.c", "mcdc"), "3/3 pass");
}

/// Case 37 run A with an inline marker after `code` (the first time it occurs in the source).
fn marked_run(code: &str) -> common::Run {
    marked_run_with(code, "coverage-policy-mcdc.toml", "json")
}

/// [`marked_run`] under `policy`, in `format`.
fn marked_run_with(code: &str, policy: &str, format: &str) -> common::Run {
    let sandbox = common::Sandbox::copy_of(&format!("cases/{CASE37}"));
    let source = sandbox.path().join("project/src/interlock.c");
    let text = std::fs::read_to_string(&source).expect("source");
    let marked = text.replacen(
        code,
        &format!("{code} // covgate:ignore -- the interlock is proven by hand"),
        1,
    );
    assert_ne!(marked, text);
    std::fs::write(&source, marked).expect("write");
    common::covgate(
        sandbox.path(),
        &[
            "check",
            "input-a.json",
            "--policy",
            policy,
            "--root",
            "project",
            "--remap-path-prefix",
            "/ws/interlock=project",
            "--format",
            format,
        ],
    )
}

/// An inline marker on the decision's line takes its conditions out with the line; a marker
/// elsewhere leaves them.
#[test]
fn a_marker_on_the_decision_takes_its_conditions_out() {
    let run = marked_run("|| override)");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        metric(&run.json(), "src/interlock.c", "mcdc"),
        "0/0 vacuous"
    );
    let run = marked_run("return 0;");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/interlock.c", "mcdc"), "1/3 fail");
}

/// The conditions a marker takes out are counted with the other ignored items, whether the
/// policy gates MC/DC or not (they vanished without a trace): in the JSON `ignored` of the file
/// and of the summary, and in the footer of the table and of the Markdown.
#[test]
fn conditions_a_marker_takes_out_are_counted() {
    for policy in ["coverage-policy-mcdc.toml", "coverage-policy.toml"] {
        let run = marked_run_with("|| override)", policy, "json");
        assert_eq!(run.code, 0, "{policy}: {}{}", run.stdout, run.stderr);
        let doc = run.json();
        let file = common::file(&doc, "src/interlock.c");
        assert_eq!(file["ignored"]["conditions"], 3, "{policy}: {file}");
        assert_eq!(doc["summary"]["ignored"]["conditions"], 3, "{policy}");
        let table = marked_run_with("|| override)", policy, "table");
        assert!(
            table.stdout.contains(", 3 MC/DC conditions in 1 file"),
            "{policy}: {}",
            table.stdout
        );
        let markdown = marked_run_with("|| override)", policy, "markdown");
        assert!(
            markdown.stdout.contains(", 3 MC/DC conditions in 1 file"),
            "{policy}: {}",
            markdown.stdout
        );
    }
    // A marker that takes no condition out adds no count.
    let run = marked_run("return 0;");
    let doc = run.json();
    assert!(
        doc["summary"]["ignored"].get("conditions").is_none(),
        "{doc}"
    );
    let table = marked_run_with("return 0;", "coverage-policy-mcdc.toml", "table");
    assert!(
        !table.stdout.contains("MC/DC conditions in"),
        "{}",
        table.stdout
    );
}

#[test]
fn a_summary_without_its_covered_conditions_is_an_error() {
    let dir = fixture(&format!("cases/{CASE37}"));
    let text = std::fs::read_to_string(dir.join("input-a.json")).expect("input");
    let broken = text.replacen(
        r#""mcdc":{"count":3,"covered":1,"#,
        r#""mcdc":{"count":3,"#,
        1,
    );
    assert_ne!(broken, text);
    let sandbox = tempfile::tempdir().expect("tempdir");
    let export = sandbox.path().join("broken.json");
    std::fs::write(&export, broken).expect("write");
    let run = case37(
        &export.display().to_string(),
        "coverage-policy-mcdc.toml",
        &[],
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("missing field `covered`"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_summary_covering_more_conditions_than_it_counts_is_an_error() {
    let dir = fixture(&format!("cases/{CASE37}"));
    let text = std::fs::read_to_string(dir.join("input-a.json")).expect("input");
    let broken = text.replacen(
        r#""mcdc":{"count":3,"covered":1"#,
        r#""mcdc":{"count":3,"covered":4"#,
        1,
    );
    assert_ne!(broken, text, "the fixture's summary is spelled as expected");
    let sandbox = tempfile::tempdir().expect("tempdir");
    let export = sandbox.path().join("broken.json");
    std::fs::write(&export, broken).expect("write");
    let run = case37(
        &export.display().to_string(),
        "coverage-policy-mcdc.toml",
        &[],
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("summary `mcdc` has covered 4 above count 3"),
        "{}",
        run.stderr
    );
}

/// Case 37 run A with two more files linked in, as `llvm-cov export` writes them: `src/other.c`,
/// the same `(stopped && unlocked) || override` built without `-fcoverage-mcdc` (its branches
/// plain branch regions, kind 4, no `mcdc_records`, MC/DC 0 of 0 in its summary), and
/// `src/flat.c`, without any branch. MC/DC is decided per file: 1/3 for `src/interlock.c`,
/// unavailable for `src/other.c` (not a silent 0 of 0 pass), 0 of 0 for `src/flat.c`.
#[test]
fn a_file_built_without_mcdc_next_to_one_built_with_it_is_unavailable() {
    let dir = fixture(&format!("cases/{CASE37}"));
    let text = std::fs::read_to_string(dir.join("input-a.json")).expect("input");
    let mut doc: serde_json::Value = serde_json::from_str(&text).expect("json");
    let zero = serde_json::json!({"count": 0, "covered": 0, "notcovered": 0, "percent": 0});
    let plain = |value: &mut serde_json::Value, name: &str, branches: bool| {
        let path = format!("/ws/interlock/src/{name}.c");
        if let Some(filenames) = value.get_mut("filenames") {
            *filenames = serde_json::json!([path]);
            value["name"] = serde_json::json!(name);
        } else {
            value["filename"] = serde_json::json!(path);
            value["summary"]["mcdc"] = zero.clone();
            if !branches {
                value["summary"]["branches"] = zero.clone();
            }
        }
        value["mcdc_records"] = serde_json::json!([]);
        let kept = value["branches"].as_array_mut().expect("branches");
        kept.retain(|_| branches);
        for branch in kept {
            branch[8] = serde_json::json!(4);
        }
    };
    let export = &mut doc["data"][0];
    let interlock_file = export["files"][0].clone();
    let interlock_function = export["functions"][0].clone();
    assert_eq!(interlock_function["name"], "door_may_open");
    for (name, branches) in [("other", true), ("flat", false)] {
        let mut file = interlock_file.clone();
        plain(&mut file, name, branches);
        export["files"].as_array_mut().expect("files").push(file);
        let mut function = interlock_function.clone();
        plain(&mut function, name, branches);
        let functions = export["functions"].as_array_mut().expect("functions");
        functions.push(function);
    }
    // `--no-walk`: the two files are named by the export only, not on disk.
    let sandbox = tempfile::tempdir().expect("tempdir");
    let mixed = sandbox.path().join("mixed.json");
    std::fs::write(&mixed, doc.to_string()).expect("write");
    let run = case37(
        &mixed.display().to_string(),
        "coverage-policy-mcdc.toml",
        &["--format", "json", "--no-walk"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let out = run.json();
    assert_eq!(metric(&out, "src/interlock.c", "mcdc"), "1/3 fail");
    assert_eq!(metric(&out, "src/other.c", "mcdc"), "null/null unavailable");
    assert_eq!(metric(&out, "src/other.c", "branches"), "6/6 pass");
    assert_eq!(metric(&out, "src/flat.c", "mcdc"), "0/0 vacuous");
    assert_eq!(metric(&out, "src/flat.c", "branches"), "0/0 vacuous");
    let notes = out["summary"]["notes"].to_string();
    assert!(notes.contains("-fcoverage-mcdc"), "{notes}");
}

/// A Rust export (no MC/DC anywhere, branches recorded) under a policy with `mcdc`: unavailable
/// for every file, with the hint, never 0 of 0.
#[test]
fn a_rust_export_has_no_mcdc() {
    let dir = fixture("real");
    let sandbox = tempfile::tempdir().expect("tempdir");
    let policy = sandbox.path().join("mcdc.toml");
    std::fs::write(
        &policy,
        "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"branches\", \"mcdc\"]\nthreshold = 0\n",
    )
    .expect("policy");
    let run = common::covgate(
        &dir,
        &[
            "check",
            "walkdir.branch.json",
            "--policy",
            &policy.display().to_string(),
            "--root",
            "/ci/walkdir",
            "--no-walk",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let out = run.json();
    assert_eq!(metric(&out, "src/lib.rs", "mcdc"), "null/null unavailable");
    assert_eq!(
        metric(&out, "src/error.rs", "mcdc"),
        "null/null unavailable"
    );
    let notes = out["summary"]["notes"].to_string();
    assert!(notes.contains("-fcoverage-mcdc"), "{notes}");
}
