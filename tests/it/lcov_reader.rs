//! The LCOV reader on real tracefiles: the generator corpus (`fixtures/lcov`), the failure cases
//! (`fixtures/cases`), and llvm-cov exports checked against the `llvm-cov report` tables beside
//! them (`fixtures/llvm`, `fixtures/real`).

use std::path::{Path, PathBuf};

use covgate::model::Counts;
use covgate::report::lcov::{self, LcovFile};
use covgate::report::{self, FileCoverage, Report, ReportKind};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

fn bytes(rel: &str) -> Vec<u8> {
    std::fs::read(fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn read(rel: &str) -> Report {
    let report = report::read(rel, &bytes(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert_eq!(report.kind, ReportKind::Lcov, "{rel}");
    let has_brda = bytes(rel).windows(5).any(|w| w == b"BRDA:");
    assert_eq!(report.has_branch_data, has_brda, "{rel}");
    report
}

fn read_err(rel: &str) -> String {
    match report::read(rel, &bytes(rel)) {
        Ok(_) => panic!("{rel}: expected an error"),
        Err(e) => e.message().to_string(),
    }
}

/// The one file whose path ends with `suffix`.
fn file<'a>(report: &'a Report, suffix: &str) -> &'a LcovFile {
    let hits: Vec<&LcovFile> = report
        .files
        .iter()
        .filter(|f| f.path.ends_with(suffix))
        .map(|f| match &f.coverage {
            FileCoverage::Lcov(l) => &**l,
            FileCoverage::Llvm(_) => panic!("{}: not LCOV", f.path),
        })
        .collect();
    match hits.as_slice() {
        [one] => one,
        _ => panic!("{}: {} files end with {suffix}", report.origin, hits.len()),
    }
}

/// (covered, total) for lines, functions and branches.
type Numbers = [(u64, u64); 3];

fn numbers(f: &LcovFile) -> Numbers {
    let s = f.summary();
    assert_eq!(s.regions, None);
    let pair = |c: Option<Counts>| c.map(|c| (c.covered, c.total)).unwrap_or((u64::MAX, 0));
    [pair(s.lines), pair(s.functions), pair(s.branches)]
}

fn assert_numbers(report: &Report, suffix: &str, want: Numbers) {
    assert_eq!(
        numbers(file(report, suffix)),
        want,
        "{} {suffix}: [lines, functions, branches]",
        report.origin
    );
}

fn uncovered_function_names(f: &LcovFile) -> Vec<String> {
    f.uncovered_functions()
        .iter()
        .map(|u| u.function.name.to_string())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The generator corpus: every file reads, with its file count and one file's numbers. Expected
// numbers were counted from each file's own records (DA/BRDA/FN) and declared totals.

/// (fixture, files, one file's path suffix, [lines, functions, branches]).
const CORPUS: &[(&str, usize, &str, Numbers)] = &[
    (
        "cadence_flow_test.lcov",
        1,
        "Raffles",
        [(3, 36), (0, 0), (0, 0)],
    ),
    (
        "cargo_llvm_cov_actix_failwrap.lcov",
        7,
        "helpers/status_codes.rs",
        [(7, 23), (2, 7), (0, 0)],
    ),
    (
        "coveragepy_fn_endline.lcov",
        1,
        "cdisplayagain.py",
        [(738, 1176), (79, 117), (0, 0)],
    ),
    (
        "dart_flutter_abs.info",
        2,
        "schema/metadata.dart",
        [(20, 20), (0, 0), (0, 0)],
    ),
    (
        "foundry_forge_2025.info",
        9,
        "src/SendEarnFactory.sol",
        [(72, 72), (15, 15), (8, 17)],
    ),
    (
        "gcovr_exception_branches.lcov",
        1,
        "main.cpp",
        [(21, 24), (6, 6), (8, 16)],
    ),
    (
        "gcovr_fn_commas_same_line.lcov",
        2,
        "output/main.cpp",
        [(22, 22), (4, 4), (3, 4)],
    ),
    (
        "gcovr_template_function.lcov",
        1,
        "main.cpp",
        [(34, 36), (4, 4), (23, 30)],
    ),
    ("go_gcov2lcov.lcov", 1, "main.go", [(6, 7), (0, 0), (0, 0)]),
    (
        "grcov_empty_line.info",
        1,
        "aFile.js",
        // `FNF:6 FNH:3` declares a lower share than its 7 `FN` records (4 ran): the worse.
        [(27, 57), (3, 6), (3, 20)],
    ),
    (
        "grcov_relative_paths.info",
        3,
        "foo/./bar/./oof.cpp",
        [(2, 2), (1, 1), (0, 0)],
    ),
    (
        "istanbul_jest_posix.info",
        3,
        "src/account.js",
        [(49, 49), (6, 6), (8, 8)],
    ),
    (
        "istanbul_jest_windows_relpath.info",
        2,
        "app\\predictions\\prediction.js",
        [(19, 43), (3, 15), (5, 10)],
    ),
    (
        "jacoco2lcov_java.dat",
        15,
        "util/Utils.java",
        [(32, 358), (12, 122), (10, 356)],
    ),
    (
        "lcov1_geninfo_checksum.info",
        4,
        "src/main.c",
        [(11, 14), (2, 3), (4, 6)],
    ),
    (
        "lcov1_geninfo_initial.info",
        5,
        "src/main.c",
        [(0, 14), (0, 3), (0, 0)],
    ),
    (
        "lcov2_fnl_fna_mcdc_multiTN.info",
        1,
        "./test.c",
        [(4, 4), (1, 1), (2, 2)],
    ),
    (
        "lcov_exception_branch.info",
        1,
        "test.cpp",
        [(10, 16), (1, 1), (2, 6)],
    ),
    (
        "lcov_fn_commas_sf_space.dat",
        1,
        "my_file.cpp",
        [(0, 7), (0, 1), (0, 6)],
    ),
    (
        "local_coveragepy65_branch.lcov",
        1,
        "mod.py",
        [(12, 16), (0, 0), (4, 10)],
    ),
    (
        "local_llvmcov14_templates.lcov",
        1,
        "cpp tmpl/t.cpp",
        [(12, 13), (3, 4), (2, 4)],
    ),
];

/// Corpus files that are malformed on purpose, with the error's start.
const CORPUS_ERRORS: &[(&str, &str)] = &[
    // a truncated final record: `DA:590` with no count and no newline
    (
        "grcov_invalid_DA.info",
        "lcov/grcov_invalid_DA.info:479: DA: missing execution count",
    ),
    // lcov's own format stress test: negative and float counts
    (
        "lcov_format_stress.info",
        "lcov/lcov_format_stress.info:7: DA execution count `-3` is negative",
    ),
];

#[test]
fn every_corpus_file_is_covered_by_a_test() {
    let listed: Vec<&str> = CORPUS
        .iter()
        .map(|c| c.0)
        .chain(CORPUS_ERRORS.iter().map(|c| c.0))
        .collect();
    let dir = fixture("lcov");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut count = 0;
    for entry in entries {
        let name = entry.map(|e| e.file_name()).unwrap_or_default();
        let name = name.to_string_lossy();
        if name != "sources.tsv" {
            assert!(listed.contains(&name.as_ref()), "{name} has no test");
            count += 1;
        }
    }
    assert_eq!(count, listed.len());
}

#[test]
fn corpus_files_read_with_their_numbers() {
    for (name, files, suffix, want) in CORPUS {
        let report = read(&format!("lcov/{name}"));
        assert_eq!(report.files.len(), *files, "{name}: file count");
        assert_numbers(&report, suffix, *want);
    }
}

#[test]
fn malformed_corpus_files_are_errors_naming_the_line() {
    for (name, want) in CORPUS_ERRORS {
        let e = read_err(&format!("lcov/{name}"));
        assert!(e.starts_with(want), "{name}: {e}");
    }
}

#[test]
fn corpus_details() {
    // FN names with commas, end lines, `SF: ` with a leading space
    let r = read("lcov/lcov_fn_commas_sf_space.dat");
    assert_eq!(r.files[0].path, "my_file.cpp");
    let f = file(&r, "my_file.cpp");
    assert_eq!(f.functions()[0].start, Some(9));
    assert_eq!(f.functions()[0].end, Some(25));
    assert!(f.functions()[0]
        .name
        .starts_with("is_within_phase_offset_tolerance(Ouster1DriverConfig const&, std::"));
    assert_eq!(f.uncovered_lines(), [12, 15, 18, 22, 23, 24, 25]);

    // repeated DA lines are summed; a blank line inside a section is fine
    let r = read("lcov/grcov_empty_line.info");
    let f = file(&r, "aFile.js");
    assert!(f.lines().any(|l| l == (12, 2)));
    assert!(f
        .functions()
        .iter()
        .any(|x| x.name == "cubic-bezier(0.0, 0.0, 1.0, 1.0)" && x.start == Some(95)));

    // the text branch form `BRDA:40,0,0,condition,1`
    let r = read("lcov/lcov_exception_branch.info");
    let f = file(&r, "test.cpp");
    let sides: Vec<(u32, &str, &str, Option<u64>)> = f
        .uncovered_branches()
        .iter()
        .map(|b| (b.line, b.block.as_str(), b.branch.as_str(), b.taken))
        .collect();
    assert_eq!(
        sides,
        [
            (15, "e0", "1", Some(0)),
            (40, "0", "1,!condition", Some(0)),
            (42, "0", "0", None),
            (42, "0", "1", None)
        ]
    );

    // same-named functions on one line stay distinct
    let r = read("lcov/gcovr_fn_commas_same_line.lcov");
    assert_eq!(file(&r, "function.hpp").functions().len(), 4);

    // BRDA on line 0, DA checksums in base64
    let r = read("lcov/local_coveragepy65_branch.lcov");
    let f = file(&r, "mod.py");
    assert_eq!(f.branches().iter().filter(|b| b.line == 0).count(), 2);
    assert_eq!(f.uncovered_lines(), [3, 9, 10, 11]);

    // a section with no records is a file with nothing to count
    let r = read("lcov/lcov1_geninfo_initial.info");
    assert_numbers(&r, "<built-in>", [(0, 0), (0, 0), (0, 0)]);
}

#[test]
fn unknown_records_are_warnings_not_errors() {
    let text = b"SF:a.c\nDA:1,1\nFOO:bar\nend_of_record\n";
    let (report, warnings) =
        lcov::read_with_warnings("x.info", text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.files.len(), 1);
    assert_eq!(warnings, ["x.info:3: unknown record type `FOO` skipped"]);
}

// ---------------------------------------------------------------------------------------------
// The failure cases.

#[test]
fn case_01_no_branches_is_zero_of_zero() {
    let r = read("cases/01-no-branches-percent-zero/input.info");
    assert_eq!(r.files.len(), 2);
    assert_numbers(&r, "src/lib.rs", [(10, 10), (2, 2), (2, 2)]);
    assert_numbers(&r, "src/plain.rs", [(3, 3), (1, 1), (0, 0)]);
}

#[test]
fn case_02_declared_totals_of_instantiation_groups() {
    // every DA hit and both BRDA sides taken, but llvm-cov's LH/BRH say 8/9 and 1/2: the worse
    // answer wins for a single-section file; FNF/FNH count 2 groups for 3 FN records
    let r = read("cases/02-generic-instantiations-split/input.info");
    let f = file(&r, "src/lib.rs");
    assert_numbers(&r, "src/lib.rs", [(8, 9), (2, 2), (1, 2)]);
    assert_eq!(f.functions().len(), 3);
    assert_eq!(f.uncovered_lines(), Vec::<u32>::new());
}

#[test]
fn case_02_merged_with_itself_keeps_its_verdict_and_with_another_shard_drops_the_totals() {
    let r = read("cases/02-generic-instantiations-split/input.info");
    let single = file(&r, "src/lib.rs").clone();
    // The same tracefile twice: the declared totals still describe it (was a FAIL-to-PASS flip).
    let mut twice = single.clone();
    twice.merge(single.clone());
    assert_eq!(numbers(&twice), numbers(&single));
    assert_eq!(numbers(&twice), [(8, 9), (2, 2), (1, 2)]);
    // A shard that covers the items differently: the declared totals no longer hold, and the
    // records decide (the two instantiations of `is_negative`, line 1, are one function).
    let text = String::from_utf8(bytes("cases/02-generic-instantiations-split/input.info"))
        .expect("UTF-8");
    let other = text.replacen("\nDA:2,", "\nDA:2,0\nDA:200,", 1);
    assert_ne!(other, text);
    let shard = report::read("other.info", other.as_bytes()).expect("shard");
    let mut merged = single.clone();
    merged.merge(file(&shard, "src/lib.rs").clone());
    assert_eq!(numbers(&merged), [(10, 10), (2, 2), (2, 2)]);
}

const CASE_04: &str = "cases/04-lcov-duplicate-sf-shards";

#[test]
fn case_04_duplicate_sections_merge() {
    let r = read(&format!("{CASE_04}/input.info"));
    let paths: Vec<&str> = r.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["/ws/shards/src/lib.rs", "/ws/shards/src/parse.rs"]);
    assert_numbers(&r, "src/lib.rs", [(13, 13), (3, 3), (2, 2)]);
    assert_numbers(&r, "src/parse.rs", [(5, 5), (1, 1), (2, 2)]);
}

#[test]
fn case_04_each_shard_alone() {
    let a = read(&format!("{CASE_04}/input-shard-a.info"));
    assert_numbers(&a, "src/lib.rs", [(8, 13), (2, 3), (1, 2)]);
    assert_eq!(
        file(&a, "src/lib.rs").uncovered_lines(),
        [7, 20, 21, 22, 23]
    );
    assert_numbers(&a, "src/parse.rs", [(4, 5), (1, 1), (1, 2)]);
    assert_eq!(file(&a, "src/parse.rs").uncovered_lines(), [5]);

    let b = read(&format!("{CASE_04}/input-shard-b.info"));
    assert_numbers(&b, "src/lib.rs", [(8, 13), (2, 3), (1, 2)]);
    assert_eq!(
        file(&b, "src/lib.rs").uncovered_lines(),
        [5, 14, 15, 16, 17]
    );
    assert_numbers(&b, "src/parse.rs", [(4, 5), (1, 1), (1, 2)]);
    assert_eq!(file(&b, "src/parse.rs").uncovered_lines(), [3]);
}

#[test]
fn case_04_shards_merge_through_merge() {
    let a = read(&format!("{CASE_04}/input-shard-a.info"));
    let b = read(&format!("{CASE_04}/input-shard-b.info"));
    for suffix in ["src/lib.rs", "src/parse.rs"] {
        let mut merged = file(&a, suffix).clone();
        merged.merge(file(&b, suffix).clone());
        let whole = read(&format!("{CASE_04}/input.info"));
        assert_eq!(numbers(&merged), numbers(file(&whole, suffix)), "{suffix}");
    }
}

#[test]
fn case_04_raw_cat_is_split_at_the_glued_line() {
    let rel = format!("{CASE_04}/input-raw-cat.info");
    let (r, warnings) =
        lcov::read_with_warnings(&rel, &bytes(&rel)).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with(&format!("{rel}:46: `end_of_record` glued"))),
        "{warnings:?}"
    );
    assert_eq!(r.files.len(), 2);
    assert_numbers(&r, "src/lib.rs", [(13, 13), (3, 3), (2, 2)]);
    assert_numbers(&r, "src/parse.rs", [(5, 5), (1, 1), (2, 2)]);
    // no line of lib.rs lands under parse.rs
    let parse_lines: Vec<u32> = file(&r, "src/parse.rs").lines().map(|(l, _)| l).collect();
    assert_eq!(parse_lines, [1, 2, 3, 5, 7]);
}

