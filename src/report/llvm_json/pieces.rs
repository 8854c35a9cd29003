//! The two big arrays of an export, `files[]` and `functions[]`, cut into pieces that are parsed
//! in parallel (rayon).
//!
//! A piece starts at its first *candidate* element start (`{` after `,`, with the first key of
//! the array's first element), which may be wrong (a `{` inside a string, or a nested object);
//! the pieces are then stitched in order, and a piece is taken only from the element where the
//! previous one ended. Parsing from a true element start is deterministic, so a piece that
//! started at a false candidate either meets the true sequence (and is taken from there) or is
//! parsed again from where the previous piece ended. The result is the one a sequential parse
//! gives.
//!
//! Each element goes to the hand-written [`super::lane`] first and to serde when the lane
//! declines it; an element serde rejects carries serde's error ([`Reason`]) for the reader to
//! word.

use std::collections::HashSet;

use hashbrown::HashMap;
use rayon::prelude::*;
use serde::Deserialize;
use serde_json::Deserializer;

use super::export::{check_filename, Kind};
use super::groups::{MainFile, RecordOut};
use super::lane;
use super::record::{RawRecord, RecordHead, FILE_ID_PAST_FILENAMES};
use super::unique::Unique;
use super::wire::FileEntry;
use super::{Detail, Kept, LlvmSummary};

/// An array whose elements are parsed in parallel.
pub(super) trait Element: Sync {
    /// What one element gives.
    type Out: Send;

    /// Parses the element at the start of `bytes`: its value and length in bytes, `Eof` when
    /// `bytes` ends inside it (with `last`, `bytes` hold the rest of the input: the element is
    /// then read as far as it goes), `Bad` when it is not a valid element.
    fn parse(&self, bytes: &[u8], last: bool) -> Parsed<Self::Out>;
}

/// The result of parsing one element.
pub(super) enum Parsed<T> {
    Done(T, usize),
    Eof,
    Bad(Reason),
}

/// Why an element is not valid.
#[derive(Debug)]
pub(super) enum Reason {
    /// serde_json's error, located in the element's bytes.
    Serde(serde_json::Error),
    /// A check of the whole element (of this many bytes) failed with this message.
    Custom(String, usize),
}

/// Parses one value of type `T` at the start of `bytes`, checking that no object in it holds a
/// key twice ([`Unique`]: serde's readers keep the last value and say nothing).
fn parse_value<'de, T: Deserialize<'de>>(bytes: &'de [u8], last: bool) -> Parsed<T> {
    let unique = Deserializer::from_slice(bytes).into_iter::<Unique>().next();
    // Nothing but blank space, or an error that more input may undo.
    let cut = match &unique {
        Some(Err(err)) => at_end(err, bytes),
        Some(Ok(Unique)) => false,
        None => true,
    };
    if cut && !last {
        return Parsed::Eof;
    }
    // A key twice; other errors (syntax, serde's depth limit) are `T`'s to find or to let pass.
    if let Some(Err(err)) = unique.filter(|u| u.as_ref().is_err_and(|e| Kind::of(e) == Kind::Data))
    {
        return Parsed::Bad(Reason::Serde(err));
    }
    let mut values = Deserializer::from_slice(bytes).into_iter::<T>();
    match values.next() {
        Some(Ok(value)) => Parsed::Done(value, values.byte_offset()),
        // The check above may have stopped early, at serde's depth limit in a value `T` skips
        // (without a limit): `T`'s own error then says whether more input may undo it.
        Some(Err(err)) if !last && at_end(&err, bytes) => Parsed::Eof,
        Some(Err(err)) => Parsed::Bad(Reason::Serde(err)),
        None => Parsed::Eof,
    }
}

/// True when a parse error of `bytes` may be due only to their end: an end-of-input error, or
/// an error at the last byte or after it (a number cut short reads as a malformed number). More
/// input then decides.
pub(super) fn at_end(err: &serde_json::Error, bytes: &[u8]) -> bool {
    if err.is_eof() {
        return true;
    }
    // serde_json locates an error of a slice at `line` and `column` (1-based, in bytes).
    let line_start = match err.line() {
        0 | 1 => Some(0),
        line => memchr::memchr_iter(b'\n', bytes)
            .nth(line - 2)
            .map(|newline| newline + 1),
    };
    line_start.is_some_and(|start| start + err.column() >= bytes.len())
}

/// JSON white space.
pub(super) fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\n' | b'\r' | b'\t')
}

/// `files[]`: each entry's filename and summary, checked.
pub(super) struct Files;

impl Element for Files {
    type Out = (String, LlvmSummary);

