//! LCOV records against what they claim (breaker session 15, findings 1, 2 and 6): bare
//! `FNDA` records read in linear time, llvm-cov's declared hits bounded by its records, and
//! lcov 2.2's `FNL`/`FNA` groups judged as the `FN` form is.

use crate::common::{metric, Sandbox};
use crate::declared_totals::check;

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

#[test]
fn llvm_cov_lines_hit_without_any_da_record_are_counted_from_the_records() {
    // Finding 1, case b: llvm-cov's shape, `LF:3 LH:3` and no `DA` record at all.
    let text = "SF:src/lib.rs\nFN:1,_RNvCs1_1x1g\nFNDA:1,_RNvCs1_1x1g\nFNF:1\nFNH:1\n\
                LF:3\nLH:3\nend_of_record\n";
    let (run, _sb) = check("lines.info", text);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "1/1 pass");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "0/0 vacuous");
    assert!(
        run.stderr.contains("lines.info:6: LF:3 LH:3 claim more covered than the section's records show (0 lines, 0 hit, and no llvm-cov run claims more found or hit than its records hold); covgate counts the records"),
        "{}",
        run.stderr
    );
}

#[test]
fn llvm_cov_functions_declared_above_the_fn_records_are_counted_from_the_records() {
    // Finding 1, case d: one `FN` record (ran), `FNF:4 FNH:4`; and two `FN` records of which
    // one ran, `FNF:2 FNH:2`. `LF:9 LH:9` over one `DA` hit stays (a line of several
    // functions counts once per function in llvm-cov's `LF`).
    let one = "SF:src/lib.rs\nFN:1,_RNvCs1_1x1g\nFNDA:1,_RNvCs1_1x1g\nFNF:4\nFNH:4\n\
               DA:1,1\nLF:9\nLH:9\nend_of_record\n";
    let (run, _sb) = check("one.info", one);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "1/1 pass");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "9/9 pass");
    assert!(
        run.stderr.contains("one.info:4: FNF:4 FNH:4 claim more covered than the section's records show (1 functions, 1 hit, and no llvm-cov run claims more found or hit"),
        "{}",
        run.stderr
    );
    // Two closures on one line, one ran: `FNF:2` holds, `FNH:2` does not.
    let two = "SF:src/lib.rs\nFN:1,_RNCNvCs1_1x1g0B3_\nFN:1,_RNCNvCs1_1x1gs_0B3_\n\
               FNDA:1,_RNCNvCs1_1x1g0B3_\nFNDA:0,_RNCNvCs1_1x1gs_0B3_\nFNF:2\nFNH:2\n\
               DA:1,1\nLF:1\nLH:1\nend_of_record\n";
    let (run, _sb) = check("two.info", two);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "functions"), "1/2 fail");
    assert!(
        run.stderr
            .contains("two.info:6: FNF:2 FNH:2 claim more covered"),
        "{}",
        run.stderr
    );
}

#[test]
fn llvm_cov_closures_on_one_line_keep_their_declared_totals() {
    // What llvm-cov writes: closures share a start line, each an `FN` record; `FNF:2 FNH:1`
    // with one of them run is its own count, used as declared, without a warning.
    let text = "SF:src/lib.rs\nFN:1,_RNCNvCs1_1x1g0B3_\nFN:1,_RNCNvCs1_1x1gs_0B3_\n\
                FNDA:1,_RNCNvCs1_1x1g0B3_\nFNDA:0,_RNCNvCs1_1x1gs_0B3_\nFNF:2\nFNH:1\n\
                DA:1,1\nLF:4\nLH:4\nend_of_record\n";
    let (run, _sb) = check("closures.info", text);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "1/2 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "4/4 pass");
    assert!(!run.stderr.contains("warning"), "{}", run.stderr);
}

#[test]
fn llvm_cov_branches_hit_without_any_brda_record_are_counted_from_the_records() {
    // Finding 1, case e: `BRF:4 BRH:4` and no `BRDA`, beside a file whose branches are real.
    let sb = Sandbox::new();
    sb.write("src/x.rs", "pub fn x() -> u8 {\n    1\n}\n");
    sb.write("src/z.rs", "pub fn z() -> u8 {\n    1\n}\n");
    sb.policy("[measure]\nmetrics = [\"branches\"]\n");
    let text = "SF:src/z.rs\nFN:1,_RNvCs1_1z1z\nFNDA:2,_RNvCs1_1z1z\nFNF:1\nFNH:1\nDA:1,2\n\
                BRDA:1,0,0,1\nBRDA:1,0,1,1\nBRF:2\nBRH:2\nLF:1\nLH:1\nend_of_record\n\
                SF:src/x.rs\nFN:1,_RNvCs1_1x1x\nFNDA:1,_RNvCs1_1x1x\nFNF:1\nFNH:1\nDA:1,1\n\
                BRF:4\nBRH:4\nLF:1\nLH:1\nend_of_record\n";
    sb.write("branches.info", text);
    let run = sb.run(&["check", "branches.info", "--format", "json"]);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/z.rs", "branches"), "2/2 pass");
    assert_eq!(metric(&doc, "src/x.rs", "branches"), "0/0 vacuous");
    assert!(
        run.stderr.contains("branches.info:20: BRF:4 BRH:4 claim more covered than the section's records show (0 branch sides, 0 hit, and no llvm-cov run claims more found or hit"),
        "{}",
        run.stderr
    );
}

