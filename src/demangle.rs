//! Rust symbol demangling with a bound on the result's length, shared by the LCOV reader
//! (function identity) and the uncovered-item lists (function names).

use std::fmt::Write as _;

/// The longest demangled name worked out, in bytes. A corrupt or hostile v0 symbol can hold
/// back-references that expand to rustc-demangle's own limit of a megabyte from a hundred bytes
/// (milliseconds per name, seconds per file); its demangling is abandoned at this length.
pub(crate) const MAX_DEMANGLED: usize = 4096;

/// `name` demangled as a Rust symbol (legacy or v0) without its hash, or `None` when it is not
/// one or its demangling is longer than [`MAX_DEMANGLED`].
pub(crate) fn demangle_rust(name: &str) -> Option<String> {
    let symbol = rustc_demangle::try_demangle(name).ok()?;
    let mut out = Bounded(String::new());
    // The demangler stops at the first refused write.
    write!(out, "{symbol:#}").ok()?;
    Some(out.0)
}

/// A string that refuses writes past [`MAX_DEMANGLED`] bytes.
struct Bounded(String);

impl std::fmt::Write for Bounded {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if self.0.len() + s.len() > MAX_DEMANGLED {
            return Err(std::fmt::Error);
        }
        self.0.push_str(s);
        Ok(())
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    /// A v0 symbol whose back-reference points into itself: rustc-demangle expands it to its
    /// 1 MB limit (found by the `lcov` fuzz target as a timeout).
    const EXPANDING: &str = "_RNCNvXNtCscpBoQPaMcWV_6semver7displayNtB3_7VersiovXNtCscpBoQPaMcWV\
                             _6semver7displayNtB3_7VersionNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmts_0B6_";

    #[test]
    fn rust_symbols_demangle_without_hash_within_the_bound() {
        assert_eq!(demangle_rust(EXPANDING), None);
        assert_eq!(
            demangle_rust("_RNvCs7zRqp3NVN0z_4tiny9perimeter").as_deref(),
            Some("tiny::perimeter")
        );
        assert_eq!(demangle_rust("perimeter"), None);
    }
}
