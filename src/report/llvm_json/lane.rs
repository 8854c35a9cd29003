//! A fast lane for the common shape of an export's elements: `functions[]` records and
//! `files[]` entries read by hand from their bytes, several times faster than serde's generic
//! path (whose visitors dominate the cost of a large export).
//!
//! The lane takes only a strict subset of JSON: unsigned integers without fraction or exponent
//! in the fields it reads, strings without escapes (valid UTF-8), regions of exactly eight and
//! branches of exactly nine numbers, each key at most once, every required key present. On
//! anything else it declines (`None`) and the element goes to serde ([`super::record`],
//! [`super::wire`]), which reads it or words the error. So what the lane accepts is valid
//! JSON, and it reads it to the values serde would.

use super::count::Count;
use super::digits;
use super::evidence::{main_id, Evidence};
use super::record::{ids_fit, spare_filenames, spare_regions, Branch, RawRecord, Region};
use super::wire::{CountsJson, FileEntry, SummaryJson};
use super::Span;

/// The keys of the objects of an export that the lane reads (records, `files[]` entries and
/// their summaries), as llvm-cov spells them.
const KNOWN_KEYS: [&str; 17] = [
    "branches",
    "count",
    "covered",
    "expansions",
    "filename",
    "filenames",
    "functions",
    "instantiations",
    "lines",
    "mcdc",
    "mcdc_records",
    "name",
    "notcovered",
    "percent",
    "regions",
    "segments",
    "summary",
];

/// Deepest nesting the lane skips through (serde's own limit is 128).
const MAX_DEPTH: u32 = 64;

