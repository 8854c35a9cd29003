//! The fast reader: an export read from a stream in chunks, its `files[]` and `functions[]`
//! elements parsed on every core.
//!
//! The document's outer layers (root, `data[]`, each export object) are walked here by hand; every
//! value in them and every array element is parsed by serde_json from the chunk in memory, so
//! nothing is accepted that serde would reject. The two big arrays are cut into pieces that are
//! parsed in parallel (rayon): a piece starts at its first *candidate* element start (`{` after
//! `,`, with the first key of the array's first element), which may be wrong (a `{` inside a
//! string, or a nested object); the pieces are then stitched in order, and a piece is taken
//! only from the element where the previous one ended. Parsing from a true element start is
//! deterministic, so a piece that started at a false candidate either meets the true sequence
//! (and is taken from there) or is parsed again from where the previous piece ended. The result
//! is the one a sequential parse gives.
//!
//! Records of files that need no detail ([`Detail`]) are checked as strictly as the others (see
//! [`RecordHead`]) but not reduced: that is most of an export, and most of the time saved.
//!
//! Anything unusual (an error, a duplicate key, `functions` before `files`, several exports in
//! one document) makes this reader give up with [`Stop::Fallback`]; the caller then reads the
//! document with the reference reader ([`super::document`]), which words errors and handles the
//! rare shapes. Only input errors ([`Stop::Io`]) are final.

use std::collections::{HashMap, HashSet};
use std::io::Read;

use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Deserializer;

use crate::report::{FileCoverage, FileData, Report, ReportKind};

use super::oracle::{check_filename, CargoMeta, FileEntry, Header};
use super::lane;
use super::record::{RawRecord, RecordHead};
use super::unique::Unique;
use super::{Detail, FunctionStats, Kept, LlvmFile, LlvmSummary};

/// Why the fast reader stopped without a report.
#[derive(Debug)]
pub(super) enum Stop {
    /// The input could not be read.
    Io(std::io::Error),
    /// The document is not a plain, valid export: read it with the reference reader.
    Fallback,
}

type Step<T> = std::result::Result<T, Stop>;

/// Sizes of the reader's work: bytes read at a time, and bytes per parallel piece.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sizes {
    /// Bytes read from the input at a time (the window grows past it for larger elements).
    pub chunk: usize,
    /// Bytes of window per parallel piece.
    pub piece: usize,
    /// Bytes left free before a chunk read ahead, for the end of the window that was not
    /// parsed yet: when it fits, it is put there and the chunk is not copied.
    pub gap: usize,
}

/// The sizes used outside tests: 16 MiB reads, 256 KiB pieces, 256 KiB before a chunk.
pub(super) const SIZES: Sizes = Sizes {
    chunk: 16 << 20,
    piece: 256 << 10,
    gap: 256 << 10,
};

/// Reads a whole export from `input` (see the module documentation).
pub(super) fn read(
    origin: &str,
    input: &mut (dyn Read + Send),
    detail: &Detail<'_>,
    sizes: Sizes,
) -> Step<Report> {
    let mut reader = Reader {
        input,
        ahead: Vec::new(),
        buf: Vec::new(),
        pos: 0,
        eof: false,
        failed: None,
        sizes,
    };
    let report = reader.document(origin, detail);
    match reader.failed.take() {
        Some(err) => Err(Stop::Io(err)),
        None => report.ok_or(Stop::Fallback),
    }
}

/// The root's values.
#[derive(Default)]
struct Root {
    kind: Option<String>,
    version: Option<String>,
    manifest_path: Option<String>,
    export: Option<Export>,
}

/// The one export of `data`.
struct Export {
    files: Vec<(String, LlvmSummary)>,
    /// Records by main file, for the files that keep detail; `None` without `functions`.
    functions: Option<HashMap<String, Vec<FunctionStats>>>,
    /// The files whose records were read without being kept.
    skipped: HashSet<String>,
    has_branch_records: bool,
}

fn assemble(
    origin: &str,
    version: String,
    manifest_path: Option<String>,
    export: Export,
) -> Report {
    let Export {
        files,
        mut functions,
        skipped,
        has_branch_records,
    } = export;
    let summary_only = functions.is_none();
    let mut has_branch_data = has_branch_records;
    let files = files
        .into_iter()
        .map(|(path, summary)| {
            has_branch_data |= summary.branches.total > 0;
            let functions = match functions.as_mut() {
                Some(_) if skipped.contains(&path) => None,
                Some(by_file) => Some(by_file.remove(&path).unwrap_or_default()),
                None => None,
            };
            let coverage = FileCoverage::Llvm(LlvmFile { summary, functions });
            FileData { path, coverage }
        })
        .collect();
    Report {
        origin: origin.to_string(),
        kind: ReportKind::LlvmJson {
            version,
            summary_only,
        },
        manifest_path,
        has_branch_data,
        files,
        warnings: Vec::new(),
    }
}

/// The input and the window of it in memory: `buf[pos..]` is not yet consumed.
struct Reader<'i> {
    input: &'i mut (dyn Read + Send),
    /// Input read ahead (while the window was being parsed), not yet in `buf`.
    ahead: Vec<u8>,
    buf: Vec<u8>,
    pos: usize,
    /// True once the input has ended (or failed).
    eof: bool,
    /// The input's read error, if any: the reader then stops as at the end.
    failed: Option<std::io::Error>,
    sizes: Sizes,
}

