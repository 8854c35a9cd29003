//! The output formats on real fixtures: snapshots of table, markdown, github and json (insta);
//! escaping of hostile file names; the Markdown size cap; the JSON schema; several outputs from
//! one run.

use crate::common;

use common::{fixture, Sandbox};

const TARGET: &str = "x86_64-unknown-linux-gnu";

/// Runs a check of `report` (a fixture) in a sandbox with `policy`, with paths under /ci, and
/// returns stdout with the sandbox path replaced by `[SANDBOX]`.
fn output(report: &str, policy: &str, format: &str) -> String {
    let sandbox = Sandbox::new();
    sandbox.policy(policy);
    let report = fixture(report).display().to_string();
    let run = sandbox.run(&[
        "check",
        &report,
        "--root",
        "/ci",
        "--no-walk",
        "--format",
        format,
        "--target",
        TARGET,
        "--policy",
        "coverage-policy.toml",
    ]);
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    run.stdout
        .replace(&fixture("").display().to_string(), "[FIXTURES]/")
        .replace(&sandbox.path().display().to_string(), "[SANDBOX]")
}

const ALL: &str = "[measure]\ninclude = [\"**\"]\n";
const NO_BRANCHES: &str =
    "[measure]\ninclude = [\"**\"]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n";
const LCOV: &str =
    "[measure]\ninclude = [\"**\"]\nmetrics = [\"branches\", \"functions\", \"lines\"]\n";

fn snapshots(name: &str, report: &str, policy: &str) {
    for format in ["table", "markdown", "github", "json"] {
        insta::assert_snapshot!(format!("{name}-{format}"), output(report, policy, format));
    }
}

#[test]
fn walkdir_branch_export() {
    snapshots("walkdir", "real/walkdir.branch.json", ALL);
}

#[test]
fn tricky_stable_export() {
    snapshots("tricky", "llvm/tricky_stable.json", NO_BRANCHES);
}

#[test]
fn c_lcov_tracefile() {
    snapshots("c-lcov", "llvm/c_llvm22.lcov", LCOV);
}

fn hostile_tracefile(sandbox: &Sandbox) -> String {
    let text = "SF:src/a|b.rs\nDA:1,0\nDA:2,1\nend_of_record\n\
                SF:src/<img src=x onerror=alert(1)>.rs\nFN:1,<script>f</script>\nFNDA:0,<script>f</script>\nDA:1,0\nend_of_record\n\
                SF:src/ok%,:\r.rs\nDA:1,0\nend_of_record\n";
    sandbox.write("hostile.info", text).display().to_string()
}

