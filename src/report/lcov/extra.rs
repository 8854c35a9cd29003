//! The part of an LCOV file that few files need, boxed apart from [`LcovFile`](super::LcovFile): its branch
//! sides and their index, a merge's runs, the functions without branch records, and whether a
//! section was cut short.

use super::file::{add_taken, Branch};
use super::index::{Index, Name};
use super::instances::Ran;

/// What an [`LcovFile`](super::LcovFile) holds only when it has branch records, or while it merges, boxed apart:
/// a file without is 128 bytes, one block of the allocator's 128-byte size class (inline, the
/// fields made it 176 bytes, in the 192-byte class: 12 MB more on a tracefile of 189,000
/// files).
#[derive(Debug, Clone, Default)]
pub(super) struct Extra {
    /// `BRDA` sides in first-appearance order.
    pub(super) branches: Vec<Branch>,
    pub(super) branch_index: Index,
    /// The function records that ran, by start line, while the file merges (see
    /// [`LcovFile::instances_apart`](super::LcovFile::instances_apart)); dropped with the indexes.
    pub(super) ran: Option<Box<Ran>>,
    /// Once a section of the file has branch records: the functions (start line, a name of
    /// theirs) that only its sections without any hold, whose branches no section of the
    /// tracefile measured (see [`super::unbranched`]; kept by [`LcovFile::merge_section`](super::LcovFile::merge_section));
    /// `None` when there is none.
    pub(super) unbranched: Option<Box<[(u32, Name)]>>,
    /// True when a section of the file was cut short (no `end_of_record`: its records are
    /// dropped, see `parse`): the file's records are not all known ([`LcovFile::is_cut_short`](super::LcovFile::is_cut_short)).
    pub(super) cut: bool,
}

impl Extra {
    /// True when it holds nothing: the file needs no box.
    pub(super) fn is_empty(&self) -> bool {
        self.branches.is_empty() && self.ran.is_none() && self.unbranched.is_none() && !self.cut
    }

    /// Adds a `BRDA` side, summed into the side of its key (line, block, branch) if there is one.
    pub(super) fn add_branch(&mut self, branch: Branch) {
        let key = (branch.line, branch.block.as_str(), branch.branch.as_str());
        let hash = self.branch_index.hash(key);
        let branches = &self.branches;
        let found = self.branch_index.find(hash, &|at| {
            branches
                .get(at)
                .is_some_and(|b| (b.line, b.block.as_str(), b.branch.as_str()) == key)
        });
        match found.and_then(|at| self.branches.get_mut(at)) {
            Some(existing) => existing.taken = add_taken(existing.taken, branch.taken),
            None => {
                self.branch_index.insert(hash, self.branches.len());
                self.branches.push(branch);
            }
        }
    }

    /// Builds the branch index again when [`LcovFile::compact`](super::LcovFile::compact) dropped it.
    pub(super) fn indexed(&mut self) {
        if self.branch_index.len() < self.branches.len() {
            let mut index = Index::default();
            for (at, b) in self.branches.iter().enumerate() {
                index.insert(
                    index.hash((b.line, b.block.as_str(), b.branch.as_str())),
                    at,
                );
            }
            self.branch_index = index;
        }
    }
}