impl Reader<'_> {
    /// The whole document; `None` when it is not a plain, valid export.
    fn document(&mut self, origin: &str, detail: &Detail<'_>) -> Option<Report> {
        self.more();
        if self.buf.starts_with(b"\xEF\xBB\xBF") {
            self.pos = 3;
        }
        let root = self.root(detail)?;
        if self.peek().is_some() {
            return None;
        }
        let (Some(_), Some(version), Some(export)) = (root.kind, root.version, root.export) else {
            return None;
        };
        Some(assemble(origin, version, root.manifest_path, export))
    }

    /// Drops the consumed bytes and reads at least a chunk more (or as much again as the window
    /// holds, so an element larger than a chunk is read in a few steps). False when the input
    /// has ended (or failed: the error is kept for [`read`]) and nothing was added.
    fn more(&mut self) -> bool {
        let gap = self.sizes.gap;
        let unread = self.buf.len().saturating_sub(self.pos);
        let mut got = self.ahead.len().saturating_sub(gap);
        if got > 0 && unread <= gap {
            // The chunk read ahead sits after `gap` bytes: the unread bytes go just before it,
            // and the two buffers trade places.
            let start = gap - unread;
            let rest = self.buf.get(self.pos..).unwrap_or_default();
            // `ahead` holds more than `gap` bytes here, so the range is always there.
            let front = self.ahead.get_mut(start..gap).into_iter().flatten();
            front.zip(rest).for_each(|(to, from)| *to = *from);
            std::mem::swap(&mut self.buf, &mut self.ahead);
            self.pos = start;
        } else {
            self.buf.drain(..self.pos);
            self.pos = 0;
            self.buf
                .extend_from_slice(self.ahead.get(gap..).unwrap_or_default());
        }
        // The read-ahead buffer keeps its memory for the next chunk.
        self.ahead.clear();
        let want = self.sizes.chunk.max(unread);
        if got < want && !self.eof {
            let read = (&mut *self.input)
                .take((want - got) as u64)
                .read_to_end(&mut self.buf);
            match read {
                Ok(read) => {
                    self.eof = read < want - got;
                    got += read;
                }
                Err(err) => self.fail(err),
            }
        }
        got > 0
    }

    /// Keeps a read error and stops reading.
    fn fail(&mut self, err: std::io::Error) {
        self.failed = Some(err);
        self.eof = true;
    }

    /// The next byte that is not JSON white space, left unconsumed; `None` at the end.
    fn peek(&mut self) -> Option<u8> {
        loop {
            let window = self.buf.get(self.pos..).unwrap_or_default();
            let blank = window.iter().take_while(|b| is_blank(**b)).count();
            self.pos += blank;
            if let Some(&byte) = window.get(blank) {
                return Some(byte);
            }
            if !self.more() {
                return None;
            }
        }
    }

    /// Consumes the next non-blank byte when it is `wanted`.
    fn expect(&mut self, wanted: u8) -> Option<()> {
        (self.next_byte()? == wanted).then_some(())
    }

    /// Consumes the next non-blank byte.
    fn next_byte(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.pos += 1;
        Some(byte)
    }

    /// Parses one JSON value with serde, reading more input while it is incomplete (or while
    /// it ends right at the end of the window, where a number could go on).
    fn value<T: DeserializeOwned>(&mut self) -> Option<T> {
        loop {
            let window = self.buf.get(self.pos..).unwrap_or_default();
            let mut values = Deserializer::from_slice(window).into_iter::<T>();
            let parsed = values.next();
            let end = values.byte_offset();
            let nothing_ahead = self.ahead.len() <= self.sizes.gap;
            let complete = end < window.len() || (self.eof && nothing_ahead);
            match parsed {
                Some(Ok(value)) if complete => {
                    self.pos += end;
                    return Some(value);
                }
                Some(Err(err)) if !at_end(&err, window) => return None,
                _ => {}
            }
            if !self.more() {
                return None;
            }
        }
    }

    /// Reads the root object.
    fn root(&mut self, detail: &Detail<'_>) -> Option<Root> {
        let mut root = Root::default();
        let mut keys: Vec<String> = Vec::new();
        self.expect(b'{')?;
        loop {
            let key: String = self.value()?;
            new_key(&mut keys, &key)?;
            self.expect(b':')?;
            match key.as_str() {
                // Each key once ([`new_key`]): no value is replaced.
                "type" => root.kind = Some(self.value()?),
                "version" => root.version = Some(self.value()?),
                "data" => {
                    let export = self.data(detail)?;
                    root.export = Some(export);
                }
                "cargo_llvm_cov" => {
                    let meta: CargoMeta = self.value()?;
                    root.manifest_path = meta.manifest_path;
                }
                _ => {
                    self.value::<Unique>()?;
                }
            }
            let header = Header {
                kind: root.kind.clone(),
                version: root.version.clone(),
            };
            if header.problem().is_some() {
                return None;
            }
            match self.next_byte()? {
                b',' => {}
                b'}' => return Some(root),
                _ => return None,
            }
        }
    }

    /// Reads `data`: exactly one export object (other shapes go to the reference reader).
    fn data(&mut self, detail: &Detail<'_>) -> Option<Export> {
        self.expect(b'[')?;
        let export = self.export(detail)?;
        self.expect(b']')?;
        Some(export)
    }

    /// Reads one export object: `files` must come before `functions`.
    fn export(&mut self, detail: &Detail<'_>) -> Option<Export> {
        self.expect(b'{')?;
        let mut files: Option<Vec<(String, LlvmSummary)>> = None;
        let mut functions = None;
        let mut keys: Vec<String> = Vec::new();
        loop {
            let key: String = self.value()?;
            new_key(&mut keys, &key)?;
            self.expect(b':')?;
            match key.as_str() {
                "files" => {
                    let mut read = Vec::new();
                    self.array(&Files, &mut |entry| {
                        read.push(entry?);
                        Some(())
                    })?;
                    files = Some(read);
                }
                "functions" => {
                    let records = Records::new(files.as_ref()?, detail);
                    let mut read = KeptRecords::default();
                    self.array(&records, &mut |record| {
                        read.add(record);
                        Some(())
                    })?;
                    functions = Some((records.skipped, read));
                }
                _ => {
                    self.value::<Unique>()?;
                }
            }
            match self.next_byte()? {
                b',' => {}
                b'}' => return Some(collect(files?, functions)),
                _ => return None,
            }
        }
    }
}

/// Notes an object key of the root or an export; `None` (the reference reader words it) when
/// the object had it already.
fn new_key(keys: &mut Vec<String>, key: &str) -> Option<()> {
    if keys.iter().any(|k| k == key) {
        return None;
    }
    keys.push(key.to_string());
    Some(())
}

fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\n' | b'\r' | b'\t')
}

/// The kept records by main file, gathered in order as they are read.
#[derive(Default)]
struct KeptRecords {
    by_file: HashMap<String, Vec<FunctionStats>>,
    has_branches: bool,
}

impl KeptRecords {
    fn add(&mut self, record: RecordOut) {
        self.has_branches |= record.has_branches;
        if let Some((file, stats)) = record.kept {
            self.by_file.entry(file).or_default().push(stats);
        }
    }
}

/// The export from its files and records.
fn collect(
    files: Vec<(String, LlvmSummary)>,
    functions: Option<(HashSet<String>, KeptRecords)>,
) -> Export {
    let mut has_branch_records = false;
    let (skipped, functions) = match functions {
        Some((skipped, records)) => {
            has_branch_records = records.has_branches;
            (skipped, Some(records.by_file))
        }
        None => (HashSet::new(), None),
    };
    Export {
        files,
        functions,
        skipped,
        has_branch_records,
    }
}

/// An array whose elements are parsed in parallel.
trait Element: Sync {
    /// What one element gives.
    type Out: Send;

    /// Parses the element at the start of `bytes`: its value and length in bytes, `Eof` when
    /// `bytes` ends inside it, `Bad` when it is not a valid element.
    fn parse(&self, bytes: &[u8]) -> Parsed<Self::Out>;
}

/// The result of parsing one element.
enum Parsed<T> {
    Done(T, usize),
    Eof,
    Bad,
}

/// Parses one value of type `T` at the start of `bytes`, after checking that no object in it
/// holds a key twice ([`Unique`]: serde's readers keep the last value and say nothing).
fn parse_value<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Parsed<T> {
    let mut unique = Deserializer::from_slice(bytes).into_iter::<Unique>();
    match unique.next() {
        Some(Ok(Unique)) => {}
        Some(Err(err)) if !at_end(&err, bytes) => return Parsed::Bad,
        // Nothing but blank space, or an error that more input may undo.
        _ => return Parsed::Eof,
    }
    // A whole value, valid JSON: whatever stops `T` is in the value.
    let mut values = Deserializer::from_slice(bytes).into_iter::<T>();
    match values.next() {
        Some(Ok(value)) => Parsed::Done(value, values.byte_offset()),
        _ => Parsed::Bad,
    }
}

/// True when a parse error of `bytes` may be due only to their end: an end-of-input error, or
/// an error at the last byte or after it (a number cut short reads as a malformed number). More
/// input then decides.
fn at_end(err: &serde_json::Error, bytes: &[u8]) -> bool {
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

/// `files[]`: each entry's filename and summary, checked.
struct Files;

impl Element for Files {
    type Out = Option<(String, LlvmSummary)>;

    fn parse(&self, bytes: &[u8]) -> Parsed<Self::Out> {
        let parsed = match lane::file_entry(bytes) {
            Some((entry, len)) => Parsed::Done(entry, len),
            None => parse_value::<FileEntry>(bytes),
        };
        match parsed {
            Parsed::Done(entry, len) => {
                let checked = check_filename(&entry.filename)
                    .and_then(|()| entry.summary.into_summary())
                    .map(|summary| (entry.filename, summary))
                    .ok();
                Parsed::Done(checked, len)
            }
            Parsed::Eof => Parsed::Eof,
            Parsed::Bad => Parsed::Bad,
        }
    }
}

/// `functions[]`: records reduced for the files that keep detail.
struct Records {
    /// Every file of `files[]`, with what it keeps of its records.
    keep: HashMap<String, Kept>,
    /// The files whose records are not kept.
    skipped: HashSet<String>,
    /// True when every file keeps its records (no need to read a record's head first).
    all: bool,
}

impl Records {
    fn new(files: &[(String, LlvmSummary)], detail: &Detail<'_>) -> Records {
        let keep: HashMap<String, Kept> = files
            .iter()
            .map(|(name, summary)| (name.clone(), detail.kept(name, summary)))
            .collect();
        let skipped = keep
            .iter()
            .filter(|(_, kept)| **kept == Kept::Nothing)
            .map(|(name, _)| name.clone())
            .collect();
        let all = keep.values().all(|kept| *kept == Kept::Everything);
        Records { keep, skipped, all }
    }

    /// Reads and reduces a whole record, kept when its main file is in `files[]`.
    fn reduce(&self, bytes: &[u8]) -> Parsed<RecordOut> {
        match parse_value::<RawRecord>(bytes) {
            // A file id past `filenames`: the reference reader words the error.
            Parsed::Done(record, _) if !record.file_ids_fit() => Parsed::Bad,
            Parsed::Done(record, len) => Parsed::Done(self.reduced(record), len),
            Parsed::Eof => Parsed::Eof,
            Parsed::Bad => Parsed::Bad,
        }
    }

    /// True when the file keeps no record (or is not in `files[]`).
    fn keeps_nothing(&self, name: &str) -> bool {
        self.keep
            .get(name)
            .is_none_or(|kept| *kept == Kept::Nothing)
    }

    /// A record's contribution: reduced as its main file asks (not at all for a file that
    /// keeps nothing, or one that is not in `files[]`).
    fn reduced(&self, record: RawRecord) -> RecordOut {
        let has_branches = record.has_branches();
        let kept = match record.main_file_name().and_then(|main| self.keep.get(main)) {
            Some(&kept) if kept != Kept::Nothing => record.into_stats(kept),
            _ => None,
        };
        RecordOut { has_branches, kept }
    }
}

/// One record's contribution.
struct RecordOut {
    has_branches: bool,
    /// The main file and the reduced record, when kept.
    kept: Option<(String, FunctionStats)>,
}

impl Element for Records {
    type Out = RecordOut;

    fn parse(&self, bytes: &[u8]) -> Parsed<RecordOut> {
        let skip =
            |names: &[String]| !self.all && names.iter().all(|name| self.keeps_nothing(name));
        match lane::record(bytes, &skip) {
            Some((lane::Record::Read(record), len)) => {
                return Parsed::Done(self.reduced(record), len)
            }
            Some((lane::Record::Skipped { has_branches }, len)) => {
                let out = RecordOut {
                    has_branches,
                    kept: None,
                };
                return Parsed::Done(out, len);
            }
            None => {}
        }
        if self.all {
            return self.reduce(bytes);
        }
        let (head, len) = match parse_value::<RecordHead<'_>>(bytes) {
            Parsed::Done(head, _) if !head.file_ids_fit() => return Parsed::Bad,
            Parsed::Done(head, len) => (head, len),
            Parsed::Eof => return Parsed::Eof,
            Parsed::Bad => return Parsed::Bad,
        };
        let wanted = head
            .main_file()
            .and_then(|main| self.keep.get(main))
            .is_some_and(|kept| *kept != Kept::Nothing);
        if !wanted {
            let out = RecordOut {
                has_branches: head.has_branches(),
                kept: None,
            };
            return Parsed::Done(out, len);
        }
        // Read again, whole: the head took the same checks, so this reads the same element.
        self.reduce(bytes)
    }
}

