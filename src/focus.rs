//! `covgate check --file PATH`: the verdict on a few files only, each with every uncovered item
//! listed on every metric that misses any (passing or not), for the developer fixing one file.

use crate::error::{Error, Result};
use crate::judge::Verdict;
use crate::measure::MeasuredFiles;
use crate::model::Metric;
use crate::paths;
use crate::uncovered;

/// The root-relative name of a `--file` argument: the path (relative to `cwd`, or absolute)
/// taken relative to `root` when it lies inside it, else as given (normalised).
pub fn name(given: &str, cwd: &str, root: &str) -> String {
    let spelled = paths::normalize(given);
    let full = if paths::is_absolute(&spelled) {
        spelled.clone()
    } else {
        paths::join(cwd, &spelled)
    };
    paths::strip_base(&full, root).map_or(spelled, str::to_string)
}

/// `--file` given as `files` (relative to `cwd`, see [`name`]): [`keep`] those files; nothing
/// changes without any. Returns the warning that every output carries with the facts when
/// files were left out (the verdict, and its exit code, then speak of the kept files only):
/// how many in-scope files were not judged, and how many of those fail.
///
/// Errors (exit 2): as for [`keep`].
pub fn apply(
    verdict: &mut Verdict,
    measured: &MeasuredFiles<'_>,
    files: &[String],
    cwd: &str,
    root: &str,
) -> Result<Option<String>> {
    if files.is_empty() {
        return Ok(None);
    }
    let names: Vec<String> = files.iter().map(|f| name(f, cwd, root)).collect();
    let left_out = verdict.files.iter().filter(|f| !names.contains(&f.path));
    let (others, failing) = left_out.fold((0, 0), |(n, failing), f| {
        (n + 1, failing + usize::from(f.status.fails()))
    });
    keep(verdict, measured, &names)?;
    Ok((others > 0).then(|| {
        format!(
            "--file: this verdict judges only the file(s) given ({}); {others} other file(s) \
             in scope were not judged, {failing} of them failing",
            names.join(", ")
        )
    }))
}

/// Keeps only the files named in `files` (root-relative, see [`name`]) in `verdict`, in its
/// order, and lists every uncovered item of each measured one (from `measured`) on each metric
/// that misses any, with the notes its verdict already carries (e.g. a `[[debt]]` allowance).
/// The summary, the exit code and every output then speak of these files alone.
///
/// Errors (exit 2): a name that is not an in-scope file of the check.
pub fn keep(verdict: &mut Verdict, measured: &MeasuredFiles<'_>, files: &[String]) -> Result<()> {
    if let Some(unknown) = files
        .iter()
        .find(|f| !verdict.files.iter().any(|v| &v.path == *f))
    {
        return Err(Error::new(format!(
            "--file {unknown}: not an in-scope file of this check (give a path relative to the root, e.g. src/lib.rs)"
        )));
    }
    verdict.files.retain(|f| files.contains(&f.path));
    for file in &mut verdict.files {
        let Some(m) = measured.get(&file.path) else {
            continue;
        };
        let missing: Vec<Metric> = file
            .metrics
            .iter()
            .filter(|v| v.counts.is_some_and(|c| c.covered < c.total))
            .map(|v| v.metric)
            .collect();
        let notes = std::mem::take(&mut file.uncovered.notes);
        file.uncovered = uncovered::list(&m.coverage, &missing, &m.summary).into();
        // The verdict's notes (e.g. what a [[debt]] entry allows) join the list's, once each.
        file.uncovered.notes.extend(notes);
        file.uncovered.notes.sort();
        file.uncovered.notes.dedup();
    }
    verdict.outside_include = 0;
    verdict.dropped.clear();
    Ok(())
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn names_are_root_relative() {
        assert_eq!(name("src/a.rs", "/w", "/w"), "src/a.rs");
        assert_eq!(name("a.rs", "/w/src", "/w"), "src/a.rs");
        assert_eq!(name("./src/a.rs", "/w", "/w"), "src/a.rs");
        assert_eq!(name("/w/src/a.rs", "/elsewhere", "/w"), "src/a.rs");
        assert_eq!(name("/other/a.rs", "/w", "/w"), "/other/a.rs");
        assert_eq!(name("x.rs", "/other", "/w"), "x.rs");
        assert_eq!(name("x.rs", "/wx", "/w"), "x.rs");
    }
}
