//! Platform conditions end to end through the binary: `[[exclude]]` entries with `when =
//! "cfg(...)"` and `when-missing = [...]`, `--target`, `--cfg`, `--features`, and the facts
//! every output begins with. Case 09 in both runs of its `expected.md`, each condition form
//! against Linux, Windows and macOS targets, programs found and not found on a PATH the test
//! sets, and the rules: an inactive exemption never hides a measured file, an active one is
//! still checked for staleness, and a condition that can hold on no known target is an error.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{fixture, status, Run, Sandbox};
use serde_json::Value;

const LINUX: &str = "x86_64-unknown-linux-gnu";
const WINDOWS: &str = "x86_64-pc-windows-msvc";
const MAC: &str = "aarch64-apple-darwin";

const CASE09: &str = "09-never-compiled-file-missing";

/// A stable run (no branch records): JSON without branches, LCOV without regions either.
fn case09_metrics(report: &str) -> &'static str {
    if report.ends_with("json") {
        "[measure]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n"
    } else {
        "[measure]\nmetrics = [\"functions\", \"lines\"]\n"
    }
}

/// Case 09's second run: the Windows-only file and the feature-gated file are exempt where
/// they are not compiled.
const CASE09_CONDITIONS: &str = r#"
[[exclude]]
path = "src/sys/windows.rs"
reason = "compiled only on Windows (#[cfg(windows)]); measured by the Windows leg"
when = "cfg(not(windows))"

[[exclude]]
path = "src/extra.rs"
reason = "compiled only with --features extra"
when = 'cfg(not(feature = "extra"))'
"#;

/// Runs case 09's crate with `policy` against `report`, JSON output, with `extra` arguments.
fn case09(policy: &str, report: &str, extra: &[&str]) -> Run {
    let sandbox = Sandbox::copy_of(&format!("cases/{CASE09}/crate"));
    sandbox.policy(policy);
    let report = fixture(&format!("cases/{CASE09}/{report}"));
    let remap = format!("/ws/partial={}", sandbox.path().display());
    let mut args = vec![
        "check",
        report.to_str().expect("a UTF-8 path"),
        "--format",
        "json",
        "--remap-path-prefix",
        &remap,
    ];
    args.extend_from_slice(extra);
    sandbox.run(&args)
}

fn statuses(doc: &Value, paths: &[&str]) -> Vec<String> {
    paths.iter().map(|p| status(doc, p)).collect()
}

const CASE09_FILES: [&str; 6] = [
    "src/lib.rs",
    "src/sys/unix.rs",
    "src/sys/mod.rs",
    "src/orphan.rs",
    "src/extra.rs",
    "src/sys/windows.rs",
];

#[test]
fn case09_first_run_without_conditions() {
    for report in ["input.json", "input.info"] {
        let run = case09(case09_metrics(report), report, &["--target", LINUX]);
        assert_eq!(run.code, 1, "{report}: {}{}", run.stdout, run.stderr);
        let doc = run.json();
        assert_eq!(
            statuses(&doc, &CASE09_FILES),
            [
                "pass",
                "pass",
                "no-code",
                "unmeasured",
                "unmeasured",
                "unmeasured"
            ],
            "{report}"
        );
        assert_eq!(doc["facts"]["conditions"], serde_json::json!([]));
        assert_eq!(doc["facts"]["programs"], serde_json::json!([]));
    }
}

