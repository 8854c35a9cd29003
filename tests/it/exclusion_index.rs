//! `[[exclude]]` entries and `include` globs matched through the index of their literal parts
//! (session 16: each file was matched against each entry, minutes for 5,000 entries and 100,000
//! files): the same files excluded by the same (first) entry, the same stale entries in policy
//! order, for literal paths, `**/NAME`, `FOLDER/**`, wildcards in names, alternations, classes
//! and Windows separators, with and without case.

use crate::common;

use common::Sandbox;

/// Files on disk, each in the LCOV tracefile with one covered line.
const FILES: &[&str] = &[
    "src/lib.rs",
    "src/gen/foo.rs",
    "src/gen/bar_pb.rs",
    "src/gen/deep/baz_pb.rs",
    "src/vendor/x/y.rs",
    "src/a/mod.rs",
    "src/b/mod.rs",
    "src/c/mod.rs",
    "src/w/win.rs",
    "src/k.rs",
    "lib/extra.rs",
];

/// `[[exclude]]` entries (glob, reason), in policy order, with 40 literal ones after them that
/// each match a file of their own (`src/many/fNN.rs`).
const ENTRIES: &[(&str, &str)] = &[
    ("src/gen/foo.rs", "literal"),
    ("**/foo.rs", "by name"),
    ("src/gen/*_pb.rs", "wild name"),
    ("src/gen/**", "folder"),
    ("src/{a,b}/mod.rs", "alternation"),
    ("src\\\\w\\\\win.rs", "windows separators"),
    ("src/[v]endor/**", "class"),
    ("**/gone.rs", "stale by name"),
    ("src/nope/*.rs", "stale in a folder"),
    ("src/**/missing_*.rs", "stale anywhere below"),
    ("*/*/mod.r?", "anywhere"),
];

fn project(entries: &[(&str, &str)]) -> Sandbox {
    let sb = Sandbox::new();
    let many: Vec<String> = (0..40).map(|n| format!("src/many/f{n:02}.rs")).collect();
    let mut policy = "[measure]\ninclude = [\"src/**/*.rs\", \"lib/*.rs\"]\n\
                      metrics = [\"functions\", \"lines\"]\n"
        .to_string();
    let literal = many.iter().map(|f| (f.as_str(), "one of many"));
    for (glob, reason) in entries.iter().copied().chain(literal) {
        policy.push_str(&format!(
            "\n[[exclude]]\npath = \"{glob}\"\nreason = \"{reason}\"\n"
        ));
    }
    sb.policy(&policy);
    let mut lcov = String::new();
    for file in FILES.iter().copied().chain(many.iter().map(String::as_str)) {
        sb.write(file, "fn f() {}\n");
        lcov.push_str(&format!(
            "SF:{file}\nFN:1,f\nFNDA:1,f\nDA:1,1\nend_of_record\n"
        ));
    }
    sb.write("cov.info", &lcov);
    sb
}

/// Each file's status, and its reason when excluded, as `path: status (reason)`.
fn classes(doc: &serde_json::Value) -> Vec<String> {
    let files = doc["files"].as_array().expect("files");
    files
        .iter()
        .filter(|f| !f["path"].as_str().unwrap_or("").starts_with("src/many/"))
        .map(|f| {
            let reason = f["reason"].as_str().map(|r| format!(" ({r})"));
            format!(
                "{}: {}{}",
                f["path"].as_str().unwrap_or("?"),
                f["status"].as_str().unwrap_or("?"),
                reason.unwrap_or_default()
            )
        })
        .collect()
}

#[test]
fn stale_entries_are_listed_in_policy_order() {
    let sb = project(ENTRIES);
    let run = sb.run(&["check", "cov.info"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let policy = sb.path().join("coverage-policy.toml");
    let policy = policy.display();
    assert_eq!(
        run.stderr,
        format!(
            "covgate: error: stale [[exclude]] entries match no in-scope file; remove them or fix \
             their globs:\n  {policy}:34:8: `**/gone.rs` (stale by name)\n  \
             {policy}:38:8: `src/nope/*.rs` (stale in a folder)\n  \
             {policy}:42:8: `src/**/missing_*.rs` (stale anywhere below)\n"
        )
    );
}

#[test]
fn each_file_is_excluded_by_the_first_entry_that_matches_it() {
    let live: Vec<(&str, &str)> = ENTRIES
        .iter()
        .copied()
        .filter(|(_, reason)| !reason.starts_with("stale"))
        .collect();
    let run = project(&live).run(&["check", "cov.info", "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(
        classes(&doc),
        [
            "lib/extra.rs: pass",
            "src/a/mod.rs: excluded (alternation)",
            "src/b/mod.rs: excluded (alternation)",
            "src/c/mod.rs: excluded (anywhere)",
            "src/gen/bar_pb.rs: excluded (wild name)",
            "src/gen/deep/baz_pb.rs: excluded (folder)",
            "src/gen/foo.rs: excluded (literal)",
            "src/k.rs: pass",
            "src/lib.rs: pass",
            "src/vendor/x/y.rs: excluded (class)",
            "src/w/win.rs: excluded (windows separators)",
        ]
    );
    assert_eq!(common::status(&doc, "src/many/f39.rs"), "excluded");
    assert_eq!(
        common::file(&doc, "src/many/f00.rs")["reason"],
        "one of many"
    );
}

#[test]
fn a_report_recorded_without_case_is_matched_without_case() {
    let sb = project(&[
        ("SRC/GEN/**", "folder"),
        ("**/K.RS", "by name"),
        ("src/*/MOD.rs", "wild"),
    ]);
    let run = sb.run(&[
        "check",
        "cov.info",
        "--no-walk",
        "--path-case",
        "insensitive",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(
        classes(&doc),
        [
            "lib/extra.rs: pass",
            "src/a/mod.rs: excluded (wild)",
            "src/b/mod.rs: excluded (wild)",
            "src/c/mod.rs: excluded (wild)",
            "src/gen/bar_pb.rs: excluded (folder)",
            "src/gen/deep/baz_pb.rs: excluded (folder)",
            "src/gen/foo.rs: excluded (folder)",
            "src/k.rs: excluded (by name)",
            "src/lib.rs: pass",
            "src/vendor/x/y.rs: pass",
            "src/w/win.rs: pass",
        ]
    );
    // With case, the upper-case globs match nothing: stale.
    let run = sb.run(&["check", "cov.info", "--path-case", "sensitive"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("`SRC/GEN/**` (folder)"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("`**/K.RS` (by name)"), "{}", run.stderr);
    assert!(
        run.stderr.contains("`src/*/MOD.rs` (wild)"),
        "{}",
        run.stderr
    );
}
