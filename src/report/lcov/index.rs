//! A hash index of keyed items kept in a vector (functions, branch sides of a file).

use std::borrow::Borrow;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};
use std::sync::{Arc, LazyLock, OnceLock, PoisonError, RwLock, RwLockReadGuard};

use hashbrown::{DefaultHashBuilder, DefaultHasher};

/// Positions of keyed items in a vector, found through a hash of the key, so that a key (a
/// function name, a branch id) is stored once, in its item. The hash is foldhash with a random
/// seed ([`Keys`]), so input is not written to collide; a collision is still handled (the item is
/// then found by a scan of the few colliding positions). An empty index takes one pointer: the table
/// is allocated with its first item (a file read whole drops its indexes, see `LcovFile::compact`).
#[derive(Debug, Clone, Default)]
pub(super) struct Index<S = Keys> {
    hasher: S,
    table: Option<Box<Table>>,
}

/// The positions of an [`Index`].
#[derive(Debug, Clone, Default)]
struct Table {
    /// Hash → position of the first item with that hash.
    first: HashMap<u64, usize, BuildHasherDefault<Passthrough>>,
    /// Positions of items whose hash an earlier item already had (almost always empty).
    collided: Vec<usize>,
}

impl<S: BuildHasher> Index<S> {
    pub(super) fn hash(&self, key: impl Hash) -> u64 {
        self.hasher.hash_one(key)
    }

    /// How many items are indexed.
    pub(super) fn len(&self) -> usize {
        self.table
            .as_ref()
            .map_or(0, |t| t.first.len() + t.collided.len())
    }

    /// The position of the item with hash `hash` for which `is` holds.
    pub(super) fn find(&self, hash: u64, is: &dyn Fn(usize) -> bool) -> Option<usize> {
        let table = self.table.as_ref()?;
        match table.first.get(&hash) {
            None => None,
            Some(&at) if is(at) => Some(at),
            Some(_) => table.collided.iter().copied().find(|at| is(*at)),
        }
    }

    /// Records that the item at `at`, not yet indexed, has hash `hash`.
    pub(super) fn insert(&mut self, hash: u64, at: usize) {
        let table = self.table.get_or_insert_with(Box::default);
        match table.first.entry(hash) {
            Entry::Occupied(_) => table.collided.push(at),
            Entry::Vacant(slot) => {
                slot.insert(at);
            }
        }
    }
}

/// The process's random hash seed, drawn once: one for every index and map of the reader, so an
/// index takes no room for it. The hash is foldhash (hashbrown's default hasher): several times
/// cheaper than the standard library's SipHash on the short names of a tracefile, and seeded at
/// random per process, so a tracefile is not written to collide (a collision is still handled).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Keys;

impl BuildHasher for Keys {
    type Hasher = DefaultHasher;

    fn build_hasher(&self) -> DefaultHasher {
        static SEED: OnceLock<DefaultHashBuilder> = OnceLock::new();
        SEED.get_or_init(DefaultHashBuilder::default).build_hasher()
    }
}

/// A hasher for keys that are hashes already: the key's `u64` is the hash.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Passthrough(u64);

impl Hasher for Passthrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*byte);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A name of a tracefile (a function name, an alias, a branch block or id), stored once per
/// process and shared by every record that spells it: the same function in every copy of a
/// file and in every block of the tracefile, block `0` in every branch record. Reads as a
/// `str`; compares, orders and hashes as its text. One pointer wide (the text is behind the
/// shared allocation), since every function and branch side of every file holds one or more.
/// Each name has a number in the process's table of names ([`Name::number`]), so that packed
/// functions store a varint instead of a pointer (see `functions`); the table keeps every name
/// met for the life of the process (a few megabytes for a million distinct names).
#[derive(Clone)]
pub struct Name(Arc<Named>);

/// The text of a [`Name`] and its number in the table.
struct Named {
    text: Box<str>,
    number: usize,
}

/// Every name met by the process, each once: by text, and by number (its position).
#[derive(Default)]
struct NameTable {
    by_text: hashbrown::HashSet<Name, Keys>,
    by_number: Vec<Name>,
}

/// The process's table of names. Readers on several threads add to it (each block parser once
/// per name new to its block, see [`Names`]); packed functions read it when they unpack.
static TABLE: LazyLock<RwLock<NameTable>> = LazyLock::new(RwLock::default);

