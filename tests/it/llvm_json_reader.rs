//! The llvm-cov JSON reader against real exports: every file's own summary equals the
//! `llvm-cov report` table made from the same data, and `recompute` over the file's function
//! records gives that summary back (llvm-cov's per-file algorithm). Plus the case inputs, key
//! orders, versions, number formats and malformed documents.

use std::collections::BTreeMap;
use std::path::PathBuf;

use covgate::model::Counts;
use covgate::model::LineRange;
use covgate::report::llvm_json::{self, FunctionStats, LlvmFile, LlvmSummary};
use covgate::report::{FileCoverage, Report, ReportKind};
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// helpers

fn fixture_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

fn bytes(rel: &str) -> Vec<u8> {
    let path = fixture_path(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read(rel: &str) -> Report {
    read_bytes(rel, &bytes(rel))
}

fn read_bytes(origin: &str, data: &[u8]) -> Report {
    llvm_json::read(origin, data).unwrap_or_else(|e| panic!("{origin}: {e}"))
}

fn read_err(data: &str) -> String {
    match llvm_json::read("t.json", data.as_bytes()) {
        Ok(report) => panic!("read succeeded: {} files", report.files.len()),
        Err(err) => err.to_string(),
    }
}

/// The JSON llvm fixtures with `llvm-cov report` tables (json, table).
const WITH_TABLES: &[(&str, &str)] = &[
    ("llvm/c_llvm14.json", "llvm/c_llvm14_report.txt"),
    ("llvm/c_llvm22.json", "llvm/c_llvm22_report.txt"),
    (
        "llvm/c3_macroheader_llvm22.json",
        "llvm/c3_macroheader_llvm22_report.txt",
    ),
    (
        "llvm/folded_nightly_branch.json",
        "llvm/folded_nightly_branch_report.txt",
    ),
    (
        "llvm/tricky_nightly_branch.json",
        "llvm/tricky_nightly_branch_report.txt",
    ),
    ("llvm/tricky_stable.json", "llvm/tricky_stable_report.txt"),
    (
        "llvm/tricky_stable_raw_noignore.json",
        "llvm/tricky_stable_report.txt",
    ),
    (
        "llvm/tricky_stable_summary_only.json",
        "llvm/tricky_stable_report.txt",
    ),
    ("real/semver.json", "real/semver.summary.txt"),
    (
        "real/walkdir.branch.json",
        "real/walkdir.branch.summary.txt",
    ),
];

/// Every JSON input: the fixtures above, those without a table, and the cases' inputs.
const ALL_JSON: &[&str] = &[
    "llvm/c2_llvm14.json",
    "llvm/c2_llvm22.json",
    "llvm/c3_macroheader_llvm14.json",
    "llvm/c3_macroheader_llvm22.json",
    "llvm/c_llvm14.json",
    "llvm/c_llvm22.json",
    "llvm/folded_nightly_branch.json",
    "llvm/tricky_nightly_branch.json",
    "llvm/tricky_stable.json",
    "llvm/tricky_stable_raw_noignore.json",
    "llvm/tricky_stable_summary_only.json",
    "real/semver.json",
    "real/walkdir.branch.json",
    "cases/01-no-branches-percent-zero/input.json",
    "cases/02-generic-instantiations-split/input.json",
    "cases/09-never-compiled-file-missing/input.json",
    "cases/10-filter-regex-empties-report/input.json",
    "cases/10-filter-regex-empties-report/input-reference-unfiltered.json",
    "cases/14-inline-exclusion-markers/input-nightly.json",
    "cases/14-inline-exclusion-markers/input-stable.json",
    "cases/16-test-code-counted-in-src/input.json",
    "cases/16-test-code-counted-in-src/input-raw-llvm-cov.json",
];

/// Exports whose branch arrays hold folded sides (printed "Folded" by `llvm-cov show`) with a
/// count of 0: the summary leaves them out, the recomputation cannot tell them apart.
const FOLDED: &[&str] = &["llvm/folded_nightly_branch.json"];

fn llvm(file: &covgate::report::FileData) -> &LlvmFile {
    match &file.coverage {
        FileCoverage::Llvm(llvm) => llvm,
        other => panic!("{}: not llvm coverage: {other:?}", file.path),
    }
}

/// The file of `report` whose path is `suffix` or ends with `/suffix`.
fn file<'r>(report: &'r Report, suffix: &str) -> &'r LlvmFile {
    let matches: Vec<_> = report
        .files
        .iter()
        .filter(|f| f.path == suffix || f.path.ends_with(&format!("/{suffix}")))
        .collect();
    match matches.as_slice() {
        [only] => llvm(only),
        _ => panic!("{}: {} files match {suffix}", report.origin, matches.len()),
    }
}

