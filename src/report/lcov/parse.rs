//! The parser: lines in input order, through open sections, into files merged by path.

use crate::error::{Error, Result};
use crate::report::{clip, FileCoverage, FileData, Report, ReportKind};

use super::file::{sorted_lines, DeclaredTotals, LcovFile};
use super::index::{Index, Names};
use super::lex::{da_line, fn_line, lex, split_at, Record, END_OF_RECORD, KNOWN_TAGS};
use super::lines::Lines;
use super::reduced::Identities;
use super::section::{apply, Section, STAGE_FOREIGN};
use super::{MAX_LINE, MAX_WARNINGS};

/// A file as the parser holds it: path, file, `DA` records of its later sections.
/// A file as read: its path, its records (boxed from the start, so that the report's files are
/// 40 bytes each and the records are freed file by file once judged), and its pending `DA` records.
type StoredFile = (String, Box<LcovFile>, Vec<(u32, u64)>);

/// The reader's state across lines.
pub(super) struct Parser<'a> {
    pub(super) origin: &'a str,
    /// Files by first appearance, each with the `DA` records of its later sections, merged
    /// into its lines once at the end (merging sorted lines per section would take time
    /// quadratic in the number of sections of one file).
    files: Vec<StoredFile>,
    /// Positions in `files` by a hash of the path (the path itself is stored once, in `files`).
    index: Index,
    section: Option<Section>,
    warnings: Vec<String>,
    /// Warnings beyond [`MAX_WARNINGS`], counted only.
    unshown_warnings: u64,
    /// The last line that held a record, for the missing-`end_of_record` warning.
    last_line: u64,
    /// True when the last record outside a section was `TN` or `VER` (the next section is then
    /// not llvm-cov's, see [`Order`]).
    after_tn: bool,
    /// Every name met, stored once.
    names: Names,
    /// The reduction of files to their verdict (see `reduced`): `None` keeps every record.
    reducing: Option<Reducing<'a>>,
    /// True once a section of a file merged into another of the same path (here, or in a block
    /// this parser took over): the tracefile repeats paths (shards), so no file is reduced from
    /// then on.
    merged: bool,
    /// True when a later section of a reduced file came: the tracefile must be read again,
    /// keeping every record ([`Parser::must_restart`]).
    restart: bool,
    /// True when files are stored with their functions open, not packed: the files of a
    /// parser that reduces them (or of a block it will take over) are reduced one window later,
    /// from the open functions, rather than packed, unpacked and packed again.
    open: bool,
}

/// How the reader's own parser (never a block's, which runs on a thread of the pool) reduces
/// files to their verdict.
pub(super) struct Reducing<'a> {
    /// True for a file, by its `SF` path, that may carry inline markers: it keeps every record.
    /// Called on the reader's thread only; it may block.
    marked: &'a (dyn Fn(&str) -> bool + Sync),
    /// The files before this position in `files` were offered for reduction already.
    done: usize,
    /// The number of files at the last checkpoint: those after it are held whole one window
    /// more.
    held: usize,
    /// True when a file had `BRDA` records before it was reduced ([`Report::has_branch_data`]).
    branch_data: bool,
    /// True when a file carried functions, and lines, before it was reduced
    /// ([`Report::has_function_data`], [`Report::has_line_data`]).
    carried: (bool, bool),
    identities: Identities,
}

/// The byte ranges of the lines of `bytes`, split at `\n` (dropped): one more range than there
/// are line breaks, as `split` gives, found with `memchr` (the search a reader spends most on).
fn line_ranges(bytes: &[u8]) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let mut start = 0;
    memchr::memchr_iter(b'\n', bytes)
        .chain(std::iter::once(bytes.len()))
        .map(move |end| {
            let range = start..end;
            start = end + 1;
            range
        })
}

/// `text` without a leading byte order mark and surrounding white space. A line that starts
/// and ends with a visible ASCII character (almost every line) is returned as it is, unsearched.
fn trimmed(text: &str) -> &str {
    let visible = |b: Option<&u8>| b.is_some_and(u8::is_ascii_graphic);
    if visible(text.as_bytes().first()) && visible(text.as_bytes().last()) {
        return text;
    }
    text.trim_start_matches('\u{FEFF}').trim()
}

