//! The functions of one LCOV file: a vector while the file is built or merged, packed once it is
//! read whole (about 5 bytes a function instead of 40).
//!
//! Function records are most of what a tracefile's files keep (a Rust crate's llvm-cov tracefile
//! has about 25 `FN` records a file, one per instantiation and per binary), and a file keeps them
//! until the check is done. Packed, a file holds one slice of LEB128 varints, per function: the
//! number of its name in the process's table of names ([`Name::number`]: a name is stored once
//! for the whole process, whatever block or file spells it); its start line + 1 (0: none) times
//! 4, plus 2 when it has an end line and 1 when it has aliases; the end line, when it has one;
//! its count; when it has aliases, their number and the number of each alias's name. An `FN`
//! record without an end line and a count below 128 takes 3 bytes beside its name's number (1
//! to 3 bytes: 2 up to 16,383 distinct names) when its start line is below 4,095. Every value
//! comes back exactly (a count up to `u64::MAX`, a line up to `u32::MAX`), in order.

use std::borrow::Cow;
use std::fmt;

use super::file::Function;
use super::index::{with_numbered, Aliases, Name};
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
    /// Per function: varint(name's number), varint(4 × (start + 1 or 0) + 2 × has end + has
    /// aliases), [varint(end)], varint(count), [varint(number of aliases), varint(each alias's
    /// number)].
    bytes: Box<[u8]>,
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

/// The first varint of a packed function: its start line + 1 (0: none) times 4, plus 2 when it
/// has an end line and 1 when it has aliases (a `u32` line fits whole).
fn head(f: &Function) -> u64 {
    let start = f.start.map_or(0, |l| u64::from(l) + 1);
    start << 2 | u64::from(f.end.is_some()) << 1 | u64::from(!f.aliases.is_empty())
}

/// The start line of a [`head`]. Only heads written by [`head`] are read, so the line is at most
/// `u32::MAX` and the conversion cannot fail.
fn head_start(head: u64) -> Option<u32> {
    (head >> 2)
        .checked_sub(1)
        .and_then(|l| u32::try_from(l).ok())
}

/// The varint at the start of `bytes` when `present`, and the bytes after it.
fn take_if(present: bool, bytes: &[u8]) -> (Option<u64>, &[u8]) {
    if present {
        let (n, rest) = take(bytes);
        (Some(n), rest)
    } else {
        (None, bytes)
    }
}

/// The name numbered by the varint at the start of `bytes` in `names` (the process's names,
/// see [`with_numbered`]), and the bytes after it; `None` at the end of `bytes`.
fn take_name<'a>(bytes: &'a [u8], names: &[Name]) -> Option<(Name, &'a [u8])> {
    if bytes.is_empty() {
        return None;
    }
    let (number, rest) = take(bytes);
    let name = usize::try_from(number).ok().and_then(|n| names.get(n))?;
    Some((name.clone(), rest))
}

/// `count` names at the start of `bytes` as [`take_name`] takes them, and the bytes after them.
fn take_names<'a>(mut bytes: &'a [u8], names: &[Name], count: u64) -> (Vec<Name>, &'a [u8]) {
    let list = std::iter::from_fn(|| {
        let (name, rest) = take_name(bytes, names)?;
        bytes = rest;
        Some(name)
    })
    .take(usize::try_from(count).unwrap_or(usize::MAX))
    .collect();
    (list, bytes)
}

impl Packed {
    fn pack(functions: Vec<Function>) -> Packed {
        let mut bytes = Vec::with_capacity(functions.len() * 6);
        for f in functions {
            put(&mut bytes, f.name.number() as u64);
            put(&mut bytes, head(&f));
            f.end
                .into_iter()
                .for_each(|end| put(&mut bytes, u64::from(end)));
            put(&mut bytes, f.count);
            if !f.aliases.is_empty() {
                put(&mut bytes, f.aliases.len() as u64);
                for alias in f.aliases.iter() {
                    put(&mut bytes, alias.number() as u64);
                }
            }
        }
        Packed {
            bytes: bytes.into_boxed_slice(),
        }
    }

    fn unpack(&self) -> Vec<Function> {
        with_numbered(|names| self.unpack_with(names))
    }

    /// [`Packed::unpack`] with the process's `names`.
    fn unpack_with(&self, names: &[Name]) -> Vec<Function> {
        let mut out = Vec::with_capacity(self.bytes.len() / 5);
        let mut rest: &[u8] = &self.bytes;
        // Written by `pack`: per function, its name's number, its varints, its aliases'.
        while let Some((name, after)) = take_name(rest, names) {
            let (head, after) = take(after);
            let (end, after) = take_if(head & 2 != 0, after);
            let (count, after) = take(after);
            let (aliases, after) = take_if(head & 1 != 0, after);
            let (list, after) = take_names(after, names, aliases.unwrap_or_default());
            rest = after;
            out.push(Function {
                start: head_start(head),
                // Written from a `u32`.
                end: end.and_then(|e| u32::try_from(e).ok()),
                name,
                aliases: Aliases::from_sorted(list),
                count,
            });
        }
        out
    }

    /// How many functions there are (counted as they are unpacked: asked only when a merge
    /// unpacks them anyway).
    fn len(&self) -> usize {
        self.unpack().len()
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
            Functions::Packed(packed) => packed.len(),
        }
    }

    /// True when there is no function.
    pub(super) fn is_empty(&self) -> bool {
        match self {
            Functions::Open(functions) => functions.is_empty(),
            Functions::Packed(packed) => packed.bytes.is_empty(),
        }
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
