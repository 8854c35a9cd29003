//! What the table and the JSON say about a verdict, end to end through the binary: the uncovered
//! items under each failing file (llvm-cov branch sides with columns, LCOV sides never taken or
//! never evaluated, functions with and without a start line), the notes that stand for items a
//! summary cannot name, `--items` truncation, `--show all`, and excluded files that a report
//! names.

use crate::common;

use common::{fixture, Run, Sandbox};
use serde_json::Value;

const ALL: &str = "[measure]\ninclude = [\"**\"]\nmetrics = [\"regions\", \"branches\", \"functions\", \"lines\"]\n";
const LCOV: &str =
    "[measure]\ninclude = [\"**\"]\nmetrics = [\"branches\", \"functions\", \"lines\"]\n";

/// Runs `covgate check REPORT --root ROOT --no-walk EXTRA...` in a sandbox holding `policy`.
fn check(policy: &str, report: &str, root: &str, extra: &[&str]) -> Run {
    let sandbox = Sandbox::new();
    sandbox.policy(policy);
    let mut args = vec!["check", report, "--root", root, "--no-walk"];
    args.extend_from_slice(extra);
    sandbox.run(&args)
}

fn fixture_path(rel: &str) -> String {
    fixture(rel).display().to_string()
}

/// The text after `    METRIC: ` in the uncovered list under `PATH — uncovered:`, if listed.
fn listed(stdout: &str, path: &str, metric: &str) -> Option<String> {
    let head = format!("{path} — uncovered:");
    let mut lines = stdout.lines().skip_while(|l| *l != head).skip(1);
    let prefix = format!("    {metric}: ");
    lines
        .by_ref()
        .take_while(|l| l.starts_with("    "))
        .find_map(|l| l.strip_prefix(&prefix).map(str::to_string))
}

/// The notes under `    METRIC: …` in the uncovered list under `PATH — uncovered:`: the
/// `      note: ` lines that follow it, each on its own line.
fn notes(stdout: &str, path: &str, metric: &str) -> Vec<String> {
    let head = format!("{path} — uncovered:");
    let prefix = format!("    {metric}: ");
    stdout
        .lines()
        .skip_while(|l| *l != head)
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .skip_while(|l| !l.starts_with(&prefix))
        .skip(1)
        .map_while(|l| l.strip_prefix("      note: ").map(str::to_string))
        .collect()
}

/// The body rows of the table, each as its trimmed cells.
fn rows(stdout: &str) -> Vec<Vec<String>> {
    let mut rows: Vec<Vec<String>> = Vec::new();
    for line in stdout.lines().filter(|l| l.starts_with('│')) {
        let cells: Vec<String> = line
            .trim_matches('│')
            .split('┆')
            .map(|c| c.trim().to_string())
            .collect();
        match rows.last_mut() {
            // A row whose first cell is empty continues the one above (a wrapped note).
            Some(last) if cells[0].is_empty() => {
                for (kept, more) in last.iter_mut().zip(cells) {
                    if !more.is_empty() {
                        kept.push(' ');
                        kept.push_str(&more);
                    }
                }
            }
            _ => rows.push(cells),
        }
    }
    rows.retain(|cells| cells[0] != "File");
    rows
}

/// One uncovered item of the JSON output, written as the table writes it (with the
/// instantiation it comes from, when named).
fn item_text(metric: &str, item: &Value) -> String {
    let from = item["instantiation"]
        .as_str()
        .map_or_else(String::new, |name| format!(" (in {name})"));
    format!("{}{from}", bare_item_text(metric, item))
}

