//! Tests of [`super`]: records merged into their instantiation groups as they are read.

use super::*;

use crate::model::{BranchSide, Span};
use crate::report::llvm_json::RecordItems;

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
        items: None,
    };
    RecordOut {
        has_branches: false,
        evidence: Default::default(),
        skipped_at: None,
        kept: Some((MainFile::Named(file.to_string()), stats, Kept::Misses)),
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
    let parts = kept.into_parts(&|_| unreachable!());
    let (by_file, has_branches) = (parts.by_file, parts.has_branches);
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
        evidence: Default::default(),
        skipped_at: None,
        kept: Some((MainFile::Named("a.rs".to_string()), stats, Kept::Misses)),
    }
}

/// The origins of the one group of `records`, and its uncovered regions' and branches' lines.
fn merged(records: Vec<RecordOut>) -> (Option<Origins>, Vec<u32>, Vec<u32>) {
    let mut kept = KeptRecords::default();
    records.into_iter().for_each(|r| kept.add(r));
    let parts = kept.into_parts(&|_| unreachable!());
    let (by_file, _) = (parts.by_file, parts.has_branches);
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
    let parts = kept.into_parts(&|_| unreachable!());
    let (by_file, _) = (parts.by_file, parts.has_branches);
    let group = &by_file["a.rs"][0];
    (group.name.to_string(), group.several_instantiations)
}

#[test]
fn a_merged_group_tells_instantiations_from_copies() {
    let legacy = |hash: &str| format!("_ZN4tiny4area17h{hash}E");
    let (one, other) = (legacy("0123456789abcdef"), legacy("fedcba9876543210"));
    // Copies of one function built into two crates: one instantiation; the group ran, so its
    // items name no instantiation and its name is not kept to the end of the read.
    let copies = group_of(vec![instance(&one, 1, 1, 3), instance(&other, 1, 1, 3)]);
    assert_eq!(copies, (String::new(), false));
    let (origins, lines, sides) = merged(vec![instance(&one, 1, 1, 3), instance(&other, 0, 1, 5)]);
    assert_eq!((origins, lines, sides), (None, vec![3], vec![5]));
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

#[test]
fn a_group_that_never_ran_keeps_its_name_and_a_best_record_apart_from_the_counts() {
    let mut kept = KeptRecords::default();
    // Two records that never ran, one instantiation: listed by the first one's name.
    kept.add(missed("a.rs", (7, 1), 0));
    kept.add(missed("a.rs", (7, 1), 0));
    // The best record's counts (2 of 2 regions) are not the group's (2 of 3 regions): a later
    // record of 2 of 3 is not better and does not take the regions' items.
    kept.add(instance("g", 2, 2, 3));
    let mut wider = instance("g", 1, 2, 4);
    if let Some((_, stats, _)) = &mut wider.kept {
        stats.regions = Counts::new(1, 3);
    }
    kept.add(wider);
    let mut later = instance("g", 1, 2, 6);
    if let Some((_, stats, _)) = &mut later.kept {
        stats.regions = Counts::new(2, 3);
    }
    kept.add(later);
    let parts = kept.into_parts(&|_| unreachable!());
    let (by_file, _) = (parts.by_file, parts.has_branches);
    let a = &by_file["a.rs"];
    assert_eq!((&*a[0].name, a[0].instances.records), ("f7_0", 2));
    assert_eq!(a[1].regions, Counts::new(2, 3));
    let lines: Vec<u32> = a[1]
        .uncovered_regions()
        .iter()
        .map(|s| s.line_start)
        .collect();
    assert_eq!(lines, [6]);
}

#[test]
fn record_items_are_empty_only_without_any_item_held() {
    use crate::report::llvm_json::{CoveredItems, Decision};
    assert!(RecordItems::default().is_empty());
    let decision = Decision {
        at: (5, 7),
        conditions: vec![(5, 7), (5, 19)],
        independent: vec![true, false],
        vectors: Vec::new(),
    };
    let decisions_only = RecordItems {
        decisions: vec![decision],
        ..RecordItems::default()
    };
    assert!(!decisions_only.is_empty());
    let nothing_covered = RecordItems {
        covered: Some(Box::default()),
        ..RecordItems::default()
    };
    assert!(nothing_covered.is_empty());
    let lines_covered = RecordItems {
        covered: Some(Box::new(CoveredItems {
            covered_region_lines: vec![3],
            ..CoveredItems::default()
        })),
        ..RecordItems::default()
    };
    assert!(!lines_covered.is_empty());
}

#[test]
fn files_given_by_their_index_in_files_are_placed_by_it_and_named_at_the_end() {
    let mut kept = KeptRecords::default();
    let at = |index: u32, key: (u32, u32), count: u64| {
        let mut record = missed("", key, count);
        if let Some((file, _, _)) = &mut record.kept {
            *file = MainFile::At(index);
        }
        record
    };
    kept.add(at(3, (1, 1), 0));
    kept.add(at(0, (1, 1), 0));
    kept.add(at(3, (2, 1), 0));
    kept.add(at(3, (1, 1), 4));
    let names = ["zero", "one", "two", "three"];
    let by_file = kept
        .into_parts(&|index| names[index as usize].to_string())
        .by_file;
    assert_eq!(by_file.len(), 2);
    let three = &by_file["three"];
    assert_eq!(three.len(), 2);
    assert_eq!(
        (three[0].key, three[0].instances.records, three[0].count),
        ((1, 1), 2, 4)
    );
    assert_eq!(by_file["zero"].len(), 1);
}

/// MC/DC counts pick their best record like the other metrics: a later record that covers
/// fewer conditions leaves the decisions of the better one in place (clang's MC/DC exports
/// reach this too, where a clang is installed).
#[test]
fn a_later_record_with_fewer_mcdc_conditions_leaves_the_decisions_held() {
    let with_mcdc = |name: &str, covered: u64| {
        let mut record = instance(name, 2, 2, 3);
        if let Some((_, stats, _)) = record.kept.as_mut() {
            stats.mcdc = Counts::new(covered, 2);
        }
        record
    };
    let mut kept = KeptRecords::default();
    [with_mcdc("f_i32", 1), with_mcdc("f_f64", 0)]
        .into_iter()
        .for_each(|r| kept.add(r));
    let parts = kept.into_parts(&|_| unreachable!());
    let (by_file, _) = (parts.by_file, parts.has_branches);
    let group = &by_file["a.rs"][0];
    assert_eq!((group.mcdc.covered, group.mcdc.total), (1, 2));
}
