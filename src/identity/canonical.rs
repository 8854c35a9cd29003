//! Canonical paths of many files at about one file-system lookup per folder.
//!
//! `std::fs::canonicalize` resolves every component of every path (a `readlink` each), so naming
//! the files of a large report costs several system calls per file. Most files are plain entries
//! of a folder shared with their neighbours: the canonical path of such a file is the canonical
//! path of its folder, a `/`, and its name. [`Canonical`] keeps, for the folders seen last, the
//! folder's canonical path and its entries that are not symbolic links (from one listing, with
//! the entry types the listing gives, no `stat` per file). Any other path (a name not listed, a
//! symbolic link, a folder that cannot be read, a name whose case differs from the entry's) is
//! resolved by `canonicalize`, so the answer is always the one `canonicalize` gives.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use crate::paths;

/// How many folders are remembered; the next new folder starts the cache afresh, so memory is
/// bounded by the folders' sizes, not by the input's.
const FOLDERS: usize = 256;

/// Canonical paths, with the listings of the folders seen last.
#[derive(Debug, Default)]
pub(crate) struct Canonical {
    /// By folder, as spelled: its listing, `None` when it has no canonical path or no listing.
    folders: RefCell<HashMap<String, Option<Folder>>>,
}

/// One folder's canonical path and its entries that are not symbolic links.
#[derive(Debug)]
struct Folder {
    real: String,
    plain: HashSet<Box<str>>,
}

impl Canonical {
    /// The canonical path of an existing file or folder, normalised, as [`real`] gives it;
    /// `None` when it does not exist.
    pub(crate) fn real(&self, path: &str) -> Option<String> {
        self.listed(path).or_else(|| real(path))
    }

    /// The canonical path of `path` when it is a listed entry of its folder that is not a
    /// symbolic link: the folder's canonical path joined with the name.
    fn listed(&self, path: &str) -> Option<String> {
        let (dir, name) = path.rsplit_once('/')?;
        let mut folders = self.folders.borrow_mut();
        if folders.len() >= FOLDERS && !folders.contains_key(dir) {
            folders.clear();
        }
        let folder = folders
            .entry(dir.to_string())
            .or_insert_with(|| Folder::read(dir))
            .as_ref()?;
        folder
            .plain
            .contains(name)
            .then(|| paths::join(&folder.real, name))
    }
}

impl Folder {
    /// The folder `dir`, or `None` when it has no canonical path or cannot be listed.
    fn read(dir: &str) -> Option<Folder> {
        let real = real(dir)?;
        let plain = std::fs::read_dir(dir)
            .ok()?
            .flatten()
            .filter(|entry| entry.file_type().is_ok_and(|kind| !kind.is_symlink()))
            .filter_map(|entry| entry.file_name().into_string().ok())
            .map(String::into_boxed_str)
            .collect();
        Some(Folder { real, plain })
    }
}

/// The canonical path of an existing file or folder, normalised; `None` when it does not exist.
pub(crate) fn real(path: &str) -> Option<String> {
    let real = std::fs::canonicalize(path).ok()?;
    Some(paths::normalize(&real.to_string_lossy()))
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "canonical_tests.rs"]
mod tests;