fn bare_item_text(metric: &str, item: &Value) -> String {
    match metric {
        "regions" => format!(
            "{}:{}-{}:{}",
            item["line_start"], item["col_start"], item["line_end"], item["col_end"]
        ),
        "branches" => match item["column"].as_u64() {
            Some(col) => format!(
                "{}:{col} {} {}",
                item["line"],
                item["side"].as_str().unwrap(),
                item["what"].as_str().unwrap()
            ),
            None => format!(
                "{} {} {}",
                item["line"],
                item["side"].as_str().unwrap(),
                item["what"].as_str().unwrap()
            ),
        },
        "functions" => match item["line"].as_u64() {
            Some(line) => format!("{} (line {line})", item["name"].as_str().unwrap()),
            None => item["name"].as_str().unwrap().to_string(),
        },
        _ if item["start"] == item["end"] => item["start"].to_string(),
        _ => format!("{}-{}", item["start"], item["end"]),
    }
}

/// Checks that, for every failing metric of every failing file of the JSON document, the table
/// lists exactly the JSON's items (and notes) in the same order; returns how many lines matched.
fn table_matches_json(table: &str, doc: &Value) -> usize {
    let mut matched = 0;
    for file in doc["files"].as_array().expect("files") {
        if file["status"] != "fail" {
            assert!(file.get("uncovered").is_none(), "{file}");
            continue;
        }
        let path = file["path"].as_str().unwrap();
        for metric in ["regions", "branches", "functions", "lines"] {
            let items: Vec<String> = file["uncovered"][metric]
                .as_array()
                .unwrap()
                .iter()
                .map(|item| item_text(metric, item))
                .collect();
            let noted: Vec<String> = file["uncovered"]["notes"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|note| note["metric"] == metric)
                .map(|note| note["note"].as_str().unwrap().to_string())
                .collect();
            // Notes stand apart from the items, on lines of their own.
            let expected = match (items.is_empty(), noted.is_empty()) {
                (true, true) => None,
                (true, false) => Some("none named".to_string()),
                (false, _) => Some(items.join(", ")),
            };
            assert_eq!(listed(table, path, metric), expected, "{path} {metric}");
            assert_eq!(notes(table, path, metric), noted, "{path} {metric}");
            matched += usize::from(expected.is_some());
        }
    }
    matched
}