fn functions(file: &LlvmFile) -> &[FunctionStats] {
    file.functions
        .as_deref()
        .unwrap_or_else(|| panic!("no function records"))
}

fn c(covered: u64, total: u64) -> Counts {
    Counts::new(covered, total)
}

/// One row of an `llvm-cov report` table: regions, functions, lines, branches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Row {
    regions: Counts,
    functions: Counts,
    lines: Counts,
    branches: Counts,
}

impl Row {
    fn of(summary: &LlvmSummary) -> Row {
        Row {
            regions: summary.regions,
            functions: summary.functions,
            lines: summary.lines,
            branches: summary.branches,
        }
    }
}

/// Parses the table's file rows (`Filename Regions Missed Cover Functions Missed Executed
/// Lines Missed Cover Branches Missed Cover`), including "Files which contain no functions".
fn parse_table(rel: &str) -> BTreeMap<String, Row> {
    let text = String::from_utf8(bytes(rel)).expect("utf-8 table");
    let mut rows = BTreeMap::new();
    for line in text.lines() {
        let cols: Vec<&str> = line.split_whitespace().collect();
        if cols.len() != 13 || cols[0] == "Filename" || cols[0] == "TOTAL" {
            continue;
        }
        let num = |i: usize| -> u64 {
            cols[i]
                .parse()
                .unwrap_or_else(|_| panic!("{rel}: column {i} of {line:?}"))
        };
        let pair = |total: usize| c(num(total) - num(total + 1), num(total));
        let row = Row {
            regions: pair(1),
            functions: pair(4),
            lines: pair(7),
            branches: pair(10),
        };
        assert!(
            rows.insert(cols[0].to_string(), row).is_none(),
            "{rel}: {line}"
        );
    }
    assert!(!rows.is_empty(), "{rel}: no rows");
    rows
}

fn matches_row(path: &str, name: &str) -> bool {
    path == name || path.ends_with(&format!("/{name}"))
}

// ---------------------------------------------------------------------------------------------
// (a) the summaries as read equal `llvm-cov report`

#[test]
fn every_file_summary_equals_the_llvm_cov_report_table() {
    let mut compared = 0;
    for (json, table) in WITH_TABLES {
        let report = read(json);
        let rows = parse_table(table);
        for (name, row) in &rows {
            let got = Row::of(&file(&report, name).summary);
            assert_eq!(got, *row, "{json}: {name}");
            compared += 1;
        }
        for data in &report.files {
            let in_table = rows.keys().any(|name| matches_row(&data.path, name));
            // The raw export was made without cargo-llvm-cov's ignore regex: it also holds the
            // integration test, which the table (made with the regex) leaves out.
            let extra =
                json.ends_with("raw_noignore.json") && data.path.ends_with("/integration.rs");
            assert!(in_table || extra, "{json}: {} not in {table}", data.path);
        }
    }
    assert_eq!(compared, 40);
}

// ---------------------------------------------------------------------------------------------
// (b) recomputing from function records gives the summary back

