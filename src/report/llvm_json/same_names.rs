//! Whether two records of one instantiation group are of one instantiation, with the names'
//! demangling remembered: the records of a group are compared with its first record as they are
//! read (on the reading thread), and copies of one function built into several crates differ
//! only in their hashes, so the same few mangled names are demangled again and again.

use hashbrown::HashMap;

use crate::demangle::instantiation_name;

/// How many demangled names are remembered before they are forgotten all at once (a few
/// megabytes at most).
const REMEMBERED: usize = 1 << 14;

/// Mangled names → their instantiation names ([`instantiation_name`]), for the names compared.
#[derive(Debug)]
pub(super) struct SameNames {
    names: HashMap<Box<str>, Box<str>>,
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
            names: HashMap::new(),
            room: room.max(2),
        }
    }

    /// `crate::demangle::same_function`: true when the mangled names `a` and `b` are one
    /// instantiation (equal, or with equal instantiation names).
    pub(super) fn same(&mut self, a: &str, b: &str) -> bool {
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
                assert_eq!(
                    names.same(a, b),
                    crate::demangle::same_function(a, b),
                    "{a} {b}"
                );
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