/// A cursor over one element's bytes.
struct Scan<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Scan<'a> {
    fn blank(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    /// The next non-blank byte, not consumed.
    fn peek(&mut self) -> Option<u8> {
        self.blank();
        self.bytes.get(self.pos).copied()
    }

    /// Consumes `byte` (after blank space).
    fn eat(&mut self, byte: u8) -> Option<()> {
        // Exports are written without blank space: look at the next byte first.
        if self.bytes.get(self.pos) == Some(&byte) {
            self.pos += 1;
            return Some(());
        }
        (self.peek()? == byte).then(|| self.pos += 1)
    }

    /// After a value in a sequence: true for `,`, false for `close`.
    fn more(&mut self, close: u8) -> Option<bool> {
        match self.peek()? {
            b',' => {
                self.pos += 1;
                Some(true)
            }
            byte if byte == close => {
                self.pos += 1;
                Some(false)
            }
            _ => None,
        }
    }

    /// An object key and its bit among [`KNOWN_KEYS`] (0 for other keys): a known key is found
    /// by its bytes (most strings of an export are keys: this spares reading them as UTF-8),
    /// any other is read as a string ([`Scan::str`]).
    fn key(&mut self) -> Option<(&'a str, u32)> {
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        let body = rest.strip_prefix(b"\"").unwrap_or_default();
        let known = short_quote(body)
            .and_then(|len| body.get(..len))
            .and_then(known_key);
        match known {
            Some(index) => {
                let key = KNOWN_KEYS.get(index).copied().unwrap_or_default();
                self.pos += key.len() + 2;
                Some((key, 1 << index))
            }
            None => self.str().map(|key| (key, 0)),
        }
    }

    /// An unsigned integer: `0` or digits without a leading zero, not followed by a fraction
    /// or an exponent. At most 19 digits (so no overflow is possible): longer numbers, which
    /// are rare and may pass `u64::MAX`, are left to serde.
    fn uint(&mut self) -> Option<u64> {
        self.blank();
        let (value, digits) = digits::uint_at(self.bytes, self.pos)?;
        self.pos += digits;
        let goes_on = matches!(self.bytes.get(self.pos), Some(b'.' | b'e' | b'E'));
        (!goes_on).then_some(value)
    }

    /// A string without escapes or control characters, valid UTF-8.
    fn str(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.pos;
        let rest = self.bytes.get(start..).unwrap_or_default();
        let len = memchr::memchr2(b'"', b'\\', rest)?;
        let text = rest.get(..len).unwrap_or_default();
        // A fold without early exit, which the compiler turns into vector code.
        let control = text.iter().fold(false, |found, &b| found | (b < 0x20));
        if rest.get(len) != Some(&b'"') || control {
            return None;
        }
        self.pos = start + len + 1;
        std::str::from_utf8(text).ok()
    }

    /// A JSON number of any form, skipped.
    fn number(&mut self) -> Option<()> {
        if self.bytes.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        let digits = |scan: &mut Scan<'_>| {
            let start = scan.pos;
            while let Some(b'0'..=b'9') = scan.bytes.get(scan.pos) {
                scan.pos += 1;
            }
            scan.pos - start
        };
        let first = self.pos;
        let whole = digits(self);
        if whole == 0 || (whole > 1 && self.bytes.get(first) == Some(&b'0')) {
            return None;
        }
        if self.bytes.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            (digits(self) > 0).then_some(())?;
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.pos) {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
            (digits(self) > 0).then_some(())?;
        }
        Some(())
    }

    /// Any JSON value in the lane's subset, skipped.
    fn skip(&mut self, depth: u32) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'"' => self.str().map(drop),
            b'[' => {
                // Flat arrays (`segments` entries), and arrays of them, without a call each.
                let rest = self.bytes.get(self.pos..).unwrap_or_default();
                if let Some(len) = digits::flat(rest).or_else(|| digits::flats(rest)) {
                    self.pos += len;
                    return Some(());
                }
                self.pos += 1;
                if self.peek()? == b']' {
                    self.pos += 1;
                    return Some(());
                }
                loop {
                    // Flat elements (`segments` entries) without a call each.
                    if self.flat().is_none() {
                        self.skip(depth + 1)?;
                    }
                    if !self.more(b']')? {
                        return Some(());
                    }
                }
            }
            b'{' => self.object(&mut |scan, _| scan.skip(depth + 1)),
            b't' => self.word(b"true"),
            b'f' => self.word(b"false"),
            b'n' => self.word(b"null"),
            _ => self.number(),
        }
    }

    /// The fast path of [`Scan::skip`] for an array of unsigned integers and literals written
    /// without blank space (`segments` entries); `None`, with the cursor unmoved, for anything
    /// else.
    fn flat(&mut self) -> Option<()> {
        let len = digits::flat(self.bytes.get(self.pos..).unwrap_or_default())?;
        self.pos += len;
        Some(())
    }

    /// `N` unsigned integers as `[a,b,…]`: a fast path for regions and branches written
    /// without blank space, falling back to the general reading otherwise.
    fn uints<const N: usize>(&mut self) -> Option<[u64; N]> {
        if let Some(values) = self.packed_uints() {
            return Some(values);
        }
        self.eat(b'[')?;
        let mut values = [0; N];
        for (index, value) in values.iter_mut().enumerate() {
            if index > 0 {
                self.eat(b',')?;
            }
            *value = self.uint()?;
        }
        self.eat(b']')?;
        Some(values)
    }

    /// [`Scan::uints`] when the array has no blank space; `None`, with the cursor unmoved,
    /// otherwise.
    fn packed_uints<const N: usize>(&mut self) -> Option<[u64; N]> {
        let (values, len) = digits::packed(self.bytes.get(self.pos..).unwrap_or_default())?;
        self.pos += len;
        Some(values)
    }

    fn word(&mut self, word: &[u8]) -> Option<()> {
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        rest.starts_with(word).then(|| self.pos += word.len())
    }

    /// An object: `value` reads the value of each key (the cursor just after the `:`).
    /// Not generic: one copy, so its coverage is that of every caller.
    /// A key written twice, or more than [`MAX_KEYS`] keys besides [`KNOWN_KEYS`], declines (serde's path, which
    /// checks keys with [`super::unique::Unique`], then words the error).
    fn object(&mut self, value: &mut dyn FnMut(&mut Self, &'a str) -> Option<()>) -> Option<()> {
        self.eat(b'{')?;
        if self.peek()? == b'}' {
            self.pos += 1;
            return Some(());
        }
        let mut seen = Seen::default();
        loop {
            let (key, bit) = self.key()?;
            seen.insert(key, bit)?;
            self.eat(b':')?;
            value(self, key)?;
            if !self.more(b'}')? {
                return Some(());
            }
        }
    }

    /// An array: `item` reads each element.
    /// Not generic: one copy, so its coverage is that of every caller.
    fn array(&mut self, item: &mut dyn FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.eat(b'[')?;
        if self.peek()? == b']' {
            self.pos += 1;
            return Some(());
        }
        loop {
            item(self)?;
            if !self.more(b']')? {
                return Some(());
            }
        }
    }

    /// `[line_start, col_start, line_end, col_end, count, file_id, expanded_file_id, kind]`.
    fn region(&mut self) -> Option<Region> {
        let [line_start, col_start, line_end, col_end, count, file_id, expanded, kind] =
            self.uints::<8>()?;
        let [line_start, col_start, line_end, col_end, file_id, expanded, kind] = narrow([
            line_start, col_start, line_end, col_end, file_id, expanded, kind,
        ])?;
        Some(Region {
            span: Span {
                line_start,
                col_start,
                line_end,
                col_end,
            },
            count,
            file_id,
            expanded_file_id: expanded,
            kind,
        })
    }

    /// `[line_start, col_start, line_end, col_end, true, false, file_id, expanded_file_id, kind]`.
    fn branch(&mut self) -> Option<Branch> {
        let [line_start, col_start, line_end, col_end, true_count, false_count, file_id, expanded, kind] =
            self.uints::<9>()?;
        let [line_start, col_start, line_end, col_end, file_id, _, _] = narrow([
            line_start, col_start, line_end, col_end, file_id, expanded, kind,
        ])?;
        Some(Branch {
            span: Span {
                line_start,
                col_start,
                line_end,
                col_end,
            },
            true_count,
            false_count,
            file_id,
        })
    }

    /// `{count, covered, …}` of a summary: both counts present, once each.
    fn counts(&mut self) -> Option<CountsJson> {
        let (mut count, mut covered) = (None, None);
        self.object(&mut |scan, key| match key {
            "count" => once(&mut count, scan.uint()?),
            "covered" => once(&mut covered, scan.uint()?),
            _ => scan.skip(1),
        })?;
        Some(CountsJson::new(count?, covered?))
    }

    fn summary(&mut self) -> Option<SummaryJson> {
        let (mut lines, mut functions, mut instantiations, mut regions, mut branches) =
            (None, None, None, None, None);
        let mut mcdc = None;
        self.object(&mut |scan, key| match key {
            "lines" => once(&mut lines, scan.counts()?),
            "functions" => once(&mut functions, scan.counts()?),
            "instantiations" => once(&mut instantiations, scan.counts()?),
            "regions" => once(&mut regions, scan.counts()?),
            "branches" => once(&mut branches, scan.counts()?),
            "mcdc" => once(&mut mcdc, scan.counts()?),
            _ => scan.skip(1),
        })?;
        Some(SummaryJson::new(
            [lines?, functions?, instantiations?, regions?],
            branches,
            mcdc,
        ))
    }
}

