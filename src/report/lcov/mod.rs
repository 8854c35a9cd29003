//! LCOV tracefile reader: a small, tolerant, line-oriented parser of our own.
//!
//! The `lcov` crate rejects or miscounts too many real tracefiles (see `spec/lcov.md`), so covgate
//! reads the format itself. Every rule below comes from a real generator's output.
//!
//! # Lexing
//! - A UTF-8 byte-order mark is skipped, at the start of the file and at the start of any line
//!   (`cat` of two files written with a BOM puts one mid-file).
//! - Lines end at `\n`; a trailing `\r` (CRLF files) and any other trailing or leading whitespace
//!   is dropped. Blank lines and lines starting with `#` are comments (lcov 2.x, gcovr and JaCoCo
//!   converters write them; lcov's own reader skips them).
//! - Bytes that are not UTF-8 are replaced with U+FFFD (`String::from_utf8_lossy`) and the line is
//!   reported in a warning: a path may hold odd bytes, and one bad byte must not lose a whole
//!   report. Two paths that differ only in invalid bytes would then share one name; the warning
//!   says so. (covgate's walk names files on disk the same lossy way, so such a file still
//!   meets its record.) A NUL byte in an `SF` path is an error: no file system allows one.
//! - A line may be at most [`MAX_LINE`] bytes long; a longer one is an error, found without
//!   holding more than [`MAX_LINE`] + [`STREAM_CHUNK`] bytes of it ([`read_from`] streams).
//!   Quoted input in messages is clipped.
//! - A record is `TAG:value`, split at the first `:`; `SF: path` keeps working because the path
//!   is trimmed.
//! - `end_of_record` may carry trailing whitespace and may be missing before the next `SF` or at
//!   the end of the file (a warning, never an error). Either way the section may be cut short
//!   (a truncated tracefile, perhaps with another appended by `cat`), so its records are
//!   ignored and its file is marked cut short (`LcovFile::is_cut_short`): `covgate check`
//!   counts it unmeasured, whatever other sections or reports hold of it. An
//!   `end_of_record` outside a section closes nothing and is ignored with a warning.
//! - `end_of_recordSF:…` on one line is what `cat a.info b.info` yields when `a.info` has no final
//!   newline (cargo-llvm-cov writes none). The line is split into `end_of_record` plus the record
//!   that follows, with a warning. Any other text glued after `end_of_record` is an error, so no
//!   record is ever attributed to the wrong file. A `DA` checksum must look like base64 or hex for
//!   the same reason: `DA:7,1,abcSF:/x` would otherwise swallow the next file's `SF`.
//!
//! # Records
//! - `TN` and `VER` are accepted anywhere and ignored (never meaningful for a gate). `MCDC`, `MCF`
//!   and `MCH` (lcov ≥ 2.3 MC/DC) are accepted inside a section and skipped: covgate does not gate
//!   MC/DC. Outside a section they are errors like every other data record.
//! - `SF:<path>` opens a section; the path is the rest of the line, trimmed, and must not be empty.
//! - `FN:<start>,[<end>,]<name>`: the end line is optional (lcov 2.0–2.1, coverage.py ≥ 7.6.2)
//!   and the name may contain commas, so the second field is an end line only when it is all
//!   digits *and* a third field follows (a C/C++/Rust symbol never starts with a digit):
//!   `FN:1,5,legacy_sum` is start 1, end 5.
//! - `FNDA:<count>,<name>` may come before its `FN`; counts of one name in a section are summed and
//!   go to every `FN` of that name in the section (the format cannot tell same-named functions
//!   apart). An `FNDA` whose name has no `FN` in its section is a function with no start line.
//! - `FNL:<index>,<start>[,<end>]` and `FNA:<index>,<count>,<alias>` (lcov ≥ 2.2): all aliases of
//!   one index are one function, covered when any alias ran (counts are summed). Indexes are local
//!   to a section; the function is keyed by its start line and its smallest alias name, so the
//!   same group from two shards merges whatever order the aliases were written in.
//! - `BRDA:<line>,[e|f][U]<block>,<branch>,<taken>`: the block is split off from the left and the
//!   taken count from the right, so a branch field holding commas (coverage.py's expression ids)
//!   stays whole. `taken` `-` means the branch was never evaluated: it exists and is not covered.
//! - `DA:<line>,<count>[,<checksum>]`: the same line repeated in a section is summed (as lcov does).
//! - `LF/LH`, `BRF/BRH`, `FNF/FNH` are the writer's declared totals (see below), any order.
//! - Line number 0 occurs (coverage.py) and is accepted.
//! - Any other `TAG:` is skipped with a warning naming the line and the tag.
//!
//! # Errors
//! Every error names the origin and the 1-based line, and says what was expected:
//! a known record with a missing field, a count or line that is not a non-negative decimal
//! integer (`-1`, `1.0e3`), a number beyond `u64` (counts) or `u32` (line numbers), a data record
//! outside an `SF` section (it would belong to no file), text glued after `end_of_record`, a `DA`
//! checksum that is not base64 or hex, an `SF` path with a NUL byte, a line longer than
//! [`MAX_LINE`], and a tracefile with no `SF` at all
//! (an empty tracefile is an error, never an empty pass). Sums that would pass `u64::MAX`
//! saturate. At most [`MAX_WARNINGS`] warnings are kept; a last one counts the rest.
//!
//! # Speed
//! Sections are independent until files are merged by path, so the input is cut into blocks of
//! whole sections (after a line that is exactly `end_of_record`), parsed in parallel, and joined
//! in input order: files, merges, warnings and the first error are those of one pass over the
//! lines. [`read_from`] does the same per window of [`STREAM_CHUNK`] bytes, cut after the
//! window's last `end_of_record` line: its sections are parsed on the thread pool while the
//! calling thread joins the previous window's blocks into the files and reads the next window,
//! so reading, joining and parsing overlap. A window that holds no whole section, the last
//! window and a tracefile read in one window are parsed in order (a small tracefile wakes no
//! thread). Blocks are small (256 KiB on a stream) so that no thread waits long for the last
//! block of a window. Two sections of one file declaring the same totals are compared item by
//! item in their order first, sorted only when the order differs. Within a section, the common
//! shapes take no lookups: an `FNDA` record with the name of the `FN` record expected next (the
//! writers put them in the order of the `FN` records) is kept with it, unhashed; a section of
//! distinct function names makes its functions without a table or an index; ascending `DA`
//! lines are packed as they come; a plain `DA` line is read with its line break and goes
//! straight to its section.
//!
//! # Memory
//! Input: one window of whole lines at a time, never the whole tracefile. Records: what the
//! files hold, each keyed once. A name (function name, alias, branch block or id) is stored once
//! per process, whatever block spells it, and shared by every record that spells it ([`Name`]):
//! the same function in every copy of a header or of a replicated file. Within a file, functions and branch sides are
//! found through an index of hashes; once the file is read the index is dropped (a later merge
//! builds it again), its vectors give back the room kept for growth and its functions are
//! packed (`functions`: varints, the number of its name and about 3 bytes more each, unpacked
//! again only by a merge). `DA` lines are packed as varints, the distance from the line before and the
//! count, the count left out where it repeats the line before's (1 to 2 bytes a line), and a
//! name takes one pointer in each record that holds it.
//!
//! Read for `covgate check` from a regular file, alone ([`read_window_reduced`]), a file is
//! reduced to its verdict once the window after the one that holds it is read (`reduced`: its
//! counts and the records of its uncovered items), unless it may carry inline markers: memory
//! then follows the files and their misses, not their records. Until then its functions stay
//! open (a vector, not packed): they are read once more, by the reduction, which packs only
//! the records it keeps. A file reduced cannot merge:
//! when its path comes again in a later section, the tracefile is read again keeping every
//! record; once any path has come twice (shards), no file is reduced from then on.
//!
//! # Merging
//! All sections of one `SF` string are merged, and [`LcovFile::merge`] merges shards and reports
//! the same way: `DA` counts summed per line; `BRDA` summed per (line, block, branch) with
//! `-` + `-` = `-` and `-` + n = n; functions keyed by (start line, name) — an `FNL` group by
//! (start line, smallest alias) — counts summed. Each merge looks only at what it adds, so that
//! merging is linear in the parts: the records that ran are kept per start line as the file
//! merges (`instances`), and the `DA` lines of later sections (the parser) or reports
//! ([`LcovFile::merge_all`]) are set aside and merged once.
//!
//! # Counting
//! Lines are the distinct `DA` lines, covered when the summed count is above 0. Branches are the
//! `BRDA` sides, `-` and 0 not covered. Functions are the distinct functions (by start line and
//! identity), covered when the summed count is above 0; in sections not in llvm-cov's shape,
//! each distinct record (start line and name) is a function where that count is worse, as gcov
//! and lcov count a template's instantiations (names only LLVM writes, Rust's, stay grouped). LCOV has no regions: `regions` is always `None`.
//!
//! ## Declared totals: the worse of declared and recorded, for single-section files
//! llvm-cov writes one `FN` (and one set of `BRDA`) per instantiation and per binary, but counts
//! instantiation groups in `FNF/FNH`, and computes `LH`/`BRH` per group, so its declared totals
//! can report *fewer* covered items than the detail records (a generic whose arms are covered by
//! different instantiations: every `DA` hit, yet `LH:8` of `LF:9`), and can also count *fewer*
//! items (`FNF:2` with 8 `FN`). The declared pair is llvm-cov's own answer, the one its JSON
//! summary gives; the detail records are the only answer once files are merged.
//!
//! Rule (`file::judged`), for a file that came in one section (or one given several times alike)
//! and declares both found and hit for a metric:
//! - llvm-cov's shape: the declared pair, unless it declares fewer misses than the records
//!   prove missed in every instantiation; then the records, with a warning (no llvm-cov run
//!   writes that: records zeroed by a script that kept the totals). What the records *prove*
//!   missed: the `DA` lines with count 0 (a line is one item, no copies); the start lines whose
//!   function records all have count 0 (records at one start line may be instantiations or
//!   per-binary copies of one source function). Branch sides prove nothing: llvm-cov writes
//!   folded sides as 0 outside `BRF`, and a macro's sides under its header with `BRF:0`.
//! - any other writer: the records, unless the declared pair is worse (a lower share covered, or
//!   as low with more misses), with a warning either way: gcovr counts a C++ template's lines
//!   per instantiation but writes summed `DA` records, and `LF:9 LH:0` without `DA` records is
//!   0 of 9, never a vacuous 0 of 0. No verdict is better than the writer's own.
//!
//! Once two sections are merged their declared pairs are kept when both declare the same
//! pairs over the same items covered alike (a tracefile given twice), which the merge does not
//! change. Otherwise they bound the merge (`DeclaredTotals::merged`), per metric both declare
//! in full: found at least the larger found count, hit at most the sum of hit counts; the
//! bound is judged as another writer's declared pair (the worse of it and the records), never
//! as llvm-cov's own totals.
//!
//! # Modules
//! `lex` turns one line into a record; `section` gathers the records of one `SF` section and
//! resolves its functions; `parse` drives sections across lines and merges files by path;
//! `blocks` cuts input into blocks of whole sections, parsed in parallel, and streams a
//! `Window`; `file` is the model ([`LcovFile`]) with the declared-count rule, `lines` its packed
//! `DA` lines, `functions` its functions (packed once read), `index` the hash index of its
//! functions and branch sides and the shared names, `identity` the function identity across
//! copies, `instances` whether two llvm-cov sections merge exactly, `markers` the LCOV half of
//! inline ignore markers, `reduced` a file reduced to its verdict.

