//! Numbers as llvm-cov prints them: counts may be written `7`, `0.0` or `1.8446744073709552e19`.
//!
//! Two kinds of count: an *execution* count ([`Count`]) only says how often code ran, so a value
//! beyond `u64::MAX` (a re-serialiser's float, a saturated counter) is clamped and still means
//! "ran"; a *summary* count ([`ExactCount`]) is a number of items, which no export can hold more
//! than `u64::MAX` of, so a larger value is an error rather than a clamp that could make `covered`
//! and `count` look equal.

use serde::de::{self, Deserialize, Deserializer, Expected, SeqAccess, Unexpected};
use serde_json::value::RawValue;

/// A non-negative integral JSON number (integer or integral float), clamped to `u64::MAX`.
///
/// Negative, fractional and non-numeric values are rejected. Whether a number is whole is read
/// from its text ([`written`]), never from the float it rounds to: `0.99999999999999999` is a
/// fraction, though it is `1.0` as an `f64`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Count(pub u64);

/// What a [`Count`] must be, as its errors say.
const COUNT: &str = "a non-negative whole number";

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Count, D::Error> {
        let text = <&RawValue>::deserialize(deserializer)?.get();
        match number(text, &COUNT)? {
            (Written::Whole(value), _) => Ok(Count(value)),
            (Written::Huge, _) => Ok(Count(u64::MAX)),
            (Written::Other, float) => Err(rejected(text, float, &COUNT)),
        }
    }
}

/// A non-negative integral JSON number up to `u64::MAX`: the item counts of a `summary`. Larger
/// values are rejected, never clamped. A count written as a float (`7.0`, as some re-serialisers
/// write numbers) must be below 2^53, where every integer has its own float: above it, two
/// different counts could read as one to a reader that rounds (`covered` and `count` would then
/// look equal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ExactCount(pub u64);

/// 2^53: below it, a float holds every integer exactly.
const TWO_POW_53: u64 = 1 << 53;

/// What an [`ExactCount`] must be, as its errors say.
const EXACT_COUNT: &str = "a non-negative whole number of items, at most 18446744073709551615 \
                           (written as a float: below 2^53)";

impl<'de> Deserialize<'de> for ExactCount {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ExactCount, D::Error> {
        let text = <&RawValue>::deserialize(deserializer)?.get();
        match number(text, &EXACT_COUNT)? {
            (Written::Whole(value), float) if !float || value < TWO_POW_53 => Ok(ExactCount(value)),
            (_, float) => Err(rejected(text, float, &EXACT_COUNT)),
        }
    }
}

/// What the text of a JSON number says, read without rounding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Written {
    /// A whole number up to `u64::MAX` (zero in any spelling, `-0.0e9` included).
    Whole(u64),
    /// A whole number above `u64::MAX`.
    Huge,
    /// A negative number other than zero, or one with a fractional part.
    Other,
}

/// The JSON value `text` (as the parser found it: valid JSON, without blank space around it) as
/// a number: what it says and whether it is written as a float (with a fraction or an
/// exponent). Any other value is an error of type, worded as serde words one.
fn number<E: de::Error>(text: &str, expected: &dyn Expected) -> Result<(Written, bool), E> {
    let unexpected = match text.as_bytes().first() {
        Some(b'"') => {
            let string: String = serde_json::from_str(text).unwrap_or_default();
            return Err(E::invalid_type(Unexpected::Str(&string), expected));
        }
        Some(b't') => Unexpected::Bool(true),
        Some(b'f') => Unexpected::Bool(false),
        Some(b'n') => Unexpected::Unit,
        Some(b'[') => Unexpected::Seq,
        Some(b'{') => Unexpected::Map,
        _ => return Ok((written(text), text.contains(['.', 'e', 'E']))),
    };
    Err(E::invalid_type(unexpected, expected))
}

/// The error for a number that is not the count `expected`: the number is quoted as written.
fn rejected<E: de::Error>(text: &str, float: bool, expected: &dyn Expected) -> E {
    let kind = if float { "floating point" } else { "integer" };
    E::invalid_value(Unexpected::Other(&format!("{kind} `{text}`")), expected)
}

