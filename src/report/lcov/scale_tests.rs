//! Tests that merging many sections, shards or reports of one file takes time linear in them
//! (breaker s16, finding 3): each merge looks only at what it adds.
//!
//! The sizes are such that a merge looking at everything merged so far (every record that ran,
//! its name demangled, at each merge; every `DA` line repacked at each merge) would take minutes
//! in a debug build, and a linear one well under two seconds. No time is asserted: a quadratic
//! merge shows as a test that does not finish.

use super::support_tests::*;
use super::*;

/// How many sections, or reports, of one file.
const PARTS: usize = 10_000;

/// A section of `src/x.rs` in llvm-cov's shape (no `TN`) with one function, `name`, on line 1
/// that ran when `ran`; `DA` on line 1 (ran) and on line `line` (count `count`).
fn section(name: &str, ran: bool, line: usize, count: u64) -> String {
    let ran = u64::from(ran);
    let lh = 1 + u64::from(count > 0);
    format!(
        "SF:src/x.rs\nFN:1,{name}\nFNDA:{ran},{name}\nFNF:1\nFNH:{ran}\nDA:1,1\nDA:{line},{count}\n\
         BRF:0\nBRH:0\nLF:2\nLH:{lh}\nend_of_record\n"
    )
}

/// The rustc symbol of `x::f<i>` (a function of its own), or, with `copy`, of `x::f` built
/// into test binary `i` (crate hash `i`: one function, a copy per binary).
fn symbol(i: usize, copy: bool) -> String {
    match copy {
        true => format!("_RNvCs{i}_1x1f"),
        false => {
            let name = format!("f{i}");
            format!("_RNvCs1_1x{}{name}", name.len())
        }
    }
}

#[test]
fn many_sections_of_one_file_each_with_a_new_function_on_one_line_merge_in_linear_time() {
    // Section `i`: function `f<i>` on line 1, which ran unless `i` is a multiple of 3, and
    // line 2 run in odd sections only.
    let text: String = (0..PARTS)
        .map(|i| section(&symbol(i, false), i % 3 != 0, 2, (i % 2) as u64))
        .collect();
    let (report, _) = read_ok(&text);
    assert_eq!(report.files.len(), 1);
    let file = lcov(&report, 0);
    assert!(!file.merge_conflict());
    assert_eq!(file.functions().len(), PARTS);
    let summary = file.summary();
    // Every third function never ran: 6,666 of 10,000 (the merge's bound, 1 of 1 from
    // `FNF:1`, would be better: the records are judged).
    assert_eq!(summary.functions, c(6_666, 10_000));
    assert_eq!(summary.lines, c(2, 2));
    assert_eq!(file.missed_functions().len(), 3_334);
    // Copies of one function (a crate hash per test binary) that ran in several sections:
    // llvm-cov counts their best copy, which the records cannot tell, found as quickly.
    let copies: String = (0..PARTS)
        .map(|i| section(&symbol(i, true), true, 2, 1))
        .collect();
    let (report, _) = read_ok(&copies);
    assert!(lcov(&report, 0).merge_conflict());
}

#[test]
fn many_reports_of_one_file_merge_in_linear_time() {
    // Report `i`: function `f<i>` on line 1, ran unless `i` is a multiple of 3; line `i + 2`
    // run in odd reports only.
    let sections: Vec<String> = (0..PARTS)
        .map(|i| section(&symbol(i, false), i % 3 != 0, i + 2, (i % 2) as u64))
        .collect();
    let files: Vec<LcovFile> = sections
        .iter()
        .map(|text| lcov(&read_ok(text).0, 0).clone())
        .collect();
    let mut merged = LcovFile::default();
    merged.merge_all(files);
    assert!(!merged.merge_conflict());
    let summary = merged.summary();
    assert_eq!(summary.functions, c(6_666, 10_000));
    // Line 1 ran everywhere, lines 2 ..= 10,001 in odd reports: 5,001 of 10,001.
    assert_eq!(summary.lines, c(5_001, 10_001));
    assert_eq!(merged.uncovered_lines().first(), Some(&2));
    assert_eq!(merged.uncovered_lines().len(), 5_000);
    // The same as the sections of one tracefile (`cat` of the reports) merge.
    let (joined, _) = read_ok(&sections.concat());
    assert_eq!(&merged, lcov(&joined, 0));
}

#[test]
fn a_report_given_again_and_again_keeps_its_declared_totals() {
    // An llvm-cov section whose declared totals its records do not give (one function of two
    // instantiations: FNF 1): given three times alike, its totals still hold; the lines set
    // aside at the second merge are merged before the third compares them.
    let text = "SF:src/x.rs\nFN:1,_RINvCs1_1x4pickhE\nFN:1,_RINvCs1_1x4picktE\n\
                FNDA:1,_RINvCs1_1x4pickhE\nFNDA:0,_RINvCs1_1x4picktE\nFNF:1\nFNH:1\n\
                DA:1,1\nDA:2,0\nLF:2\nLH:1\nend_of_record\n";
    let file = lcov(&read_ok(text).0, 0).clone();
    let mut merged = LcovFile::default();
    merged.merge_all([file.clone(), file.clone(), file]);
    assert!(!merged.merge_conflict());
    assert_eq!(merged.summary().functions, c(1, 1));
    assert_eq!(merged.summary().lines, c(1, 2));
    assert_eq!(merged.lines().collect::<Vec<_>>(), [(1, 3), (2, 0)]);
}
