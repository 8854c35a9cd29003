//! The real-world failure cases (`tests/fixtures/cases/NN-*`, drawn from public bug reports):
//! each test reproduces the verdict in the case's `expected.md` end to end through the binary.

use crate::common;

use common::{file, fixture, metric, status, Sandbox};

const NO_REGIONS: &str =
    "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"branches\", \"functions\", \"lines\"]\n";
const NO_BRANCHES: &str =
    "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n";

fn input(case: &str, name: &str) -> String {
    fixture(&format!("cases/{case}/{name}"))
        .display()
        .to_string()
}

/// A sandbox holding a copy of the case's crate, with `policy`; report paths `/ws/<ws>` map to it.
fn crate_sandbox(case: &str, policy: &str) -> Sandbox {
    let sandbox = Sandbox::copy_of(&format!("cases/{case}/crate"));
    sandbox.policy(policy);
    sandbox
}

fn check(sandbox: &Sandbox, ws: &str, report: &str, extra: &[&str]) -> common::Run {
    let remap = format!("/ws/{ws}={}", sandbox.path().display());
    let mut args = vec![
        "check",
        report,
        "--format",
        "json",
        "--remap-path-prefix",
        &remap,
    ];
    args.extend_from_slice(extra);
    sandbox.run(&args)
}

#[test]
fn case01_zero_branches_are_vacuous_not_zero_percent() {
    let case = "01-no-branches-percent-zero";
    let sb = crate_sandbox(case, "[measure]\ninclude = [\"src/**/*.rs\"]\n");
    let run = check(&sb, "nobranch", &input(case, "input.json"), &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "regions"), "13/13 pass");
    assert_eq!(metric(&doc, "src/lib.rs", "branches"), "2/2 pass");
    assert_eq!(metric(&doc, "src/plain.rs", "branches"), "0/0 vacuous");
    assert_eq!(metric(&doc, "src/plain.rs", "lines"), "3/3 pass");

    let sb = crate_sandbox(case, NO_REGIONS);
    let run = check(&sb, "nobranch", &input(case, "input.info"), &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "10/10 pass");
    assert_eq!(metric(&doc, "src/plain.rs", "branches"), "0/0 vacuous");
    assert_eq!(metric(&doc, "src/plain.rs", "functions"), "1/1 pass");
}

#[test]
fn case01_regions_from_lcov_fail_closed() {
    let case = "01-no-branches-percent-zero";
    let sb = crate_sandbox(case, "[measure]\ninclude = [\"src/**/*.rs\"]\n");
    let run = check(&sb, "nobranch", &input(case, "input.info"), &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        metric(&run.json(), "src/lib.rs", "regions"),
        "null/null unavailable"
    );
    let table = sb.run(&[
        "check",
        &input(case, "input.info"),
        "--remap-path-prefix",
        &format!("/ws/nobranch={}", sb.path().display()),
    ]);
    assert!(
        table.stdout.contains("regions are not in LCOV"),
        "{}",
        table.stdout
    );
}

#[test]
fn case02_generic_instantiations_fail_the_same_way_in_json_and_lcov() {
    let case = "02-generic-instantiations-split";
    let sb = crate_sandbox(case, "[measure]\ninclude = [\"src/**/*.rs\"]\n");
    let run = check(&sb, "generics", &input(case, "input.json"), &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "src/lib.rs"), "fail");
    assert_eq!(metric(&doc, "src/lib.rs", "regions"), "10/11 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "branches"), "1/2 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "2/2 pass");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "8/9 fail");
    // The misses are those of `is_negative::<i64>` (it never takes the `false` arm), named as
    // the instantiation they come from in every output.
    let uncovered = &file(&doc, "src/lib.rs")["uncovered"];
    let name = "generics::is_negative::<i64>";
    assert_eq!(
        uncovered["regions"],
        serde_json::json!([{"line_start": 5, "col_start": 9, "line_end": 5, "col_end": 14,
                            "instantiation": name}])
    );
    assert_eq!(
        uncovered["branches"],
        serde_json::json!([{"line": 2, "column": 8, "side": "false", "what": "never taken",
                            "instantiation": name}])
    );
    let json = input(case, "input.json");
    let remap = format!("/ws/generics={}", sb.path().display());
    let render = |format: &str| {
        sb.run(&[
            "check",
            &json,
            "--format",
            format,
            "--remap-path-prefix",
            &remap,
        ])
    };
    let table = render("table");
    assert!(
        table
            .stdout
            .contains(&format!("regions: 5:9-5:14 (in {name})"))
            && table
                .stdout
                .contains(&format!("branches: 2:8 false never taken (in {name})")),
        "{}",
        table.stdout
    );
    let markdown = render("markdown");
    let escaped = "generics::is\\_negative::\\<i64\\>";
    assert!(
        markdown
            .stdout
            .contains(&format!("- regions: 5 (cols 9-14) (in {escaped})"))
            && markdown
                .stdout
                .contains(&format!("- branches: 2:8 false never taken (in {escaped})")),
        "{}",
        markdown.stdout
    );
    // The export given twice names the same instantiations (and keeps its numbers).
    let twice = check(&sb, "generics", &json, &[&json]);
    assert_eq!(twice.json()["files"], doc["files"]);

    let sb = crate_sandbox(case, NO_REGIONS);
    let run = check(&sb, "generics", &input(case, "input.info"), &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "branches"), "1/2 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "2/2 pass");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "8/9 fail");
}

