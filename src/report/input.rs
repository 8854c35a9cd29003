//! The one buffered reader of report input: a window over a stream, filled a chunk at a time.
//!
//! Both formats read their input through a [`Window`]: the format is detected from its first
//! bytes ([`Window::first_byte`]) without consuming them, so the reader that takes over starts
//! at byte 0 (line and column numbers are those of the input); the LCOV reader then parses the
//! whole lines of each window, the JSON reader the elements of each window. Memory is one
//! window: a chunk, plus the unconsumed end of the previous one (an element or a line that a
//! chunk cut).
//!
//! Read errors are kept, not returned at once: the window then behaves as at the end of the
//! input, so a reader finishes what it has, and words the error with its own position
//! ([`Window::take_error`]).

use std::io::Read;

/// A window over `input`: `buf[pos..]` holds bytes read and not yet consumed.
///
/// `R` is the input's type, unsized: `dyn Read`, or `dyn Read + Send`.
pub(crate) struct Window<'i, R: ?Sized + Read = dyn Read> {
    input: &'i mut R,
    buf: Vec<u8>,
    pos: usize,
    /// True once the input has ended (or failed).
    eof: bool,
    /// The input's read error, if any: the window then stops as at the end.
    failed: Option<std::io::Error>,
    /// Bytes read at a time.
    chunk: usize,
}

impl<'i, R: ?Sized + Read> Window<'i, R> {
    /// An empty window over `input` that reads `chunk` bytes at a time (at least one).
    pub(crate) fn new(input: &'i mut R, chunk: usize) -> Window<'i, R> {
        Window {
            input,
            buf: Vec::new(),
            pos: 0,
            eof: false,
            failed: None,
            chunk: chunk.max(1),
        }
    }

    /// Reads `chunk` bytes at a time (at least one) from now on.
    pub(crate) fn set_chunk(&mut self, chunk: usize) {
        self.chunk = chunk.max(1);
    }

    /// The bytes read and not yet consumed.
    pub(crate) fn unread(&self) -> &[u8] {
        self.buf.get(self.pos..).unwrap_or_default()
    }

    /// Consumes the first `n` bytes of [`unread`](Self::unread) (all of them when `n` is larger).
    pub(crate) fn consume(&mut self, n: usize) {
        self.pos = self.pos.saturating_add(n).min(self.buf.len());
    }

    /// True once the input has ended or failed: [`more`](Self::more) adds nothing any more.
    pub(crate) fn at_end(&self) -> bool {
        self.eof
    }

    /// The input's read error, once (the window stopped there as at the end).
    pub(crate) fn take_error(&mut self) -> Option<std::io::Error> {
        self.failed.take()
    }

    /// Drops the consumed bytes and reads at least a chunk more (or as much again as is
    /// unconsumed, so that an element larger than a chunk is read in a few steps). False when
    /// nothing was added: the input has ended or failed.
    pub(crate) fn more(&mut self) -> bool {
        let unread = self.buf.len().saturating_sub(self.pos);
        self.buf.drain(..self.pos);
        self.pos = 0;
        if self.eof {
            return false;
        }
        let want = self.chunk.max(unread);
        let read = (&mut *self.input)
            .take(want as u64)
            .read_to_end(&mut self.buf);
        // Bytes read before an error are kept (and parsed before the error is reported).
        let got = self.buf.len() - unread;
        match read {
            Ok(_) => self.eof = got < want,
            Err(err) => self.fail(err),
        }
        got > 0
    }

    /// Keeps a read error and stops reading.
    fn fail(&mut self, err: std::io::Error) {
        self.failed = Some(err);
        self.eof = true;
    }

    /// The first byte of a report that is not part of a byte-order mark or ASCII blank space,
    /// `None` for an empty or blank input; nothing is consumed. (Part of a byte-order mark is
    /// text: its first byte is the answer.) Errors when more than `limit` bytes of blank space
    /// come first, or on a read error.
    pub(crate) fn first_byte(&mut self, limit: usize) -> Result<Option<u8>, FirstByte> {
        while self.unread().len() < BOM.len() && self.more() {}
        let skip = if self.unread().starts_with(BOM) {
            BOM.len()
        } else {
            0
        };
        let mut at = skip;
        loop {
            let blank = self.unread().get(at..).unwrap_or_default();
            let run = blank.iter().take_while(|b| b.is_ascii_whitespace()).count();
            at += run;
            if at - skip > limit {
                return Err(FirstByte::Blank);
            }
            if let Some(&byte) = self.unread().get(at) {
                return Ok(Some(byte));
            }
            if !self.more() {
                return self
                    .take_error()
                    .map_or(Ok(None), |e| Err(FirstByte::Io(e)));
            }
        }
    }
}

/// Why [`Window::first_byte`] found no first byte.
#[derive(Debug)]
pub(crate) enum FirstByte {
    /// More blank space than the limit.
    Blank,
    /// The input could not be read.
    Io(std::io::Error),
}

/// A UTF-8 byte-order mark.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The window read as a stream: its unconsumed bytes, then the
/// rest of the input, read straight into the caller's buffer (not copied through the window).
/// For a reader that takes a plain `Read` after the format was detected.
impl<R: ?Sized + Read> Read for Window<'_, R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.unread().is_empty() {
            if self.eof {
                return self.take_error().map_or(Ok(0), Err);
            }
            let n = self.input.read(out)?;
            // A read into an empty buffer gives 0 and says nothing of the end.
            self.eof = n == 0 && !out.is_empty();
            return Ok(n);
        }
        let n = self.unread().len().min(out.len());
        let from = self.unread().get(..n).unwrap_or_default();
        out.iter_mut().zip(from).for_each(|(to, b)| *to = *b);
        self.consume(n);
        Ok(n)
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "input_tests.rs"]
mod tests;
