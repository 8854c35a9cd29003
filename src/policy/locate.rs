//! Policy errors at a line and column: positions from byte offsets, TOML errors with a hint.

use std::ops::Range;

use crate::error::Error;

/// 1-based (line, column) of a byte offset in `text`.
pub(crate) fn line_col(text: &str, offset: usize) -> (u64, u64) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() as u64 + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u64 + 1;
    (line, col)
}

pub(super) fn located(file: &str, text: &str, span: Range<usize>, msg: String) -> Error {
    let (line, col) = line_col(text, span.start);
    Error::at(file, line, Some(col), msg)
}

pub(super) fn toml_error(file: &str, text: &str, err: &toml::de::Error) -> Error {
    toml_error_pointing(file, text, err, "policy reference: docs/policy.md")
}

/// A TOML syntax or shape error at its line and column, with a hint for a likely mistake and
/// `reference` (the page to read) in parentheses. Shared by the policy and the debt ledger.
pub(super) fn toml_error_pointing(
    file: &str,
    text: &str,
    err: &toml::de::Error,
    reference: &str,
) -> Error {
    // toml attaches a span to every error of a parsed document (at worst its table's).
    let span = err.span().unwrap_or_default();
    let hint = crate::hint::for_toml(err.message(), text, span.start).unwrap_or_default();
    // toml words some errors on two lines ("invalid array\nexpected `]`"): one line reads
    // better than an escaped line break on stderr.
    let message = err.message().trim_end().replace('\n', "; ");
    located(file, text, span, format!("{message}{hint} ({reference})"))
}