#[test]
fn recompute_equals_every_file_summary() {
    let mut files = 0;
    for json in ALL_JSON {
        let report = read(json);
        for data in &report.files {
            let llvm = llvm(data);
            let Some(records) = &llvm.functions else {
                assert!(json.ends_with("summary_only.json"), "{json}: no functions");
                continue;
            };
            let got = llvm_json::recompute(records);
            let want = llvm.summary;
            let what = format!("{json}: {}", data.path);
            assert_eq!(got.regions, want.regions, "{what}: regions");
            assert_eq!(got.functions, want.functions, "{what}: functions");
            assert_eq!(
                got.instantiations, want.instantiations,
                "{what}: instantiations"
            );
            assert_eq!(got.lines, want.lines, "{what}: lines");
            if FOLDED.contains(json) {
                assert!(
                    got.branches.total >= want.branches.total,
                    "{what}: branches"
                );
                assert!(
                    got.branches.covered >= want.branches.covered,
                    "{what}: branches"
                );
            } else {
                assert_eq!(got.branches, want.branches, "{what}: branches");
            }
            files += 1;
        }
    }
    assert_eq!(files, 54);
}

#[test]
fn folded_branch_sides_exceed_the_summary() {
    let report = read("llvm/folded_nightly_branch.json");
    let lib = file(&report, "src/lib.rs");
    assert_eq!(lib.summary.branches, c(11, 17));
    // 11 branch entries, 22 sides; the 5 folded sides are listed with count 0.
    assert_eq!(llvm_json::recompute(functions(lib)).branches, c(11, 22));
    let zero_sides: usize = functions(lib)
        .iter()
        .map(|f| f.uncovered_branches().len())
        .sum();
    assert_eq!(zero_sides, 11);
}

// ---------------------------------------------------------------------------------------------
// report-level facts

#[test]
fn report_kind_version_manifest_and_branch_data() {
    let report = read("llvm/tricky_stable.json");
    assert_eq!(
        report.kind,
        ReportKind::LlvmJson {
            version: "3.1.0".into(),
            summary_only: false
        }
    );
    assert_eq!(report.origin, "llvm/tricky_stable.json");
    assert_eq!(
        report.manifest_path.as_deref(),
        Some("/ci/samples/tricky/Cargo.toml")
    );
    assert!(!report.has_branch_data);

    let raw = read("llvm/tricky_stable_raw_noignore.json");
    assert_eq!(raw.manifest_path, None);
    assert!(!raw.has_branch_data);

    for json in [
        "llvm/c_llvm14.json",
        "llvm/tricky_nightly_branch.json",
        "real/walkdir.branch.json",
        "cases/01-no-branches-percent-zero/input.json",
    ] {
        assert!(read(json).has_branch_data, "{json}");
    }
    assert!(!read("real/semver.json").has_branch_data);
    let old = read("llvm/c_llvm14.json");
    assert!(matches!(old.kind, ReportKind::LlvmJson { ref version, .. } if version == "2.0.1"));
}

#[test]
fn summary_only_export_has_no_function_detail() {
    let report = read("llvm/tricky_stable_summary_only.json");
    assert_eq!(
        report.kind,
        ReportKind::LlvmJson {
            version: "3.1.0".into(),
            summary_only: true
        }
    );
    assert_eq!(report.files.len(), 5);
    assert!(report.files.iter().all(|f| llvm(f).functions.is_none()));
    let lib = file(&report, "src/lib.rs");
    assert_eq!(lib.summary.regions, c(113, 133));
    assert_eq!(lib.summary.instantiations, c(18, 31));
}

#[test]
fn records_follow_their_main_file_and_others_are_dropped() {
    // The cargo-llvm-cov export leaves tests/integration.rs out of files[] but not functions[].
    let filtered = read("llvm/tricky_stable.json");
    let raw = read("llvm/tricky_stable_raw_noignore.json");
    let count = |r: &Report| -> usize { r.files.iter().map(|f| functions(llvm(f)).len()).sum() };
    let integration = functions(file(&raw, "tests/integration.rs")).len();
    assert!(integration > 0);
    assert_eq!(count(&filtered) + integration, count(&raw));
    // A generic function's instantiations share one key; a closure on the same line does not.
    let gen = file(&filtered, "src/gen.rs");
    let largest: Vec<_> = functions(gen).iter().filter(|f| f.key == (3, 1)).collect();
    assert!(largest.len() >= 2, "{largest:?}");
}