    fn parse(&self, bytes: &[u8], last: bool) -> Parsed<Self::Out> {
        let parsed = match lane::file_entry(bytes) {
            Some((entry, len)) => Parsed::Done(entry, len),
            None => parse_value::<FileEntry>(bytes, last),
        };
        match parsed {
            Parsed::Done(entry, len) => {
                let checked = check_filename(&entry.filename)
                    .and_then(|()| entry.summary.into_summary())
                    .map(|summary| (entry.filename, summary));
                match checked {
                    Ok(file) => Parsed::Done(file, len),
                    Err(message) => Parsed::Bad(Reason::Custom(message, len)),
                }
            }
            Parsed::Eof => Parsed::Eof,
            Parsed::Bad(reason) => Parsed::Bad(reason),
        }
    }
}

/// `functions[]`: records reduced for the files that keep detail.
pub(super) struct Records {
    /// Every file of `files[]`, with its index there (the last of a name written twice) and
    /// what it keeps of its records; `None` when `functions` comes before `files` (every
    /// record is then kept whole; see [`Records::skipped`]).
    keep: Option<HashMap<String, (u32, Kept)>>,
    /// True when every file keeps its records (no need to read a record's head first).
    all: bool,
}

impl Records {
    /// What the records of `files` keep (`None`: not known yet).
    pub(super) fn new(files: Option<&[(String, LlvmSummary)]>, detail: &Detail<'_>) -> Records {
        let keep: Option<HashMap<String, (u32, Kept)>> = files.map(|files| {
            (0..u32::MAX)
                .zip(files)
                .map(|(at, (name, summary))| (name.clone(), (at, detail.kept(name, summary))))
                .collect()
        });
        let all = keep
            .as_ref()
            .is_none_or(|keep| keep.values().all(|(_, kept)| *kept == Kept::Everything));
        Records { keep, all }
    }

    /// What the records of the file `name` keep (nothing for a file not in `files[]`), and
    /// its index in `files[]` when known.
    fn find(&self, name: &str) -> (Option<u32>, Kept) {
        match &self.keep {
            Some(keep) => keep
                .get(name)
                .map_or((None, Kept::Nothing), |&(at, kept)| (Some(at), kept)),
            None => (None, Kept::Everything),
        }
    }

    /// What the records of the file `name` keep: nothing for a file not in `files[]`.
    fn kept(&self, name: &str) -> Kept {
        self.find(name).1
    }

    /// The files of `files` whose records are not kept (asking `detail` only when the records
    /// were read before the files were known).
    pub(super) fn skipped(
        &self,
        files: &[(String, LlvmSummary)],
        detail: &Detail<'_>,
    ) -> HashSet<String> {
        let skip = |(name, summary): &&(String, LlvmSummary)| match &self.keep {
            Some(_) => self.kept(name) == Kept::Nothing,
            None => detail.kept(name, summary) == Kept::Nothing,
        };
        files
            .iter()
            .filter(skip)
            .map(|(name, _)| name.clone())
            .collect()
    }

    /// Reads and reduces a whole record.
    fn reduce(&self, bytes: &[u8], last: bool) -> Parsed<RecordOut> {
        match parse_value::<RawRecord>(bytes, last) {
            Parsed::Done(record, len) if !record.file_ids_fit() => {
                Parsed::Bad(Reason::Custom(FILE_ID_PAST_FILENAMES.to_string(), len))
            }
            Parsed::Done(record, len) => Parsed::Done(self.reduced(record, None), len),
            Parsed::Eof => Parsed::Eof,
            Parsed::Bad(reason) => Parsed::Bad(reason),
        }
    }

    /// A record's contribution: reduced as its main file asks (not at all for a file that
    /// keeps nothing, or one that is not in `files[]`). `known`: what [`Records::find`] said
    /// of the record's one file, when it was asked already.
    fn reduced(&self, record: RawRecord, known: Option<(Option<u32>, Kept)>) -> RecordOut {
        let has_branches = record.has_branches();
        let evidence = record.evidence();
        let main = record.main_file_name();
        let (kept, skipped_at) = match main.map(|main| known.unwrap_or_else(|| self.find(main))) {
            Some((at, kept)) if kept != Kept::Nothing => {
                let stats = record.into_stats(kept).map(|(file, stats)| {
                    let main = at.map_or(MainFile::Named(file), MainFile::At);
                    (main, stats, kept)
                });
                (stats, None)
            }
            found => (None, found.and_then(|(at, _)| at)),
        };
        RecordOut {
            has_branches,
            evidence,
            skipped_at,
            kept,
        }
    }
}

impl Element for Records {
    type Out = RecordOut;