#[test]
fn case09_second_run_with_conditions_on_linux() {
    for report in ["input.json", "input.info"] {
        let policy = format!("{}{CASE09_CONDITIONS}", case09_metrics(report));
        let run = case09(&policy, report, &["--target", LINUX]);
        assert_eq!(run.code, 1, "{report}: {}{}", run.stdout, run.stderr);
        let doc = run.json();
        assert_eq!(
            statuses(&doc, &CASE09_FILES),
            [
                "pass",
                "pass",
                "no-code",
                "unmeasured",
                "excluded",
                "excluded"
            ],
            "{report}"
        );
        let windows = common::file(&doc, "src/sys/windows.rs");
        assert_eq!(
            windows["reason"],
            "compiled only on Windows (#[cfg(windows)]); measured by the Windows leg"
        );
        assert_eq!(doc["summary"]["unmeasured"], 1, "only src/orphan.rs");
        assert_eq!(doc["summary"]["excluded"], 2);
        let conditions = &doc["facts"]["conditions"];
        assert_eq!(conditions[0]["path"], "src/sys/windows.rs");
        assert_eq!(conditions[0]["when"], "cfg(not(windows))");
        assert_eq!(conditions[0]["when_missing"], serde_json::json!([]));
        assert_eq!(conditions[0]["active"], true);
        assert_eq!(
            conditions[0]["why"],
            format!("`cfg(not(windows))` holds on {LINUX}")
        );
        assert_eq!(conditions[1]["path"], "src/extra.rs");
        assert_eq!(conditions[1]["active"], true);
        assert_eq!(
            conditions[1]["reason"],
            "compiled only with --features extra"
        );
    }
}

/// The Windows leg, previewed on any machine: its exemption of the Windows-only file is
/// inactive, so that file must be in the Windows leg's report (this Linux report fails it).
#[test]
fn case09_second_run_previews_the_windows_leg_and_the_extra_feature() {
    let report = "input.json";
    let policy = format!("{}{CASE09_CONDITIONS}", case09_metrics(report));
    let run = case09(&policy, report, &["--target", WINDOWS]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "src/sys/windows.rs"), "unmeasured");
    assert_eq!(status(&doc, "src/extra.rs"), "excluded");
    let windows = &doc["facts"]["conditions"][0];
    assert_eq!(windows["active"], false);
    assert_eq!(
        windows["why"],
        format!("`cfg(not(windows))` does not hold on {WINDOWS}")
    );

    let run = case09(&policy, report, &["--target", LINUX, "--features", "extra"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "src/extra.rs"), "unmeasured");
    assert_eq!(status(&doc, "src/sys/windows.rs"), "excluded");
    assert_eq!(doc["facts"]["conditions"][1]["active"], false);
    assert!(doc["facts"]["target"]["cfg"]
        .as_array()
        .expect("cfg values")
        .contains(&Value::from("feature=\"extra\"")));
}

/// Without `--target`, conditions are evaluated for the host (the target covgate was built for).
#[test]
fn the_host_is_the_default_target() {
    let report = "input.json";
    let policy = format!("{}{CASE09_CONDITIONS}", case09_metrics(report));
    let run = case09(&policy, report, &[]);
    let doc = run.json();
    let target = &doc["facts"]["target"];
    assert_eq!(target["source"], "host");
    assert_eq!(target["known"], true);
    let os = format!("target_os=\"{}\"", std::env::consts::OS);
    let cfg = target["cfg"].as_array().expect("cfg values");
    assert!(cfg.contains(&Value::from(os.as_str())), "{cfg:?}");
    let triple = target["triple"].as_str().expect("a triple");
    assert!(triple.starts_with(std::env::consts::ARCH), "{triple}");
    let windows_leg = std::env::consts::OS == "windows";
    assert_eq!(doc["facts"]["conditions"][0]["active"], !windows_leg);
}

// ---------------------------------------------------------------------------------------------
// A small project of our own: `src/a.rs` is in the report and covered, `src/b.rs` only on disk.

/// LCOV of a covered `src/a.rs`, plus `more` records.
fn lcov(more: &str) -> String {
    format!("SF:src/a.rs\nFN:1,a\nFNDA:1,a\nDA:1,1\nDA:2,1\nend_of_record\n{more}")
}

const METRICS: &str = "[measure]\nmetrics = [\"functions\", \"lines\"]\n";

