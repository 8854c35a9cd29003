//! End to end on clang: small C and C++ programs built at test time with
//! `-fprofile-instr-generate -fcoverage-mapping -fcoverage-mcdc`, run, exported with
//! `llvm-cov export`, and checked by covgate; every file's numbers (regions, functions, lines,
//! branches and MC/DC) must equal `llvm-cov report`'s, and a template's uncovered conditions
//! are listed from its best-covered instantiation.
//!
//! The tools are the newest `clang-N` (N from 22 down to 18, MC/DC needs 18) with its own
//! `llvm-profdata-N` and `llvm-cov-N`; `.ci/run` installs clang-19. Where none is installed the
//! tests print why and skip.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// `clang-N`, `llvm-profdata-N` and `llvm-cov-N` of one LLVM release.
struct Tools {
    clang: String,
    profdata: String,
    cov: String,
}

fn found(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn tools() -> Option<Tools> {
    (18..=22).rev().find_map(|n| {
        let tools = Tools {
            clang: format!("clang-{n}"),
            profdata: format!("llvm-profdata-{n}"),
            cov: format!("llvm-cov-{n}"),
        };
        (found(&tools.clang) && found(&tools.profdata) && found(&tools.cov)).then_some(tools)
    })
}

fn run(dir: &Path, program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("LLVM_PROFILE_FILE", dir.join("run.profraw"))
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const C_HEADER: &str = "#ifndef GATE_H\n#define GATE_H\nint door_may_open(int stopped, int unlocked, int override);\nstatic inline int twice(int x) { return x > 100 ? 200 : 2 * x; }\n#endif\n";

const C_SOURCE: &str = r#"#include "gate.h"

int door_may_open(int stopped, int unlocked, int override) {
  if ((stopped && unlocked) || override)
    return 1;
  return 0;
}

int never_called(int a, int b) {
  return a && b;
}
"#;

const C_MAIN: &str = r#"#include <stdio.h>
#include "gate.h"

int main(int argc, char **argv) {
  int n = door_may_open(1, 1, 0) + door_may_open(0, 0, 0) + door_may_open(1, 0, 1);
  if (argc > 1)
    n += door_may_open(1, 0, 0);
  printf("%d %d\n", n, twice(n));
  return 0;
}
"#;

const CPP_SOURCE: &str = r#"template <typename T> T clamp_to(T v, T lo, T hi) {
  if (v < lo && lo < hi)
    return lo;
  if (v > hi || hi < lo)
    return hi;
  return v;
}

int main() {
  int a = clamp_to<int>(5, 0, 3) + clamp_to<int>(-1, 0, 3) + clamp_to<int>(1, 0, 3);
  double b = clamp_to<double>(0.5, 0.0, 1.0);
  return a + (int)b == 4 ? 0 : 1;
}
"#;

/// Builds `sources` in `dir` with coverage and MC/DC, runs the program with `args`, and writes
/// `export.json`; gives `llvm-cov report`'s table.
fn build_and_export(t: &Tools, dir: &Path, sources: &[&str], args: &[&str]) -> String {
    let mut build = vec![
        "-O0",
        "-fprofile-instr-generate",
        "-fcoverage-mapping",
        "-fcoverage-mcdc",
        "-o",
        "prog",
    ];
    build.extend_from_slice(sources);
    run(dir, &t.clang, &build);
    run(dir, &dir.join("prog").display().to_string(), args);
    run(
        dir,
        &t.profdata,
        &["merge", "-o", "run.profdata", "run.profraw"],
    );
    let export = run(
        dir,
        &t.cov,
        &["export", "prog", "-instr-profile=run.profdata"],
    );
    std::fs::write(dir.join("export.json"), export).expect("export");
    run(
        dir,
        &t.cov,
        &[
            "report",
            "prog",
            "-instr-profile=run.profdata",
            "-show-branch-summary",
            "-show-mcdc-summary",
        ],
    )
}

/// `llvm-cov report` rows: file name → [regions, functions, lines, branches, mcdc] as
/// (covered, total).
fn report_rows(table: &str) -> Vec<(String, [(u64, u64); 5])> {
    table
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split_whitespace().collect();
            let [name, r, mr, _, f, mf, _, l, ml, _, b, mb, _, m, mm, _] = cells.as_slice() else {
                return None;
            };
            let n = |s: &str| s.parse::<u64>().ok();
            let pair = |total: &str, missed: &str| Some((n(total)? - n(missed)?, n(total)?));
            let row = [
                pair(r, mr)?,
                pair(f, mf)?,
                pair(l, ml)?,
                pair(b, mb)?,
                pair(m, mm)?,
            ];
            (*name != "TOTAL").then(|| (name.to_string(), row))
        })
        .collect()
}