/// The position of the first `"` among the first 16 bytes of `body` (a known key's end): the
/// 16 bytes compared at once in a 128-bit word when there are 16.
#[inline(always)]
fn short_quote(body: &[u8]) -> Option<usize> {
    let Some(chunk) = body.first_chunk::<16>() else {
        return body.iter().position(|&b| b == b'"');
    };
    let splat = |byte: u8| u128::from_le_bytes([byte; 16]);
    // The bytes that are `"` become zero; the lowest zero byte is found exactly (a borrow out of
    // it goes only into later bytes).
    let word = u128::from_le_bytes(*chunk) ^ splat(b'"');
    let zero = word.wrapping_sub(splat(0x01)) & !word & splat(0x80);
    (zero != 0).then(|| (zero.trailing_zeros() / 8) as usize)
}

/// `values` as `u32`s, when every one is at most `u32::MAX`: checked at once (a conversion
/// checked per value cost a tenth of the lane's reading of a region).
#[inline(always)]
fn narrow<const N: usize>(values: [u64; N]) -> Option<[u32; N]> {
    let all = values.iter().fold(0, |all, value| all | value);
    // Taken only when every value fits, so none is cut short.
    let narrowed = values.map(|value| value as u32);
    (all <= u64::from(u32::MAX)).then_some(narrowed)
}

