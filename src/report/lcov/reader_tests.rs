//! Tests of the LCOV reader: records, sections, merging and counting.

use super::identity::*;
use super::support_tests::*;
use super::*;
use crate::model::Counts;
use crate::report::{Report, ReportKind};

#[test]
fn sections_without_records_name_a_file_and_measure_nothing() {
    // A section holding only declared totals or ignored records has no records.
    let (r, _) = read_ok("SF:a.c\nTN:x\nLF:0\nLH:0\nend_of_record\n");
    assert!(!lcov(&r, 0).has_records());
    for record in ["DA:1,0", "BRDA:1,0,0,-", "FN:1,f", "FNDA:0,f", "FNL:0,1"] {
        let (r, _) = read_ok(&format!("SF:a.c\n{record}\nend_of_record\n"));
        assert!(lcov(&r, 0).has_records(), "{record}");
    }
    // llvm-cov's declared LH (per instantiation group) stays when an empty section of the
    // same file comes before or after: the empty one adds nothing.
    let real = "SF:a.rs\nFNF:0\nFNH:0\nDA:1,1\nDA:2,1\nLF:2\nLH:1\nend_of_record\n";
    let bare = "SF:a.rs\nend_of_record\n";
    for text in [
        format!("{real}{bare}"),
        format!("{bare}{real}"),
        format!("{bare}{real}{bare}"),
    ] {
        let (r, _) = read_ok(&text);
        assert_eq!(r.files.len(), 1);
        assert_eq!(lcov(&r, 0).summary().lines, c(1, 2), "{text}");
    }
    // A later section with records, after an empty one and a split block, keeps them all.
    let text = format!(
        "{bare}SF:b.c\nDA:1,1\nend_of_record\n{bare}SF:a.rs\nDA:3,0\nend_of_record\n{real}"
    );
    for size in [1, 1 << 20] {
        let (r, _) = read_in_blocks("t.info", text.as_bytes(), size).expect("read");
        assert_eq!(lcov(&r, 0).summary().lines, c(2, 3), "{size}");
    }
}

#[test]
fn bom_crlf_blank_comments_trailing_space_and_sf_space() {
    let text = "\u{FEFF}TN:\r\n# comment\r\n\r\nSF: src/a.rs  \r\nDA:1,1 \r\nDA:2,0\r\n   \r\nend_of_record  \r\n";
    let (report, warnings) = read_ok(text);
    assert_eq!(warnings, Vec::<String>::new());
    assert_eq!(report.files.len(), 1);
    assert_eq!(report.files[0].path, "src/a.rs");
    assert_eq!(report.kind, ReportKind::Lcov);
    assert!(
        !report.has_branch_data,
        "no BRDA anywhere: branches unavailable"
    );
    assert!(
        read_ok("SF:a\nBRDA:1,0,0,1\nend_of_record\n")
            .0
            .has_branch_data
    );
    assert_eq!(report.manifest_path, None);
    assert_eq!(lcov(&report, 0).summary().lines, c(1, 2));
    assert_eq!(lcov(&report, 0).uncovered_lines(), vec![2]);
}

#[test]
fn a_section_cut_short_at_the_end_is_ignored_with_a_warning() {
    // A truncated tracefile: the last section's records are no evidence; the file is only
    // named, as by a section without records.
    let (report, warnings) = read_ok("SF:a.c\nDA:1,1");
    assert_eq!(report.files.len(), 1);
    assert!(!lcov(&report, 0).has_records());
    assert!(lcov(&report, 0).is_cut_short());
    assert_eq!(
        warnings,
        ["t.info:2: missing final `end_of_record` for `a.c`: its section is ignored (the tracefile may be cut short)"]
    );
    // An earlier whole section of the same file keeps its records, and the file is marked cut
    // short: the cut one's records (two misses here) are not known.
    let (report, warnings) = read_ok("SF:a.c\nDA:1,1\nend_of_record\nSF:a.c\nDA:2,0\nDA:3,0");
    assert_eq!(lcov(&report, 0).summary().lines, c(1, 1));
    assert!(lcov(&report, 0).is_cut_short());
    assert_eq!(warnings.len(), 1);
    // Cut short first, whole after: still marked.
    let (report, _) = read_ok("SF:a.c\nDA:2,0\nSF:a.c\nDA:1,1\nend_of_record\n");
    assert_eq!(lcov(&report, 0).summary().lines, c(1, 1));
    assert!(lcov(&report, 0).is_cut_short());
    // Whole, cut short, whole again: the last merges into a file marked cut, which stays so.
    let (report, _) =
        read_ok("SF:a.c\nDA:1,1\nend_of_record\nSF:a.c\nDA:2,0\nSF:a.c\nDA:3,1\nend_of_record\n");
    assert_eq!(lcov(&report, 0).summary().lines, c(2, 2));
    assert!(lcov(&report, 0).is_cut_short());
    // A whole file is not.
    let (report, _) = read_ok("SF:a.c\nDA:1,1\nend_of_record\nSF:a.c\nDA:2,1\nend_of_record\n");
    assert!(!lcov(&report, 0).is_cut_short());
    // The section's own warnings are still given.
    let (report, warnings) = read_ok("TN:\nSF:b.c\nDA:1,1\nLF:3\nLH:1");
    assert!(!lcov(&report, 0).has_records());
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("LF:3 LH:1 disagree"), "{warnings:?}");
}

