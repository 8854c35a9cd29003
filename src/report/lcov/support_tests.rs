//! Helpers of the LCOV reader's tests.

use super::*;
use crate::model::Counts;
use crate::report::{FileCoverage, FileData};

pub(super) fn read_ok(text: &str) -> (Report, Vec<String>) {
    match read_with_warnings("t.info", text.as_bytes()) {
        Ok(r) => r,
        Err(e) => panic!("unexpected error: {e}"),
    }
}

pub(super) fn read_err(text: &[u8]) -> String {
    match read_with_warnings("t.info", text) {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.message().to_string(),
    }
}

pub(super) fn lcov(report: &Report, i: usize) -> &LcovFile {
    match report.files.get(i).map(|f| &f.coverage) {
        Some(FileCoverage::Lcov(f)) => f,
        other => panic!("no LCOV file {i}: {other:?}"),
    }
}

pub(super) fn c(covered: u64, total: u64) -> Option<Counts> {
    Some(Counts::new(covered, total))
}

pub(super) fn read_stream(
    input: impl std::io::Read,
) -> std::result::Result<(Report, Vec<String>), String> {
    read_from("t.info", std::io::BufReader::new(input)).map_err(|e| e.message().to_string())
}

pub(super) fn lcov_of(file: &FileData) -> &LcovFile {
    match &file.coverage {
        FileCoverage::Lcov(f) => f,
        FileCoverage::Llvm(_) => panic!("not LCOV"),
    }
}