/// Most keys besides [`KNOWN_KEYS`] an object read by the lane may have (llvm-cov writes none).
const MAX_KEYS: usize = 16;

/// The keys of one object read so far, held without allocating: known keys as bits, others
/// by their text.
#[derive(Default)]
struct Seen<'a> {
    known: u32,
    others: [&'a str; MAX_KEYS],
    len: usize,
}

impl<'a> Seen<'a> {
    /// Notes `key` (`bit`: its bit among [`KNOWN_KEYS`], 0 for another key); `None` when the
    /// object had it already or has more than [`MAX_KEYS`] other keys.
    fn insert(&mut self, key: &'a str, bit: u32) -> Option<()> {
        if bit != 0 {
            let fresh = self.known & bit == 0;
            self.known |= bit;
            return fresh.then_some(());
        }
        if self
            .others
            .get(..self.len)
            .unwrap_or_default()
            .contains(&key)
        {
            return None;
        }
        *self.others.get_mut(self.len)? = key;
        self.len += 1;
        Some(())
    }
}

/// The index of `text` in [`KNOWN_KEYS`].
#[inline(always)]
fn known_key(text: &[u8]) -> Option<usize> {
    let index = match text {
        b"branches" => 0,
        b"count" => 1,
        b"covered" => 2,
        b"expansions" => 3,
        b"filename" => 4,
        b"filenames" => 5,
        b"functions" => 6,
        b"instantiations" => 7,
        b"lines" => 8,
        b"mcdc" => 9,
        b"mcdc_records" => 10,
        b"name" => 11,
        b"notcovered" => 12,
        b"percent" => 13,
        b"regions" => 14,
        b"segments" => 15,
        b"summary" => 16,
        _ => return None,
    };
    Some(index)
}

/// Sets a value that may be given once.
fn once<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    slot.replace(value).is_none().then_some(())
}

/// A function record read by the lane.
pub(super) enum Record<'a> {
    /// The whole record (its name borrowed from the input).
    Read(RawRecord<'a>),
    /// A record checked but not kept: `skip` said none of its files keeps records.
    Skipped {
        /// True when the record lists a branch.
        has_branches: bool,
        /// Its main file (`None`: every file id is expanded).
        main: Option<&'a str>,
        /// What it shows ran.
        evidence: Evidence,
    },
}

/// What the reader wants of a function record, told by its `filenames`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Want {
    /// Nothing: none of its files keeps records (the record is checked, not kept).
    Nothing,
    /// The whole record.
    Whole,
    /// The whole record but the text of its file names, which are left empty (the reader
    /// knows its file already): a copy of a long name per record spared.
    Unnamed,
}

