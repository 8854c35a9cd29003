//! Tests of the buffered input window.

use std::io::Read;

use super::*;

/// Every test reads through one type of input, the one of a regular file, so that one
/// instantiation of the window's generic code runs every path.
type Input = dyn Read + Send;

/// Gives `self.0`, then fails.
struct Failing(&'static [u8]);

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.0.is_empty() {
            return Err(std::io::Error::other("disk on fire"));
        }
        let n = self.0.len().min(buf.len());
        let (now, later) = self.0.split_at(n);
        buf[..n].copy_from_slice(now);
        self.0 = later;
        Ok(n)
    }
}

#[test]
fn a_window_reads_chunks_and_keeps_what_is_not_consumed() {
    let mut input: &[u8] = b"abcdefgh";
    let mut window = Window::new(&mut input as &mut Input, 3);
    assert_eq!(window.unread(), b"");
    assert!(window.more());
    assert_eq!(window.unread(), b"abc");
    window.consume(2);
    assert!(window.more());
    // At least a chunk more, or as much again as is unconsumed.
    assert_eq!(window.unread(), b"cdef");
    window.consume(100);
    assert_eq!(window.unread(), b"");
    assert!(!window.at_end());
    assert!(window.more());
    assert_eq!(window.unread(), b"gh");
    assert!(window.at_end());
    assert!(!window.more());
    assert!(window.take_error().is_none());
    // A chunk of 0 reads a byte at a time.
    let mut input: &[u8] = b"xy";
    let mut window = Window::new(&mut input as &mut Input, 0);
    assert!(window.more());
    assert_eq!(window.unread(), b"x");
}

#[test]
fn a_read_error_ends_the_window_and_is_kept() {
    let mut input = Failing(b"ab");
    let mut window = Window::new(&mut input as &mut Input, 2);
    assert!(window.more());
    assert!(!window.more());
    assert!(window.at_end());
    assert_eq!(window.unread(), b"ab");
    let e = window.take_error().expect("kept");
    assert_eq!(e.to_string(), "disk on fire");
    assert!(window.take_error().is_none());
}

#[test]
fn a_window_reads_as_a_stream() {
    let mut input: &[u8] = b"hello world";
    let mut window = Window::new(&mut input as &mut Input, 4);
    assert!(window.more());
    window.consume(1);
    let mut out = [0u8; 3];
    assert_eq!(window.read(&mut out).expect("reads"), 3);
    assert_eq!(&out, b"ell");
    let mut rest = String::new();
    window.read_to_string(&mut rest).expect("reads");
    assert_eq!(rest, "o world");
    // Past the window, the input is read straight into the caller's buffer; an empty buffer
    // reads nothing and is no end.
    let mut input: &[u8] = b"abc";
    let mut window = Window::new(&mut input as &mut Input, 1);
    assert!(window.more());
    window.consume(1);
    assert_eq!(window.read(&mut []).expect("reads"), 0);
    assert!(!window.at_end());
    let mut rest = Vec::new();
    window.read_to_end(&mut rest).expect("reads");
    assert_eq!(rest, b"bc");
    assert!(window.at_end());
    // A read error past the window is the stream's.
    let mut input = Failing(b"ab");
    let mut window = Window::new(&mut input as &mut Input, 1);
    assert!(window.more());
    window.consume(1);
    let mut rest = Vec::new();
    let e = window.read_to_end(&mut rest).expect_err("fails");
    assert_eq!(
        (rest.as_slice(), e.to_string().as_str()),
        (&b"b"[..], "disk on fire")
    );
    // A read error of the window itself comes after its bytes.
    let mut input = Failing(b"ab");
    let mut window = Window::new(&mut input as &mut Input, 8);
    assert!(window.more());
    let mut all = Vec::new();
    let e = window.read_to_end(&mut all).expect_err("fails");
    assert_eq!(
        (all.as_slice(), e.to_string().as_str()),
        (&b"ab"[..], "disk on fire")
    );
}

#[test]
fn the_first_byte_skips_a_byte_order_mark_and_blank_space() {
    let first = |text: &'static [u8], chunk: usize, limit: usize| {
        let mut input = text;
        let mut window = Window::new(&mut input as &mut Input, chunk);
        let got = window.first_byte(limit);
        // Nothing is consumed.
        let mut all = Vec::new();
        window.read_to_end(&mut all).expect("reads");
        assert_eq!(all, text);
        got
    };
    for chunk in [1, 2, 64] {
        assert_eq!(
            first(b"\xEF\xBB\xBF  \n{", chunk, 10).ok(),
            Some(Some(b'{'))
        );
        assert_eq!(first(b"\xEF\xBB{", chunk, 10).ok(), Some(Some(0xEF)));
        assert_eq!(first(b" \t\r\nSF:a", chunk, 10).ok(), Some(Some(b'S')));
        assert_eq!(first(b"", chunk, 10).ok(), Some(None));
        assert_eq!(first(b"\xEF\xBB\xBF \n", chunk, 10).ok(), Some(None));
        assert!(matches!(first(b"     x", chunk, 4), Err(FirstByte::Blank)));
        assert_eq!(first(b"    x", chunk, 4).ok(), Some(Some(b'x')));
    }
    let mut input = Failing(b"  ");
    let mut window = Window::new(&mut input as &mut Input, 1);
    match window.first_byte(10) {
        Err(FirstByte::Io(e)) => assert_eq!(e.to_string(), "disk on fire"),
        other => panic!("{other:?}"),
    }
}