/// A project: `src/a.rs` (covered), `src/b.rs` (code, in no report), the policy and `t.info`.
fn project(policy_tail: &str, report: &str) -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.write("src/a.rs", "pub fn a() -> u32 {\n    1\n}\n");
    sandbox.write("src/b.rs", "pub fn b() -> u32 {\n    2\n}\n");
    sandbox.policy(&format!("{METRICS}{policy_tail}"));
    sandbox.write("t.info", report);
    sandbox
}

/// An `[[exclude]]` of `src/b.rs` with `condition` (e.g. `when = "cfg(unix)"`).
fn exclude_b(condition: &str) -> String {
    format!("[[exclude]]\npath = \"src/b.rs\"\nreason = \"not on this leg\"\n{condition}\n")
}

fn check_json(sandbox: &Sandbox, extra: &[&str]) -> Run {
    let mut args = vec!["check", "t.info", "--format", "json"];
    args.extend_from_slice(extra);
    sandbox.run(&args)
}

#[test]
fn each_condition_form_on_linux_windows_and_macos() {
    // (condition, holds on Linux, on Windows, on macOS)
    let forms = [
        ("cfg(windows)", false, true, false),
        ("cfg(unix)", true, false, true),
        ("cfg(target_os = \"macos\")", false, false, true),
        ("cfg(target_os = \"linux\")", true, false, false),
        ("cfg(target_family = \"windows\")", false, true, false),
        ("cfg(target_family = \"unix\")", true, false, true),
        ("cfg(target_arch = \"aarch64\")", false, false, true),
        ("cfg(target_arch = \"x86_64\")", true, true, false),
        ("cfg(target_pointer_width = \"64\")", true, true, true),
        ("cfg(target_pointer_width = \"32\")", false, false, false),
        ("cfg(target_env = \"msvc\")", false, true, false),
        ("cfg(target_env = \"gnu\")", true, false, false),
        ("cfg(target_env = \"\")", false, false, true),
        ("cfg(feature = \"x\")", false, false, false),
        (
            "cfg(all(unix, not(target_os = \"macos\")))",
            true,
            false,
            false,
        ),
        (
            "cfg(any(windows, target_os = \"macos\"))",
            false,
            true,
            true,
        ),
        ("cfg(not(unix))", false, true, false),
        (
            "cfg(all(any(unix, windows), not(target_arch = \"aarch64\")))",
            true,
            true,
            false,
        ),
    ];
    for (when, linux, windows, mac) in forms {
        let sandbox = project(&exclude_b(&format!("when = '{when}'")), &lcov(""));
        for (target, holds) in [(LINUX, linux), (WINDOWS, windows), (MAC, mac)] {
            let run = check_json(&sandbox, &["--target", target]);
            let doc = run.json();
            let expected = if holds { "excluded" } else { "unmeasured" };
            assert_eq!(status(&doc, "src/b.rs"), expected, "{when} on {target}");
            assert_eq!(run.code, if holds { 0 } else { 1 }, "{when} on {target}");
            let condition = &doc["facts"]["conditions"][0];
            assert_eq!(condition["active"], holds, "{when} on {target}");
            let verb = if holds { "holds" } else { "does not hold" };
            assert_eq!(condition["why"], format!("`{when}` {verb} on {target}"));
        }
    }
}

