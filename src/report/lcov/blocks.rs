//! Parallel blocks and streaming input: a tracefile cut into blocks of whole sections, parsed
//! in parallel and joined in input order as one pass would; a stream parsed a window of whole
//! lines at a time ([`read_window`]).

use std::io::Read;

use rayon::prelude::*;

use crate::error::Result;
use crate::report::input::Window;
use crate::report::Report;

use super::lex::END_OF_RECORD;
use super::parse::Parser;

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
    let lines: Vec<u64> = blocks.par_iter().map(|b| line_breaks(b)).collect();
    let firsts = lines.iter().scan(first, |next, n| {
        let first = *next;
        *next += n;
        Some(first)
    });
    let work: Vec<(u64, &[u8])> = firsts.zip(blocks.iter().copied()).collect();
    let origin = parser.origin;
    let parsed: Vec<Result<Parser<'_>>> = work
        .into_par_iter()
        .map(|(first, block)| {
            let mut block_parser = Parser::new(origin);
            block_parser.feed(first, block).map(|_| block_parser)
        })
        .collect();
    for block in parsed {
        parser.absorb(block?);
    }
    Ok(head_lines + lines.iter().sum::<u64>())
}

/// The smallest block of a tracefile parsed on its own thread, in bytes.
pub(super) const MIN_BLOCK: usize = 1 << 20;

/// The block size for a tracefile of `len` bytes: a few blocks per thread, at least
/// [`MIN_BLOCK`].
pub(super) fn block_size(len: usize) -> usize {
    MIN_BLOCK.max(len / (4 * rayon::current_num_threads()))
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

/// Reads a tracefile from `window` (from its first byte, nothing consumed yet): the whole lines
/// of each window are parsed in blocks of about `size` bytes ([`parse_lines`]), the unfinished
/// last line stays for the next window (and is searched for a line break once). A line over [`MAX_LINE`](super::MAX_LINE) is an error once the window holds more
/// than that of it; a read error names the line it happened on, after the whole lines before it
/// were parsed.
pub(super) fn read_window<R: ?Sized + Read>(
    origin: &str,
    window: &mut Window<'_, R>,
    size: usize,
) -> Result<(Report, Vec<String>)> {
    let mut parser = Parser::new(origin);
    let mut first = 1u64;
    // The leading bytes of the window known to hold no line break (the unfinished last line of
    // the previous window): only what follows them is searched.
    let mut searched = 0usize;
    loop {
        window.more();
        let failed = window.take_error();
        // At the end of the input, the last line needs no line break.
        let end = window.at_end() && failed.is_none();
        let bytes = window.unread();
        let whole = if end {
            bytes.len()
        } else {
            let new = bytes.get(searched..).unwrap_or_default();
            new.iter()
                .rposition(|b| *b == b'\n')
                .map_or(0, |at| searched + at + 1)
        };
        let lines = bytes.get(..whole).unwrap_or_default();
        first += parse_lines(&mut parser, first, lines, size)?;
        window.consume(whole);
        if let Some(e) = failed {
            return Err(parser.error(first, format!("cannot read the report: {e}")));
        }
        if end {
            return parser.finish();
        }
        searched = window.unread().len();
        parser.check_length(first, searched)?;
    }
}
