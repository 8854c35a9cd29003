//! llvm-cov JSON summaries that claim fewer misses than the file's function records prove
//! (breaker session 16, finding 1): a summary post-processed with `count` lowered to `covered`
//! passed, and so did a summary raised to 100% whose file's function records were deleted
//! while other files kept theirs. The misses are bounded as the LCOV side bounds them: the
//! summary is judged with the records (the worse of the two), with a warning; a file without a
//! record of its own in an export with records counts nothing as covered.
//! Built on case 28's real export (`crates/units/src/lib.rs`: 7/10 regions, 2/3 functions and
//! instantiations, 6/9 lines; `crates/app/src/lib.rs` at 100%).

use serde_json::{json, Value};

use crate::common::{metric, Sandbox};

const C28: &str = "cases/28-workspace-relative-paths-member-policy";
const UNITS: &str = "/ws/lengths/crates/units/src/lib.rs";

/// Case 28's export made on another machine (absolute `/ws/lengths` paths), as a document.
fn original() -> Value {
    let text = std::fs::read_to_string(crate::common::fixture(&format!("{C28}/input-abs.json")))
        .expect("export");
    serde_json::from_str(&text).expect("json")
}

/// The summary of `crates/units/src/lib.rs` in `doc`.
fn units_summary(doc: &mut Value) -> &mut Value {
    let files = doc["data"][0]["files"].as_array_mut().expect("files");
    let file = files
        .iter_mut()
        .find(|f| f["filename"] == UNITS)
        .expect("units");
    &mut file["summary"]
}

/// Sets `metric` of the units summary to `covered` of `count`.
fn set(doc: &mut Value, metric: &str, covered: u64, count: u64) {
    units_summary(doc)[metric] = json!({"count": count, "covered": covered, "percent": 0});
}

/// `covgate check` (JSON) of `doc` from the workspace root, every member's sources in scope.
fn check(doc: &Value, extra: &[&str]) -> crate::common::Run {
    let sb = Sandbox::copy_of(&format!("{C28}/ws"));
    sb.policy(
        "[measure]\ninclude = [\"crates/*/src/**/*.rs\"]\n\
         metrics = [\"regions\", \"functions\", \"lines\"]\n",
    );
    sb.write("cov.json", &doc.to_string());
    let remap = format!("/ws/lengths={}", sb.path().display());
    let args = [
        "check",
        "cov.json",
        "--remap-path-prefix",
        &remap,
        "--format",
        "json",
    ];
    sb.run(&[&args[..], extra].concat())
}

/// The verdicts of the units file: regions, functions, lines.
fn units(run: &crate::common::Run) -> [String; 3] {
    let doc = run.json();
    let file = "crates/units/src/lib.rs";
    ["regions", "functions", "lines"].map(|m| metric(&doc, file, m))
}

