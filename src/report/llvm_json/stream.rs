//! The reader: an export read from a stream in chunks, in one pass, its `files[]` and
//! `functions[]` elements parsed on every core ([`super::pieces`]).
//!
//! The document's outer layers (root, `data[]`, each export object) are walked here by hand, as
//! serde_json's own `MapAccess` and `SeqAccess` walk them (same checks, same messages); every
//! value in them and every array element is parsed by serde_json from the chunk in memory, so
//! nothing is accepted that serde would reject. Records of files that need no detail
//! ([`Detail`]) are checked as strictly as the others but not reduced.
//!
//! Errors are worded here, in the same pass, with the line and column of the whole document
//! (kept as the window moves on): a pipe or `<(…)` gets the same message as a file. The first
//! problem is the error, except that a rejected `type` or `version` is the clearer message
//! wherever it is written: after a problem that leaves the JSON readable, the rest of the root
//! is read for them (values skipped).

use std::io::Read;

use serde::de::{DeserializeOwned, Deserializer as _, IgnoredAny, Visitor};
use serde_json::Deserializer;

use crate::error::{Error, Result};
use crate::report::Report;

use super::export::{self, Export, Header, Kind, Recount};
use super::groups::KeptRecords;
use super::pieces::{self, at_end, End, Files, Parsed, Reason, Records};
use super::unique::{duplicate, Unique};
use super::wire::CargoMeta;
use super::Detail;

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

/// The sizes used outside tests: 4 MiB reads, 256 KiB pieces, 256 KiB before a chunk.
pub(super) const SIZES: Sizes = Sizes {
    chunk: 4 << 20,
    piece: 256 << 10,
    gap: 256 << 10,
};

/// Reads a whole export from `input` (see the module documentation), with the files whose
/// records must be kept to count them ([`Recount`]).
///
/// Errors: a read error of `input`; the first problem of the document, located.
pub(super) fn read(
    origin: &str,
    input: Input<'_>,
    detail: &Detail<'_>,
    sizes: Sizes,
) -> Result<(Report, Recount)> {
    let mut reader = Reader::new(input, sizes);
    let root = reader.document(detail);
    if let Some(err) = reader.failed.take() {
        return Err(Error::new(format!(
            "{origin}: cannot read the report: {err}"
        )));
    }
    match root {
        Ok(root) => export::finish(origin, root.header, root.manifest_path, root.exports),
        Err(fault) => Err(Error::at(
            origin,
            fault.line,
            Some(fault.column),
            fault.message,
        )),
    }
}

/// The input of a reader.
pub(super) enum Input<'i> {
    /// An input that another thread may read: the next chunk is read while a window is parsed.
    Shared(&'i mut (dyn Read + Send)),
    /// An input for this thread only (standard input's lock): read between windows.
    Local(&'i mut dyn Read),
}

impl Read for Input<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Input::Shared(input) => input.read(buf),
            Input::Local(input) => input.read(buf),
        }
    }
}

/// A problem of the document, located as serde_json locates it (line from 1, column in bytes).
#[derive(Debug)]
pub(super) struct Fault {
    line: u64,
    column: u64,
    message: String,
}

/// How the walk may go on after a fault, to look for a rejected `type` or `version` further on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Resume {
    /// It may not (the JSON is broken there, or the fault is final).
    Stop,
    /// Skip the value at the cursor, then go on.
    Skip,
    /// Go on from the cursor (after a value, before its separator).
    Here,
}

/// A fault on its way out of the walk.
#[derive(Debug)]
struct Fail {
    fault: Fault,
    resume: Resume,
}

type Walk<T> = std::result::Result<T, Fail>;

fn stop(fault: Fault) -> Fail {
    Fail {
        fault,
        resume: Resume::Stop,
    }
}

fn skip(fault: Fault) -> Fail {
    Fail {
        fault,
        resume: Resume::Skip,
    }
}

/// The root's values.
#[derive(Default)]
struct Root {
    header: Header,
    manifest_path: Option<String>,
    exports: Option<Vec<Export>>,
}

/// The input and the window of it in memory: `buf[pos..]` is not yet consumed.
pub(super) struct Reader<'i> {
    input: Input<'i>,
    /// Input read ahead (while the window was being parsed), not yet in `buf`.
    ahead: Vec<u8>,
    /// Memory of a window or read-ahead used before, read into as it is by the next read-ahead
    /// (its bytes are junk: what it holds is only there so that it is not zeroed again).
    spare: Vec<u8>,
    buf: Vec<u8>,
    pos: usize,
    /// True once the input has ended (or failed).
    eof: bool,
    /// The input's read error, if any: the reader then stops as at the end.
    failed: Option<std::io::Error>,
    sizes: Sizes,
    /// An offset in `buf` (at most `pos`) whose line and column are known: `line`, `column`.
    mark: usize,
    line: u64,
    column: u64,
}

