//! Tests of MC/DC record reading, locating and merging.

use super::*;

fn raw(json: &str) -> RawDecision {
    serde_json::from_str(json).expect(json)
}

fn v(conditions: &[Option<bool>], result: bool) -> TestVector {
    TestVector {
        conditions: conditions.to_vec(),
        result,
    }
}

#[test]
fn both_layouts_are_read() {
    // LLVM 19 (2.0.1): expanded file id and kind before the flags.
    let old = raw("[5,7,5,40,0,5,[true,false,false]]");
    assert_eq!(old.file_id, None);
    assert_eq!(old.independent, [true, false, false]);
    assert!(old.vectors.is_empty());
    // LLVM 22 (3.1.0): five numbers, the flags and the test vectors (unexecuted ones dropped).
    let new = raw(
        r#"[5,7,5,40,2,1,3,0,5,[true,false],[{"conditions":[false,null],"executed":true,"result":false},
        {"conditions":[true,true],"executed":false,"result":true}]]"#,
    );
    assert_eq!(new.file_id, Some(3));
    assert_eq!(new.vectors, [v(&[Some(false), None], false)]);
    // No vector executed, and what a later LLVM may add after them.
    let none = raw("[1,1,1,9,0,0,0,0,5,[false,false],[],7]");
    assert!(none.vectors.is_empty());
    assert_eq!(none.file_id, Some(0));
    for bad in [
        "[1,1,1,9,0,5]",
        "[]",
        "[1]",
        "[1,1]",
        "[1,1,1]",
        "[1,1,1,9]",
        r#"[1,1,1,9,"x"]"#,
    ] {
        assert!(serde_json::from_str::<RawDecision>(bad).is_err(), "{bad}");
    }
    let e = serde_json::from_str::<RawDecision>("{}").expect_err("object");
    assert!(e.to_string().contains("an MC/DC record"), "{e}");
}

#[test]
fn independence_pairs_differ_in_one_evaluated_condition() {
    // Case 37's run A: only the first condition has a pair.
    let a = [
        v(&[Some(false), None, Some(false)], false),
        v(&[Some(true), Some(false), Some(true)], true),
        v(&[Some(true), Some(true), None], true),
    ];
    assert_eq!(independence(&a, 3), [true, false, false]);
    // Run B adds (1,0,0) → 0: every condition paired.
    let mut b = a.to_vec();
    b.push(v(&[Some(true), Some(false), Some(false)], false));
    assert_eq!(independence(&b, 3), [true, true, true]);
    // A vector longer than the decision says names no condition past it.
    let long = [
        v(&[Some(false), Some(false)], false),
        v(&[Some(false), Some(true)], true),
    ];
    assert_eq!(independence(&long, 1), [false]);
}

fn branch(line: u32, col: u32, end: u32, file_id: u32) -> Branch {
    Branch {
        span: Span {
            line_start: line,
            col_start: col,
            line_end: line,
            col_end: end,
        },
        true_count: 1,
        false_count: 0,
        file_id,
    }
}

#[test]
fn conditions_are_the_branches_inside_their_own_decision() {
    // `a && f(b || c)`: the outer decision 2:5-2:30 holds `a` and the call; the inner one
    // 2:15-2:25 holds `b` and `c`.
    let outer = raw("[2,5,2,30,0,0,0,0,5,[false,true]]");
    let inner = raw("[2,15,2,25,0,0,0,0,5,[true,false]]");
    let branches = [
        branch(2, 22, 2, 0),
        branch(2, 5, 6, 0),
        branch(2, 10, 30, 0),
        branch(2, 15, 16, 0),
        branch(9, 1, 2, 0),
    ];
    let here = |_: u32, s: Span| s;
    let found = locate(&[outer, inner], &branches, 0, &here);
    assert_eq!(found[0].conditions, [(2, 5), (2, 10)]);
    assert_eq!(found[1].conditions, [(2, 15), (2, 22)]);
    let uncovered: Vec<String> = found
        .iter()
        .flat_map(Decision::uncovered)
        .map(|c| c.to_string())
        .collect();
    assert_eq!(
        uncovered,
        ["2:5 in the decision at 2:5", "2:22 in the decision at 2:15"]
    );
    assert_eq!(counts(&found), Counts::new(2, 4));
    // Branches that do not number the conditions (another file id): the decision's start,
    // located through the expansion site.
    let moved = raw("[1,1,1,9,0,0,1,0,5,[false,false]]");
    let site = |file: u32, s: Span| {
        if file == 1 {
            Span {
                line_start: 7,
                col_start: 3,
                ..s
            }
        } else {
            s
        }
    };
    let found = locate(&[moved], &branches, 0, &site);
    assert_eq!(found[0].at, (7, 3));
    assert_eq!(found[0].conditions, [(7, 3), (7, 3)]);
}

#[test]
fn runs_merge_by_flags_and_by_their_vectors() {
    let run = |vectors: Vec<TestVector>, independent: Vec<bool>| Decision {
        at: (5, 7),
        conditions: vec![(5, 8), (5, 19), (5, 32)],
        independent,
        vectors,
    };
    let a = run(
        vec![
            v(&[Some(false), None, Some(false)], false),
            v(&[Some(true), Some(true), None], true),
        ],
        vec![true, false, false],
    );
    let b = run(
        vec![
            v(&[Some(true), Some(false), Some(false)], false),
            v(&[Some(true), Some(true), None], true),
        ],
        vec![false, true, false],
    );
    let merged = a.merge(&b);
    assert_eq!(merged.independent, [true, true, false]);
    assert_eq!(merged.vectors.len(), 3);
    assert_eq!(merged.counts(), Counts::new(2, 3));
    // 2.0.1 exports carry no vectors: the flags alone.
    let c = run(vec![], vec![false, false, true]);
    assert_eq!(a.merge(&c).independent, [true, false, true]);
}

#[test]
fn a_vector_without_executed_counts_as_executed() {
    let d = raw(r#"[1,1,1,9,0,0,0,0,5,[false],[{"conditions":[true],"result":true}]]"#);
    assert_eq!(d.vectors, [v(&[Some(true)], true)]);
}