#[test]
fn the_real_export_is_judged_on_its_summary_without_a_warning() {
    let run = check(&original(), &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(units(&run), ["7/10 fail", "2/3 fail", "6/9 fail"]);
    assert_eq!(run.json()["facts"]["warnings"], json!([]));
}

#[test]
fn a_summary_whose_counts_were_lowered_to_covered_is_judged_by_its_records() {
    let mut doc = original();
    set(&mut doc, "regions", 7, 7);
    set(&mut doc, "functions", 2, 2);
    set(&mut doc, "instantiations", 2, 2);
    set(&mut doc, "lines", 6, 6);
    // At 100%, the file's records are not kept at first: the record that never ran (more than
    // the summary's 0 missed instantiations) has the export read again, keeping them.
    let run = check(&doc, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(units(&run), ["7/10 fail", "2/3 fail", "6/9 fail"]);
    let warnings = run.json()["facts"]["warnings"].to_string();
    assert!(
        warnings.contains(&format!(
            "cov.json: {UNITS}: the summary's regions 7/7, functions 2/2, instantiations 2/2, \
             lines 6/6 claim fewer missed than the file's function records prove (regions: 3 \
             missed in the records, counted 7/10; functions: 1 missed in the records, counted \
             2/3; instantiations: 1 missed in the records, counted 2/3; lines: 3 missed in the \
             records, counted 6/9; no llvm-cov run counts fewer misses than its records prove); \
             covgate judges the worse of the summary and the records"
        )),
        "{warnings}"
    );
    // Its instantiations left as they were (2 of 3): the file keeps its records, and the
    // function none of whose records ran is proved missed by them.
    set(&mut doc, "instantiations", 2, 3);
    let run = check(&doc, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(units(&run), ["7/10 fail", "2/3 fail", "6/9 fail"]);
    let warnings = run.json()["facts"]["warnings"].to_string();
    assert!(
        warnings.contains("the summary's regions 7/7, functions 2/2, lines 6/6 claim fewer"),
        "{warnings}"
    );
    // Only the regions lowered: lines are left as the summary says (no other metric proves
    // the summary false by its lines alone).
    let mut doc = original();
    set(&mut doc, "regions", 7, 8);
    let run = check(&doc, &[]);
    assert_eq!(units(&run), ["7/10 fail", "2/3 fail", "6/9 fail"]);
    let warnings = run.json()["facts"]["warnings"].to_string();
    assert!(
        warnings.contains("the summary's regions 7/8 claim fewer missed"),
        "{warnings}"
    );
}

#[test]
fn a_full_summary_whose_records_were_deleted_counts_nothing_as_covered() {
    let mut doc = original();
    set(&mut doc, "regions", 10, 10);
    set(&mut doc, "functions", 3, 3);
    set(&mut doc, "instantiations", 3, 3);
    set(&mut doc, "lines", 9, 9);
    let functions = doc["data"][0]["functions"]
        .as_array_mut()
        .expect("functions");
    functions.retain(|f| f["filenames"][0] != UNITS);
    assert_eq!(functions.len(), 2, "app's records are kept");
    let run = check(&doc, &["--show", "all"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(units(&run), ["0/10 fail", "0/3 fail", "0/9 fail"]);
    let doc_out = run.json();
    assert_eq!(
        metric(&doc_out, "crates/app/src/lib.rs", "regions"),
        "11/11 pass"
    );
    let warnings = doc_out["facts"]["warnings"].to_string();
    assert!(
        warnings.contains(&format!(
            "cov.json: {UNITS}: the summary claims regions 10/10, functions 3/3 and lines 9/9, \
             but the export holds no function record of this file while it holds records of \
             other files (llvm-cov derives every count from the records: they were removed); \
             nothing shows that any of them ran, so covgate counts none as covered"
        )),
        "{warnings}"
    );
    // Without any record (`"functions": []`, as `-summary-only` exports carry none), the
    // summaries are all there is, as before.
    doc["data"][0]["functions"] = json!([]);
    let run = check(&doc, &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(units(&run), ["10/10 pass", "3/3 pass", "9/9 pass"]);
}

#[test]
fn standard_input_whose_full_summary_hides_a_record_that_never_ran_is_refused() {
    let mut doc = original();
    set(&mut doc, "regions", 7, 7);
    set(&mut doc, "functions", 2, 2);
    set(&mut doc, "instantiations", 2, 2);
    set(&mut doc, "lines", 6, 6);
    let sb = Sandbox::copy_of(&format!("{C28}/ws"));
    sb.policy("[measure]\ninclude = [\"crates/*/src/**/*.rs\"]\n");
    let remap = format!("/ws/lengths={}", sb.path().display());
    let text = doc.to_string();
    let args = ["check", "-", "--remap-path-prefix", &remap];
    let run = crate::common::covgate_with_stdin(sb.path(), &args, Some(text.as_bytes()));
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "<stdin>: {UNITS}: the export's summary claims more covered than the file's \
             function records show, or fewer misses than they prove"
        )),
        "{}",
        run.stderr
    );
}
