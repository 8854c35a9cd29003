//! Tests of the LCOV model: functions, lines, equality and the index.

use super::support_tests::*;
use super::*;
use std::hash::{BuildHasherDefault, Hasher};

use super::{file::*, identity::*, index::*};
use crate::model::Counts;
use crate::report::FileCoverage;

#[test]
fn fnda_names_without_fn_are_added_once_in_first_appearance_order() {
    let (report, _) =
        read_ok("SF:a\nFNDA:1,g\nFNDA:2,g\nFNDA:0,h\nFN:1,f\nFNDA:3,f\nFNDA:1,h\nend_of_record\n");
    let list = lcov(&report, 0).functions();
    let functions: Vec<(Option<u32>, &str, u64)> = list
        .iter()
        .map(|f| (f.start, f.name.as_str(), f.count))
        .collect();
    assert_eq!(
        functions,
        [(Some(1), "f", 3), (None, "g", 3), (None, "h", 1)]
    );
}

#[test]
fn lines_sort_merge_and_sum() {
    assert_eq!(
        sorted_lines(vec![(3, 1), (1, 0), (3, u64::MAX), (2, 5), (1, 0)]),
        [(1, 0), (2, 5), (3, u64::MAX)]
    );
    assert_eq!(
        merge_lines(
            vec![(1, 1), (4, 1), (6, 2)],
            vec![(2, 1), (4, 2), (7, 0), (9, 1)]
        ),
        [(1, 1), (2, 1), (4, 3), (6, 2), (7, 0), (9, 1)]
    );
    assert_eq!(merge_lines(vec![(1, 1)], vec![]), [(1, 1)]);
    assert_eq!(
        merge_lines(vec![(1, 1), (5, 0)], vec![(2, 1)]),
        [(1, 1), (2, 1), (5, 0)]
    );
    assert_eq!(merge_lines(vec![], vec![(1, 1)]), [(1, 1)]);
}

#[test]
fn records_on_one_line_count_once_per_identity() {
    assert_eq!(function_identity("a::<Vec<u8>>::b::<u8>"), "a::b");
    assert_eq!(function_identity("a<b>"), "a<b>");
    let (report, _) = read_ok(
            "SF:a\nFN:3,f::<u8>\nFN:3,f::<Vec<u8>>\nFN:3,g\nFN:4,f::<u8>\nFNDA:1,f::<u8>\nend_of_record\n",
        );
    // Line 3: `f` (ran as `f::<u8>`) and `g` (never ran); line 4: `f`, ran.
    // Not llvm-cov's shape, but Rust instantiations (only LLVM's coverage writes them): one
    // function still. C++ symbols are gcov's too, each a function of its own for lcov: worse,
    // 2 of 4 (`f<double>` never ran).
    assert_eq!(lcov(&report, 0).summary().functions, c(2, 3));
    let cpp = "SF:a\nFN:3,_Z1fIiEvT_\nFN:3,_Z1fIdEvT_\nFN:3,g\nFN:4,_Z1hv\n\
               FNDA:1,_Z1fIiEvT_\nFNDA:1,_Z1hv\nend_of_record\n";
    let (report, _) = read_ok(cpp);
    assert_eq!(lcov(&report, 0).function_groups(), Counts::new(2, 3));
    assert_eq!(lcov(&report, 0).summary().functions, c(2, 4));
}

#[test]
fn files_differing_in_any_record_are_unequal() {
    let file = |text: &str| lcov(&read_ok(text).0, 0).clone();
    let base = file("SF:a\nDA:1,1\nend_of_record\n");
    assert_eq!(base, file("SF:a\nDA:1,1\nend_of_record\n"));
    for other in [
        "SF:a\nDA:1,2\nend_of_record\n",
        "SF:a\nDA:1,1\nBRDA:1,0,0,1\nend_of_record\n",
        "SF:a\nDA:1,1\nFN:1,f\nend_of_record\n",
        "SF:a\nDA:1,1\nLF:1\nend_of_record\n",
        "SF:a\nDA:1,1\nend_of_record\nSF:a\nDA:1,0\nend_of_record\n",
    ] {
        assert_ne!(base, file(other), "{other}");
    }
    // A section without records adds nothing, not even a section.
    assert_eq!(
        base,
        file("SF:a\nDA:1,1\nend_of_record\nSF:a\nend_of_record\n")
    );
}