/// A visitor that takes nothing: parsing with it words serde_json's error for a value that is
/// not the `expecting` shape.
struct Expect(&'static str);

impl<'de> Visitor<'de> for Expect {
    type Value = std::convert::Infallible;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl<'i> Reader<'i> {
    /// A reader at the start of `input`, which it reads `sizes.chunk` bytes at a time.
    pub(super) fn new(input: Input<'i>, sizes: Sizes) -> Self {
        Reader {
            input,
            ahead: Vec::new(),
            spare: Vec::new(),
            buf: Vec::new(),
            pos: 0,
            eof: false,
            failed: None,
            sizes,
            mark: 0,
            line: 1,
            column: 0,
        }
    }

    /// The whole document.
    fn document(&mut self, detail: &Detail<'_>) -> std::result::Result<Root, Fault> {
        self.more();
        if self.buf.starts_with(b"\xEF\xBB\xBF") {
            // Positions are those of the document after its byte-order mark.
            self.pos = 3;
            self.mark = 3;
        }
        let mut root = Root::default();
        if let Err(fail) = self.root(&mut root, detail) {
            return Err(self.rest_of_root(root.header, fail));
        }
        match self.peek() {
            Some(_) => Err(self.peek_fault(Kind::Syntax, "trailing characters")),
            None => Ok(root),
        }
    }

    /// Drops the consumed bytes and reads at least a chunk more (or as much again as the window
    /// holds, so an element larger than a chunk is read in a few steps). False when the input
    /// has ended (or failed: the error is kept for [`read`]) and nothing was added.
    pub(super) fn more(&mut self) -> bool {
        self.settle();
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
        self.mark = self.pos;
        // The read-ahead buffer keeps its memory, initialised, for the next chunk.
        self.spare = std::mem::take(&mut self.ahead);
        let want = self.sizes.chunk.max(unread);
        if got < want && !self.eof {
            let read = (&mut self.input)
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

    /// Moves the mark to the cursor.
    fn settle(&mut self) {
        (self.line, self.column) = self.position(self.pos);
        self.mark = self.pos;
    }

    /// The line and column of `offset` in `buf` (at or after the mark), as serde_json counts
    /// them: the column is the number of bytes between the line's start and the offset.
    fn position(&self, offset: usize) -> (u64, u64) {
        let seen = self.buf.get(self.mark..offset).unwrap_or_default();
        match memchr::memrchr(b'\n', seen) {
            Some(last) => (
                self.line + memchr::memchr_iter(b'\n', seen).count() as u64,
                (seen.len() - last - 1) as u64,
            ),
            None => (self.line, self.column + seen.len() as u64),
        }
    }

    /// A fault with a parser's message at `offset`.
    fn fault_at(&self, offset: usize, kind: Kind, message: &str) -> Fault {
        let (line, column) = self.position(offset);
        Fault {
            line,
            column,
            message: export::word(kind, message),
        }
    }

    /// A fault at the byte after the cursor (serde_json's `peek_error`), or at the end.
    fn peek_fault(&self, kind: Kind, message: &str) -> Fault {
        self.fault_at((self.pos + 1).min(self.buf.len()), kind, message)
    }

    /// The fault for serde_json's `err` from parsing the bytes at `start`.
    fn serde_fault(&self, start: usize, err: &serde_json::Error) -> Fault {
        let (line, column) = self.position(start);
        let (line, column) = match err.line() {
            0 | 1 => (line, column + err.column() as u64),
            more => (line + more as u64 - 1, err.column() as u64),
        };
        Fault {
            line,
            column,
            message: export::word(Kind::of(err), &export::bare(err)),
        }
    }

    /// The next byte that is not JSON white space, left unconsumed; `None` at the end.
    pub(super) fn peek(&mut self) -> Option<u8> {
        loop {
            let window = self.buf.get(self.pos..).unwrap_or_default();
            let blank = window.iter().take_while(|b| pieces::is_blank(**b)).count();
            self.pos += blank;
            if let Some(&byte) = window.get(blank) {
                return Some(byte);
            }
            if !self.more() {
                return None;
            }
        }
    }

    /// Parses one JSON value with serde at the cursor, reading more input while it is
    /// incomplete (or while it ends right at the end of the window, where a number could go
    /// on): the value and its length, the cursor left before it.
    fn parse<T: DeserializeOwned>(&mut self) -> std::result::Result<(T, usize), Fault> {
        loop {
            let window = self.buf.get(self.pos..).unwrap_or_default();
            let mut values = Deserializer::from_slice(window).into_iter::<T>();
            let parsed = values.next();
            let end = values.byte_offset();
            let done = self.eof && self.ahead.len() <= self.sizes.gap;
            match parsed {
                Some(Ok(value)) if done || end < window.len() => return Ok((value, end)),
                Some(Err(err)) if done || !at_end(&err, window) => {
                    return Err(self.serde_fault(self.pos, &err));
                }
                None if done => {
                    let end = self.buf.len();
                    return Err(self.fault_at(end, Kind::Eof, "EOF while parsing a value"));
                }
                _ => {}
            }
            self.more();
        }
    }

    /// One JSON value, consumed ([`Reader::parse`]).
    fn value<T: DeserializeOwned>(&mut self) -> std::result::Result<T, Fault> {
        let (value, len) = self.parse()?;
        self.pos += len;
        Ok(value)
    }

    /// A value under a key the reader does not use: any JSON, no key twice in one object
    /// ([`Unique`]; serde's depth limit does not apply to a skipped value, as it does not to
    /// serde's `IgnoredAny`).
    fn unknown(&mut self) -> std::result::Result<(), Fault> {
        let (IgnoredAny, len) = self.parse()?;
        let bytes = self.buf.get(self.pos..self.pos + len).unwrap_or_default();
        let twice = serde_json::from_slice::<Unique>(bytes)
            .err()
            .filter(|err| Kind::of(err) == Kind::Data);
        if let Some(err) = twice {
            return Err(self.serde_fault(self.pos, &err));
        }
        self.pos += len;
        Ok(())
    }

    /// Consumes `opener` (`{` or `[`), or words serde_json's error for the value there, which
    /// is not the `expecting` shape.
    fn open(&mut self, opener: u8, expecting: &'static str) -> std::result::Result<(), Fault> {
        if self.peek() == Some(opener) {
            self.pos += 1;
            return Ok(());
        }
        loop {
            let window = self.buf.get(self.pos..).unwrap_or_default();
            let mut de = Deserializer::from_slice(window);
            let result = if opener == b'{' {
                de.deserialize_map(Expect(expecting))
            } else {
                de.deserialize_seq(Expect(expecting))
            };
            let Err(err) = result;
            let done = self.eof && self.ahead.len() <= self.sizes.gap;
            if done || !at_end(&err, window) {
                return Err(self.serde_fault(self.pos, &err));
            }
            self.more();
        }
    }

    /// serde_json's `has_next_key` (`object`) or `has_next_element`: true when an entry follows
    /// (the cursor at it), false when the container closed (its closer consumed).
    fn next_entry(&mut self, first: bool, object: bool) -> std::result::Result<bool, Fault> {
        let (close, eof, expected) = if object {
            (b'}', "EOF while parsing an object", "expected `,` or `}`")
        } else {
            (b']', "EOF while parsing a list", "expected `,` or `]`")
        };
        let Some(byte) = self.peek() else {
            return Err(self.peek_fault(Kind::Eof, eof));
        };
        if byte == close {
            self.pos += 1;
            return Ok(false);
        }
        if !first {
            if byte != b',' {
                return Err(self.peek_fault(Kind::Syntax, expected));
            }
            self.pos += 1;
        }
        match self.peek() {
            None => Err(self.peek_fault(Kind::Eof, "EOF while parsing a value")),
            Some(byte) if byte == close => Err(self.peek_fault(Kind::Syntax, "trailing comma")),
            Some(b'"') => Ok(true),
            Some(_) if object => Err(self.peek_fault(Kind::Syntax, "key must be a string")),
            Some(_) => Ok(true),
        }
    }

    /// An object's key and its `:`; a key the object had already is a fault (located after
    /// the key, where serde_json's `Unique` check stops).
    fn key(&mut self, keys: &mut Vec<String>) -> Walk<String> {
        let key: String = self.value().map_err(stop)?;
        if keys.contains(&key) {
            self.peek();
            let fault = self.fault_at(self.pos, Kind::Data, &duplicate(&key));
            return Err(match self.colon() {
                Ok(()) => skip(fault),
                Err(_) => stop(fault),
            });
        }
        self.colon().map_err(stop)?;
        keys.push(key.clone());
        Ok(key)
    }

    /// serde_json's `parse_object_colon`.
    fn colon(&mut self) -> std::result::Result<(), Fault> {
        match self.peek() {
            Some(b':') => {
                self.pos += 1;
                Ok(())
            }
            Some(_) => Err(self.peek_fault(Kind::Syntax, "expected `:`")),
            None => Err(self.peek_fault(Kind::Eof, "EOF while parsing an object")),
        }
    }

    /// Reads the root object.
    fn root(&mut self, root: &mut Root, detail: &Detail<'_>) -> Walk<()> {
        self.open(b'{', "an llvm-cov JSON export object")
            .map_err(stop)?;
        let mut keys = Vec::new();
        let mut first = true;
        while self.next_entry(first, true).map_err(stop)? {
            first = false;
            match self.key(&mut keys)?.as_str() {
                "type" => root.header.kind = Some(self.value().map_err(stop)?),
                "version" => root.header.version = Some(self.value().map_err(stop)?),
                "data" => root.exports = Some(self.data(detail)?),
                "cargo_llvm_cov" => {
                    let meta: CargoMeta = self.value().map_err(skip)?;
                    root.manifest_path = meta.manifest_path;
                }
                _ => self.unknown().map_err(skip)?,
            }
            if let Some(problem) = root.header.problem() {
                return Err(stop(self.header_fault(problem)));
            }
        }
        Ok(())
    }

    /// A rejected `type` or `version`, located after its value where serde_json's `end_map`
    /// leaves the cursor (past the root's `}` when it follows).
    fn header_fault(&mut self, problem: String) -> Fault {
        let offset = match self.peek() {
            Some(b'}') => self.pos + 1,
            _ => self.pos,
        };
        let (line, column) = self.position(offset);
        Fault {
            line,
            column,
            message: problem,
        }
    }

    /// After a fault in the root: the rest of the root is read for a rejected `type` or
    /// `version` (other values skipped), which is then the error; else the fault is.
    fn rest_of_root(&mut self, mut header: Header, fail: Fail) -> Fault {
        let Fail { fault, resume } = fail;
        let readable = match resume {
            Resume::Stop => false,
            Resume::Skip => self.value::<IgnoredAny>().is_ok(),
            Resume::Here => true,
        };
        if !readable {
            return fault;
        }
        while let Ok(true) = self.next_entry(false, true) {
            let Ok(key) = self.value::<String>() else {
                break;
            };
            let read = self.colon().and_then(|()| match key.as_str() {
                "type" => self.value().map(|kind| header.kind = Some(kind)),
                "version" => self.value().map(|version| header.version = Some(version)),
                _ => self.value::<IgnoredAny>().map(drop),
            });
            if read.is_err() {
                break;
            }
            if let Some(problem) = header.problem() {
                return self.header_fault(problem);
            }
        }
        fault
    }

    /// After a fault inside an array or object: the rest of it is skipped when the JSON allows,
    /// so the walk can go on after it ([`Reader::rest_of_root`]).
    fn close(&mut self, fail: Fail, object: bool) -> Fail {
        let Fail { fault, resume } = fail;
        let mut readable = match resume {
            Resume::Stop => false,
            Resume::Skip => self.value::<IgnoredAny>().is_ok(),
            Resume::Here => true,
        };
        while readable {
            match self.next_entry(false, object) {
                Ok(true) => {}
                Ok(false) => break,
                Err(_) => {
                    readable = false;
                    break;
                }
            }
            let keyed = !object || (self.value::<String>().is_ok() && self.colon().is_ok());
            readable = keyed && self.value::<IgnoredAny>().is_ok();
        }
        Fail {
            fault,
            resume: if readable { Resume::Here } else { Resume::Stop },
        }
    }

    /// Reads `data`: an array of export objects.
    fn data(&mut self, detail: &Detail<'_>) -> Walk<Vec<Export>> {
        self.open(b'[', "`data`: an array of export objects")
            .map_err(skip)?;
        let mut exports = Vec::new();
        let mut first = true;
        while self.next_entry(first, false).map_err(stop)? {
            first = false;
            match self.export(detail) {
                Ok(export) => exports.push(export),
                Err(fail) => return Err(self.close(fail, false)),
            }
        }
        Ok(exports)
    }

    /// Reads one export object.
    fn export(&mut self, detail: &Detail<'_>) -> Walk<Export> {
        self.open(b'{', "an export object {files, functions, totals}")
            .map_err(skip)?;
        let mut files = None;
        let mut functions = None;
        if let Err(fail) = self.export_entries(detail, &mut files, &mut functions) {
            return Err(self.close(fail, true));
        }
        let Some(files) = files else {
            // After the export's `}`, where serde_json's `end_map` leaves the cursor.
            let fault = self.fault_at(self.pos, Kind::Data, "missing field `files`");
            return Err(Fail {
                fault,
                resume: Resume::Here,
            });
        };
        let Some((records, kept)) = functions else {
            return Ok(Export {
                files,
                ..Export::default()
            });
        };
        let name_of = |at: u32| {
            let file = files.get(at as usize);
            file.map(|(name, _)| name.clone()).unwrap_or_default()
        };
        let parts = kept.into_parts(&name_of);
        Ok(Export {
            skipped: records.skipped(&files, detail),
            files,
            functions: Some(parts.by_file),
            has_branch_records: parts.has_branches,
            evidence: parts.evidence,
            named: parts.named,
        })
    }

    /// The keys of an export object.
    fn export_entries(
        &mut self,
        detail: &Detail<'_>,
        files: &mut Option<Vec<(String, super::LlvmSummary)>>,
        functions: &mut Option<(Records, KeptRecords)>,
    ) -> Walk<()> {
        let mut keys = Vec::new();
        let mut first = true;
        while self.next_entry(first, true).map_err(stop)? {
            first = false;
            match self.key(&mut keys)?.as_str() {
                "files" => {
                    let mut read = Vec::new();
                    let what = "`files`: an array of file objects";
                    self.array(&Files, what, &mut |entry| read.push(entry))?;
                    *files = Some(read);
                }
                "functions" => {
                    let records = Records::new(files.as_deref(), detail);
                    let mut kept = KeptRecords::default();
                    let what = "`functions`: an array of function records";
                    self.array(&records, what, &mut |record| kept.add(record))?;
                    *functions = Some((records, kept));
                }
                _ => self.unknown().map_err(skip)?,
            }
        }
        Ok(())
    }

    /// Reads an array of elements, parsing pieces of each window in parallel, and gives them
    /// to `sink` in order. The elements of one window go to `sink` while the next window is
    /// parsed (beside the read-ahead), so that no core waits for the sink.
    fn array<E: pieces::Element>(
        &mut self,
        element: &E,
        what: &'static str,
        sink: &mut (dyn FnMut(E::Out) + Send),
    ) -> Walk<()> {
        self.open(b'[', what).map_err(skip)?;
        self.elements(element, sink)
            .map_err(|fail| self.close(fail, false))
    }

    /// The elements of an array whose `[` was consumed.
    fn elements<E: pieces::Element>(
        &mut self,
        element: &E,
        sink: &mut (dyn FnMut(E::Out) + Send),
    ) -> Walk<()> {
        if !self.next_entry(true, false).map_err(stop)? {
            return Ok(());
        }
        // The elements parsed but not yet given to `sink`: those of the previous window.
        let mut pending: Vec<Vec<(usize, E::Out)>> = Vec::new();
        // Emptied vectors of runs given to `sink`, for the next window's runs
        // ([`pieces::stitch`]).
        let mut rooms: Vec<Vec<(usize, E::Out)>> = Vec::new();
        loop {
            let window = self.buf.get(self.pos..).unwrap_or_default();
            // The next chunk is read while this window is parsed, unless one is read already (an
            // earlier array closed in the window it was read beside), the input is this
            // thread's or has ended, or the window is one piece (a small document: no thread is
            // woken for it).
            let shared = match &mut self.input {
                Input::Shared(input) if !self.eof && self.ahead.is_empty() => Some(input),
                _ => None,
            };
            let (sizes, spare) = (self.sizes, &mut self.spare);
            let mut free = std::mem::take(&mut rooms);
            let mut parse = || {
                let mut out = Vec::new();
                let end = pieces::stitch(element, window, sizes.piece, &mut out, &mut free);
                (end, out)
            };
            let previous = std::mem::take(&mut pending);
            let mut given = Vec::new();
            let ((end, out), ahead) = match shared {
                Some(input) if window.len() > sizes.piece => rayon::join(parse, || {
                    let ahead = read_ahead(&mut **input, sizes, spare);
                    pieces::recycle(previous, sink, &mut given);
                    Some(ahead)
                }),
                _ => {
                    pieces::recycle(previous, sink, &mut given);
                    (parse(), None)
                }
            };
            free.append(&mut given);
            rooms = free;
            pending = out;
            if ahead.is_some() {
                // `ahead` was empty: the chunk read goes there, its memory to `spare`.
                std::mem::swap(&mut self.ahead, &mut self.spare);
            }
            if self.next_window(element, end, ahead)? {
                pieces::recycle(pending, sink, &mut rooms);
                return Ok(());
            }
        }
    }

    /// After a window of an array: takes the read-ahead, then true when the array has closed,
    /// false when the next window is ready; a fault when the array is not valid or the input
    /// ends inside it.
    fn next_window<E: pieces::Element>(
        &mut self,
        element: &E,
        end: End,
        ahead: Option<std::io::Result<bool>>,
    ) -> Walk<bool> {
        match ahead {
            Some(Ok(eof)) => self.eof = eof,
            Some(Err(err)) => self.fail(err),
            None => {}
        }
        match end {
            End::Closed(after) => {
                self.pos += after;
                return Ok(true);
            }
            End::Open(next) | End::Short(next) => self.pos += next,
            End::Bad(at, reason) => {
                self.pos += at;
                return Err(self.element_fault(reason));
            }
            End::Separator(at) => {
                self.pos += at;
                return Err(stop(self.peek_fault(Kind::Syntax, "expected `,` or `]`")));
            }
        }
        if self.more() {
            return Ok(false);
        }
        // The input ends inside the array: the element there words it.
        let rest = self.buf.get(self.pos..).unwrap_or_default();
        Err(match element.parse(rest, true) {
            Parsed::Done(..) => {
                stop(self.fault_at(self.buf.len(), Kind::Eof, "EOF while parsing a list"))
            }
            Parsed::Bad(reason) => self.element_fault(reason),
            Parsed::Eof => {
                stop(self.fault_at(self.buf.len(), Kind::Eof, "EOF while parsing a value"))
            }
        })
    }

    /// The fault of the element at the cursor.
    fn element_fault(&mut self, reason: Reason) -> Fail {
        match reason {
            // `]` where an element belongs: the one before ended with a comma.
            Reason::Serde(_) if self.buf.get(self.pos) == Some(&b']') => {
                stop(self.peek_fault(Kind::Syntax, "trailing comma"))
            }
            Reason::Serde(err) => skip(self.serde_fault(self.pos, &err)),
            Reason::Custom(message, len) => {
                // A check of the whole element, located where serde_json's `end_seq` leaves the
                // cursor: past a `]`, or past a `,` and the blank space after it.
                self.pos += len;
                let offset = match self.peek() {
                    Some(b']') => self.pos + 1,
                    Some(b',') => self.after_comma(),
                    _ => self.pos,
                };
                Fail {
                    fault: self.fault_at(offset, Kind::Data, &message),
                    resume: Resume::Here,
                }
            }
        }
    }

    /// The offset after the `,` at the cursor and the blank space after it (the cursor stays).
    fn after_comma(&mut self) -> usize {
        loop {
            let rest = self.buf.get(self.pos + 1..).unwrap_or_default();
            let blank = rest.iter().take_while(|b| pieces::is_blank(**b)).count();
            if blank < rest.len() || !self.more() {
                return self.pos + 1 + blank;
            }
        }
    }
}

/// Reads up to a chunk from `input` into `ahead`, after `sizes.gap` bytes left free, and says
/// whether the input has now ended; `ahead` then holds the gap and the bytes read (on an error,
/// those read before it).
///
/// `ahead` may hold anything before: its bytes are overwritten, and only memory it never held
/// is zeroed (a read into a vector's spare capacity zeroes all of it first, each time).
fn read_ahead(
    input: &mut (dyn Read + Send),
    sizes: Sizes,
    ahead: &mut Vec<u8>,
) -> std::io::Result<bool> {
    let end = sizes.gap + sizes.chunk;
    ahead.resize(end, 0);
    let mut filled = sizes.gap;
    while filled < end {
        let room = ahead.get_mut(filled..end).unwrap_or_default();
        match input.read(room) {
            Ok(0) => break,
            Ok(read) => filled += read,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => {
                ahead.truncate(filled);
                return Err(err);
            }
        }
    }
    ahead.truncate(filled);
    Ok(filled < end)
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "stream_tests.rs"]
mod tests;