#[test]
fn a_section_cut_short_before_the_next_sf_is_ignored_with_a_warning() {
    // `cat` of a truncated shard and a whole one: the first section may have lost records (a
    // function, a line never run), so it counts as one cut short at the end does.
    let (report, warnings) = read_ok("SF:a.c\nDA:1,1\nSF:b.c\nDA:1,0\nend_of_record\n");
    assert_eq!(report.files.len(), 2);
    assert!(!lcov(&report, 0).has_records());
    assert_eq!(lcov(&report, 1).summary().lines, c(0, 1));
    assert_eq!(
        warnings,
        ["t.info:3: `SF` before the `end_of_record` of `a.c`: its section is ignored (a tracefile cut short, then another appended?)"]
    );
    // A whole section of the same file, before or after, still counts.
    let (report, _) = read_ok("SF:a.c\nDA:1,1\nSF:a.c\nDA:1,1\nDA:2,0\nend_of_record\n");
    assert_eq!(lcov(&report, 0).summary().lines, c(1, 2));
    assert!(lcov(&report, 0).is_cut_short());
}

#[test]
fn glued_end_of_record_is_split() {
    let text = "SF:a.c\nDA:1,1\nend_of_recordSF:b.c\nDA:2,0\nend_of_record";
    let (report, warnings) = read_ok(text);
    let paths: Vec<&str> = report.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["a.c", "b.c"]);
    assert_eq!(lcov(&report, 0).uncovered_lines(), Vec::<u32>::new());
    assert_eq!(lcov(&report, 1).uncovered_lines(), vec![2]);
    assert!(warnings[0].starts_with("t.info:3: `end_of_record` glued"));
}

#[test]
fn other_text_after_end_of_record_is_an_error() {
    let e = read_err(b"SF:a.c\nDA:1,1\nend_of_recordgarbage\n");
    assert!(e.starts_with("t.info:3: unexpected text `garbage`"), "{e}");
}

#[test]
fn non_utf8_bytes_are_replaced_with_a_warning() {
    let (report, warnings) = read_ok_bytes(b"SF:caf\xE9.c\nDA:1,1\nend_of_record\n");
    assert_eq!(report.files[0].path, "caf\u{FFFD}.c");
    assert!(warnings[0].starts_with("t.info:1: bytes that are not UTF-8"));
}

fn read_ok_bytes(bytes: &[u8]) -> (Report, Vec<String>) {
    match read_with_warnings("t.info", bytes) {
        Ok(r) => r,
        Err(e) => panic!("unexpected error: {e}"),
    }
}

#[test]
fn unknown_records_warn() {
    let (_, warnings) = read_ok("SF:a.c\nXYZ:1\nDA:1,1\nend_of_record\n");
    assert_eq!(warnings, ["t.info:2: unknown record type `XYZ` skipped"]);
}

#[test]
fn mid_file_bom_is_skipped() {
    let (report, _) =
        read_ok("SF:a.c\nDA:1,1\nend_of_record\n\u{FEFF}SF:b.c\nDA:1,1\nend_of_record\n");
    assert_eq!(report.files[1].path, "b.c");
}

#[test]
fn fn_end_line_and_commas_in_names() {
    let text = "SF:a.cpp\nFN:1,5,legacy_sum\nFN:9,f(int, long)\nFN:12,20,g(a, b)\nFNDA:1,legacy_sum\nFNDA:0,f(int, long)\nend_of_record\n";
    let (report, _) = read_ok(text);
    let f = lcov(&report, 0).functions();
    assert_eq!(
        (f[0].start, f[0].end, f[0].name.as_str()),
        (Some(1), Some(5), "legacy_sum")
    );
    assert_eq!(
        (f[1].start, f[1].end, f[1].name.as_str()),
        (Some(9), None, "f(int, long)")
    );
    assert_eq!(
        (f[2].start, f[2].end, f[2].name.as_str()),
        (Some(12), Some(20), "g(a, b)")
    );
    let un = lcov(&report, 0).uncovered_functions();
    let names: Vec<&str> = un.iter().map(|u| u.function.name.as_str()).collect();
    assert_eq!(names, ["f(int, long)", "g(a, b)"]);
}