#[test]
fn macro_expanded_from_a_header_belongs_to_the_file_that_uses_it() {
    let report = read("llvm/c3_macroheader_llvm22.json");
    let header = file(&report, "mh.h");
    assert_eq!(header.summary, LlvmSummary::default());
    assert!(functions(header).is_empty());
    let user = file(&report, "d.c");
    let recomputed = llvm_json::recompute(functions(user));
    assert_eq!(recomputed.regions, c(10, 12));
    assert_eq!(recomputed.branches, c(2, 4));
    // Items inside the expansion are placed at the macro's use site in d.c.
    let uncovered: Vec<_> = functions(user)
        .iter()
        .flat_map(|f| f.uncovered_regions().iter())
        .map(|s| s.line_start)
        .collect();
    assert_eq!(uncovered.len(), 2);
}

// ---------------------------------------------------------------------------------------------
// the cases' inputs

/// (regions, branches, functions, lines) of a file.
fn numbers(report: &Report, suffix: &str) -> (Counts, Counts, Counts, Counts) {
    let s = file(report, suffix).summary;
    (s.regions, s.branches, s.functions, s.lines)
}

fn uncovered_lines(report: &Report, suffix: &str) -> Vec<(u32, u32)> {
    let mut ranges: Vec<LineRange> = functions(file(report, suffix))
        .iter()
        .flat_map(|f| f.uncovered_lines().iter().copied())
        .collect();
    ranges.sort();
    ranges.dedup();
    ranges.iter().map(|r| (r.start, r.end)).collect()
}

#[test]
fn case_01_no_branches() {
    let report = read("cases/01-no-branches-percent-zero/input.json");
    assert!(report.has_branch_data);
    assert_eq!(
        numbers(&report, "src/lib.rs"),
        (c(13, 13), c(2, 2), c(2, 2), c(10, 10))
    );
    assert_eq!(
        numbers(&report, "src/plain.rs"),
        (c(3, 3), c(0, 0), c(1, 1), c(3, 3))
    );
}

#[test]
fn case_02_generic_instantiations() {
    let report = read("cases/02-generic-instantiations-split/input.json");
    assert_eq!(
        numbers(&report, "src/lib.rs"),
        (c(10, 11), c(1, 2), c(2, 2), c(8, 9))
    );
    let lib = file(&report, "src/lib.rs");
    assert_eq!(lib.summary.instantiations.total, 3);
    // Each instantiation misses something the other covers.
    let generic: Vec<_> = functions(lib).iter().filter(|f| f.key == (1, 1)).collect();
    assert_eq!(generic.len(), 2);
    assert!(generic
        .iter()
        .all(|f| f.regions == c(4, 5) && f.branches == c(1, 2)));
    let arms: Vec<u32> = generic
        .iter()
        .flat_map(|f| f.uncovered_lines().iter().map(|r| r.start))
        .collect();
    assert_eq!(arms, vec![3, 5]);
}

#[test]
fn case_09_files_in_report() {
    let report = read("cases/09-never-compiled-file-missing/input.json");
    assert_eq!(report.files.len(), 2);
    let lib = numbers(&report, "src/lib.rs");
    assert_eq!((lib.0, lib.2, lib.3), (c(9, 9), c(2, 2), c(7, 7)));
    let unix = numbers(&report, "src/sys/unix.rs");
    assert_eq!((unix.0, unix.2, unix.3), (c(3, 3), c(1, 1), c(3, 3)));
}

#[test]
fn case_10_filtered_export_has_no_files() {
    let report = read("cases/10-filter-regex-empties-report/input.json");
    assert!(report.files.is_empty());
    let full = read("cases/10-filter-regex-empties-report/input-reference-unfiltered.json");
    let lib = numbers(&full, "src/lib.rs");
    assert_eq!((lib.0, lib.2, lib.3), (c(8, 11), c(2, 3), c(6, 9)));
    assert_eq!(uncovered_lines(&full, "src/lib.rs"), vec![(7, 9)]);
    let utils = numbers(&full, "src/test_utils.rs");
    assert_eq!((utils.0, utils.2, utils.3), (c(3, 3), c(1, 1), c(3, 3)));
}