impl<'a> Parser<'a> {
    pub(super) fn new(origin: &'a str) -> Parser<'a> {
        Parser {
            origin,
            files: Vec::new(),
            index: Index::default(),
            section: None,
            warnings: Vec::new(),
            unshown_warnings: 0,
            last_line: 0,
            after_tn: false,
            names: Names,
            reducing: None,
            merged: false,
            restart: false,
            open: false,
        }
    }

    /// A parser for a block that this parser will take over ([`Parser::absorb`]): it stores
    /// its files with their functions open when this parser will reduce them.
    pub(super) fn for_block(origin: &'a str, open: bool) -> Parser<'a> {
        Parser {
            open,
            ..Parser::new(origin)
        }
    }

    /// True when this parser's files, and those of the blocks it takes over, are to be stored
    /// with their functions open (see [`Parser::for_block`]): it reduces them, and no path
    /// has come twice so far.
    pub(super) fn keeps_open(&self) -> bool {
        self.open && !self.merged
    }

    /// A parser that reduces each file to its verdict once it is read ([`Parser::checkpoint`]),
    /// unless `marked` says it may carry inline markers, and asks to be restarted when a later
    /// section of a reduced file comes ([`Parser::must_restart`]).
    pub(super) fn reducing(origin: &'a str, marked: &'a (dyn Fn(&str) -> bool + Sync)) -> Self {
        let mut parser = Parser::new(origin);
        parser.reducing = Some(Reducing {
            marked,
            done: 0,
            held: 0,
            branch_data: false,
            carried: (false, false),
            identities: Identities::default(),
        });
        parser.open = true;
        parser
    }

    /// True when a file reduced to its verdict was named again by a section with records: what
    /// it read cannot be merged, so the tracefile must be read again keeping every record.
    pub(super) fn must_restart(&self) -> bool {
        self.restart
    }

    /// Reduces to their verdict the files first read before the last checkpoint (those of the
    /// window before the one just taken over), when this parser reduces and no path has come
    /// twice so far. Called once the sections of a window are all taken over: a path that comes
    /// again in the same window or the next merges before anything of it is reduced, and from
    /// then on nothing is (a tracefile of shards keeps everything rather than be read again,
    /// unless its first shard is longer than two windows).
    pub(super) fn checkpoint(&mut self) {
        let held = self.files.len();
        let to = self
            .reducing
            .as_mut()
            .map_or(0, |r| std::mem::replace(&mut r.held, held));
        self.reduce_to(to);
    }

    /// Reduces the files not offered yet before position `to` in `files` (see
    /// [`Parser::checkpoint`]).
    fn reduce_to(&mut self, to: usize) {
        let Some(reducing) = self.reducing.as_mut() else {
            return;
        };
        let files = self.files.iter_mut().take(to).skip(reducing.done);
        if self.merged {
            // Nothing is reduced any more: the files stored open are packed as they would
            // have been.
            files.for_each(|(_, file, _)| file.compact());
            reducing.done = reducing.done.max(to);
            return;
        }
        for (path, file, _) in files {
            // No `DA` records are pending: they are only where sections merged, and then
            // nothing is reduced.
            if (reducing.marked)(path) {
                file.compact();
                continue;
            }
            reducing.branch_data |= !file.branches().is_empty();
            let (functions, lines) = file.carries();
            reducing.carried.0 |= functions;
            reducing.carried.1 |= lines;
            file.reduce(&mut reducing.identities);
        }
        reducing.done = to;
    }

    fn warn(&mut self, line: u64, message: impl std::fmt::Display) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings
                .push(format!("{}:{line}: {message}", self.origin));
        } else {
            self.unshown_warnings += 1;
        }
    }

    /// Handles one physical line as bytes: checks its length and encoding, then parses it.
    fn raw_line(&mut self, number: u64, raw: &[u8]) -> Result<()> {
        self.check_length(number, raw.len())?;
        let text = String::from_utf8_lossy(raw);
        if matches!(text, std::borrow::Cow::Owned(_)) {
            self.warn(
                number,
                "bytes that are not UTF-8 replaced with U+FFFD (paths differing only there merge)",
            );
        }
        self.line(number, &text)
    }

