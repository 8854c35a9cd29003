//! Reading the report files of a check: what to keep of their records, and reports that are
//! no evidence (empty, counting nothing) refused.

use std::path::Path;

use super::CheckOptions;
use crate::error::{Error, Result};
use crate::report::{self, Detail, FileCoverage, Report};

/// The one report `names` read again keeping every record
/// ([`spelled_twice_without_records`](super::resolve::spelled_twice_without_records)).
///
/// Errors: standard input, which cannot be read twice (with what to do instead), and the errors
/// of reading.
pub(super) fn reread(opts: &CheckOptions, names: &[String]) -> Result<Vec<Report>> {
    if names.iter().any(|r| r == "-") {
        return Err(Error::new(
            "<stdin>: the export names one file under two spellings, and merging them needs \
             records that reading standard input once did not keep; give the export as a file",
        ));
    }
    read_reports(opts, names, Detail::All)
}

/// What to keep of the records of `count` reports: what each file needs (see [`Detail`]) when
/// there is one; everything when there are several, since a file they both name has its
/// records pooled.
pub(super) fn detail_for<'a>(
    count: usize,
    marked: &'a (dyn Fn(&str) -> bool + Sync),
) -> Detail<'a> {
    if count == 1 {
        Detail::Needed(marked)
    } else {
        Detail::All
    }
}

pub(super) fn read_reports(
    opts: &CheckOptions,
    names: &[String],
    detail: Detail<'_>,
) -> Result<Vec<Report>> {
    if names.iter().filter(|r| *r == "-").count() > 1 {
        return Err(Error::new(
            "`-` (standard input) is given more than once; stdin can be read only once",
        ));
    }
    let mut reports = names
        .iter()
        .map(|r| read_report(&opts.cwd, r, detail))
        .collect::<Result<Vec<_>>>()?;
    // Shards are one run: their order on the command line changes nothing.
    reports.sort_by(|a, b| a.origin.cmp(&b.origin));
    Ok(reports)
}

fn read_report(cwd: &Path, name: &str, detail: Detail<'_>) -> Result<Report> {
    let report = if name == "-" {
        report::read_from("<stdin>", std::io::stdin().lock(), detail)?
    } else {
        let path = cwd.join(name);
        if path.is_dir() {
            return Err(Error::new(format!(
                "{name}: is a folder, not a report; give the report file itself (an llvm-cov JSON export or an LCOV tracefile, e.g. target/coverage.json)"
            )));
        }
        report::read_file(name, &path, detail)?
    };
    let origin = &report.origin;
    if report.files.is_empty() {
        return Err(Error::new(format!(
            "{origin}: the report holds no source files ({}); an empty report proves nothing. \
             Check the producer's filters (e.g. --ignore-filename-regex) and that tests ran",
            report.kind.describe()
        )));
    }
    if report.files.iter().all(counts_nothing) {
        return Err(Error::new(format!(
            "{origin}: no file of the report counts anything ({}: every summary is 0 of 0 and \
             no function record carries one); an empty report proves nothing. Check that the \
             export was made from the test run's profiles and binaries (`cargo llvm-cov --json`)",
            report.kind.describe()
        )));
    }
    Ok(report)
}

/// True for an llvm-cov JSON file whose summary counts nothing (every pair 0 of 0). An LCOV
/// file without records is no evidence either, decided once every report is read
/// ([`no_evidence`](super::resolve::no_evidence)).
fn counts_nothing(file: &report::FileData) -> bool {
    matches!(&file.coverage, FileCoverage::Llvm(f) if f.summary == Default::default())
}