#[test]
fn hostile_file_names_neither_break_the_table_nor_inject_markup() {
    let sandbox = Sandbox::new();
    sandbox.policy("[measure]\ninclude = [\"src/**\"]\nmetrics = [\"functions\", \"lines\"]\n");
    let report = hostile_tracefile(&sandbox);
    let run = sandbox.run(&["check", &report, "--no-walk", "--format", "markdown"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let md = run.stdout;
    let unescaped = md.replace("\\<", "");
    assert!(!unescaped.contains("<img"), "{md}");
    assert!(!unescaped.contains("<script"), "{md}");
    assert!(md.contains("src/a\\|b.rs"), "{md}");
    assert!(
        md.contains("src/\\<img src=x onerror=alert(1)\\>.rs"),
        "{md}"
    );
    assert!(
        md.contains("<summary>src/&lt;img src=x onerror=alert(1)&gt;.rs — uncovered</summary>"),
        "{md}"
    );
    // Every table row has exactly as many unescaped pipes as the header.
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| ")).collect();
    let pipes = |l: &str| l.replace("\\|", "").matches('|').count();
    assert_eq!(rows.len(), 4, "{md}");
    assert!(rows.iter().all(|r| pipes(r) == pipes(rows[0])), "{md}");

    let run = sandbox.run(&["check", &report, "--no-walk", "--format", "github"]);
    let annotations: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with("::")).collect();
    assert!(annotations.contains(&"::error file=src/ok%25%2C%3A%0D.rs,line=1,endLine=1,title=covgate%3A uncovered line::line 1 not covered"), "{}", run.stdout);
}

#[test]
fn five_thousand_failing_files_stay_under_the_comment_limit() {
    let sandbox = Sandbox::new();
    sandbox.policy("[measure]\ninclude = [\"src/**\"]\nmetrics = [\"lines\"]\n");
    let text: String = (0..5000)
        .map(|i| format!("SF:src/module_{i:04}/a_rather_long_file_name_{i}.rs\nDA:1,0\nDA:2,0\nDA:4,1\nend_of_record\n"))
        .collect();
    let report = sandbox.write("big.info", &text).display().to_string();
    let run = sandbox.run(&["check", &report, "--no-walk", "--format", "markdown"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let chars = run.stdout.chars().count();
    assert!(chars < 65_536, "{chars} characters");
    assert!(
        run.stdout
            .contains("**Cut to fit a comment:** 5000 file detail block(s)"),
        "cut note missing"
    );
    assert!(run.stdout.contains("table row(s) left out"));

    let run = sandbox.run(&["check", &report, "--no-walk", "--format", "github"]);
    let errors = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("::error"))
        .count();
    assert_eq!(errors, 10, "bounded in total: GitHub keeps 10 a step");
    assert!(run
        .stdout
        .contains("::notice title=covgate::4990 more annotation(s) (uncovered items) not written"));
}

/// GitHub keeps 10 error annotations a step: they go to every failing file in turn (each
/// file's first, then each file's second), and the notice counts all the others; report
/// warnings past 10 are counted too.
#[test]
fn annotations_are_spread_over_the_failing_files() {
    let sandbox = Sandbox::new();
    sandbox.policy("[measure]\ninclude = [\"src/**\"]\nmetrics = [\"lines\"]\n");
    let gaps: String = (1..=12).map(|i| format!("DA:{},0\n", i * 2)).collect();
    let mut text: String = (1..=6)
        .map(|f| format!("SF:src/m{f}.rs\n{gaps}end_of_record\n"))
        .collect();
    text.push_str(&"FOO:1\n".repeat(12));
    let report = sandbox.write("six.info", &text).display().to_string();
    let run = sandbox.run(&["check", &report, "--no-walk", "--format", "github"]);
    let files: Vec<&str> = run
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("::error file="))
        .filter_map(|l| l.split(',').next())
        .collect();
    assert_eq!(
        files,
        [
            "src/m1.rs",
            "src/m2.rs",
            "src/m3.rs",
            "src/m4.rs",
            "src/m5.rs",
            "src/m6.rs",
            "src/m1.rs",
            "src/m2.rs",
            "src/m3.rs",
            "src/m4.rs"
        ],
        "{}",
        run.stdout
    );
    // 6 files of 12 one-line gaps: 72 items, 10 written.
    assert!(
        run.stdout
            .contains("::notice title=covgate::62 more annotation(s)"),
        "{}",
        run.stdout
    );
    let warnings = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("::warning"))
        .count();
    assert_eq!(warnings, 10, "{}", run.stdout);
    // The --no-walk caveat comes first, within the limit of 10.
    let first = run.stdout.lines().find(|l| l.starts_with("::warning"));
    assert!(
        first.is_some_and(|l| l.starts_with("::warning title=covgate%3A --no-walk::--no-walk: ")),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("more warning(s) not annotated"),
        "{}",
        run.stdout
    );
}

#[test]
fn per_file_annotations_are_bounded() {
    let sandbox = Sandbox::new();
    sandbox.policy("[measure]\ninclude = [\"src/**\"]\nmetrics = [\"lines\"]\n");
    let lines: String = (1..=30).map(|i| format!("DA:{},{}\n", i * 2, 0)).collect();
    let report = sandbox
        .write(
            "gappy.info",
            &format!("SF:src/gappy.rs\n{lines}end_of_record\n"),
        )
        .display()
        .to_string();
    let run = sandbox.run(&["check", &report, "--no-walk", "--format", "github"]);
    assert_eq!(
        run.stdout
            .lines()
            .filter(|l| l.starts_with("::error"))
            .count(),
        10
    );
    assert!(
        run.stdout.contains("::notice title=covgate::20 more"),
        "{}",
        run.stdout
    );
}

