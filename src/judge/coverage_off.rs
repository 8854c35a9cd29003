//! `[inline] coverage-off = "deny"`: a measured file with a Rust `coverage(off)` attribute
//! outside test code fails. The attribute takes code out of the coverage report itself, with no
//! reason and no count there, where a covgate marker needs a reason and is counted; the file
//! fails with the attributes' lines and the fix (docs/markers.md).

use super::{FileStatus, Verdict};
use crate::judge::FileVerdict;

/// How many of a file's attributes its failure names; the JSON output lists them all.
const NAMED: usize = 5;

/// Fails each measured file of `verdict` with a `coverage(off)` outside test code, with
/// [`denial`] as its reason. Files stay failing first, then by path.
pub(crate) fn deny(verdict: &mut Verdict) {
    for file in &mut verdict.files {
        if let Some(reason) = denial(file) {
            file.status = FileStatus::Fail;
            file.reason = Some(reason);
        }
    }
    // Paths are unique: an unstable sort gives the same order, without a copy of the files.
    verdict
        .files
        .sort_unstable_by(|a, b| (!a.status.fails(), &a.path).cmp(&(!b.status.fails(), &b.path)));
}

/// Why `file` fails under `deny`: its `coverage(off)` attributes outside test code, as
/// `file:line`, and the fix; `None` when it has none.
pub(crate) fn denial(file: &FileVerdict) -> Option<String> {
    let lines: Vec<u32> = (file.coverage_off.iter())
        .filter(|o| !o.in_tests)
        .map(|o| o.line)
        .collect();
    lines.first()?;
    let named: Vec<String> = (lines.iter().take(NAMED))
        .map(|line| format!("{}:{line}", file.path))
        .collect();
    let more = match lines.len().saturating_sub(NAMED) {
        0 => String::new(),
        n => format!(" … and {n} more"),
    };
    Some(format!(
        "coverage(off) outside test code at {}{more}: it takes code out of the coverage report \
         without a reason or a count ([inline] coverage-off = \"deny\"); remove it, or mark \
         what cannot be covered with `// covgate:ignore-start -- reason` … \
         `// covgate:ignore-end`, which is counted",
        named.join(", ")
    ))
}
