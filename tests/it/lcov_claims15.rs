//! LCOV records against what they claim (breaker session 15, findings 1, 2 and 6): bare
//! `FNDA` records read in linear time, llvm-cov's declared hits bounded by its records, and
//! lcov 2.2's `FNL`/`FNA` groups judged as the `FN` form is.

use crate::common::{metric, Sandbox};

/// A sandbox with `src/lib.rs` (three lines), a policy of functions and lines, and `name`
/// holding `report`; the JSON run of `covgate check name`.
fn check(name: &str, report: &str) -> (crate::common::Run, Sandbox) {
    let sb = Sandbox::new();
    sb.write("src/lib.rs", "pub fn g() -> u8 {\n    1\n}\n");
    sb.policy("[measure]\nmetrics = [\"functions\", \"lines\"]\n");
    sb.write(name, report);
    let run = sb.run(&["check", name, "--format", "json"]);
    (run, sb)
}

#[test]
fn thousands_of_bare_fnda_names_are_each_a_function_and_fold_into_their_fn() {
    // Finding 2: `FNDA` records whose names no `FN` declares were matched against every
    // function (quadratic: 8,000 names took 17 s). Each is a function without a start line;
    // one of a placed name counts for the placed function with the lowest start line.
    let mut text = String::from("TN:\nSF:src/lib.rs\nFN:3,g\nFN:1,g\nFNDA:0,g\n");
    for i in 0..3000 {
        text.push_str(&format!("FNDA:{},h{i}\n", i % 2));
    }
    text.push_str("DA:1,1\nDA:2,1\nDA:3,1\nend_of_record\n");
    text.push_str("TN:\nSF:src/lib.rs\nFNDA:5,g\nend_of_record\n");
    let (run, _sb) = check("bare.info", &text);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    // 3,000 bare names (1,500 ran), `g` at line 1 (ran, from the second section), at line 3
    // (never ran).
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "1501/3002 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "3/3 pass");
}