/// A hasher under which every key collides.
#[derive(Default)]
struct Colliding;

impl Hasher for Colliding {
    fn finish(&self) -> u64 {
        7
    }

    fn write(&mut self, _: &[u8]) {}
}

#[test]
fn an_index_finds_items_whose_hashes_collide() {
    let items = ["a", "b", "c"];
    let mut index: Index<BuildHasherDefault<Colliding>> = Index::default();
    for (at, item) in items.iter().enumerate() {
        let hash = index.hash(item);
        assert_eq!(index.find(hash, &|i| items[i] == *item), None);
        index.insert(hash, at);
    }
    for (at, item) in items.iter().enumerate() {
        assert_eq!(
            index.find(index.hash(item), &|i| items[i] == *item),
            Some(at)
        );
    }
    assert_eq!(index.find(index.hash("d"), &|i| items[i] == "d"), None);
    assert_eq!(index.find(8, &|_| true), None);
    // The hash of a real index tells keys apart; `Passthrough` keeps a `u64` key as it is.
    let keys = Index::<Keys>::default();
    assert_ne!(keys.hash("a"), keys.hash("b"));
    assert_eq!(keys.hash("a"), Index::<Keys>::default().hash("a"));
    let mut hasher = Passthrough::default();
    hasher.write(&[1, 2]);
    assert_eq!(hasher.finish(), 0x0102);
    hasher.write_u64(9);
    assert_eq!(hasher.finish(), 9);
}

#[test]
fn arbitrary_input_never_panics() {
    let pieces: [&[u8]; 16] = [
        b"SF:",
        b"DA:",
        b"BRDA:",
        b"FN:",
        b"FNDA:",
        b"FNL:",
        b"FNA:",
        b"LF:",
        b"end_of_record",
        b",",
        b"-",
        b"1",
        b"99999999999999999999",
        b"\n",
        b"\xFF\xFE",
        b"x",
    ];
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..2000 {
        let mut input = Vec::new();
        for _ in 0..24 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let piece = pieces.get((seed % 16) as usize).copied().unwrap_or(b"");
            input.extend_from_slice(piece);
        }
        if let Ok((report, _)) = read_with_warnings("fuzz", &input) {
            for file in &report.files {
                if let FileCoverage::Lcov(f) = &file.coverage {
                    let _ = (f.summary(), f.uncovered_lines(), f.uncovered_branches());
                    let _ = f.uncovered_functions();
                }
            }
        }
    }
}

#[test]
fn files_read_whole_merge_as_their_sections_do() {
    let a = "SF:a\nFN:1,f\nFNDA:1,f\nBRDA:1,0,0,1\nDA:1,1\nend_of_record\n";
    let b = "SF:a\nFN:1,f\nFNDA:2,f\nFN:2,g\nBRDA:1,0,0,-\nBRDA:1,0,1,0\nDA:1,0\nDA:2,0\nend_of_record\n";
    // A file read whole has no index left; a merge builds it again.
    let mut merged = lcov(&read_ok(a).0, 0).clone();
    merged.merge(lcov(&read_ok(b).0, 0).clone());
    assert_eq!(merged, lcov(&read_ok(&format!("{a}{b}")).0, 0).clone());
    let list = merged.functions();
    let counts: Vec<(&str, u64)> = list.iter().map(|f| (f.name.as_str(), f.count)).collect();
    assert_eq!(counts, [("f", 3), ("g", 0)]);
    let taken: Vec<Option<u64>> = merged.branches().iter().map(|b| b.taken).collect();
    assert_eq!(taken, [Some(1), Some(0)]);
    merged.merge(lcov(&read_ok(b).0, 0).clone());
    assert_eq!(merged.functions()[0].count, 5);
    assert_eq!(merged.functions().len(), 2);
}