#[test]
fn fn_name_that_is_digits_only() {
    let (report, _) = read_ok("SF:a\nFN:3,42\nend_of_record\n");
    let f = &lcov(&report, 0).functions()[0];
    assert_eq!((f.start, f.end, f.name.as_str()), (Some(3), None, "42"));
}

#[test]
fn fnda_before_fn_and_fnda_without_fn() {
    let (report, _) = read_ok("SF:a\nFNDA:2,f\nFN:3,f\nFNDA:1,f\nFNDA:0,orphan\nend_of_record\n");
    let f = lcov(&report, 0).functions();
    assert_eq!(f.len(), 2);
    assert_eq!((f[0].start, f[0].count), (Some(3), 3));
    assert_eq!(
        (f[1].start, f[1].name.as_str(), f[1].count),
        (None, "orphan", 0)
    );
}

#[test]
fn fnl_fna_aliases_are_one_function() {
    let text =
        "SF:s.cpp\nFNL:0,4,8\nFNA:0,0,_ZN1AC2Ev\nFNA:0,3,_ZN1AC1Ev\nFNL:1,11\nFNA:1,0,area\nend_of_record\n";
    let (report, _) = read_ok(text);
    let file = lcov(&report, 0);
    let f = file.functions();
    assert_eq!(f.len(), 2);
    assert_eq!(
        (f[0].start, f[0].end, f[0].name.as_str(), f[0].count),
        (Some(4), Some(8), "_ZN1AC1Ev", 3)
    );
    assert_eq!(f[0].aliases, ["_ZN1AC1Ev", "_ZN1AC2Ev"]);
    assert_eq!(file.summary().functions, c(1, 2));
}

/// An llvm-cov section of `a`: two instantiations of template `f` at line 1 (one ran), `g`
/// at line 5, DA lines 1 and 2 both run, a macro's branch repeated under `BRF:0`, declared
/// LH:1.
const LLVM: &str = "SF:a\nFN:1,_Z1fIiEvT_\nFN:1,_Z1fIdEvT_\nFN:5,g\nFNDA:1,_Z1fIiEvT_\nFNDA:0,_Z1fIdEvT_\nFNDA:0,g\nFNF:2\nFNH:1\nDA:1,1\nDA:2,3\nBRDA:1,0,0,0\nBRDA:1,0,1,1\nBRF:0\nBRH:0\nLF:2\nLH:1\nend_of_record\n";

fn counts(text: &str) -> [Option<Counts>; 3] {
    let (r, _) = read_ok(text);
    let s = lcov(&r, 0).summary();
    [s.lines, s.branches, s.functions]
}

