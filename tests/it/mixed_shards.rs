//! Merges of reports that do not all carry the same data: a function that only reports without
//! branch records (stable) or without MC/DC data (a build without `-fcoverage-mcdc`) hold was
//! never measured for it, and an LCOV section rewritten by lcov sums instantiations that
//! llvm-cov counts apart. Fixtures: `tests/fixtures/merge/{mixed,mcdc,rewritten}` (see the
//! README there).

use crate::common;

use common::{fixture, metric, status, Sandbox};

/// `covgate check` of `reports` (under `tests/fixtures/merge/{dir}`) in `sandbox`, as JSON,
/// with the exports' `/ws/{dir}` remapped to the sandbox.
fn check(sandbox: &Sandbox, dir: &str, reports: &[&str]) -> common::Run {
    let paths: Vec<String> = reports
        .iter()
        .map(|r| fixture(&format!("merge/{dir}/{r}")).display().to_string())
        .collect();
    let remap = format!("/ws/{dir}={}", sandbox.path().display());
    let mut args = vec!["check"];
    args.extend(paths.iter().map(String::as_str));
    args.extend(["--format", "json", "--remap-path-prefix", &remap]);
    sandbox.run(&args)
}

/// The crate of `mixed/` under the default policy (regions, branches, functions, lines).
fn mixed() -> Sandbox {
    let sandbox = Sandbox::copy_of("merge/mixed/crate");
    sandbox.policy("[measure]\ninclude = [\"src/**/*.rs\"]\n");
    sandbox
}