#[test]
fn json_of_every_fixture_validates_against_the_published_schema() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/schema/check-output.schema.json"
        ))
        .expect("schema file"),
    )
    .expect("schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
    let sandbox = Sandbox::new();
    sandbox.policy("[measure]\ninclude = [\"**\"]\n[[exclude]]\npath = \"**/main.rs\"\nreason = \"entry point\"\nwhen = \"cfg(unix)\"\n");
    let mut validated = 0;
    for entry in walkdir::WalkDir::new(fixture("")) {
        let entry = entry.expect("walk");
        let name = entry.path().display().to_string();
        if ![".json", ".info", ".lcov", ".dat"]
            .iter()
            .any(|e| name.ends_with(e))
        {
            continue;
        }
        let run = sandbox.run(&[
            "check",
            &name,
            "--root",
            "/",
            "--no-walk",
            "--format",
            "json",
        ]);
        if run.code == 2 {
            continue;
        }
        let doc = run.json();
        let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        assert_eq!(doc["schema_version"], 2);
        validated += 1;
    }
    assert!(validated > 40, "validated {validated}");
}

/// Case 09's crate (one file never compiled: the check fails) with a policy of regions,
/// functions and lines, its export's path and the `--remap-path-prefix` that places it.
fn partial_crate() -> (Sandbox, String, String) {
    let sandbox = Sandbox::copy_of("cases/09-never-compiled-file-missing/crate");
    sandbox.policy("[measure]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n");
    let report = fixture("cases/09-never-compiled-file-missing/input.json")
        .display()
        .to_string();
    let remap = format!("/ws/partial={}", sandbox.path().display());
    (sandbox, report, remap)
}