#[test]
fn llvm_cov_sections_are_known_by_their_order_and_their_totals_stand() {
    // llvm-cov's: its declared totals, even where the records say otherwise.
    assert_eq!(counts(LLVM), [c(1, 2), c(0, 0), c(1, 2)]);
    let (r, _) = read_ok(LLVM);
    let file = lcov(&r, 0);
    assert_eq!(
        file.missed_functions(),
        [(Some(5), "g".to_string())],
        "one item per function"
    );
    // MC/DC records and a branch-less section (no BRF) keep the shape.
    let mcdc = LLVM.replace("BRF:0\n", "MCDC:1,2,t,0\nBRF:0\n");
    assert_eq!(counts(&mcdc), [c(1, 2), c(0, 0), c(1, 2)]);
    let plain = LLVM.replace("BRDA:1,0,0,0\nBRDA:1,0,1,1\nBRF:0\nBRH:0\n", "");
    assert_eq!(counts(&plain)[0], c(1, 2));
    // Any other order or record is another writer's: the records are counted, unless its
    // declared totals are worse.
    for other in [
        format!("TN:\n{LLVM}"),
        format!("VER:2\n{LLVM}"),
        LLVM.replace("FNF:2\n", "FNF:2\nTN:x\n"),
        LLVM.replace("DA:1,1\nDA:2,3\n", "")
            .replace("BRF:0\n", "BRF:0\nDA:1,1\nDA:2,3\n"),
        LLVM.replace("FN:1,f_a\n", "")
            .replace("FNF:2\n", "FN:1,f_a\nFNF:2\n"),
        LLVM.replace("FNF:2\nFNH:1\n", ""),
        LLVM.replace("LH:1\n", ""),
        LLVM.replace("FN:5,g\n", "FNL:0,5\n"),
        // grcov's writer: `BRDA`, `BRF`, `BRH` before `DA` (and one `TN:` at the top).
        LLVM.replace("DA:1,1\nDA:2,3\n", "")
            .replace("LF:2\n", "DA:1,1\nDA:2,3\nLF:2\n"),
    ] {
        // (Its `BRF:0` is no worse than the records' 1 of 2 branch sides.)
        assert_eq!(counts(&other)[1], c(1, 2), "{other}");
    }
    // Functions of other writers: the same items, the records' count, each record a function
    // where that is worse (gcov and lcov count a template's instantiations apart: `f<double>`
    // never ran, 1 of 3; breaker s16, finding 6).
    let (r, _) = read_ok(&format!("TN:\n{LLVM}"));
    assert_eq!(lcov(&r, 0).missed_functions(), [(Some(5), "g".to_string())]);
    assert_eq!(lcov(&r, 0).summary().functions, c(1, 3));
    assert_eq!(lcov(&r, 0).function_groups(), Counts::new(1, 2));
    assert_eq!(function_identity("t.cpp:_ZL6unusedi"), "unused");
    assert_eq!(function_identity("_ZNK1S3getEv"), "S::get");
    for name in ["x_Z1fv", "void foo<int>(int)"] {
        assert_eq!(function_identity(name), name);
    }
    // Not C++ symbols after a file: clang's names of static C functions (`file:name`).
    assert_eq!(function_identity("a:_Zjunk"), "_Zjunk");
    assert_eq!(function_identity("b:_Z"), "_Z");
    // Two missed instantiations: one item, named by the identity; one record: its name.
    let both = LLVM.replace("FNDA:1,_Z1fIiEvT_", "FNDA:0,_Z1fIiEvT_");
    let (r, _) = read_ok(&both);
    assert_eq!(
        lcov(&r, 0).missed_functions(),
        [(Some(1), "f".to_string()), (Some(5), "g".to_string())]
    );
}

#[test]
fn llvm_cov_totals_that_claim_fewer_misses_than_the_records_prove_are_not_used() {
    // Finding 1: every record says "never ran", the totals say everything ran.
    let text =
        "SF:a\nFN:1,g\nFNDA:0,g\nFNF:1\nFNH:1\nDA:1,0\nDA:2,0\nDA:3,0\nLF:3\nLH:3\nend_of_record\n";
    let (r, warnings) = read_ok(text);
    assert_eq!(counts(text), [c(0, 3), c(0, 0), c(0, 1)]);
    assert_eq!(lcov(&r, 0).uncovered_lines(), [1, 2, 3]);
    let tail = "and no llvm-cov run counts fewer misses than its records prove); covgate counts the records";
    assert_eq!(
        warnings,
        [
            format!("t.info:9: LF:3 LH:3 claim more covered than the section's records show (3 lines, 0 hit, {tail}"),
            format!("t.info:4: FNF:1 FNH:1 claim more covered than the section's records show (1 functions, 0 hit, {tail}"),
        ]
    );
    // As many misses declared as proved (a line run by one instantiation, missed by the
    // group's best): llvm-cov's totals stand, silently. Branch sides prove nothing (folded
    // sides are written as 0, outside `BRF`).
    let (_, warnings) = read_ok(LLVM);
    assert!(warnings.is_empty(), "{warnings:?}");
    let two = text
        .replace("DA:1,0", "DA:1,4")
        .replace("FNDA:0,g", "FNDA:1,g")
        .replace("LH:3", "LH:1");
    assert_eq!(counts(&two), [c(1, 3), c(0, 0), c(1, 1)]);
    // A function that only `FNDA` names has no start line: it proves no missed function.
    let unplaced = two.replace("FNDA:1,g\n", "FNDA:1,g\nFNDA:0,h\n");
    assert_eq!(counts(&unplaced), [c(1, 3), c(0, 0), c(1, 1)]);
}