#[test]
fn names_read_as_the_text_they_hold() {
    let name = Name::from("f::<u8>");
    assert_eq!(name.as_str(), "f::<u8>");
    assert_eq!(name, "f::<u8>");
    assert!(name == *"f::<u8>");
    assert_eq!(format!("{name} {name:?}"), "f::<u8> \"f::<u8>\"");
    assert_eq!(name.len(), 7, "derefs to `str`");
}

#[test]
fn aliases_read_as_a_sorted_list_of_names() {
    // Two shards of one `FNL` group, the aliases written in other orders: one sorted list.
    let (report, _) = read_ok(
        "SF:a\nFNL:0,3\nFNA:0,1,_ZN1AC2Ev\nFNA:0,0,_ZN1AC1Ev\nend_of_record\n\
         SF:a\nFNL:7,3\nFNA:7,0,_ZN1AC3Ev\nFNA:7,2,_ZN1AC1Ev\nend_of_record\nSF:b\nFN:1,f\nend_of_record\n",
    );
    let f = &lcov(&report, 0).functions()[0];
    assert_eq!((f.name.as_str(), f.count), ("_ZN1AC1Ev", 3));
    assert_eq!(f.aliases, ["_ZN1AC1Ev", "_ZN1AC2Ev", "_ZN1AC3Ev"]);
    assert_eq!(
        format!("{:?}", f.aliases),
        r#"["_ZN1AC1Ev", "_ZN1AC2Ev", "_ZN1AC3Ev"]"#
    );
    let plain = &lcov(&report, 1).functions()[0];
    assert!(plain.aliases.is_empty());
    assert_eq!(format!("{:?}", plain.aliases), "[]");
    assert_eq!(plain.aliases, Aliases::default());
}

#[test]
fn sections_covered_alike_with_other_counts_keep_their_declared_totals() {
    // llvm-cov's shape twice, the same lines and functions covered, other counts: the
    // declared totals still hold after the merge (kept), the counts are summed.
    let one = "SF:a\nFN:1,f\nFNDA:1,f\nFNF:1\nFNH:1\nDA:1,1\nDA:2,0\nLF:2\nLH:1\nend_of_record\n";
    let two = one
        .replace("DA:1,1", "DA:1,5")
        .replace("FNDA:1,f", "FNDA:3,f");
    let (r, _) = read_ok(&format!("{one}{two}"));
    let file = lcov(&r, 0);
    assert!(!file.merge_conflict());
    assert_eq!(file.declared.lines().consistent(), c(1, 2));
    assert_eq!(file.lines().collect::<Vec<_>>(), [(1, 6), (2, 0)]);
    assert_eq!(file.functions()[0].count, 4);
    assert_eq!(file.summary().lines, c(1, 2));
}

