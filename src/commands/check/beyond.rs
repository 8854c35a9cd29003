//! Reports that do not fit their sources: a record at a line past the end of the file it names
//! comes from another version of the file (a report older than the sources, a cached artifact)
//! or from another file of the same name (a tracefile made in a workspace member, anchored at
//! the root where another `src/lib.rs` lies). Its numbers may not be this file's: the check
//! says so with the facts of every output (see [`check`]). `llvm-cov show` reads the source at the
//! lines a report names; covgate reads it to count them.

use std::path::Path;

use crate::report::FileCoverage;
use crate::scope::{self, Same};

/// The last line a file's coverage names, and whether LLVM wrote it: an LCOV tracefile's `DA`,
/// `BRDA` and `FN` lines (LLVM's when a section is in llvm-cov's shape); the start lines of an
/// llvm-cov export's function records (when the export kept them). `None` when it names none.
pub(super) fn last_line(coverage: &FileCoverage) -> Option<(u32, bool)> {
    match coverage {
        FileCoverage::Lcov(file) => file.last_line(),
        FileCoverage::Llvm(file) => {
            let starts = file.functions.as_ref()?.iter().map(|f| f.key.0);
            starts.max().map(|last| (last, true))
        }
    }
}

/// How many lines `text` has, counting every line break a compiler may read as one (`\n`,
/// `\r\n`, and a lone `\r`, which clang ends a line at), and a last line without a break.
pub(super) fn line_count(text: &[u8]) -> u64 {
    let mut bytes = text.iter().peekable();
    let mut count = 0;
    while let Some(&byte) = bytes.next() {
        // `\r\n` is one break: its `\n` counts it.
        let lone_cr = byte == b'\r' && bytes.peek() != Some(&&b'\n');
        count += u64::from(byte == b'\n' || lone_cr);
    }
    let open = text.last().is_some_and(|b| !matches!(b, b'\n' | b'\r'));
    count + u64::from(open)
}

/// Holds each measured file's reports (`files`: root-relative path and report files, in path
/// order) against the file on disk
/// under `root`: a warning for each
/// file (in path order) whose report names a line past its end. A warning, not an error: a
/// report made from an earlier edit of the file still names its lines (those past the end are
/// then plainly stale), some writers number lines past the end (the Kotlin compiler's inline
/// functions), and the check keeps its verdict; LLVM's reports say so as well, since it maps
/// every region to its source. Files that cannot be read are left to the rest of the check.
pub(super) fn check<'s, 'a: 's>(
    files: impl Iterator<Item = (&'s String, Same<'s, 'a>)>,
    root: &Path,
) -> Vec<String> {
    let mut warnings = Vec::new();
    for (path, same) in files {
        let lasts = scope::parts(same).filter_map(|p| last_line(p.coverage));
        // The last line of any part, LLVM's when any part with that line is.
        let Some((last, llvm)) = lasts.max() else {
            continue;
        };
        let file = root.join(path);
        if file.symlink_metadata().is_err() {
            warnings.push(absent(path, &file));
            continue;
        }
        // Read as every source is: a FIFO or a device is never opened, a huge file never read.
        let Ok(text) = crate::source::read(&file, crate::source::MAX_SOURCE) else {
            continue;
        };
        let lines = line_count(&text);
        if u64::from(last) > lines {
            let writer = if llvm { "LLVM's" } else { "the" };
            warnings.push(format!(
                "{path}: {writer} report names line {last}, and the file on disk has {lines} \
                 line(s): the report is not of these sources (made before they changed, or for \
                 another file of this name: a tracefile written in a workspace member, read from \
                 the root), so this file's verdict may be another file's; make the report again \
                 from these sources, or map its paths with --root or --remap-path-prefix"
            ));
        }
    }
    warnings
}

/// The warning for a measured file that its reports name with records but that is not on
/// disk (`file`, under the root), naming the entries of its folder that differ from it only by
/// case: a report written on a case-insensitive system, or of other sources.
fn absent(path: &str, file: &Path) -> String {
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
    let folder = file.parent().and_then(|dir| std::fs::read_dir(dir).ok());
    let mut cased: Vec<String> = (folder.into_iter().flatten().flatten())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|entry| {
            name.as_deref()
                .is_some_and(|n| crate::paths::eq_folded(entry, n))
        })
        .collect();
    cased.sort();
    let like = match cased.as_slice() {
        [] => String::new(),
        [one] => format!(" (its folder holds {one}, which differs only by case)"),
        some => format!(
            " (its folder holds {}, which differ only by case)",
            some.join(", ")
        ),
    };
    format!(
        "{path}: the reports measure it, but it is not on disk under the root{like}: its verdict \
         is of sources that are not these (a report written on a case-insensitive system, or \
         made before a file was renamed or removed); make the report again from these sources, \
         or map its paths with --root, --remap-path-prefix or --path-case"
    )
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn lines_end_as_a_compiler_ends_them() {
        assert_eq!(line_count(b""), 0);
        assert_eq!(line_count(b"a"), 1);
        assert_eq!(line_count(b"a\n"), 1);
        assert_eq!(line_count(b"a\nb"), 2);
        assert_eq!(line_count(b"a\r\nb\r\n"), 2);
        assert_eq!(line_count(b"a\rb\rc"), 3);
        assert_eq!(line_count(b"\n\n\r"), 3);
    }

    #[test]
    fn the_last_line_of_each_format() {
        // llvm-cov's shape: FN, FNDA, FNF/FNH, DA, BRDA, BRF/BRH, LF/LH.
        let llvm = |fn_line: u32, branch_line: u32| {
            format!(
                "SF:a.rs\nFN:{fn_line},f\nFNDA:1,f\nFNF:1\nFNH:1\nDA:3,1\n\
                 BRDA:{branch_line},0,0,1\nBRDA:{branch_line},0,1,1\nBRF:2\nBRH:2\nLF:1\nLH:1\n\
                 end_of_record\n"
            )
        };
        let last = |text: &str| {
            let report = crate::report::read("t.info", text.as_bytes()).expect("tracefile");
            last_line(&report.files[0].coverage)
        };
        assert_eq!(last(&llvm(9, 7)), Some((9, true)));
        assert_eq!(last(&llvm(1, 7)), Some((7, true)));
        // Another writer's (Kotlin's inline functions lie past the end): a warning only.
        assert_eq!(last(&format!("TN:\n{}", llvm(9, 7))), Some((9, false)));
        assert_eq!(last("SF:a.rs\nend_of_record\n"), None);
        let json = std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/llvm/c2_llvm14.json"),
        )
        .expect("fixture");
        let report = crate::report::read("t.json", &json).expect("export");
        assert_eq!(last_line(&report.files[0].coverage), Some((10, true)));
        let summary_only = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/llvm/tricky_stable_summary_only.json");
        let report = crate::report::read("t.json", &std::fs::read(summary_only).expect("fixture"))
            .expect("export");
        assert_eq!(last_line(&report.files[0].coverage), None);
    }
}