    /// Parses whole lines (`bytes`, the first being line `first`) one after the other and
    /// returns the number of line breaks passed.
    pub(super) fn feed(&mut self, first: u64, bytes: &[u8]) -> Result<u64> {
        let mut number = first;
        // Bytes that are UTF-8 as a whole need no check per line (lines split at an ASCII byte).
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                let mut at = 0;
                loop {
                    let rest = bytes.get(at..).unwrap_or_default();
                    // A plain `DA` line, read with its line break (see `da_line`).
                    if let Some((Record::Da { line, count }, len)) = da_line(rest) {
                        self.last_line = number;
                        // In a section, straight to it (the record's work, without its match).
                        match self.section.as_mut() {
                            Some(section) => section.da(line, count),
                            None => self.record(number, Record::Da { line, count })?,
                        }
                        (at, number) = (at + len, number + 1);
                        continue;
                    }
                    // An `FNDA` line of the name expected, straight to its section.
                    if let Some(len) = self.fnda_line(rest) {
                        self.last_line = number;
                        (at, number) = (at + len, number + 1);
                        continue;
                    }
                    let end = memchr::memchr(b'\n', rest).map_or(bytes.len(), |i| at + i);
                    // The line ends before a `\n` (ASCII) or at the end: the get succeeds.
                    let line = text.get(at..end).unwrap_or_default();
                    self.check_length(number, line.len())?;
                    if !self.fn_line(number, line) {
                        self.line(number, line)?;
                    }
                    number += 1;
                    if end == bytes.len() {
                        break;
                    }
                    at = end + 1;
                }
            }
            Err(_) => {
                for range in line_ranges(bytes) {
                    self.raw_line(number, bytes.get(range).unwrap_or_default())?;
                    number += 1;
                }
            }
        }
        // There is one line more than there are line breaks.
        Ok(number - first - 1)
    }

    /// A plain `FNDA` line at the start of `bytes` in an open section, of the name its section
    /// expects ([`Section::fnda_line`]), no longer than [`MAX_LINE`]: applied, and its length
    /// with its line break given.
    fn fnda_line(&mut self, bytes: &[u8]) -> Option<usize> {
        let section = self.section.as_mut()?;
        // Longer lines go the general way, which refuses them.
        let bytes = bytes.get(..MAX_LINE + 1).unwrap_or(bytes);
        section.fnda_line(bytes)
    }

    /// A plain `FN` line (`text`, line `number`) in an open section ([`fn_line`]): applied, as
    /// [`Parser::line`] would apply it, without its trimming and the record's match. False,
    /// with nothing done, for any other line.
    fn fn_line(&mut self, number: u64, text: &str) -> bool {
        let Some(section) = self.section.as_mut() else {
            return false;
        };
        let Some((start, name)) = fn_line(text) else {
            return false;
        };
        self.last_line = number;
        section.fn_record(start, name, &mut self.names);
        true
    }

    /// A line of `len` bytes is longer than [`MAX_LINE`]: an error.
    pub(super) fn check_length(&self, number: u64, len: usize) -> Result<()> {
        if len > MAX_LINE {
            return Err(self.error(
                number,
                format!(
                    "the line is longer than {MAX_LINE} bytes (16 MiB), the longest LCOV line \
                     covgate reads; this is not a usable tracefile"
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn error(&self, line: u64, message: impl std::fmt::Display) -> Error {
        Error::at(self.origin, line, None, message)
    }

    /// Handles one physical line (1-based `number`).
    fn line(&mut self, number: u64, text: &str) -> Result<()> {
        let text = trimmed(text);
        if text.is_empty() || text.starts_with('#') {
            return Ok(());
        }
        self.last_line = number;
        let rest = self.glued_end_of_records(number, text)?;
        if rest.is_empty() {
            return Ok(());
        }
        let record = lex(rest).map_err(|m| self.error(number, m))?;
        self.record(number, record)
    }

    /// Closes one section per leading `end_of_record` and returns what follows them: empty, or a
    /// known record glued on (split, with a warning). Anything else glued on is an error.
    fn glued_end_of_records<'t>(&mut self, number: u64, text: &'t str) -> Result<&'t str> {
        let mut rest = text;
        let mut closed = false;
        while let Some(after) = rest.strip_prefix(END_OF_RECORD) {
            self.end_of_record(number);
            closed = true;
            rest = after.trim_start();
        }
        if !closed || rest.is_empty() {
            return Ok(rest);
        }
        let tag = split_at(rest, b':').map(|(tag, _)| tag);
        if tag.is_some_and(|t| KNOWN_TAGS.contains(&t)) {
            self.warn(
                number,
                "`end_of_record` glued to the next record (a missing newline, e.g. from `cat`); split into two lines",
            );
            Ok(rest)
        } else {
            Err(self.error(
                number,
                format!("unexpected text `{}` after `end_of_record`; expected a line break before the next record", clip(rest)),
            ))
        }
    }

    fn end_of_record(&mut self, number: u64) {
        match self.section.take() {
            Some(section) => self.store(section),
            None => self.warn(number, "`end_of_record` outside an `SF` section ignored"),
        }
    }

    fn store(&mut self, section: Section) {
        let (path, file, warnings) = section.close();
        for (line, message) in warnings {
            self.warn(line, message);
        }
        self.store_file(path, Box::new(file), Vec::new());
    }

    /// Merges `file` (with `more_lines`, `DA` records of further sections) into the file of
    /// `path`, or adds it as a new file.
    ///
    /// A section that repeats the file's declared totals over the same items, covered alike,
    /// merges whole and keeps them (see [`LcovFile::merge`]); any other leaves its `DA` records
    /// pending and drops them.
    fn store_file(
        &mut self,
        path: String,
        mut file: Box<LcovFile>,
        mut more_lines: Vec<(u32, u64)>,
    ) {
        let hash = self.index.hash(path.as_str());
        let files = &self.files;
        let found = self
            .index
            .find(hash, &|at| files.get(at).is_some_and(|f| f.0 == path));
        match found.and_then(|i| self.files.get_mut(i)) {
            // A section without records names the file again and adds nothing (no declared
            // totals dropped).
            // A section cut short marks the file so (`LcovFile::is_cut_short`).
            Some((_, existing, pending)) if !file.has_records() => {
                existing.cut_short_if(file.is_cut_short());
                pending.append(&mut more_lines);
            }
            // Records after sections without any: they are the file's first.
            Some((_, existing, pending)) if !existing.has_records() => {
                let cut = existing.is_cut_short();
                *existing = file;
                existing.cut_short_if(cut);
                pending.append(&mut more_lines);
            }
            // Records of a file reduced already: it cannot merge them.
            Some((_, existing, _)) if existing.is_reduced() => self.restart = true,
            Some((_, existing, pending)) => {
                self.merged = true;
                // Unpacked once here, not once per comparison and again by the merge.
                file.functions.unpack();
                // A file with pending records has no declared totals left (they were dropped
                // when the records were set aside), so either side's pending records make
                // `repeated` false.
                let repeated = existing.declared != DeclaredTotals::default()
                    && existing.declared == file.declared
                    && existing.same_shape(&file);
                // The bound the two sides' totals set on the merge (see `LcovFile::merge`).
                let bound = existing.declared.merged(&file.declared);
                if !repeated {
                    // Checked while the totals and the records are still together.
                    existing.conflict |= existing.unreproducible() | file.unreproducible();
                    pending.append(&mut std::mem::take(&mut file.lines).unpack());
                    pending.append(&mut more_lines);
                    file.declared = DeclaredTotals::default();
                    existing.declared = DeclaredTotals::default();
                }
                existing.merge_section(*file);
                if !repeated {
                    existing.declared = bound;
                }
            }
            None => {
                // Kept without its indexes until another section of it comes, if one does;
                // its functions packed, unless it is to be reduced soon.
                if self.keeps_open() {
                    file.unindexed();
                } else {
                    file.compact();
                }
                self.index.insert(hash, self.files.len());
                self.files.push((path, file, more_lines));
            }
        }
    }

    fn record(&mut self, number: u64, record: Record<'_>) -> Result<()> {
        match record {
            Record::Ignored => {
                // llvm-cov writes no `TN`/`VER`: the section is not its (see [`Order`]).
                match self.section.as_mut() {
                    Some(section) => section.order.note(STAGE_FOREIGN),
                    None => self.after_tn = true,
                }
                Ok(())
            }
            Record::Unknown(tag) => {
                self.warn(
                    number,
                    format!("unknown record type `{}` skipped", clip(tag)),
                );
                Ok(())
            }
            Record::Sf(path) => {
                if let Some(open) = self.section.take() {
                    // The section before may be cut short (`cat` of a truncated tracefile and
                    // another): counted as one cut short at the end of input is.
                    self.ignore(open, number, |path| {
                        format!(
                            "`SF` before the `end_of_record` of `{path}`: its section is ignored (a tracefile cut short, then another appended?)"
                        )
                    });
                }
                let mut section = Section::new(path);
                if std::mem::take(&mut self.after_tn) {
                    section.order.note(STAGE_FOREIGN);
                }
                self.section = Some(section);
                Ok(())
            }
            data => {
                let Some(section) = self.section.as_mut() else {
                    return Err(self.error(
                        number,
                        "record outside an `SF` section; expected `SF:<path>` before it",
                    ));
                };
                let applied = apply(section, number, data, &mut self.names);
                applied.map_err(|message| self.error(number, message))
            }
        }
    }

    /// Takes over what a parser of the next block found: its files (merged in order), its
    /// warnings (up to the limit), its open section and last record line. No section is open
    /// here when the next block starts (blocks end with `end_of_record`).
    pub(super) fn absorb(&mut self, next: Parser<'a>) {
        for (path, file, more_lines) in next.files {
            self.store_file(path, file, more_lines);
        }
        for warning in next.warnings {
            if self.warnings.len() < MAX_WARNINGS {
                self.warnings.push(warning);
            } else {
                self.unshown_warnings += 1;
            }
        }
        self.unshown_warnings += next.unshown_warnings;
        self.merged |= next.merged;
        self.section = next.section;
        self.last_line = self.last_line.max(next.last_line);
    }

    /// True when no section is open and the next one starts as in a new parser (no `TN` or
    /// `VER` before it): lines from here on parse as a new parser would parse them.
    pub(super) fn between_sections(&self) -> bool {
        self.section.is_none() && !self.after_tn
    }

    /// Drops a section that no `end_of_record` closed, at line `number`: a section cut short
    /// (a truncated tracefile, at its end or followed by another) is no evidence, so its
    /// records are dropped with the warning `why(path)` and the file is named as cut short
    /// ([`LcovFile::is_cut_short`]): unmeasured, whatever other sections or reports hold of it
    /// (the records dropped may list items no other section lists).
    fn ignore(&mut self, open: Section, number: u64, why: impl Fn(&str) -> String) {
        let (path, _, warnings) = open.close();
        for (line, message) in warnings {
            self.warn(line, message);
        }
        self.warn(number, why(&clip(&path)));
        let mut file = Box::<LcovFile>::default();
        file.extra_mut().cut = true;
        self.store_file(path, file, Vec::new());
    }

    pub(super) fn finish(mut self) -> Result<(Report, Vec<String>)> {
        if let Some(open) = self.section.take() {
            self.ignore(open, self.last_line, |path| {
                format!(
                    "missing final `end_of_record` for `{path}`: its section is ignored (the tracefile may be cut short)"
                )
            });
        }
        if self.unshown_warnings > 0 {
            self.warnings.push(format!(
                "{}: {} more warning(s) not shown",
                self.origin, self.unshown_warnings
            ));
        }
        if self.files.is_empty() {
            return Err(Error::new(format!(
                "{}: no `SF:` record: the LCOV tracefile is empty or not a tracefile; produce it with `cargo llvm-cov --lcov --output-path FILE`",
                self.origin
            )));
        }
        self.reduce_to(self.files.len());
        let reduced_branches = self.reducing.as_ref().is_some_and(|r| r.branch_data);
        let has_branch_data =
            reduced_branches || self.files.iter().any(|(_, f, _)| !f.branches().is_empty());
        let reduced = self.reducing.as_ref().map_or((false, false), |r| r.carried);
        let has_function_data = reduced.0 || self.files.iter().any(|(_, f, _)| f.carries().0);
        let has_line_data = reduced.1 || self.files.iter().any(|(_, f, _)| f.carries().1);
        let mut files: Vec<FileData> = self
            .files
            .into_iter()
            .map(|(path, mut file, mut more_lines)| {
                if !more_lines.is_empty() {
                    more_lines.extend(file.lines.iter());
                    file.lines = Lines::pack(sorted_lines(more_lines));
                    file.closed = Default::default();
                }
                file.compact();
                FileData {
                    path,
                    coverage: FileCoverage::Lcov(file),
                }
            })
            .collect();
        // The vector was grown by doubling: without the room for more, the check keeps it.
        files.shrink_to_fit();
        let report = Report {
            origin: self.origin.to_string(),
            kind: ReportKind::Lcov,
            manifest_path: None,
            has_branch_data,
            has_mcdc_data: false,
            has_function_data,
            has_line_data,
            files,
            warnings: self.warnings.clone(),
        };
        Ok((report, self.warnings))
    }
}
