//! Tests of [`super`]: pieces stitched as a sequential parse reads them.

use serde::Deserialize;

use super::*;

use crate::model::{BranchSide, Span};
use crate::report::llvm_json::RecordItems;

/// A comma-separated list of `{"k":N}` objects, as a test element.
struct Numbers;

#[derive(Deserialize)]
struct Number {
    k: u64,
}

impl Element for Numbers {
    type Out = u64;

    fn parse(&self, bytes: &[u8], last: bool) -> Parsed<u64> {
        match parse_value::<Number>(bytes, last) {
            Parsed::Done(n, len) => Parsed::Done(n.k, len),
            Parsed::Eof => Parsed::Eof,
            Parsed::Bad(reason) => Parsed::Bad(reason),
        }
    }
}

fn values(runs: Vec<Vec<(usize, u64)>>) -> Vec<u64> {
    runs.into_iter().flatten().map(|(_, value)| value).collect()
}

fn stitched(window: &str, piece: usize) -> (Vec<u64>, String) {
    let mut out = Vec::new();
    let end = match stitch(&Numbers, window.as_bytes(), piece, &mut out) {
        End::Open(at) => format!("open {at}"),
        End::Closed(at) => format!("closed {at}"),
        End::Short(at) => format!("short {at}"),
        End::Bad(at, _) => format!("bad {at}"),
        End::Separator(at) => format!("sep {at}"),
    };
    (values(out), end)
}

#[test]
fn every_piece_size_gives_the_sequential_result() {
    let window = r#"{"k":1}, {"k":22} ,{"k":333},{"k":4}] tail"#;
    for piece in 1..window.len() + 2 {
        assert_eq!(
            stitched(window, piece),
            (vec![1, 22, 333, 4], "closed 37".to_string()),
            "piece {piece}"
        );
    }
}

#[test]
fn false_candidates_inside_strings_are_parsed_again() {
    // `,{"k"` inside a string of another key looks like an element start.
    #[derive(Deserialize)]
    struct Tagged {
        k: u64,
        #[serde(default, rename = "s")]
        _s: Option<String>,
    }
    struct TaggedNumbers;
    impl Element for TaggedNumbers {
        type Out = u64;
        fn parse(&self, bytes: &[u8], last: bool) -> Parsed<u64> {
            match parse_value::<Tagged>(bytes, last) {
                Parsed::Done(n, len) => Parsed::Done(n.k, len),
                Parsed::Eof => Parsed::Eof,
                Parsed::Bad(reason) => Parsed::Bad(reason),
            }
        }
    }
    let window = r#"{"k":1,"s":"x,{\"k\":9}, ,{"},{"k":2,"s":",{\"k\":8},{\"k\":7}"},{"k":3}]"#;
    for piece in 1..window.len() + 2 {
        let mut out = Vec::new();
        let end = stitch(&TaggedNumbers, window.as_bytes(), piece, &mut out);
        assert_eq!(values(out), vec![1, 2, 3], "piece {piece}");
        assert!(
            matches!(end, End::Closed(at) if at == window.len()),
            "piece {piece}"
        );
    }
}