#[test]
fn features_and_custom_cfgs() {
    let sandbox = project(&exclude_b("when = 'cfg(feature = \"x\")'"), &lcov(""));
    let status_with = |extra: &[&str]| status(&check_json(&sandbox, extra).json(), "src/b.rs");
    assert_eq!(status_with(&[]), "unmeasured");
    assert_eq!(status_with(&["--features", "x"]), "excluded");
    assert_eq!(status_with(&["--features", "a,x"]), "excluded");
    assert_eq!(
        status_with(&["--features", "a", "--features", "x"]),
        "excluded"
    );
    assert_eq!(status_with(&["--features", "y"]), "unmeasured");

    let sandbox = project(
        &exclude_b("when = 'cfg(all(unix, ci, tier = \"nightly\"))'"),
        &lcov(""),
    );
    let run = |extra: &[&str]| check_json(&sandbox, extra);
    let linux = ["--target", LINUX];
    assert_eq!(status(&run(&linux).json(), "src/b.rs"), "unmeasured");
    let both = run(&[
        "--target",
        LINUX,
        "--cfg",
        "ci",
        "--cfg",
        "tier=\"nightly\"",
    ]);
    assert_eq!(status(&both.json(), "src/b.rs"), "excluded");
    let cfg = both.json()["facts"]["target"]["cfg"].clone();
    assert!(cfg
        .as_array()
        .expect("cfg")
        .contains(&Value::from("tier=\"nightly\"")));
    assert!(cfg.as_array().expect("cfg").contains(&Value::from("ci")));
    let wrong_value = run(&["--target", LINUX, "--cfg", "ci", "--cfg", "tier=beta"]);
    assert_eq!(status(&wrong_value.json(), "src/b.rs"), "unmeasured");
}

