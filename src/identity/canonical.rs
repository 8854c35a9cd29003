//! Canonical paths of many files at about one file-system lookup per folder.
//!
//! `std::fs::canonicalize` resolves every component of every path (a `readlink` each), so naming
//! the files of a large report costs several system calls per file. Most files are plain entries
//! of a folder shared with their neighbours: the canonical path of such a file is the canonical
//! path of its folder, a `/`, and its name. [`Canonical`] keeps, for the folders seen last, the
//! folder's canonical path and its entries that are not symbolic links (from one listing, with
//! the entry types the listing gives, no `stat` per file). A folder's own canonical path is found
//! the same way, from the listing of the folder above it, so that 4,500 folders of one tree cost
//! 4,500 listings, not a `readlink` for each component of each. Any other path (a name not
//! listed, a symbolic link, a folder that cannot be read, a name whose case differs from the
//! entry's) is resolved by `canonicalize`, so the answer is always the one `canonicalize` gives.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::paths;

/// How many folders are remembered; the next new folder starts the cache afresh (but for the
/// folders above it), so memory is bounded by the folders' sizes, not by the input's.
const FOLDERS: usize = 256;

/// Canonical paths, with the listings of the folders seen last.
#[derive(Debug, Default)]
pub(crate) struct Canonical {
    /// By folder, as spelled: its listing, `None` when it has no canonical path or no listing.
    folders: RefCell<HashMap<String, Option<Arc<Folder>>>>,
    /// How many folders were listed: what the lookups cost.
    listings: Cell<usize>,
}

/// The longest path (in bytes, its final NUL aside) that a system call takes on Linux. A
/// folder whose spelling or canonical path is longer is left to `canonicalize` (which refuses
/// it), as is everything deeper: a path of millions of components is not looked up folder by
/// folder.
const PATH_MAX: usize = 4095;

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

    /// How many folders this cache has listed (or tried to) since it was made.
    #[cfg(test)]
    pub(crate) fn listings(&self) -> usize {
        self.listings.get()
    }

    /// The canonical path of `path` when it is a listed entry of its folder that is not a
    /// symbolic link: the folder's canonical path joined with the name.
    fn listed(&self, path: &str) -> Option<String> {
        let (dir, name) = path.rsplit_once('/')?;
        let folder = self.folder(dir)?;
        folder
            .plain
            .contains(name)
            .then(|| paths::join(&folder.real, name))
            .filter(|real| real.len() <= PATH_MAX)
    }

    /// The folder `dir` (as spelled), remembered or read; `None` when it has no canonical path
    /// or cannot be listed.
    fn folder(&self, dir: &str) -> Option<Arc<Folder>> {
        if let Some(known) = self.folders.borrow().get(dir) {
            return known.clone();
        }
        let folder = self
            .folder_real(dir)
            .and_then(|real| {
                self.listings.set(self.listings.get() + 1);
                Folder::read(dir, real)
            })
            .map(Arc::new);
        let mut folders = self.folders.borrow_mut();
        if folders.len() >= FOLDERS {
            // The folders above `dir` stay: the next folders of its tree need them.
            folders.retain(|held, _| paths::strip_base(dir, held).is_some());
        }
        folders.insert(dir.to_string(), folder.clone());
        folder
    }

    /// The canonical path of the folder `dir`: the canonical path of the folder above it, a `/`
    /// and its name when it is a listed entry there that is not a symbolic link; else
    /// [`real`]'s.
    fn folder_real(&self, dir: &str) -> Option<String> {
        let above = dir
            .rsplit_once('/')
            .filter(|_| dir.len() <= PATH_MAX)
            .and_then(|(up, name)| Some((self.folder(up)?, name)));
        match above {
            Some((up, name)) if up.plain.contains(name) => Some(paths::join(&up.real, name))
                .filter(|real| real.len() <= PATH_MAX)
                .or_else(|| real(dir)),
            _ => real(dir),
        }
    }
}

impl Folder {
    /// The folder `dir`, whose canonical path is `real`, or `None` when it cannot be listed.
    fn read(dir: &str, real: String) -> Option<Folder> {
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
