//! Symbol demangling: Rust symbols with a bound on the result's length (shared by the LCOV
//! reader's function identity and the uncovered-item lists), Itanium C++ symbols (clang) with
//! the `cpp_demangle` crate, and the instantiation names that item lists give.

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

/// Demangles a Rust symbol (legacy or v0, without its hash, at most
/// [`MAX_DEMANGLED`] bytes) or an Itanium C++ symbol (with the `cpp_demangle` crate); other names come back unchanged.
pub(crate) fn demangle(name: &str) -> String {
    demangle_with(name, cpp_demangle::DemangleOptions::new())
}

/// The name of an instantiation as item lists give it: [`demangle`], with a C++ function's
/// parameters and return type left out (`clamp_to<double>`; its template arguments tell the
/// instantiations apart).
pub(crate) fn instantiation_name(name: &str) -> String {
    let short = cpp_demangle::DemangleOptions::new()
        .no_params()
        .no_return_type();
    demangle_with(name, short)
}

/// [`demangle`], with C++ symbols demangled with `options`.
fn demangle_with(name: &str, options: cpp_demangle::DemangleOptions) -> String {
    // Bounded: a corrupt v0 symbol can expand to megabytes (see [`MAX_DEMANGLED`]).
    demangle_rust(name)
        .or_else(|| demangle_cpp(name, options))
        .unwrap_or_else(|| name.to_string())
}

/// An Itanium C++ symbol (`_Z…`, as clang writes) demangled, or `None` when it is not one.
fn demangle_cpp(name: &str, options: cpp_demangle::DemangleOptions) -> Option<String> {
    // cpp_demangle also reads bare type manglings (`h` is `unsigned char`): only `_Z` symbols.
    let mangled = name.strip_prefix('_').filter(|n| n.starts_with('Z'))?;
    let symbol = cpp_demangle::Symbol::new(format!("_{mangled}")).ok()?;
    symbol.demangle_with_options(&options).ok()
}

/// True when two mangled names are one instantiation: equal, or alike once demangled (copies
/// of one function built into several crates differ only in their hashes).
pub(crate) fn same_function(a: &str, b: &str) -> bool {
    a == b || instantiation_name(a) == instantiation_name(b)
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