/// covgate's numbers for every file, as the rows: a policy of all five metrics at 0 %. Gives
/// the exit code (1 when a file's MC/DC is unavailable) and the JSON document.
fn covgate_rows(dir: &Path) -> (i32, serde_json::Value) {
    std::fs::write(
        dir.join("coverage-policy.toml"),
        "[measure]\ninclude = [\"**/*.c\", \"**/*.h\", \"**/*.cpp\"]\n\
         metrics = [\"regions\", \"functions\", \"lines\", \"branches\", \"mcdc\"]\nthreshold = 0\n",
    )
    .expect("policy");
    let run = common::covgate(
        dir,
        &["check", "export.json", "--no-walk", "--format", "json"],
    );
    (run.code, run.json())
}

/// covgate's numbers equal `llvm-cov report`'s, except MC/DC of a file with branches but no
/// condition: llvm-cov says 0 of 0, covgate unavailable (the export cannot tell a build without
/// `-fcoverage-mcdc` from one whose decisions all have one condition), and the check fails.
fn compare(dir: &Path, table: &str) {
    let rows = report_rows(table);
    assert!(!rows.is_empty(), "no rows in\n{table}");
    let (code, doc) = covgate_rows(dir);
    let mut unavailable = false;
    for (name, mut want) in rows {
        if want[4] == (0, 0) && want[3].1 > 0 {
            want[4] = (u64::MAX, u64::MAX);
            unavailable = true;
        }
        // A lone file is named by its full path, several by their paths below a common folder.
        let name = Path::new(&name)
            .file_name()
            .map_or(name.clone(), |n| n.to_string_lossy().into_owned());
        let file = doc["files"]
            .as_array()
            .and_then(|files| {
                files.iter().find(|f| {
                    f["path"]
                        .as_str()
                        .is_some_and(|p| p.ends_with(&format!("/{name}")) || p == name)
                })
            })
            .unwrap_or_else(|| panic!("{name} not in {doc:#}"));
        let got: Vec<(u64, u64)> = ["regions", "functions", "lines", "branches", "mcdc"]
            .iter()
            .map(|m| {
                let m = &file["metrics"][m];
                (
                    m["covered"].as_u64().unwrap_or(u64::MAX),
                    m["total"].as_u64().unwrap_or(u64::MAX),
                )
            })
            .collect();
        assert_eq!(got, want, "{name}: covgate vs llvm-cov report\n{table}");
    }
    assert_eq!(code, i32::from(unavailable), "{doc:#}");
}

fn scratch(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().canonicalize().expect("canonical");
    for (name, text) in files {
        std::fs::write(path.join(name), text).expect("source");
    }
    (dir, path)
}

#[test]
fn c_numbers_equal_llvm_cov_report_mcdc_included() {
    let Some(t) = tools() else {
        eprintln!("skipped: no clang-N with llvm-profdata-N and llvm-cov-N (N = 18..22) installed; `.ci/run` installs clang-19 and llvm-19");
        return;
    };
    let (_keep, dir) = scratch(&[
        ("gate.h", C_HEADER),
        ("gate.c", C_SOURCE),
        ("main.c", C_MAIN),
    ]);
    // Run A: MC/DC 1 of 3 in `door_may_open`; run B adds the vector pairing the other two.
    let table = build_and_export(&t, &dir, &["gate.c", "main.c"], &[]);
    compare(&dir, &table);
    let (_, doc) = covgate_rows(&dir);
    let gate = common::file(&doc, "gate.c");
    assert_eq!(gate["metrics"]["mcdc"]["covered"], 1, "{gate}");
    assert_eq!(gate["metrics"]["mcdc"]["total"], 5, "{gate}");
    let table = build_and_export(&t, &dir, &["gate.c", "main.c"], &["all"]);
    compare(&dir, &table);
}