#[test]
fn case04_lcov_shards_merge_per_file() {
    let case = "04-lcov-duplicate-sf-shards";
    let sb = crate_sandbox(case, NO_REGIONS);
    let merged = check(&sb, "shards", &input(case, "input.info"), &[]);
    assert_eq!(merged.code, 0, "{}{}", merged.stdout, merged.stderr);
    let doc = merged.json();
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "13/13 pass");
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "3/3 pass");
    assert_eq!(metric(&doc, "src/parse.rs", "branches"), "2/2 pass");
    assert_eq!(
        doc["files"].as_array().map(Vec::len),
        Some(2),
        "each file once"
    );

    let a = check(&sb, "shards", &input(case, "input-shard-a.info"), &[]);
    assert_eq!(a.code, 1);
    let doc = a.json();
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "8/13 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "2/3 fail");
    assert_eq!(metric(&doc, "src/parse.rs", "lines"), "4/5 fail");

    // The two shards given together are merged like the concatenated file.
    let both = check(
        &sb,
        "shards",
        &input(case, "input-shard-a.info"),
        &[&input(case, "input-shard-b.info")],
    );
    assert_eq!(both.code, 0, "{}{}", both.stdout, both.stderr);
    assert_eq!(metric(&both.json(), "src/lib.rs", "lines"), "13/13 pass");

    let cat = check(&sb, "shards", &input(case, "input-raw-cat.info"), &[]);
    if cat.code == 2 {
        assert!(cat.stderr.contains(":46"), "{}", cat.stderr);
    } else {
        assert_eq!(cat.code, 0, "{}{}", cat.stdout, cat.stderr);
        assert_eq!(metric(&cat.json(), "src/parse.rs", "lines"), "5/5 pass");
    }
}

