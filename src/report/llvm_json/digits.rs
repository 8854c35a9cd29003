//! Numbers and flat arrays for the fast lane ([`super::lane`]), read from bytes.
//!
//! Most numbers of an export are short unsigned integers (the positions, counts and file ids of
//! regions, the entries of `segments`): they are read by a byte loop, which measured faster than
//! reading eight bytes at a time (SWAR) for runs of one to three digits. What is accepted is the
//! lane's subset of JSON, and nothing else: an unsigned integer is `0` or digits without a
//! leading zero (at most 19 when it is valued, so that it fits `u64`); a flat array holds such
//! integers and `true`, `false`, `null`, without blank space.

/// The unsigned integer at `bytes[at..]` and its length in digits: at most 19 digits (so it
/// cannot overflow), no leading zero; `None` when there is no digit, a leading zero, or more
/// than 19 digits. What follows the digits is the caller's to check.
#[inline(always)]
pub(super) fn uint_at(bytes: &[u8], at: usize) -> Option<(u64, usize)> {
    let first = bytes.get(at)?.wrapping_sub(b'0');
    if first > 9 {
        return None;
    }
    let mut end = at + 1;
    if first == 0 {
        // A `0` stands alone.
        let leading_zero = bytes.get(end).is_some_and(u8::is_ascii_digit);
        return (!leading_zero).then_some((0, 1));
    }
    // Most numbers are short: a byte loop (a word at a time costs more for one to three digits).
    let mut value = u64::from(first);
    while let Some(&byte) = bytes.get(end) {
        let digit = byte.wrapping_sub(b'0');
        if digit > 9 {
            break;
        }
        value = value.wrapping_mul(10).wrapping_add(u64::from(digit));
        end += 1;
    }
    let len = end - at;
    (len <= 19).then_some((value, len))
}

/// `N` unsigned integers as `[a,b,…]` without blank space (regions and branches) at the start
/// of `bytes`, and the array's length; `None` for anything else.
///
/// Read through one slice iterator (a pointer and its end), each number with the byte after
/// it: reading each byte by its offset (`uint_at`) took a third more instructions here, the
/// lane's hottest loop.
#[inline(always)]
pub(super) fn packed<const N: usize>(bytes: &[u8]) -> Option<([u64; N], usize)> {
    let mut rest = bytes.strip_prefix(b"[")?.iter();
    let mut values = [0; N];
    for (index, value) in values.iter_mut().enumerate() {
        let (number, after) = uint_then(&mut rest)?;
        let separator = if index + 1 == N { b']' } else { b',' };
        if after != separator {
            return None;
        }
        *value = number;
    }
    Some((values, bytes.len() - rest.as_slice().len()))
}

/// The unsigned integer at the start of `rest` (as [`uint_at`] reads it) and the byte after
/// it, both consumed; `None` when there is no digit, more than 19, or no byte after them. A
/// leading zero gives `0` and the digit after it, which no caller takes for a separator.
#[inline(always)]
fn uint_then(rest: &mut std::slice::Iter<'_, u8>) -> Option<(u64, u8)> {
    let first = rest.next()?.wrapping_sub(b'0');
    if first > 9 {
        return None;
    }
    let mut after = *rest.next()?;
    if first == 0 {
        return Some((0, after));
    }
    let mut value = u64::from(first);
    let mut digits = 1;
    loop {
        let digit = after.wrapping_sub(b'0');
        if digit > 9 {
            break;
        }
        value = value.wrapping_mul(10).wrapping_add(u64::from(digit));
        digits += 1;
        after = *rest.next()?;
    }
    (digits <= 19).then_some((value, after))
}

/// The length of the flat array at the start of `bytes`: unsigned integers (of any length) and
/// literals, without blank space (a `segments` entry); `None` for anything else.
pub(super) fn flat(bytes: &[u8]) -> Option<usize> {
    let mut rest = bytes.strip_prefix(b"[")?.iter();
    if rest.as_slice().first() == Some(&b']') {
        return Some(2);
    }
    loop {
        // Each value, then the byte after it, which must be `,` or `]`.
        let after = match *rest.next()? {
            // A `0` stands alone: a digit after it is refused below.
            b'0' => *rest.next()?,
            b'1'..=b'9' => loop {
                let byte = *rest.next()?;
                if !byte.is_ascii_digit() {
                    break byte;
                }
            },
            b't' => word_then(&mut rest, b"rue")?,
            b'f' => word_then(&mut rest, b"alse")?,
            b'n' => word_then(&mut rest, b"ull")?,
            _ => return None,
        };
        match after {
            b',' => {}
            b']' => return Some(bytes.len() - rest.as_slice().len()),
            _ => return None,
        }
    }
}

/// After a literal's first letter: its other letters `word`, then the byte after them.
fn word_then(rest: &mut std::slice::Iter<'_, u8>, word: &[u8]) -> Option<u8> {
    let tail = rest.as_slice().strip_prefix(word)?;
    *rest = tail.iter();
    rest.next().copied()
}

/// The length of the array of flat arrays at the start of `bytes`, without blank space (a
/// whole `segments` array); `None` for anything else.
pub(super) fn flats(bytes: &[u8]) -> Option<usize> {
    if bytes.first() != Some(&b'[') {
        return None;
    }
    if bytes.get(1) == Some(&b']') {
        return Some(2);
    }
    let mut at = 1;
    loop {
        at += flat(bytes.get(at..).unwrap_or_default())?;
        match bytes.get(at)? {
            b',' => at += 1,
            b']' => return Some(at + 1),
            _ => return None,
        }
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "digits_tests.rs"]
mod tests;
