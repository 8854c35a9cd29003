//! covgate's error type: every input, policy or usage problem becomes one of these and exit code 2.

use std::fmt;

/// An error that stops the check (exit code 2): bad input, bad policy, bad usage.
///
/// The message names the file and, where known, the line (and column) at fault, and says what to
/// do about it. It never carries a verdict: an error is never a pass.
///
/// A message is one line, or several made with [`Error::lines`]; a line break inside a line
/// comes from a quoted name and is escaped where the message is printed
/// ([`crate::render::error_text`]), so a name can never start a line of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    lines: Vec<String>,
}

impl Error {
    /// An error with a complete, one-line message.
    pub fn new(message: impl Into<String>) -> Error {
        Error {
            lines: vec![message.into()],
        }
    }

    /// An error of several lines: a heading, then one line per problem.
    pub fn lines(lines: Vec<String>) -> Error {
        Error { lines }
    }

    /// An error located in `file` at 1-based `line` (and optional 1-based `column`).
    pub fn at(file: &str, line: u64, column: Option<u64>, message: impl fmt::Display) -> Error {
        match column {
            Some(col) => Error::new(format!("{file}:{line}:{col}: {message}")),
            None => Error::new(format!("{file}:{line}: {message}")),
        }
    }

    /// The message, its lines joined by line breaks.
    pub fn message(&self) -> String {
        self.lines.join("\n")
    }

    /// The message's lines, as made.
    pub(crate) fn message_lines(&self) -> &[String] {
        &self.lines
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for Error {}

/// covgate's result type.
pub type Result<T> = std::result::Result<T, Error>;