#[test]
fn one_run_writes_every_output() {
    let (sandbox, report, remap) = partial_crate();
    let summary = sandbox.path().join("summary.md");
    std::fs::write(&summary, "earlier step\n").expect("summary");
    let run = sandbox.run(&[
        "check",
        &report,
        "--remap-path-prefix",
        &remap,
        "--format",
        "github",
        "--output-json",
        "out.json",
        "--output-markdown",
        "out.md",
        "--summary-file",
        "summary.md",
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("::notice title=covgate facts::covgate "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("\n::error file=src/extra.rs,title=covgate%3A unmeasured::"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("covgate: FAIL"),
        "the table follows the annotations"
    );
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(sandbox.path().join("out.json")).expect("json"),
    )
    .expect("JSON");
    assert_eq!(json["verdict"], "fail");
    let md = std::fs::read_to_string(sandbox.path().join("out.md")).expect("md");
    assert!(md.starts_with("### covgate: ❌ fail"), "{md}");
    let appended = std::fs::read_to_string(&summary).expect("summary");
    assert_eq!(appended, format!("earlier step\n{md}"));

    // $GITHUB_STEP_SUMMARY is the default summary file.
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_covgate"));
    let env_summary = sandbox.path().join("env-summary.md");
    let out = cmd
        .args([
            "check",
            &report,
            "--remap-path-prefix",
            &remap,
            "--format",
            "github",
        ])
        .current_dir(sandbox.path())
        .env("GITHUB_STEP_SUMMARY", &env_summary)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(&env_summary).expect("env summary"),
        md
    );

    for (flag, target) in [
        ("--output-json", "src"),
        ("--output-markdown", "src"),
        ("--summary-file", "src"),
    ] {
        let args = [
            "check",
            &report,
            "--remap-path-prefix",
            &remap,
            "--format",
            "github",
            flag,
            target,
        ];
        let run = sandbox.run(&args);
        assert_eq!(run.code, 2, "{flag}: {}", run.stdout);
        assert!(run.stderr.contains("src: cannot"), "{flag}: {}", run.stderr);
    }
}

#[test]
fn markdown_of_a_passing_check_with_exclusions_and_conditions() {
    let sandbox = Sandbox::copy_of("cases/09-never-compiled-file-missing/crate");
    sandbox.policy(
        "[measure]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n\
         [[exclude]]\npath = \"src/orphan.rs\"\nreason = \"not in the module tree\"\n\
         [[exclude]]\npath = \"src/sys/windows.rs\"\nreason = \"Windows only\"\nwhen = \"cfg(not(windows))\"\n\
         [[exclude]]\npath = \"src/extra.rs\"\nreason = \"feature extra\"\nwhen = \"cfg(not(feature = \\\"extra\\\"))\"\n\
         [[exclude]]\npath = \"src/lib.rs\"\nreason = \"measured on the Windows leg only\"\nwhen = \"cfg(windows)\"\n",
    );
    let report = fixture("cases/09-never-compiled-file-missing/input.json")
        .display()
        .to_string();
    let remap = format!("/ws/partial={}", sandbox.path().display());
    let run = sandbox.run(&[
        "check",
        &report,
        "--remap-path-prefix",
        &remap,
        "--format",
        "markdown",
        "--target",
        TARGET,
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let md = run.stdout;
    assert!(md.starts_with("### covgate: ✅ pass\n"), "{md}");
    assert!(
        !md.contains("| File |"),
        "no table when nothing fails: {md}"
    );
    assert!(md.contains("**Excluded** (3):\n\n- src/extra.rs: feature extra\n- src/orphan.rs: not in the module tree\n- src/sys/windows.rs: Windows only\n"), "{md}");
    assert!(
        md.contains("**Conditional exclusions** on this leg:\n\n- src/sys/windows.rs — active: "),
        "{md}"
    );
    assert!(md.contains("**No code** (1)"), "{md}");
    assert!(md.contains("- src/lib.rs — inactive: "), "{md}");
    assert!(!md.contains("Cut to fit"), "{md}");
}

/// The Output section's promise: every format begins with the version, the policy and the
/// root, the target and its cfg values (the target's counted, `--cfg` and `--features` listed),
/// the `when-missing` programs and the reports.
#[test]
fn every_format_begins_with_the_promised_facts() {
    let sandbox = Sandbox::new();
    sandbox.policy(
        "[measure]\ninclude = [\"src/**\"]\nmetrics = [\"lines\"]\n\
         [[exclude]]\npath = \"src/b.rs\"\nreason = \"needs the tool\"\nwhen-missing = [\"covgate-no-such-tool\"]\n",
    );
    sandbox.write(
        "t.info",
        "SF:src/a.rs\nDA:1,1\nend_of_record\nSF:src/b.rs\nDA:1,0\nend_of_record\n",
    );
    let policy = sandbox.path().join("coverage-policy.toml");
    let facts = [
        format!("covgate {}", env!("CARGO_PKG_VERSION")),
        format!("policy {}", policy.display()),
        format!("root {}", sandbox.path().display()),
        "target x86_64-unknown-linux-gnu (--target)".to_string(),
        "cfg: the target's 15 values + ci, feature=\"extra\"".to_string(),
        "programs on PATH: covgate-no-such-tool not found".to_string(),
        "reports: t.info (LCOV)".to_string(),
    ];
    for format in ["table", "markdown", "github"] {
        let run = sandbox.run(&[
            "check",
            "t.info",
            "--no-walk",
            "--format",
            format,
            "--target",
            TARGET,
            "--cfg",
            "ci",
            "--features",
            "extra",
        ]);
        assert_eq!(run.code, 0, "{format}: {}{}", run.stdout, run.stderr);
        let head: String = match format {
            "table" => run.stdout.lines().take(4).collect::<Vec<_>>().join("\n"),
            "markdown" => run.stdout.lines().nth(2).expect("facts").replace('\\', ""),
            _ => run.stdout.lines().next().expect("notice").to_string(),
        };
        for fact in &facts {
            assert!(head.contains(fact.as_str()), "{format}: {fact} in {head}");
        }
    }
}

/// A note is a sub-item of its metric in the Markdown details, never one of the items; a metric
/// with a note and no item says `none named`.
#[test]
fn markdown_notes_are_sub_items() {
    let summary_only = output(
        "llvm/tricky_stable_summary_only.json",
        NO_BRANCHES,
        "markdown",
    );
    assert!(
        summary_only.contains(
            "- regions: none named\n  - note: the export holds no function detail (-summary-only): a full export names the items\n"
        ),
        "{summary_only}"
    );
    let partly = output("llvm/tricky_stable.json", NO_BRANCHES, "markdown");
    assert!(
        partly.contains("- lines: 11, 20, 24-26\n  - note: 5 of the 6 missed are named: "),
        "{partly}"
    );
}

/// An LCOV function without an `FN` record has no line: the Markdown names it without a link.
#[test]
fn markdown_names_a_function_without_a_line() {
    let sandbox = Sandbox::new();
    sandbox.policy("[measure]\ninclude = [\"**\"]\nmetrics = [\"functions\"]\n");
    sandbox.write(
        "t.info",
        "SF:/ws/a.c\nFN:5,h\nFNDA:0,h\nFNDA:0,orphan\nDA:5,0\nend_of_record\n",
    );
    let run = sandbox.run(&[
        "check",
        "t.info",
        "--root",
        "/ws",
        "--no-walk",
        "--format",
        "markdown",
        "--link-base",
        "https://example.com/o/r/blob/abc",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(
            "- functions: [orphan](https://example.com/o/r/blob/abc/a.c), [h (line 5)](https://example.com/o/r/blob/abc/a.c#L5)\n"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn unavailable_metrics_in_markdown_and_annotations() {
    let sandbox = Sandbox::new();
    sandbox.policy("[measure]\ninclude = [\"src/**\"]\nmetrics = [\"regions\", \"lines\"]\n");
    let report = sandbox
        .write("t.info", "SF:src/a.rs\nDA:1,1\nend_of_record\n")
        .display()
        .to_string();
    let run = sandbox.run(&["check", &report, "--no-walk", "--format", "markdown"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout.contains("| src/a.rs | fail | **n/a** | 1/1 |"),
        "{}",
        run.stdout
    );
    let run = sandbox.run(&["check", &report, "--no-walk", "--format", "github"]);
    assert!(
        run.stdout.contains(
            "\n::error file=src/a.rs,title=covgate%3A below the bar::regions unavailable\n"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn details_are_cut_before_rows() {
    let sandbox = Sandbox::new();
    sandbox.policy("[measure]\ninclude = [\"src/**\"]\nmetrics = [\"lines\"]\n");
    let gaps: String = (1..=30)
        .map(|i| format!("DA:{},0\nDA:{},1\n", i * 3, i * 3 + 1))
        .collect();
    let text: String = (0..300)
        .map(|i| format!("SF:src/file_{i:03}.rs\n{gaps}end_of_record\n"))
        .collect();
    let report = sandbox.write("many.info", &text).display().to_string();
    let run = sandbox.run(&["check", &report, "--no-walk", "--format", "markdown"]);
    let md = run.stdout;
    assert!(md.chars().count() < 65_536);
    assert_eq!(
        md.lines().filter(|l| l.starts_with("| src/")).count(),
        300,
        "every row kept"
    );
    let kept = md.matches("<details>").count();
    assert!(kept > 0 && kept < 300, "{kept} details kept");
    assert!(
        md.contains(&format!(
            "{} file detail block(s) and 0 table row(s) left out",
            300 - kept
        )),
        "{md}"
    );
}

#[test]
fn a_summary_file_without_the_github_format_and_zero_items_are_usage_errors() {
    let sandbox = Sandbox::new();
    sandbox.policy(LCOV);
    sandbox.write("t.info", "SF:/ci/a.c\nDA:1,0\nend_of_record\n");
    let base = ["check", "t.info", "--root", "/ci", "--no-walk"];
    let run = sandbox.run(&[&base[..], &["--summary-file", "s.md"]].concat());
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr
            .starts_with("covgate: error: --summary-file needs --format github"),
        "{}",
        run.stderr
    );
    assert!(!sandbox.path().join("s.md").exists());
    let run = sandbox.run(&[&base[..], &["--items", "0"]].concat());
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stderr.contains("--items"), "{}", run.stderr);
    // With one item allowed, the table shows one and counts the rest.
    sandbox.write("t.info", "SF:/ci/a.c\nDA:1,0\nDA:3,0\nend_of_record\n");
    let run = sandbox.run(&[&base[..], &["--items", "1"]].concat());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout.contains("    lines: 1 … and 1 more\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn markdown_and_json_say_why_a_file_is_unmeasured_and_what_to_do_about_an_unavailable_metric() {
    let root = env!("CARGO_MANIFEST_DIR");
    let run = |format: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_covgate"))
            .args([
                "check",
                "demo/coverage.info",
                "--policy",
                "demo/coverage-policy.toml",
            ])
            .args(["--remap-path-prefix", "/ws/tiny=demo", "--format", format])
            .current_dir(root)
            .output()
            .expect("run covgate");
        assert_eq!(out.status.code(), Some(1), "{format}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let md = run("markdown");
    assert!(
        md.contains("\n**Notes**:\n\n- src/orphan.rs is unmeasured: in no report, but has code\n- regions unavailable: regions are not in LCOV tracefiles"),
        "{md}"
    );
    // src/covered.rs fails on regions alone, which LCOV cannot show: no empty details block.
    assert!(!md.contains("src/covered.rs — uncovered"), "{md}");
    assert!(
        md.contains("<summary>src/lib.rs — uncovered</summary>"),
        "{md}"
    );
    let doc: serde_json::Value = serde_json::from_str(&run("json")).expect("JSON");
    assert_eq!(doc["summary"]["notes"][0]["metric"], "regions");
    assert!(doc["summary"]["notes"][0]["note"]
        .as_str()
        .is_some_and(|n| n.starts_with("regions are not in LCOV tracefiles")));
}

/// The table at a terminal width of `columns`: paths shortened in the middle, long exclusion
/// reasons wrapped, every line within the width (the table part is snapshotted; the facts above
/// it hold the sandbox's path, which differs from machine to machine).
fn table_at(columns: &str) -> (String, String) {
    let sandbox = Sandbox::new();
    let long = "src/generated/protocol/very/deeply/nested/module/with/a/long/name/messages.rs";
    sandbox.policy(&format!(
        "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"lines\", \"functions\"]\n\n\
         [[exclude]]\npath = \"src/platform/windows_console_and_terminal_handling.rs\"\n\
         reason = \"Windows-only console handling; measured on the Windows leg of the CI matrix, \
         where the code is compiled and the terminal tests run against a real console host\"\n\n\
         [[exclude]]\npath = \"{long}\"\nreason = \"generated by build.rs from the protocol schema\"\n"
    ));
    sandbox.write(
        "src/platform/windows_console_and_terminal_handling.rs",
        "fn w() {}\n",
    );
    sandbox.write(long, "fn g() {}\n");
    sandbox.write("src/lib.rs", "fn f() {}\n");
    sandbox.write(
        "src/a_rather_long_file_name_for_a_small_module.rs",
        "fn h() {}\n",
    );
    sandbox.write(
        "t.info",
        "SF:src/lib.rs\nFN:1,f\nFNDA:1,f\nDA:1,1\nend_of_record\n\
         SF:src/a_rather_long_file_name_for_a_small_module.rs\nFN:1,h\nFNDA:0,h\nDA:1,0\nend_of_record\n",
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_covgate"))
        .args(["check", "t.info", "--show", "all"])
        .current_dir(sandbox.path())
        .env("NO_COLOR", "1")
        .env("COLUMNS", columns)
        .output()
        .expect("run covgate");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    let table: String = stdout
        .lines()
        .skip_while(|l| !l.starts_with('┌'))
        .take_while(|l| !l.starts_with("src/a_rather"))
        .map(|l| format!("{l}\n"))
        .collect();
    (stdout, table)
}

#[test]
fn the_table_fits_the_terminal_width() {
    for columns in ["60", "100", "160"] {
        let (stdout, table) = table_at(columns);
        let width: usize = columns.parse().unwrap();
        for line in stdout.lines() {
            let fits = line.chars().count() <= width || !line.trim().contains(' ');
            assert!(fits, "wider than {width}: {line}\n{stdout}");
        }
        insta::assert_snapshot!(format!("table-width-{columns}"), table);
    }
}

/// A report warning (here a tracefile cut before its final `end_of_record`) is a `::warning`
/// annotation in `--format github`, so a truncated report shows on the run's summary.
#[test]
fn github_format_annotates_report_warnings() {
    let sandbox = Sandbox::new();
    sandbox.policy("[measure]\nmetrics = [\"lines\"]\n");
    sandbox.write("src/lib.rs", "pub fn f() {}\n");
    // A whole section, then a second one cut short (its records dropped: the file is
    // unmeasured, whatever the first measures).
    sandbox.write(
        "t.info",
        "SF:src/lib.rs\nDA:1,1\nend_of_record\nSF:src/lib.rs\nDA:1,1\n",
    );
    let run = sandbox.run(&[
        "check",
        "t.info",
        "--format",
        "github",
        "--summary-file",
        "s.md",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.lines().any(|l| l.starts_with(
            "::warning title=covgate%3A report warning::t.info:5: missing final `end_of_record` for `src/lib.rs`: its section is ignored"
        )),
        "{}",
        run.stdout
    );
}

/// `--output-json /dev/stdout` (or any name of the process's own stdout or stderr) with the
/// stream redirected to a file: the output is written into the stream, before the table, and
/// the file is not replaced (which lost the table) nor written over from its start.
#[cfg(unix)]
#[test]
fn outputs_named_as_the_standard_streams_are_written_into_them() {
    let (sandbox, report, remap) = partial_crate();
    let run = |outputs: &[&str]| {
        let (out, err) = (
            sandbox.path().join("out.log"),
            sandbox.path().join("err.log"),
        );
        // `>>`: what the file held before the run is kept too.
        std::fs::write(&out, "before\n").expect("out");
        let open = |path: &std::path::Path| {
            std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)
                .expect("open")
        };
        std::fs::write(&err, "").expect("err");
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_covgate"))
            .args(["check", &report, "--remap-path-prefix", &remap])
            .args(outputs)
            .current_dir(sandbox.path())
            .stdout(open(&out))
            .stderr(open(&err))
            .status()
            .expect("run");
        assert_eq!(status.code(), Some(1));
        let read = |path| std::fs::read_to_string(path).expect("read");
        (read(&out), read(&err))
    };
    let (out, _) = run(&["--output-json", "/dev/stdout"]);
    let json_end = out.find("\n}\n").expect("the JSON document ends") + 3;
    let json: serde_json::Value =
        serde_json::from_str(&out["before\n".len()..json_end]).expect("JSON first");
    assert_eq!(json["verdict"], "fail");
    assert!(out.starts_with("before\n{"), "{out}");
    assert!(
        out[json_end..].contains("covgate: FAIL"),
        "then the table: {out}"
    );

    let (out, err) = run(&[
        "--output-markdown",
        "/proc/self/fd/2",
        "--output-json",
        "/dev/fd/1",
    ]);
    assert!(err.starts_with("### covgate: ❌ fail"), "{err}");
    assert!(out.starts_with("before\n{"), "{out}");
    assert!(out.contains("covgate: FAIL"), "{out}");
    let (_, err) = run(&["--output-json", "/dev/stderr"]);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&err).expect("JSON")["verdict"],
        "fail"
    );
}

/// GitHub resolves an annotation's `file=` against the repository (`$GITHUB_WORKSPACE`): with
/// the policy in a subfolder, each file is named with the root's path below the repository
/// (`demo/src/lib.rs`, not the repository's own `src/lib.rs`); `--annotation-prefix` overrides.
#[test]
fn github_annotations_name_files_from_the_repository_root() {
    let sb = Sandbox::new();
    sb.write("src/lib.rs", "// the repository's own crate\n");
    sb.write(
        "demo/coverage-policy.toml",
        "[measure]\ninclude = [\"src/**\"]\nmetrics = [\"lines\"]\n",
    );
    sb.write("demo/src/lib.rs", "pub fn f() {}\npub fn g() {}\n");
    sb.write("demo/src/gone.rs", "pub fn h() {}\n");
    sb.write(
        "demo/c.info",
        "SF:src/lib.rs\nDA:1,1\nDA:2,0\nend_of_record\n",
    );
    let run = |workspace: &std::path::Path, extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_covgate"))
            .args([
                "check",
                "demo/c.info",
                "--policy",
                "demo/coverage-policy.toml",
            ])
            .args(["--format", "github"])
            .args(extra)
            .current_dir(sb.path())
            .env("GITHUB_WORKSPACE", workspace)
            .env_remove("GITHUB_STEP_SUMMARY")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8(out.stdout).unwrap()
    };
    let annotations = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.starts_with("::error file="))
            .map(|l| l.split(',').next().unwrap().to_string())
            .collect()
    };
    let repo = run(sb.path(), &[]);
    assert_eq!(
        annotations(&repo),
        [
            "::error file=demo/src/gone.rs",
            "::error file=demo/src/lib.rs"
        ],
        "{repo}"
    );
    assert!(
        repo.contains("::error file=demo/src/lib.rs,line=2,endLine=2,title=covgate%3A uncovered line::line 2 not covered"),
        "{repo}"
    );
    let elsewhere = run(std::path::Path::new("/nowhere/repo"), &[]);
    assert_eq!(
        annotations(&elsewhere),
        ["::error file=src/gone.rs", "::error file=src/lib.rs"]
    );
    let explicit = run(sb.path(), &["--annotation-prefix", "./crates/demo/"]);
    assert_eq!(
        annotations(&explicit),
        [
            "::error file=crates/demo/src/gone.rs",
            "::error file=crates/demo/src/lib.rs"
        ]
    );
    let none = run(sb.path(), &["--annotation-prefix", ""]);
    assert_eq!(
        annotations(&none),
        ["::error file=src/gone.rs", "::error file=src/lib.rs"]
    );
}

/// `--link-repository` (what the action passes by default) links to the repository at the
/// commit and adds the root's path below it, as annotations do: with the policy in `demo/`, a
/// file's link goes to `demo/src/lib.rs`. `--link-base` is the root's own URL, taken as given.
#[test]
fn repository_links_reach_a_root_in_a_subfolder() {
    let sb = Sandbox::new();
    sb.write(
        "demo/coverage-policy.toml",
        "[measure]\ninclude = [\"src/**\"]\nmetrics = [\"lines\"]\n",
    );
    sb.write("demo/src/lib.rs", "pub fn f() {}\npub fn g() {}\n");
    sb.write(
        "demo/c.info",
        "SF:src/lib.rs\nDA:1,1\nDA:2,0\nend_of_record\n",
    );
    let run = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_covgate"))
            .args([
                "check",
                "demo/c.info",
                "--policy",
                "demo/coverage-policy.toml",
            ])
            .args(extra)
            .current_dir(sb.path())
            .env("GITHUB_WORKSPACE", sb.path())
            .env_remove("GITHUB_STEP_SUMMARY")
            .output()
            .unwrap();
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
        (out.status.code(), text(out.stdout), text(out.stderr))
    };
    let markdown = ["--format", "markdown"];
    let repo = "https://h/o/r/blob/s";
    let (code, out, _) = run(&[&markdown[..], &["--link-repository", repo]].concat());
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("| [src/lib.rs](https://h/o/r/blob/s/demo/src/lib.rs) | fail |"),
        "{out}"
    );
    assert!(
        out.contains("(https://h/o/r/blob/s/demo/src/lib.rs#L2)"),
        "{out}"
    );
    let (_, out, _) = run(&[&markdown[..], &["--link-base", repo]].concat());
    assert!(
        out.contains("(https://h/o/r/blob/s/src/lib.rs#L2)"),
        "{out}"
    );
    let (code, _, err) = run(&["--link-repository", repo]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("--link-repository links the Markdown result"),
        "{err}"
    );
    let (code, _, err) = run(&[&markdown[..], &["--link-repository", "nourl"]].concat());
    assert_eq!(code, Some(2));
    assert!(
        err.contains("--link-repository nourl: give an http"),
        "{err}"
    );
    let both = [
        &markdown[..],
        &["--link-repository", repo, "--link-base", repo],
    ]
    .concat();
    assert_eq!(run(&both).0, Some(2));
}

/// The Markdown (the pull-request comment, the step summary) names the report files that were
/// not judged, as the table does: a path that lands outside the root is what a reviewer needs to
/// see.
#[test]
fn markdown_names_the_files_outside_include() {
    let sandbox = Sandbox::new();
    sandbox.policy("[measure]\ninclude = [\"src/**\"]\nmetrics = [\"lines\"]\n");
    sandbox.write("src/a.rs", "pub fn a() {}\n");
    let report = sandbox
        .write(
            "r.info",
            "SF:src/a.rs\nDA:1,1\nend_of_record\nSF:/elsewhere/x_y.rs\nDA:1,0\nend_of_record\n",
        )
        .display()
        .to_string();
    let run = sandbox.run(&["check", &report, "--format", "markdown"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("\noutside include: /elsewhere/x\\_y.rs (outside the root)\n"),
        "{}",
        run.stdout
    );
    let table = sandbox.run(&["check", &report]);
    assert!(
        table
            .stdout
            .contains("outside include: /elsewhere/x_y.rs (outside the root)\n"),
        "{}",
        table.stdout
    );
}