#[test]
fn case_14_inline_markers_inputs() {
    let nightly = read("cases/14-inline-exclusion-markers/input-nightly.json");
    let lib = numbers(&nightly, "src/lib.rs");
    assert_eq!((lib.0, lib.2, lib.3), (c(14, 24), c(2, 3), c(9, 17)));
    assert_eq!(
        uncovered_lines(&nightly, "src/lib.rs"),
        vec![(7, 7), (12, 18)]
    );
    let stable = read("cases/14-inline-exclusion-markers/input-stable.json");
    let lib = numbers(&stable, "src/lib.rs");
    assert_eq!((lib.0, lib.2, lib.3), (c(14, 29), c(2, 4), c(9, 20)));
    assert_eq!(
        uncovered_lines(&stable, "src/lib.rs"),
        vec![(7, 7), (12, 18), (22, 24)]
    );
    for report in [&nightly, &stable] {
        let control = numbers(report, "src/control.rs");
        assert_eq!(
            (control.0, control.2, control.3),
            (c(0, 4), c(0, 1), c(0, 3))
        );
    }
}

#[test]
fn case_16_test_code() {
    let filtered = read("cases/16-test-code-counted-in-src/input.json");
    assert_eq!(filtered.files.len(), 1);
    let raw = read("cases/16-test-code-counted-in-src/input-raw-llvm-cov.json");
    for report in [&filtered, &raw] {
        let lib = numbers(report, "src/lib.rs");
        assert_eq!((lib.0, lib.2, lib.3), (c(14, 14), c(3, 3), c(13, 13)));
    }
    let api = numbers(&raw, "tests/api.rs");
    assert_eq!((api.0, api.2, api.3), (c(6, 7), c(1, 1), c(5, 6)));
    assert_eq!(uncovered_lines(&raw, "tests/api.rs"), vec![(5, 5)]);
}

// ---------------------------------------------------------------------------------------------
// key order, versions, numbers

/// Re-serialises `value`'s object with the keys in `order` first (serde_json's map is sorted).
fn object_in_order(value: &Value, order: &[&str]) -> String {
    let map = value.as_object().expect("object");
    let mut parts: Vec<String> = order
        .iter()
        .filter_map(|k| map.get(*k).map(|v| format!("{:?}:{}", k, v)))
        .collect();
    for (k, v) in map.iter().filter(|(k, _)| !order.contains(&k.as_str())) {
        parts.push(format!("{:?}:{}", k, v));
    }
    format!("{{{}}}", parts.join(","))
}

fn summaries(report: &Report) -> Vec<(String, LlvmSummary, Option<usize>)> {
    report
        .files
        .iter()
        .map(|f| {
            let l = llvm(f);
            (
                f.path.clone(),
                l.summary,
                l.functions.as_ref().map(Vec::len),
            )
        })
        .collect()
}

#[test]
fn functions_before_files_and_data_before_version() {
    for json in ["llvm/tricky_stable.json", "llvm/c_llvm14.json"] {
        let doc: Value = serde_json::from_slice(&bytes(json)).expect("fixture");
        let export = object_in_order(&doc["data"][0], &["functions", "totals", "files"]);
        let reordered = format!(
            r#"{{"data":[{export}],"cargo_llvm_cov":{{"manifest_path":"/m/Cargo.toml"}},"version":{},"type":{}}}"#,
            doc["version"], doc["type"]
        );
        let original = read(json);
        let again = read_bytes(json, reordered.as_bytes());
        assert_eq!(summaries(&original), summaries(&again), "{json}");
        assert_eq!(again.manifest_path.as_deref(), Some("/m/Cargo.toml"));
    }
}

#[test]
fn version_2_0_0_with_five_element_segments() {
    let mut doc: Value = serde_json::from_slice(&bytes("llvm/c2_llvm14.json")).expect("fixture");
    doc["version"] = Value::from("2.0.0");
    for segment in doc["data"][0]["files"][0]["segments"]
        .as_array_mut()
        .expect("segments")
    {
        segment.as_array_mut().expect("segment").truncate(5);
    }
    let text = doc.to_string();
    let report = read_bytes("v200.json", text.as_bytes());
    assert!(matches!(report.kind, ReportKind::LlvmJson { ref version, .. } if version == "2.0.0"));
    let c_file = file(&report, "c.c");
    assert_eq!(llvm_json::recompute(functions(c_file)), c_file.summary);
}

