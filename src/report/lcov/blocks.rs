//! Parallel blocks and streaming input: a tracefile cut into blocks of whole sections, parsed
//! in parallel and joined in input order as one pass would; a stream parsed a window of whole
//! lines at a time ([`read_window`]).

use std::io::Read;

use rayon::prelude::*;

use crate::error::Result;
use crate::report::input::Window;

use super::lex::END_OF_RECORD;
use super::parse::Parser;
use super::MAX_LINE;

/// Parses `text`, whole lines from line `first` on, into `parser` as one pass would: the lines
/// up to the first whole `end_of_record` line in order (they may continue an open section), the
/// rest in blocks of about `size` bytes ([`blocks`]), in parallel when there are several. Each
/// block is parsed from its own first line number; the blocks' files and warnings are then
/// joined in input order, and the first error in input order is returned. Returns the number
/// of line breaks in `text`.
pub(super) fn parse_lines(
    parser: &mut Parser<'_>,
    first: u64,
    text: &[u8],
    size: usize,
) -> Result<u64> {
    let head_end = section_end(text, 1).unwrap_or(text.len());
    let (head, rest) = text.split_at_checked(head_end).unwrap_or((text, &[]));
    let head_lines = parser.feed(first, head)?;
    let first = first + head_lines;
    let blocks = blocks(rest, size);
    if let [one] = blocks.as_slice() {
        return Ok(head_lines + parser.feed(first, one)?);
    }
    let (parsed, lines) = parse_blocks((parser.origin, parser.keeps_open()), first, &blocks);
    absorb(parser, parsed)?;
    Ok(head_lines + lines)
}

/// What the parsers of blocks found, in input order: each block's parser, or its first error.
type Parsed<'a> = Vec<Result<Parser<'a>>>;

/// Parses `blocks`, whole lines from line `first` on, each by its own parser as if it started a
/// tracefile (every block but the first begins just after an `end_of_record` line), in
/// parallel. Returns the parsers in input order and the number of line breaks in all blocks.
/// `of` is the origin, and whether the files are stored with their functions open
/// ([`Parser::for_block`]).
fn parse_blocks<'a>(of: (&'a str, bool), first: u64, blocks: &[&[u8]]) -> (Parsed<'a>, u64) {
    let lines: Vec<u64> = blocks.par_iter().map(|b| line_breaks(b)).collect();
    let firsts = lines.iter().scan(first, |next, n| {
        let first = *next;
        *next += n;
        Some(first)
    });
    let work: Vec<(u64, &[u8])> = firsts.zip(blocks.iter().copied()).collect();
    let parsed = work
        .into_par_iter()
        .map(|(first, block)| {
            let mut block_parser = Parser::for_block(of.0, of.1);
            block_parser.feed(first, block).map(|_| block_parser)
        })
        .collect();
    (parsed, lines.iter().sum())
}

/// Takes over the blocks' parsers in input order ([`Parser::absorb`]), then lets `parser` reduce
/// the files read ([`Parser::checkpoint`]); the first error in input order is returned.
fn absorb<'a>(parser: &mut Parser<'a>, parsed: Parsed<'a>) -> Result<()> {
    for block in parsed {
        parser.absorb(block?);
    }
    parser.checkpoint();
    Ok(())
}

/// The smallest block of a tracefile parsed on its own thread, in bytes.
pub(super) const MIN_BLOCK: usize = 256 << 10;

/// The block size for a tracefile of `len` bytes: sixteen blocks per thread, at least
/// [`MIN_BLOCK`] (a window of [`STREAM_CHUNK`](super::STREAM_CHUNK) on 2 threads: 32 blocks of
/// 256 KiB). Small blocks keep every thread busy to the end of a window (the last block of a
/// window is parsed alone); they cost little, since a block's parser starts from its thread's
/// names ([`Names`](super::index::Names)) and its files are joined per file.
pub(super) fn block_size(len: usize) -> usize {
    MIN_BLOCK.max(len / (16 * rayon::current_num_threads()))
}

/// `bytes` cut into blocks of whole sections: every block but the last is at least `size` bytes
/// long and ends just after a line that is exactly `end_of_record` (optionally with `\r`), so no
/// section is open across blocks and every block starts in the state a single pass would have
/// there. Without such a line, the rest is one block.
pub(super) fn blocks(bytes: &[u8], size: usize) -> Vec<&[u8]> {
    let mut blocks = Vec::new();
    let mut rest = bytes;
    while let Some(end) = section_end(rest, size) {
        let (block, after) = rest.split_at_checked(end).unwrap_or((rest, &[]));
        blocks.push(block);
        rest = after;
    }
    blocks.push(rest);
    blocks
}

