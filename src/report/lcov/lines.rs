//! The `DA` lines of one LCOV file, packed: about 1 to 2 bytes a line instead of 16.
//!
//! Lines are most of what a tracefile holds (a Rust crate's tracefile has about five `DA` records
//! per `FN`), and a file keeps them until the check is done. They are ascending and distinct, so
//! each is stored as the distance from the line before it (the first from 0), doubled, plus 1
//! when its count is that of the line before it; then, unless it is, its count. Both are
//! LEB128 varints (7 bits a byte, the high bit set on every byte but a number's last): a line
//! of a run of equal counts (the lines of one block) takes one byte, another line two when its
//! distance is below 64 and its count below 128, and any count up to `u64::MAX` comes back
//! exactly.

/// `DA` lines as (line, summed count), ascending by line, one entry per line; the counts exact.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Lines {
    /// Per line: varint(2 × (line − previous line) + 1 if its count is the previous line's,
    /// else + 0), then, for + 0, varint(count). The encoding is canonical (no padding bytes, a
    /// count repeated only when it differs), so equal lines give equal bytes.
    packed: Box<[u8]>,
}

/// Appends `n` to `out` as an LEB128 varint.
pub(super) fn put(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n & 0x7f) as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// The varint at the start of `bytes`, and the bytes after it. Only bytes written by [`put`]
/// are read: a number ends at a byte below 0x80, and ten bytes hold any `u64`.
pub(super) fn take(bytes: &[u8]) -> (u64, &[u8]) {
    if let [byte @ 0..0x80, rest @ ..] = bytes {
        // One byte, the most common case.
        return (u64::from(*byte), rest);
    }
    let mut n = 0u64;
    let mut shift = 0u32;
    let mut at = 0usize;
    for &byte in bytes {
        at += 1;
        n |= u64::from(byte & 0x7f).checked_shl(shift).unwrap_or(0);
        shift += 7;
        if byte < 0x80 {
            break;
        }
    }
    (n, bytes.get(at..).unwrap_or_default())
}

impl Lines {
    /// Packs `lines`: (line, count) pairs ascending by line, one per line (what
    /// [`sorted_lines`](super::file::sorted_lines) and [`merge_lines`](super::file::merge_lines)
    /// give).
    pub(super) fn pack(lines: Vec<(u32, u64)>) -> Lines {
        Lines::pack_from(lines.into_iter())
    }

    /// [`Lines::pack`] of lines as they are iterated (ascending by line, one per line).
    pub(super) fn pack_from(lines: impl ExactSizeIterator<Item = (u32, u64)>) -> Lines {
        let mut packed = Vec::with_capacity(lines.len() * 2);
        let mut previous = (0u32, None);
        for (line, count) in lines {
            let same = previous.1 == Some(count);
            put(
                &mut packed,
                u64::from(line.wrapping_sub(previous.0)) << 1 | u64::from(same),
            );
            if !same {
                put(&mut packed, count);
            }
            previous = (line, Some(count));
        }
        Lines {
            packed: packed.into_boxed_slice(),
        }
    }

    /// Every line with its count, ascending by line.
    pub(super) fn iter(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        let mut rest: &[u8] = &self.packed;
        let (mut line, mut count) = (0u32, 0u64);
        std::iter::from_fn(move || {
            if rest.is_empty() {
                return None;
            }
            let (code, after) = take(rest);
            rest = after;
            if code & 1 == 0 {
                (count, rest) = take(rest);
            }
            line = line.wrapping_add((code >> 1) as u32);
            Some((line, count))
        })
    }

    /// The lines as (line, count) pairs, ascending by line.
    pub(super) fn unpack(&self) -> Vec<(u32, u64)> {
        // At most one line a byte (not counted first: that would decode the lines twice).
        let mut lines = Vec::with_capacity(self.packed.len());
        lines.extend(self.iter());
        lines
    }

    /// How many lines have a count above 0, and how many lines there are: one pass over the
    /// bytes, no line decoded into a pair.
    pub(super) fn tally(&self) -> (u64, u64) {
        let mut rest: &[u8] = &self.packed;
        let (mut covered, mut total, mut ran) = (0u64, 0u64, false);
        while !rest.is_empty() {
            let (code, after) = take(rest);
            rest = after;
            // A line without its own count has the count of the line before it.
            if code & 1 == 0 {
                let count;
                (count, rest) = take(rest);
                ran = count > 0;
            }
            covered += u64::from(ran);
            total += 1;
        }
        (covered, total)
    }

    /// True when there is no line.
    pub(super) fn is_empty(&self) -> bool {
        self.packed.is_empty()
    }

    /// Every line with whether its count is above 0, ascending by line.
    pub(super) fn covered(&self) -> impl Iterator<Item = (u32, bool)> + '_ {
        self.iter().map(|(line, count)| (line, count > 0))
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "lines_tests.rs"]
mod tests;
