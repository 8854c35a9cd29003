//! The active `[[exclude]]` globs matched all at once: one [`GlobSet`] match per file gives the
//! index of every entry that matches it, so classifying files against entries costs about
//! files + entries, not their product (a generated policy may hold thousands of entries).

use globset::{GlobSet, GlobSetBuilder};

use crate::error::{Error, Result};
use crate::policy::Exclude;

/// The active entries' globs, compiled as written (index `i` of `active`) and without case
/// (index `count + i`), in one set.
pub(super) struct Exclusions {
    set: GlobSet,
    count: usize,
}

impl Exclusions {
    /// The set of `active`'s globs, in their order (an index is an index into `active`).
    ///
    /// Errors: the globs together are past the regex engine's size limit (each one alone
    /// compiled when the policy was read).
    pub(super) fn new(active: &[&Exclude]) -> Result<Exclusions> {
        let mut builder = GlobSetBuilder::new();
        let globs = active.iter().map(|e| e.pattern.globs());
        let (exact, folded): (Vec<_>, Vec<_>) = globs.unzip();
        for glob in exact.into_iter().chain(folded) {
            builder.add(glob.clone());
        }
        let set = builder.build().map_err(|e| too_large(active.len(), &e))?;
        Ok(Exclusions {
            set,
            count: active.len(),
        })
    }

    /// The indices of every entry matching the root-relative `rel`, in entry order; without
    /// case when `fold` is set.
    pub(super) fn all(&self, rel: &str, fold: bool) -> Vec<usize> {
        let from = usize::from(fold) * self.count;
        // GlobSet gives the indices sorted.
        self.set
            .matches(rel)
            .into_iter()
            .filter(|&i| (from..from + self.count).contains(&i))
            .map(|i| i - from)
            .collect()
    }

    /// The index of the first entry matching `rel` (the one that excludes it).
    pub(super) fn first(&self, rel: &str, fold: bool) -> Option<usize> {
        self.all(rel, fold).first().copied()
    }
}

fn too_large(count: usize, error: &globset::Error) -> Error {
    Error::new(format!(
        "the policy's {count} active [[exclude]] globs together are too large to compile \
         ({error}); merge entries into fewer globs (e.g. `src/gen/**`)"
    ))
}
