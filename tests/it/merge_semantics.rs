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

/// An export naming `src/a.rs` with `summary` (JSON text) and `functions` (the array's text).
fn export(summary: &str, functions: &str) -> String {
    format!(
        r#"{{"type":"llvm.coverage.json.export","version":"2.0.1","data":[{{"files":[{{"filename":"src/a.rs","segments":[],"branches":[],"expansions":[],"summary":{summary}}}],"functions":{functions},"totals":{{}}}}]}}"#
    )
}

/// A summary: `lines` covered of 10, `functions` of 2 (instantiations alike), `regions` of 8.
fn summary(lines: u64, functions: (u64, u64), regions: (u64, u64)) -> String {
    let pair = |(covered, count): (u64, u64)| format!(r#"{{"count":{count},"covered":{covered}}}"#);
    format!(
        r#"{{"lines":{},"functions":{},"instantiations":{},"regions":{},"branches":{}}}"#,
        pair((lines, 10)),
        pair(functions),
        pair(functions),
        pair(regions),
        pair((0, 0))
    )
}

/// A sandbox with `src/a.rs` and the reports `(name, text)`, checked on regions, functions and
/// lines.
fn run_exports(reports: &[(&str, String)]) -> common::Run {
    let sb = Sandbox::new();
    sb.write("src/a.rs", "pub fn a() -> u32 {\n    1\n}\n");
    sb.policy("[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n");
    for (name, text) in reports {
        sb.write(name, text);
    }
    let mut args = vec!["check", "--format", "json"];
    args.extend(reports.iter().map(|(name, _)| *name));
    sb.run(&args)
}

#[test]
fn exports_without_function_records_merge_as_summaries_never_as_0_of_0() {
    let half = export(&summary(5, (1, 2), (4, 8)), "[]");
    // Two such exports agreeing: their summaries are the file's numbers (the records, absent,
    // would have counted 0 of 0 and passed).
    let run = run_exports(&[("a.json", half.clone()), ("b.json", half.clone())]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/a.rs", "lines"), "5/10 fail");
    assert_eq!(metric(&doc, "src/a.rs", "functions"), "1/2 fail");
    assert_eq!(metric(&doc, "src/a.rs", "regions"), "4/8 fail");
    // Disagreeing: nothing to merge them with.
    let more = export(&summary(6, (1, 2), (4, 8)), "[]");
    let run = run_exports(&[("a.json", half), ("c.json", more)]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("without function records") && run.stderr.contains("a.json, c.json"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_export_that_counts_nothing_is_an_error() {
    let zero = export(
        &summary(0, (0, 0), (0, 0)).replace(r#""count":10"#, r#""count":0"#),
        "[]",
    );
    for reports in [
        vec![("z.json", zero.clone())],
        vec![("z.json", zero.clone()), ("y.json", zero)],
    ] {
        let run = run_exports(&reports);
        assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
        assert!(
            run.stderr
                .contains("z.json: no file of the report counts anything"),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn lines_without_any_function_leave_functions_and_regions_unavailable() {
    // What llvm-cov never writes (every line comes from a function's regions): the metrics
    // the summary has no data for fail closed, never a vacuous 0 of 0.
    let run = run_exports(&[("n.json", export(&summary(10, (0, 0), (0, 0)), "[]"))]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/a.rs", "lines"), "10/10 pass");
    assert_eq!(
        metric(&doc, "src/a.rs", "functions"),
        "null/null unavailable"
    );
    assert_eq!(metric(&doc, "src/a.rs", "regions"), "null/null unavailable");
}

/// An export naming one file under two spellings: `full` at 100% (the function `f` of one
/// crate ran), `other` never run (the same function built into another crate).
fn two_spellings(full: &str, other: &str) -> String {
    let summary = |c: u64, lines: u64| {
        format!(
            r#"{{"lines":{{"count":3,"covered":{lines}}},"functions":{{"count":1,"covered":{c}}},"instantiations":{{"count":1,"covered":{c}}},"regions":{{"count":1,"covered":{c}}},"branches":{{"count":0,"covered":0}}}}"#
        )
    };
    let record = |name: &str, count: u64, file: &str| {
        format!(
            r#"{{"name":"{name}","count":{count},"filenames":["{file}"],"regions":[[1,1,3,2,{count},0,0,0]],"branches":[]}}"#
        )
    };
    format!(
        r#"{{"type":"llvm.coverage.json.export","version":"2.0.1","data":[{{"files":[{{"filename":"{full}","summary":{}}},{{"filename":"{other}","summary":{}}}],"functions":[{},{}],"totals":{{}}}}]}}"#,
        summary(1, 3),
        summary(0, 0),
        record("_RNvCs1_4demo1f", 1, full),
        record("_RNvCs2_4demo1f", 0, other)
    )
}

#[test]
fn two_spellings_of_one_file_in_one_export_merge_by_the_instantiation_rule() {
    let sb = Sandbox::new();
    sb.write("src/a.rs", "fn f() {\n    g();\n}\n");
    sb.policy(
        "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n",
    );
    sb.write(
        "lcov.toml",
        "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"functions\", \"lines\"]\n",
    );
    #[cfg(unix)]
    std::os::unix::fs::symlink(sb.path().join("src"), sb.path().join("link")).expect("link");
    let remap = format!("/ws={}", sb.path().display());
    let mut spellings = vec![("/ws/src/a.rs", "src/a.rs"), ("src/a.rs", "/ws/src/a.rs")];
    if cfg!(unix) {
        spellings.push(("/ws/link/a.rs", "src/a.rs"));
    }
    for (full, other) in spellings {
        sb.write("two.json", &two_spellings(full, other));
        let run = sb.run(&[
            "check",
            "two.json",
            "--format",
            "json",
            "--remap-path-prefix",
            &remap,
        ]);
        // One file, its two records one function (one start): the copy that ran covers it all,
        // as llvm-cov counts the copies of a function built into two crates.
        assert_eq!(run.code, 0, "{full} {other}: {}{}", run.stdout, run.stderr);
        let doc = run.json();
        assert_eq!(doc["files"].as_array().map(Vec::len), Some(1), "{doc:#}");
        assert_eq!(metric(&doc, "src/a.rs", "regions"), "1/1 pass");
        assert_eq!(metric(&doc, "src/a.rs", "functions"), "1/1 pass");
        assert_eq!(metric(&doc, "src/a.rs", "lines"), "3/3 pass");
    }
    // The same in an llvm-cov tracefile: the copy that ran covers the file.
    let section = |path: &str, crate_hash: &str, count: u64| {
        format!(
            "SF:{path}\nFN:1,_RNvCs{crate_hash}_4demo1f\nFNDA:{count},_RNvCs{crate_hash}_4demo1f\n\
             FNF:1\nFNH:{count}\nDA:1,{count}\nDA:2,{count}\nDA:3,{count}\nLF:3\nLH:{}\n\
             end_of_record\n",
            3 * count
        )
    };
    sb.write(
        "two.info",
        &[section("/ws/src/a.rs", "1", 1), section("src/a.rs", "2", 0)].concat(),
    );
    let run = sb.run(&[
        "check",
        "two.info",
        "--format",
        "json",
        "--remap-path-prefix",
        &remap,
        "--policy",
        "lcov.toml",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/a.rs", "functions"), "1/1 pass");
    assert_eq!(metric(&doc, "src/a.rs", "lines"), "3/3 pass");
    // From standard input the export is read once: where the spelling at 100% kept no records
    // (a file the walk knows, without markers), a clear error, not a summary-only one.
    let text = two_spellings("/ws/src/a.rs", "src/a.rs");
    let piped = common::covgate_with_stdin(
        sb.path(),
        &["check", "-", "--remap-path-prefix", &remap],
        Some(text.as_bytes()),
    );
    assert_eq!(piped.code, 2, "{}{}", piped.stdout, piped.stderr);
    assert!(
        piped.stderr.contains("two spellings") && piped.stderr.contains("as a file"),
        "{}",
        piped.stderr
    );
}

/// lcov keys a file's functions by name: an `FNDA` without its `FN` in one section counts for
/// the function that another section places with `FN` (`lcov -a` of lcov 1.16: `foo` covered,
/// 1 of 1), whichever report comes first. Before, covgate counted two functions, 1 of 2.
#[test]
fn an_fnda_without_its_fn_joins_the_function_of_its_name_from_another_section() {
    let sb = Sandbox::new();
    sb.policy("[measure]\ninclude = [\"src/**\"]\nmetrics = [\"functions\"]\n");
    sb.write("src/a.c", "int foo(void) { return 0; }\n");
    sb.write(
        "a.info",
        "TN:\nSF:src/a.c\nFN:1,foo\nFNDA:0,foo\nDA:1,0\nend_of_record\n",
    );
    sb.write(
        "b.info",
        "TN:\nSF:src/a.c\nFNDA:5,foo\nDA:1,5\nend_of_record\n",
    );
    sb.write(
        "c.info",
        "TN:\nSF:src/a.c\nFNDA:0,bar\nDA:1,5\nend_of_record\n",
    );
    for [first, second] in [["a.info", "b.info"], ["b.info", "a.info"]] {
        let run = sb.run(&["check", first, second, "--format", "json"]);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        assert_eq!(metric(&run.json(), "src/a.c", "functions"), "1/1 pass");
    }
    // With two functions of the name at different lines, the count goes to the lower line,
    // whatever the order of the reports (merging stays commutative and associative).
    sb.write(
        "x3.info",
        "TN:\nSF:src/a.c\nFN:3,x\nFNDA:0,x\nend_of_record\n",
    );
    sb.write(
        "x5.info",
        "TN:\nSF:src/a.c\nFN:5,x\nFNDA:0,x\nend_of_record\n",
    );
    sb.write("xn.info", "TN:\nSF:src/a.c\nFNDA:1,x\nend_of_record\n");
    for order in [
        ["xn.info", "x5.info", "x3.info"],
        ["x5.info", "xn.info", "x3.info"],
        ["x3.info", "x5.info", "xn.info"],
    ] {
        let mut args = vec!["check"];
        args.extend(order);
        args.extend(["--format", "json"]);
        let run = sb.run(&args);
        let doc = run.json();
        assert_eq!(
            metric(&doc, "src/a.c", "functions"),
            "1/2 fail",
            "{order:?}"
        );
        let missed = &common::file(&doc, "src/a.c")["uncovered"]["functions"];
        assert_eq!(
            missed.to_string().matches("x").count(),
            1,
            "{order:?}: {missed}"
        );
        assert!(missed.to_string().contains('5'), "{order:?}: {missed}");
    }
    // An `FNDA` of another name stays a function of its own (lcov: `bar`, never run).
    let run = sb.run(&["check", "a.info", "b.info", "c.info", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/a.c", "functions"), "1/2 fail");
}
