//! covgate's error type: every input, policy or usage problem becomes one of these and exit code 2.

use std::fmt;

/// An error that stops the check (exit code 2): bad input, bad policy, bad usage.
///
/// The message names the file and, where known, the line (and column) at fault, and says what to
/// do about it. It never carries a verdict: an error is never a pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    message: String,
}

impl Error {
    /// An error with a complete message.
    pub fn new(message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
        }
    }

    /// An error located in `file` at 1-based `line` (and optional 1-based `column`).
    pub fn at(file: &str, line: u64, column: Option<u64>, message: impl fmt::Display) -> Error {
        match column {
            Some(col) => Error::new(format!("{file}:{line}:{col}: {message}")),
            None => Error::new(format!("{file}:{line}: {message}")),
        }
    }

    /// The message as shown to the user.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// covgate's result type.
pub type Result<T> = std::result::Result<T, Error>;
