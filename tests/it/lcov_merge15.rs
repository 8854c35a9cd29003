//! LCOV sections of one file that merge (shards, reports, `cat`): a stale tracefile of an
//! earlier build (break test s14, finding 12, LCOV half), the bound that the sections'
//! declared totals set on the merge, and the SpiderMonkey (grcov test) fixture judged on its
//! own declared functions.

use crate::common::{metric, Sandbox};

/// The current source: `f` moved down one line by a doc comment (the old build had it at
/// line 1 and its test at line 10).
const SOURCE: &str =
    "/// Adds one, or 0 for 0.\npub fn f(x: u32) -> u32 {\n    if x == 0 {\n        \
     return 0;\n    }\n    x + 1\n}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() { \
     super::f(5); }\n}\n";

/// A `cargo llvm-cov --lcov` section of `src/lib.rs` with `f` at `f_at`, its test at `t_at`,
/// and `DA` records `lines` (line, count).
fn llvm_section(f_at: u32, t_at: u32, lines: &[(u32, u64)]) -> String {
    let hit = lines.iter().filter(|(_, count)| *count > 0).count();
    let da: String = lines.iter().map(|(l, c)| format!("DA:{l},{c}\n")).collect();
    format!(
        "SF:src/lib.rs\nFN:{t_at},_RNvNtCsb2XTOLoCcT5_2st5testss_1t\nFN:{f_at},_RNvCsb2XTOLoCcT5_2st1f\n\
         FNDA:1,_RNvNtCsb2XTOLoCcT5_2st5testss_1t\nFNDA:1,_RNvCsb2XTOLoCcT5_2st1f\nFNF:2\nFNH:2\n\
         {da}BRF:0\nBRH:0\nLF:{}\nLH:{hit}\nend_of_record\n",
        lines.len()
    )
}