#[test]
fn byte_order_mark_is_skipped() {
    let mut data = b"\xEF\xBB\xBF".to_vec();
    data.extend(bytes("llvm/c2_llvm22.json"));
    assert_eq!(read_bytes("bom.json", &data).files.len(), 1);
}

/// A minimal export around one function record and one file summary.
fn tiny(version: &str, record: &str, summary_count: &str) -> String {
    format!(
        r#"{{"data":[{{"files":[{{"filename":"/a.rs","summary":{{
            "lines":{{"count":{summary_count},"covered":1}},"functions":{{"count":1,"covered":1}},
            "instantiations":{{"count":1,"covered":1}},"regions":{{"count":1,"covered":1}}}}}}],
          "functions":[{record}]}}],
          "type":"llvm.coverage.json.export","version":"{version}"}}"#
    )
}

const RECORD: &str =
    r#"{"name":"f","count":1,"filenames":["/a.rs"],"regions":[[1,1,1,9,1,0,0,0]],"branches":[]}"#;

#[test]
fn counts_as_floats_and_huge_values() {
    let record = r#"{"name":"f","count":1.8446744073709552e19,"filenames":["/a.rs"],
        "regions":[[1.0,1,1,9,3.0,0,0,0],[2,1,2,5,0.0,0,0,0]],"branches":[]}"#;
    let report = read_bytes("t.json", tiny("3.0.1", record, "1.0").as_bytes());
    let a = file(&report, "/a.rs");
    // The summary's lines ("1.0" of them) claim no miss, which the record's region at 0
    // proves: judged with the records.
    assert!(
        report.warnings[0].contains("the summary's regions 1/1, lines 1/1 claim fewer missed"),
        "{:?}",
        report.warnings
    );
    assert_eq!(a.summary.lines, c(1, 2));
    let records = functions(a);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].count, u64::MAX);
    assert_eq!(records[0].regions, c(1, 2));
    assert_eq!(records[0].lines, c(1, 2));
    // Branch data absent from records and summaries.
    assert!(!report.has_branch_data);
}

#[test]
fn supported_versions() {
    for version in ["2.0.0", "2.0.1", "3.0.0", "3.0.1", "3.1.0"] {
        let report = read_bytes(version, tiny(version, RECORD, "1").as_bytes());
        assert_eq!(report.files.len(), 1, "{version}");
    }
}

// ---------------------------------------------------------------------------------------------
// errors

#[test]
fn unknown_versions_are_refused_naming_the_supported_ones() {
    for version in ["4.0.0", "1.0", "x", ""] {
        let err = read_err(&tiny(version, RECORD, "1"));
        assert!(err.contains("unsupported"), "{version}: {err}");
        assert!(err.contains("2.x and 3.x"), "{version}: {err}");
    }
}

#[test]
fn unknown_version_after_data_of_another_shape_names_the_version() {
    // A future layout that this reader would choke on, with the version written last.
    let doc = r#"{"data":[{"files":[],"functions":[{"name":"f","count":1,"filenames":["/a"],
        "regions":[{"start":[1,1]}]}]}],"type":"llvm.coverage.json.export","version":"4.0.0"}"#;
    let err = read_err(doc);
    assert!(
        err.contains("\"4.0.0\"") && err.contains("2.x and 3.x"),
        "{err}"
    );
}

