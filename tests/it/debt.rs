//! The debt ledger (`[[debt]]`), `covgate check --tighten`, `covgate check --file` and
//! `covgate init`, on a small LCOV tracefile in a sandbox: passing, over-budget, loose and stale
//! entries as rows; snapshots of the outputs that show allowances (insta).

use crate::common;

use common::{metric, Run, Sandbox};

const TARGET: &str = "x86_64-unknown-linux-gnu";

/// src/a.rs misses 1 function (a2, line 5) and 2 lines (5-6); src/b.rs misses 1 line (2);
/// src/lib.rs misses nothing.
const LCOV: &str = "\
SF:src/a.rs
FN:1,a1
FN:5,a2
FNDA:1,a1
FNDA:0,a2
DA:1,1
DA:2,1
DA:5,0
DA:6,0
end_of_record
SF:src/b.rs
FN:1,b1
FNDA:1,b1
DA:1,1
DA:2,0
end_of_record
SF:src/lib.rs
FN:1,l
FNDA:1,l
DA:1,1
end_of_record
";

const MEASURE: &str = "[measure]\nmetrics = [\"functions\", \"lines\"]\n";

fn sandbox(ledger: &str) -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.write(
        "Cargo.toml",
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    sandbox.write("src/lib.rs", "pub mod a;\npub mod b;\npub fn l() {}\n");
    sandbox.write(
        "src/a.rs",
        "pub fn a1() {\n    ()\n}\n\npub fn a2() {\n    ()\n}\n",
    );
    sandbox.write("src/b.rs", "pub fn b1(x: bool) {\n    if x {}\n}\n");
    sandbox.write("cov.info", LCOV);
    // A top-level `debt = …` key goes before the first table.
    if ledger.starts_with("debt") {
        sandbox.policy(&format!("{ledger}{MEASURE}"));
    } else {
        sandbox.policy(&format!("{MEASURE}{ledger}"));
    }
    sandbox
}

fn check(sandbox: &Sandbox, extra: &[&str]) -> Run {
    let mut args = vec!["check", "cov.info", "--target", TARGET];
    args.extend_from_slice(extra);
    sandbox.run(&args)
}

fn shown(sandbox: &Sandbox, text: &str) -> String {
    text.replace(&sandbox.path().display().to_string(), "[SANDBOX]")
}

const EXACT: &str = "\
[[debt]]
path = \"src/a.rs\"
functions = 1
lines = 2
reason = \"parser, tests pending\"

[[debt]]
path = \"src/b.rs\"
lines = 1
reason = \"legacy\"
";