mod blocks;
mod claims;
mod extra;
mod file;
mod functions;
mod identity;
mod index;
mod instances;
mod lex;
mod lines;
mod markers;
mod parse;
mod reduced;
mod section;
pub mod unbranched;

use std::io::{BufRead, Read};

use crate::error::Result;

use super::input::Window;
use super::Report;
use blocks::{block_size, parse_lines};
use parse::Parser;

pub use file::{Branch, Function, LcovFile, UncoveredFunction};
pub use index::{Aliases, Name};

/// The longest line the reader accepts, in bytes (16 MiB, without the line break). Real lines
/// are far shorter (the longest are C++ function names, some kilobytes); the limit bounds the
/// memory one line can take when the tracefile is streamed ([`read_from`]).
pub const MAX_LINE: usize = 16 << 20;

/// How many warnings a tracefile keeps; one more says how many were left out.
pub const MAX_WARNINGS: usize = 100;

/// Reads an LCOV tracefile into a [`Report`] of kind [`ReportKind::Lcov`](super::ReportKind::Lcov), dropping warnings.
///
/// The report has one [`FileData`](super::FileData) per distinct `SF` string (trimmed), in first-appearance order,
/// with all its sections merged into one [`LcovFile`]; `manifest_path` is `None` and
/// `has_branch_data` says whether any section has a `BRDA` record (stable `cargo llvm-cov --lcov`
/// writes none: branches are then unavailable, not 0 of 0). See
/// [`read_with_warnings`] for the warnings and the module documentation for the semantics.
///
/// # Errors
/// An error names `origin` and the 1-based line: a malformed known record (missing field, count
/// or line number that is not a non-negative decimal integer or is too large, a `DA` checksum
/// that is not base64/hex), a data record outside an `SF` section, text glued after
/// `end_of_record`; and, without a line, a tracefile with no `SF` record (empty).
pub fn read(origin: &str, bytes: &[u8]) -> Result<Report> {
    read_with_warnings(origin, bytes).map(|(report, _)| report)
}

