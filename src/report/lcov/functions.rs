//! The functions of one LCOV file: a vector while the file is built or merged, packed once it is
//! read whole (about 13 bytes a function instead of 40).
//!
//! Function records are most of what a tracefile's files keep (a Rust crate's llvm-cov tracefile
//! has about 25 `FN` records a file, one per instantiation and per binary), and a file keeps them
//! until the check is done. Packed, a file holds its names (one pointer each: a function's name,
//! then its aliases) and, per function, four LEB128 varints: start line + 1 (0: none), end line +
//! 1 (0: none), count, number of aliases. Every value comes back exactly (a count up to
//! `u64::MAX`, a line up to `u32::MAX`), in the same order.

use std::borrow::Cow;
use std::fmt;

use super::file::Function;
use super::index::{Aliases, Name};
use super::lines::{put, take};

/// The functions of a file, in first-appearance order: open (a vector, which a merge or a
/// section adds to) or packed (read-only; [`Functions::open`] unpacks them again).
#[derive(Clone)]
pub(super) enum Functions {
    /// Functions being added to.
    Open(Vec<Function>),
    /// Functions at rest.
    Packed(Packed),
}

/// Packed functions (see the module documentation).
#[derive(Clone)]
pub(super) struct Packed {
    /// Per function: its name, then its aliases.
    names: Box<[Name]>,
    /// Per function: varint(start + 1 or 0), varint(end + 1 or 0), varint(count),
    /// varint(number of aliases).
    bytes: Box<[u8]>,
    /// How many functions there are.
    len: usize,
}

impl Default for Functions {
    fn default() -> Functions {
        Functions::Open(Vec::new())
    }
}

impl From<Vec<Function>> for Functions {
    fn from(functions: Vec<Function>) -> Functions {
        Functions::Open(functions)
    }
}

/// A line number + 1, 0 for none: a `u32` line fits whole.
fn line_code(line: Option<u32>) -> u64 {
    line.map_or(0, |l| u64::from(l) + 1)
}

/// The line of a [`line_code`]. Only codes written by [`line_code`] are read, so a code is at
/// most `u32::MAX` + 1 and the conversion cannot fail.
fn code_line(code: u64) -> Option<u32> {
    code.checked_sub(1).and_then(|l| u32::try_from(l).ok())
}

impl Packed {
    fn pack(functions: Vec<Function>) -> Packed {
        let len = functions.len();
        let aliases: usize = functions.iter().map(|f| f.aliases.len()).sum();
        let mut names = Vec::with_capacity(len + aliases);
        let mut bytes = Vec::with_capacity(len * 5);
        for f in functions {
            put(&mut bytes, line_code(f.start));
            put(&mut bytes, line_code(f.end));
            put(&mut bytes, f.count);
            put(&mut bytes, f.aliases.len() as u64);
            names.push(f.name);
            names.extend(f.aliases.iter().cloned());
        }
        Packed {
            names: names.into_boxed_slice(),
            bytes: bytes.into_boxed_slice(),
            len,
        }
    }

    fn unpack(&self) -> Vec<Function> {
        let mut out = Vec::with_capacity(self.len);
        let mut rest: &[u8] = &self.bytes;
        let mut names = self.names.iter();
        while !rest.is_empty() {
            let (start, after) = take(rest);
            let (end, after) = take(after);
            let (count, after) = take(after);
            let (aliases, after) = take(after);
            rest = after;
            // Written by `pack`: a name for every function and for each of its aliases.
            let name = names.next().cloned().unwrap_or_else(|| Name::from(""));
            let aliases: Vec<Name> = names.by_ref().take(aliases as usize).cloned().collect();
            out.push(Function {
                start: code_line(start),
                end: code_line(end),
                name,
                aliases: Aliases::from_sorted(aliases),
                count,
            });
        }
        out
    }
}

impl Functions {
    /// Adds `function` last (packed functions are unpacked first).
    pub(super) fn push(&mut self, function: Function) {
        match self {
            Functions::Open(functions) => functions.push(function),
            Functions::Packed(packed) => {
                let mut functions = packed.unpack();
                functions.push(function);
                *self = Functions::Open(functions);
            }
        }
    }

    /// The function at `at` to change, while the functions are open; none while they are
    /// packed (nothing is found in them then: a file's function index is empty once its
    /// functions are packed, see `LcovFile::compact`).
    pub(super) fn get_mut(&mut self, at: usize) -> Option<&mut Function> {
        match self {
            Functions::Open(functions) => functions.get_mut(at),
            Functions::Packed(_) => None,
        }
    }

    /// Unpacks packed functions, so that they can be found and changed again.
    pub(super) fn unpack(&mut self) {
        if let Functions::Packed(packed) = self {
            *self = Functions::Open(packed.unpack());
        }
    }

    /// The functions while they are open; none while they are packed (a file's function index
    /// is empty then, so nothing is looked up in them: see `LcovFile::indexed`).
    pub(super) fn opened(&self) -> &[Function] {
        match self {
            Functions::Open(functions) => functions,
            Functions::Packed(_) => &[],
        }
    }

    /// Packs the functions (they are read only from here on, unless [`Functions::open`]ed).
    pub(super) fn pack(&mut self) {
        if let Functions::Open(functions) = self {
            *self = Functions::Packed(Packed::pack(std::mem::take(functions)));
        }
    }

    /// Every function, in first-appearance order: borrowed when open, unpacked when packed.
    pub(super) fn list(&self) -> Cow<'_, [Function]> {
        match self {
            Functions::Open(functions) => Cow::Borrowed(functions),
            Functions::Packed(packed) => Cow::Owned(packed.unpack()),
        }
    }

    /// The functions as a vector, in first-appearance order.
    pub(super) fn into_vec(self) -> Vec<Function> {
        match self {
            Functions::Open(functions) => functions,
            Functions::Packed(packed) => packed.unpack(),
        }
    }

    /// How many functions there are.
    pub(super) fn len(&self) -> usize {
        match self {
            Functions::Open(functions) => functions.len(),
            Functions::Packed(packed) => packed.len,
        }
    }

    /// True when there is no function.
    pub(super) fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Functions are equal when they list the same functions in the same order, packed or not.
impl PartialEq for Functions {
    fn eq(&self, other: &Functions) -> bool {
        self.list() == other.list()
    }
}

impl Eq for Functions {}

impl fmt::Debug for Functions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.list().iter()).finish()
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "functions_tests.rs"]
mod tests;
