//! Tests of a section's close: `FNDA` records met in the order of the `FN` records count as
//! those keyed by name count, whichever way the section's functions are resolved.

use super::super::support_tests::*;

/// The functions of the one file of `text`: (start, name, count), in order.
fn functions(text: &str) -> Vec<(Option<u32>, String, u64)> {
    let (report, _) = read_ok(text);
    let file = lcov(&report, 0);
    let list = file
        .functions()
        .iter()
        .map(|f| (f.start, f.name.to_string(), f.count))
        .collect();
    list
}

fn f(start: Option<u32>, name: &str, count: u64) -> (Option<u32>, String, u64) {
    (start, name.to_string(), count)
}

#[test]
fn fnda_records_in_the_order_of_the_fn_records_count_as_keyed_ones() {
    let in_order = "SF:a\nFN:1,f\nFN:5,g\nFN:9,h\nFNDA:2,f\nFNDA:0,g\nFNDA:3,h\nend_of_record\n";
    let expected = vec![f(Some(1), "f", 2), f(Some(5), "g", 0), f(Some(9), "h", 3)];
    assert_eq!(functions(in_order), expected);
    let shuffled = "SF:a\nFN:1,f\nFN:5,g\nFN:9,h\nFNDA:3,h\nFNDA:2,f\nFNDA:0,g\nend_of_record\n";
    assert_eq!(functions(shuffled), expected);
    // An `FN` without an `FNDA` never ran.
    let missing = "SF:a\nFN:1,f\nFN:5,g\nFNDA:2,f\nend_of_record\n";
    assert_eq!(
        functions(missing),
        vec![f(Some(1), "f", 2), f(Some(5), "g", 0)]
    );
}

#[test]
fn repeated_names_are_summed_by_name_even_when_met_in_order() {
    // Both `FNDA` records are met where expected, but the name repeats: keyed, each `FN` of
    // the name has the sum (lcov's meaning).
    let text = "SF:a\nFN:1,f\nFN:5,f\nFNDA:1,f\nFNDA:2,f\nend_of_record\n";
    assert_eq!(
        functions(text),
        vec![f(Some(1), "f", 3), f(Some(5), "f", 3)]
    );
    // A repeated (start, name) is one function.
    let twice = "SF:a\nFN:1,f\nFN:1,f\nFNDA:1,f\nFNDA:2,f\nend_of_record\n";
    assert_eq!(functions(twice), vec![f(Some(1), "f", 3)]);
}

#[test]
fn fnda_records_without_an_fn_follow_in_first_appearance_order() {
    let text = "SF:a\nFN:1,f\nFN:2,g\nFNDA:1,f\nFNDA:4,orphan\nFNDA:0,g\nFNDA:5,other\nFNDA:1,orphan\nend_of_record\n";
    assert_eq!(
        functions(text),
        vec![
            f(Some(1), "f", 1),
            f(Some(2), "g", 0),
            f(None, "orphan", 5),
            f(None, "other", 5),
        ]
    );
}

#[test]
fn fnda_records_after_their_fn_and_in_order_mix_as_keyed_ones() {
    // Interleaved, distinct names: each `FNDA` counts for its `FN`.
    let paired = "SF:a\nFN:1,f\nFNDA:1,f\nFN:5,g\nFNDA:0,g\nend_of_record\n";
    assert_eq!(
        functions(paired),
        vec![f(Some(1), "f", 1), f(Some(5), "g", 0)]
    );
    // One pair and one in order: keyed by name.
    let one_pair = "SF:a\nFN:1,f\nFN:2,g\nFNDA:5,g\nFNDA:1,f\nend_of_record\n";
    assert_eq!(
        functions(one_pair),
        vec![f(Some(1), "f", 1), f(Some(2), "g", 5)]
    );
    // Two pairs of `f` (positional alone), but an `FNDA` met in order too: keyed by name, so
    // every `f` has the sum of the `FNDA` records of `f`.
    let mixed =
        "SF:a\nFN:1,g\nFN:2,f\nFNDA:1,g\nFN:5,f\nFNDA:0,f\nFN:7,f\nFNDA:4,f\nend_of_record\n";
    assert_eq!(
        functions(mixed),
        vec![
            f(Some(1), "g", 1),
            f(Some(2), "f", 4),
            f(Some(5), "f", 4),
            f(Some(7), "f", 4)
        ]
    );
    // Pairs only, with a repeated name: positional.
    let positional = "SF:a\nFN:1,f\nFNDA:1,f\nFN:5,f\nFNDA:0,f\nend_of_record\n";
    assert_eq!(
        functions(positional),
        vec![f(Some(1), "f", 1), f(Some(5), "f", 0)]
    );
}

#[test]
fn an_fnl_group_of_an_fn_key_merges_with_its_function() {
    // The functions of distinct names are indexed before the groups are added.
    let text = "SF:a\nFN:10,h\nFN:12,k\nFNDA:1,h\nFNDA:0,k\nFNL:0,10\nFNA:0,2,h\nend_of_record\n";
    assert_eq!(
        functions(text),
        vec![f(Some(10), "h", 3), f(Some(12), "k", 0)]
    );
    // An `FNA` without its `FNL`: a group without a start line, beside the `FN` of its name.
    let alias = "SF:a\nFN:10,h\nFNDA:1,h\nFNA:0,2,h\nend_of_record\n";
    assert_eq!(functions(alias), vec![f(Some(10), "h", 1), f(None, "h", 2)]);
}

#[test]
fn lines_in_any_order_are_sorted_and_summed() {
    let (report, _) = read_ok("SF:a\nDA:5,1\nDA:2,0\nDA:5,2\nend_of_record\n");
    assert_eq!(
        lcov(&report, 0).lines().collect::<Vec<_>>(),
        [(2, 0), (5, 3)]
    );
    let (report, _) = read_ok("SF:a\nDA:2,0\nDA:5,1\nend_of_record\n");
    assert_eq!(
        lcov(&report, 0).lines().collect::<Vec<_>>(),
        [(2, 0), (5, 1)]
    );
}

#[test]
fn sections_of_any_size_follow_each_other_alike() {
    // A section too large for its buffers to be kept, then small ones: each reads alike.
    let n = super::SPARE_MAX as u32 + 10;
    let mut text = String::from("SF:big\n");
    (1..=n).for_each(|l| text.push_str(&format!("DA:{l},{}\n", l % 2)));
    text.push_str("end_of_record\nSF:fns\n");
    (1..=n).for_each(|l| text.push_str(&format!("FN:{l},f{l}\n")));
    text.push_str("end_of_record\nSF:small\nFN:3,s\nFNDA:1,s\nDA:3,1\nend_of_record\n");
    let (report, _) = read_ok(&text);
    let big = lcov(&report, 0);
    assert_eq!(
        big.detail_lines(),
        crate::model::Counts::new(u64::from(n / 2), u64::from(n))
    );
    assert_eq!(lcov(&report, 1).functions().len(), n as usize);
    assert_eq!(lcov(&report, 1).detail_functions().covered, 0);
    let small = lcov(&report, 2);
    assert_eq!(small.lines().collect::<Vec<_>>(), [(3, 1)]);
    assert_eq!(
        small
            .functions()
            .iter()
            .map(|f| f.count)
            .collect::<Vec<_>>(),
        [1]
    );
}