#[test]
fn target_facts_head_the_table_and_the_json() {
    let sandbox = project(&exclude_b("when = \"cfg(windows)\""), &lcov(""));
    for (target, os, family) in [(WINDOWS, "windows", "windows"), (MAC, "macos", "unix")] {
        let run = sandbox.run(&["check", "t.info", "--target", target]);
        let mut lines = run.stdout.lines();
        assert!(lines.next().expect("line 1").starts_with("covgate "));
        let target_line = lines.next().expect("line 2");
        // The table counts the target's own cfg values (the JSON lists them) and lists the
        // values that --cfg and --features set.
        let doc = check_json(&sandbox, &["--target", target, "--cfg", "ci"]).json();
        let cfg = doc["facts"]["target"]["cfg"]
            .as_array()
            .expect("cfg")
            .clone();
        assert!(cfg.contains(&Value::from(format!("target_os=\"{os}\""))));
        assert!(cfg.contains(&Value::from(family)));
        assert_eq!(
            target_line,
            format!(
                "target {target} (--target) · cfg: the target's {} values",
                cfg.len() - 1
            )
        );
        let with_cfg = sandbox.run(&["check", "t.info", "--target", target, "--cfg", "ci"]);
        assert_eq!(
            with_cfg.stdout.lines().nth(1),
            Some(format!("{target_line} + ci").as_str())
        );
        assert!(lines.next().expect("line 3").starts_with("reports: t.info"));
        assert_eq!(lines.next(), Some("conditional exclusions:"));
        let mut condition = lines.next().expect("the condition").to_string();
        // A line longer than the table's width continues on the next, four spaces in.
        if let Some(more) = lines.next().filter(|l| l.starts_with("    ")) {
            condition = format!("{condition} {}", more.trim_start());
        }
        let expected = if target == WINDOWS {
            format!("  src/b.rs: active, excluded — `cfg(windows)` holds on {WINDOWS}")
        } else {
            format!(
                "  src/b.rs: inactive, measured like any other file — `cfg(windows)` does not hold on {MAC}"
            )
        };
        assert_eq!(condition, expected);

        let doc = check_json(&sandbox, &["--target", target]).json();
        let facts = &doc["facts"];
        assert_eq!(facts["target"]["triple"], target);
        assert_eq!(facts["target"]["source"], "--target");
        assert_eq!(facts["target"]["known"], true);
        assert_eq!(facts["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(facts["reports"][0]["format"], "LCOV");
        assert!(facts["policy"]
            .as_str()
            .expect("policy")
            .ends_with("coverage-policy.toml"));
        let condition = &facts["conditions"][0];
        assert_eq!(
            condition["location"].as_str().map(|l| l.ends_with(":4:8")),
            Some(true)
        );
        assert_eq!(condition["reason"], "not on this leg");
        assert_eq!(condition["when"], "cfg(windows)");
    }
}

/// Runs covgate in `dir` with PATH set to `path` only.
fn run_with_path(dir: &Path, args: &[&str], path: &Path) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_covgate"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("PATH", path)
        .output()
        .expect("run covgate");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Writes an executable program named `name` into `dir`; returns its path.
fn program(dir: &Path, name: &str) -> std::path::PathBuf {
    let file = dir.join(if cfg!(windows) {
        format!("{name}.exe")
    } else {
        name.to_string()
    });
    std::fs::write(&file, "#!/bin/sh\nexit 0\n").expect("write the program");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    file
}

#[test]
fn when_missing_follows_the_path() {
    let sandbox = project(
        &format!(
            "{}[[exclude]]\npath = \"src/c.rs\"\nreason = \"needs the absent tool\"\nwhen-missing = [\"covgate-test-absent\"]\n",
            exclude_b("when-missing = [\"covgate-test-present\"]")
        ),
        &lcov(""),
    );
    sandbox.write("src/c.rs", "pub fn c() -> u32 {\n    3\n}\n");
    let bin = tempfile::tempdir().expect("tempdir");
    let present = program(bin.path(), "covgate-test-present");

    let run = run_with_path(
        sandbox.path(),
        &["check", "t.info", "--format", "json"],
        bin.path(),
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    // Found: the exemption is inactive and src/b.rs is measured (here: unmeasured, fails).
    assert_eq!(status(&doc, "src/b.rs"), "unmeasured");
    // Not found: the exemption applies.
    assert_eq!(status(&doc, "src/c.rs"), "excluded");
    let programs = &doc["facts"]["programs"];
    assert_eq!(programs[0]["name"], "covgate-test-absent");
    assert_eq!(programs[0]["found"], false);
    assert_eq!(programs[0]["path"], Value::Null);
    assert_eq!(programs[1]["name"], "covgate-test-present");
    assert_eq!(programs[1]["found"], true);
    let found = programs[1]["path"].as_str().expect("a path");
    assert_eq!(Path::new(found), present);
    let conditions = &doc["facts"]["conditions"];
    assert_eq!(conditions[0]["active"], false);
    assert_eq!(conditions[0]["why"], "found on PATH: covgate-test-present");
    assert_eq!(conditions[1]["active"], true);
    assert_eq!(
        conditions[1]["why"],
        "not found on PATH: covgate-test-absent"
    );
    assert_eq!(conditions[1]["when"], Value::Null);

    let table = run_with_path(sandbox.path(), &["check", "t.info"], bin.path());
    // Facts lines wrap at the table's width (100 columns here), continuing two spaces in.
    let unwrapped = table.stdout.replace("\n  (", " (");
    assert!(
        unwrapped.contains(&format!(
            "\nprograms on PATH: covgate-test-absent not found, covgate-test-present found ({})\n",
            present.display()
        )),
        "{}",
        table.stdout
    );
    assert!(
        table.stdout.contains(
            "\n  src/b.rs: inactive, measured like any other file — found on PATH: covgate-test-present\n"
        ),
        "{}",
        table.stdout
    );

    // With an empty PATH folder, both programs are missing and both exemptions apply.
    let empty = tempfile::tempdir().expect("tempdir");
    let run = run_with_path(
        sandbox.path(),
        &["check", "t.info", "--format", "json"],
        empty.path(),
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(status(&run.json(), "src/b.rs"), "excluded");
}

#[test]
fn a_feature_exemption_of_a_file_the_report_measures_is_an_error() {
    // The leg ran `cargo llvm-cov --features extra`, so the report measures src/b.rs; covgate was
    // not given `--features extra`, so `not(feature = "extra")` holds for it.
    let report = lcov("SF:src/b.rs\nFN:1,b\nFNDA:0,b\nDA:1,0\nDA:2,0\nend_of_record\n");
    let sandbox = project(
        &exclude_b("when = 'cfg(not(feature = \"extra\"))'"),
        &report,
    );
    let run = check_json(&sandbox, &["--target", LINUX]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "covgate: error: a report measures these files, so this leg compiled them, but an \
             [[exclude]] whose `when` holds only for the --features and --cfg given to covgate \
             exempts them: give covgate the leg's --features and --cfg (those given to cargo), or \
             fix the condition:\n  src/b.rs: the [[exclude]] at {}:4:8 \
             (`cfg(not(feature = \"extra\"))`)\n",
            sandbox.path().join("coverage-policy.toml").display()
        )
    );
    // Given the leg's features, the exclusion is inactive and the file fails on its numbers.
    let run = check_json(&sandbox, &["--target", LINUX, "--features", "extra"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(common::metric(&run.json(), "src/b.rs", "lines"), "0/2 fail");
    // A target condition is what the leg is: it exempts a measured file as an unconditional
    // exclusion does; so does an unconditional one beside the feature condition.
    for tail in [
        exclude_b("when = 'cfg(unix)'"),
        format!(
            "{}[[exclude]]\npath = \"src/b*.rs\"\nreason = \"generated\"\n",
            exclude_b("when = 'cfg(not(feature = \"extra\"))'")
        ),
    ] {
        let sandbox = project(&tail, &report);
        let run = check_json(&sandbox, &["--target", LINUX]);
        assert_eq!(run.code, 0, "{tail}: {}{}", run.stdout, run.stderr);
    }
}

#[test]
fn an_inactive_exemption_never_hides_a_measured_file() {
    // src/b.rs is in the report with a missed line; its exemption applies only on Windows.
    let report = lcov("SF:src/b.rs\nFN:1,b\nFNDA:1,b\nDA:1,1\nDA:2,0\nend_of_record\n");
    let sandbox = project(&exclude_b("when = \"cfg(windows)\""), &report);
    let run = check_json(&sandbox, &["--target", LINUX]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "src/b.rs"), "fail");
    assert_eq!(common::metric(&doc, "src/b.rs", "lines"), "1/2 fail");
    assert_eq!(doc["summary"]["excluded"], 0);
    // Where it applies, the file is exempt with its reason.
    let run = check_json(&sandbox, &["--target", WINDOWS]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "src/b.rs"), "excluded");
    assert_eq!(common::file(&doc, "src/b.rs")["reason"], "not on this leg");
}

#[test]
fn an_active_exemption_with_a_stale_glob_is_an_error_an_inactive_one_is_not() {
    let policy =
        "[[exclude]]\npath = \"src/gone_*.rs\"\nreason = \"Windows only\"\nwhen = \"cfg(unix)\"\n\
                  [[exclude]]\npath = \"src/b.rs\"\nreason = \"r\"\n";
    let sandbox = project(policy, &lcov(""));
    let run = check_json(&sandbox, &["--target", LINUX]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("stale [[exclude]] entries match no in-scope file"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("coverage-policy.toml:4:8: `src/gone_*.rs` (Windows only)"),
        "{}",
        run.stderr
    );
    // Inactive on Windows: listed as inactive, never stale.
    let run = check_json(&sandbox, &["--target", WINDOWS]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let condition = &run.json()["facts"]["conditions"][0];
    assert_eq!(condition["path"], "src/gone_*.rs");
    assert_eq!(condition["active"], false);
}

#[test]
fn impossible_and_malformed_conditions_are_located_errors() {
    for (condition, message) in [
        (
            "when = \"cfg(all(windows, unix))\"",
            ":6:8: the condition `cfg(all(windows, unix))` can hold on no known target (",
        ),
        (
            "when = 'cfg(target_os = \"macoss\")'",
            ":6:8: the condition `cfg(target_os = \"macoss\")` can hold on no known target (",
        ),
        (
            "when = \"cfg(windows\"",
            ":6:8: bad condition `cfg(windows`: ",
        ),
        ("when-missing = []", ":6:16: `when-missing` is empty"),
        (
            "when_missing = [\"pwsh\"]",
            ":6:1: unknown field `when_missing`",
        ),
    ] {
        let sandbox = project(&exclude_b(condition), &lcov(""));
        let run = check_json(&sandbox, &[]);
        assert_eq!(run.code, 2, "{condition}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.starts_with("covgate: error: ") && run.stderr.contains(message),
            "{condition}: {}",
            run.stderr
        );
        assert!(run.stdout.is_empty());
    }
}

#[test]
fn bad_target_and_cfg_flags_are_usage_errors() {
    let sandbox = project("", &lcov(""));
    for (args, message) in [
        (
            vec!["--target", "x86_64-unknown-nowhere"],
            "--target x86_64-unknown-nowhere: not a built-in target of rustc ",
        ),
        (
            vec!["--cfg", "target_os=linux"],
            "--cfg target_os=linux: `target_os` is set by the target; choose the target with --target TRIPLE",
        ),
        (
            vec!["--cfg", "feature=x"],
            "--cfg feature=x: features are given with --features A,B",
        ),
        (
            vec!["--cfg", "a b"],
            "--cfg a b: expected KEY or KEY=VALUE, where KEY is an identifier",
        ),
    ] {
        let mut all = vec!["check", "t.info"];
        all.extend(args.iter().copied());
        let run = sandbox.run(&all);
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
    }
}

/// An active `when` exemption of files a report measures: this leg compiled them, so the
/// exemption may have gone stale ("compiled only on Windows" while the Linux report measures
/// the file, break session 14): every output warns, naming the exclusion, its condition and
/// reason and the files, and the files stay exempt. An unconditional exclusion that comes
/// first, and a leg where the condition does not hold, give no such warning.
#[test]
fn an_active_when_exemption_of_measured_files_warns() {
    let missed = |path: &str| format!("SF:{path}\nFN:1,f\nFNDA:0,f\nDA:1,0\nend_of_record\n");
    let covered = "SF:src/d.rs\nFN:1,d\nFNDA:1,d\nDA:1,1\nend_of_record\n";
    let report = lcov(&format!(
        "{}{}{covered}",
        missed("src/b.rs"),
        missed("src/c.rs")
    ));
    let tail = "[[exclude]]\npath = \"src/a.rs\"\nreason = \"generated\"\n\
                [[exclude]]\npath = \"src/[abc].rs\"\nreason = \"Windows only\"\n\
                when = 'cfg(not(windows))'\n";
    let sandbox = project(tail, &report);
    sandbox.write("src/c.rs", "pub fn c() -> u32 {\n    3\n}\n");
    sandbox.write("src/d.rs", "pub fn d() -> u32 {\n    4\n}\n");
    let run = check_json(&sandbox, &["--target", LINUX]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let warning = "(`when = 'cfg(not(windows))'`, reason: \"Windows only\") exempts src/b.rs and \
                   1 more, though a report measures it on this leg, which therefore compiled it";
    assert!(run.stderr.contains(warning), "{}", run.stderr);
    let warnings = run.json()["facts"]["warnings"].to_string();
    assert!(
        warnings.contains("exempts src/b.rs and 1 more"),
        "{warnings}"
    );
    assert_eq!(run.stderr.matches("exempts").count(), 1, "{}", run.stderr);
    let run = check_json(&sandbox, &["--target", WINDOWS]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(!run.stderr.contains("exempts"), "{}", run.stderr);

    // One file: named alone; a measured file no exclusion matches gives nothing.
    let sandbox = project(&exclude_b("when = 'cfg(unix)'"), &lcov(&missed("src/b.rs")));
    let run = check_json(&sandbox, &["--target", LINUX]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("exempts src/b.rs, though a report"),
        "{}",
        run.stderr
    );
}