#[test]
fn the_mixed_fixtures_are_what_llvm_cov_reports() {
    let report =
        std::fs::read_to_string(fixture("merge/mixed/nightly-extra_report.txt")).expect("report");
    let row: Vec<&str> = report
        .lines()
        .find(|l| l.starts_with("src/lib.rs"))
        .expect("row")
        .split_whitespace()
        .collect();
    // Branches 4, 1 missed.
    assert_eq!([row[10], row[11]], ["4", "1"]);
    let run = check(&mixed(), "mixed", &["nightly-extra.json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "branches"), "3/4 fail");
    let report =
        std::fs::read_to_string(fixture("merge/mcdc/mcdc-extra_report.txt")).expect("report");
    let row: Vec<&str> = report
        .lines()
        .find(|l| l.starts_with("x.c"))
        .expect("row")
        .split_whitespace()
        .collect();
    // MC/DC conditions 5, 2 missed.
    assert_eq!([row[13], row[14]], ["5", "2"]);
}

#[test]
fn a_function_only_a_stable_shard_holds_leaves_branches_unavailable() {
    let sb = mixed();
    // `both` is only in the stable shard: no report measured its branches (the oracle, both
    // legs on nightly, says 3 of 4).
    let run = check(&sb, "mixed", &["nightly.json", "stable-extra.json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "src/lib.rs"), "fail");
    assert_eq!(
        metric(&doc, "src/lib.rs", "branches"),
        "null/null unavailable"
    );
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "8/8 pass");
    assert!(
        run.stderr.contains(
            "src/lib.rs: branches are unavailable: no report with branch records holds \
             mixed::both (line 12)"
        ),
        "{}",
        run.stderr
    );
    // A stable shard of functions the nightly shard measures too takes nothing away.
    let run = check(&sb, "mixed", &["nightly.json", "stable.json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "branches"), "2/2 pass");
    assert!(!run.stderr.contains("unavailable"), "{}", run.stderr);
    // Nor does one whose functions a nightly shard of them measures: the oracle's numbers.
    let run = check(&sb, "mixed", &["stable-extra.json", "nightly-extra.json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "branches"), "3/4 fail");
    // Without "branches" in the policy, no note.
    sb.policy("[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"lines\"]\n");
    let run = check(&sb, "mixed", &["nightly.json", "stable-extra.json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(!run.stderr.contains("unavailable"), "{}", run.stderr);
}

/// A sandbox with the sources of `mcdc/`, gated on every metric with MC/DC.
fn mcdc() -> Sandbox {
    let sb = Sandbox::new();
    for name in ["x.c", "main.c"] {
        let text = std::fs::read_to_string(fixture(&format!("merge/mcdc/{name}"))).expect("src");
        sb.write(name, &text);
    }
    sb.policy(
        "[measure]\ninclude = [\"x.c\"]\nmetrics = [\"regions\", \"branches\", \"functions\", \
         \"lines\", \"mcdc\"]\n",
    );
    sb
}

#[test]
fn copies_built_with_and_without_mcdc_are_not_summed() {
    let sb = mcdc();
    // The oracle: 3 of 5 conditions. A plain build of the same code merged in keeps them: its
    // copy of each function has other mappings (no decision), so it is not summed with the
    // MC/DC copy (which dropped the conditions: 0 of 0, a pass).
    for reports in [
        &["mcdc-extra.json"][..],
        &["mcdc-extra.json", "plain-extra.json"],
        &["plain-extra.json", "mcdc-extra.json"],
    ] {
        let run = check(&sb, "mcdc", reports);
        assert_eq!(run.code, 1, "{reports:?}: {}{}", run.stdout, run.stderr);
        let doc = run.json();
        assert_eq!(metric(&doc, "x.c", "mcdc"), "3/5 fail", "{reports:?}");
        assert_eq!(metric(&doc, "x.c", "branches"), "10/10 pass", "{reports:?}");
    }
    // `g` alone, its two conditions shown independent in the MC/DC build.
    let run = check(&sb, "mcdc", &["mcdc.json", "plain.json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "x.c", "mcdc"), "2/2 pass");
}

#[test]
fn a_function_only_a_plain_build_holds_leaves_mcdc_unavailable() {
    // `both` is only in the build without `-fcoverage-mcdc`: its conditions were never
    // measured (the oracle: 1 of 3), so the file's MC/DC is unavailable, not 2 of 2.
    let run = check(&mcdc(), "mcdc", &["mcdc.json", "plain-extra.json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "x.c"), "fail");
    assert_eq!(metric(&doc, "x.c", "mcdc"), "null/null unavailable");
    assert_eq!(metric(&doc, "x.c", "branches"), "10/10 pass");
    assert!(
        run.stderr.contains(
            "x.c: mcdc is unavailable: no report with MC/DC data for the file holds both \
             (line 6)"
        ),
        "{}",
        run.stderr
    );
    // `main`, without branches, needs no condition measured: its plain copy takes nothing away.
    let sb = mcdc();
    sb.policy("[measure]\ninclude = [\"x.c\", \"main.c\"]\nmetrics = [\"lines\", \"mcdc\"]\n");
    let run = check(&sb, "mcdc", &["mcdc.json", "plain-extra.json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "main.c", "mcdc"), "0/0 vacuous");
    assert_eq!(status(&doc, "main.c"), "pass");
    assert!(!run.stderr.contains("main.c: mcdc"), "{}", run.stderr);
}

#[test]
fn an_llvm_cov_tracefile_rewritten_by_lcov_is_refused_when_instantiations_ran() {
    let sb = Sandbox::copy_of("cases/02-generic-instantiations-split/crate");
    sb.policy(
        "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"branches\", \"functions\", \
         \"lines\"]\n",
    );
    let remap = format!("/ws/generics={}", sb.path().display());
    // The unmodified tracefile: llvm-cov's own numbers (1 of 2 branches, 8 of 9 lines).
    let input = fixture("cases/02-generic-instantiations-split/input.info");
    let run = sb.run(&[
        "check",
        &input.display().to_string(),
        "--format",
        "json",
        "--remap-path-prefix",
        &remap,
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "lines"), "8/9 fail");
    // Through `lcov -a` or `lcov --remove` it sums the instantiations (9 of 9 lines): refused.
    for name in ["merged.info", "removed.info"] {
        let path = fixture(&format!("merge/rewritten/{name}"));
        let run = sb.run(&[
            "check",
            &path.display().to_string(),
            "--remap-path-prefix",
            &remap,
        ]);
        assert_eq!(run.code, 2, "{name}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr
                .contains("src/lib.rs:1: `generics::is_negative` has several instantiations")
                && run.stderr.contains(name)
                && run.stderr.contains("cannot be counted exactly")
                && run.stderr.contains("cargo llvm-cov --lcov"),
            "{}",
            run.stderr
        );
        assert!(run.stdout.is_empty(), "{}", run.stdout);
    }
}

/// A header's `static inline` C function compiled into two files has two LLVM copies, which
/// clang names `a.c:pick` and `b.c:pick`: llvm-cov counts them as one function and takes the
/// best copy (lines 4 of 5). Its own tracefile says so; rewritten by `lcov -a` or `lcov
/// --remove`, the copies are summed (5 of 5) and the section is refused, as for Rust.
#[test]
fn copies_of_a_static_c_function_summed_by_lcov_are_refused() {
    let sb = Sandbox::copy_of("merge/clang-static");
    sb.policy("[measure]\ninclude = [\"src/**\"]\nmetrics = [\"functions\", \"lines\"]\n");
    let remap = format!("/ws/cstatic={}", sb.path().display());
    let run = sb.run(&[
        "check",
        "AB.info",
        "--format",
        "json",
        "--remap-path-prefix",
        &remap,
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/h.h", "lines"), "4/5 fail");
    assert_eq!(metric(&run.json(), "src/h.h", "functions"), "1/1 pass");
    for name in ["AB-lcov-a.info", "AB-removed.info"] {
        let run = sb.run(&["check", name, "--remap-path-prefix", &remap]);
        assert_eq!(run.code, 2, "{name}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr
                .contains("src/h.h:1: `pick` has several instantiations")
                && run.stderr.contains(name),
            "{}",
            run.stderr
        );
    }
}

/// A tracefile whose writer records no function (gcov2lcov, Dart's format_coverage,
/// coverage.py before 7.6.2, llvm-cov's `-skip-functions` rewritten by lcov) measures none:
/// functions are unavailable and fail closed, never 0 of 0; likewise lines for a writer of
/// functions only. A file another report measures functions for keeps them, and llvm-cov's
/// declared `FNF`/`FNH` without records still count.
#[test]
fn a_metric_no_record_carries_is_unavailable() {
    let sb = Sandbox::new();
    sb.policy("[measure]\ninclude = [\"src/**\"]\nmetrics = [\"functions\", \"lines\"]\n");
    sb.write("src/a.go", "package a\n\nfunc A() {}\n");
    sb.write(
        "lines.info",
        "SF:src/a.go\nDA:3,1\nLF:1\nLH:1\nend_of_record\n",
    );
    let run = sb.run(&["check", "lines.info", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/a.go", "lines"), "1/1 pass");
    let file = &doc["files"][0]["metrics"]["functions"];
    assert_eq!(file["status"], "unavailable", "{doc}");
    let table = sb.run(&["check", "lines.info"]);
    assert!(
        table.stdout.contains("a report holds no function data"),
        "{}",
        table.stdout
    );
    // Functions only: lines unavailable.
    sb.write("fns.info", "SF:src/a.go\nFN:3,A\nFNDA:1,A\nend_of_record\n");
    let doc = sb.run(&["check", "fns.info", "--format", "json"]).json();
    assert_eq!(metric(&doc, "src/a.go", "functions"), "1/1 pass");
    assert_eq!(doc["files"][0]["metrics"]["lines"]["status"], "unavailable");
    // Both reports together: each metric is carried by one of them.
    let run = sb.run(&["check", "lines.info", "fns.info", "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // llvm-cov's `-skip-functions` tracefile keeps its declared FNF/FNH.
    sb.write(
        "skip.info",
        "SF:src/a.go\nFNF:2\nFNH:1\nDA:3,1\nLF:1\nLH:1\nend_of_record\n",
    );
    let doc = sb.run(&["check", "skip.info", "--format", "json"]).json();
    assert_eq!(metric(&doc, "src/a.go", "functions"), "1/2 fail");
}

/// A sandbox with the crate of `merge/{dir}/`, gated on branches, functions and lines (what
/// both formats carry).
fn legs_crate(dir: &str) -> Sandbox {
    let sandbox = Sandbox::copy_of(&format!("merge/{dir}/crate"));
    sandbox.policy(
        "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"branches\", \"functions\", \
         \"lines\"]\n",
    );
    sandbox
}

/// The note of `src/lib.rs` whose branches no report measured, naming `what`.
fn branch_note(what: &str) -> String {
    format!(
        "src/lib.rs: branches are unavailable: no report with branch records holds {what}, \
         which only the other merged reports hold"
    )
}

#[test]
fn lcov_legs_a_function_only_a_stable_tracefile_holds_leaves_branches_unavailable() {
    let sb = legs_crate("legs");
    // `extra` is only in the stable leg's tracefile (no `BRDA`, `BRF:0`): no leg measured its
    // `if` (the oracle, both legs on nightly, says 3 of 4). Before: a pass on 2 of 2. The JSON
    // exports of the same runs say the same.
    for reports in [
        ["stable-extra.info", "nightly.info"],
        ["stable-extra.json", "nightly.json"],
    ] {
        let run = check(&sb, "legs", &reports);
        assert_eq!(run.code, 1, "{reports:?}: {}{}", run.stdout, run.stderr);
        let doc = run.json();
        assert_eq!(status(&doc, "src/lib.rs"), "fail");
        assert_eq!(
            metric(&doc, "src/lib.rs", "branches"),
            "null/null unavailable"
        );
        assert_eq!(metric(&doc, "src/lib.rs", "lines"), "9/9 pass");
        assert_eq!(metric(&doc, "src/lib.rs", "functions"), "2/2 pass");
        let note = branch_note("legs::extra (line 12)");
        assert!(run.stderr.contains(&note), "{reports:?}: {}", run.stderr);
    }
    let run = check(&sb, "legs", &["nightly-extra.info"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "branches"), "3/4 fail");
    // A stable leg of functions the nightly leg measures too takes nothing away.
    for reports in [
        ["stable.info", "nightly.info"],
        ["stable.json", "nightly.json"],
    ] {
        let run = check(&sb, "legs", &reports);
        assert_eq!(run.code, 0, "{reports:?}: {}{}", run.stdout, run.stderr);
        assert_eq!(metric(&run.json(), "src/lib.rs", "branches"), "2/2 pass");
        assert!(!run.stderr.contains("unavailable"), "{}", run.stderr);
    }
}

/// `cat` of the legs' tracefiles `names` (under `merge/legs/`), written into `sb`.
fn cat(sb: &Sandbox, names: &[&str]) -> String {
    let text: String = names
        .iter()
        .map(|n| std::fs::read_to_string(fixture(&format!("merge/legs/{n}"))).expect("info"))
        .collect();
    sb.write("cat.info", &text).display().to_string()
}

#[test]
fn lcov_legs_concatenated_into_one_tracefile_are_told_apart_by_their_branch_records() {
    let sb = legs_crate("legs");
    let remap = format!("/ws/legs={}", sb.path().display());
    let check_cat = |names: &[&str]| {
        let path = cat(&sb, names);
        let args = [
            "check",
            &path,
            "--format",
            "json",
            "--remap-path-prefix",
            &remap,
        ];
        sb.run(&args)
    };
    // The sections of `src/lib.rs`: the stable one without `BRDA`, the nightly one with some.
    for names in [
        ["stable-extra.info", "nightly.info"],
        ["nightly.info", "stable-extra.info"],
    ] {
        let run = check_cat(&names);
        assert_eq!(run.code, 1, "{names:?}: {}{}", run.stdout, run.stderr);
        let doc = run.json();
        assert_eq!(
            metric(&doc, "src/lib.rs", "branches"),
            "null/null unavailable"
        );
        assert_eq!(metric(&doc, "src/lib.rs", "lines"), "9/9 pass");
        let note = branch_note("legs::extra (line 12)");
        assert!(run.stderr.contains(&note), "{names:?}: {}", run.stderr);
    }
    // Sections of the same functions: measured.
    let run = check_cat(&["stable.info", "nightly.info"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "branches"), "2/2 pass");
    assert!(!run.stderr.contains("unavailable"), "{}", run.stderr);
}

#[test]
fn a_block_only_the_stable_leg_built_inside_a_measured_function_leaves_branches_unavailable() {
    let sb = legs_crate("inner");
    // `both` is in both legs, but its `#[cfg(feature = "extra")]` block (line 6) only in the
    // stable one: its `if` was never measured (the oracle says 3 of 4). Before: 2 of 2, a pass.
    let run = check(&sb, "inner", &["stable-extra.json", "nightly.json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(
        metric(&doc, "src/lib.rs", "branches"),
        "null/null unavailable"
    );
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "5/5 pass");
    let note = branch_note("inner::both (line 2: its code at line 6)");
    assert!(run.stderr.contains(&note), "{}", run.stderr);
    // The oracle, alone or with the stable leg: 3 of 4.
    for reports in [
        &["nightly-extra.json"][..],
        &["stable-extra.json", "nightly-extra.json"],
    ] {
        let run = check(&sb, "inner", reports);
        assert_eq!(run.code, 1, "{reports:?}: {}{}", run.stdout, run.stderr);
        assert_eq!(metric(&run.json(), "src/lib.rs", "branches"), "3/4 fail");
        assert!(!run.stderr.contains("unavailable"), "{}", run.stderr);
    }
    // Without the block, stable and nightly rustc map `both` in other regions (stable has one
    // for `let mut r`), on the same lines: measured.
    let run = check(&sb, "inner", &["stable.json", "nightly.json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "branches"), "2/2 pass");
    assert!(!run.stderr.contains("unavailable"), "{}", run.stderr);
}
