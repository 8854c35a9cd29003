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

/// How many demangled names are remembered before they are forgotten all at once (a few
/// megabytes at most).
const REMEMBERED: usize = 1 << 14;

/// [`same_function`] with the names' demangling remembered: the records of an instantiation
/// group are compared with its first record as they are read, and copies of one function built
/// into several crates differ only in their hashes, so the same few mangled names would be
/// demangled again and again.
/// Holds mangled names → their instantiation names ([`instantiation_name`]).
#[derive(Debug)]
pub(crate) struct SameNames {
    names: hashbrown::HashMap<Box<str>, Box<str>>,
    /// At most this many names are remembered.
    room: usize,
}

impl Default for SameNames {
    fn default() -> SameNames {
        SameNames::with_room(REMEMBERED)
    }
}

impl SameNames {
    /// Remembering at most `room` names (at least 2).
    fn with_room(room: usize) -> SameNames {
        SameNames {
            names: hashbrown::HashMap::new(),
            room: room.max(2),
        }
    }

    /// [`same_function`]: true when the mangled names `a` and `b` are one
    /// instantiation (equal, or with equal instantiation names).
    pub(crate) fn same(&mut self, a: &str, b: &str) -> bool {
        if a == b {
            return true;
        }
        if self.names.len() + 2 > self.room {
            self.names.clear();
        }
        self.learn(a);
        self.learn(b);
        self.names.get(a) == self.names.get(b)
    }

    /// Works out the instantiation name of `name` unless it is known.
    fn learn(&mut self, name: &str) {
        if !self.names.contains_key(name) {
            let demangled = instantiation_name(name).into_boxed_str();
            self.names.insert(name.into(), demangled);
        }
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

    const LIB: &str = "_RNvXs_NtCsfzAEE9VrqVy_6semver7displayNtB6_10VersionReqNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt";
    const TEST: &str = "_RNvXs_NtCscpBoQPaMcWV_6semver7displayNtB6_10VersionReqNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt";
    const OTHER: &str = "_RNvXs_NtCscpBoQPaMcWV_6semver7displayNtB6_10VersionReqNtNtCsgEmfK2I1SDS_4core3fmt5Debug3fmt";

    #[test]
    fn names_compare_as_demangling_each_time_does() {
        let mut names = SameNames::default();
        for _ in 0..2 {
            for (a, b) in [
                (LIB, TEST),
                (TEST, LIB),
                (LIB, OTHER),
                (OTHER, TEST),
                (LIB, LIB),
            ] {
                assert_eq!(names.same(a, b), same_function(a, b), "{a} {b}");
            }
        }
        assert!(names.same(LIB, TEST));
        assert!(!names.same(LIB, OTHER));
        assert!(!names.same("f", "g"));
        assert_eq!(names.names.len(), 5);
    }

    #[test]
    fn names_past_the_room_are_forgotten_at_once() {
        let mut names = SameNames::with_room(0);
        assert_eq!(names.room, 2);
        assert!(names.same(LIB, TEST));
        assert_eq!(names.names.len(), 2);
        assert!(!names.same(LIB, OTHER));
        assert_eq!(names.names.len(), 2);
        assert!(names.names.contains_key(OTHER));
    }
}