#[test]
fn allowances_met_exactly_pass_and_are_shown() {
    let sandbox = sandbox(EXACT);
    let run = check(&sandbox, &["--show", "all"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    insta::assert_snapshot!("debt-pass-table", shown(&sandbox, &run.stdout));
    let json = check(&sandbox, &["--format", "json"]).json();
    assert_eq!(json["schema_version"], 2);
    assert_eq!(json["summary"]["debt"]["allowed"], 4);
    assert_eq!(json["summary"]["debt"]["files"], 2);
    let a = common::file(&json, "src/a.rs");
    assert_eq!(a["status"], "pass");
    assert_eq!(a["metrics"]["lines"]["allowed"], 2);
    assert_eq!(a["metrics"]["functions"]["allowed"], 1);
    assert!(common::file(&json, "src/lib.rs")["metrics"]["lines"]
        .get("allowed")
        .is_none());
    let md = check(&sandbox, &["--format", "markdown"]);
    assert_eq!(md.code, 0);
    assert!(
        md.stdout
            .contains("\ndebt: 4 missed items allowed in 2 files\n"),
        "{}",
        md.stdout
    );
}

#[test]
fn a_new_gap_fails_naming_its_items() {
    let sandbox = sandbox(&EXACT.replace("lines = 2", "lines = 1"));
    let run = check(&sandbox, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    insta::assert_snapshot!("debt-over-table", shown(&sandbox, &run.stdout));
    let md = check(&sandbox, &["--format", "markdown"]);
    insta::assert_snapshot!("debt-over-markdown", shown(&sandbox, &md.stdout));
    let json = check(&sandbox, &["--format", "json"]).json();
    let a = common::file(&json, "src/a.rs");
    assert_eq!(a["status"], "fail");
    assert_eq!(a["metrics"]["lines"]["status"], "fail");
    assert_eq!(a["metrics"]["functions"]["status"], "pass");
    assert_eq!(a["uncovered"]["lines"][0]["start"], 5);
    assert_eq!(a["uncovered"]["lines"][0]["end"], 6);
    assert_eq!(a["uncovered"]["functions"], serde_json::json!([]));
}

#[test]
fn a_loose_allowance_fails_until_tightened() {
    let sandbox = sandbox(&EXACT.replace("lines = 1", "lines = 2"));
    let run = check(&sandbox, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("tighten `lines` to 1: the [[debt]] entry at"),
        "{}",
        run.stdout
    );
    insta::assert_snapshot!("debt-loose-table", shown(&sandbox, &run.stdout));
    let github = check(
        &sandbox,
        &["--format", "github", "--summary-file", "summary.md"],
    );
    assert_eq!(github.code, 1);
    assert!(
        github.stdout.contains(
            "::error file=src/b.rs,line=2,endLine=2,title=covgate%3A uncovered line::line 2 not covered\n\
             ::error file=src/b.rs,title=covgate%3A tighten the [[debt]] entry::lines 1/2 (2 allowed): tighten to 1\n"
        ),
        "{}",
        github.stdout
    );
    let json = check(&sandbox, &["--format", "json"]).json();
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/schema/check-output.schema.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&json)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let b = common::file(&json, "src/b.rs");
    assert_eq!(b["metrics"]["lines"]["status"], "loose");
    assert_eq!(b["metrics"]["lines"]["allowed"], 2);
    // A loose metric lists its items, as every failing metric does.
    assert_eq!(b["uncovered"]["lines"][0]["start"], 2);
    assert_eq!(b["uncovered"]["lines"][0]["end"], 2);
    assert_eq!(json["summary"]["debt"]["allowed"], 5);
}

#[test]
fn stale_entries_are_a_bad_policy() {
    for (ledger, why) in [
        ("[[debt]]\npath = \"src/lib.rs\"\nlines = 1\nreason = \"r\"\n", "`src/lib.rs`: at 100% on every metric"),
        ("[[debt]]\npath = \"src/gone.rs\"\nlines = 1\nreason = \"r\"\n", "`src/gone.rs`: not an in-scope file (gone, renamed, or outside `include`)"),
        (
            "[[exclude]]\npath = \"src/b.rs\"\nreason = \"generated\"\n[[debt]]\npath = \"src/b.rs\"\nlines = 1\nreason = \"r\"\n",
            "`src/b.rs`: excluded by an [[exclude]]",
        ),
        // At 100% and allowing nothing: the entry passes, but has nothing left to allow.
        ("[[debt]]\npath = \"src/lib.rs\"\nreason = \"r\"\n", "`src/lib.rs`: at 100% on every metric"),
        ("[[debt]]\npath = \"src/types.rs\"\nlines = 1\nreason = \"r\"\n", "`src/types.rs`: has no code"),
    ] {
        let sandbox = sandbox(ledger);
        sandbox.write("src/types.rs", "pub struct Types;\n");
        let run = check(&sandbox, &[]);
        assert_eq!(run.code, 2, "{ledger}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.starts_with(
                "covgate: error: stale [[debt]] entries; remove them or run `covgate check --tighten` (the debt ledger: docs/adopting.md):\n  "
            ),
            "{}",
            run.stderr
        );
        assert!(run.stderr.contains(why), "{why}: {}", run.stderr);
    }
    // Without a walk, a file in no report is not known to be gone.
    let sandbox = sandbox("[[debt]]\npath = \"src/gone.rs\"\nlines = 1\nreason = \"r\"\n");
    let run = check(&sandbox, &["--no-walk"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
}

#[test]
fn a_named_ledger_that_is_missing_is_an_error() {
    let sandbox = sandbox("debt = \"coverage-debt.toml\"\n");
    let run = check(&sandbox, &[]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains(
            "names at [SANDBOX]/coverage-policy.toml:1:8: "
                .replace("[SANDBOX]", &sandbox.path().display().to_string())
                .as_str()
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("coverage-debt.toml: cannot read the debt ledger that `debt` names at "),
        "{}",
        run.stderr
    );
}

#[test]
fn bad_entries_are_located() {
    let sandbox = sandbox("[[debt]]\npath = \"src/*.rs\"\nlines = 1\nreason = \"r\"\n");
    let run = check(&sandbox, &[]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains(
            "coverage-policy.toml:4:8: `src/*.rs`: a [[debt]] names one file, not a glob"
        ),
        "{}",
        run.stderr
    );
}

const TIGHTEN_BEFORE: &str = "\
# Coverage debt: only ever goes down.

# The parser: tests pending.
[[debt]]
path = \"src/a.rs\"
functions = 1 # the error path
lines     = 4 # two lines were tested since
reason    = \"parser, tests pending\"

[[debt]]
path = \"src/b.rs\"
lines = 1
reason = \"legacy\"

# Fully tested since.
[[debt]]
path = \"src/lib.rs\"
lines = 1
reason = \"old\"
";

const TIGHTEN_AFTER: &str = "\
# Coverage debt: only ever goes down.

# The parser: tests pending.
[[debt]]
path = \"src/a.rs\"
functions = 1 # the error path
lines     = 2 # two lines were tested since
reason    = \"parser, tests pending\"

[[debt]]
path = \"src/b.rs\"
lines = 1
reason = \"legacy\"

# Fully tested since.
";

#[test]
fn tighten_lowers_and_drops_in_a_named_ledger_keeping_comments() {
    let sandbox = sandbox("debt = \"coverage-debt.toml\"\n");
    sandbox.write("coverage-debt.toml", TIGHTEN_BEFORE);
    let run = check(&sandbox, &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let run = check(&sandbox, &["--tighten"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let ledger = sandbox.path().join("coverage-debt.toml");
    let shown_ledger = ledger.display().to_string();
    assert_eq!(
        run.stderr,
        format!(
            "covgate: tightened {shown_ledger}: src/a.rs: lines 4 → 2\n\
             covgate: tightened {shown_ledger}: src/lib.rs: entry removed (at 100% on every metric)\n"
        )
    );
    assert_eq!(std::fs::read_to_string(&ledger).unwrap(), TIGHTEN_AFTER);
    // Nothing left to tighten: the file is left as it is.
    let again = check(&sandbox, &["--tighten"]);
    assert_eq!(again.code, 0);
    assert_eq!(again.stderr, "");
    assert_eq!(std::fs::read_to_string(&ledger).unwrap(), TIGHTEN_AFTER);
}

#[test]
fn tighten_never_raises_and_drops_metrics_at_zero() {
    let sandbox = sandbox(
        "[[debt]]\npath = \"src/a.rs\"\nfunctions = 3\nlines = 1\nreason = \"r\"\n\
         [[debt]]\npath = \"src/b.rs\"\nfunctions = 1\nlines = 1\nreason = \"r\"\n",
    );
    let run = check(&sandbox, &["--tighten"]);
    // src/a.rs misses 2 lines where 1 is allowed: still over budget after tightening.
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        std::fs::read_to_string(sandbox.path().join("coverage-policy.toml")).unwrap(),
        format!(
            "{MEASURE}[[debt]]\npath = \"src/a.rs\"\nfunctions = 1\nlines = 1\nreason = \"r\"\n\
             [[debt]]\npath = \"src/b.rs\"\nlines = 1\nreason = \"r\"\n"
        )
    );
    assert!(run.stderr.contains("src/b.rs: functions 1 → 0 (removed)"));
}

#[test]
fn tighten_keeps_an_entry_whose_file_still_misses_items() {
    // src/b.rs runs its one function but misses 1 line of 2. `functions` is loose and goes; the
    // entry stays, allowing nothing: removing it would hold the file to the threshold, 50%,
    // which lets the missed line pass (tightening must never loosen the gate).
    let sandbox = sandbox("[[debt]]\npath = \"src/b.rs\"\nfunctions = 1\nreason = \"r\"\n");
    let policy = sandbox.path().join("coverage-policy.toml");
    let text = std::fs::read_to_string(&policy)
        .unwrap()
        .replace("[measure]\n", "[measure]\nthreshold = 50\n");
    std::fs::write(&policy, text).unwrap();
    let run = check(&sandbox, &["--tighten"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .ends_with("src/b.rs: functions 1 → 0 (removed)\n"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout
            .contains("1 missed, 1 more than the [[debt]] entry at"),
        "{}",
        run.stdout
    );
    assert_eq!(
        std::fs::read_to_string(&policy).unwrap(),
        "[measure]\nthreshold = 50\nmetrics = [\"functions\", \"lines\"]\n\
         [[debt]]\npath = \"src/b.rs\"\nreason = \"r\"\n"
    );
}

#[test]
fn tighten_removes_every_entry_the_check_calls_stale() {
    // One rule: what the check says of an entry is what --tighten does with it. Each stale kind
    // is removed, saying why as the check does, and the check then runs without the error.
    for (ledger, why) in [
        ("[[debt]]\npath = \"src/lib.rs\"\nlines = 1\nreason = \"r\"\n", "src/lib.rs: entry removed (at 100% on every metric)"),
        ("[[debt]]\npath = \"src/gone.rs\"\nlines = 1\nreason = \"r\"\n", "src/gone.rs: entry removed (not an in-scope file (gone, renamed, or outside `include`))"),
        ("[[debt]]\npath = \"src/a.r\"\nlines = 1\nreason = \"r\"\n", "src/a.r: entry removed (not an in-scope file (gone, renamed, or outside `include`); did you mean `src/a.rs`?)"),
        (
            "[[exclude]]\npath = \"src/b.rs\"\nreason = \"generated\"\n[[debt]]\npath = \"src/b.rs\"\nlines = 1\nreason = \"r\"\n",
            "src/b.rs: entry removed (excluded by an [[exclude]])",
        ),
        ("[[debt]]\npath = \"src/types.rs\"\nlines = 1\nreason = \"r\"\n", "src/types.rs: entry removed (has no code)"),
    ] {
        let sandbox = sandbox(ledger);
        sandbox.write("src/types.rs", "pub struct Types;\n");
        let run = check(&sandbox, &["--tighten"]);
        assert_ne!(run.code, 2, "{ledger}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(why), "{why}: {}", run.stderr);
        let after = std::fs::read_to_string(sandbox.path().join("coverage-policy.toml")).unwrap();
        assert!(!after.contains("[[debt]]"), "{after}");
    }
    // Without a walk a file in no report is not known to be gone: neither stale nor removed.
    let ledger = "[[debt]]\npath = \"src/gone.rs\"\nlines = 1\nreason = \"r\"\n";
    let sandbox = sandbox(ledger);
    let run = check(&sandbox, &["--tighten", "--no-walk"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(sandbox.path().join("coverage-policy.toml")).unwrap(),
        format!("{MEASURE}{ledger}")
    );
}

#[test]
fn tighten_errors_stop_before_the_check() {
    let sandbox = sandbox("debt = [{ path = \"src/b.rs\", lines = 2, reason = \"r\" }]\n");
    let run = check(&sandbox, &["--tighten"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("cannot tighten the debt ledger: write its entries as [[debt]] tables"),
        "{}",
        run.stderr
    );
    let missing = sandbox.run(&["check", "missing.info", "--tighten"]);
    assert_eq!(missing.code, 2);
    sandbox.policy("[measure]\nthreshold = 101\n");
    let bad = check(&sandbox, &["--tighten"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("threshold 101"), "{}", bad.stderr);
}

#[test]
fn file_shows_one_file_with_every_item() {
    let sandbox = sandbox(EXACT);
    let run = check(&sandbox, &["--file", "src/a.rs", "--items", "1"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    insta::assert_snapshot!("debt-file-table", shown(&sandbox, &run.stdout));
    let json = check(&sandbox, &["--file", "src/a.rs", "--format", "json"]).json();
    assert_eq!(json["files"].as_array().unwrap().len(), 1);
    assert_eq!(json["files"][0]["uncovered"]["functions"][0]["name"], "a2");
    // The facts say that the verdict covers part of the scope, and what was left out.
    let warnings = json["facts"]["warnings"].to_string();
    assert!(
        warnings.contains(
            "--file: this verdict judges only the file(s) given (src/a.rs); 2 other file(s) in \
             scope were not judged, 0 of them failing"
        ),
        "{warnings}"
    );
    // A file that is not measured is shown as it is.
    sandbox.policy(&format!(
        "{MEASURE}{EXACT}[[exclude]]\npath = \"src/lib.rs\"\nreason = \"glue\"\n"
    ));
    let excluded = check(&sandbox, &["--file", "src/lib.rs", "--file", "src/b.rs"]);
    assert_eq!(excluded.code, 0, "{}{}", excluded.stdout, excluded.stderr);
    assert!(
        excluded.stdout.contains("src/lib.rs ┆ excluded"),
        "{}",
        excluded.stdout
    );
    assert!(
        excluded.stdout.contains("    lines: 2\n"),
        "{}",
        excluded.stdout
    );
    let unknown = check(&sandbox, &["--file", "src/nope.rs"]);
    assert_eq!(unknown.code, 2);
    assert_eq!(
        unknown.stderr,
        "covgate: error: --file src/nope.rs: not an in-scope file of this check (give a path relative to the root, e.g. src/lib.rs)\n"
    );
}

#[test]
fn init_records_the_debt_and_the_check_then_passes() {
    let sandbox = sandbox("");
    std::fs::remove_file(sandbox.path().join("coverage-policy.toml")).unwrap();
    sandbox.write("src/main.rs", "fn main() {}\n");
    sandbox.write("src/idle.rs", "pub fn idle() {}\n");
    let init = |args: &[&str]| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_covgate"));
        cmd.arg("init")
            .args(args)
            .current_dir(sandbox.path())
            .env("SOURCE_DATE_EPOCH", "1796083199");
        let out = cmd.output().unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stdout, stderr) = init(&["cov.info"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        "wrote coverage-policy.toml: 2 [[debt]] entries (4 missed items allowed), 2 suggested exclusions (commented out)\nnext: covgate check cov.info\n"
    );
    let policy = std::fs::read_to_string(sandbox.path().join("coverage-policy.toml")).unwrap();
    insta::assert_snapshot!("debt-init-policy", policy);
    // src/idle.rs and src/main.rs are in no report: they fail as unmeasured until excluded
    // (as suggested) or tested.
    let run = check(&sandbox, &[]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("src/idle.rs"));
    let excluded = policy
        .replace("# [[exclude]]", "[[exclude]]")
        .replace("# path", "path")
        .replace("# reason", "reason");
    sandbox.policy(&excluded);
    let run = check(&sandbox, &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run
        .stdout
        .contains("debt: 4 missed items allowed in 2 files"));
    let (code, _, stderr) = init(&["cov.info"]);
    assert_eq!(code, 2);
    assert!(
        stderr.ends_with("coverage-policy.toml: a policy exists already; edit it, or give --force to replace it\n"),
        "{stderr}"
    );
    let (code, stdout, stderr) = init(&["--force"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with(
        "wrote coverage-policy.toml: 0 [[debt]] entries (0 missed items allowed), 1 suggested exclusion (commented out)\nnext: produce a report"
    ));
    let policy = std::fs::read_to_string(sandbox.path().join("coverage-policy.toml")).unwrap();
    assert!(policy.contains(
        "metrics = [\"regions\", \"branches\", \"functions\", \"lines\"]\nthreshold = 100\n"
    ));
    let (code, _, stderr) = init(&["--force", "missing.info"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("missing.info: cannot read the report"),
        "{stderr}"
    );
}

#[test]
fn init_needs_a_cargo_package() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["init"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("covgate: error: covgate init needs the cargo package or workspace in "),
        "{}",
        run.stderr
    );
    assert!(!sandbox.path().join("coverage-policy.toml").exists());
}

#[test]
fn init_includes_the_folders_of_the_targets_cargo_resolves() {
    // `[lib] path` and `[[bin]] path` move the sources out of `src/`: the include globs follow
    // them, and a binary in `src/bin` adds nothing that `src/**/*.rs` already covers.
    let sandbox = Sandbox::new();
    sandbox.write(
        "Cargo.toml",
        "[package]\nname = \"moved\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\
         [lib]\npath = \"lib/mylib.rs\"\n\
         [[bin]]\nname = \"tool\"\npath = \"tools/tool.rs\"\n\
         [[bin]]\nname = \"other\"\npath = \"src/bin/other.rs\"\n\
         [[bin]]\nname = \"main\"\npath = \"src/main.rs\"\n",
    );
    sandbox.write("lib/mylib.rs", "pub fn f() {}\n");
    sandbox.write("tools/tool.rs", "fn main() {}\n");
    sandbox.write("src/bin/other.rs", "fn main() {}\n");
    sandbox.write("src/main.rs", "fn main() {}\n");
    sandbox.write("tests/t.rs", "#[test]\nfn t() {}\n");
    sandbox.write("build.rs", "fn main() {}\n");
    let run = sandbox.run(&["init"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let policy = std::fs::read_to_string(sandbox.path().join("coverage-policy.toml")).unwrap();
    assert!(
        policy.contains("include = [\"lib/**/*.rs\", \"src/**/*.rs\", \"tools/**/*.rs\"]\n"),
        "{policy}"
    );
    // A library whose root file is in the package's folder: only the files beside it (its
    // tests, benches and examples lie below that folder); cargo still finds the binaries of
    // `src/main.rs` and `src/bin/`.
    sandbox.write(
        "Cargo.toml",
        "[package]\nname = \"flat\"\nversion = \"0.1.0\"\nedition = \"2021\"\nbuild = false\n\
         [lib]\npath = \"lib.rs\"\n",
    );
    sandbox.write("lib.rs", "pub fn f() {}\n");
    let run = sandbox.run(&["init", "--force"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let policy = std::fs::read_to_string(sandbox.path().join("coverage-policy.toml")).unwrap();
    assert!(
        policy.contains("include = [\"*.rs\", \"src/**/*.rs\"]\n"),
        "{policy}"
    );
}

#[test]
fn init_in_a_workspace_includes_every_member_below_the_folder() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "Cargo.toml",
        "[workspace]\nmembers = [\"crates/x\", \"crates/y\"]\nresolver = \"2\"\n",
    );
    for member in ["x", "y"] {
        sandbox.write(
            &format!("crates/{member}/Cargo.toml"),
            &format!("[package]\nname = \"{member}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
        );
        sandbox.write(&format!("crates/{member}/src/lib.rs"), "pub fn f() {}\n");
    }
    let run = sandbox.run(&["init"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let policy = std::fs::read_to_string(sandbox.path().join("coverage-policy.toml")).unwrap();
    assert!(
        policy.contains("include = [\"crates/x/src/**/*.rs\", \"crates/y/src/**/*.rs\"]\n"),
        "{policy}"
    );
    assert!(!policy.contains("[[exclude]]"), "{policy}");
    // From a folder of the workspace that holds no member's src folder.
    sandbox.write("docs/x.md", "");
    let run = common::covgate(&sandbox.path().join("docs"), &["init"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("no workspace member's library or binary lies in"),
        "{}",
        run.stderr
    );
}

/// Members that cargo finds through a `members` glob are included through it, so a member
/// added later is gated from the start; a plain member path, a member outside the glob's
/// `src`, and a glob with an `exclude` inside it keep one glob per member.
#[test]
fn init_follows_the_workspace_member_globs() {
    let sandbox = Sandbox::new();
    let write_members = |manifest: &str| {
        sandbox.write("Cargo.toml", manifest);
        for member in ["crates/x", "crates/y", "tools/c"] {
            let name = member.rsplit('/').next().unwrap();
            sandbox.write(
                &format!("{member}/Cargo.toml"),
                &format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
            );
            sandbox.write(&format!("{member}/src/lib.rs"), "pub fn f() {}\n");
        }
        // A binary in `src/bin` (inside the glob's `src`), and a library beside its manifest
        // (outside it: a glob of its own).
        sandbox.write("crates/x/src/bin/tool.rs", "fn main() {}\n");
        sandbox.write(
            "crates/y/Cargo.toml",
            "[package]\nname = \"y\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[lib]\npath = \"lib.rs\"\n",
        );
        sandbox.write("crates/y/lib.rs", "pub fn f() {}\n");
    };
    let include = || {
        let run = sandbox.run(&["init", "--force"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let policy = std::fs::read_to_string(sandbox.path().join("coverage-policy.toml")).unwrap();
        let line = policy
            .lines()
            .find(|l| l.starts_with("include = "))
            .unwrap_or_default();
        line.to_string()
    };
    write_members("[workspace]\nmembers = [\"crates/*\", \"tools/c\"]\nresolver = \"2\"\n");
    assert_eq!(
        include(),
        "include = [\"crates/*/src/**/*.rs\", \"crates/y/*.rs\", \"tools/c/src/**/*.rs\"]"
    );
    // A member added later is gated by that policy.
    sandbox.write(
        "crates/d/Cargo.toml",
        "[package]\nname = \"d\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    sandbox.write("crates/d/src/lib.rs", "pub fn g() {}\n");
    sandbox.write(
        "cov.info",
        "SF:crates/x/src/lib.rs\nDA:1,1\nend_of_record\nSF:crates/y/src/lib.rs\nDA:1,1\nend_of_record\n\
         SF:tools/c/src/lib.rs\nDA:1,1\nend_of_record\nSF:crates/d/src/lib.rs\nDA:1,0\nend_of_record\n",
    );
    let run = sandbox.run(&["check", "cov.info", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        metric(&run.json(), "crates/d/src/lib.rs", "lines"),
        "0/1 fail"
    );
    std::fs::remove_dir_all(sandbox.path().join("crates/d")).unwrap();
    // An `exclude` inside the glob: one glob per member.
    write_members(
        "[workspace]\nmembers = [\"crates/*\", \"tools/c\"]\nexclude = [\"crates/old\"]\nresolver = \"2\"\n",
    );
    assert_eq!(
        include(),
        "include = [\"crates/x/src/**/*.rs\", \"crates/y/*.rs\", \"tools/c/src/**/*.rs\"]"
    );
}

/// A report made elsewhere (a CI container, Windows) is read with `--remap-path-prefix`, and the
/// next command printed carries it, quoted for the shell.
#[test]
fn init_maps_the_paths_of_a_report_made_elsewhere() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "Cargo.toml",
        "[package]\nname = \"w\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    sandbox.write("src/lib.rs", "pub fn f() {}\npub fn g() {}\n");
    sandbox.write(
        "cov.info",
        "SF:C:\\ws\\src\\lib.rs\nFN:1,f\nFN:2,g\nFNDA:1,f\nFNDA:0,g\nDA:1,1\nDA:2,0\nend_of_record\n",
    );
    let run = sandbox.run(&["init", "cov.info"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let run = sandbox.run(&["init", "cov.info", "--remap-path-prefix", "C:\\ws=."]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .ends_with("next: covgate check cov.info --remap-path-prefix 'C:\\ws=.'\n"),
        "{}",
        run.stdout
    );
    let policy = std::fs::read_to_string(sandbox.path().join("coverage-policy.toml")).unwrap();
    assert!(
        policy.contains("path = \"src/lib.rs\"\nfunctions = 1\nlines = 1\n"),
        "{policy}"
    );
    let check = sandbox.run(&["check", "cov.info", "--remap-path-prefix", "C:\\ws=."]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
}

#[test]
fn allowances_past_u64_saturate_instead_of_panicking() {
    let max = i64::MAX;
    let sandbox = sandbox(&format!(
        "[[debt]]\npath = \"src/a.rs\"\nfunctions = {max}\nlines = {max}\nreason = \"r\"\n\
         [[debt]]\npath = \"src/b.rs\"\nlines = {max}\nreason = \"r\"\n"
    ));
    let run = check(&sandbox, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("debt: 18446744073709551615 missed items allowed in 2 files"),
        "{}",
        run.stdout
    );
    let json = check(&sandbox, &["--format", "json"]).json();
    assert_eq!(json["summary"]["debt"]["allowed"], u64::MAX);
    for format in ["markdown", "github"] {
        assert_eq!(check(&sandbox, &["--format", format]).code, 1, "{format}");
    }
}

#[test]
fn debt_paths_are_normalised_as_exclude_paths() {
    // (`src/../src/b.rs` is an error: see identity_breaks.)
    for spelled in ["src//b.rs", "src\\\\b.rs", "./src/b.rs"] {
        let sandbox = sandbox(&format!(
            "[[debt]]\npath = \"{spelled}\"\nlines = 1\nreason = \"r\"\n"
        ));
        let run = check(&sandbox, &["--format", "json", "--file", "src/b.rs"]);
        assert_eq!(run.code, 0, "{spelled}: {}{}", run.stdout, run.stderr);
        let json = run.json();
        let b = common::file(&json, "src/b.rs");
        assert_eq!(b["metrics"]["lines"]["allowed"], 1, "{spelled}");
        assert_eq!(b["status"], "pass", "{spelled}");
    }
    // A trailing space is part of the name, as in an [[exclude]]: no file has it. The error
    // names the file it probably misspells, and --tighten removes the entry saying so.
    let ledger = "[[debt]]\npath = \"src/b.rs \"\nlines = 1\nreason = \"r\"\n";
    let sandbox = sandbox(ledger);
    let run = check(&sandbox, &[]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            ":4:8 `src/b.rs `: not an in-scope file (gone, renamed, or outside `include`); did you mean `src/b.rs`?\n"
        ),
        "{}",
        run.stderr
    );
    let tightened = check(&sandbox, &["--tighten"]);
    assert_eq!(tightened.code, 1, "{}", tightened.stderr);
    assert!(
        tightened.stderr.contains(
            "src/b.rs : entry removed (not an in-scope file (gone, renamed, or outside `include`); did you mean `src/b.rs`?)\n"
        ),
        "{}",
        tightened.stderr
    );
    assert_eq!(
        std::fs::read_to_string(sandbox.path().join("coverage-policy.toml")).unwrap(),
        MEASURE
    );
    // Nothing near: no guess.
    let far =
        sandbox_run_stale("[[debt]]\npath = \"lib/other/thing.rs\"\nlines = 1\nreason = \"r\"\n");
    assert!(
        far.contains(
            "`lib/other/thing.rs`: not an in-scope file (gone, renamed, or outside `include`)\n"
        ),
        "{far}"
    );
}

/// The stderr of a check whose ledger is stale (exit 2).
fn sandbox_run_stale(ledger: &str) -> String {
    let sandbox = sandbox(ledger);
    let run = check(&sandbox, &[]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    run.stderr
}

#[test]
fn tighten_with_file_rewrites_only_that_files_entry() {
    let ledger = EXACT
        .replace("functions = 1", "functions = 2")
        .replace("lines = 1", "lines = 2");
    let sandbox = sandbox(&ledger);
    let run = check(&sandbox, &["--tighten", "--file", "src/a.rs"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("src/a.rs: functions 2 → 1\n")
            && run.stderr.ends_with("were not judged, 1 of them failing\n"),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read_to_string(sandbox.path().join("coverage-policy.toml")).unwrap(),
        format!(
            "{MEASURE}{}",
            ledger.replace("functions = 2", "functions = 1")
        )
    );
}

#[test]
fn init_writes_no_debt_for_a_file_it_suggests_excluding() {
    let sandbox = sandbox("");
    std::fs::remove_file(sandbox.path().join("coverage-policy.toml")).unwrap();
    sandbox.write("src/main.rs", "fn main() {}\n");
    sandbox.write(
        "cov.info",
        &format!("{LCOV}SF:src/main.rs\nFN:1,main\nFNDA:0,main\nDA:1,0\nend_of_record\n"),
    );
    let run = sandbox.run(&["init", "cov.info"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "wrote coverage-policy.toml: 2 [[debt]] entries (4 missed items allowed), 1 suggested exclusion (commented out)\nnext: covgate check cov.info\n"
    );
    let policy = std::fs::read_to_string(sandbox.path().join("coverage-policy.toml")).unwrap();
    assert!(
        policy.contains("# [[exclude]]\n# path = \"src/main.rs\"\n"),
        "{policy}"
    );
    assert!(
        !policy.contains("path = \"src/main.rs\"\nfunctions"),
        "{policy}"
    );
    // The first check fails on src/main.rs (held to the threshold); uncommenting its
    // exclusion then passes, with no stale entry.
    assert_eq!(check(&sandbox, &[]).code, 1);
    sandbox.policy(
        &policy
            .replace("# [[exclude]]", "[[exclude]]")
            .replace("# path", "path")
            .replace("# reason", "reason"),
    );
    let run = check(&sandbox, &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

#[test]
fn mcdc_allowances_are_read_and_tightened() {
    let sandbox = sandbox("");
    sandbox.policy(
        "[measure]\nmetrics = [\"functions\", \"lines\", \"mcdc\"]\n\
         [[debt]]\npath = \"src/a.rs\"\nfunctions = 1\nlines = 2\nmcdc = 2\nreason = \"r\"\n",
    );
    let run = check(&sandbox, &["--format", "json", "--file", "src/a.rs"]);
    let json = run.json();
    let a = common::file(&json, "src/a.rs");
    assert_eq!(a["metrics"]["mcdc"]["allowed"], 2, "{}", run.stdout);
    // LCOV carries no MC/DC: the allowance is of a metric not measured, and stays.
    let tightened = check(&sandbox, &["--tighten", "--file", "src/a.rs"]);
    assert!(!tightened.stderr.contains("mcdc"), "{}", tightened.stderr);
    let text = std::fs::read_to_string(sandbox.path().join("coverage-policy.toml")).unwrap();
    assert!(text.contains("mcdc = 2\n"), "{text}");
    sandbox.policy(
        "[measure]\nmetrics = [\"lines\"]\n[[debt]]\npath = \"src/a.rs\"\nmcdc = 1\nreason = \"r\"\n",
    );
    let run = check(&sandbox, &[]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("`mcdc` is not among the policy's `[measure] metrics`"),
        "{}",
        run.stderr
    );
}

/// A `[[debt]]` with `when` is judged only on the legs where its condition holds: on the others
/// it allows nothing, is never stale and `--tighten` leaves it, so one ledger serves a matrix
/// whose Windows leg misses a `#[cfg(windows)]` path that the Linux leg does not compile.
#[test]
fn a_debt_entry_with_when_is_judged_only_on_its_legs() {
    let windows_only = "[[debt]]\npath = \"src/lib.rs\"\nlines = 1\nreason = \"the Windows error path\"\nwhen = \"cfg(windows)\"\n";
    let ledger = format!("{EXACT}\n{windows_only}");
    let sandbox = sandbox(&ledger);
    let policy = std::fs::read_to_string(sandbox.path().join("coverage-policy.toml")).unwrap();
    // Linux: src/lib.rs is at 100%, and the entry is not this leg's: no stale error.
    let run = check(&sandbox, &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let run = check(&sandbox, &["--tighten"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        std::fs::read_to_string(sandbox.path().join("coverage-policy.toml")).unwrap(),
        policy,
        "--tighten on another leg leaves the entry"
    );
    // Windows: the entry is judged, and here (the same counts) it is stale.
    let run = sandbox.run(&["check", "cov.info", "--target", "x86_64-pc-windows-msvc"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("`src/lib.rs`: at 100% on every metric"),
        "{}",
        run.stderr
    );
    // A bad condition is located as an [[exclude]]'s is.
    let bad = self::sandbox(
        "[[debt]]\npath = \"src/a.rs\"\nlines = 2\nreason = \"r\"\nwhen = \"cfg(not(widows))\"\n",
    );
    let run = check(&bad, &[]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            "coverage-policy.toml:7:8: `widows` in the condition `cfg(not(widows))` is not a cfg name"
        ),
        "{}",
        run.stderr
    );
}

/// A package whose library root is in its own folder (`[lib] path = "lib.rs"`) with a build
/// script: the include `*.rs` selects `build.rs`, which no report measures (no test runs it). The
/// policy `init` writes excludes it outright, so the first check passes.
#[test]
fn init_excludes_a_build_script_the_include_selects() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "Cargo.toml",
        "[package]\nname = \"flat\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[lib]\npath = \"lib.rs\"\n",
    );
    sandbox.write("lib.rs", "pub fn f() {}\n");
    sandbox.write("build.rs", "fn main() {}\n");
    sandbox.write(
        "cov.info",
        "SF:lib.rs\nFN:1,f\nFNDA:1,f\nDA:1,1\nend_of_record\n",
    );
    let run = sandbox.run(&["init", "cov.info"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "wrote coverage-policy.toml: 0 [[debt]] entries (0 missed items allowed), 0 suggested exclusions (commented out)\nnext: covgate check cov.info\n"
    );
    let policy = std::fs::read_to_string(sandbox.path().join("coverage-policy.toml")).unwrap();
    assert!(
        policy.contains(
            "\n[[exclude]]\npath = \"build.rs\"\nreason = \"a build script: no test runs it, and cargo llvm-cov reports none\"\n"
        ),
        "{policy}"
    );
    let run = sandbox.run(&["check", "cov.info", "--target", TARGET]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}
