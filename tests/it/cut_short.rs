//! An LCOV section cut short (no `end_of_record`) leaves its file unmeasured, whatever other
//! sections or reports hold of it: the records dropped may list the file's misses (breaker of
//! session 18: a whole section, then a cut one holding the misses, passed).

use crate::common::Sandbox;

const WHOLE: &str = "SF:src/lib.rs\nDA:1,1\nend_of_record\n";

fn sandbox() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.policy("[measure]\nmetrics = [\"lines\"]\n");
    sandbox.write("src/lib.rs", "pub fn f() {}\npub fn g() {}\n");
    sandbox
}

#[test]
fn a_whole_section_then_one_cut_short_with_the_misses_is_unmeasured() {
    let sandbox = sandbox();
    sandbox.write("t.info", &format!("{WHOLE}SF:src/lib.rs\nDA:2,0\n"));
    let run = sandbox.run(&["check", "t.info", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let file = &json["files"][0];
    assert_eq!(file["path"], "src/lib.rs");
    assert_eq!(file["status"], "unmeasured");
    assert_eq!(
        file["reason"],
        "a section of it in t.info is cut short (no `end_of_record`), so its records are not all \
         known: produce the tracefile again, whole"
    );
    assert!(run
        .stderr
        .contains("t.info:5: missing final `end_of_record` for `src/lib.rs`"));
}

#[test]
fn a_cut_section_in_one_report_names_that_report_beside_a_whole_one() {
    let sandbox = sandbox();
    sandbox.write("whole.info", WHOLE);
    // `cat` of a truncated shard and another: the `SF` of b.rs interrupts lib.rs's section.
    sandbox.write(
        "cut.info",
        "SF:src/lib.rs\nDA:2,0\nSF:src/b.rs\nDA:1,1\nend_of_record\n",
    );
    sandbox.write("src/b.rs", "pub fn b() {}\n");
    let run = sandbox.run(&["check", "whole.info", "cut.info", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let status = |path: &str| {
        let files = json["files"].as_array().unwrap();
        let file = files.iter().find(|f| f["path"] == path).unwrap();
        (file["status"].clone(), file["reason"].clone())
    };
    let (lib, why) = status("src/lib.rs");
    assert_eq!(lib, "unmeasured");
    assert!(why
        .as_str()
        .unwrap()
        .starts_with("a section of it in cut.info is cut short"));
    assert_eq!(status("src/b.rs").0, "pass");
}

#[test]
fn a_report_whose_only_section_is_cut_short_is_no_evidence() {
    let sandbox = sandbox();
    sandbox.write("t.info", "SF:src/lib.rs\nDA:1,1\n");
    let run = sandbox.run(&["check", "t.info"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            "t.info: no coverage record in any report: every `SF` section is empty (no `DA`, \
             `BRDA`, `FN` or `FNL`) or cut short (no `end_of_record`: its records are dropped)"
        ),
        "{}",
        run.stderr
    );
}