#[test]
fn case05_brda_dash_is_found_but_not_hit() {
    let case = "05-brda-dash-never-executed";
    let sb = Sandbox::copy_of(&format!("cases/{case}/csrc"));
    sb.policy(
        "[measure]\ninclude = [\"**\"]\nmetrics = [\"branches\", \"functions\", \"lines\"]\n",
    );
    let run = check(&sb, "cproj", &input(case, "input.info"), &["--no-walk"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "mathx.c", "lines"), "4/8 fail");
    assert_eq!(metric(&doc, "mathx.c", "functions"), "1/2 fail");
    assert_eq!(metric(&doc, "mathx.c", "branches"), "2/6 fail");
    assert_eq!(status(&doc, "main.c"), "pass");
    assert_eq!(metric(&doc, "main.c", "branches"), "0/0 vacuous");

    let run = check(
        &sb,
        "solproj",
        &input(case, "input-line-hit-branch-dash.info"),
        &["--no-walk"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/Vault.sol", "lines"), "2/3 fail");
    assert_eq!(metric(&doc, "src/Vault.sol", "branches"), "1/2 fail");
    assert_eq!(metric(&doc, "src/Vault.sol", "functions"), "1/1 pass");
}

#[test]
fn case06_lcov2_records_pass() {
    let case = "06-lcov2-ver-fnl-fna-records";
    let sb = Sandbox::copy_of(&format!("cases/{case}"));
    sb.policy(
        "[measure]\ninclude = [\"src/**\"]\nmetrics = [\"branches\", \"functions\", \"lines\"]\n",
    );
    let run = check(&sb, "cppproj", &input(case, "input.info"), &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/shape.cpp", "lines"), "9/9 pass");
    assert_eq!(metric(&doc, "src/shape.cpp", "functions"), "3/3 pass");
    assert_eq!(metric(&doc, "src/shape.cpp", "branches"), "8/8 pass");
    assert_eq!(metric(&doc, "src/legacy.c", "functions"), "1/1 pass");
    assert_eq!(metric(&doc, "src/legacy.c", "branches"), "0/0 vacuous");
}

#[test]
fn case09_files_missing_from_the_report_are_unmeasured() {
    let case = "09-never-compiled-file-missing";
    for report in ["input.json", "input.info"] {
        // A stable run: no branch records in either format, so branches are left out.
        let policy = if report.ends_with("json") {
            NO_BRANCHES
        } else {
            "[measure]\nmetrics = [\"functions\", \"lines\"]\n"
        };
        let sb = crate_sandbox(case, policy);
        let run = check(&sb, "partial", &input(case, report), &[]);
        assert_eq!(run.code, 1, "{report}: {}{}", run.stdout, run.stderr);
        let doc = run.json();
        assert_eq!(status(&doc, "src/lib.rs"), "pass", "{report}");
        assert_eq!(status(&doc, "src/sys/unix.rs"), "pass", "{report}");
        assert_eq!(status(&doc, "src/sys/mod.rs"), "no-code", "{report}");
        assert_eq!(status(&doc, "src/orphan.rs"), "unmeasured", "{report}");
        assert_eq!(status(&doc, "src/extra.rs"), "unmeasured", "{report}");
        assert_eq!(status(&doc, "src/sys/windows.rs"), "unmeasured", "{report}");
        assert_eq!(doc["summary"]["unmeasured"], 3);
        assert_eq!(doc["summary"]["no_code"], 1);
    }
}

#[test]
fn stable_lcov_without_brda_has_no_branches_to_pass() {
    let case = "09-never-compiled-file-missing";
    let sb = crate_sandbox(case, NO_REGIONS);
    let run = check(&sb, "partial", &input(case, "input.info"), &["--no-walk"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        metric(&run.json(), "src/lib.rs", "branches"),
        "null/null unavailable"
    );
}

#[test]
fn case09_no_walk_judges_the_report_alone_and_says_so() {
    let case = "09-never-compiled-file-missing";
    let sb = crate_sandbox(case, NO_BRANCHES);
    let remap = format!("/ws/partial={}", sb.path().display());
    let run = sb.run(&[
        "check",
        &input(case, "input.json"),
        "--no-walk",
        "--remap-path-prefix",
        &remap,
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("--no-walk"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("2 measured: 2 passed, 0 failed; 0 unmeasured"),
        "{}",
        run.stdout
    );
}

#[test]
fn case10_empty_reports_are_errors() {
    let case = "10-filter-regex-empties-report";
    let sb = Sandbox::copy_of(&format!("cases/{case}/svc_test"));
    sb.policy(NO_BRANCHES);
    for report in ["input.json", "input.info"] {
        let run = check(&sb, "svc_test", &input(case, report), &[]);
        assert_eq!(run.code, 2, "{report}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(report), "{}", run.stderr);
        assert!(
            run.stdout.is_empty(),
            "an error prints no verdict: {}",
            run.stdout
        );
    }
    let run = check(
        &sb,
        "svc_test",
        &input(case, "input-reference-unfiltered.json"),
        &[],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "regions"), "8/11 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "2/3 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "6/9 fail");
    assert_eq!(status(&doc, "src/test_utils.rs"), "pass");
}

#[test]
fn case16_test_code_scope_follows_the_include() {
    let case = "16-test-code-counted-in-src";
    let sb = crate_sandbox(case, NO_BRANCHES);
    for report in ["input.json", "input-raw-llvm-cov.json"] {
        let run = check(&sb, "testcode", &input(case, report), &[]);
        assert_eq!(run.code, 0, "{report}: {}{}", run.stdout, run.stderr);
        let doc = run.json();
        assert_eq!(metric(&doc, "src/lib.rs", "regions"), "14/14 pass");
        assert_eq!(metric(&doc, "src/lib.rs", "lines"), "13/13 pass");
    }
    let raw = input(case, "input-raw-llvm-cov.json");
    let run = check(&sb, "testcode", &raw, &[]);
    assert_eq!(run.json()["summary"]["outside_include"], 1);

    let all =
        "[measure]\ninclude = [\"**/*.rs\"]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n";
    sb.policy(all);
    let run = check(&sb, "testcode", &raw, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "tests/api.rs", "regions"), "6/7 fail");
    assert_eq!(metric(&doc, "tests/api.rs", "lines"), "5/6 fail");
    assert_eq!(metric(&doc, "tests/api.rs", "functions"), "1/1 pass");

    sb.policy(&format!("{all}[[exclude]]\npath = \"tests/**\"\nreason = \"integration tests are not product code\"\n"));
    let run = check(&sb, "testcode", &raw, &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(status(&run.json(), "tests/api.rs"), "excluded");

    sb.policy("[measure]\ninclude = [\"**/*.rs\"]\nmetrics = [\"functions\", \"lines\"]\n");
    let run = check(
        &sb,
        "testcode",
        &input(case, "input-raw-llvm-cov.info"),
        &[],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "src/lib.rs"), "pass");
    assert_eq!(metric(&doc, "tests/api.rs", "lines"), "5/6 fail");
}

const CASE14: &str = "14-inline-exclusion-markers";

fn case14(policy: &str, report: &str) -> serde_json::Value {
    let sb = crate_sandbox(CASE14, policy);
    let run = check(&sb, "markers", &input(CASE14, report), &[]);
    assert!(run.code == 0 || run.code == 1, "{report}: {}", run.stderr);
    run.json()
}

#[test]
fn case14_markers_honoured_exclude_lines_regions_and_functions() {
    let honour = "[measure]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n";
    for report in ["input-nightly.json", "input-nightly.info"] {
        let policy = if report.ends_with("info") {
            "[measure]\nmetrics = [\"functions\", \"lines\"]\n"
        } else {
            honour
        };
        let doc = case14(policy, report);
        assert_eq!(status(&doc, "src/lib.rs"), "pass", "{report}: {doc:#}");
        assert_eq!(metric(&doc, "src/lib.rs", "lines"), "9/9 pass", "{report}");
        assert_eq!(
            metric(&doc, "src/lib.rs", "functions"),
            "2/2 pass",
            "{report}"
        );
        assert_eq!(
            metric(&doc, "src/control.rs", "functions"),
            "0/1 fail",
            "{report}"
        );
        assert_eq!(
            metric(&doc, "src/control.rs", "lines"),
            "0/3 fail",
            "{report}"
        );
        let ignored = &common::file(&doc, "src/lib.rs")["ignored"];
        assert_eq!(
            ignored["lines"], 8,
            "{report}: line 7 and 11-19 hold 8 mapped lines"
        );
        assert_eq!(ignored["functions"], 1, "{report}: debug_dump");
    }
    let doc = case14(honour, "input-nightly.json");
    assert_eq!(metric(&doc, "src/lib.rs", "regions"), "14/14 pass");
    assert_eq!(metric(&doc, "src/control.rs", "regions"), "0/4 fail");
    assert_eq!(doc["summary"]["ignored"]["functions"], 1);
    assert_eq!(doc["summary"]["files_with_ignores"], 1);
}

#[test]
fn case14_markers_switched_off_count_everything() {
    let off =
        "[measure]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n[inline]\nmarkers = []\n";
    let doc = case14(off, "input-nightly.json");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "9/17 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "2/3 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "regions"), "14/24 fail");
    let doc = case14(off, "input-stable.json");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "9/20 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "2/4 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "regions"), "14/29 fail");
}

#[test]
fn case14_stable_ignores_coverage_off_so_platform_banner_fails() {
    let doc = case14(
        "[measure]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n",
        "input-stable.json",
    );
    assert_eq!(status(&doc, "src/lib.rs"), "fail");
    let uncovered = &common::file(&doc, "src/lib.rs")["uncovered"];
    assert_eq!(
        uncovered["lines"],
        serde_json::json!([{"start": 22, "end": 24}])
    );
    assert_eq!(
        uncovered["functions"][0]["name"],
        "markers::platform_banner"
    );
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "2/3 fail");
}

