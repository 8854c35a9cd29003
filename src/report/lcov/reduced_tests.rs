//! Tests of files reduced to their verdict: every answer `covgate check` asks of a file is the
//! one the file read whole gives, and a reduced file's path that comes again restarts the read.

use proptest::prelude::*;

use super::blocks;
use super::reduced::Identities;
use super::support_tests::*;
use super::{read, LcovFile, Parser, STREAM_CHUNK};
use crate::report::input::Window;
use crate::report::{FileCoverage, Report};

/// Everything measure, judge and the lists of uncovered items ask of a file.
fn verdict(file: &LcovFile) -> String {
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}",
        file.summary(),
        file.merge_conflict(),
        file.summed_instantiations(),
        file.has_records(),
        file.missed_functions(),
        file.uncovered_lines(),
        file.uncovered_branches(),
    )
}

/// Each file of `report` reduced (when it can be), its verdict checked against the file's own.
/// Returns how many were reduced.
fn reduces_alike(report: &Report) -> usize {
    let mut identities = Identities::default();
    let mut reduced = 0;
    for file in &report.files {
        let FileCoverage::Lcov(whole) = &file.coverage else {
            continue;
        };
        let mut small = whole.clone();
        small.reduce(&mut identities);
        assert_eq!(verdict(&small), verdict(whole), "{}", file.path);
        reduced += usize::from(small.is_reduced());
    }
    reduced
}

#[test]
fn every_tracefile_of_the_fixtures_reduces_to_its_verdict() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut found = Vec::new();
    let mut folders = vec![root];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("fixtures").flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e == "info" || e == "lcov" || e == "dat")
            {
                found.push(path);
            }
        }
    }
    let mut reduced = 0;
    for path in &found {
        let bytes = std::fs::read(path).expect("fixture");
        if let Ok(report) = read("t.info", &bytes) {
            reduced += reduces_alike(&report);
        }
    }
    assert!(found.len() > 40, "{} tracefiles", found.len());
    assert!(reduced > 100, "{reduced} files reduced");
}