/// The offset just after the first whole line `end_of_record` (or `end_of_record\r`) that ends
/// at or after `from`, when bytes follow it.
pub(super) fn section_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from.checked_sub(1)?;
    loop {
        let newline = at + bytes.get(at..)?.iter().position(|b| *b == b'\n')?;
        let next = bytes.get(newline + 1..).unwrap_or_default();
        let line = next.strip_prefix(END_OF_RECORD.as_bytes());
        let end = line.and_then(|l| match l {
            [b'\n', ..] => Some(1),
            [b'\r', b'\n', ..] => Some(2),
            _ => None,
        });
        match end {
            Some(n) if newline + 1 + END_OF_RECORD.len() + n < bytes.len() => {
                return Some(newline + 1 + END_OF_RECORD.len() + n);
            }
            Some(_) => return None,
            None => at = newline + 1,
        }
    }
}

/// The number of line breaks in `bytes`.
pub(super) fn line_breaks(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

/// The offset just after the last line of `bytes` that is exactly `end_of_record` (or
/// `end_of_record\r`) and follows a line break: no section is open there.
pub(super) fn last_section_end(bytes: &[u8]) -> Option<usize> {
    let finder = memchr::memmem::FinderRev::new(b"\nend_of_record");
    let mut before = bytes.len();
    loop {
        let at = finder.rfind(bytes.get(..before).unwrap_or_default())?;
        let after = at + 1 + END_OF_RECORD.len();
        match bytes.get(after..) {
            Some([b'\n', ..]) => return Some(after + 1),
            Some([b'\r', b'\n', ..]) => return Some(after + 2),
            _ => before = at,
        }
    }
}

/// Reads a tracefile from `window` (from its first byte, nothing consumed yet), `chunk` bytes at
/// a time, the whole lines of each window parsed in blocks of about `size` bytes, as one pass
/// over the lines would parse them.
///
/// While the window ends in whole sections, its sections are parsed on the thread pool while
/// this thread takes over what the previous window's blocks found and reads the next chunk
/// (into a second buffer): reading, joining and parsing overlap. Otherwise (the end of the
/// input, a read error, a section longer than a window, a line over [`MAX_LINE`]) the whole
/// lines are parsed in order first ([`parse_lines`]): a small tracefile, read in one chunk, is
/// parsed on this thread alone. The unfinished last line stays for the next window (and is
/// searched for a line break once). A line over [`MAX_LINE`] is an error once the window holds
/// more than that of it; a read error names the line it happened on, after the whole lines
/// before it were parsed.
///
/// Returns `parser` with every line parsed, or as soon as it must be restarted
/// ([`Parser::must_restart`]).
pub(super) fn read_window<'a, R: ?Sized + Read>(
    parser: Parser<'a>,
    window: &mut Window<'_, R>,
    chunk: usize,
    size: usize,
) -> Result<Parser<'a>> {
    let mut stream = Stream {
        parser,
        first: 1,
        buf: window.unread().to_vec(),
        ahead: Vec::new(),
        searched: 0,
        whole: 0,
        eof: false,
        failed: None,
        chunk: chunk.max(1),
        size,
        clean: true,
    };
    window.consume(stream.buf.len());
    (stream.eof, stream.failed) = if window.at_end() {
        // Detecting the format read the whole input (or up to its read error).
        (true, window.take_error())
    } else {
        let keep = stream.buf.len();
        read_more(window, &mut stream.buf, keep, stream.chunk.max(keep))
    };
    let mut pending = Parsed::new();
    loop {
        pending = match stream.step(window, pending)? {
            Step::Parsed(parsed) => parsed,
            Step::End => return Ok(stream.parser),
        };
        if stream.parser.must_restart() {
            return Ok(stream.parser);
        }
    }
}

/// Reads up to `want` bytes of `input` onto the end of `buf`: whether the input has ended, and
/// its read error (bytes read before it are kept).
///
/// The bytes are read into `buf`'s own length where it has it (its bytes beyond `keep` are
/// overwritten), so memory that a previous window initialised is not zeroed again.
fn read_more(
    input: &mut (impl Read + ?Sized),
    buf: &mut Vec<u8>,
    keep: usize,
    want: usize,
) -> (bool, Option<std::io::Error>) {
    let end = keep + want;
    buf.resize(buf.len().max(end), 0);
    let mut filled = keep;
    let failed = loop {
        let room = buf.get_mut(filled..end).unwrap_or_default();
        match input.read(room) {
            Ok(0) => break None,
            Ok(read) => filled += read,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => break Some(err),
        }
        if filled == end {
            break None;
        }
    };
    buf.truncate(filled);
    (failed.is_some() || filled < end, failed)
}

