use super::super::support_tests::{lcov, read_ok};
use super::*;

/// A section of `a.rs` with the functions `fns` (start line, name), one `DA` per function
/// start, and a `BRDA` pair on the first when `branches`.
fn section(fns: &[(u32, &str)], branches: bool) -> String {
    let mut text = String::from("SF:a.rs\n");
    for (line, name) in fns {
        text += &format!("FN:{line},{name}\nFNDA:1,{name}\nDA:{line},1\n");
    }
    if let (true, Some((line, _))) = (branches, fns.first()) {
        text += &format!("BRDA:{line},0,0,1\nBRDA:{line},0,1,1\n");
    }
    text + "end_of_record\n"
}

/// The file of one tracefile made of `sections`.
fn file(sections: &[String]) -> LcovFile {
    let (report, _) = read_ok(&sections.concat());
    lcov(&report, 0).clone()
}

/// (start, name) of what [`LcovFile::unbranched`] lists.
fn listed(file: &LcovFile) -> Vec<(u32, &str)> {
    let list = file.unbranched().iter();
    list.map(|(line, name)| (*line, name.as_str())).collect()
}

#[test]
fn sections_without_branch_records_leave_their_own_functions_unmeasured() {
    let stable = section(&[(1, "both"), (9, "extra")], false);
    let nightly = section(&[(1, "both")], true);
    // Either order; a copy of `extra` by another name of the same identity (another crate
    // hash) is one function.
    let copy = section(
        &[(9, "_RNvCs1_4legs5extra"), (9, "_RNvCs2_4legs5extra")],
        false,
    );
    assert_eq!(
        listed(&file(&[stable.clone(), nightly.clone()])),
        [(9, "extra")]
    );
    assert_eq!(
        listed(&file(&[nightly.clone(), stable.clone()])),
        [(9, "extra")]
    );
    let two = file(&[nightly.clone(), copy.clone()]);
    assert_eq!(listed(&two), [(9, "_RNvCs1_4legs5extra")]);
    let parts = split(&two, true);
    assert!(parts.measured.contains(&(1, "both".to_string())));
    assert_eq!(parts.unmeasured.len(), 1, "{parts:?}");
    // A later section with branch records that holds it measures it.
    let measured = section(&[(1, "both"), (9, "extra")], true);
    assert!(listed(&file(&[stable.clone(), nightly.clone(), measured.clone()])).is_empty());
    // Sections of the same functions, or all without branch records, list none.
    assert!(listed(&file(&[section(&[(1, "both")], false), nightly.clone()])).is_empty());
    assert!(listed(&file(&[stable.clone(), copy.clone()])).is_empty());
    // A merge of two files of which the later one lists a function keeps it unless the
    // earlier measured it.
    let mut merged = file(std::slice::from_ref(&nightly));
    merged.merge_section(file(&[stable.clone(), nightly.clone()]));
    assert_eq!(listed(&merged), [(9, "extra")]);
    let mut merged = file(&[measured]);
    merged.merge_section(file(&[stable.clone(), nightly.clone()]));
    assert!(listed(&merged).is_empty());
    // A merge of reports (not sections of one tracefile) keeps none.
    let mut merged = file(std::slice::from_ref(&nightly));
    merged.merge(file(&[stable]));
    assert!(listed(&merged).is_empty());
}

#[test]
fn a_part_without_branch_data_measures_none_and_unplaced_functions_are_left_out() {
    let only_named = file(&["SF:a.rs\nFNDA:1,g\nFN:2,f\nDA:2,1\nend_of_record\n".to_string()]);
    let parts = split(&only_named, false);
    assert!(parts.measured.is_empty());
    assert_eq!(
        parts.unmeasured.keys().collect::<Vec<_>>(),
        [&(2, "f".to_string())]
    );
    let parts = split(&only_named, true);
    assert_eq!(parts.measured.len(), 1);
    let found = unmeasured(vec![split(&only_named, false), split(&only_named, true)]);
    assert!(found.is_empty());
    let found = unmeasured(vec![split(&only_named, false), split(&only_named, false)]);
    assert_eq!(found.len(), 1);
}