/// How a run of elements ended.
enum End {
    /// The next element starts at or after the run's limit, at this offset.
    Open(usize),
    /// The array closed; the offset is just after its `]`.
    Closed(usize),
    /// The window ends inside the element that starts at this offset.
    Short(usize),
    /// Not a valid array.
    Bad,
}

/// Elements parsed one after the other from a start offset.
struct Run<T> {
    /// Each element's start offset and value.
    items: Vec<(usize, T)>,
    end: End,
}

/// Parses elements from `start` while they start before `limit` (offsets into `window`).
fn run<E: Element>(element: &E, window: &[u8], start: usize, limit: usize) -> Run<E::Out> {
    let mut items = Vec::new();
    let mut at = start;
    let end = loop {
        if at >= limit {
            break End::Open(at);
        }
        let bytes = window.get(at..).unwrap_or_default();
        let (value, len) = match element.parse(bytes) {
            Parsed::Done(value, len) => (value, len),
            Parsed::Eof => break End::Short(at),
            Parsed::Bad => break End::Bad,
        };
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
            Some(_) => break End::Bad,
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

impl Reader<'_> {
    /// Reads an array of elements, parsing pieces of each window in parallel, and gives them
    /// to `sink` in order. The elements of one window go to `sink` while the next window is
    /// parsed (beside the read-ahead), so that no core waits for the sink.
    fn array<E: Element>(
        &mut self,
        element: &E,
        sink: &mut (dyn FnMut(E::Out) -> Option<()> + Send),
    ) -> Option<()> {
        self.expect(b'[')?;
        if self.peek()? == b']' {
            self.pos += 1;
            return Some(());
        }
        // The elements parsed but not yet given to `sink`: those of the previous window.
        let mut pending: Vec<Vec<(usize, E::Out)>> = Vec::new();
        let mut give = |runs: Vec<Vec<(usize, E::Out)>>| {
            runs.into_iter()
                .flatten()
                .try_for_each(|(_, value)| sink(value))
        };
        loop {
            let window = self.buf.get(self.pos..).unwrap_or_default();
            // The next chunk is read while this window is parsed, unless one is read already or
            // the window is one piece (a small document: no thread is woken for it).
            let alone = self.eof || !self.ahead.is_empty() || window.len() <= self.sizes.piece;
            let (input, sizes, ahead) = (&mut *self.input, self.sizes, &mut self.ahead);
            let piece = self.sizes.piece;
            let parse = || {
                let mut out = Vec::new();
                let end = stitch(element, window, piece, &mut out);
                (end, out)
            };
            let previous = std::mem::take(&mut pending);
            let ((end, out), (ahead, given)) = if alone {
                let given = give(previous);
                (parse(), (None, given))
            } else {
                rayon::join(parse, || {
                    let ahead = read_ahead(input, sizes, ahead);
                    (Some(ahead), give(previous))
                })
            };
            given?;
            pending = out;
            if self.next_window(end, ahead)? {
                return give(pending);
            }
        }
    }

    /// After a window of an array: takes the read-ahead, then `Some(true)` when the array has
    /// closed, `Some(false)` when the next window is ready, `None` when the array is not valid or
    /// the input ends inside it. (Not generic: one copy whatever the element.)
    fn next_window(&mut self, end: End, ahead: Option<std::io::Result<bool>>) -> Option<bool> {
        match ahead {
            Some(Ok(eof)) => self.eof = eof,
            Some(Err(err)) => self.fail(err),
            None => {}
        }
        match end {
            End::Closed(after) => {
                self.pos += after;
                return Some(true);
            }
            End::Open(next) | End::Short(next) => self.pos += next,
            End::Bad => return None,
        }
        self.more().then_some(false)
    }
}

/// Reads up to a chunk from `input` into `ahead` (empty), after `sizes.gap` bytes left free,
/// and says whether the input has now ended.
fn read_ahead(
    input: &mut (dyn Read + Send),
    sizes: Sizes,
    ahead: &mut Vec<u8>,
) -> std::io::Result<bool> {
    ahead.resize(sizes.gap, 0);
    // Room for the whole chunk (and the end-of-input probe) at once: no growing and copying.
    ahead.reserve(sizes.chunk + 64);
    let read = input.take(sizes.chunk as u64).read_to_end(ahead)?;
    Ok(read < sizes.chunk)
}

/// Parses the elements of `window` (which starts at an element) in pieces of `piece` bytes on
/// every core, appends them to `out` in order (a run of elements per piece, each with its start
/// offset: not copied into one vector), and says where the array, or the window, ended.
fn stitch<E: Element>(
    element: &E,
    window: &[u8],
    piece: usize,
    out: &mut Vec<Vec<(usize, E::Out)>>,
) -> End {
    let key = first_key(window);
    let limits: Vec<(usize, usize)> = (0..window.len())
        .step_by(piece.max(1))
        .map(|start| (start, (start + piece).min(window.len())))
        .collect();
    let piece_run = |(index, &(start, limit)): (usize, &(usize, usize))| {
        let first = if index == 0 {
            Some(0)
        } else {
            candidate(window, start, limit, key)
        };
        match first {
            Some(first) => run(element, window, first, limit),
            None => Run {
                items: Vec::new(),
                end: End::Open(limit),
            },
        }
    };
    // One piece is parsed here: waking the pool for it costs more than it saves.
    let runs: Vec<Run<E::Out>> = if limits.len() > 1 {
        limits.par_iter().enumerate().map(piece_run).collect()
    } else {
        limits.iter().enumerate().map(piece_run).collect()
    };
    let mut next = 0;
    for (run_here, &(_, limit)) in runs.into_iter().zip(&limits) {
        if next >= limit {
            // A re-parse already went past this piece.
            continue;
        }
        let taken = match run_here.items.iter().position(|(at, _)| *at == next) {
            Some(from) => {
                let mut items = run_here.items;
                items.drain(..from);
                Run {
                    items,
                    end: run_here.end,
                }
            }
            // The piece started at a false candidate, or after the true start: parse again.
            None => run(element, window, next, limit),
        };
        out.push(taken.items);
        match taken.end {
            End::Open(at) => next = at,
            end => return end,
        }
    }
    End::Open(next)
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    /// A comma-separated list of `{"k":N}` objects, as a test element.
    struct Numbers;

    #[derive(Deserialize)]
    struct Number {
        k: u64,
    }

    impl Element for Numbers {
        type Out = u64;

        fn parse(&self, bytes: &[u8]) -> Parsed<u64> {
            match parse_value::<Number>(bytes) {
                Parsed::Done(n, len) => Parsed::Done(n.k, len),
                Parsed::Eof => Parsed::Eof,
                Parsed::Bad => Parsed::Bad,
            }
        }
    }

    fn values(runs: Vec<Vec<(usize, u64)>>) -> Vec<u64> {
        runs.into_iter().flatten().map(|(_, value)| value).collect()
    }

    fn stitched(window: &str, piece: usize) -> (Vec<u64>, String) {
        let mut out = Vec::new();
        let end = match stitch(&Numbers, window.as_bytes(), piece, &mut out) {
            End::Open(at) => format!("open {at}"),
            End::Closed(at) => format!("closed {at}"),
            End::Short(at) => format!("short {at}"),
            End::Bad => "bad".to_string(),
        };
        (values(out), end)
    }

    #[test]
    fn every_piece_size_gives_the_sequential_result() {
        let window = r#"{"k":1}, {"k":22} ,{"k":333},{"k":4}] tail"#;
        for piece in 1..window.len() + 2 {
            assert_eq!(
                stitched(window, piece),
                (vec![1, 22, 333, 4], "closed 37".to_string()),
                "piece {piece}"
            );
        }
    }

    #[test]
    fn false_candidates_inside_strings_are_parsed_again() {
        // `,{"k"` inside a string of another key looks like an element start.
        #[derive(Deserialize)]
        struct Tagged {
            k: u64,
            #[serde(default, rename = "s")]
            _s: Option<String>,
        }
        struct TaggedNumbers;
        impl Element for TaggedNumbers {
            type Out = u64;
            fn parse(&self, bytes: &[u8]) -> Parsed<u64> {
                match parse_value::<Tagged>(bytes) {
                    Parsed::Done(n, len) => Parsed::Done(n.k, len),
                    Parsed::Eof => Parsed::Eof,
                    Parsed::Bad => Parsed::Bad,
                }
            }
        }
        let window = r#"{"k":1,"s":"x,{\"k\":9}, ,{"},{"k":2,"s":",{\"k\":8},{\"k\":7}"},{"k":3}]"#;
        for piece in 1..window.len() + 2 {
            let mut out = Vec::new();
            let end = stitch(&TaggedNumbers, window.as_bytes(), piece, &mut out);
            assert_eq!(values(out), vec![1, 2, 3], "piece {piece}");
            assert!(
                matches!(end, End::Closed(at) if at == window.len()),
                "piece {piece}"
            );
        }
    }

    #[test]
    fn a_window_ending_inside_an_element_is_short_there() {
        for piece in [1, 3, 8, 100] {
            assert_eq!(
                stitched(r#"{"k":1},{"k":2},{"k":"#, piece),
                (vec![1, 2], "short 16".to_string())
            );
            // The separator after the last element is not in the window yet.
            assert_eq!(
                stitched(r#"{"k":1},{"k":2} "#, piece),
                (vec![1], "short 8".to_string())
            );
            assert_eq!(
                stitched(r#"{"k":1},{"k":2}, "#, piece),
                (vec![1, 2], "open 17".to_string())
            );
        }
    }

    #[test]
    fn bad_elements_and_separators_are_bad() {
        for piece in [1, 4, 100] {
            assert_eq!(stitched(r#"{"k":1},{"k":"x"}]"#, piece).1, "bad");
            assert_eq!(stitched(r#"{"k":1};{"k":2}]"#, piece).1, "bad");
            assert_eq!(stitched(r#"{"k":1},] ..."#, piece).1, "bad");
            // At the end of the window, the same may be a cut: more input decides.
            assert_eq!(stitched(r#"{"k":1},]"#, piece).1, "short 8");
            assert_eq!(stitched(r#"{"k":1},{"k":1."#, piece).1, "short 8");
            assert_eq!(stitched("{\"k\":1},\n{\"k\":1.", piece).1, "short 9");
            assert_eq!(stitched("{\"k\":1},\n{\"k\":1.x\n", piece).1, "bad");
        }
    }

    #[test]
    fn candidates_need_a_comma_before_and_the_key_after() {
        let w = br#"[{"a":1}, {"b":2},{ "a" :3},{"ab":4}"#;
        assert_eq!(candidate(w, 0, w.len(), b"a"), Some(18));
        assert_eq!(candidate(w, 19, w.len(), b"a"), None);
        assert_eq!(candidate(w, 0, w.len(), b"b"), Some(10));
        assert_eq!(first_key(br#" {"name":1}"#), b"name");
        assert_eq!(first_key(br#"{"na\"me":1}"#), b"");
        assert_eq!(first_key(b"{}"), b"");
        assert_eq!(first_key(br#"{"open"#), b"");
    }

    fn fixtures() -> Vec<std::path::PathBuf> {
        let mut paths = Vec::new();
        for dir in ["tests/fixtures/real", "tests/fixtures/llvm"] {
            for entry in std::fs::read_dir(dir).expect("fixture folder") {
                let path = entry.expect("entry").path();
                if path.extension().is_some_and(|e| e == "json") {
                    paths.push(path);
                }
            }
        }
        paths.sort();
        assert!(paths.len() >= 8, "{paths:?}");
        paths
    }

    #[test]
    fn every_fixture_reads_as_the_reference_reads_it_at_any_size() {
        for path in fixtures() {
            let bytes = std::fs::read(&path).expect("fixture");
            let reference = super::super::oracle::read("f.json", &bytes).expect("reference");
            let sizes = [
                (1 << 20, 1 << 16, 0),
                (1000, 300, 5000),
                (64, 7, 30),
                (1, 1, 2),
            ];
            for (chunk, piece, gap) in sizes {
                let sizes = Sizes { chunk, piece, gap };
                let mut input = bytes.as_slice();
                let fast = read("f.json", &mut input, &Detail::All, sizes)
                    .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
                assert_eq!(
                    format!("{fast:?}"),
                    format!("{reference:?}"),
                    "{} at {chunk}/{piece}",
                    path.display()
                );
            }
        }
    }

    const FULL: &str = r#"{"lines":{"count":2,"covered":2},"functions":{"count":1,"covered":1},"instantiations":{"count":1,"covered":1},"regions":{"count":1,"covered":1}}"#;
    const PART: &str = r#"{"lines":{"count":2,"covered":1},"functions":{"count":1,"covered":1},"instantiations":{"count":1,"covered":1},"regions":{"count":2,"covered":1},"branches":{"count":0,"covered":0}}"#;

    fn entry(name: &str, summary: &str) -> String {
        format!(r#"{{"filename":{name},"summary":{summary},"segments":[[1,1,1,true,true,false]]}}"#)
    }

    fn rec(name: &str, file: &str) -> String {
        format!(
            r#"{{"branches":[[2,5,2,9,1,0,0,0,4]],"count":1,"filenames":[{file}],"name":{name},"regions":[[1,1,3,2,1,0,0,0],[2,5,2,9,0,0,0,0]]}}"#
        )
    }

    fn doc(export: &str) -> String {
        format!(
            r#"{{"data":[{export}],"type":"llvm.coverage.json.export","version":"2.0.1","cargo_llvm_cov":{{"manifest_path":"/m/Cargo.toml"}},"extra":[1,{{"x":null}}]}}"#
        )
    }

    fn standard() -> String {
        // The last record expands four macro files into b.rs (its main file is the last one).
        let expanding = r#"{"count":0,"filenames":["h1","h2","h3","h4","b.rs"],"name":"fe","regions":[[1,1,1,9,0,0,0,0],[1,1,1,9,0,4,0,1],[1,1,1,9,0,4,1,1],[1,1,1,9,0,4,2,1],[1,1,1,9,0,4,3,1],[2,1,2,5,0,4,0,0]]}"#;
        // A record of a.rs that expands a macro of b.rs: read (b.rs keeps records), then not
        // kept unless a.rs keeps its own.
        let into_a = r#"{"count":1,"filenames":["a.rs","b.rs"],"name":"fx","regions":[[5,1,9,2,1,0,0,0],[6,1,6,9,1,0,1,1],[1,1,1,5,1,1,0,0]]}"#;
        format!(
            r#"{{"files":[{},{}],"functions":[{},{},{},{expanding},{into_a}],"totals":{{}}}}"#,
            entry(r#""a.rs""#, FULL),
            entry(r#""b.rs""#, PART),
            rec(r#""fa""#, r#""a.rs""#),
            rec(r#""fb""#, r#""b.rs""#),
            rec(r#""fc""#, r#""c.rs""#),
        )
    }

    /// The files of a report with how many records each kept (`-` for none), or why it stopped.
    fn outcome(text: &str, detail: &Detail<'_>, sizes: Sizes) -> String {
        let mut input = text.as_bytes();
        match read("t.json", &mut input, detail, sizes) {
            Ok(report) => report
                .files
                .iter()
                .map(|f| match &f.coverage {
                    FileCoverage::Llvm(LlvmFile {
                        functions: Some(records),
                        ..
                    }) => format!("{}:{}", f.path, records.len()),
                    _ => format!("{}:-", f.path),
                })
                .collect::<Vec<_>>()
                .join(" "),
            Err(Stop::Fallback) => "fallback".to_string(),
            Err(Stop::Io(e)) => format!("io {e}"),
        }
    }

    const NONE_MARKED: Detail<'static> = Detail::Needed(&|_| false);
    const SMALL: Sizes = Sizes {
        chunk: 7,
        piece: 5,
        gap: 3,
    };

    #[test]
    fn a_file_id_past_the_filenames_is_left_to_the_reference_reader() {
        let text = doc(&standard());
        for (from, to) in [
            // A region of a.rs's record (a.rs keeps nothing unless marked).
            ("[1,1,1,5,1,1,0,0]", "[1,1,1,5,1,7,0,0]"),
            // An expansion of b.rs's record (b.rs keeps its misses).
            ("[1,1,1,9,0,4,3,1]", "[1,1,1,9,0,4,9,1]"),
            // A branch.
            (
                r#""name":"fx","#,
                r#""name":"fx","branches":[[5,1,5,2,1,0,2,0,4]],"#,
            ),
        ] {
            let bad = text.replace(from, to);
            assert_ne!(bad, text, "{from}");
            for detail in [&Detail::All, &NONE_MARKED] {
                for sizes in [SIZES, SMALL] {
                    assert_eq!(outcome(&bad, detail, sizes), "fallback", "{to}");
                }
            }
            let e = super::super::oracle::read("t.json", bad.as_bytes())
                .map(|_| ())
                .expect_err("refused");
            assert!(
                e.message().contains("names a file id past the record's"),
                "{e}"
            );
        }
    }

    #[test]
    fn records_are_kept_as_their_file_needs() {
        for sizes in [SIZES, SMALL] {
            let text = doc(&standard());
            assert_eq!(outcome(&text, &Detail::All, sizes), "a.rs:2 b.rs:2");
            assert_eq!(outcome(&text, &NONE_MARKED, sizes), "a.rs:- b.rs:2");
            let marked = |name: &str| name == "a.rs";
            assert_eq!(
                outcome(&text, &Detail::Needed(&marked), sizes),
                "a.rs:2 b.rs:2"
            );
            let bom = format!("\u{FEFF}{text}\n");
            assert_eq!(outcome(&bom, &NONE_MARKED, sizes), "a.rs:- b.rs:2");
        }
        let mut input = doc(&standard()).into_bytes();
        let report = read("t.json", &mut input.as_slice(), &NONE_MARKED, SMALL).expect("read");
        assert_eq!(report.manifest_path.as_deref(), Some("/m/Cargo.toml"));
        assert!(matches!(
            report.kind,
            ReportKind::LlvmJson { summary_only: false, ref version } if version == "2.0.1"
        ));
        // Kept for its misses only: a record that ran keeps no name.
        let Some(FileCoverage::Llvm(b)) = report.files.get(1).map(|f| &f.coverage) else {
            panic!("b.rs");
        };
        let records = b.functions.as_deref().unwrap_or_default();
        let names: Vec<&str> = records.iter().map(|r| &*r.name).collect();
        assert_eq!(names, ["", "fe"], "a record that never ran keeps its name");
        input.clear();
    }

    #[test]
    fn elements_the_lane_declines_are_read_by_serde() {
        // An escaped name or filename, and `mcdc_records: null`, are not in the lane.
        let export = format!(
            r#"{{"files":[{},{}],"functions":[{},{},{}]}}"#,
            entry(r#""a\u002ers""#, FULL),
            entry(r#""b.rs""#, PART),
            rec(r#""f\u0061""#, r#""a.rs""#),
            rec(r#""f\u0062""#, r#""b.rs""#)
                .replace(r#""branches":"#, r#""mcdc_records":null,"b":"#),
            rec(r#""f\u0063""#, r#""c.rs""#),
        );
        for sizes in [SIZES, SMALL] {
            assert_eq!(outcome(&doc(&export), &Detail::All, sizes), "a.rs:1 b.rs:1");
            assert_eq!(outcome(&doc(&export), &NONE_MARKED, sizes), "a.rs:- b.rs:1");
        }
        // A summary-only export, and empty arrays.
        let summary_only = format!(r#"{{"files":[{}]}}"#, entry(r#""a.rs""#, FULL));
        assert_eq!(outcome(&doc(&summary_only), &NONE_MARKED, SIZES), "a.rs:-");
        assert_eq!(
            outcome(&doc(r#"{"files":[],"functions":[]}"#), &NONE_MARKED, SMALL),
            ""
        );
    }

    #[test]
    fn anything_unusual_falls_back() {
        let good = doc(&standard());
        let type_first = good.replacen(r#"{"data""#, r#"{"type":"x","data""#, 1);
        let cases = [
            format!("{good} x"),
            good.replace(r#","version":"2.0.1""#, ""),
            good.replace(r#""data":"#, r#""other":"#),
            good.replace(r#""type":"llvm.coverage.json.export""#, r#""type":"other""#),
            type_first,
            good.replace(r#","type":"#, r#" "type":"#),
            good.replace(r#""type":"llvm.coverage.json.export""#, r#""type":7"#),
            good.replace(
                r#""version":"2.0.1""#,
                r#""version":"2.0.1","version":"2.0.1""#,
            ),
            good.replace(
                r#""type":"llvm.coverage.json.export""#,
                r#""type":"llvm.coverage.json.export","type":"llvm.coverage.json.export""#,
            ),
            good.replace(r#""extra":"#, r#""data":[{"files":[]}],"extra":"#),
            good.replace(r#""cargo_llvm_cov":{"#, r#""cargo_llvm_cov":5,"x":{"#),
            good.replacen(r#""data":"#, r#""data" "#, 1),
            good.replace(r#""version":"2.0.1""#, r#""version":5"#),
            good.replace(r#""extra":[1,"#, r#""extra":[1,}"#),
            r#"{"type":"llvm.coverage.json.export""#.to_string(),
            good.replacen(r#""data":[{"files""#, r#""data":{"x":[{"files""#, 1),
            good.replacen(r#""data":[{"files""#, r#""data":[5,{"files""#, 1),
            good.replacen(r#""data":[{"files""#, r#""data":[{5:1,"files""#, 1),
            good.replacen(r#""files":["#, r#""files" ["#, 1),
            good.replace(r#","totals":{}"#, r#","functions":[],"totals":{}"#),
            good.replace(r#","totals":{}"#, r#","totals":{,}"#),
            r#"{"data":[{"files":[]"#.to_string(),
            r#"{"data":[{"files":["#.to_string(),
            doc(r#"{"totals":{}}"#),
            good.replace("\"data\":[{", "\"data\":[{\"files\":[]},{"),
            good.replacen(r#""files":"#, r#""functions":[],"files":"#, 1),
            good.replacen(r#""files":"#, r#""files":[],"files":"#, 1),
            good.replace(r#","totals":{}"#, r#" "totals":{}"#),
            good.replace(r#""files":"#, r#""fils":"#),
            good.replace(r#""count":2,"covered":1"#, r#""count":1,"covered":2"#),
            good.replace(r#""filename":"a.rs""#, r#""filename":"""#),
            good.replace(r#""count":1,"filenames""#, r#""count":-1,"filenames""#),
            good.replace(
                r#""filenames":["c.rs"]"#,
                r#""filenames":["c.rs"],"name":"x""#,
            ),
            good.replace(r#"[2,5,2,9,0,0,0,0]]"#, r#"[2,5,2,9,0,0,0,0],]"#),
            good.replace(r#"[2,5,2,9,0,0,0,0]]"#, r#"[2,5,2,9,"x",0,0,0]]"#),
            good.replace(r#""files":["#, r#""files":{"#),
            good.get(..good.len() / 2).unwrap_or_default().to_string(),
            "[]".to_string(),
            String::new(),
            " \n".to_string(),
        ];
        for (index, text) in cases.iter().enumerate() {
            let one = Sizes {
                chunk: 1,
                piece: 1,
                gap: 0,
            };
            for sizes in [SIZES, SMALL, one] {
                assert_eq!(
                    outcome(text, &NONE_MARKED, sizes),
                    "fallback",
                    "case {index}"
                );
                assert_eq!(
                    outcome(text, &Detail::All, sizes),
                    "fallback",
                    "case {index}"
                );
            }
        }
    }

    #[test]
    fn values_cut_by_the_window_are_read_whole() {
        // A number at the end of a window may go on: the reader reads more before taking it.
        let text = doc(&standard()).replace(r#""extra":[1,"#, r#""n":1234567,"extra":[1,"#);
        for chunk in 1..40 {
            let sizes = Sizes {
                chunk,
                piece: 3,
                gap: 4,
            };
            assert_eq!(
                outcome(&text, &NONE_MARKED, sizes),
                "a.rs:- b.rs:2",
                "{chunk}"
            );
        }
    }

    #[test]
    fn duplicate_keys_anywhere_fall_back_and_are_errors() {
        let good = doc(&standard());
        let entry_a = entry(r#""a.rs""#, FULL);
        let cases = [
            (
                good.replace(r#""extra":"#, r#""extra":1,"extra":"#),
                "extra",
                1,
                0,
            ),
            (
                good.replace(
                    r#""manifest_path":"/m/Cargo.toml""#,
                    r#""manifest_path":"/m/Cargo.toml","manifest_path":"x""#,
                ),
                "manifest_path",
                1,
                0,
            ),
            (
                good.replace(r#","extra""#, r#","cargo_llvm_cov":{},"extra""#),
                "cargo_llvm_cov",
                1,
                0,
            ),
            (
                good.replace(r#""totals":{}"#, r#""totals":{},"totals":{}"#),
                "totals",
                1,
                0,
            ),
            (
                good.replace(r#""totals":{}"#, r#""totals":{"a":[{"b":1,"b":2}]}"#),
                "b",
                1,
                0,
            ),
            (
                good.replacen(r#""files":"#, r#""files":[],"files":"#, 1),
                "files",
                1,
                0,
            ),
            (
                good.replacen(r#""data":"#, r#""data":[],"data":"#, 1),
                "data",
                1,
                0,
            ),
            (
                good.replace(
                    &entry_a,
                    &entry_a.replace(r#""segments""#, r#""x":{},"x":{},"segments""#),
                ),
                "x",
                1,
                0,
            ),
            (
                good.replace(r#""name":"fa""#, r#""name":"fa","more":{"k":[1],"k":[2]}"#),
                "k",
                1,
                0,
            ),
        ];
        for (text, key, line, _) in &cases {
            for sizes in [SIZES, SMALL] {
                assert_eq!(outcome(text, &Detail::All, sizes), "fallback", "{key}");
                assert_eq!(outcome(text, &NONE_MARKED, sizes), "fallback", "{key}");
            }
            let e = super::super::oracle::read("t.json", text.as_bytes()).expect_err(key);
            let want = format!("t.json:{line}:");
            assert!(e.message().starts_with(&want), "{}", e.message());
            assert!(
                e.message()
                    .contains(&format!("duplicate key `{key}` in one object")),
                "{}",
                e.message()
            );
        }
        // Many distinct keys: not the lane's, but a valid export all the same.
        let keys: String = (0..17).map(|i| format!(r#""k{i}":{i},"#)).collect();
        let many = good.replace(r#"{"branches""#, &format!("{{{keys}\"branches\""));
        assert_eq!(
            outcome(&many, &Detail::All, SIZES),
            outcome(&good, &Detail::All, SIZES)
        );
    }

    #[test]
    fn read_errors_stop_the_reader() {
        struct Failing;
        impl Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk on fire"))
            }
        }
        match read("t.json", &mut Failing, &Detail::All, SIZES) {
            Err(Stop::Io(e)) => assert_eq!(e.to_string(), "disk on fire"),
            other => panic!("{other:?}"),
        }
        /// Fails after its first chunk: the error comes from a read ahead.
        struct Once(Vec<u8>);
        impl Read for Once {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if self.0.is_empty() {
                    return Err(std::io::Error::other("gone"));
                }
                let n = buf.len().min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0.drain(..n);
                Ok(n)
            }
        }
        let text = doc(&standard());
        let head = text.get(..60).unwrap_or_default().as_bytes().to_vec();
        let mut input = Once(head);
        let sizes = Sizes {
            chunk: 60,
            piece: 8,
            gap: 16,
        };
        assert!(matches!(
            read("t.json", &mut input, &Detail::All, sizes),
            Err(Stop::Io(_))
        ));
    }

    #[test]
    fn errors_at_the_end_of_the_bytes_may_be_cuts() {
        let err =
            |text: &str| serde_json::from_str::<serde_json::Value>(text).expect_err("invalid");
        assert!(at_end(&err("[1,"), b"[1,"));
        assert!(at_end(&err("[1,]"), b"[1,]"));
        assert!(!at_end(&err("[1,] "), b"[1,] "));
        assert!(at_end(&err("[\n1,\n]"), b"[\n1,\n]"));
        assert!(!at_end(&err("[\n1,\n] "), b"[\n1,\n] "));
        // A position past the bytes given (cannot happen for the bytes parsed): not a cut.
        assert!(!at_end(&err("[\n\n\n1,\n]"), b"[1,]"));
    }
}