/// The table to read (a panic elsewhere while it was held leaves it whole: names are only ever
/// added, each at once).
fn table() -> RwLockReadGuard<'static, NameTable> {
    TABLE.read().unwrap_or_else(PoisonError::into_inner)
}

impl Name {
    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0.text
    }

    /// The name's number in the process's table: [`with_numbered`] gives the name back.
    pub(super) fn number(&self) -> usize {
        self.0.number
    }
}

/// Calls `f` with the process's names, each at its [`Name::number`] (the table is locked for
/// reading meanwhile: `f` must not make names).
pub(super) fn with_numbered<T>(f: impl FnOnce(&[Name]) -> T) -> T {
    f(&table().by_number)
}

impl std::ops::Deref for Name {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0.text
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0.text
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Name) -> bool {
        self.0.text == other.0.text
    }
}

impl Eq for Name {}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Name) -> std::cmp::Ordering {
        self.0.text.cmp(&other.0.text)
    }
}

impl Hash for Name {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.text.hash(state);
    }
}

/// The process's name spelt `text`, added to its table when it is new.
impl From<&str> for Name {
    fn from(text: &str) -> Name {
        if let Some(name) = table().by_text.get(text) {
            return name.clone();
        }
        let mut table = TABLE.write().unwrap_or_else(PoisonError::into_inner);
        let NameTable { by_text, by_number } = &mut *table;
        by_text
            .get_or_insert_with(text, |text| {
                let name = Name(Arc::new(Named {
                    text: Box::from(text),
                    number: by_number.len(),
                }));
                by_number.push(name.clone());
                name
            })
            .clone()
    }
}

/// The alias names of an `FNL` group, sorted and distinct; one pointer wide, since most
/// functions (every `FN` record) have none. Reads as a slice of [`Name`].
#[derive(Clone, Default, PartialEq, Eq)]
// The box makes the field one pointer wide (a `Vec` takes three) in every function.
#[allow(clippy::box_collection)]
pub struct Aliases(Option<Box<Vec<Name>>>);

impl Aliases {
    /// Aliases from `names`, sorted and distinct.
    pub(super) fn from_sorted(names: Vec<Name>) -> Aliases {
        Aliases((!names.is_empty()).then(|| Box::new(names)))
    }

    /// Adds `alias` in its place when it is not there yet.
    pub(super) fn insert(&mut self, alias: Name) {
        let names = self.0.get_or_insert_with(Box::default);
        if let Err(at) = names.binary_search(&alias) {
            names.insert(at, alias);
        }
    }
}

impl std::ops::Deref for Aliases {
    type Target = [Name];

    fn deref(&self) -> &[Name] {
        self.0.as_deref().map_or(&[], Vec::as_slice)
    }
}

impl<const N: usize> PartialEq<[&str; N]> for Aliases {
    fn eq(&self, other: &[&str; N]) -> bool {
        **self == *other
    }
}

impl fmt::Debug for Aliases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        *self.0.text == *other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        *self.0.text == **other
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0.text, f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.text)
    }
}

/// The names a reader has met: a cache of the process's table ([`Name`]), so that the table is
/// looked up (and locked) once per name and thread, not per record. The cache is the thread's,
/// kept from one block parser to the next (a tracefile's blocks spell the same names over and
/// over); it is emptied when it holds [`CACHED_NAMES`] names, so it takes at most some
/// megabytes a thread whatever the input (the table keeps every name anyway).
#[derive(Debug, Default)]
pub(super) struct Names;

/// The most names a thread's cache holds (see [`Names`]).
pub(super) const CACHED_NAMES: usize = 1 << 16;

thread_local! {
    static CACHE: std::cell::RefCell<HashSet<Name, Keys>> =
        const { std::cell::RefCell::new(HashSet::with_hasher(Keys)) };
}

impl Names {
    /// The stored name spelt `text` (stored now when it is new).
    pub(super) fn get(&mut self, text: &str) -> Name {
        CACHE.with_borrow_mut(|cache| match cache.get(text) {
            Some(name) => name.clone(),
            None => {
                if cache.len() >= CACHED_NAMES {
                    cache.clear();
                }
                let name = Name::from(text);
                cache.insert(name.clone());
                name
            }
        })
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "index_tests.rs"]
mod tests;
