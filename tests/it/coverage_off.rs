//! Rust's `coverage(off)` takes functions out of the export itself: a file whose only uncovered
//! function carries it passed with no trace. Each attribute is now counted and shown (JSON,
//! table, Markdown), and `[inline] coverage-off = "deny"` fails a file that uses it outside test
//! code, naming file:line and the fix (docs/markers.md).

use crate::common;

use common::Sandbox;

/// `src/lib.rs` at 100% in its tracefile, whose source holds a `coverage(off)` function (left
/// out of the tracefile, as llvm-cov leaves it out), one in a test module, and two mentions
/// in a comment and a string.
const LIB: &str = "pub fn ok() {\n    let _ = 1;\n}\n\
                   #[cfg_attr(coverage_nightly, coverage(off))]\n\
                   pub fn hidden() -> u8 {\n    2\n}\n\
                   // #[coverage(off)] in a comment, and one in a string:\n\
                   pub const S: &str = \"#[coverage(off)]\";\n\
                   #[cfg(test)]\n#[cfg_attr(coverage_nightly, coverage(off))]\nmod tests {}\n";

/// The project, with `inline` as the policy's `[inline]` section.
fn project(inline: &str, lib: &str) -> Sandbox {
    let sb = Sandbox::new();
    sb.policy(&format!(
        "[measure]\nmetrics = [\"functions\", \"lines\"]\n\n[inline]\n{inline}"
    ));
    sb.write("src/lib.rs", lib);
    // A second file, covered, so that the failing one is sorted first.
    sb.write("src/a.rs", "pub fn a() {\n    let _ = 1;\n}\n");
    sb.write(
        "cov.info",
        "TN:\nSF:src/lib.rs\nFN:1,ok\nFNDA:1,ok\nDA:1,1\nDA:2,1\nDA:3,1\nend_of_record\n\
         TN:\nSF:src/a.rs\nFN:1,a\nFNDA:1,a\nDA:1,1\nDA:2,1\nDA:3,1\nend_of_record\n",
    );
    sb
}

#[test]
fn coverage_off_is_counted_and_shown_by_default() {
    let sb = project("", LIB);
    let run = sb.run(&["check", "cov.info", "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    let file = common::file(&doc, "src/lib.rs");
    assert_eq!(file["status"], "pass");
    assert_eq!(
        file["coverage_off"],
        serde_json::json!({"items": 2, "lines": [4, 11], "outside_tests": [4]})
    );
    assert_eq!(
        doc["summary"]["coverage_off"],
        serde_json::json!({"items": 2, "outside_tests": 1, "files": 1})
    );
    let table = sb.run(&["check", "cov.info"]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(
        table.stdout.contains(
            "ignored by inline markers: 0 lines, 0 regions, 0 branch sides, 0 functions in 0 \
             files\n2 items under coverage(off) in 1 file (1 outside test code)\ncovgate: PASS\n"
        ),
        "{}",
        table.stdout
    );
    let md = sb.run(&["check", "cov.info", "--format", "markdown"]);
    assert!(
        md.stdout
            .contains("\n2 items under coverage(off) in 1 file (1 outside test code).\n"),
        "{}",
        md.stdout
    );
}

#[test]
fn a_file_without_coverage_off_shows_nothing_new() {
    let sb = project("", "pub fn ok() {\n    let _ = 1;\n}\n");
    let run = sb.run(&["check", "cov.info", "--format", "json"]);
    let doc = run.json();
    assert!(common::file(&doc, "src/lib.rs")
        .get("coverage_off")
        .is_none());
    assert_eq!(
        doc["summary"]["coverage_off"],
        serde_json::json!({"items": 0, "outside_tests": 0, "files": 0})
    );
    let table = sb.run(&["check", "cov.info"]);
    assert!(!table.stdout.contains("coverage(off)"), "{}", table.stdout);
}

#[test]
fn deny_fails_a_file_with_coverage_off_outside_test_code() {
    let sb = project("coverage-off = \"deny\"\n", LIB);
    let why = "coverage(off) outside test code at src/lib.rs:4: it takes code out of the \
               coverage report without a reason or a count ([inline] coverage-off = \"deny\"); \
               remove it, or mark what cannot be covered with `// covgate:ignore-start -- \
               reason` … `// covgate:ignore-end`, which is counted";
    let run = sb.run(&["check", "cov.info", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    let file = common::file(&doc, "src/lib.rs");
    assert_eq!(file["status"], "fail");
    assert_eq!(file["reason"], why);
    assert_eq!(doc["verdict"], "fail");
    // Failing files first: src/lib.rs now comes before the passing src/a.rs.
    let paths: Vec<&str> = (doc["files"].as_array().into_iter().flatten())
        .filter_map(|f| f["path"].as_str())
        .collect();
    assert_eq!(paths, ["src/lib.rs", "src/a.rs"]);
    let table = sb.run(&["check", "cov.info"]);
    assert_eq!(table.code, 1);
    // The note wraps at the table's width.
    let words = table
        .stdout
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(words.contains(why), "{}", table.stdout);
    assert!(
        table.stdout.ends_with("covgate: FAIL\n"),
        "{}",
        table.stdout
    );
    let md = sb.run(&["check", "cov.info", "--format", "markdown"]);
    assert!(
        md.stdout
            .contains("- src/lib.rs fails: coverage(off) outside test code at src/lib.rs:4"),
        "{}",
        md.stdout
    );
    let gh = sb.run(&["check", "cov.info", "--format", "github"]);
    assert!(
        gh.stdout.contains(
            "::error file=src/lib.rs,line=4,title=covgate%3A coverage(off)::coverage(off) outside \
             test code at src/lib.rs:4"
        ),
        "{}",
        gh.stdout
    );
}

#[test]
fn deny_leaves_test_code_alone_and_names_at_most_five() {
    let tests_only = LIB.replace(
        "#[cfg_attr(coverage_nightly, coverage(off))]\npub fn hidden",
        "pub fn hidden",
    );
    let sb = project("coverage-off = \"deny\"\n", &tests_only);
    let run = sb.run(&["check", "cov.info", "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(
        common::file(&doc, "src/lib.rs")["coverage_off"],
        serde_json::json!({"items": 1, "lines": [10], "outside_tests": []})
    );
    let many = format!("{LIB}{}", "#[coverage(off)] fn f() {}\n".repeat(6));
    let sb = project("coverage-off = \"deny\"\n", &many);
    let doc = sb.run(&["check", "cov.info", "--format", "json"]).json();
    let reason = common::file(&doc, "src/lib.rs")["reason"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        reason.starts_with(
            "coverage(off) outside test code at src/lib.rs:4, src/lib.rs:13, src/lib.rs:14, \
             src/lib.rs:15, src/lib.rs:16 … and 2 more: "
        ),
        "{reason}"
    );
}

#[test]
fn a_bad_coverage_off_value_is_a_policy_error() {
    let sb = project("coverage-off = \"dney\"\n", LIB);
    let run = sb.run(&["check", "cov.info"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            "coverage-policy.toml:5:16: unknown `coverage-off` value `dney`; expected count or \
             deny; did you mean `deny`?"
        ),
        "{}",
        run.stderr
    );
}
