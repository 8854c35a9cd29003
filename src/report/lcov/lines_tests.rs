//! Tests of the packed `DA` lines.

use super::*;

#[test]
fn counts_of_any_size_come_back_exactly() {
    let lines = vec![
        (0, 0),
        (1, 1),
        (2, u64::from(u32::MAX) - 1),
        (3, u64::from(u32::MAX)),
        (4, 7),
        (5, u64::MAX),
    ];
    let packed = Lines::pack(lines.clone());
    assert_eq!(packed.unpack(), lines);
    assert_eq!(packed.tally(), (5, 6));
    assert!(!packed.is_empty());
    assert_eq!(
        packed.covered().collect::<Vec<_>>(),
        [
            (0, false),
            (1, true),
            (2, true),
            (3, true),
            (4, true),
            (5, true)
        ]
    );
    // Packing is canonical: equal lines, equal packs.
    assert_eq!(packed, Lines::pack(lines));
    assert_ne!(packed, Lines::pack(vec![(0, 0)]));
    let empty = Lines::pack(Vec::new());
    assert!(empty.is_empty());
    assert_eq!(empty.tally(), (0, 0));
    assert_eq!(empty, Lines::default());
}

#[test]
fn lines_far_apart_come_back_exactly() {
    let lines = vec![
        (3, 1),
        (200, 0),
        (70_000, 300),
        (u32::MAX - 1, 2),
        (u32::MAX, 0),
    ];
    let packed = Lines::pack(lines.clone());
    assert_eq!(packed.unpack(), lines);
    assert_eq!(packed.tally(), (3, 5));
    assert_eq!(packed.iter().last(), Some((u32::MAX, 0)));
}

/// A run of equal counts stores each count once; a count equal to one further back (not the
/// line before) is stored again; equal counts far apart and at the ends of `u64` come back.
#[test]
fn runs_of_equal_counts_come_back_exactly() {
    let lines = vec![
        (5, 7),
        (6, 7),
        (7, 7),
        (9, 0),
        (10, 7),
        (11, 0),
        (12, 0),
        (100_000, 0),
        (100_001, u64::MAX),
        (u32::MAX, u64::MAX),
    ];
    let packed = Lines::pack(lines.clone());
    assert_eq!(packed.unpack(), lines);
    // Lines 6 and 7 take 5's count, line 12 takes 11's (0).
    assert_eq!(packed.tally(), (6, 10));
    // 5 → two bytes; 6, 7 → one each; 9 → two; 10 → two; 11 → two; 12 → one; 100,000 → three;
    // 100,001 → one + ten; u32::MAX → five.
    assert_eq!(packed.packed.len(), 2 + 1 + 1 + 2 + 2 + 2 + 1 + 3 + 11 + 5);
}