/// A section of one file: `DA` lines, `BRDA` sides, functions (llvm-cov's copies: one start
/// line, names differing in the crate hash, or distinct functions sharing a line), with or
/// without llvm-cov's declared totals.
fn section() -> impl Strategy<Value = String> {
    let lines = prop::collection::vec((1u32..30, 0u64..3), 0..12);
    let branches =
        prop::collection::vec((1u32..30, 0u8..2, 0u8..2, prop::option::of(0u64..3)), 0..8);
    let functions =
        prop::collection::vec((prop::option::of(1u32..6), 0u8..3, 0u8..2, 0u64..3), 0..8);
    let declared = prop::option::of((0u64..4, 0u64..4, 0u64..4));
    (lines, branches, functions, declared).prop_map(|(lines, branches, functions, declared)| {
        let mut text = String::from("SF:a.rs\n");
        for (start, what, crate_hash, count) in &functions {
            // Rust symbols of `f` or `g` from two crates; a function without `FN` is only
            // named by its `FNDA`.
            let name = format!(
                "_RNvCs{crate_hash}_4demo1{}",
                ["f", "g", "h"][*what as usize]
            );
            if let Some(start) = start {
                text.push_str(&format!("FN:{start},{name}\n"));
            }
            text.push_str(&format!("FNDA:{count},{name}\n"));
        }
        for (line, block, branch, taken) in &branches {
            let taken = taken.map_or("-".to_string(), |t| t.to_string());
            text.push_str(&format!("BRDA:{line},{block},{branch},{taken}\n"));
        }
        for (line, count) in &lines {
            text.push_str(&format!("DA:{line},{count}\n"));
        }
        if let Some((fnh, lh, brh)) = declared {
            let found = |hit: u64| hit + 2;
            text.push_str(&format!(
                "FNF:{}\nFNH:{fnh}\nLF:{}\nLH:{lh}\nBRF:{}\nBRH:{brh}\n",
                found(fnh),
                found(lh),
                found(brh)
            ));
        }
        text.push_str("end_of_record\n");
        text
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// A file reduced once read (its sections merged, or one) answers as the whole file does.
    #[test]
    fn a_reduced_file_keeps_its_verdict(sections in prop::collection::vec(section(), 1..3)) {
        let text = sections.concat();
        let (report, _) = read_ok(&text);
        reduces_alike(&report);
    }

    /// Read reducing, from a file (windows of any size), a tracefile gives the verdicts of the
    /// tracefile read whole: restarted when a reduced file comes again.
    #[test]
    fn a_tracefile_read_reducing_keeps_every_verdict(
        sections in prop::collection::vec(section(), 1..4),
        paths in prop::collection::vec(0u8..3, 4),
        chunk in 1usize..200,
    ) {
        let named: Vec<String> = sections
            .iter()
            .zip(&paths)
            .map(|(s, p)| s.replacen("SF:a.rs", &format!("SF:{p}.rs"), 1))
            .collect();
        let text = named.concat();
        let (whole, _) = read_ok(&text);
        match reducing(text.as_bytes(), chunk, &|_| false) {
            Some(report) => {
                prop_assert_eq!(verdicts(&report), verdicts(&whole));
            }
            None => {
                // Only a path named twice restarts.
                prop_assert!(whole.files.len() < named.len());
            }
        }
    }
}

/// The verdict of every file of `report`, with its path.
fn verdicts(report: &Report) -> Vec<(String, String)> {
    report
        .files
        .iter()
        .map(|f| (f.path.clone(), verdict(lcov_of(f))))
        .collect()
}

/// `text` read by a reducing parser in windows of `chunk` bytes (blocks of one byte); `None`
/// when it must be read again.
fn reducing(text: &[u8], chunk: usize, marked: &(dyn Fn(&str) -> bool + Sync)) -> Option<Report> {
    let mut input = text;
    let mut window = Window::new(&mut input, chunk);
    let parser = Parser::reducing("t.info", marked);
    let parser = blocks::read_window(parser, &mut window, chunk, 1).expect("reads");
    if parser.must_restart() {
        return None;
    }
    Some(parser.finish().expect("finishes").0)
}

/// A file (`a.rs`, then `b.rs`) of llvm-cov's shape: `f` ran, lines 1 and 2, line 3 missed.
const TWO: &str = "SF:a.rs\nFN:1,f\nFNDA:1,f\nFN:5,g\nFNDA:0,g\nFNF:2\nFNH:1\n\
    BRDA:2,0,0,1\nBRDA:2,0,1,0\nBRF:2\nBRH:1\nDA:1,1\nDA:2,4\nDA:3,0\nLF:3\nLH:2\nend_of_record\n\
    SF:b.rs\nDA:1,1\nend_of_record\n";

#[test]
fn files_read_reducing_keep_only_their_misses() {
    let report = reducing(TWO.as_bytes(), STREAM_CHUNK, &|_| false).expect("no restart");
    let (whole, _) = read_ok(TWO);
    assert_eq!(verdicts(&report), verdicts(&whole));
    let a = lcov(&report, 0);
    assert!(a.is_reduced());
    assert_eq!(a.lines().collect::<Vec<_>>(), [(3, 0)]);
    assert_eq!(a.branches().len(), 1);
    assert_eq!(a.functions().len(), 1);
    assert_eq!(a.summary().lines, c(2, 3));
    // A file with every item covered keeps no record, and still has records.
    let b = lcov(&report, 1);
    assert!(b.is_reduced() && b.has_records());
    assert_eq!(b.lines().count(), 0);
    assert_eq!(b.summary().lines, c(1, 1));
    // Branch data is known from the records before they were reduced.
    let covered = TWO.replace("BRDA:2,0,1,0", "BRDA:2,0,1,2");
    let report = reducing(covered.as_bytes(), STREAM_CHUNK, &|_| false).expect("no restart");
    assert!(lcov(&report, 0).branches().is_empty());
    assert!(report.has_branch_data);
}

#[test]
fn a_file_that_may_carry_markers_keeps_every_record() {
    let report = reducing(TWO.as_bytes(), STREAM_CHUNK, &|path| path == "a.rs").expect("read");
    let (whole, _) = read_ok(TWO);
    assert!(!lcov(&report, 0).is_reduced());
    assert_eq!(lcov(&report, 0), lcov(&whole, 0));
    assert!(lcov(&report, 1).is_reduced());
}

#[test]
fn a_reduced_file_named_again_restarts_the_read() {
    // `a.rs` again in the window after the one that read it: merged, nothing reduced yet, and
    // from then on nothing is (the tracefile repeats paths), so no restart either.
    let again = format!("{TWO}SF:a.rs\nDA:3,1\nend_of_record\n");
    let report = reducing(again.as_bytes(), TWO.len(), &|_| false).expect("no restart");
    assert_eq!(verdicts(&report), verdicts(&read_ok(&again).0));
    assert!(report.files.iter().all(|f| !lcov_of(f).is_reduced()));
    // Windows later, after `a.rs` was reduced: the read must start again.
    let fill: String = (1..=80).map(|line| format!("DA:{line},1\n")).collect();
    let later = format!("{TWO}SF:c.rs\n{fill}end_of_record\nSF:a.rs\nDA:3,1\nend_of_record\n");
    assert!(reducing(later.as_bytes(), TWO.len(), &|_| false).is_none());
    // Named again by a section without records: nothing to merge, no restart.
    let named = format!("{TWO}SF:c.rs\n{fill}end_of_record\nSF:a.rs\nend_of_record\n");
    let report = reducing(named.as_bytes(), TWO.len(), &|_| false).expect("no restart");
    assert_eq!(verdicts(&report), verdicts(&read_ok(&named).0));
    assert!(lcov(&report, 0).is_reduced());
    // A merge that meets a reduced file is a conflict, never counted from what is left.
    let read = reducing(TWO.as_bytes(), STREAM_CHUNK, &|_| false).expect("read");
    let mut a = lcov(&read, 0).clone();
    a.merge(lcov(&read_ok(TWO).0, 0).clone());
    assert!(a.merge_conflict());
}

#[test]
fn files_that_sum_instantiations_or_have_no_records_stay_whole() {
    // Two rustc instantiations of `pick` that ran, summed by a rewriter (a `TN` before the
    // section: not llvm-cov's shape): an error for the check, which names them.
    let summed = "TN:\nSF:a.rs\nFN:2,_RINvCs1_6shards4pickhEB2_\nFN:2,_RINvCs1_6shards4picktEB2_\n\
        FNDA:1,_RINvCs1_6shards4pickhEB2_\nFNDA:1,_RINvCs1_6shards4picktEB2_\nDA:2,2\n\
        end_of_record\nSF:b.rs\nend_of_record\n";
    let report = reducing(summed.as_bytes(), STREAM_CHUNK, &|_| false).expect("read");
    let a = lcov(&report, 0);
    assert!(!a.is_reduced());
    assert!(a.summed_instantiations().is_some());
    assert!(!lcov(&report, 1).is_reduced());
    assert!(!lcov(&report, 1).has_records());
}