/// `src/lib.rs` holding `pick`, a generic of six lines, and `name` holding `report`; the run
/// of `covgate check name` (lines and functions).
fn check_pick(name: &str, report: &str) -> crate::common::Run {
    let sb = Sandbox::new();
    sb.write(
        "src/lib.rs",
        "pub fn pick<T: Copy>(c: bool, a: T, b: T) -> T {\n    if c {\n        return a;\n    }\n    b\n}\n",
    );
    sb.policy("[measure]\nmetrics = [\"functions\", \"lines\"]\n");
    sb.write(name, report);
    sb.run(&["check", name, "--format", "json"])
}

#[test]
fn lcov2_fnl_groups_of_summed_instantiations_are_refused_as_fn_records_are() {
    // Finding 6: lcov 2.2 merges by location, one `FNL` group with each instantiation an
    // `FNA` alias; both ran, so the `DA` counts sum them (5/5; llvm-cov counts 4/5).
    for (alias_u8, alias_u16, shown) in [
        (
            "_RINvCs1_2lg4pickhEB2_",
            "_RINvCs1_2lg4picktEB2_",
            "lg::pick",
        ),
        ("lg::pick::<u8>", "lg::pick::<u16>", "lg::pick"),
    ] {
        let text = format!(
            "VER:2.0\nTN:\nSF:src/lib.rs\nFNL:0,1,6\nFNA:0,1,{alias_u8}\nFNA:0,1,{alias_u16}\n\
             FNF:1\nFNH:1\nDA:1,2\nDA:2,2\nDA:3,1\nDA:5,1\nDA:6,2\nLF:5\nLH:5\nend_of_record\n"
        );
        let run = check_pick("fnl.info", &text);
        assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains(&format!(
                "src/lib.rs:1: `{shown}` has several instantiations"
            )),
            "{}",
            run.stderr
        );
    }
    // One instantiation ran: one function, its records exact.
    let one = "VER:2.0\nTN:\nSF:src/lib.rs\nFNL:0,1,6\nFNA:0,1,_RINvCs1_2lg4pickhEB2_\n\
               FNA:0,0,_RINvCs1_2lg4picktEB2_\nDA:1,1\nDA:2,1\nDA:3,1\nDA:5,0\nDA:6,1\n\
               end_of_record\n";
    let run = check_pick("one.info", one);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "functions"), "1/1 pass");
    assert_eq!(metric(&run.json(), "src/lib.rs", "lines"), "4/5 fail");
}

#[test]
fn lcov2_fnl_group_of_a_static_inline_function_in_two_c_files_is_refused() {
    // Finding 6, the C twin: clang's `a.c:pick` and `b.c:pick` in one group.
    let sb = Sandbox::new();
    sb.write(
        "inc/u.h",
        "static inline int pick(int c) {\n  if (c)\n    return 1;\n  return 0;\n}\n",
    );
    sb.policy("[measure]\ninclude = [\"inc/**\"]\nmetrics = [\"functions\", \"lines\"]\n");
    let text = "VER:2\nTN:\nSF:inc/u.h\nFNL:0,1,5\nFNA:0,1,a.c:pick\nFNA:0,1,b.c:pick\n\
                DA:1,2\nDA:2,2\nDA:3,1\nDA:4,1\nend_of_record\n";
    sb.write("c.info", text);
    let run = sb.run(&["check", "c.info", "--format", "json"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("inc/u.h:1: `pick` has several instantiations"),
        "{}",
        run.stderr
    );
}

#[test]
fn lcov2_fnl_group_of_two_closures_counts_each_closure() {
    // Finding 6: two closures on one line, one never ran, grouped by location.
    let text = "VER:2\nTN:\nSF:src/lib.rs\nFNL:0,1,4\nFNA:0,1,_RNvCs1_2cl4both\nFNL:1,2,2\n\
                FNA:1,1,_RNCNvCs1_2cl4both0B3_\nFNA:1,0,_RNCNvCs1_2cl4boths_0B3_\nDA:1,1\n\
                DA:2,1\nDA:3,1\nend_of_record\n";
    let (run, _sb) = check("closures.info", text);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "functions"), "2/3 fail");
    assert!(
        run.stdout.contains("cl::both::{closure#1}"),
        "{}",
        run.stdout
    );
}
