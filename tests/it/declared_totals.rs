//! Declared LCOV totals (`LF/LH`, `FNF/FNH`) against the records: a verdict is never better
//! than the writer's own, and llvm-cov's totals stand only where its records allow them
//! (breaker session 14, findings 1, 5, 6 and 13).

use crate::common::{metric, Sandbox};

/// A sandbox with `src/lib.rs` (three lines), a policy of functions and lines, and `name`
/// holding `report`; the JSON run of `covgate check name`.
pub(crate) fn check(name: &str, report: &str) -> (crate::common::Run, Sandbox) {
    let sb = Sandbox::new();
    sb.write("src/lib.rs", "pub fn g() -> u8 {\n    1\n}\n");
    sb.policy("[measure]\nmetrics = [\"functions\", \"lines\"]\n");
    sb.write(name, report);
    let run = sb.run(&["check", name, "--format", "json"]);
    (run, sb)
}

#[test]
fn llvm_cov_totals_that_every_record_contradicts_are_not_trusted() {
    // llvm-cov's record order, every record "never ran", totals "everything ran".
    let text = "SF:src/lib.rs\nFN:1,_RNvCs1234_2c11g\nFNDA:0,_RNvCs1234_2c11g\nFNF:1\nFNH:1\n\
                DA:1,0\nDA:2,0\nDA:3,0\nLF:3\nLH:3\nend_of_record\n";
    let (run, _sb) = check("contradict.info", text);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "0/3 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "0/1 fail");
    assert!(
        run.stderr.contains("contradict.info:9: LF:3 LH:3 claim more covered than the section's records show (3 lines, 0 hit"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("contradict.info:4: FNF:1 FNH:1 claim more covered"),
        "{}",
        run.stderr
    );
}

#[test]
fn declared_misses_without_records_fail_instead_of_a_vacuous_pass() {
    let lines = "TN:\nSF:src/lib.rs\nFN:1,g\nFNDA:1,g\nFNF:1\nFNH:1\nLF:9\nLH:0\nend_of_record\n";
    let (run, _sb) = check("lines.info", lines);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "0/9 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "1/1 pass");
    assert!(
        run.stderr.contains("lines.info:7: LF:9 LH:0 disagree with the section's records (0 lines, 0 hit); covgate judges the declared totals, the worse (the missed items the records do not hold cannot be listed)"),
        "{}",
        run.stderr
    );
    let functions =
        "TN:\nSF:src/lib.rs\nDA:1,1\nDA:2,1\nDA:3,1\nFNF:3\nFNH:0\nLF:3\nLH:3\nend_of_record\n";
    let (run, _sb) = check("functions.info", functions);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "0/3 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "3/3 pass");
}

#[test]
fn gcovr_lines_of_template_instantiations_are_judged_as_gcovr_counts_them() {
    let sb = Sandbox::copy_of("declared/gcovr-templates");
    let run = sb.run(&["check", "gcovr.info", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/m.cpp", "lines"), "15/17 fail");
    assert_eq!(metric(&doc, "src/m.cpp", "functions"), "4/4 pass");
    assert!(
        run.stderr.contains("gcovr.info:38: LF:17 LH:15 disagree with the section's records (13 lines, 13 hit); covgate judges the declared totals"),
        "{}",
        run.stderr
    );
}

#[test]
fn demangled_rust_instantiations_summed_by_a_rewriter_are_refused() {
    // `lcov -a`'s shape of a cargo-llvm-cov tracefile, names demangled (rustfilt, `grcov
    // --demangle`): `pick::<u8>` and `pick::<u16>` ran different arms, summed in `DA`.
    let text =
        "TN:\nSF:src/lib.rs\nFN:1,lg::pick::<u8>\nFN:1,lg::pick::<u16>\nFN:11,lg::tests::ta\n\
                FN:13,lg::tests::tb\nFNDA:1,lg::pick::<u8>\nFNDA:1,lg::pick::<u16>\n\
                FNDA:1,lg::tests::ta\nFNDA:1,lg::tests::tb\nFNF:4\nFNH:4\nDA:1,2\nDA:2,2\nDA:3,1\n\
                DA:5,1\nDA:7,2\nDA:11,1\nDA:13,1\nBRF:0\nBRH:0\nLF:7\nLH:7\nend_of_record\n";
    let (run, _sb) = check("lcov-a.info", text);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("src/lib.rs:1: `lg::pick` has several instantiations"),
        "{}",
        run.stderr
    );
    // One instantiation that ran: its records are its own, counted.
    let one = text.replace("FNDA:1,lg::pick::<u16>", "FNDA:0,lg::pick::<u16>");
    let (run, _sb) = check("one.info", &one);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}