/// The state of [`read_window`] between windows.
struct Stream<'a> {
    parser: Parser<'a>,
    /// The number of the first line of `buf`.
    first: u64,
    /// The window: bytes read and not parsed yet.
    buf: Vec<u8>,
    /// The next window, read while `buf` is parsed (its memory kept between windows).
    ahead: Vec<u8>,
    /// The leading bytes of `buf` searched for line breaks already.
    searched: usize,
    /// The end of the last whole line among the searched bytes (0: none).
    whole: usize,
    /// True once the input has ended or failed.
    eof: bool,
    /// The input's read error.
    failed: Option<std::io::Error>,
    chunk: usize,
    size: usize,
    /// True when `buf` starts where a new parser may start: no section open, what `parser`
    /// has parsed or will absorb ends with a whole `end_of_record` line.
    clean: bool,
}

/// What a window of [`read_window`] gave.
enum Step<'a> {
    /// Its blocks, parsed, not yet taken over.
    Parsed(Parsed<'a>),
    /// The end of the input: every line parsed.
    End,
}

impl<'a> Stream<'a> {
    /// Parses one window: in parallel with the next read when it ends in whole sections
    /// (returning its blocks), otherwise in order after `pending` is taken over.
    fn step<R: ?Sized + Read>(
        &mut self,
        window: &mut Window<'_, R>,
        pending: Parsed<'a>,
    ) -> Result<Step<'a>> {
        // At the end of the input, the last line needs no line break.
        let end = self.eof && self.failed.is_none();
        let new = self.buf.get(self.searched..).unwrap_or_default();
        if let Some(at) = memchr::memrchr(b'\n', new) {
            self.whole = self.searched + at + 1;
        }
        let whole = if end { self.buf.len() } else { self.whole };
        let short = self.buf.len() - whole <= MAX_LINE;
        let cut = (self.clean && !self.eof && short)
            .then(|| last_section_end(self.buf.get(..whole).unwrap_or_default()))
            .flatten();
        match cut {
            Some(cut) => self.overlapped(window, pending, cut).map(Step::Parsed),
            None => {
                absorb(&mut self.parser, pending)?;
                self.in_order(window, whole, end)
            }
        }
    }

    /// Parses `buf[..cut]` (whole sections) on the thread pool while this thread takes over
    /// `pending` and reads the next window; returns the window's blocks.
    fn overlapped<R: ?Sized + Read>(
        &mut self,
        window: &mut Window<'_, R>,
        pending: Parsed<'a>,
        cut: usize,
    ) -> Result<Parsed<'a>> {
        let (text, rest) = self.buf.split_at_checked(cut).unwrap_or_default();
        let of = (self.parser.origin, self.parser.keeps_open());
        let (first, size) = (self.first, self.size);
        let mut parsed = (Parsed::new(), 0);
        let ahead = &mut self.ahead;
        let parser = &mut self.parser;
        let (absorbed, (eof, failed)) = rayon::in_place_scope(|scope| {
            let out = &mut parsed;
            scope.spawn(move |_| *out = parse_blocks(of, first, &blocks(text, size)));
            let absorbed = absorb(parser, pending);
            // The unparsed end of this window goes first (`ahead` keeps its initialised memory).
            let keep = rest.len();
            ahead.resize(ahead.len().max(keep), 0);
            ahead
                .iter_mut()
                .zip(rest)
                .for_each(|(to, from)| *to = *from);
            (
                absorbed,
                read_more(window, ahead, keep, self.chunk.max(keep)),
            )
        });
        absorbed?;
        (self.eof, self.failed) = (eof, failed);
        self.whole -= cut;
        self.searched = self.buf.len() - cut;
        std::mem::swap(&mut self.buf, &mut self.ahead);
        self.first += parsed.1;
        Ok(parsed.0)
    }

    /// Parses `buf[..whole]` in order (all of it at the `end`); then the tracefile at the end,
    /// its read error, or the error of an unfinished line over [`MAX_LINE`]; otherwise reads
    /// the next window.
    fn in_order<R: ?Sized + Read>(
        &mut self,
        window: &mut Window<'_, R>,
        whole: usize,
        end: bool,
    ) -> Result<Step<'a>> {
        let lines = self.buf.get(..whole).unwrap_or_default();
        self.first += parse_lines(&mut self.parser, self.first, lines, self.size)?;
        if let Some(e) = self.failed.take() {
            let message = format!("cannot read the report: {e}");
            return Err(self.parser.error(self.first, message));
        }
        if end {
            return Ok(Step::End);
        }
        self.buf.drain(..whole);
        self.parser.check_length(self.first, self.buf.len())?;
        self.clean = self.parser.between_sections();
        (self.searched, self.whole) = (self.buf.len(), 0);
        let keep = self.buf.len();
        (self.eof, self.failed) = read_more(window, &mut self.buf, keep, self.chunk.max(keep));
        Ok(Step::Parsed(Parsed::new()))
    }
}