#[test]
fn shapes_are_the_items_covered_alike_in_any_order() {
    let file = |text: &str| lcov(&read_ok(text).0, 0).clone();
    let a =
        file("SF:a\nDA:1,1\nFN:1,f\nFN:2,g\nFNDA:1,f\nBRDA:1,0,0,1\nBRDA:1,0,1,0\nend_of_record\n");
    let cases = [
        // The same items, covered alike: counts may differ, the order too.
        (
            "SF:a\nDA:1,5\nFN:1,f\nFN:2,g\nFNDA:3,f\nBRDA:1,0,0,2\nBRDA:1,0,1,0\nend_of_record\n",
            true,
        ),
        (
            "SF:a\nDA:1,1\nFN:2,g\nFN:1,f\nFNDA:1,f\nBRDA:1,0,1,0\nBRDA:1,0,0,1\nend_of_record\n",
            true,
        ),
        // A line, a branch side or a function covered otherwise, missing or different.
        (
            "SF:a\nDA:1,0\nFN:1,f\nFN:2,g\nFNDA:1,f\nBRDA:1,0,0,1\nBRDA:1,0,1,0\nend_of_record\n",
            false,
        ),
        (
            "SF:a\nDA:1,1\nFN:1,f\nFN:2,g\nFNDA:1,f\nBRDA:1,0,0,1\nBRDA:1,0,1,1\nend_of_record\n",
            false,
        ),
        (
            "SF:a\nDA:1,1\nFN:1,f\nFN:2,g\nFNDA:1,f\nBRDA:1,0,0,1\nend_of_record\n",
            false,
        ),
        (
            "SF:a\nDA:1,1\nFN:1,f\nFN:2,g\nFNDA:1,f\nBRDA:1,0,1,0\nBRDA:1,0,2,1\nend_of_record\n",
            false,
        ),
        (
            "SF:a\nDA:1,1\nFN:1,f\nFN:2,g\nFNDA:1,g\nBRDA:1,0,0,1\nBRDA:1,0,1,0\nend_of_record\n",
            false,
        ),
        (
            "SF:a\nDA:1,1\nFN:1,f\nFNDA:1,f\nBRDA:1,0,0,1\nBRDA:1,0,1,0\nend_of_record\n",
            false,
        ),
        (
            "SF:a\nDA:1,1\nFN:2,g\nFN:3,f\nFNDA:1,f\nBRDA:1,0,0,1\nBRDA:1,0,1,0\nend_of_record\n",
            false,
        ),
    ];
    for (text, same) in cases {
        let b = file(text);
        assert_eq!(a.same_shape(&b), same, "{text}");
        assert_eq!(b.same_shape(&a), same, "{text}");
    }
}

#[test]
fn declared_totals_of_merged_parts_bound_the_merge() {
    let totals = |pairs: &[(usize, bool, u64)]| {
        let mut t = DeclaredTotals::default();
        for &(at, hit, value) in pairs {
            t.set(at, hit, value);
        }
        t
    };
    let (l, f) = (DeclaredTotals::LINES, DeclaredTotals::FUNCTIONS);
    // `a` declares 9 lines, none run, and 2 functions without a hit count.
    let a = totals(&[(l, false, 9), (l, true, 0), (f, false, 2)]);
    let b = totals(&[(l, false, 3), (l, true, 3), (f, false, 2), (f, true, 1)]);
    let ab = a.merged(&b);
    assert!(ab.is_bound() && !a.is_bound() && !b.is_bound());
    assert_eq!(ab.lines().consistent(), c(3, 9));
    // A metric one side does not declare in full has no bound.
    assert_eq!(ab.functions(), Declared::default());
    assert_eq!(ab.branches(), Declared::default());
    assert_eq!(
        totals(&[(l, true, 1)]).merged(&b),
        DeclaredTotals::default()
    );
    // Hits past the found count are kept for later merges, given as at most the found count.
    let more = ab
        .merged(&totals(&[(l, false, 4), (l, true, 4)]))
        .merged(&b);
    assert_eq!(more.lines().consistent(), c(9, 9));
    assert_eq!(more.lines().hit, Some(9));
    let fewer = ab.merged(&totals(&[(l, false, 20), (l, true, 4)]));
    assert_eq!(fewer.lines().consistent(), c(7, 20));
}

/// An llvm-cov section of `a` whose function `f` (line 1) ran `hit` times, as did line 1;
/// line 2 never ran.
fn llvm_section(hit: u64) -> String {
    let ran = u64::from(hit > 0);
    format!(
        "SF:a\nFN:1,f\nFNDA:{hit},f\nFNF:1\nFNH:{ran}\nDA:1,{hit}\nDA:2,0\nLF:2\nLH:{ran}\n\
         end_of_record\n"
    )
}