/// The largest power of ten an exponent is taken to mean: a larger one makes any non-zero
/// number huge (or a fraction) all the same, and cannot overflow the sums below.
const MAX_EXPONENT: i64 = 1 << 40;

/// What the JSON number `text` is (`-`, digits, an optional fraction, an optional exponent),
/// decided from its digits and exponent: its significant digits, and the power of ten after
/// the last of them.
fn written(text: &str) -> Written {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = unsigned.split_once(['e', 'E']).unwrap_or((unsigned, "0"));
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: Vec<u8> = whole.bytes().chain(fraction.bytes()).collect();
    let Some(first) = digits.iter().position(|&d| d != b'0') else {
        return Written::Whole(0);
    };
    let last = digits.iter().rposition(|&d| d != b'0').unwrap_or(first);
    let significant = digits.get(first..=last).unwrap_or_default();
    let zeros = i64::try_from(digits.len() - 1 - last).unwrap_or(MAX_EXPONENT);
    let places = i64::try_from(fraction.len()).unwrap_or(MAX_EXPONENT);
    let scale = power(exponent) + zeros - places;
    if negative || scale < 0 {
        return Written::Other;
    }
    let length = i64::try_from(significant.len()).unwrap_or(MAX_EXPONENT);
    if length + scale > 20 {
        // At least 10^20, above u64::MAX.
        return Written::Huge;
    }
    // At most 20 digits: the significant ones, then `scale` zeros.
    let zeros = std::iter::repeat_n(&b'0', usize::try_from(scale).unwrap_or_default());
    let value = significant.iter().chain(zeros).try_fold(0u64, |n, &d| {
        n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
    });
    value.map_or(Written::Huge, Written::Whole)
}

/// The value of an exponent's text (`+7`, `-3`, `12`), kept within [`MAX_EXPONENT`].
fn power(text: &str) -> i64 {
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, text.strip_prefix('+').unwrap_or(text)),
    };
    let magnitude = digits.bytes().fold(0i64, |n, d| {
        (n * 10 + i64::from(d - b'0')).min(MAX_EXPONENT)
    });
    sign * magnitude
}

/// Reads element `index` of a positional array (a region, branch …) as a count.
///
/// `shape` names the array's layout for the error message when the element is missing.
pub(super) fn next_count<'de, A: SeqAccess<'de>>(
    seq: &mut A,
    index: usize,
    shape: &'static str,
) -> Result<u64, A::Error> {
    match seq.next_element::<Count>()? {
        Some(Count(value)) => Ok(value),
        None => Err(de::Error::invalid_length(index, &shape)),
    }
}

/// Reads element `index` of a positional array as a line, column, file id or kind (`u32`).
pub(super) fn next_u32<'de, A: SeqAccess<'de>>(
    seq: &mut A,
    index: usize,
    shape: &'static str,
) -> Result<u32, A::Error> {
    let value = next_count(seq, index, shape)?;
    u32::try_from(value).map_err(|_| {
        de::Error::custom(format_args!(
            "element {index} of {shape} is {value}, above the largest line, column or id ({})",
            u32::MAX
        ))
    })
}