/// A function record at the start of `bytes` and its length, when it is in the lane's subset.
///
/// `want` is asked about the record's `filenames` once they are read: when it wants nothing,
/// the rest of the record is checked without being kept (exports write `filenames` before
/// `name` and `regions`, the bulk of a record).
pub(super) fn record<'a>(
    bytes: &'a [u8],
    want: &dyn Fn(&[&str]) -> Want,
) -> Option<(Record<'a>, usize)> {
    let mut scan = Scan { bytes, pos: 0 };
    let (mut name, mut count, mut regions, mut branches, mut mcdc, mut filenames) =
        (None, None, None, None, None, None);
    let mut skipping = false;
    let mut unnamed = false;
    // The largest file id a region, expansion or branch names (checked against `filenames`).
    let mut largest: Option<u32> = None;
    // What a record not kept shows ran, and the file ids its expansion regions expand (below
    // 64 as bits, the others listed), which tell its main file.
    let mut evidence = Evidence::default();
    let (mut near, mut far) = (0u64, Vec::new());
    scan.object(&mut |scan, key| match key {
        "name" => {
            let text = scan.str()?;
            once(&mut name, (!skipping).then_some(text))
        }
        "count" => once(&mut count, scan.uint()?),
        "regions" => {
            let mut read = if skipping {
                Vec::new()
            } else {
                spare_regions()
            };
            scan.array(&mut |scan| {
                let region = scan.region()?;
                let expanded = if region.kind == 1 {
                    region.expanded_file_id
                } else {
                    0
                };
                largest = largest.max(Some(region.file_id.max(expanded)));
                if region.kind == 1 {
                    match 1u64.checked_shl(expanded) {
                        Some(bit) => near |= bit,
                        None => far.push(expanded),
                    }
                }
                if skipping {
                    evidence.region(&region);
                } else {
                    read.push(region);
                }
                Some(())
            })?;
            once(&mut regions, read)
        }
        "branches" => {
            let mut read = Vec::new();
            scan.array(&mut |scan| {
                let branch = scan.branch()?;
                largest = largest.max(Some(branch.file_id));
                read.push(branch);
                Some(())
            })?;
            once(&mut branches, read)
        }
        "mcdc_records" => {
            // `null` reads as absent in serde's path, and MC/DC decisions are read there
            // ([`super::mcdc`]): the lane takes only `[]`.
            scan.array(&mut |_| None)?;
            once(&mut mcdc, ())
        }
        "filenames" => {
            let mut read = Vec::new();
            scan.array(&mut |scan| {
                read.push(scan.str()?);
                Some(())
            })?;
            let wanted = want(&read);
            skipping = wanted == Want::Nothing;
            unnamed = wanted == Want::Unnamed;
            once(&mut filenames, read)
        }
        _ => scan.skip(1),
    })?;
    let (name, count, regions, filenames) = (name?, count?, regions?, filenames?);
    // A file id past `filenames`: declined, so that serde's path words the error.
    ids_fit(largest.into_iter(), filenames.len()).then_some(())?;
    let branches = branches.unwrap_or_default();
    let record = match name {
        Some(name) if !skipping => Record::Read(RawRecord {
            name: name.into(),
            count: Count(count),
            regions,
            branches,
            mcdc_records: mcdc.map(|()| Vec::new()),
            filenames: copied(&filenames, unnamed),
        }),
        _ => {
            // Regions read before `filenames` said the record is not kept are in `regions`.
            let mut shown = Evidence::of(count, &regions, &branches);
            shown.add(evidence);
            let main = main_id(filenames.len(), near, &mut far);
            Record::Skipped {
                has_branches: !branches.is_empty(),
                main: main.and_then(|id| filenames.get(id).copied()),
                evidence: shown,
            }
        }
    };
    Some((record, scan.pos))
}

/// A record's file names as it keeps them, in a vector whose room is reused ([`spare_filenames`]):
/// copied, or left empty when `unnamed` ([`Want::Unnamed`]).
fn copied(names: &[&str], unnamed: bool) -> Vec<String> {
    let mut kept = spare_filenames();
    let copy = |name: &&str| {
        if unnamed {
            String::new()
        } else {
            name.to_string()
        }
    };
    kept.extend(names.iter().map(copy));
    kept
}

/// A `files[]` entry (its filename and summary; the rest skipped) at the start of `bytes` and
/// its length, when it is in the lane's subset.
pub(super) fn file_entry(bytes: &[u8]) -> Option<(FileEntry, usize)> {
    let mut scan = Scan { bytes, pos: 0 };
    let (mut filename, mut summary) = (None, None);
    scan.object(&mut |scan, key| match key {
        "filename" => once(&mut filename, scan.str()?.to_string()),
        "summary" => once(&mut summary, scan.summary()?),
        _ => scan.skip(1),
    })?;
    let entry = FileEntry::new(filename?, summary?);
    Some((entry, scan.pos))
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "lane_tests.rs"]
mod tests;
