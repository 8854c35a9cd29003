//! What is known of the sources before the reports are read (walked on a thread of their own
//! while the reports are read).

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::OnceLock;

use super::setup::Setup;
use super::CheckOptions;
use crate::markers;
use crate::paths::Location;
use crate::walk::{self, Walked};

/// Sets a [`Sources`] being found to "nothing known" if finding it panics, so that the reader
/// waiting for it goes on; the panic then ends the check ([`std::thread::scope`] passes it on).
pub(super) struct Unblock<'a>(pub(super) &'a OnceLock<Sources>);

impl Drop for Unblock<'_> {
    fn drop(&mut self) {
        // Already set when finding the sources ended normally.
        let _ = self.0.set(Sources::default());
    }
}

/// What is known of the sources before the reports are read: the files an `include` glob
/// selects on disk, and those among them that mention an inline marker
/// ([`markers::mentions_markers`]) or, Rust files, the word `coverage`
/// ([`markers::mentions_coverage_off`]). Both are empty when the root is not walked (`--no-walk`, or
/// a root that cannot be walked, which [`scope::resolve`](crate::scope::resolve) then reports).
#[derive(Debug, Default)]
pub(super) struct Sources {
    pub(super) walked: BTreeSet<String>,
    /// The links to folders outside the root that the walk did not follow ([`Walked::outside`]).
    pub(super) outside: Vec<(String, std::path::PathBuf)>,
    pub(super) marked: BTreeSet<String>,
    /// The walk's notes on paths it skipped ([`Walked::notes`]).
    pub(super) notes: Vec<String>,
    /// True when the root was not walked: no file carries markers then.
    pub(super) unwalked: bool,
    /// The length of the longest walked path, in bytes: no longer ending of a report path can
    /// be a walked file.
    pub(super) longest: usize,
}

impl Sources {
    /// The sources under the root, from `walked` when the root is walked already.
    pub(super) fn find(setup: &Setup, opts: &CheckOptions, walked: Option<Walked>) -> Sources {
        let root = Path::new(&setup.root);
        let included = |p: &str| setup.policy.includes(p);
        let walk = || walked.map_or_else(|| walk::walk(root, &included), Ok);
        let (walked, outside, notes) = match opts.walk.then(walk) {
            Some(Ok(mut walked)) => {
                walked.admit(&|folder| setup.policy.names_folder_above(folder));
                let notes = walked.notes();
                (walked.files, walked.outside, notes)
            }
            _ => {
                return Sources {
                    unwalked: true,
                    ..Sources::default()
                }
            }
        };
        let marked =
            markers::files_mentioning_markers(root, &walked, &setup.policy.inline.families);
        let longest = walked.iter().map(String::len).max().unwrap_or_default();
        Sources {
            walked,
            outside,
            marked,
            notes,
            unwalked: false,
            longest,
        }
    }

    /// The files the walk found; `None` when the root was not walked.
    pub(super) fn walked(&self) -> Option<&BTreeSet<String>> {
        (!self.unwalked).then_some(&self.walked)
    }

    /// True when the measured file `rel` may carry markers: it mentions one, or the walk did
    /// not see it (so it was not read).
    pub(super) fn may_carry(&self, rel: &String) -> bool {
        self.marked.contains(rel) || !self.walked.contains(rel)
    }

    /// True when a report file, resolved without the report's own manifest hint (which may
    /// come after its records), may be a file that carries markers: one of its path's
    /// endings is a marked file, or none of them is a walked file (then nothing is known of it).
    /// The file is resolved (by `location`) only when the root was walked: without a walk,
    /// nothing carries markers, and the names of 30,000 files are not resolved for nothing.
    pub(super) fn may_mark(&self, location: &dyn Fn() -> Location) -> bool {
        if self.unwalked {
            return false;
        }
        let location = location();
        let path = location.as_str();
        // Only endings no longer than the longest walked path are looked up (a report path of
        // megabytes is not looked up once per `/`).
        let endings = std::iter::once(path)
            .chain(
                path.match_indices('/')
                    .filter_map(|(at, _)| path.get(at + 1..)),
            )
            .filter(|ending| ending.len() <= self.longest);
        let mut known = false;
        for ending in endings {
            if self.marked.contains(ending) {
                return true;
            }
            known |= self.walked.contains(ending);
        }
        !known
    }
}