/// The old build's tracefile (every line of its `f` ran) and the new build's (`return 0;`,
/// line 4, never ran).
fn old_and_new() -> (String, String) {
    let old = llvm_section(1, 10, &[(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (10, 1)]);
    let new = llvm_section(2, 11, &[(2, 1), (3, 1), (4, 0), (6, 1), (7, 1), (11, 1)]);
    (old, new)
}

/// A sandbox with [`SOURCE`] and a policy of functions and lines.
fn sandbox() -> Sandbox {
    let sb = Sandbox::new();
    sb.write("src/lib.rs", SOURCE);
    sb.policy("[measure]\nmetrics = [\"functions\", \"lines\"]\n");
    sb
}

#[test]
fn a_stale_tracefile_whose_rust_symbol_starts_elsewhere_is_refused() {
    let sb = sandbox();
    let (old, new) = old_and_new();
    sb.write("new.info", &new);
    let run = sb.run(&["check", "new.info", "--format", "json"]);
    assert_eq!(
        run.code, 1,
        "alone, this build fails: {}{}",
        run.stdout, run.stderr
    );
    assert_eq!(metric(&run.json(), "src/lib.rs", "lines"), "5/6 fail");
    // Among the reports (`reports: target/*.info` over a cached target/): refused, whichever
    // comes first.
    sb.write("old.info", &old);
    for args in [["old.info", "new.info"], ["new.info", "old.info"]] {
        let run = sb.run(&["check", args[0], args[1]]);
        assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains(
                "src/lib.rs: the reports hold two builds of different source: `st::f` (symbol \
                 `_RNvCsb2XTOLoCcT5_2st1f`) is one compiled function, but old.info has its FN at \
                 src/lib.rs:1, and new.info at src/lib.rs:2. One of them is stale"
            ),
            "{}",
            run.stderr
        );
        assert!(
            run.stderr.contains("Give the reports of one build only"),
            "{}",
            run.stderr
        );
    }
    // `cat old.info new.info`: two sections of one report.
    sb.write("all.info", &format!("{old}{new}"));
    let run = sb.run(&["check", "all.info"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            "is one compiled function, but all.info has its FN at src/lib.rs:1 in one section, \
             and at src/lib.rs:2 in another."
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn shards_of_one_build_still_merge() {
    // Two test partitions of one build: the same FN lines and DA lines, other counts.
    let sb = sandbox();
    let a = llvm_section(2, 11, &[(2, 1), (3, 1), (4, 0), (6, 1), (7, 1), (11, 1)]);
    let b = llvm_section(2, 11, &[(2, 1), (3, 1), (4, 1), (6, 0), (7, 0), (11, 1)]);
    sb.write("a.info", &a);
    // A symbol that only `FNDA` names has no start line to compare.
    let unplaced = "SF:src/lib.rs\nFNDA:1,_RNvCsb2XTOLoCcT5_2st1g\n";
    sb.write("b.info", &b.replacen("SF:src/lib.rs\n", unplaced, 1));
    let run = sb.run(&["check", "a.info", "b.info", "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "lines"), "6/6 pass");
    assert_eq!(metric(&run.json(), "src/lib.rs", "functions"), "3/3 pass");
    // Demangled names lose the crate's hash: one name at two lines may be `#[cfg(unix)]` and
    // `#[cfg(windows)]` variants in the two platforms' tracefiles, merged as they are.
    let demangle = |text: &str| {
        text.replace("_RNvCsb2XTOLoCcT5_2st1f", "st::f")
            .replace("_RNvNtCsb2XTOLoCcT5_2st5testss_1t", "st::tests::t")
    };
    let (old, new) = old_and_new();
    sb.write("a.info", &demangle(&old));
    sb.write("b.info", &demangle(&new));
    let run = sb.run(&["check", "a.info", "b.info", "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "functions"), "4/4 pass");
}

/// A sandbox with a three-line `src/lib.rs` and a policy of functions and lines.
fn small() -> Sandbox {
    let sb = Sandbox::new();
    sb.write("src/lib.rs", "pub fn g() -> u8 {\n    1\n}\n");
    sb.policy("[measure]\nmetrics = [\"functions\", \"lines\"]\n");
    sb
}

/// A section that declares 9 lines, none run, without `DA` records (finding 5's shape).
const DECLARED_ONLY: &str =
    "TN:\nSF:src/lib.rs\nFN:1,g\nFNDA:1,g\nFNF:1\nFNH:1\nLF:9\nLH:0\nend_of_record\n";

/// A section whose three `DA` lines all ran.
const ALL_RUN: &str = "TN:\nSF:src/lib.rs\nDA:1,1\nDA:2,1\nDA:3,1\nLF:3\nLH:3\nend_of_record\n";

#[test]
fn declared_totals_bound_a_merge_of_sections() {
    // Merged in one tracefile or from two reports: 9 lines at least, 3 of them run at most.
    let sb = small();
    sb.write("one.info", &format!("{DECLARED_ONLY}{ALL_RUN}"));
    sb.write("a.info", DECLARED_ONLY);
    sb.write("b.info", ALL_RUN);
    for args in [
        vec!["one.info"],
        vec!["a.info", "b.info"],
        vec!["b.info", "a.info"],
    ] {
        let run = sb.run(&[&["check", "--format", "json"][..], &args].concat());
        assert_eq!(run.code, 1, "{args:?}: {}{}", run.stdout, run.stderr);
        let doc = run.json();
        assert_eq!(metric(&doc, "src/lib.rs", "lines"), "3/9 fail", "{args:?}");
        // Functions: only one section declares them; the records count.
        assert_eq!(
            metric(&doc, "src/lib.rs", "functions"),
            "1/1 pass",
            "{args:?}"
        );
    }
    // Three sections: the bound of the first two and the third (found at least 9, hits at
    // most 0 + 3 + 1).
    let one_more = "TN:\nSF:src/lib.rs\nFN:1,g\nFNDA:1,g\nDA:1,1\nLF:1\nLH:1\nend_of_record\n";
    sb.write("c.info", one_more);
    let run = sb.run(&["check", "a.info", "b.info", "c.info", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "lines"), "4/9 fail");
}

#[test]
fn shards_that_declare_what_their_records_count_keep_the_records() {
    // lcov's geninfo shards: each declares its own records; together every line ran.
    let sb = small();
    let a = "TN:\nSF:src/lib.rs\nFN:1,g\nFNDA:1,g\nFNF:1\nFNH:1\nDA:1,1\nDA:2,0\nDA:3,0\n\
             LF:3\nLH:1\nend_of_record\n";
    let b = "TN:\nSF:src/lib.rs\nFN:1,g\nFNDA:0,g\nFNF:1\nFNH:0\nDA:1,0\nDA:2,1\nDA:3,1\n\
             LF:3\nLH:2\nend_of_record\n";
    sb.write("a.info", a);
    sb.write("b.info", b);
    sb.write("ab.info", &format!("{a}{b}"));
    for args in [vec!["a.info", "b.info"], vec!["ab.info"]] {
        let run = sb.run(&[&["check", "--format", "json"][..], &args].concat());
        assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
        let doc = run.json();
        assert_eq!(metric(&doc, "src/lib.rs", "lines"), "3/3 pass");
        assert_eq!(metric(&doc, "src/lib.rs", "functions"), "1/1 pass");
    }
    // Both ran line 1 only: 1 of 3, as the records say.
    let c = b.replace(
        "DA:1,0\nDA:2,1\nDA:3,1\nLF:3\nLH:2",
        "DA:1,1\nDA:2,0\nDA:3,0\nLF:3\nLH:1",
    );
    sb.write("c.info", &c);
    let run = sb.run(&["check", "a.info", "c.info", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "lines"), "1/3 fail");
}

#[test]
fn spidermonkey_fixture_is_judged_on_its_own_declared_functions() {
    // SpiderMonkey writes FNF as its FN records and FNH as its FNDA records; grcov's test added
    // `cubic-bezier(…)` (FN and FNDA) without its totals. covgate cannot tell the stale half:
    // the worse share (3/6, not the records' 4/7), with a warning naming both.
    let sb = Sandbox::new();
    let text = std::fs::read_to_string(crate::common::fixture("lcov/grcov_empty_line.info"))
        .expect("fixture");
    sb.write("aFile.info", &text);
    sb.policy("[measure]\ninclude = [\"*.js\"]\nmetrics = [\"functions\"]\n");
    let run = sb.run(&["check", "aFile.info", "--no-walk", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "aFile.js", "functions"), "3/6 fail");
    assert!(
        run.stderr.contains(
            "aFile.info:15: FNF:6 FNH:3 disagree with the section's records (7 functions, 4 hit); \
             covgate judges the declared totals, the worse"
        ),
        "{}",
        run.stderr
    );
    // Without the added function the records are what SpiderMonkey declared: no warning.
    let written = text
        .replace("FN:95,cubic-bezier(0.0, 0.0, 1.0, 1.0)\n", "")
        .replace("FNDA:3,cubic-bezier(0.0, 0.0, 1.0, 1.0)\n", "");
    sb.write("aFile.info", &written);
    let run = sb.run(&["check", "aFile.info", "--no-walk", "--format", "json"]);
    assert_eq!(metric(&run.json(), "aFile.js", "functions"), "3/6 fail");
    assert!(!run.stderr.contains("FNF:6"), "{}", run.stderr);
}