#[test]
fn cpp_numbers_equal_llvm_cov_report_and_conditions_are_listed() {
    let Some(t) = tools() else {
        eprintln!("skipped: no clang-N with llvm-profdata-N and llvm-cov-N (N = 18..22) installed; `.ci/run` installs clang-19 and llvm-19");
        return;
    };
    let clangxx = t.clang.replace("clang", "clang++");
    let t = Tools {
        clang: if found(&clangxx) { clangxx } else { t.clang },
        ..t
    };
    let (_keep, dir) = scratch(&[("clamp.cpp", CPP_SOURCE)]);
    let table = build_and_export(&t, &dir, &["clamp.cpp"], &[]);
    compare(&dir, &table);
    std::fs::write(
        dir.join("coverage-policy.toml"),
        "[measure]\ninclude = [\"**/*.cpp\"]\nmetrics = [\"regions\", \"branches\", \"mcdc\"]\n",
    )
    .expect("policy");
    let run = common::covgate(&dir, &["check", "export.json", "--no-walk"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    // `clamp_to<int>` takes every branch but `hi < lo`; `clamp_to<double>` ran once. The
    // group's best record is `clamp_to<int>`, and its misses are listed, with its name.
    assert!(
        run.stdout.contains(
            "mcdc: 2:17 in the decision at 2:7 (in clamp_to<int>), \
             4:17 in the decision at 4:7 (in clamp_to<int>)"
        ) && run.stdout.contains(
            "branches: 2:17 false never taken (in clamp_to<int>), \
             4:17 true never taken (in clamp_to<int>), 12:10 false never taken"
        ),
        "{}",
        run.stdout
    );
    let json = common::covgate(
        &dir,
        &["check", "export.json", "--no-walk", "--format", "json"],
    );
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    let uncovered = &common::file(&doc, "clamp.cpp")["uncovered"];
    let names = |metric: &str| -> Vec<String> {
        uncovered[metric]
            .as_array()
            .into_iter()
            .flatten()
            .map(|item| item["instantiation"].as_str().unwrap_or("-").to_string())
            .collect()
    };
    assert_eq!(names("branches"), ["clamp_to<int>", "clamp_to<int>", "-"]);
    assert_eq!(names("conditions"), ["clamp_to<int>", "clamp_to<int>"]);
    // `main` (line 12) has one instantiation: its region is not named.
    assert_eq!(names("regions"), ["-"]);
    let gh = common::covgate(
        &dir,
        &["check", "export.json", "--no-walk", "--format", "github"],
    );
    assert!(
        gh.stdout
            .contains("2:17 in the decision at 2:7 (in clamp_to<int>)"),
        "{}",
        gh.stdout
    );
    let md = common::covgate(
        &dir,
        &["check", "export.json", "--no-walk", "--format", "markdown"],
    );
    assert!(
        md.stdout
            .contains("2:17 false never taken (in clamp\\_to\\<int\\>)"),
        "{}",
        md.stdout
    );
}

const OTHER_SOURCE: &str = r#"int other_may_open(int a, int b, int c) {
  if ((a && b) || c)
    return 1;
  return 0;
}
"#;

const MIXED_MAIN: &str = r#"#include "gate.h"
int other_may_open(int a, int b, int c);

int main(void) {
  return door_may_open(1, 1, 0) + door_may_open(0, 0, 0) + other_may_open(1, 1, 0) - 2;
}
"#;

/// One program linked from objects built with and without `-fcoverage-mcdc`: `other.c`, built
/// without, has the same `(a && b) || c` as `gate.c` and weak tests, yet its export entry
/// holds plain branches (kind 4) and no MC/DC record, as a file without decisions would.
/// MC/DC is decided per file: counted for `gate.c`, 0 of 0 for `main.c` (no branch),
/// unavailable for `other.c`, never a silent 0 of 0 pass.
#[test]
fn a_file_built_without_mcdc_in_an_mcdc_build_is_unavailable() {
    let Some(t) = tools() else {
        eprintln!("skipped: no clang-N with llvm-profdata-N and llvm-cov-N (N = 18..22) installed; `.ci/run` installs clang-19 and llvm-19");
        return;
    };
    let (_keep, dir) = scratch(&[
        ("gate.h", C_HEADER),
        ("gate.c", C_SOURCE),
        ("other.c", OTHER_SOURCE),
        ("main.c", MIXED_MAIN),
    ]);
    let coverage = ["-O0", "-fprofile-instr-generate", "-fcoverage-mapping"];
    for (source, mcdc) in [("gate.c", true), ("main.c", true), ("other.c", false)] {
        let object = source.replace(".c", ".o");
        let mut build = coverage.to_vec();
        build.extend(mcdc.then_some("-fcoverage-mcdc"));
        build.extend(["-c", source, "-o", &object]);
        run(&dir, &t.clang, &build);
    }
    run(
        &dir,
        &t.clang,
        &[
            "-fprofile-instr-generate",
            "gate.o",
            "main.o",
            "other.o",
            "-o",
            "prog",
        ],
    );
    run(&dir, &dir.join("prog").display().to_string(), &[]);
    run(
        &dir,
        &t.profdata,
        &["merge", "-o", "run.profdata", "run.profraw"],
    );
    let export = run(
        &dir,
        &t.cov,
        &["export", "prog", "-instr-profile=run.profdata"],
    );
    std::fs::write(dir.join("export.json"), export).expect("export");
    let (code, doc) = covgate_rows(&dir);
    assert_eq!(code, 1, "{doc:#}");
    assert_eq!(common::metric(&doc, "gate.c", "mcdc"), "1/5 pass");
    assert_eq!(common::metric(&doc, "main.c", "mcdc"), "0/0 vacuous");
    assert_eq!(
        common::metric(&doc, "other.c", "mcdc"),
        "null/null unavailable"
    );
    assert_eq!(common::metric(&doc, "other.c", "branches"), "2/6 pass");
    let notes = doc["summary"]["notes"].to_string();
    assert!(notes.contains("-fcoverage-mcdc"), "{notes}");
}

/// Sources whose functions the no-code rule once missed, each with a function that llvm-cov
/// counts when it is built: a macro call after `static`, `extern`, `static inline`, `const` or a
/// typedef name, an object-like macro used alone, a K&R definition, a body behind `#ifdef`, a
/// digraph body, a trailing return type with `>` in its template argument, an attribute after
/// the declarator.
const HIDDEN_BODIES: &[(&str, &str)] = &[
    (
        "op_static.c",
        "#define DEFINE_OP(name, op) int name(int a, int b) { return a op b; }\n\
         static DEFINE_OP(op_add, +)\n",
    ),
    (
        "op_extern.c",
        "#define DEFINE_OP(name, op) int name(int a, int b) { return a op b; }\n\
         extern DEFINE_OP(op_sub, -)\n",
    ),
    (
        "op_inline.c",
        "#define M(x) int x(void) { return 1; }\nstatic inline M(m_inline)\n",
    ),
    (
        "op_const.c",
        "#define M(x) int x(void) { return 2; }\nconst M(m_const)\n",
    ),
    (
        "op_typedef.c",
        "typedef int T;\n#define M(x) x(void) { return 3; }\nT M(m_typedef)\n",
    ),
    (
        "object_like.c",
        "#define F int object_like(int a) { if (a > 1) { return 2; } return 1; }\nF\n",
    ),
    ("kr.c", "int kr(a) int a; { return a + 1; }\n"),
    (
        "split.c",
        "int split(int a)\n#ifdef NO_BODY\n;\n#else\n{\n  return a * 2;\n}\n#endif\n",
    ),
    ("digraph.c", "int digraph(void) <% return 1; %>\n"),
    (
        "trailing.cpp",
        "template <int N> struct A { int v[N]; };\n\
         auto trailing() -> A<(1 > 0) ? 2 : 3> { return {}; }\n",
    ),
    ("cold.cpp", "int cold() [[gnu::cold]] { return 1; }\n"),
];

#[test]
fn files_whose_functions_llvm_cov_counts_are_never_no_code() {
    let Some(t) = tools() else {
        eprintln!("skipped: no clang-N with llvm-profdata-N and llvm-cov-N (N = 18..22) installed; `.ci/run` installs clang-19 and llvm-19");
        return;
    };
    let mut files = vec![("main.c", "int main(void) { return 0; }\n")];
    files.extend_from_slice(HIDDEN_BODIES);
    let (_keep, dir) = scratch(&files);
    let sources: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
    let rows = report_rows(&build_and_export(&t, &dir, &sources, &[]));
    for (name, _) in HIDDEN_BODIES {
        let (_, row) = rows
            .iter()
            .find(|(row, _)| Path::new(row).ends_with(name))
            .unwrap_or_else(|| panic!("{name} not in llvm-cov's report: {rows:?}"));
        assert!(
            row[1].1 >= 1,
            "{name}: llvm-cov counts no function: {row:?}"
        );
    }
    // Built without them, the files are in no report: covgate calls each unmeasured.
    build_and_export(&t, &dir, &["main.c"], &[]);
    std::fs::write(
        dir.join("coverage-policy.toml"),
        "[measure]\ninclude = [\"*.c\", \"*.cpp\"]\nmetrics = [\"functions\"]\n",
    )
    .expect("policy");
    let run = common::covgate(&dir, &["check", "export.json", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    for (name, _) in HIDDEN_BODIES {
        assert_eq!(common::status(&doc, name), "unmeasured", "{name}: {doc:#}");
    }
    assert_eq!(doc["summary"]["no_code"], 0, "{doc:#}");
}