/// Skips any further elements of a positional array (later LLVM versions may append fields).
pub(super) fn skip_rest<'de, A: SeqAccess<'de>>(seq: &mut A) -> Result<(), A::Error> {
    while seq.next_element::<de::IgnoredAny>()?.is_some() {}
    Ok(())
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<u64, String> {
        serde_json::from_str::<Count>(text)
            .map(|c| c.0)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn integers_and_integral_floats() {
        assert_eq!(parse("0"), Ok(0));
        assert_eq!(parse("42"), Ok(42));
        assert_eq!(parse("0.0"), Ok(0));
        assert_eq!(parse("-0.0"), Ok(0));
        assert_eq!(parse("3.0e2"), Ok(300));
        assert_eq!(parse("18446744073709551615"), Ok(u64::MAX));
    }

    #[test]
    fn huge_values_clamp() {
        assert_eq!(parse("1.8446744073709552e19"), Ok(u64::MAX));
        assert_eq!(parse("1e300"), Ok(u64::MAX));
        assert_eq!(parse("99999999999999999999999"), Ok(u64::MAX));
    }

    #[test]
    fn wholeness_is_read_from_the_text() {
        // Whole floats, as re-serialisers write counts, are the numbers they spell.
        for (text, value) in [
            ("7.0", 7),
            ("7.000", 7),
            ("1e3", 1000),
            ("1.5e1", 15),
            ("70E-1", 7),
            ("1E+2", 100),
            ("0.0005e4", 5),
            ("-0", 0),
            ("-0.0e-999999999999999999999", 0),
            ("0e99999999999999999999", 0),
            ("9007199254740993.0", 9_007_199_254_740_993),
            ("1844674407370955161.5e1", u64::MAX),
        ] {
            assert_eq!(written(text), Written::Whole(value), "{text}");
        }
        // Not whole, though each is a whole number as an f64.
        for text in [
            "0.99999999999999999",
            "1.00000000000000001",
            "5e-324",
            "1e-400",
            "123456789012345678901234567890.5",
            "1e-99999999999999999999999",
            "-1",
            "-1e-400",
            "-0.5",
        ] {
            assert_eq!(written(text), Written::Other, "{text}");
        }
        for text in [
            "18446744073709551616",
            "99999999999999999999",
            "1e20",
            "1.8446744073709552e19",
            "1e99999999999999999999999",
            "123456789012345678901234567890",
        ] {
            assert_eq!(written(text), Written::Huge, "{text}");
        }
        assert_eq!(power("+7"), 7);
        assert_eq!(power("-3"), -3);
        assert_eq!(power("99999999999999999999"), MAX_EXPONENT);
    }

    /// `text` as the value of `{"c":…}`: an error is located by the object around the value,
    /// here after its `}` (the parser has read the count whole before it is judged).
    fn in_object(text: &str) -> Result<u64, String> {
        #[derive(Debug, serde::Deserialize)]
        struct Object {
            c: Count,
        }
        serde_json::from_str::<Object>(&format!("{{\"c\":{text}}}"))
            .map(|o| o.c.0)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn fractions_are_quoted_as_written() {
        for text in ["0.99999999999999999", "1.00000000000000001", "5e-324"] {
            assert_eq!(
                in_object(text).expect_err(text),
                format!(
                    "invalid value: floating point `{text}`, expected a non-negative whole number \
                     at line 1 column {}",
                    text.len() + 6
                )
            );
            let err = parse(text).expect_err(text);
            assert!(err.starts_with("invalid value: floating point `"), "{err}");
            assert!(exact(text).is_err(), "{text}");
        }
        assert_eq!(
            in_object("-1").expect_err("-1"),
            "invalid value: integer `-1`, expected a non-negative whole number at line 1 column 8"
        );
        assert_eq!(
            in_object("\"1\"").expect_err("string"),
            "invalid type: string \"1\", expected a non-negative whole number at line 1 column 9"
        );
        assert_eq!(in_object(" 1.0 "), Ok(1));
    }

    fn exact(text: &str) -> Result<u64, String> {
        serde_json::from_str::<ExactCount>(text)
            .map(|c| c.0)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn exact_counts_stop_at_u64_max() {
        assert_eq!(exact("0"), Ok(0));
        assert_eq!(exact("7.0"), Ok(7));
        assert_eq!(exact("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(exact("4294967296.0"), Ok(4_294_967_296));
        // Integers are exact up to u64::MAX; floats only below 2^53.
        assert_eq!(exact("9007199254740993"), Ok(9_007_199_254_740_993));
        for bad in [
            "18446744073709551616",
            "1.8446744073709552e19",
            "9007199254740992.0",
            "9.007199254740992e15",
            "1e16",
            "1e30",
            "-1",
            "0.5",
            "\"1\"",
            "null",
        ] {
            let err = exact(bad).expect_err(bad);
            assert!(err.contains("at most 18446744073709551615"), "{bad}: {err}");
        }
    }

    #[test]
    fn rejects_negative_fractional_and_non_numbers() {
        for bad in [
            "-1",
            "-1.0",
            "0.5",
            "1e-3",
            "\"1\"",
            "\"\\u00e9\"",
            "true",
            "false",
            "null",
            "[]",
            "{}",
        ] {
            let err = parse(bad).expect_err(bad);
            assert!(err.contains("non-negative whole number"), "{bad}: {err}");
        }
    }
}