#[test]
fn markers_need_a_full_export_and_balanced_ranges() {
    let sb = crate_sandbox(CASE14, NO_BRANCHES);
    let summary_only = fixture("llvm/tricky_stable_summary_only.json");
    sb.write("src/asyncs.rs", "// LCOV_EXCL_LINE\nfn f() {}\n");
    sb.write("src/gen.rs", "fn g() {}\n");
    sb.write("src/main.rs", "fn main() {}\n");
    sb.write("shared/common.rs", "fn c() {}\n");
    let remap = format!("/ci/samples/tricky={}", sb.path().display());
    let run = sb.run(&[
        "check",
        &summary_only.display().to_string(),
        "--remap-path-prefix",
        &remap,
    ]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("src/asyncs.rs: carries 1 inline ignore marker(s)"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("give a full export"), "{}", run.stderr);

    let sb = crate_sandbox(CASE14, NO_BRANCHES);
    sb.write("src/control.rs", "// LCOV_EXCL_START\npub fn never() {}\n");
    let run = check(&sb, "markers", &input(CASE14, "input-nightly.json"), &[]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("src/control.rs:1: lcov range start without its end"),
        "{}",
        run.stderr
    );
}

const CASE35: &str = "35-c-headers-and-unbuilt-files";

/// Case 35 run as `run.sh` does: `--root project --remap-path-prefix /ws/kvparse=project`.
fn case35(report: &str, policy: &str, extra: &[&str]) -> common::Run {
    let dir = fixture(&format!("cases/{CASE35}"));
    let mut args = vec![
        "check",
        report,
        "--policy",
        policy,
        "--root",
        "project",
        "--remap-path-prefix",
        "/ws/kvparse=project",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    common::covgate(&dir, &args)
}

#[test]
fn case35_c_headers_of_declarations_are_no_code_and_unbuilt_files_fail() {
    let run = case35("input.json", "coverage-policy.toml", &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "src/kv.h"), "no-code");
    assert_eq!(status(&doc, "src/legacy.c"), "unmeasured");
    assert_eq!(
        common::file(&doc, "src/legacy.c")["reason"],
        "in no report, but has code (a function body at line 5)"
    );
    assert_eq!(metric(&doc, "src/kv_limits.h", "lines"), "0/0 vacuous");
    for (m, want) in [
        ("regions", "6/6 pass"),
        ("branches", "8/8 pass"),
        ("functions", "2/2 pass"),
        ("lines", "2/2 pass"),
    ] {
        assert_eq!(metric(&doc, "src/chars.h", m), want, "{m}");
    }
    assert_eq!(metric(&doc, "src/parse.c", "regions"), "21/21 pass");
    assert_eq!(metric(&doc, "src/parse.c", "branches"), "14/14 pass");
    assert_eq!(metric(&doc, "src/sum.c", "lines"), "9/9 pass");
    assert_eq!(metric(&doc, "tests/test_kv.c", "lines"), "11/11 pass");

    let run = case35("input.json", "coverage-policy-legacy-excluded.toml", &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(status(&run.json(), "src/legacy.c"), "excluded");

    let run = case35("input.info", "coverage-policy-lcov.toml", &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "src/kv.h"), "no-code");
    assert_eq!(metric(&doc, "src/chars.h", "branches"), "8/8 pass");

    let run = case35("input.json", "coverage-policy.toml", &["--no-walk"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

#[test]
fn c_family_sources_in_no_report_are_classified_by_their_content() {
    let sb = Sandbox::new();
    sb.policy("[measure]\ninclude = [\"src/**\"]\nmetrics = [\"lines\"]\n");
    sb.write("src/a.c", "int a(void) { return 1; }\n");
    sb.write("src/api.hpp", "#pragma once\nnamespace x { int f(); }\n");
    sb.write("src/open.h", "int a;\n/* never closed\n");
    sb.write("src/tool.py", "print(1)\n");
    sb.write("t.info", "SF:src/a.c\nDA:1,1\nend_of_record\n");
    // A regular file (to `stat`) that cannot be read: reading /proc/self/mem at 0 fails (EIO).
    #[cfg(target_os = "linux")]
    std::os::unix::fs::symlink("/proc/self/mem", sb.path().join("src/mem.h")).unwrap();
    let run = sb.run(&["check", "t.info", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "src/a.c"), "pass");
    assert_eq!(status(&doc, "src/api.hpp"), "no-code");
    assert_eq!(
        common::file(&doc, "src/open.h")["reason"],
        "in no report, and cannot be read as C or C++ (a comment that begins on line 2 never ends)"
    );
    #[cfg(target_os = "linux")]
    assert!(
        common::file(&doc, "src/mem.h")["reason"]
            .as_str()
            .unwrap()
            .starts_with("in no report, and cannot be read ("),
        "{doc:#}"
    );
    assert_eq!(
        common::file(&doc, "src/tool.py")["reason"],
        "in no report (covgate tells whether a file has code only for Rust, C and C++ sources)"
    );
}

/// A function whose body is an object-like macro, followed by a stray `;` (`int f(void)
/// STUB_BODY;`, valid C), in a source file that no report names: unmeasured, not no code; the
/// same shape in a header is an attribute macro (`NORETURN`), unless the function is `static`.
#[test]
fn a_source_whose_function_body_may_be_a_macro_is_unmeasured() {
    let sb = Sandbox::new();
    sb.policy("[measure]\ninclude = [\"*.c\", \"*.h\"]\nmetrics = [\"lines\"]\n");
    sb.write("main.c", "int main(void) { return 0; }\n");
    sb.write(
        "body.h",
        "#define STUB_BODY { if (1) { return -1; } return 0; }\n",
    );
    sb.write(
        "stub.c",
        "#include \"body.h\"\nint stub_open(void) STUB_BODY;\nint stub_close(void) STUB_BODY;\n",
    );
    sb.write("die.h", "void die(void) NORETURN;\n");
    sb.write("local.h", "static int helper(void) STUB_BODY;\n");
    sb.write("t.info", "SF:main.c\nDA:1,1\nend_of_record\n");
    let run = sb.run(&["check", "t.info", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "main.c"), "pass");
    assert_eq!(status(&doc, "body.h"), "no-code");
    assert_eq!(status(&doc, "die.h"), "no-code");
    assert_eq!(
        common::file(&doc, "stub.c")["reason"],
        "in no report, and may have code (not recognised as a declaration at line 2: a name \
         after a parameter list in a source file, which may be a macro that expands to the \
         function's body)"
    );
    assert_eq!(status(&doc, "stub.c"), "unmeasured");
    assert_eq!(status(&doc, "local.h"), "unmeasured");
}

const ALL_METRICS: &str = "[measure]\ninclude = [\"src/**/*.rs\"]\n";

#[test]
fn case19_json_shards_of_one_binary_sum_like_the_full_run() {
    let case = "19-json-shards-same-function";
    let sb = crate_sandbox(case, ALL_METRICS);
    let one = input(case, "input-shard1.json");
    let two = input(case, "input-shard2.json");
    let merged = check(&sb, "shardy", &one, &[&two]);
    assert_eq!(merged.code, 0, "{}{}", merged.stdout, merged.stderr);
    let full = check(&sb, "shardy", &input(case, "reference-full-run.json"), &[]);
    assert_eq!(full.code, 0, "{}{}", full.stdout, full.stderr);
    for m in ["regions", "branches", "functions", "lines"] {
        let want = metric(&full.json(), "src/lib.rs", m);
        assert_eq!(metric(&merged.json(), "src/lib.rs", m), want, "{m}");
    }
    let doc = merged.json();
    assert_eq!(metric(&doc, "src/lib.rs", "regions"), "6/6 pass");
    assert_eq!(metric(&doc, "src/lib.rs", "branches"), "2/2 pass");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "6/6 pass");
    // In the other order, and with one shard given twice (a merge with itself adds nothing).
    let swapped = check(&sb, "shardy", &two, &[&one]);
    assert_eq!(metric(&swapped.json(), "src/lib.rs", "lines"), "6/6 pass");
    let twice = check(&sb, "shardy", &one, &[&one]);
    assert_eq!(metric(&twice.json(), "src/lib.rs", "regions"), "4/6 fail");
    assert_eq!(metric(&twice.json(), "src/lib.rs", "lines"), "4/6 fail");

    let alone = check(&sb, "shardy", &one, &[]);
    assert_eq!(alone.code, 1);
    assert_eq!(metric(&alone.json(), "src/lib.rs", "regions"), "4/6 fail");
    assert_eq!(metric(&alone.json(), "src/lib.rs", "branches"), "1/2 fail");
    let alone = check(&sb, "shardy", &two, &[]);
    assert_eq!(metric(&alone.json(), "src/lib.rs", "lines"), "5/6 fail");

    // The LCOV exports of the same two runs merge to the same numbers.
    let sb = crate_sandbox(case, NO_REGIONS);
    let lcov = check(
        &sb,
        "shardy",
        &input(case, "input-shard1.info"),
        &[&input(case, "input-shard2.info")],
    );
    assert_eq!(lcov.code, 0, "{}{}", lcov.stdout, lcov.stderr);
    let doc = lcov.json();
    assert_eq!(metric(&doc, "src/lib.rs", "branches"), "2/2 pass");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "6/6 pass");
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "1/1 pass");
}

/// Case 27's kind on data of our own: a Bazel-style baseline (`SF` sections without records)
/// next to the test's report, for a package with a tested file, a never-run file, a Rust file
/// without code and an excluded test file.
fn baseline_sandbox() -> Sandbox {
    let sb = Sandbox::new();
    sb.policy(
        "[measure]\ninclude = [\"pkg/**/*.c\", \"pkg/**/*.rs\"]\nmetrics = [\"lines\", \"functions\"]\n\n\
         [[exclude]]\npath = \"pkg/*_test.c\"\nreason = \"test code\"\n",
    );
    sb.write("pkg/scale.c", "int scale(int v) {\n  return v * 2;\n}\n");
    sb.write(
        "pkg/idle.c",
        "int idle(int v) {\n  if (v) return 1;\n  return 0;\n}\n",
    );
    sb.write(
        "pkg/scale_test.c",
        "int main(void) { return scale(1) != 2; }\n",
    );
    sb.write("pkg/types.rs", "pub struct Unit;\n");
    sb.write("pkg/run.rs", "pub fn run() {}\n");
    sb.write(
        "coverage.dat",
        "SF:pkg/scale.c\nFN:1,scale\nFNDA:4,scale\nFNF:1\nFNH:1\nDA:1,4\nDA:2,4\nLH:2\nLF:2\nend_of_record\n",
    );
    sb.write(
        "baseline.dat",
        "SF:pkg/scale.c\nend_of_record\nSF:pkg/idle.c\nend_of_record\nSF:pkg/types.rs\nend_of_record\nSF:pkg/run.rs\nend_of_record\n\
         SF:pkg/scale_test.c\nend_of_record\nSF:/elsewhere/lib.c\nend_of_record\n",
    );
    sb
}

#[test]
fn case27_sections_without_records_are_no_evidence() {
    let sb = baseline_sandbox();
    let both = sb.run(&["check", "coverage.dat", "baseline.dat", "--format", "json"]);
    assert_eq!(both.code, 1, "{}{}", both.stdout, both.stderr);
    let doc = both.json();
    assert_eq!(status(&doc, "pkg/scale.c"), "pass");
    assert_eq!(metric(&doc, "pkg/scale.c", "lines"), "2/2 pass");
    assert_eq!(status(&doc, "pkg/idle.c"), "unmeasured");
    let reason = file(&doc, "pkg/idle.c")["reason"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        reason.contains("named by baseline.dat without any record"),
        "{reason}"
    );
    assert_eq!(status(&doc, "pkg/types.rs"), "no-code");
    assert_eq!(status(&doc, "pkg/run.rs"), "unmeasured");
    assert_eq!(status(&doc, "pkg/scale_test.c"), "excluded");

    // Without the walk, the named file still fails: it is named, not measured.
    let unwalked = sb.run(&[
        "check",
        "coverage.dat",
        "baseline.dat",
        "--no-walk",
        "--format",
        "json",
    ]);
    assert_eq!(unwalked.code, 1, "{}{}", unwalked.stdout, unwalked.stderr);
    assert_eq!(status(&unwalked.json(), "pkg/idle.c"), "unmeasured");

    // One tracefile holding both (`cat`): the same verdict, in either order.
    let report = std::fs::read_to_string(sb.path().join("coverage.dat")).expect("read");
    let baseline = std::fs::read_to_string(sb.path().join("baseline.dat")).expect("read");
    for (name, text) in [
        ("cat1.dat", format!("{report}{baseline}")),
        ("cat2.dat", format!("{baseline}{report}")),
    ] {
        sb.write(name, &text);
        let run = sb.run(&["check", name, "--format", "json"]);
        assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
        let doc = run.json();
        assert_eq!(metric(&doc, "pkg/scale.c", "lines"), "2/2 pass", "{name}");
        assert_eq!(status(&doc, "pkg/idle.c"), "unmeasured", "{name}");
    }

    // The baseline alone measures nothing: an error, not a pass.
    let alone = sb.run(&["check", "baseline.dat"]);
    assert_eq!(alone.code, 2, "{}{}", alone.stdout, alone.stderr);
    assert!(
        alone
            .stderr
            .contains("baseline.dat: no coverage record in any report"),
        "{}",
        alone.stderr
    );
}

#[test]
fn a_check_that_measures_nothing_fails_unless_the_policy_allows_it() {
    let sb = Sandbox::new();
    sb.write("src/lib.rs", "pub fn f() {}\n");
    sb.write("src/types.rs", "pub struct Unit;\n");
    sb.write("c.info", "SF:src/lib.rs\nDA:1,1\nend_of_record\n");
    let excluded = "[measure]\nmetrics = [\"lines\"]\n\n[[exclude]]\npath = \"src/*.rs\"\nreason = \"generated\"\n";
    sb.policy(excluded);
    let run = sb.run(&["check", "c.info"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("note: no file was measured: every in-scope file is excluded or has no code"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.ends_with("covgate: FAIL\n"), "{}", run.stdout);
    let doc = sb.run(&["check", "c.info", "--format", "json"]).json();
    assert_eq!(doc["verdict"], "fail");
    assert_eq!(doc["summary"]["empty"]["allowed"], false);
    assert_eq!(doc["summary"]["empty"]["reason"], serde_json::Value::Null);
    let md = sb.run(&["check", "c.info", "--format", "markdown"]);
    assert!(
        md.stdout.contains("- no file was measured"),
        "{}",
        md.stdout
    );
    let gh = sb.run(&["check", "c.info", "--format", "github"]);
    assert!(
        gh.stdout
            .contains("::error title=covgate%3A nothing measured::no file"),
        "{}",
        gh.stdout
    );

    sb.policy(&excluded.replace(
        "metrics = [\"lines\"]\n",
        "metrics = [\"lines\"]\nallow-empty = true\nallow-empty-reason = \"only generated code here\"\n",
    ));
    let run = sb.run(&["check", "c.info"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("allowed by `allow-empty`: only generated code here"),
        "{}",
        run.stdout
    );
    let doc = sb.run(&["check", "c.info", "--format", "json"]).json();
    assert_eq!(doc["summary"]["empty"]["allowed"], true);
    assert_eq!(
        doc["summary"]["empty"]["reason"],
        "only generated code here"
    );
    let gh = sb.run(&["check", "c.info", "--format", "github"]);
    assert!(
        gh.stdout
            .contains("::notice title=covgate%3A nothing measured::"),
        "{}",
        gh.stdout
    );

    // Files without code only (a report naming them without records): nothing measured either.
    sb.policy("[measure]\nmetrics = [\"lines\"]\n");
    sb.write("src/lib.rs", "pub struct Other;\n");
    sb.write(
        "b.info",
        "SF:src/lib.rs\nend_of_record\nSF:other.c\nDA:1,1\nend_of_record\n",
    );
    let run = sb.run(&["check", "b.info", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "src/lib.rs"), "no-code");
    assert_eq!(doc["summary"]["empty"]["allowed"], false);
    // A measured file: nothing to report.
    let run = sb.run(&["check", "c.info", "--format", "json"]);
    assert!(run.json()["summary"].get("empty").is_none());
}

#[test]
fn copies_and_instantiations_are_one_function_in_items_annotations_and_ignored_counts() {
    let sb = Sandbox::new();
    sb.policy("[measure]\nmetrics = [\"functions\", \"lines\"]\n");
    // Two instantiations of `pick` (line 1) built into two binaries (two crate hashes): four
    // records of one function that never ran; `other` (line 5) never ran either; `used` ran.
    sb.write(
        "src/lib.rs",
        "pub fn pick<T>(t: T) -> T { t }\n\n\n\npub fn other() {}\npub fn used() {}\n",
    );
    let record = |hash: &str, generic: &str| format!("_RINvCs{hash}_4demo4pick{generic}EB2_");
    let names = [
        record("aaaaaaaaaaa", "h"),
        record("aaaaaaaaaaa", "m"),
        record("bbbbbbbbbbb", "h"),
        record("bbbbbbbbbbb", "m"),
    ];
    let mut text = String::from("TN:\nSF:src/lib.rs\n");
    for name in &names {
        text.push_str(&format!("FN:1,{name}\nFNDA:0,{name}\n"));
    }
    text.push_str(
        "FN:5,other\nFNDA:0,other\nFN:6,used\nFNDA:1,used\nDA:1,0\nDA:5,0\nDA:6,1\nend_of_record\n",
    );
    sb.write("c.info", &text);
    let run = sb.run(&["check", "c.info", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "1/3 fail");
    let items = &file(&doc, "src/lib.rs")["uncovered"]["functions"];
    assert_eq!(
        items,
        &serde_json::json!([{"line": 1, "name": "demo::pick"}, {"line": 5, "name": "other"}])
    );
    let gh = sb.run(&["check", "c.info", "--format", "github"]);
    assert_eq!(
        gh.stdout.matches("function never run").count(),
        2,
        "{}",
        gh.stdout
    );

    // A marker on line 1 takes out one function (its four records), as the counts see it.
    sb.write(
        "src/lib.rs",
        "pub fn pick<T>(t: T) -> T { t } // covgate:ignore -- generic helper\n\n\n\npub fn other() {}\npub fn used() {}\n",
    );
    let doc = sb.run(&["check", "c.info", "--format", "json"]).json();
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "1/2 fail");
    assert_eq!(file(&doc, "src/lib.rs")["ignored"]["functions"], 1);
    assert_eq!(doc["summary"]["ignored"]["functions"], 1);
}

#[test]
fn llvm_cov_lcov_shards_that_cannot_merge_exactly_are_an_error() {
    let sb = Sandbox::new();
    sb.policy(NO_REGIONS);
    sb.write("src/lib.rs", "pub fn f() {\n    g();\n}\n");
    // llvm-cov's LH:1 where both DA lines ran (a closure on line 2 that never ran, say).
    let a = "SF:src/lib.rs\nFN:1,f\nFNDA:1,f\nFNF:1\nFNH:1\nDA:1,1\nDA:2,1\nLF:2\nLH:1\nend_of_record\n";
    let b = a.replace("DA:2,1", "DA:2,0");
    sb.write("a.info", a);
    sb.write("b.info", &b);
    sb.write("ab.info", &format!("{a}{b}"));
    for args in [&["check", "a.info", "b.info"][..], &["check", "ab.info"]] {
        let run = sb.run(args);
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr
                .contains("src/lib.rs: llvm-cov LCOV sections from")
                && run.stderr.contains("cargo llvm-cov report --lcov"),
            "{}",
            run.stderr
        );
    }
    // Each alone is llvm-cov's own count; the same tracefile twice changes nothing.
    let run = sb.run(&["check", "a.info", "a.info", "--format", "json"]);
    assert_eq!(metric(&run.json(), "src/lib.rs", "lines"), "1/2 fail");
}
