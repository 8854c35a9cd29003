//! llvm-cov JSON summaries against the file's function records (breaker session 14, finding
//! 1, the JSON half): a summary that claims more covered than the records show is not
//! trusted, the file is counted from its records with a warning, as an LCOV section whose
//! declared totals claim more than its records is (`declared_totals.rs`).

use crate::common::{metric, Sandbox};

/// A summary pair.
fn pair(covered: u64, count: u64) -> String {
    format!(r#"{{"count":{count},"covered":{covered}}}"#)
}

/// A file summary: regions, functions, instantiations, lines and branches as (covered, count).
fn summary(pairs: [(u64, u64); 5]) -> String {
    let [regions, functions, instantiations, lines, branches] = pairs.map(|(c, n)| pair(c, n));
    format!(
        r#"{{"regions":{regions},"functions":{functions},"instantiations":{instantiations},"lines":{lines},"branches":{branches}}}"#
    )
}

/// A record of `src/lib.rs`: `name`, its execution count, the counts of its regions on lines
/// 1 (the entry), 2 and 3, and its branches' sides (true, false) on line 2.
fn record(name: &str, count: u64, regions: [u64; 3], branches: &[(u64, u64)]) -> String {
    let [one, two, three] = regions;
    let branches: Vec<String> = branches
        .iter()
        .map(|(t, f)| format!("[2,5,2,9,{t},{f},0,0,4]"))
        .collect();
    format!(
        r#"{{"name":"{name}","count":{count},"filenames":["src/lib.rs"],"regions":[[1,1,1,20,{one},0,0,0],[2,1,2,20,{two},0,0,0],[3,1,3,20,{three},0,0,0]],"branches":[{}]}}"#,
        branches.join(",")
    )
}

/// An export of `src/lib.rs` with `summary` and `records`.
fn export(summary: &str, records: &[String]) -> String {
    format!(
        r#"{{"type":"llvm.coverage.json.export","version":"2.0.1","data":[{{"files":[{{"filename":"src/lib.rs","summary":{summary}}}],"functions":[{}]}}]}}"#,
        records.join(",")
    )
}

/// The JSON run of `covgate check cov.json` on `report`, in a sandbox with `src/lib.rs` (three
/// lines) and a policy that measures `metrics`.
fn check(report: &str, metrics: &str) -> crate::common::Run {
    let sb = Sandbox::new();
    sb.write("src/lib.rs", "pub fn g() -> u8 {\n    1\n}\n");
    sb.policy(&format!("[measure]\nmetrics = [{metrics}]\n"));
    sb.write("cov.json", report);
    sb.run(&["check", "cov.json", "--format", "json"])
}

/// A summary at 100%: 3 regions, 1 function (1 instantiation), 3 lines, `sides` branch sides.
fn full(sides: u64) -> String {
    summary([(3, 3), (1, 1), (1, 1), (3, 3), (sides, sides)])
}

#[test]
fn functions_of_records_that_never_ran_fail_under_a_full_summary() {
    let run = check(
        &export(&full(0), &[record("g", 0, [0, 0, 0], &[])]),
        r#""functions""#,
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "functions"), "0/1 fail");
    assert!(
        run.stderr.contains("cov.json: src/lib.rs: the summary's regions 3/3, functions 1/1, instantiations 1/1, lines 3/3 claim more covered than the file's function records show (regions: at most 0 from the records, counted 0/3; functions: at most 0 from the records, counted 0/1;"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("covgate counts the records"),
        "{}",
        run.stderr
    );
}

#[test]
fn lines_that_no_region_that_ran_spans_fail_under_a_full_summary() {
    // The function ran (its entry, line 1), lines 2 and 3 did not.
    let run = check(
        &export(&full(0), &[record("g", 1, [1, 0, 0], &[])]),
        r#""lines""#,
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "lines"), "1/3 fail");
    assert!(
        run.stderr
            .contains("lines: at most 1 from the records, counted 1/3"),
        "{}",
        run.stderr
    );
}

#[test]
fn regions_that_never_ran_fail_under_a_full_summary() {
    let run = check(
        &export(&full(0), &[record("g", 1, [1, 1, 0], &[])]),
        r#""regions""#,
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "regions"), "2/3 fail");
    assert!(
        run.stderr.contains("the summary's regions 3/3, lines 3/3 claim more covered than the file's function records show (regions: at most 2 from the records, counted 2/3;"),
        "{}",
        run.stderr
    );
}