    fn parse(&self, bytes: &[u8], last: bool) -> Parsed<RecordOut> {
        // A record of one file (the common case) has it for its main file: its look-up, made
        // for `want`, is kept for the record (names are long: hashing them twice showed), and
        // the record names its file by its index in `files[]` (`keep` is there when `all` is
        // not set), so its file name is not copied.
        let known = std::cell::Cell::new(None);
        let want = |names: &[&str]| match names {
            [name] if !self.all => {
                let (at, kept) = self.find(name);
                known.set(Some((at, kept)));
                if kept == Kept::Nothing {
                    lane::Want::Nothing
                } else {
                    lane::Want::Unnamed
                }
            }
            _ if !self.all && names.iter().all(|name| self.kept(name) == Kept::Nothing) => {
                lane::Want::Nothing
            }
            _ => lane::Want::Whole,
        };
        match lane::record(bytes, &want) {
            Some((lane::Record::Read(record), len)) => {
                return Parsed::Done(self.reduced(record, known.get()), len)
            }
            Some((
                lane::Record::Skipped {
                    has_branches,
                    main,
                    evidence,
                },
                len,
            )) => {
                let out = RecordOut {
                    has_branches,
                    evidence,
                    skipped_at: main
                        .and_then(|main| known.get().unwrap_or_else(|| self.find(main)).0),
                    kept: None,
                };
                return Parsed::Done(out, len);
            }
            None => {}
        }
        if self.all {
            return self.reduce(bytes, last);
        }
        let (head, len) = match parse_value::<RecordHead<'_>>(bytes, last) {
            Parsed::Done(head, len) if head.file_ids_fit() => (head, len),
            Parsed::Eof => return Parsed::Eof,
            // Not a valid record: read whole, so that the record's own error is given.
            _ => return self.reduce(bytes, last),
        };
        let wanted = head
            .main_file()
            .is_some_and(|main| self.kept(main) != Kept::Nothing);
        if !wanted {
            let out = RecordOut {
                has_branches: head.has_branches(),
                evidence: head.evidence(),
                skipped_at: head.main_file().and_then(|main| self.find(main).0),
                kept: None,
            };
            return Parsed::Done(out, len);
        }
        // Read again, whole: the head took the same checks, so this reads the same element.
        self.reduce(bytes, last)
    }
}

/// How a run of elements ended.
pub(super) enum End {
    /// The next element starts at or after the run's limit, at this offset.
    Open(usize),
    /// The array closed; the offset is just after its `]`.
    Closed(usize),
    /// The window ends inside the element that starts at this offset.
    Short(usize),
    /// The element at this offset is not valid.
    Bad(usize, Reason),
    /// The byte at this offset, after an element, is neither `,` nor `]`.
    Separator(usize),
}

/// Elements parsed in a run, each with its start offset.
type Items<T> = Vec<(usize, T)>;

/// A piece of a window to parse (its start and limit) and the vector to parse it into.
type Piece<T> = ((usize, usize), Items<T>);

/// Elements parsed one after the other from a start offset.
struct Run<T> {
    /// Each element's start offset and value.
    items: Vec<(usize, T)>,
    end: End,
}

/// Most elements a run makes room for at once ([`expected`]).
const EXPECTED_MOST: usize = 1 << 10;

/// The number of elements a run of `bytes` bytes is expected to hold when its first element
/// took `first` bytes (at most [`EXPECTED_MOST`]): made room for at once, since growing a
/// vector of records (some 150 bytes each) step by step copied each of them several times.
fn expected(bytes: usize, first: usize) -> usize {
    (bytes / first.max(1) + 1).min(EXPECTED_MOST)
}

/// Parses elements from `start` while they start before `limit` (offsets into `window`), into
/// `items` (empty; its room is used: see [`stitch`]).
fn run<E: Element>(
    element: &E,
    window: &[u8],
    (start, limit): (usize, usize),
    mut items: Vec<(usize, E::Out)>,
) -> Run<E::Out> {
    let mut at = start;
    let end = loop {
        if at >= limit {
            break End::Open(at);
        }
        let bytes = window.get(at..).unwrap_or_default();
        let (value, len) = match element.parse(bytes, false) {
            Parsed::Done(value, len) => (value, len),
            Parsed::Eof => break End::Short(at),
            Parsed::Bad(reason) => break End::Bad(at, reason),
        };
        if items.capacity() == 0 {
            items.reserve(expected(limit - at, len));
        }
        let after = at + len;
        let rest = window.get(after..).unwrap_or_default();
        let blank = rest.iter().take_while(|b| is_blank(**b)).count();
        match rest.get(blank) {
            Some(b',') => {
                items.push((at, value));
                let next = after + blank + 1;
                let rest = window.get(next..).unwrap_or_default();
                at = next + rest.iter().take_while(|b| is_blank(**b)).count();
            }
            Some(b']') => {
                items.push((at, value));
                break End::Closed(after + blank + 1);
            }
            // The separator is not in the window yet: parse this element again later.
            None => break End::Short(at),
            Some(_) => break End::Separator(after + blank),
        }
    };
    Run { items, end }
}