#[test]
fn missing_type_version_or_data() {
    let err = read_err("{}");
    assert!(
        err.starts_with("t.json: not an llvm-cov JSON export"),
        "{err}"
    );
    let err = read_err(r#"{"data":[],"type":"llvm.coverage.json.export"}"#);
    assert!(err.contains("no `version`"), "{err}");
    let err = read_err(r#"{"version":"3.1.0","type":"llvm.coverage.json.export"}"#);
    assert!(err.contains("no `data`"), "{err}");
    let err = read_err(r#"{"version":"3.1.0","data":[]}"#);
    assert!(err.contains("no `type`"), "{err}");
    let err = read_err(r#"{"version":"3.1.0","type":"something.else","data":[]}"#);
    assert!(err.contains("`type` is \"something.else\""), "{err}");
}

#[test]
fn empty_data_is_an_empty_report() {
    let report = read_bytes(
        "t.json",
        br#"{"version":"3.1.0","type":"llvm.coverage.json.export","data":[]}"#,
    );
    assert!(report.files.is_empty());
    assert!(!report.has_branch_data);
}

#[test]
fn bad_numbers_are_located_errors() {
    for (what, record) in [
        (
            "negative count",
            r#"{"name":"f","count":-1,"filenames":["/a.rs"],"regions":[]}"#,
        ),
        (
            "fractional count",
            r#"{"name":"f","count":1,"filenames":["/a.rs"],"regions":[[1,1,1,9,0.5,0,0,0]]}"#,
        ),
        (
            "string count",
            r#"{"name":"f","count":"1","filenames":["/a.rs"],"regions":[]}"#,
        ),
        (
            "short region",
            r#"{"name":"f","count":1,"filenames":["/a.rs"],"regions":[[1,1,1,9,0]]}"#,
        ),
        (
            "line above u32",
            r#"{"name":"f","count":1,"filenames":["/a.rs"],"regions":[[4294967296,1,1,9,0,0,0,0]]}"#,
        ),
        (
            "regions not an array",
            r#"{"name":"f","count":1,"filenames":["/a.rs"],"regions":{}}"#,
        ),
        (
            "missing regions",
            r#"{"name":"f","count":1,"filenames":["/a.rs"]}"#,
        ),
    ] {
        let err = read_err(&tiny("3.1.0", record, "1"));
        assert!(err.starts_with("t.json:"), "{what}: {err}");
        assert!(
            err.contains("not a valid llvm-cov JSON export"),
            "{what}: {err}"
        );
        // Located: `t.json:LINE:COL: …`.
        let mut parts = err.splitn(4, ':');
        parts.next();
        let line = parts.next().and_then(|l| l.parse::<u64>().ok());
        let col = parts.next().and_then(|l| l.parse::<u64>().ok());
        assert!(line.is_some() && col.is_some(), "{what}: {err}");
    }
    let err = read_err(&tiny("3.1.0", RECORD, "-1"));
    assert!(err.contains("-1"), "{err}");
    let err = read_err(&tiny("3.1.0", RECORD, "0"));
    assert!(err.contains("covered 1 above count 0"), "{err}");
}

#[test]
fn wrong_types_are_errors() {
    for doc in [
        r#"{"version":3,"type":"llvm.coverage.json.export","data":[]}"#,
        r#"{"version":"3.1.0","type":"llvm.coverage.json.export","data":{}}"#,
        r#"{"version":"3.1.0","type":"llvm.coverage.json.export","data":[{"files":{}}]}"#,
        r#"{"version":"3.1.0","type":"llvm.coverage.json.export","data":[{"functions":[]}]}"#,
        r#"{"version":"3.1.0","type":"llvm.coverage.json.export","data":[{"files":[{"filename":1}]}]}"#,
        r#"{"version":"3.1.0","type":"llvm.coverage.json.export","data":[{"files":[{"filename":"a"}]}]}"#,
        r#"{"version":"3.1.0","type":"llvm.coverage.json.export","data":[]} trailing"#,
        r#"{"version":"3.1.0","type":"llvm.coverage.json.export","data":[]}{}"#,
        "[]",
        "{\"data\":[",
    ] {
        let err = read_err(doc);
        assert!(err.starts_with("t.json"), "{doc}: {err}");
    }
}

#[test]
fn truncated_documents_are_located_errors() {
    let full = bytes("llvm/tricky_nightly_branch.json");
    for cut in [
        1,
        10,
        100,
        full.len() / 3,
        full.len() / 2,
        full.len() - 2,
        full.len() - 1,
    ] {
        let err = match llvm_json::read("cut.json", &full[..cut]) {
            Ok(_) => panic!("cut at {cut} read"),
            Err(err) => err.to_string(),
        };
        assert!(err.starts_with("cut.json:1:"), "{cut}: {err}");
        assert!(err.contains("ends early"), "{cut}: {err}");
    }
}

#[test]
fn every_prefix_of_a_small_export_fails_cleanly() {
    for json in ["llvm/c2_llvm14.json", "llvm/c3_macroheader_llvm22.json"] {
        let full = bytes(json);
        let text = String::from_utf8(full.clone()).expect("utf-8");
        let end = text.trim_end().len();
        for cut in 0..end {
            assert!(
                llvm_json::read(json, &full[..cut]).is_err(),
                "{json} cut at {cut}"
            );
        }
        assert!(llvm_json::read(json, &full).is_ok());
    }
}

// ---------------------------------------------------------------------------------------------
// shapes the fixtures do not hold

#[test]
fn unknown_root_keys_are_skipped_but_must_be_valid_json() {
    let doc = r#"{"extra":{"a":[1,2,{"b":null}]},"version":"3.1.0",
        "type":"llvm.coverage.json.export","data":[]}"#;
    let report = read_bytes("t.json", doc.as_bytes());
    assert!(report.files.is_empty());
    assert_eq!(
        report.kind,
        ReportKind::LlvmJson {
            version: "3.1.0".to_string(),
            summary_only: false
        }
    );
    let err = read_err(r#"{"extra":[1,}"#);
    assert!(
        err.starts_with("t.json:1:13: not valid JSON: expected value"),
        "{err}"
    );
}

#[test]
fn later_fields_of_regions_and_branches_are_skipped() {
    let record = r#"{"name":"f","count":1,"filenames":["/a.rs"],
        "regions":[[1,1,1,9,1,0,0,0,99,[1]]],"branches":[[1,1,1,9,1,0,0,0,4,7,{"x":1}]]}"#;
    let report = read_bytes("t.json", tiny("3.1.0", record, "1").as_bytes());
    let records = functions(file(&report, "/a.rs"));
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].regions, c(1, 1));
    assert_eq!(records[0].branches, c(1, 2));
    assert!(report.has_branch_data);
}

#[test]
fn records_without_a_region_are_dropped() {
    let records =
        format!(r#"{RECORD},{{"name":"g","count":0,"filenames":["/a.rs"],"regions":[]}}"#);
    let report = read_bytes("t.json", tiny("3.1.0", &records, "1").as_bytes());
    let names: Vec<&str> = functions(file(&report, "/a.rs"))
        .iter()
        .map(|f| &*f.name)
        .collect();
    assert_eq!(names, ["f"]);
}

#[test]
fn a_summary_covering_more_than_it_counts_is_an_error() {
    for bad in [
        "regions",
        "functions",
        "instantiations",
        "lines",
        "branches",
    ] {
        let counts: Vec<String> = [
            "lines",
            "functions",
            "instantiations",
            "regions",
            "branches",
        ]
        .iter()
        .map(|metric| {
            let covered = if *metric == bad { 2 } else { 1 };
            format!(r#""{metric}":{{"count":1,"covered":{covered}}}"#)
        })
        .collect();
        let doc = format!(
            r#"{{"version":"3.1.0","type":"llvm.coverage.json.export",
               "data":[{{"files":[{{"filename":"/a.rs","summary":{{{}}}}}]}}]}}"#,
            counts.join(",")
        );
        let err = read_err(&doc);
        assert!(err.starts_with("t.json:2:"), "{bad}: {err}");
        assert!(
            err.contains(&format!(
                "not a valid llvm-cov JSON export: summary `{bad}` has covered 2 above count 1"
            )),
            "{bad}: {err}"
        );
    }
}

#[test]
fn exports_and_function_lists_of_the_wrong_type_say_what_was_expected() {
    let head = r#"{"version":"3.1.0","type":"llvm.coverage.json.export","data":"#;
    let err = read_err(&format!("{head}[1]}}"));
    assert!(
        err.contains("expected an export object {files, functions, totals}"),
        "{err}"
    );
    let err = read_err(&format!(r#"{head}[{{"files":[],"functions":{{}}}}]}}"#));
    assert!(
        err.contains("expected `functions`: an array of function records"),
        "{err}"
    );
    let err = read_err(&tiny(
        "3.1.0",
        r#"{"name":"f","count":1,"filenames":["/a.rs"],"regions":[],"branches":[7]}"#,
        "1",
    ));
    assert!(err.contains("expected a branch [line_start"), "{err}");
}