/// Reads an LCOV tracefile like [`read`] and also returns the warnings, each a complete message
/// `"<origin>:<line>: …"`: unknown record types (skipped), non-UTF-8 bytes (replaced), a missing
/// `end_of_record` (at the end of input: the section's records ignored), an `end_of_record` outside a section (ignored), and `end_of_record` glued to
/// the next record (split).
///
/// # Errors
/// As [`read`].
pub fn read_with_warnings(origin: &str, bytes: &[u8]) -> Result<(Report, Vec<String>)> {
    read_in_blocks(origin, bytes, block_size(bytes.len()))
}

/// [`read_with_warnings`] with blocks of about `size` bytes (see [`blocks::blocks`]).
fn read_in_blocks(origin: &str, bytes: &[u8], size: usize) -> Result<(Report, Vec<String>)> {
    let mut parser = Parser::new(origin);
    parse_lines(&mut parser, 1, bytes, size)?;
    parser.finish()
}

/// Reads an LCOV tracefile from a stream like [`read_with_warnings`]: in chunks of whole lines
/// (about [`STREAM_CHUNK`] bytes, each parsed in parallel blocks as [`read_with_warnings`]
/// parses a whole input), so memory holds one chunk plus the records read, never the whole
/// input. A line over [`MAX_LINE`] is an error as soon as its first [`MAX_LINE`] + 1 bytes have
/// been read.
///
/// # Errors
/// As [`read`], and a read error of `input` (with the line it happened on).
pub fn read_from(origin: &str, mut input: impl BufRead) -> Result<(Report, Vec<String>)> {
    read_lines(origin, &mut input)
}