/// The first offset in `from..to` where an element may start: a `{` whose previous non-blank
/// byte is `,`, followed by `"` + `key` + `"` (blank space allowed around). `None` when there
/// is none.
fn candidate(window: &[u8], from: usize, to: usize, key: &[u8]) -> Option<usize> {
    let mut at = from;
    while at < to {
        let offset = memchr::memchr(b'{', window.get(at..to).unwrap_or_default())?;
        let brace = at + offset;
        at = brace + 1;
        let before = window.get(..brace).unwrap_or_default();
        let after_comma = before
            .iter()
            .rev()
            .find(|b| !is_blank(**b))
            .is_some_and(|b| *b == b',');
        let rest = window.get(at..).unwrap_or_default();
        let blank = rest.iter().take_while(|b| is_blank(**b)).count();
        let rest = rest.get(blank..).unwrap_or_default();
        if after_comma
            && rest.first() == Some(&b'"')
            && rest.get(1..).is_some_and(|r| r.starts_with(key))
            && rest.get(1 + key.len()) == Some(&b'"')
        {
            return Some(brace);
        }
    }
    None
}

/// The first key of the object at the start of `window` (the bytes between the first two
/// quotes), or an empty key when there is none.
fn first_key(window: &[u8]) -> &[u8] {
    let Some(open) = memchr::memchr(b'"', window) else {
        return &[];
    };
    let rest = window.get(open + 1..).unwrap_or_default();
    match memchr::memchr2(b'"', b'\\', rest) {
        Some(close) if rest.get(close) == Some(&b'"') => rest.get(..close).unwrap_or_default(),
        _ => &[],
    }
}

/// Parses the elements of `window` (which starts at an element) in pieces of `piece` bytes on
/// every core, appends them to `out` in order (a run of elements per piece, each with its start
/// offset: not copied into one vector), and says where the array, or the window, ended.
///
/// Each run is parsed into a vector of `rooms` (empty vectors whose room is kept from earlier
/// windows, [`recycle`]), or a new one when `rooms` runs out; the vectors of runs not taken go
/// back to `rooms`. A run's vector holds about a thousand elements (a record's is some 170
/// bytes): allocated afresh for each piece and freed by the sink's thread, they came back from
/// the allocator as new pages that the kernel zeroed first.
pub(super) fn stitch<E: Element>(
    element: &E,
    window: &[u8],
    piece: usize,
    out: &mut Vec<Vec<(usize, E::Out)>>,
    rooms: &mut Vec<Vec<(usize, E::Out)>>,
) -> End {
    let key = first_key(window);
    let pieces: Vec<Piece<E::Out>> = (0..window.len())
        .step_by(piece.max(1))
        .map(|start| {
            let limits = (start, (start + piece).min(window.len()));
            (limits, rooms.pop().unwrap_or_default())
        })
        .collect();
    let limits: Vec<usize> = pieces.iter().map(|((_, limit), _)| *limit).collect();
    let piece_run = |(index, ((start, limit), items)): (usize, Piece<E::Out>)| {
        let first = if index == 0 {
            Some(0)
        } else {
            candidate(window, start, limit, key)
        };
        match first {
            Some(first) => run(element, window, (first, limit), items),
            None => Run {
                items,
                end: End::Open(limit),
            },
        }
    };
    // One piece is parsed here: waking the pool for it costs more than it saves.
    let runs: Vec<Run<E::Out>> = if pieces.len() > 1 {
        pieces.into_par_iter().enumerate().map(piece_run).collect()
    } else {
        pieces.into_iter().enumerate().map(piece_run).collect()
    };
    let mut next = 0;
    for (run_here, &limit) in runs.into_iter().zip(&limits) {
        let mut items = run_here.items;
        if next >= limit {
            // A re-parse already went past this piece.
            items.clear();
            rooms.push(items);
            continue;
        }
        let taken = match items.iter().position(|(at, _)| *at == next) {
            Some(from) => {
                items.drain(..from);
                Run {
                    items,
                    end: run_here.end,
                }
            }
            // The piece started at a false candidate, or after the true start: parse again.
            None => {
                items.clear();
                run(element, window, (next, limit), items)
            }
        };
        out.push(taken.items);
        match taken.end {
            End::Open(at) => next = at,
            end => return end,
        }
    }
    End::Open(next)
}

/// Gives each element of `runs` to `sink` in order, and keeps the emptied vectors, with their
/// room, in `rooms` for [`stitch`] to parse into again.
pub(super) fn recycle<T>(
    runs: Vec<Vec<(usize, T)>>,
    sink: &mut dyn FnMut(T),
    rooms: &mut Vec<Vec<(usize, T)>>,
) {
    for mut run in runs {
        run.drain(..).for_each(|(_, value)| sink(value));
        rooms.push(run);
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "pieces_tests.rs"]
mod tests;
