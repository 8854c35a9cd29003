//! The pipeline (`check.rs`), merging (`measure.rs`) and scoping (`scope.rs`) end to end through
//! the binary: several reports naming one file, stdin, bad command-line input, the manifest hint,
//! and the file-system cases of the walk (skipped folders, unreadable and unparsable files).

use crate::common;

use common::{fixture, metric, status, Sandbox};

/// `tests/fixtures/llvm/<name>` as a string argument.
fn llvm(name: &str) -> String {
    fixture(&format!("llvm/{name}")).display().to_string()
}

/// A sandbox whose policy puts every `.rs` file in scope.
fn all_rs() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.policy("[measure]\ninclude = [\"**/*.rs\"]\n");
    sandbox
}

fn assert_error(run: &common::Run, needle: &str) {
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(
        run.stderr.starts_with("covgate: error: ") && run.stderr.contains(needle),
        "expected `{needle}` in: {}",
        run.stderr
    );
}

// ---- measure.rs: merging several reports -------------------------------------------------

#[test]
fn two_full_exports_of_the_same_files_pool_their_functions() {
    // Both exports name /ci/samples/tricky/src/../shared/common.rs (and the rest). Only the
    // first records its manifest path, and a report's hint serves that report alone: without a
    // remapping the second export's files lie outside the root, and each of them is named.
    let sb = all_rs();
    let mut args = vec!["check", "--no-walk", "--format", "json", "--show", "all"];
    let (stable, raw) = (
        llvm("tricky_stable.json"),
        llvm("tricky_stable_raw_noignore.json"),
    );
    args.extend([raw.as_str(), stable.as_str()]);
    let run = sb.run(&args);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(doc["summary"]["measured"], 5);
    assert_eq!(doc["summary"]["outside_include"], 6);
    let dropped = doc["dropped"].as_array().expect("dropped");
    assert_eq!(dropped.len(), 6);
    assert_eq!(dropped[0]["report"], raw.as_str());
    assert_eq!(
        dropped[0]["path"],
        "/ci/samples/tricky/src/../shared/common.rs"
    );
    assert_eq!(dropped[0]["name"], "/ci/samples/tricky/shared/common.rs");
    assert_eq!(dropped[0]["why"], "outside the root");
    assert!(
        run.stderr.contains(&format!(
            "covgate: warning: {raw}: none of its 6 file(s) is in scope"
        )),
        "{}",
        run.stderr
    );
    // With the prefix remapped, both exports name the same files: pooling identical runs
    // changes nothing.
    let remap = format!("/ci/samples/tricky={}", sb.path().display());
    args.extend(["--remap-path-prefix", remap.as_str()]);
    let run = sb.run(&args);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "shared/common.rs", "regions"), "8/11 fail");
    assert_eq!(metric(&doc, "shared/common.rs", "functions"), "2/2 pass");
    assert_eq!(metric(&doc, "shared/common.rs", "lines"), "8/11 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "regions"), "113/133 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "15/16 fail");
    assert_eq!(metric(&doc, "src/main.rs", "lines"), "0/4 fail");
    // Stable exports carry no branch data: unavailable, not 0 of 0.
    assert_eq!(
        metric(&doc, "src/gen.rs", "branches"),
        "null/null unavailable"
    );
    // Only in the second export, so its own numbers.
    assert_eq!(
        metric(&doc, "tests/integration.rs", "regions"),
        "40/40 pass"
    );
    assert_eq!(doc["facts"]["reports"].as_array().map(Vec::len), Some(2));
}