#[test]
fn case_05_dash_branches_exist_and_are_not_covered() {
    let r = read("cases/05-brda-dash-never-executed/input.info");
    assert_numbers(&r, "mathx.c", [(4, 8), (1, 2), (2, 6)]);
    let m = file(&r, "mathx.c");
    assert_eq!(m.uncovered_lines(), [10, 12, 13, 14]);
    assert_eq!(uncovered_function_names(m), ["never_called"]);
    let dashes = m
        .uncovered_branches()
        .iter()
        .filter(|b| b.taken.is_none())
        .count();
    assert_eq!(dashes, 4);
    assert_numbers(&r, "main.c", [(3, 3), (1, 1), (0, 0)]);

    let r = read("cases/05-brda-dash-never-executed/input-line-hit-branch-dash.info");
    assert_numbers(&r, "src/Vault.sol", [(2, 3), (1, 1), (1, 2)]);
    assert_eq!(file(&r, "src/Vault.sol").uncovered_lines(), [7]);
}

#[test]
fn case_06_lcov2_records() {
    let (r, warnings) = lcov::read_with_warnings(
        "06",
        &bytes("cases/06-lcov2-ver-fnl-fna-records/input.info"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_numbers(&r, "src/shape.cpp", [(9, 9), (3, 3), (8, 8)]);
    let shape = file(&r, "src/shape.cpp");
    let ctor = &shape.functions()[0];
    assert_eq!((ctor.start, ctor.end, ctor.count), (Some(4), Some(8), 3));
    assert_eq!(ctor.aliases, ["_ZN5ShapeC1Ei", "_ZN5ShapeC2Ei"]);
    assert!(shape
        .branches()
        .iter()
        .any(|b| b.branch == "!(clampi(v, lo) < lo)" && b.taken == Some(1)));

    assert_numbers(&r, "src/legacy.c", [(2, 2), (1, 1), (0, 0)]);
    let legacy = &file(&r, "src/legacy.c").functions()[0];
    assert_eq!(
        (legacy.start, legacy.end, legacy.name.as_str()),
        (Some(1), Some(5), "legacy_sum")
    );
}

#[test]
fn case_09_files_in_report() {
    let r = read("cases/09-never-compiled-file-missing/input.info");
    assert_eq!(r.files.len(), 2);
    assert_numbers(&r, "src/lib.rs", [(7, 7), (2, 2), (0, 0)]);
    assert_numbers(&r, "src/sys/unix.rs", [(3, 3), (1, 1), (0, 0)]);
}

#[test]
fn case_10_empty_tracefile_is_an_error() {
    let rel = "cases/10-filter-regex-empties-report/input.info";
    assert!(bytes(rel).is_empty());
    let e = read_err(rel);
    assert!(e.contains("empty"), "{e}");
    let e = lcov::read(rel, b"").map(|_| ()).unwrap_err();
    assert!(e.message().contains("no `SF:` record"), "{e}");
}

#[test]
fn case_14_markers_ignored_by_the_reader() {
    let r = read("cases/14-inline-exclusion-markers/input-nightly.info");
    assert_numbers(&r, "src/lib.rs", [(9, 17), (2, 3), (0, 0)]);
    let lib = file(&r, "src/lib.rs");
    assert_eq!(lib.uncovered_lines(), [7, 12, 13, 14, 15, 16, 17, 18]);
    assert_eq!(
        uncovered_function_names(lib),
        ["_RNvCsgb65SHkxYlS_7markers10debug_dump"]
    );
    assert_numbers(&r, "src/control.rs", [(0, 3), (0, 1), (0, 0)]);
}

#[test]
fn case_16_test_code() {
    let r = read("cases/16-test-code-counted-in-src/input.info");
    assert_eq!(r.files.len(), 1);
    assert_numbers(&r, "src/lib.rs", [(13, 13), (3, 3), (0, 0)]);

    let r = read("cases/16-test-code-counted-in-src/input-raw-llvm-cov.info");
    assert_numbers(&r, "src/lib.rs", [(13, 13), (3, 3), (0, 0)]);
    assert_numbers(&r, "tests/api.rs", [(5, 6), (1, 1), (0, 0)]);
    assert_eq!(file(&r, "tests/api.rs").uncovered_lines(), [5]);
}

// ---------------------------------------------------------------------------------------------
// llvm-cov exports against the `llvm-cov report` table of the same data.

/// One row of an `llvm-cov report` table: name, then (count, missed) for functions, lines,
/// branches.
struct Row {
    name: String,
    functions: (u64, u64),
    lines: (u64, u64),
    branches: (u64, u64),
}

fn table(rel: &str) -> Vec<Row> {
    let text = String::from_utf8(bytes(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    text.lines().filter_map(row).collect()
}

fn row(line: &str) -> Option<Row> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let n = tokens.len().checked_sub(12)?;
    let (name, cols) = tokens.split_at(n);
    let num = |i: usize| cols.get(i).and_then(|t| t.parse::<u64>().ok());
    let name = name.join(" ");
    if name.is_empty() || name == "Filename" || name == "TOTAL" {
        return None;
    }
    Some(Row {
        name,
        functions: (num(3)?, num(4)?),
        lines: (num(6)?, num(7)?),
        branches: (num(9)?, num(10)?),
    })
}

fn as_missed(c: (u64, u64)) -> (u64, u64) {
    (c.1, c.1 - c.0)
}

fn check_against_table(lcov_rel: &str, table_rel: &str) {
    let report = read(lcov_rel);
    let rows = table(table_rel);
    assert_eq!(rows.len(), report.files.len(), "{lcov_rel}: file count");
    for row in rows {
        let f = file(&report, &row.name);
        let [lines, functions, branches] = numbers(f);
        let ctx = format!("{lcov_rel} {}", row.name);
        assert_eq!(as_missed(lines), row.lines, "{ctx}: lines (count, missed)");
        assert_eq!(
            as_missed(functions),
            row.functions,
            "{ctx}: functions (count, missed)"
        );
        // The declared BRF/BRH are llvm-cov's own, folded sides left out as its table does.
        assert_eq!(as_missed(branches), row.branches, "{ctx}: branches");
    }
}

#[test]
fn llvm_c_exports_match_their_tables() {
    check_against_table("llvm/c_llvm14.lcov", "llvm/c_llvm14_report.txt");
    check_against_table("llvm/c_llvm22.lcov", "llvm/c_llvm22_report.txt");
}

#[test]
fn llvm_rust_exports_match_their_tables() {
    check_against_table(
        "llvm/folded_nightly_branch.lcov",
        "llvm/folded_nightly_branch_report.txt",
    );
    check_against_table(
        "llvm/tricky_nightly_branch.lcov",
        "llvm/tricky_nightly_branch_report.txt",
    );
    check_against_table("llvm/tricky_stable.lcov", "llvm/tricky_stable_report.txt");
}

#[test]
fn real_crate_exports_match_their_tables() {
    check_against_table("real/semver.lcov", "real/semver.summary.txt");
    check_against_table(
        "real/walkdir.branch.lcov",
        "real/walkdir.branch.summary.txt",
    );
}

#[test]
fn llvm_copies_of_covered_functions_are_flagged() {
    // llvm-cov writes one FN per binary: `shared_used` has 4 records, one ran
    let r = read("llvm/tricky_stable.lcov");
    let common = file(&r, "shared/common.rs");
    let un = common.uncovered_functions();
    assert_eq!(un.len(), 6);
    assert!(un.iter().all(|u| u.shares_line_with_executed));
    assert_eq!(numbers(common)[1], (2, 2));
}

/// The counting rule each corpus tracefile gets, by its writer (docs/check.md, "Metrics and
/// verdicts"), and the warnings its declared totals earn: `llvm-cov` files are counted by their
/// declared `LF/LH`, `BRF/BRH`, `FNF/FNH`; the others by their records, with a warning (at the
/// line of `LF`, `BRF` or `FNF`) where a declared pair disagrees in a way the rule does not
/// explain.
const GENERATOR_RULES: &[(&str, &str, &[u64])] = &[
    ("cadence_flow_test.lcov", "records", &[]),
    ("cargo_llvm_cov_actix_failwrap.lcov", "llvm-cov", &[]),
    ("coveragepy_fn_endline.lcov", "records", &[]),
    ("dart_flutter_abs.info", "records", &[]),
    ("foundry_forge_2025.info", "records", &[]),
    ("gcovr_exception_branches.lcov", "records", &[]),
    ("gcovr_fn_commas_same_line.lcov", "records", &[]),
    ("gcovr_template_function.lcov", "records", &[]),
    ("go_gcov2lcov.lcov", "records", &[]),
    // SpiderMonkey: LF/LH count repeated DA records (explained); FNF:6 with 7 FN is not.
    ("grcov_empty_line.info", "records", &[15]),
    ("grcov_relative_paths.info", "records", &[]),
    ("istanbul_jest_posix.info", "records", &[]),
    ("istanbul_jest_windows_relpath.info", "records", &[]),
    ("jacoco2lcov_java.dat", "records", &[]),
    ("lcov1_geninfo_checksum.info", "records", &[]),
    ("lcov1_geninfo_initial.info", "records", &[]),
    // A hand-written lcov test input declaring BRH:2 where one side of two ran.
    ("lcov2_fnl_fna_mcdc_multiTN.info", "records", &[9, 30]),
    ("lcov_exception_branch.info", "records", &[]),
    ("lcov_fn_commas_sf_space.dat", "records", &[]),
    ("local_coveragepy65_branch.lcov", "records", &[]),
    ("local_llvmcov14_templates.lcov", "llvm-cov", &[]),
];

/// The declared pairs of a single-section file's text: [lines, functions, branches] as
/// (hit, found), `(0, 0)` for a pair not declared.
fn declared(text: &str, path: &str) -> Numbers {
    let section = text
        .split("end_of_record")
        .find(|s| s.contains(&format!("SF:{path}\n")))
        .unwrap_or_else(|| panic!("no section {path}"));
    let value = |tag: &str| {
        section
            .lines()
            .find_map(|l| l.strip_prefix(tag))
            .map_or(0, |v| v.trim().parse::<u64>().expect("a count"))
    };
    [
        (value("LH:"), value("LF:")),
        (value("FNH:"), value("FNF:")),
        (value("BRH:"), value("BRF:")),
    ]
}

#[test]
fn each_writer_is_counted_by_its_rule_with_its_warnings() {
    let mut seen = 0;
    for entry in std::fs::read_dir(fixture("lcov")).expect("corpus") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).expect("name");
        let Some(&(_, generator, lines)) = GENERATOR_RULES.iter().find(|(n, _, _)| *n == name)
        else {
            continue;
        };
        seen += 1;
        let rel = format!("lcov/{name}");
        let (report, warnings) =
            covgate::report::lcov::read_with_warnings(&rel, &bytes(&rel)).expect("reads");
        let at: Vec<u64> = warnings
            .iter()
            .filter(|w| w.contains("disagree with the section's records"))
            .map(|w| {
                let line = w.trim_start_matches(&format!("{rel}:"));
                line.split(':')
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("a line")
            })
            .collect();
        assert_eq!(at, lines, "{name}: {warnings:?}");
        if generator == "llvm-cov" {
            let text = String::from_utf8(bytes(&rel)).expect("text");
            for f in &report.files {
                let want = declared(&text, &f.path);
                assert_eq!(numbers(&f_lcov(f)), want, "{name} {}", f.path);
            }
        }
    }
    assert_eq!(
        seen,
        GENERATOR_RULES.len(),
        "every tracefile of the table is in the corpus"
    );
}

fn f_lcov(f: &covgate::report::FileData) -> LcovFile {
    match &f.coverage {
        covgate::report::FileCoverage::Lcov(file) => (**file).clone(),
        other => panic!("not LCOV: {other:?}"),
    }
}

/// Records on one line are one function when they are instantiations of it, as llvm-cov groups
/// them by position: names are compared with their instantiation taken out, but an operator's
/// symbol (`operator<` against `operator<<`) and a generic argument holding `->` are read whole.
#[test]
fn instantiations_group_by_name_without_cutting_operators_or_arrows() {
    let text = "TN:\nSF:src/ops.cpp\nFN:3,_ZN1SltERKS_\nFN:3,_ZN1SlsERKS_\n\
                FNDA:1,_ZN1SltERKS_\nFNDA:0,_ZN1SlsERKS_\nDA:3,1\nend_of_record\n\
                SF:src/lib.rs\nFN:7,_RINvC1a1fFEhE\nFN:7,_RINvC1a1fhE\n\
                FNDA:1,_RINvC1a1fFEhE\nFNDA:0,_RINvC1a1fhE\nDA:7,1\nend_of_record\n";
    let report = report::read("mixed.info", text.as_bytes()).expect("reads");
    // Two operators on line 3: `operator<<` never ran (not hidden behind `operator<`).
    let ops = file(&report, "ops.cpp");
    assert_eq!(numbers(ops)[1], (1, 2));
    assert_eq!(
        ops.missed_functions(),
        [(Some(3), "_ZN1SlsERKS_".to_string())]
    );
    // `a::f::<fn() -> u8>` and `a::f::<u8>`: one function, covered.
    let lib = file(&report, "lib.rs");
    assert_eq!(numbers(lib)[1], (1, 1));
    assert!(lib.missed_functions().is_empty());
}