#[test]
fn branch_sides_that_never_ran_fail_under_a_full_summary() {
    let run = check(
        &export(&full(2), &[record("g", 1, [1, 1, 1], &[(1, 0)])]),
        r#""branches""#,
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "branches"), "1/2 fail");
    assert!(
        run.stderr.contains("the summary's branch sides 2/2 claim more covered than the file's function records show (branch sides: at most 1 from the records, counted 1/2;"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_generic_with_one_instantiation_run_and_one_not_passes() {
    // One group (same first region): `g::<u8>` ran everything, `g::<u16>` nothing. llvm-cov
    // counts the best instantiation: 3/3 regions and lines, 1/1 functions, 1 of 2 instantiations.
    let records = [
        record("_RINvCs1_1c1ghEB2_", 1, [1, 1, 1], &[(1, 1)]),
        record("_RINvCs1_1c1gtEB2_", 0, [0, 0, 0], &[(0, 0)]),
    ];
    let summary = summary([(3, 3), (1, 1), (1, 2), (3, 3), (2, 2)]);
    let run = check(
        &export(&summary, &records),
        r#""regions", "functions", "lines", "branches""#,
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "regions"), "3/3 pass");
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "1/1 pass");
    assert_eq!(metric(&doc, "src/lib.rs", "branches"), "2/2 pass");
    assert!(!run.stderr.contains("claim more covered"), "{}", run.stderr);
}

#[test]
fn a_file_below_full_is_weighed_against_its_kept_records_too() {
    // 2 of 3 lines claimed (the file keeps its misses), none ran: 0 of 3 under a 50% threshold.
    let summary = summary([(2, 3), (1, 1), (1, 1), (2, 3), (0, 0)]);
    let sb = Sandbox::new();
    sb.write("src/lib.rs", "pub fn g() -> u8 {\n    1\n}\n");
    sb.policy("[measure]\nmetrics = [\"lines\"]\nthreshold = 50\n");
    sb.write(
        "cov.json",
        &export(&summary, &[record("g", 0, [0, 0, 0], &[])]),
    );
    let run = sb.run(&["check", "cov.json", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "lines"), "0/3 fail");
    assert!(
        run.stderr.contains("lines 2/3 claim more"),
        "{}",
        run.stderr
    );
}

#[test]
fn standard_input_that_needs_a_second_read_is_refused() {
    let sb = Sandbox::new();
    sb.write("src/lib.rs", "pub fn g() -> u8 {\n    1\n}\n");
    sb.policy("[measure]\nmetrics = [\"functions\"]\n");
    let text = export(&full(0), &[record("g", 0, [0, 0, 0], &[])]);
    let run = crate::common::covgate_with_stdin(sb.path(), &["check", "-"], Some(text.as_bytes()));
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("<stdin>: src/lib.rs: the export's summary claims more covered than the file's function records show"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("give the export as a regular file"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_real_export_whose_records_were_zeroed_fails_and_the_original_passes() {
    let sb = Sandbox::copy_of("declared/json-zeroed");
    sb.policy("[measure]\ninclude = [\"src/a.rs\"]\n");
    let remap = "/work/breaker14/t/c1=.";
    let args = |report| {
        [
            "check",
            report,
            "--remap-path-prefix",
            remap,
            "--format",
            "json",
        ]
    };
    let run = sb.run(&args("covb-original.json"));
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/a.rs", "regions"), "3/3 pass");
    let run = sb.run(&args("covb-zeroed.json"));
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/a.rs", "regions"), "0/3 fail");
    assert_eq!(metric(&doc, "src/a.rs", "functions"), "0/1 fail");
    assert_eq!(metric(&doc, "src/a.rs", "lines"), "0/1 fail");
    let warnings = doc["facts"]["warnings"].to_string();
    assert!(
        warnings.contains("covb-zeroed.json: /work/breaker14/t/c1/src/a.rs: the summary's regions 3/3, functions 1/1, instantiations 1/1, lines 1/1 claim more covered"),
        "{warnings}"
    );
}