#[test]
fn a_window_ending_inside_an_element_is_short_there() {
    for piece in [1, 3, 8, 100] {
        assert_eq!(
            stitched(r#"{"k":1},{"k":2},{"k":"#, piece),
            (vec![1, 2], "short 16".to_string())
        );
        // The separator after the last element is not in the window yet.
        assert_eq!(
            stitched(r#"{"k":1},{"k":2} "#, piece),
            (vec![1], "short 8".to_string())
        );
        assert_eq!(
            stitched(r#"{"k":1},{"k":2}, "#, piece),
            (vec![1, 2], "open 17".to_string())
        );
    }
}

#[test]
fn bad_elements_and_separators_are_bad() {
    for piece in [1, 4, 100] {
        assert_eq!(stitched(r#"{"k":1},{"k":"x"}]"#, piece).1, "bad 8");
        assert_eq!(stitched(r#"{"k":1};{"k":2}]"#, piece).1, "sep 7");
        assert_eq!(stitched(r#"{"k":1},] ..."#, piece).1, "bad 8");
        // At the end of the window, the same may be a cut: more input decides.
        assert_eq!(stitched(r#"{"k":1},]"#, piece).1, "short 8");
        assert_eq!(stitched(r#"{"k":1},{"k":1."#, piece).1, "short 8");
        assert_eq!(stitched("{\"k\":1},\n{\"k\":1.", piece).1, "short 9");
        assert_eq!(stitched("{\"k\":1},\n{\"k\":1.x\n", piece).1, "bad 9");
    }
}

#[test]
fn candidates_need_a_comma_before_and_the_key_after() {
    let w = br#"[{"a":1}, {"b":2},{ "a" :3},{"ab":4}"#;
    assert_eq!(candidate(w, 0, w.len(), b"a"), Some(18));
    assert_eq!(candidate(w, 19, w.len(), b"a"), None);
    assert_eq!(candidate(w, 0, w.len(), b"b"), Some(10));
    assert_eq!(first_key(br#" {"name":1}"#), b"name");
    assert_eq!(first_key(br#"{"na\"me":1}"#), b"");
    assert_eq!(first_key(b"{}"), b"");
    assert_eq!(first_key(br#"{"open"#), b"");
}

#[test]
fn errors_at_the_end_of_the_bytes_may_be_cuts() {
    let err = |text: &str| serde_json::from_str::<serde_json::Value>(text).expect_err("invalid");
    assert!(at_end(&err("[1,"), b"[1,"));
    assert!(at_end(&err("[1,]"), b"[1,]"));
    assert!(!at_end(&err("[1,] "), b"[1,] "));
    assert!(at_end(&err("[\n1,\n]"), b"[\n1,\n]"));
    assert!(!at_end(&err("[\n1,\n] "), b"[\n1,\n] "));
    // A position past the bytes given (cannot happen for the bytes parsed): not a cut.
    assert!(!at_end(&err("[\n\n\n1,\n]"), b"[1,]"));
}

#[test]
fn values_are_cut_bad_or_done_as_the_input_may_go_on() {
    let parse = |text: &str, last: bool| match parse_value::<Number>(text.as_bytes(), last) {
        Parsed::Done(n, len) => format!("done {} {len}", n.k),
        Parsed::Eof => "eof".to_string(),
        Parsed::Bad(Reason::Serde(err)) => format!("bad {err}"),
        Parsed::Bad(Reason::Custom(message, _)) => format!("custom {message}"),
    };
    assert_eq!(parse("  ", false), "eof");
    assert_eq!(parse("  ", true), "eof");
    assert_eq!(parse(r#"{"k":"#, false), "eof");
    assert!(parse(r#"{"k":"#, true).starts_with("bad EOF while parsing"));
    assert!(parse(r#"{"k":1,"k":2} "#, false).starts_with("bad duplicate key `k`"));
    assert!(parse(r#"{"k":1,"k":2}"#, true).starts_with("bad duplicate key `k`"));
    assert!(parse(r#"{"k":"x"} "#, false).starts_with("bad invalid type"));
    assert_eq!(parse(r#"{"k":7} "#, false), "done 7 7");
}

/// A record of `file` kept for its misses, at `key`, with execution count `count`.
fn missed(file: &str, key: (u32, u32), count: u64) -> RecordOut {
    let stats = FunctionStats {
        name: format!("f{}_{count}", key.0).into_boxed_str(),
        count,
        key,
        regions: Counts::new(u64::from(count > 0), 1),
        lines: Counts::new(u64::from(count > 0), 1),
        branches: Counts::new(0, 0),
        mcdc: Counts::new(0, 0),
        function_ignored: false,
        several_instantiations: false,
        instances: super::super::Instances::of(count),
        layout: 0,
        items: None,
    };
    RecordOut {
        has_branches: false,
        kept: Some((file.to_string(), stats, Kept::Misses)),
    }
}

#[test]
fn groups_merge_by_key_in_a_table_of_places() {
    let mut kept = KeptRecords::default();
    // Enough groups for the table of places to grow (its hash of a key is then taken again).
    for line in 1..=40 {
        kept.add(missed("a.rs", (line, 1), 0));
    }
    kept.add(missed("a.rs", (7, 1), 0));
    kept.add(missed("a.rs", (9, 1), 3));
    kept.add(missed("b.rs", (7, 1), 5));
    let (by_file, has_branches) = kept.into_parts();
    assert!(!has_branches);
    let a = by_file.get("a.rs").expect("a.rs");
    assert_eq!(a.len(), 40);
    let at = |line: u32| a.iter().find(|r| r.key == (line, 1)).expect("group");
    // Two records that never ran: one group, under its first record's name.
    assert_eq!(
        (&*at(7).name, at(7).count, at(7).instances.records),
        ("f7_0", 0, 2)
    );
    // One of them ran: the group ran, with the better counts.
    assert_eq!((at(9).count, at(9).instances.executed), (3, 1));
    assert_eq!(at(9).regions, Counts::new(1, 1));
    assert_eq!(by_file.get("b.rs").map(Vec::len), Some(1));
}

/// A record of `a.rs` at (1, 1) named `name` that ran, with `regions` of two regions covered
/// (one uncovered region per miss, on line `line`) and one branch whose `branch` sides are
/// covered (the false side uncovered when one is).
fn instance(name: &str, regions: u64, branch: u64, line: u32) -> RecordOut {
    let span = Span {
        line_start: line,
        col_start: 1,
        line_end: line,
        col_end: 9,
    };
    let items = RecordItems {
        uncovered_regions: vec![span; (2 - regions) as usize],
        uncovered_branches: vec![
            BranchSide {
                span,
                outcome: false
            };
            (2 - branch) as usize
        ],
        ..RecordItems::default()
    };
    let stats = FunctionStats {
        name: name.into(),
        regions: Counts::new(regions, 2),
        branches: Counts::new(branch, 2),
        items: (!items.is_empty()).then(|| Box::new(items)),
        ..match missed("a.rs", (1, 1), 1).kept {
            Some((_, stats, _)) => stats,
            None => unreachable!(),
        }
    };
    RecordOut {
        has_branches: true,
        kept: Some(("a.rs".to_string(), stats, Kept::Misses)),
    }
}

/// The origins of the one group of `records`, and its uncovered regions' and branches' lines.
fn merged(records: Vec<RecordOut>) -> (Option<Origins>, Vec<u32>, Vec<u32>) {
    let mut kept = KeptRecords::default();
    records.into_iter().for_each(|r| kept.add(r));
    let (by_file, _) = kept.into_parts();
    let group = &by_file["a.rs"][0];
    let origins = group
        .items
        .as_ref()
        .and_then(|i| i.origins.as_deref().cloned());
    let lines = group
        .uncovered_regions()
        .iter()
        .map(|s| s.line_start)
        .collect();
    let sides = group
        .uncovered_branches()
        .iter()
        .map(|b| b.span.line_start)
        .collect();
    (origins, lines, sides)
}

#[test]
fn a_merged_group_names_the_instantiation_of_each_metric_s_misses() {
    let origins = |regions: &str, branches: &str| Origins {
        regions: regions.into(),
        branches: branches.into(),
        decisions: "".into(),
    };
    // The first record keeps its regions (the second covers fewer), the second gives branches.
    let (named, lines, sides) =
        merged(vec![instance("f_i32", 1, 0, 3), instance("f_f64", 0, 1, 5)]);
    assert_eq!(named, Some(origins("f_i32", "f_f64")));
    assert_eq!((lines, sides), (vec![3], vec![5]));
    // A later record of equal counts wins; a best record without misses names nothing.
    let (named, lines, sides) = merged(vec![
        instance("f_i32", 1, 2, 3),
        instance("f_f64", 1, 2, 5),
        instance("f_u8", 1, 0, 7),
    ]);
    assert_eq!(named, Some(origins("f_u8", "")));
    assert_eq!((lines, sides), (vec![7], vec![]));
    // Nothing missed by the best of each metric: no items, no names.
    let (named, lines, _) = merged(vec![instance("f_i32", 1, 2, 3), instance("f_f64", 2, 2, 5)]);
    assert_eq!((named, lines), (None, vec![]));
}

/// The name and the several-instantiations flag of the one group of `records`.
fn group_of(records: Vec<RecordOut>) -> (String, bool) {
    let mut kept = KeptRecords::default();
    records.into_iter().for_each(|r| kept.add(r));
    let (by_file, _) = kept.into_parts();
    let group = &by_file["a.rs"][0];
    (group.name.to_string(), group.several_instantiations)
}

#[test]
fn a_merged_group_tells_instantiations_from_copies() {
    let legacy = |hash: &str| format!("_ZN4tiny4area17h{hash}E");
    let (one, other) = (legacy("0123456789abcdef"), legacy("fedcba9876543210"));
    // Copies of one function built into two crates: one instantiation.
    let copies = group_of(vec![instance(&one, 1, 1, 3), instance(&other, 1, 1, 3)]);
    assert_eq!(copies, (one.clone(), false));
    // Two instantiations; a first record without a name (it ran and missed nothing) takes
    // the name of the next; a group that saw several keeps saying so.
    let several = group_of(vec![
        instance("", 2, 2, 3),
        instance("f_i32", 1, 1, 3),
        instance("f_f64", 1, 1, 5),
        instance("f_i32", 1, 1, 3),
    ]);
    assert_eq!(several, ("f_i32".to_string(), true));
}