#[test]
fn llvm_branch_sides_are_listed_with_their_columns_and_truncated_by_items() {
    let report = fixture_path("llvm/tricky_nightly_branch.json");
    let run = check(ALL, &report, "/ci", &["--items", "3"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let out = &run.stdout;
    let common = "samples/tricky/shared/common.rs";
    assert_eq!(
        listed(out, common, "branches").as_deref(),
        Some("3:8 true never taken")
    );
    assert_eq!(
        listed(out, common, "regions").as_deref(),
        Some("4:9-4:14, 12:14-12:17, 14:14-14:17")
    );
    assert_eq!(listed(out, common, "functions"), None, "2/2 passes");
    let lib = "samples/tricky/src/lib.rs";
    assert_eq!(
        listed(out, lib, "branches").as_deref(),
        Some("19:88 true never taken, 36:8 true never taken, 50:20 false never taken … and 6 more")
    );
    assert_eq!(
        listed(out, lib, "lines").as_deref(),
        Some("37, 48, 50-51 … and 2 more")
    );
    assert_eq!(
        listed(out, lib, "functions").as_deref(),
        Some("tricky::never_called (line 68)")
    );
    let main = "samples/tricky/src/main.rs";
    assert_eq!(listed(out, main, "branches"), None, "0 of 0 is vacuous");
    assert_eq!(
        listed(out, main, "functions").as_deref(),
        Some("tricky::main (line 4)")
    );

    // With room for every item, the table lists exactly what the JSON output lists.
    let full = check(ALL, &report, "/ci", &["--items", "1000"]);
    assert!(!full.stdout.contains(" … and "), "{}", full.stdout);
    let json = check(ALL, &report, "/ci", &["--format", "json"]);
    assert_eq!(json.code, 1);
    assert_eq!(table_matches_json(&full.stdout, &json.json()), 18);
}

#[test]
fn lcov_sides_never_taken_and_never_evaluated_and_functions_without_a_line() {
    let sandbox = Sandbox::new();
    sandbox.policy(LCOV);
    // a.c (records counted): side 0 count 0 (never taken), side 1 `-` (never evaluated), side
    // 2 taken; `g` shares its start line with `f`, which ran, but is another function: named,
    // with `h` and the `FN`-less `orphan`.
    // b.c and c.c (llvm-cov's, declared totals counted): b.c's declared LH says one line is
    // missed where every DA line ran, so lines get a note; c.c's FNF/FNH miss two functions
    // (two on line 1, at two columns) where the records name one.
    sandbox.write(
        "t.info",
        "TN:\nSF:/ws/a.c\nFN:1,f\nFN:1,g\nFN:5,h\nFNDA:1,f\nFNDA:0,g\nFNDA:0,h\nFNDA:0,orphan\n\
         DA:1,1\nDA:2,0\nDA:3,0\nDA:5,0\nBRDA:2,0,0,0\nBRDA:2,0,1,-\nBRDA:2,0,2,3\nend_of_record\n\
         SF:/ws/b.c\nFN:1,f\nFNDA:1,f\nFNF:1\nFNH:1\nDA:1,1\nDA:2,1\nLF:2\nLH:1\nend_of_record\n\
         SF:/ws/c.c\nFN:1,f\nFN:5,g\nFNDA:1,f\nFNDA:0,g\nFNF:3\nFNH:1\nDA:1,1\nLF:1\nLH:1\nend_of_record\n",
    );
    let base = ["check", "t.info", "--root", "/ws", "--no-walk"];
    let run = sandbox.run(&base);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let out = &run.stdout;
    assert_eq!(
        listed(out, "a.c", "branches").as_deref(),
        Some("2 block 0 branch 0 never taken, 2 block 0 branch 1 never evaluated")
    );
    assert_eq!(
        listed(out, "a.c", "functions").as_deref(),
        Some("orphan, g (line 1), h (line 5)")
    );
    assert_eq!(listed(out, "a.c", "lines").as_deref(), Some("2-3, 5"));
    assert_eq!(listed(out, "b.c", "functions"), None);
    // A note stands on its own line under its metric, which names no item.
    assert_eq!(listed(out, "b.c", "lines").as_deref(), Some("none named"));
    let note = &notes(out, "b.c", "lines")[0];
    assert!(
        note.starts_with("the tracefile's declared summary (LH/BRH/FNH) counts fewer covered"),
        "{note}"
    );
    assert_eq!(
        listed(out, "c.c", "functions").as_deref(),
        Some("g (line 5)")
    );
    let note = &notes(out, "c.c", "functions")[0];
    assert!(
        note.starts_with(
            "1 of the 2 missed are named: the rest are missed only by the tracefile's declared \
             FNF/FNH"
        ),
        "{note}"
    );
    assert_eq!(listed(out, "b.c", "branches"), None, "no BRDA: vacuous");
    let cells: Vec<Vec<String>> = rows(out);
    assert_eq!(cells[0], ["a.c", "fail", "1/3 ✗", "1/4 ✗", "1/4 ✗"]);
    assert_eq!(cells[1], ["b.c", "fail", "—", "1/1", "1/2 ✗"]);
    assert_eq!(cells[2], ["c.c", "fail", "—", "1/3 ✗", "1/1"]);

    let mut one = base.to_vec();
    one.extend(["--items", "1"]);
    let run = sandbox.run(&one);
    assert_eq!(
        listed(&run.stdout, "a.c", "branches").as_deref(),
        Some("2 block 0 branch 0 never taken … and 1 more")
    );
    assert_eq!(
        listed(&run.stdout, "a.c", "functions").as_deref(),
        Some("orphan … and 2 more"),
        "the other functions"
    );
    assert_eq!(
        listed(&run.stdout, "c.c", "functions").as_deref(),
        Some("g (line 5)"),
        "the item; the note is not an item"
    );
    assert_eq!(notes(&run.stdout, "c.c", "functions").len(), 1);

    let mut json = base.to_vec();
    json.extend(["--format", "json"]);
    let doc = sandbox.run(&json).json();
    let a = common::file(&doc, "a.c");
    assert_eq!(a["uncovered"]["functions"][0]["line"], Value::Null);
    assert_eq!(a["uncovered"]["branches"][1]["what"], "never evaluated");
    assert_eq!(a["uncovered"]["branches"][1]["column"], Value::Null);
    let b = common::file(&doc, "b.c");
    assert_eq!(b["uncovered"]["lines"], serde_json::json!([]));
    assert_eq!(b["uncovered"]["notes"][0]["metric"], "lines");
    assert!(table_matches_json(out, &doc) >= 5);
}

#[test]
fn lcov_brda_dash_is_never_evaluated_in_the_table() {
    let report = fixture_path("cases/05-brda-dash-never-executed/input.info");
    let run = check(LCOV, &report, "/ws/cproj", &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        listed(&run.stdout, "mathx.c", "branches").as_deref(),
        Some(
            "12 block 0 branch 0 never evaluated, 12 block 0 branch 1 never evaluated, \
             12 block 0 branch 2 never evaluated, 12 block 0 branch 3 never evaluated"
        )
    );
    assert_eq!(
        listed(&run.stdout, "mathx.c", "functions").as_deref(),
        Some("never_called (line 10)")
    );
    assert_eq!(
        listed(&run.stdout, "mathx.c", "lines").as_deref(),
        Some("10, 12-14")
    );
    assert!(
        !run.stdout.contains("main.c — uncovered"),
        "main.c passes: {}",
        run.stdout
    );
}

#[test]
fn a_summary_only_export_lists_a_note_per_failing_metric() {
    let report = fixture_path("llvm/tricky_stable_summary_only.json");
    let run = check(ALL, &report, "/ci", &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let out = &run.stdout;
    let note = "the export holds no function detail (-summary-only): a full export names the items";
    let common = "samples/tricky/shared/common.rs";
    for metric in ["regions", "lines"] {
        assert_eq!(listed(out, common, metric).as_deref(), Some("none named"));
        assert_eq!(notes(out, common, metric), [note]);
    }
    assert_eq!(listed(out, common, "functions"), None, "2/2 passes");
    assert_eq!(
        listed(out, common, "branches"),
        None,
        "unavailable is not below the bar: it gets the hint under the table"
    );
    let asyncs = "samples/tricky/src/asyncs.rs";
    assert_eq!(notes(out, asyncs, "functions"), [note]);
    assert!(
        out.contains(
            "note: a report holds no branch data: an llvm-cov JSON export has it when made with"
        ),
        "{out}"
    );
    let cells = rows(out);
    assert_eq!(
        cells[0],
        [common, "fail", "8/11 ✗", "n/a ✗", "2/2", "8/11 ✗"]
    );

    let json = check(ALL, &report, "/ci", &["--format", "json"]);
    let doc = json.json();
    let notes = &common::file(&doc, common)["uncovered"]["notes"];
    assert_eq!(
        notes,
        &serde_json::json!([
            {"metric": "regions", "note": note},
            {"metric": "lines", "note": note},
        ])
    );
    assert_eq!(table_matches_json(out, &doc), 14);
}

/// A copy of case 09's crate excluding `src/sys/unix.rs` (which the report names) and
/// `src/extra.rs` (which it does not).
fn excluding_sandbox() -> Sandbox {
    let sandbox = Sandbox::copy_of("cases/09-never-compiled-file-missing/crate");
    sandbox.policy(
        "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n\n\
         [[exclude]]\npath = \"src/sys/unix.rs\"\nreason = \"platform shim, tested on CI hosts\"\n\n\
         [[exclude]]\npath = \"src/extra.rs\"\nreason = \"behind feature extra\"\n",
    );
    sandbox
}

fn run_case09(sandbox: &Sandbox, extra: &[&str]) -> Run {
    let report = fixture_path("cases/09-never-compiled-file-missing/input.json");
    let remap = format!("/ws/partial={}", sandbox.path().display());
    let mut args = vec!["check", &report, "--remap-path-prefix", &remap];
    args.extend_from_slice(extra);
    sandbox.run(&args)
}

#[test]
fn show_all_lists_every_file_with_its_status_and_reason() {
    let sandbox = excluding_sandbox();
    let run = run_case09(&sandbox, &["--show", "all"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let has_code = "in no report, but has code";
    assert_eq!(
        rows(&run.stdout),
        [
            vec!["src/orphan.rs", "unmeasured", "", "", "", has_code],
            vec!["src/sys/windows.rs", "unmeasured", "", "", "", has_code],
            // The documented order: failing files first, then every other file in path order.
            vec![
                "src/extra.rs",
                "excluded",
                "",
                "",
                "",
                "behind feature extra"
            ],
            vec!["src/lib.rs", "pass", "9/9", "2/2", "7/7", ""],
            vec!["src/sys/mod.rs", "no-code", "", "", "", ""],
            vec![
                "src/sys/unix.rs",
                "excluded",
                "",
                "",
                "",
                "platform shim, tested on CI hosts"
            ],
        ]
    );
    assert!(
        !run.stdout.contains("— uncovered:"),
        "unmeasured files have no items: {}",
        run.stdout
    );
    assert!(run.stdout.contains(
        "1 measured: 1 passed, 0 failed; 2 unmeasured, 2 excluded, 1 no code, 0 outside include\n"
    ));
    assert!(run.stdout.ends_with("covgate: FAIL\n"), "{}", run.stdout);

    // The default lists only the failing (here: unmeasured) files.
    let run = run_case09(&sandbox, &[]);
    assert_eq!(run.code, 1);
    let listed: Vec<String> = rows(&run.stdout)
        .into_iter()
        .map(|r| r[0].clone())
        .collect();
    assert_eq!(listed, ["src/orphan.rs", "src/sys/windows.rs"]);
}

#[test]
fn an_excluded_file_that_a_report_names_is_not_measured() {
    let sandbox = excluding_sandbox();
    let run = run_case09(&sandbox, &["--format", "json", "--show", "all"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    let unix = common::file(&doc, "src/sys/unix.rs");
    assert_eq!(
        unix,
        &serde_json::json!({
            "path": "src/sys/unix.rs",
            "status": "excluded",
            "metrics": {},
            "reason": "platform shim, tested on CI hosts",
        })
    );
    let orphan = common::file(&doc, "src/orphan.rs");
    assert_eq!(orphan["reason"], "in no report, but has code");
    assert!(orphan.get("uncovered").is_none(), "{orphan}");
    assert_eq!(doc["summary"]["excluded"], 2);
    assert_eq!(doc["summary"]["measured"], 1);
    assert_eq!(doc["verdict"], "fail");
}

#[test]
fn a_passing_check_lists_no_rows_unless_show_all() {
    let sandbox = Sandbox::copy_of("cases/09-never-compiled-file-missing/crate");
    sandbox.policy(
        "[measure]\ninclude = [\"src/lib.rs\", \"src/sys/*.rs\"]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n\n\
         [[exclude]]\npath = \"src/sys/windows.rs\"\nreason = \"cfg(windows)\"\n",
    );
    let run = run_case09(&sandbox, &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(rows(&run.stdout).is_empty(), "{}", run.stdout);
    assert!(!run.stdout.contains('┆'), "no table at all: {}", run.stdout);
    assert!(run.stdout.ends_with(
        "2 measured: 2 passed, 0 failed; 0 unmeasured, 1 excluded, 1 no code, 0 outside include\n\
         ignored by inline markers: 0 lines, 0 regions, 0 branch sides, 0 functions in 0 files\ncovgate: PASS\n"
    ), "{}", run.stdout);

    let run = run_case09(&sandbox, &["--show", "all"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let names: Vec<String> = rows(&run.stdout)
        .into_iter()
        .map(|r| r[0].clone())
        .collect();
    assert_eq!(
        names,
        [
            "src/lib.rs",
            "src/sys/mod.rs",
            "src/sys/unix.rs",
            "src/sys/windows.rs"
        ],
        "path order: no file fails"
    );
    assert!(run.stdout.ends_with("covgate: PASS\n"), "{}", run.stdout);

    let run = run_case09(&sandbox, &["--format", "json"]);
    assert_eq!(run.code, 0);
    let doc = run.json();
    assert_eq!(doc["verdict"], "pass");
    assert_eq!(doc["facts"]["walked"], true);
    let paths: Vec<&str> = doc["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f["path"].as_str().expect("path"))
        .collect();
    assert_eq!(
        paths, names,
        "the JSON lists the files in the table's order"
    );
}

#[test]
fn report_warnings_go_to_stderr_and_the_verdict_to_stdout() {
    let sandbox = Sandbox::new();
    sandbox.policy(LCOV);
    sandbox.write(
        "w.info",
        "SF:/ws/a.c\nFN:1,f\nFNDA:1,f\nBRDA:1,0,0,1\nBRDA:1,0,1,1\nDA:1,1\nend_of_record\nend_of_record\n",
    );
    let run = sandbox.run(&["check", "w.info", "--root", "/ws", "--no-walk"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stderr,
        "covgate: warning: w.info:8: `end_of_record` outside an `SF` section ignored\n"
    );
    assert!(run.stdout.ends_with("covgate: PASS\n"), "{}", run.stdout);
    // The machine and PR-comment outputs carry the warning too, among the facts.
    let format = |name: &str| {
        let run = sandbox.run(&[
            "check",
            "w.info",
            "--root",
            "/ws",
            "--no-walk",
            "--format",
            name,
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        run
    };
    assert_eq!(
        format("json").json()["facts"]["warnings"],
        serde_json::json!(["w.info:8: `end_of_record` outside an `SF` section ignored"])
    );
    let run = format("markdown");
    assert!(
        run.stdout.contains(
            "\n> ⚠️ warning: w.info:8: \\`end\\_of\\_record\\` outside an \\`SF\\` section ignored\n\
             > ⚠️ warning: --no-walk: the root was not searched"
        ),
        "{}",
        run.stdout
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_verdict_that_cannot_be_written_is_an_error() {
    let sandbox = Sandbox::new();
    sandbox.policy(LCOV);
    sandbox.write(
        "ok.info",
        "SF:/ws/a.c\nFN:1,f\nFNDA:1,f\nBRDA:1,0,0,1\nBRDA:1,0,1,1\nDA:1,1\nend_of_record\n",
    );
    // The table is written whole; JSON is written as it is serialised: both fail alike.
    for format in ["table", "json"] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("open /dev/full");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_covgate"))
            .args([
                "check",
                "ok.info",
                "--root",
                "/ws",
                "--no-walk",
                "--format",
                format,
            ])
            .current_dir(sandbox.path())
            .stdout(full)
            .output()
            .expect("run covgate");
        assert_eq!(out.status.code(), Some(2), "{format}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.starts_with("covgate: error: cannot write the result to stdout: "),
            "{format}: {stderr}"
        );
    }
}

#[test]
fn control_characters_from_a_report_are_escaped_in_every_text_output() {
    let sandbox = Sandbox::new();
    sandbox.policy("[measure]\ninclude = [\"**\"]\nmetrics = [\"lines\"]\n");
    sandbox.write("esc.info", "SF:/ws/a\u{1b}[31m.c\nDA:1,0\nend_of_record\n");
    sandbox.write(
        "bad.info",
        "SF:/ws/a.c\n\u{1b}]0;pwned\u{7}ZZ:1\nend_of_record\n",
    );
    let clean = |text: &str| !text.chars().any(|c| c.is_control() && c != '\n');
    for format in ["table", "markdown", "github"] {
        let run = sandbox.run(&[
            "check",
            "esc.info",
            "--root",
            "/ws",
            "--no-walk",
            "--format",
            format,
        ]);
        assert_eq!(run.code, 1, "{format}: {}", run.stderr);
        assert!(
            clean(&run.stdout) && clean(&run.stderr),
            "{format}: {} {}",
            run.stdout,
            run.stderr
        );
        assert!(run.stdout.contains("a\\u{1b}"), "{format}: {}", run.stdout);
    }
    let run = sandbox.run(&["check", "bad.info", "--root", "/ws", "--no-walk"]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(clean(&run.stderr), "{:?}", run.stderr);
    assert!(
        run.stderr.starts_with(
            "covgate: error: bad.info:2: `\\u{1b}]0;pwned\\u{7}ZZ:1` is not an LCOV record"
        ),
        "{}",
        run.stderr
    );
}

/// Output files are written through symbolic links, never over what is not a file of covgate's
/// to replace; an output that cannot be written stops the run (exit 2) before any verdict is
/// printed.
#[cfg(unix)]
#[test]
fn output_files_follow_links_and_never_replace_devices_fifos_or_read_only_files() {
    use std::os::unix::fs::{symlink, FileTypeExt, PermissionsExt};
    let sandbox = Sandbox::new();
    sandbox.policy(LCOV);
    sandbox.write(
        "ok.info",
        "SF:/ws/a.c\nFN:1,f\nFNDA:1,f\nBRDA:1,0,0,1\nBRDA:1,0,1,1\nDA:1,1\nend_of_record\n",
    );
    let run_to = |out: &str| {
        sandbox.run(&[
            "check",
            "ok.info",
            "--root",
            "/ws",
            "--no-walk",
            "--output-json",
            out,
        ])
    };
    // A link: its target is written, with its mode kept; the link stays.
    let real = sandbox.write("real.json", "old");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    symlink("real.json", sandbox.path().join("link.json")).expect("symlink");
    let run = run_to("link.json");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let meta = std::fs::symlink_metadata(sandbox.path().join("link.json")).expect("link");
    assert!(meta.file_type().is_symlink());
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&real).expect("read")).expect("JSON");
    assert_eq!(doc["verdict"], "pass");
    let mode = std::fs::metadata(&real).expect("meta").permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    // A character device is written into, not replaced.
    let run = run_to("/dev/null");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let null = std::fs::metadata("/dev/null").expect("null");
    assert!(null.file_type().is_char_device());
    // A FIFO and a read-only file (by its mode, so also for root) are refused, with no verdict.
    let fifo = sandbox.path().join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let run = run_to("fifo");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains("is not a regular file"),
        "{}",
        run.stderr
    );
    let locked = sandbox.write("out.json", "old");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let run = run_to("out.json");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains("out.json is read-only"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read_to_string(&locked).expect("read"), "old");
}

/// `check --tighten` rewrites the policy a link points to, keeping its mode, and leaves the
/// link a link.
#[cfg(unix)]
#[test]
fn tighten_writes_through_a_linked_policy() {
    use std::os::unix::fs::{symlink, PermissionsExt};
    let sandbox = Sandbox::new();
    sandbox.write("src/a.c", "int a;\n");
    sandbox.write("cov.info", "SF:src/a.c\nDA:1,1\nDA:2,0\nend_of_record\n");
    let real = sandbox.write(
        "conf/policy.toml",
        "[measure]\nmetrics = [\"lines\"]\ninclude = [\"src/**\"]\n\n[[debt]]\npath = \"src/a.c\"\nlines = 2\nreason = \"r\"\n",
    );
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let link = sandbox.path().join("coverage-policy.toml");
    symlink("conf/policy.toml", &link).expect("symlink");
    let run = sandbox.run(&["check", "cov.info", "--tighten"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(std::fs::symlink_metadata(&link)
        .expect("link")
        .file_type()
        .is_symlink());
    assert!(
        std::fs::read_to_string(&real)
            .expect("read")
            .contains("lines = 1\n"),
        "{}",
        run.stderr
    );
    let mode = std::fs::metadata(&real).expect("meta").permissions().mode();
    assert_eq!(mode & 0o777, 0o640);
}