#[test]
fn a_summary_only_export_merges_when_the_numbers_agree() {
    let sb = all_rs();
    let run = sb.run(&[
        "check",
        &llvm("tricky_stable_summary_only.json"),
        &llvm("tricky_stable.json"),
        "--no-walk",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/asyncs.rs", "regions"), "23/29 fail");
    assert_eq!(metric(&doc, "src/asyncs.rs", "functions"), "4/6 fail");
    assert_eq!(metric(&doc, "src/gen.rs", "lines"), "31/38 fail");
}

#[test]
fn a_summary_only_export_with_different_numbers_is_refused() {
    // The nightly export has branch counts; the stable summary-only one has none.
    let sb = all_rs();
    let summary_only = llvm("tricky_stable_summary_only.json");
    let nightly = llvm("tricky_nightly_branch.json");
    let run = sb.run(&["check", &summary_only, &nightly, "--no-walk"]);
    // The reports are named in path order, whatever their order on the command line.
    assert_error(
        &run,
        &format!(
            "shared/common.rs: named more than once ({nightly}, {summary_only}) with different numbers"
        ),
    );
    assert!(run.stderr.contains("give full exports"), "{}", run.stderr);
}

#[test]
fn lcov_and_json_for_one_file_are_refused() {
    let sb = all_rs();
    // The LCOV file records no manifest: its paths are remapped into the sandbox.
    let run = sb.run(&[
        "check",
        &llvm("tricky_stable.lcov"),
        &llvm("tricky_stable.json"),
        "--no-walk",
        "--remap-path-prefix",
        &format!("/ci/samples/tricky={}", sb.path().display()),
    ]);
    // The message names the reports, not only the source file they share.
    assert_error(
        &run,
        &format!(
            "shared/common.rs: named by both LCOV and llvm-cov JSON reports (LCOV: {}; JSON: {}); they count differently, so give this file in one format: the JSON exports only (merged exactly) or the tracefiles only",
            llvm("tricky_stable.lcov"),
            llvm("tricky_stable.json")
        ),
    );
}

// ---- check.rs: reading reports, options, the manifest hint --------------------------------

#[test]
fn stdin_is_read_for_dash_and_named_stdin() {
    let sb = Sandbox::new();
    sb.write(
        "conf/policy.toml",
        "[measure]\ninclude = [\"src/**/*.rs\"]\n",
    );
    let bytes = std::fs::read(llvm("tricky_stable.json")).expect("fixture");
    let run = common::covgate_with_stdin(
        sb.path(),
        &[
            "check",
            "-",
            "--policy",
            "conf/policy.toml",
            "--root",
            ".",
            "--remap-path-prefix",
            "/ci/samples/tricky=.",
            "--no-walk",
            "--format",
            "json",
        ],
        Some(&bytes),
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(doc["facts"]["reports"][0]["path"], "<stdin>");
    assert_eq!(doc["facts"]["reports"][0]["format"], "llvm-cov JSON 3.1.0");
    assert_eq!(metric(&doc, "src/lib.rs", "regions"), "113/133 fail");
    // shared/common.rs is not selected by the include.
    assert_eq!(doc["summary"]["outside_include"], 1);
}

#[test]
fn unreadable_stdin_is_an_error() {
    // As with `covgate check - < src` in a shell: stdin opens, but reading a folder fails.
    let sb = all_rs();
    let stdin = std::fs::File::open(sb.path()).expect("open the sandbox folder");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_covgate"))
        .args(["check", "-"])
        .current_dir(sb.path())
        .stdin(stdin)
        .output()
        .expect("run covgate");
    let run = common::Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert_error(&run, "<stdin>: cannot read the report: ");
}

#[test]
fn a_folder_given_as_report_is_an_error() {
    let sb = all_rs();
    sb.write("target/x.txt", "");
    let run = sb.run(&["check", "target"]);
    assert_error(&run, "target: is a folder, not a report; give the report file itself (an llvm-cov JSON export or an LCOV tracefile, e.g. target/coverage.json)");
}

/// An empty path argument (`covgate check ''`, which read the current folder and said `: is a
/// folder`) is refused by name, as clap refuses an empty `--policy`.
#[test]
fn an_empty_path_argument_is_a_usage_error_naming_it() {
    let sb = all_rs();
    for (args, name) in [
        (&["check", ""][..], "'<REPORT>...'"),
        (&["check", "t.json", ""][..], "'<REPORT>...'"),
        (&["check", "t.json", "--file", ""][..], "'--file <PATH>'"),
        (&["init", ""][..], "'[REPORT]...'"),
        (
            &[
                "roster",
                "--verify",
                "--suite-report",
                "",
                "--report",
                "t.json",
            ][..],
            "'--suite-report <SUITE_EXPORT>'",
        ),
        (
            &[
                "roster",
                "--verify",
                "--suite-report",
                "s.json",
                "--report",
                "",
            ][..],
            "'--report <MAIN_EXPORT>'",
        ),
    ] {
        let run = sb.run(args);
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
        assert!(
            run.stderr.starts_with(&format!(
                "error: invalid value '' for {name}: an empty path names no file; give the \
                 file's path"
            )),
            "{args:?}: {}",
            run.stderr
        );
    }
}

#[test]
fn a_missing_report_is_an_error() {
    let sb = all_rs();
    let run = sb.run(&["check", "missing.json"]);
    assert_error(&run, "missing.json: cannot read the report: ");
}

#[test]
fn a_remap_without_equals_is_an_error() {
    let sb = all_rs();
    let run = sb.run(&[
        "check",
        &llvm("tricky_stable.json"),
        "--remap-path-prefix",
        "/ci/samples/tricky",
    ]);
    assert_error(
        &run,
        "--remap-path-prefix `/ci/samples/tricky`: expected FROM=TO",
    );
}

#[test]
fn a_missing_policy_is_an_error() {
    let sb = Sandbox::new();
    let run = sb.run(&["check", &llvm("tricky_stable.json")]);
    assert_error(
        &run,
        &format!("no coverage-policy.toml in {}", sb.path().display()),
    );
    let run = sb.run(&[
        "check",
        &llvm("tricky_stable.json"),
        "--policy",
        "nope.toml",
    ]);
    assert_error(&run, "nope.toml: cannot read the policy: ");
}

#[test]
fn the_manifest_folder_maps_paths_only_without_a_root() {
    // No `root`: the export's manifest folder (/ci/samples/tricky) stands for the policy folder.
    let sb = Sandbox::new();
    sb.policy("[measure]\ninclude = [\"src/**/*.rs\", \"shared/*.rs\"]\n");
    let run = sb.run(&[
        "check",
        &llvm("tricky_stable.json"),
        "--no-walk",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "shared/common.rs"), "fail");
    assert_eq!(metric(&doc, "src/main.rs", "functions"), "0/1 fail");
    assert_eq!(doc["summary"]["measured"], 5);
    assert_eq!(doc["summary"]["outside_include"], 0);

    // With `root` in the policy the hint is off: nothing lies under the root.
    sb.policy("root = \".\"\n[measure]\ninclude = [\"src/**/*.rs\", \"shared/*.rs\"]\n");
    let run = sb.run(&["check", &llvm("tricky_stable.json"), "--no-walk"]);
    assert_error(
        &run,
        "no file in the report(s) is selected by `include` (src/**/*.rs, shared/*.rs) under the root",
    );
    assert!(
        run.stderr.contains(
            "the report names 5 file(s), e.g. /ci/samples/tricky/shared/common.rs, \
             /ci/samples/tricky/src/asyncs.rs, /ci/samples/tricky/src/gen.rs."
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("pass --root or --remap-path-prefix"),
        "{}",
        run.stderr
    );

    // A relative `TO` is relative to the current folder, which is the root here.
    let run = sb.run(&[
        "check",
        &llvm("tricky_stable.json"),
        "--no-walk",
        "--remap-path-prefix",
        "/ci/samples/tricky=.",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/gen.rs", "functions"), "9/11 fail");
}

/// An LCOV tracefile of `src/a.rs` with `total` lines, the first `covered` hit.
fn lcov_lines(covered: u64, total: u64) -> String {
    let mut text = String::from("SF:src/a.rs\n");
    for line in 1..=total {
        text.push_str(&format!("DA:{line},{}\n", u64::from(line <= covered)));
    }
    text + "end_of_record\n"
}

#[test]
fn a_fractional_threshold_is_met_exactly_at_the_bar() {
    // 161 of 250 lines is exactly 64.4%: a float comparison (64.4 * 250 = 16100.000000000002)
    // failed the file at its own bar.
    let sb = Sandbox::new();
    sb.policy("[measure]\ninclude = [\"src/*.rs\"]\nmetrics = [\"lines\"]\nthreshold = 64.4\n");
    sb.write("at.info", &lcov_lines(161, 250));
    sb.write("below.info", &lcov_lines(160, 250));
    let at = sb.run(&["check", "at.info", "--no-walk", "--format", "json"]);
    assert_eq!(at.code, 0, "{}{}", at.stdout, at.stderr);
    let doc = at.json();
    assert_eq!(metric(&doc, "src/a.rs", "lines"), "161/250 pass");
    assert_eq!(doc["facts"]["threshold"], 64.4);
    let below = sb.run(&["check", "below.info", "--no-walk", "--format", "json"]);
    assert_eq!(below.code, 1, "{}{}", below.stdout, below.stderr);
    assert_eq!(metric(&below.json(), "src/a.rs", "lines"), "160/250 fail");
    let text = sb.run(&["check", "at.info", "--no-walk"]);
    assert!(text.stdout.contains("· threshold 64.4%"), "{}", text.stdout);
    // Too many decimal places, or not a number: a clear error naming the key's place.
    sb.policy("[measure]\ninclude = [\"src/*.rs\"]\nthreshold = 64.44444\n");
    let bad = sb.run(&["check", "at.info", "--no-walk"]);
    assert_error(
        &bad,
        "coverage-policy.toml:3:13: threshold 64.44444 has more than 4 decimal places",
    );
    sb.policy("[measure]\ninclude = [\"src/*.rs\"]\nthreshold = nan\n");
    let bad = sb.run(&["check", "at.info", "--no-walk"]);
    assert_error(
        &bad,
        "coverage-policy.toml:3:13: threshold NaN is not a percent between 0 and 100",
    );
}

#[test]
fn a_stale_inline_marker_is_a_warning_and_changes_no_verdict() {
    // Line 2: a marker on a comment (no code); line 3: on a covered line; line 4: on an
    // uncovered line (live); lines 5-7: a range around covered code; line 8: a BR marker on a
    // line without branches.
    let sb = Sandbox::new();
    sb.policy("[measure]\ninclude = [\"src/*.rs\"]\nmetrics = [\"lines\"]\n");
    sb.write(
        "src/a.rs",
        "fn a() {}\n// LCOV_EXCL_LINE\nfn b() {} // LCOV_EXCL_LINE\nfn c() {} // LCOV_EXCL_LINE\n\
         // covgate:ignore-start -- generated\nfn d() {}\n// covgate:ignore-end\n\
         fn e() {} // LCOV_EXCL_BR_LINE\n",
    );
    sb.write(
        "t.info",
        "SF:src/a.rs\nDA:1,1\nDA:3,1\nDA:4,0\nDA:6,1\nDA:8,1\nend_of_record\n",
    );
    let run = sb.run(&["check", "t.info", "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let stale = |line: u32, family: &str, lines: &str| {
        format!(
            "src/a.rs:{line}: stale {family} marker: nothing uncovered on the lines it ignores \
             ({lines}): no code, or only covered code; remove it"
        )
    };
    let expected = [
        stale(2, "lcov", "2"),
        stale(3, "lcov", "3"),
        stale(5, "covgate", "5-7"),
        stale(8, "lcov", "8"),
    ];
    let warnings: Vec<String> = expected
        .iter()
        .map(|w| format!("covgate: warning: {w}\n"))
        .collect();
    assert_eq!(run.stderr, warnings.concat());
    let doc = run.json();
    assert_eq!(doc["facts"]["warnings"], serde_json::json!(expected));
    // The verdict is what it is with the markers: the live one took line 4 out (the stale
    // ones took covered lines 3 and 6 out, which changes no verdict).
    assert_eq!(metric(&doc, "src/a.rs", "lines"), "2/2 pass");
}

// ---- scope.rs: the walk and the classes of files on disk ---------------------------------

/// Runs the tricky stable export in `sb`, its paths mapped onto the sandbox, walking the root.
fn walk_run(sb: &Sandbox, extra: &[&str]) -> common::Run {
    let remap = format!("/ci/samples/tricky={}", sb.path().display());
    let report = llvm("tricky_stable.json");
    let mut args = vec![
        "check",
        report.as_str(),
        "--remap-path-prefix",
        &remap,
        "--format",
        "json",
        "--show",
        "all",
    ];
    args.extend_from_slice(extra);
    sb.run(&args)
}

#[test]
fn files_on_disk_get_their_class_and_build_folders_are_skipped() {
    let sb = Sandbox::new();
    sb.policy(
        "[measure]\ninclude = [\"src/**\", \"**/skipme.rs\"]\n\
         [[exclude]]\npath = \"src/main.rs\"\nreason = \"entry point\"\n",
    );
    sb.write("src/lib.rs", "pub fn f() {}\n");
    sb.write("src/types.rs", "pub struct S;\n");
    sb.write("src/code.rs", "pub fn g() {}\n");
    sb.write("src/broken.rs", "fn f( {\n");
    sb.write("src/notes.txt", "not rust\n");
    std::fs::write(sb.path().join("src/latin1.rs"), b"// caf\xe9\n").expect("write");
    // Skipped: hidden folders, `target/` at the root, folders with a CACHEDIR.TAG.
    sb.write(".hidden/skipme.rs", "fn h() {}\n");
    sb.write("target/skipme.rs", "fn h() {}\n");
    sb.write(
        "build/CACHEDIR.TAG",
        "Signature: 8a477f597d28d172789f06886806bc55\n",
    );
    sb.write("build/skipme.rs", "fn h() {}\n");
    // Not skipped: `target` below the root's top level, a plain folder at the top.
    sb.write("nested/target/skipme.rs", "fn h() {}\n");
    sb.write("plain/skipme.rs", "fn h() {}\n");
    let run = walk_run(&sb, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    let paths: Vec<&str> = doc["files"]
        .as_array()
        .expect("files")
        .iter()
        .filter_map(|f| f["path"].as_str())
        .collect();
    let mut sorted = paths.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        [
            "nested/target/skipme.rs",
            "plain/skipme.rs",
            "src/asyncs.rs",
            "src/broken.rs",
            "src/code.rs",
            "src/gen.rs",
            "src/latin1.rs",
            "src/lib.rs",
            "src/main.rs",
            "src/notes.txt",
            "src/types.rs",
        ]
    );
    assert_eq!(status(&doc, "src/lib.rs"), "fail");
    assert_eq!(status(&doc, "src/main.rs"), "excluded");
    assert_eq!(status(&doc, "src/types.rs"), "no-code");
    let reason = |path: &str| {
        common::file(&doc, path)["reason"]
            .as_str()
            .unwrap_or("?")
            .to_string()
    };
    assert_eq!(reason("src/code.rs"), "in no report, but has code");
    assert_eq!(
        reason("src/notes.txt"),
        "in no report (covgate tells whether a file has code only for Rust, C and C++ sources)"
    );
    assert!(
        reason("src/broken.rs").starts_with("in no report, and does not parse (line 1:"),
        "{}",
        reason("src/broken.rs")
    );
    assert!(
        reason("src/latin1.rs").starts_with("in no report, and cannot be read ("),
        "{}",
        reason("src/latin1.rs")
    );
    assert_eq!(status(&doc, "plain/skipme.rs"), "unmeasured");
    assert_eq!(doc["summary"]["unmeasured"], 6);
    assert_eq!(doc["summary"]["no_code"], 1);
    assert_eq!(doc["summary"]["excluded"], 1);
    assert_eq!(doc["summary"]["outside_include"], 1);
}

#[test]
fn an_include_that_only_report_files_match_is_live() {
    // No source on disk: a glob is dead only when it matches nothing on disk and nothing in the
    // reports, so the report's files are judged, with the walk as without it.
    let sb = Sandbox::new();
    sb.policy("[measure]\ninclude = [\"src/**/*.rs\"]\n");
    let run = walk_run(&sb, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(doc["facts"]["walked"], true);
    assert_eq!(metric(&doc, "src/gen.rs", "lines"), "31/38 fail");
    assert_eq!(doc["summary"]["unmeasured"], 0);
    let run = walk_run(&sb, &["--no-walk"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.json()["facts"]["walked"], false);
    assert_eq!(metric(&run.json(), "src/gen.rs", "lines"), "31/38 fail");
}

#[test]
fn a_stale_exclude_is_an_error() {
    let sb = Sandbox::new();
    sb.policy(
        "[measure]\ninclude = [\"src/**/*.rs\"]\n\
         [[exclude]]\npath = \"src/gone.rs\"\nreason = \"was removed\"\n",
    );
    sb.write("src/lib.rs", "pub fn f() {}\n");
    let run = walk_run(&sb, &[]);
    assert_error(
        &run,
        "stale [[exclude]] entries match no in-scope file; remove them or fix their globs:\n  ",
    );
    assert!(
        run.stderr
            .contains("coverage-policy.toml:4:8: `src/gone.rs` (was removed)"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_root_that_is_not_a_folder_is_an_error() {
    let sb = all_rs();
    sb.write("file.txt", "");
    let remap = format!(
        "/ci/samples/tricky={}",
        sb.path().join("file.txt").display()
    );
    let run = sb.run(&[
        "check",
        &llvm("tricky_stable.json"),
        "--root",
        "file.txt",
        "--remap-path-prefix",
        &remap,
    ]);
    assert_error(
        &run,
        "file.txt is not a folder; fix `root` in the policy or --root",
    );
}

#[test]
fn a_folder_that_cannot_be_walked_is_an_error() {
    // A folder nested deeper than PATH_MAX cannot be opened by its full path, even by root.
    // Built bottom-up by renames, so that no call needs the long path.
    let sb = all_rs();
    let long = "d".repeat(200);
    let mut chain = sb.path().join("chain0");
    std::fs::create_dir(&chain).expect("mkdir");
    for i in 1..25 {
        let next = sb.path().join(format!("chain{i}"));
        std::fs::create_dir(&next).expect("mkdir");
        std::fs::rename(&chain, next.join(&long)).expect("rename");
        chain = next;
    }
    let run = walk_run(&sb, &[]);
    assert_error(&run, &format!("walking {}: ", sb.path().display()));
}

/// Asserts exit code 2, no stdout, and exactly `message` as the error on stderr.
fn assert_exact_error(run: &common::Run, message: &str) {
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert_eq!(run.stderr, format!("covgate: error: {message}\n"));
}

#[test]
fn a_root_that_is_missing_or_a_file_is_named_before_the_report_is_judged_irrelevant() {
    // No remap: the report's paths match nothing under either root. The root is the real
    // problem, so it is named, not the report.
    let sb = all_rs();
    sb.write("Cargo.toml", "[package]\n");
    let report = llvm("tricky_stable.json");
    let run = sb.run(&["check", &report, "--root", "/nonexistent/x"]);
    assert_exact_error(
        &run,
        "the root /nonexistent/x is not a folder; fix `root` in the policy or --root",
    );
    let run = sb.run(&["check", &report, "--root", "Cargo.toml"]);
    assert_exact_error(
        &run,
        &format!(
            "the root {} is not a folder; fix `root` in the policy or --root",
            sb.path().join("Cargo.toml").display()
        ),
    );
    // The policy's `root` is checked the same way.
    sb.policy("root = \"nope\"\n[measure]\ninclude = [\"**/*.rs\"]\n");
    let run = sb.run(&["check", &report]);
    assert_exact_error(
        &run,
        &format!(
            "the root {} is not a folder; fix `root` in the policy or --root",
            sb.path().join("nope").display()
        ),
    );
    // Without the walk the root is never read, so the report is what does not fit.
    let run = sb.run(&["check", &report, "--root", "/nonexistent/x", "--no-walk"]);
    assert_error(
        &run,
        "no file in the report(s) is selected by `include` (**/*.rs) under the root /nonexistent/x;",
    );
}

#[test]
fn a_file_that_two_excludes_match_makes_neither_stale() {
    let sb = Sandbox::new();
    sb.policy(
        "[measure]\ninclude = [\"src/**/*.rs\"]\n\
         [[exclude]]\npath = \"src/main.rs\"\nreason = \"entry point\"\n\
         [[exclude]]\npath = \"src/m*.rs\"\nreason = \"binaries\"\n",
    );
    sb.write("src/lib.rs", "pub fn f() {}\n");
    let run = walk_run(&sb, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    // The first matching entry gives the reason.
    assert_eq!(status(&doc, "src/main.rs"), "excluded");
    assert_eq!(common::file(&doc, "src/main.rs")["reason"], "entry point");
    assert_eq!(doc["summary"]["excluded"], 1);

    // A real stale entry among them is still reported, alone, with its place.
    sb.policy(
        "[measure]\ninclude = [\"src/**/*.rs\"]\n\
         [[exclude]]\npath = \"src/main.rs\"\nreason = \"entry point\"\n\
         [[exclude]]\npath = \"src/m*.rs\"\nreason = \"binaries\"\n\
         [[exclude]]\npath = \"src/gone.rs\"\nreason = \"was removed\"\n",
    );
    let run = walk_run(&sb, &[]);
    let policy = sb.path().join("coverage-policy.toml").display().to_string();
    assert_exact_error(
        &run,
        &format!(
            "stale [[exclude]] entries match no in-scope file; remove them or fix their globs:\n  \
             {policy}:10:8: `src/gone.rs` (was removed)"
        ),
    );
}

/// An `[[exclude]]` that names a symbolic link is stale (covgate names a linked file by its
/// target): the error says which file the link names.
#[cfg(unix)]
#[test]
fn a_stale_exclude_of_a_link_names_its_target() {
    let sb = Sandbox::new();
    sb.policy(
        "[measure]\ninclude = [\"src/**/*.rs\"]\n[[exclude]]\npath = \"src/gen.rs\"\nreason = \"generated\"\n",
    );
    sb.write("src/lib.rs", "pub fn f() {}\n");
    sb.write("src/real.rs", "pub fn g() {}\n");
    std::os::unix::fs::symlink("real.rs", sb.path().join("src/gen.rs")).expect("symlink");
    let run = walk_run(&sb, &[]);
    let policy = sb.path().join("coverage-policy.toml").display().to_string();
    assert_exact_error(
        &run,
        &format!(
            "stale [[exclude]] entries match no in-scope file; remove them or fix their globs:\n  \
             {policy}:4:8: `src/gen.rs` (generated) (it is a link to `src/real.rs`: covgate names \
             a linked file by its target; exclude that path)"
        ),
    );
}

#[test]
fn an_include_glob_that_matches_no_file_is_an_error_when_walking() {
    // `shared/*.rs` matches only a reported file, `extra/*.rs` only a file on disk: both live.
    // `tests/**/*.rs` matches neither.
    let sb = Sandbox::new();
    sb.policy(
        "[measure]\n\
         include = [\"src/**/*.rs\", \"tests/**/*.rs\", \"shared/*.rs\", \"extra/*.rs\"]\n",
    );
    sb.write("src/lib.rs", "pub fn f() {}\n");
    sb.write("extra/x.rs", "pub struct X;\n");
    let policy = sb.path().join("coverage-policy.toml").display().to_string();
    let run = walk_run(&sb, &[]);
    assert_exact_error(
        &run,
        &format!(
            "dead `include` globs match no file, on disk or in the report(s); fix or remove them:\n  \
             {policy}:2:27: `tests/**/*.rs`"
        ),
    );
    // Without the walk the sources are not at hand: includes are not checked.
    let run = walk_run(&sb, &["--no-walk"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(status(&run.json(), "shared/common.rs"), "fail");

    // Dead includes and stale excludes are reported together.
    sb.policy(
        "[measure]\n\
         include = [\"src/**/*.rs\", \"tests/**/*.rs\", \"benches/*.rs\"]\n\
         [[exclude]]\npath = \"src/gone.rs\"\nreason = \"was removed\"\n",
    );
    let run = walk_run(&sb, &[]);
    assert_exact_error(
        &run,
        &format!(
            "dead `include` globs match no file, on disk or in the report(s); fix or remove them:\n  \
             {policy}:2:27: `tests/**/*.rs`\n  \
             {policy}:2:44: `benches/*.rs`\n\
             stale [[exclude]] entries match no in-scope file; remove them or fix their globs:\n  \
             {policy}:4:8: `src/gone.rs` (was removed)"
        ),
    );

    // A glob that names a hidden folder selects nothing the walk finds: the error says why.
    sb.write(".ci/gen.rs", "pub fn g() {}\n");
    sb.policy("[measure]\ninclude = [\"src/**/*.rs\", \".ci/*.rs\"]\n");
    let run = walk_run(&sb, &[]);
    assert_exact_error(
        &run,
        &format!(
            "dead `include` globs match no file, on disk or in the report(s); fix or remove them:\n  \
             {policy}:2:27: `.ci/*.rs` (it names a hidden folder, which the walk skips: its files \
             are measured only when a report names them)"
        ),
    );

    // With every glob live the check gives its verdict.
    sb.policy("[measure]\ninclude = [\"src/**/*.rs\", \"shared/*.rs\", \"extra/*.rs\"]\n");
    let run = walk_run(&sb, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "extra/x.rs"), "no-code");
    assert_eq!(status(&doc, "shared/common.rs"), "fail");
}

#[test]
fn stdin_given_twice_is_a_usage_error() {
    let sandbox = common::Sandbox::new();
    sandbox.policy("");
    let run = sandbox.run(&["check", "-", "-"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stderr,
        "covgate: error: `-` (standard input) is given more than once; stdin can be read only once\n"
    );
}

/// Files that no report names are judged by whether anything in them may generate code: a C
/// macro call at file scope, a C++ operator and a Rust macro call in an `impl` body are code
/// (unmeasured: the check fails); a header of declarations with macros for their types and Rust
/// consts from `env!` are no code.
#[test]
fn unreported_files_count_as_code_when_anything_in_them_may_generate_it() {
    let sb = Sandbox::new();
    sb.policy("[measure]\ninclude = [\"src/**\"]\nmetrics = [\"lines\", \"functions\"]\n");
    sb.write("src/lib.rs", "pub fn f() {}\n");
    sb.write("src/handlers.c", "#include \"h.h\"\nDEFINE_HANDLER(foo)\n");
    sb.write(
        "src/ops.hpp",
        "struct A { int v; };\ninline bool operator==(A a, A b) { return a.v == b.v; }\n",
    );
    sb.write(
        "src/api.h",
        "API(int) f(void);\nstruct s { ElfW(Addr) a; };\n",
    );
    sb.write("src/ext.rs", "pub struct Foo;\nimpl Foo { my_macro!(); }\n");
    sb.write(
        "src/split.c",
        "int split(int a)\n#ifdef NO_BODY\n;\n#else\n{ return a; }\n#endif\n",
    );
    sb.write(
        "src/consts.rs",
        "pub const V: &str = env!(\"CARGO_PKG_VERSION\");\n",
    );
    sb.write(
        "lcov.info",
        "TN:\nSF:src/lib.rs\nFN:1,f\nFNDA:1,f\nDA:1,1\nend_of_record\n",
    );
    let run = sb.run(&["check", "lcov.info", "--format", "json", "--show", "all"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "src/lib.rs"), "pass");
    assert_eq!(status(&doc, "src/api.h"), "no-code");
    assert_eq!(status(&doc, "src/consts.rs"), "no-code");
    let reason = |path: &str| {
        assert_eq!(status(&doc, path), "unmeasured", "{path}");
        common::file(&doc, path)["reason"]
            .as_str()
            .unwrap_or("?")
            .to_string()
    };
    assert_eq!(
        reason("src/handlers.c"),
        "in no report, but has code (a macro call at line 2, which may define functions)"
    );
    assert_eq!(
        reason("src/ops.hpp"),
        "in no report, but has code (a function body at line 2)"
    );
    assert_eq!(reason("src/ext.rs"), "in no report, but has code");
    assert_eq!(
        reason("src/split.c"),
        "in no report, and may have code (not recognised as a declaration at line 2: a \
         preprocessor conditional inside a declaration)"
    );
}