#[test]
fn a_merge_bound_is_no_count_of_llvm_covs() {
    // Three llvm-cov sections: the third merges into the bound of the first two, which is
    // never weighed as llvm-cov's own totals (no conflict, the records counted).
    let (r, _) = read_ok(&format!(
        "{}{}{}",
        llvm_section(1),
        llvm_section(0),
        llvm_section(2)
    ));
    let file = lcov(&r, 0);
    assert!(!file.merge_conflict() && file.is_merged());
    assert!(file.declared.is_bound());
    assert_eq!(file.declared.lines().consistent(), c(2, 2));
    assert!(!file.unreproducible());
    assert_eq!(file.summary().lines, c(1, 2));
    assert_eq!(file.summary().functions, c(1, 1));
    // Merged with itself (two reports of merged sections): bounds combine, never kept.
    let mut twice = file.clone();
    twice.merge(file.clone());
    assert!(!twice.merge_conflict());
    assert_eq!(twice.declared.lines().hit, Some(2));
    assert_eq!(twice.summary().lines, c(1, 2));
    // Markers take the bound out with the items (as a merge's totals were dropped before).
    let marked = file.without(|line| line == 2, |_| false);
    assert_eq!(marked.declared, DeclaredTotals::default());
    assert_eq!(marked.summary().lines, c(1, 1));
    // A merge of sections whose totals bound it below its records: the bound.
    let (r, _) = read_ok(&format!("{}{}", llvm_section(0), llvm_section(0)));
    assert_eq!(lcov(&r, 0).summary().lines, c(0, 2));
    let declared_only = "TN:\nSF:a\nFN:1,f\nLF:9\nLH:0\nend_of_record\nTN:\nSF:a\nDA:1,1\nLF:1\n\
                         LH:1\nend_of_record\n";
    let (r, _) = read_ok(declared_only);
    assert_eq!(lcov(&r, 0).summary().lines, c(1, 9));
}

#[test]
fn the_verdict_kept_at_close_comes_back_as_given() {
    assert_eq!(Closed::default().get(), None);
    for bits in 0..8u8 {
        let declared = [bits & 1 != 0, bits & 2 != 0, bits & 4 != 0];
        assert_eq!(Closed::of(declared).get(), Some(declared), "{bits}");
    }
}

#[test]
fn a_file_without_branch_records_fits_the_allocators_128_byte_class_and_keeps_no_box() {
    // 128 bytes: one block of mimalloc's 128-byte size class (the next class is 160 bytes).
    assert_eq!(std::mem::size_of::<LcovFile>(), 128);
    let (report, _) = read_ok("SF:a\nDA:1,1\nFN:1,f\nFNDA:1,f\nend_of_record\n");
    assert!(lcov(&report, 0).extra.is_none());
    let (report, _) = read_ok("SF:a\nDA:1,1\nBRDA:1,0,0,1\nBRDA:1,0,1,0\nend_of_record\n");
    let file = lcov(&report, 0);
    assert_eq!(file.branches().len(), 2);
    // Read whole, the file keeps its branch sides and drops the index and the runs.
    let extra = file.extra.as_deref().expect("branch records are boxed");
    assert_eq!((extra.branch_index.len(), extra.ran.is_none()), (0, true));
}

#[test]
fn the_boxed_part_of_a_file_is_empty_only_without_anything_in_it() {
    use super::extra::Extra;
    assert!(Extra::default().is_empty());
    let unbranched = Extra {
        unbranched: Some(vec![(1, Name::from("f"))].into_boxed_slice()),
        ..Extra::default()
    };
    let cut = Extra {
        cut: true,
        ..Extra::default()
    };
    let ran = Extra {
        ran: Some(Box::default()),
        ..Extra::default()
    };
    for extra in [unbranched, cut, ran] {
        assert!(!extra.is_empty(), "{extra:?}");
    }
}