#[test]
fn declared_totals_of_other_writers_are_checked_and_used_when_worse() {
    let text = "TN:\nSF:a\nDA:1,1\nDA:2,0\nLF:3\nLH:1\nBRDA:1,0,0,1\nBRF:2\nBRH:1\nFN:1,f\nFNDA:1,f\nFNF:1\nFNH:0\nend_of_record\n";
    let (r, warnings) = read_ok(text);
    let worse = "covgate judges the declared totals, the worse (the missed items the records do not hold cannot be listed)";
    assert_eq!(
        [
            lcov(&r, 0).summary().lines,
            lcov(&r, 0).summary().branches,
            lcov(&r, 0).summary().functions
        ],
        [c(1, 3), c(1, 2), c(0, 1)]
    );
    assert_eq!(
            warnings,
            [
                format!("t.info:5: LF:3 LH:1 disagree with the section's records (2 lines, 1 hit); {worse}"),
                format!("t.info:8: BRF:2 BRH:1 disagree with the section's records (1 branch sides, 1 hit); {worse}"),
                format!("t.info:12: FNF:1 FNH:0 disagree with the section's records (1 functions, 1 hit); {worse}"),
            ]
        );
    // Totals better than the records: the records count. As low a share with more misses
    // (2 of 4 against 1 of 2): the declared pair. Misses declared without a record of the
    // metric (finding 5: `LF:9 LH:0`, no `DA`): 0 of 9, not a vacuous 0 of 0.
    for (declared, lines) in [("LF:2\nLH:2", c(1, 2)), ("LF:4\nLH:2", c(2, 4))] {
        let (r, warnings) = read_ok(&format!(
            "TN:\nSF:a\nDA:1,1\nDA:2,0\n{declared}\nend_of_record\n"
        ));
        assert_eq!(lcov(&r, 0).summary().lines, lines, "{declared}");
        assert_eq!(warnings.len(), 1, "{warnings:?}");
    }
    let (r, _) = read_ok("TN:\nSF:a\nFN:1,f\nFNDA:1,f\nLF:9\nLH:0\nend_of_record\n");
    assert_eq!(lcov(&r, 0).summary().lines, c(0, 9));
    let (r, _) = read_ok("TN:\nSF:a\nDA:1,1\nFNF:3\nFNH:0\nend_of_record\n");
    assert_eq!(lcov(&r, 0).summary().functions, c(0, 3));
    // SpiderMonkey (read by grcov) counts `DA` records, a repeated line twice: explained.
    let (r, warnings) = read_ok("TN:\nSF:a\nDA:1,1\nDA:1,1\nDA:2,0\nLF:3\nLH:2\nend_of_record\n");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(lcov(&r, 0).summary().lines, c(1, 2));
    // Agreeing totals, or half a pair: nothing to say.
    let (_, warnings) = read_ok("TN:\nSF:a\nDA:1,1\nLF:1\nLH:1\nBRF:4\nend_of_record\n");
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn llvm_cov_sections_merge_only_when_their_records_reproduce_their_totals() {
    // Given twice: the same numbers, declared totals kept.
    let (r, _) = read_ok(&format!("{LLVM}{LLVM}"));
    let file = lcov(&r, 0);
    assert!(!file.merge_conflict());
    assert_eq!(file.summary().lines, c(1, 2));
    // Two shards whose records give their totals: merged on the records (case 19).
    let one = "SF:a\nFN:1,f\nFNDA:1,f\nFNF:1\nFNH:1\nDA:1,1\nDA:2,0\nLF:2\nLH:1\nend_of_record\n";
    let two = one.replace("DA:1,1\nDA:2,0", "DA:1,0\nDA:2,4");
    let (r, _) = read_ok(&format!("{one}{two}"));
    assert!(!lcov(&r, 0).merge_conflict());
    assert_eq!(lcov(&r, 0).summary().lines, c(2, 2));
    // A shard whose totals its records cannot give: no exact merge, in either order and
    // across reports too.
    for text in [format!("{one}{LLVM}"), format!("{LLVM}{one}")] {
        let (r, _) = read_ok(&text);
        assert!(lcov(&r, 0).merge_conflict(), "{text}");
    }
    let (a, _) = read_ok(one);
    let (b, _) = read_ok(LLVM);
    let mut merged = lcov(&a, 0).clone();
    merged.merge(lcov(&b, 0).clone());
    assert!(merged.merge_conflict());
    let mut again = lcov(&a, 0).clone();
    again.merge(merged);
    assert!(again.merge_conflict(), "a conflict stays");
    // The same the other way round: the llvm-cov section first.
    let mut reverse = lcov(&b, 0).clone();
    reverse.merge(lcov(&a, 0).clone());
    assert!(reverse.merge_conflict());
    // Merging into or from an empty value keeps the file as it was.
    let mut acc = LcovFile::default();
    acc.merge(lcov(&b, 0).clone());
    acc.merge(LcovFile::default());
    assert_eq!(acc.summary().lines, c(1, 2));
    assert!(!acc.merge_conflict());
}

#[test]
fn fnl_groups_of_two_shards_merge() {
    let a = "SF:s.cpp\nFNL:0,4\nFNA:0,0,_ZN1AC2Ev\nFNA:0,0,_ZN1AC1Ev\nend_of_record\n";
    let b = "SF:s.cpp\nFNL:7,4\nFNA:7,1,_ZN1AC1Ev\nFNA:7,0,_ZN1AC2Ev\nend_of_record\n";
    let (report, _) = read_ok(&format!("{a}{b}"));
    assert_eq!(lcov(&report, 0).summary().functions, c(1, 1));
}

#[test]
fn brda_dash_text_branches_and_flags() {
    let text =
        "SF:a\nBRDA:1,0,0,-\nBRDA:1,0,1,2\nBRDA:2,e0,x(a, b) < c,1\nBRDA:0,U1,0,0\nend_of_record\n";
    let (report, _) = read_ok(text);
    let file = lcov(&report, 0);
    assert_eq!(file.branches()[2].branch, "x(a, b) < c");
    assert_eq!(file.branches()[2].block, "e0");
    assert_eq!(file.summary().branches, c(2, 4));
    let un: Vec<(u32, Option<u64>)> = file
        .uncovered_branches()
        .iter()
        .map(|b| (b.line, b.taken))
        .collect();
    assert_eq!(un, [(0, Some(0)), (1, None)]);
}

#[test]
fn da_repeats_sum_and_checksums_are_accepted() {
    let (report, _) =
        read_ok("SF:a\nDA:0,0\nDA:3,0,kq1T5v+/Yb0=\nDA:3,2,c150c688cc\nend_of_record\n");
    let file = lcov(&report, 0);
    assert_eq!(file.lines().collect::<Vec<_>>(), [(0, 0), (3, 2)]);
}

#[test]
fn merge_sums_and_dash_rules() {
    let a = "SF:a\nDA:1,0\nBRDA:1,0,0,-\nBRDA:1,0,1,-\nBRDA:1,0,2,0\nFN:1,f\nFNDA:0,f\nLF:1\nLH:0\nend_of_record\n";
    let b =
        "SF:a\nDA:1,4\nBRDA:1,0,0,-\nBRDA:1,0,1,3\nBRDA:1,0,2,-\nFN:1,f\nFNDA:2,f\nend_of_record\n";
    let (report, _) = read_ok(&format!("{a}{b}"));
    let file = lcov(&report, 0);
    let taken: Vec<Option<u64>> = file.branches().iter().map(|b| b.taken).collect();
    assert_eq!(taken, [None, Some(3), Some(0)]);
    assert_eq!(file.lines().collect::<Vec<_>>(), [(1, 4)]);
    assert_eq!(file.functions()[0].count, 2);
    // declared LF/LH of the first section are dropped once merged
    assert_eq!(file.summary().lines, c(1, 1));
}

#[test]
fn fnda_after_its_fn_counts_for_that_fn_when_the_writer_pairs_them() {
    let functions = |text: &str| {
        let (r, _) = read_ok(text);
        let file = lcov(&r, 0);
        (file.summary().functions, file.missed_functions())
    };
    let missed = |line: u32| vec![(Some(line), "f".to_string())];
    // coverage.py: `FN`, `FNDA` pairs; two `f` (conditional definitions), one ran.
    let paired = "SF:m.py\nFN:1,2,f\nFNDA:1,f\nFN:5,6,f\nFNDA:0,f\nend_of_record\n";
    assert_eq!(functions(paired), (c(1, 2), missed(5)));
    // lcov's order (every `FNDA` after every `FN`): keyed by name, as lcov means.
    let named = "SF:m.c\nFN:1,f\nFN:5,f\nFNDA:1,f\nend_of_record\n";
    assert_eq!(functions(named), (c(2, 2), vec![]));
    // Pairs, but not only: keyed by name.
    let mixed = "SF:m.py\nFN:1,f\nFNDA:0,f\nFN:5,f\nFNDA:1,f\nFNDA:2,g\nFN:9,g\nend_of_record\n";
    assert_eq!(functions(mixed), (c(3, 3), vec![]));
    // One pair only proves nothing: keyed by name.
    let one = "SF:m.c\nFN:1,f\nFN:5,f\nFNDA:0,f\nend_of_record\n";
    assert_eq!(functions(one).0, c(0, 2));
    // A repeated `FN` keeps the count of its own `FNDA`.
    let again = "SF:m.py\nFN:1,f\nFNDA:0,f\nFN:1,f\nFNDA:3,f\nend_of_record\n";
    assert_eq!(functions(again), (c(1, 1), vec![]));
}

#[test]
fn declared_hit_above_found_is_an_error() {
    let e = read_err(b"SF:a\nDA:1,1\nLF:1\nLH:5\nend_of_record\n");
    assert!(e.starts_with("t.info:4: LH:5 is more than LF:1"), "{e}");
    let e = read_err(b"SF:a\nBRH:3\nFNF:9\nBRF:2\nend_of_record\n");
    assert!(e.starts_with("t.info:4: BRH:3 is more than BRF:2"), "{e}");
    let e = read_err(b"SF:a\nFNF:1\nFNH:2\nend_of_record\n");
    assert!(e.starts_with("t.info:3: FNH:2 is more than FNF:1"), "{e}");
}

#[test]
fn empty_section_is_a_file_with_nothing() {
    let (r, _) = read_ok("TN:\nSF:empty.rs\nend_of_record\n");
    let s = lcov(&r, 0).summary();
    assert_eq!(
        (s.lines, s.functions, s.branches),
        (c(0, 0), c(0, 0), c(0, 0))
    );
}

#[test]
fn records_outside_a_section_are_errors() {
    let e = read_err(b"TN:x\nVER:1\nDA:1,1\n");
    assert_eq!(
        e,
        "t.info:3: record outside an `SF` section; expected `SF:<path>` before it"
    );
    let e = read_err(b"SF:a\nDA:1,1\nend_of_record\nFN:1,f\n");
    assert!(e.starts_with("t.info:4: record outside"), "{e}");
    let e = read_err(b"SF:a\nend_of_record\nMCDC:1,1,t,1,0,a\n");
    assert!(e.starts_with("t.info:3: record outside"), "{e}");
}

#[test]
fn no_sf_is_an_error() {
    let e = read_err(b"TN:\n# nothing\n");
    assert!(e.starts_with("t.info: no `SF:` record"), "{e}");
    let e = read_err(b"");
    assert!(e.starts_with("t.info: no `SF:` record"), "{e}");
}

#[test]
fn malformed_numbers_name_the_line() {
    let cases: [(&str, &str); 14] = [
        (
            "DA:4,-3",
            "t.info:3: DA execution count `-3` is negative; expected a non-negative integer count",
        ),
        (
            "DA:10,1.0e+19",
            "t.info:3: DA execution count `1.0e+19` is not a non-negative decimal integer",
        ),
        (
            "DA:1,18446744073709551616",
            "t.info:3: DA execution count `18446744073709551616` is too large",
        ),
        (
            "DA:4294967296,1",
            "t.info:3: DA line `4294967296` is too large (at most 4294967295)",
        ),
        (
            "DA:590",
            "t.info:3: DA: missing execution count; expected `DA:<line>,<count>[,<checksum>]`",
        ),
        (
            "DA:x,1",
            "t.info:3: DA line `x` is not a non-negative decimal integer",
        ),
        (
            "DA:7,1,abcSF:/x",
            "t.info:3: DA: checksum `abcSF:/x` is not base64 or hex",
        ),
        (
            "FNDA:-2,alias",
            "t.info:3: FNDA execution count `-2` is negative",
        ),
        ("FNDA:1,", "t.info:3: FNDA: empty name"),
        ("FN:abc", "t.info:3: FN: missing name"),
        (
            "BRDA:1,1,1,-1",
            "t.info:3: BRDA taken count (or `-`) `-1` is negative",
        ),
        ("BRDA:1,1,1", "t.info:3: BRDA: missing taken count"),
        (
            "FNA:0,x,foo",
            "t.info:3: FNA execution count `x` is not a non-negative decimal integer",
        ),
        (
            "LH:",
            "t.info:3: LH count is missing; expected a non-negative integer count",
        ),
    ];
    for (record, want) in cases {
        let e = read_err(format!("TN:\nSF:a.c\n{record}\nend_of_record\n").as_bytes());
        assert!(e.starts_with(want), "{record}: got {e}");
    }
}

#[test]
fn errors_in_fnl_and_sf() {
    let e = read_err(b"SF:a\nFNL:0\n");
    assert!(e.starts_with("t.info:2: FNL: missing start line"), "{e}");
    let e = read_err(b"SF:a\nFNL:0,1,z\n");
    assert!(e.starts_with("t.info:2: FNL end line `z`"), "{e}");
    let e = read_err(b"SF:   \n");
    assert!(e.starts_with("t.info:1: SF: missing path"), "{e}");
}

#[test]
fn fnl_groups_of_one_key_merge_their_aliases() {
    let a = "SF:s.cpp\nFNL:0,4\nFNA:0,0,_ZN1AC1Ev\nFNA:0,0,_ZN1AC2Ev\nend_of_record\n";
    let b = "SF:s.cpp\nFNL:5,4\nFNA:5,1,_ZN1AC1Ev\nFNA:5,0,_ZN1AC3Ev\nend_of_record\n";
    let (report, _) = read_ok(&format!("{a}{b}"));
    let f = lcov(&report, 0).functions();
    assert_eq!(f.len(), 1);
    assert_eq!(
        (f[0].start, f[0].name.as_str(), f[0].count),
        (Some(4), "_ZN1AC1Ev", 1)
    );
    assert_eq!(f[0].aliases, ["_ZN1AC1Ev", "_ZN1AC2Ev", "_ZN1AC3Ev"]);
}

#[test]
fn fna_without_fnl_and_fnl_without_fna() {
    let (report, _) =
        read_ok("SF:a\nFNA:3,1,_ZN1AC2Ev\nFNA:3,2,_ZN1AC1Ev\nFNL:2,7,9\nend_of_record\n");
    let f = lcov(&report, 0).functions();
    assert_eq!(f.len(), 2);
    assert_eq!(
        (f[0].start, f[0].end, f[0].name.as_str(), f[0].count),
        (Some(7), Some(9), "<FNL index 2>", 0)
    );
    assert!(f[0].aliases.is_empty());
    assert_eq!(
        (f[1].start, f[1].end, f[1].name.as_str(), f[1].count),
        (None, None, "_ZN1AC1Ev", 3)
    );
    assert_eq!(f[1].aliases, ["_ZN1AC1Ev", "_ZN1AC2Ev"]);
}

#[test]
fn functions_without_a_start_line_are_told_apart_by_name() {
    // `orphan` never ran and shares no start line with `ran`: two functions.
    let (r, _) = read_ok("SF:a\nFNDA:0,orphan\nFNDA:3,ran\nend_of_record\n");
    assert_eq!(lcov(&r, 0).summary().functions, c(1, 2));
    assert_eq!(
        lcov(&r, 0).missed_functions(),
        [(None, "orphan".to_string())]
    );
}

#[test]
fn taken_counts_of_merged_sections_add_up() {
    let (r, _) = read_ok("SF:a\nBRDA:1,0,0,2\nend_of_record\nSF:a\nBRDA:1,0,0,3\nend_of_record\n");
    let taken: Vec<Option<u64>> = lcov(&r, 0).branches().iter().map(|b| b.taken).collect();
    assert_eq!(taken, [Some(5)]);
}

#[test]
fn too_large_lines_and_empty_fields_name_the_line() {
    let cases = [
        (
            "FN:1,4294967296,f",
            "t.info:2: FN end line `4294967296` is too large (at most 4294967295)",
        ),
        (
            "FNL:0,4294967296",
            "t.info:2: FNL start line `4294967296` is too large",
        ),
        (
            "FNA:0,1,",
            "t.info:2: FNA: empty alias; expected `FNA:<index>,<count>,<alias>`",
        ),
        (
            "BRDA:4294967296,0,0,1",
            "t.info:2: BRDA line `4294967296` is too large",
        ),
        ("BRDA:1, ,0,1", "t.info:2: BRDA: empty block"),
        ("BRDA:1,0, ,1", "t.info:2: BRDA: empty branch"),
    ];
    for (record, want) in cases {
        let e = read_err(format!("SF:a.c\n{record}\nend_of_record\n").as_bytes());
        assert!(e.starts_with(want), "{record}: got {e}");
    }
}

#[test]
fn huge_sums_saturate() {
    let (r, _) = read_ok("SF:a\nDA:1,18446744073709551615\nDA:1,5\nend_of_record\n");
    assert_eq!(lcov(&r, 0).lines().collect::<Vec<_>>(), [(1, u64::MAX)]);
}

#[test]
fn mcdc_and_ver_are_accepted() {
    let (r, w) =
        read_ok("VER:2\nSF:a\nVER:x\nMCDC:3,1,t,1,0,a\nMCF:2\nMCH:2\nDA:1,1\nend_of_record\n");
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(lcov(&r, 0).summary().lines, c(1, 1));
}

#[test]
fn fn_with_end_line_needs_a_name() {
    let e = read_err(b"SF:a\nFN:1,5,\n");
    assert!(e.starts_with("t.info:2: FN: empty name"), "{e}");
}

#[test]
fn repeated_fn_in_a_section_is_one_function() {
    let (r, _) = read_ok("SF:a\nFN:1,f\nFN:1,f\nFNDA:2,f\nend_of_record\n");
    let f = lcov(&r, 0).functions();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].count, 2);
}

#[test]
fn stray_and_repeated_end_of_record() {
    let (r, w) = read_ok("end_of_record\nSF:a\nDA:1,1\nend_of_recordend_of_record\n");
    assert_eq!(r.files.len(), 1);
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[0].starts_with("t.info:1: `end_of_record` outside"));
    assert!(w[1].starts_with("t.info:4: `end_of_record` outside"));
}
