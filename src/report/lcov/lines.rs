//! The `DA` lines of one LCOV file, packed: 8 bytes a line instead of 16.
//!
//! Lines are most of what a tracefile holds (a Rust crate's tracefile has about five `DA` records
//! per `FN`), and almost every count fits in 32 bits. A count that does not is kept exactly, in a
//! short side list.

/// The marker of a count kept in [`Lines::big`]: counts of `u32::MAX` or more.
const BIG: u32 = u32::MAX;

/// `DA` lines as (line, summed count), ascending by line, one entry per line; the counts exact.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Lines {
    /// (line, count), ascending by line; a count of [`BIG`] or more is [`BIG`] here and its value
    /// is in `big`.
    packed: Box<[(u32, u32)]>,
    /// The counts of [`BIG`] or more, in the order of their lines.
    big: Box<[u64]>,
}

impl Lines {
    /// Packs `lines`: (line, count) pairs ascending by line, one per line (what
    /// [`sorted_lines`](super::file::sorted_lines) and [`merge_lines`](super::file::merge_lines)
    /// give).
    pub(super) fn pack(lines: Vec<(u32, u64)>) -> Lines {
        let big = lines
            .iter()
            .map(|&(_, count)| count)
            .filter(|&count| count >= u64::from(BIG))
            .collect();
        let packed = lines
            .into_iter()
            .map(|(line, count)| (line, u32::try_from(count).unwrap_or(BIG)))
            .collect();
        Lines { packed, big }
    }

    /// Every line with its count, ascending by line.
    pub(super) fn iter(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        let mut big = self.big.iter().copied();
        self.packed.iter().map(move |&(line, count)| {
            let count = if count == BIG {
                big.next().unwrap_or(u64::MAX)
            } else {
                u64::from(count)
            };
            (line, count)
        })
    }

    /// The lines as (line, count) pairs, ascending by line.
    pub(super) fn unpack(&self) -> Vec<(u32, u64)> {
        self.iter().collect()
    }

    /// How many lines there are.
    pub(super) fn len(&self) -> usize {
        self.packed.len()
    }

    /// True when there is no line.
    pub(super) fn is_empty(&self) -> bool {
        self.packed.is_empty()
    }

    /// Every line with whether its count is above 0, ascending by line.
    pub(super) fn covered(&self) -> impl Iterator<Item = (u32, bool)> + '_ {
        self.packed.iter().map(|&(line, count)| (line, count > 0))
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "lines_tests.rs"]
mod tests;