/// How many bytes [`read_from`] reads before it parses the whole lines among them.
pub const STREAM_CHUNK: usize = 8 << 20;

/// [`read_from`], compiled once (a generic function would be compiled, and measured, per input
/// type).
fn read_lines(origin: &str, input: &mut dyn Read) -> Result<(Report, Vec<String>)> {
    read_window(origin, &mut Window::new(input, STREAM_CHUNK))
}

/// Reads a tracefile from `window` like [`read_from`], from the window's first byte (the format
/// was detected on it, nothing consumed).
///
/// # Errors
/// As [`read_from`].
pub(crate) fn read_window<R: ?Sized + Read>(
    origin: &str,
    window: &mut Window<'_, R>,
) -> Result<(Report, Vec<String>)> {
    let parser = Parser::new(origin);
    window.set_chunk(STREAM_CHUNK);
    blocks::read_window(parser, window, STREAM_CHUNK, block_size(STREAM_CHUNK))?.finish()
}

/// Reads a tracefile from `window` like [`read_window`], each file reduced to its verdict once
/// the window after the one that read it is read (its counts, and the records of its uncovered
/// items: see
/// [`LcovFile::is_reduced`]), except the files for which `marked` (called with the `SF` path,
/// on this thread only) says they may carry inline markers, which keep every record. Files are
/// reduced only while no path has come twice (a tracefile of shards keeps every record).
/// `None` when a reduced file's path came again in a later section: its records cannot be
/// merged, so the tracefile must be read again with [`read_window`] (found within the window
/// after the one that reduced it: a path that comes again within about two windows merges
/// before anything is reduced, and stops the reduction).
///
/// # Errors
/// As [`read_from`].
pub(crate) fn read_window_reduced<R: ?Sized + Read>(
    origin: &str,
    window: &mut Window<'_, R>,
    marked: &(dyn Fn(&str) -> bool + Sync),
) -> Result<Option<(Report, Vec<String>)>> {
    let parser = Parser::reducing(origin, marked);
    window.set_chunk(STREAM_CHUNK);
    let parser = blocks::read_window(parser, window, STREAM_CHUNK, block_size(STREAM_CHUNK))?;
    if parser.must_restart() {
        return Ok(None);
    }
    parser.finish().map(Some)
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod support_tests;

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod reader_tests;

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod stream_tests;

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod blocks_tests;

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod file_tests;

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod reduced_tests;

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod scale_tests;
