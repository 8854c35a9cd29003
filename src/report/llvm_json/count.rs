//! Numbers as llvm-cov prints them: counts may be written `7`, `0.0` or `1.8446744073709552e19`.
//!
//! Two kinds of count: an *execution* count ([`Count`]) only says how often code ran, so a value
//! beyond `u64::MAX` (a re-serialiser's float, a saturated counter) is clamped and still means
//! "ran"; a *summary* count ([`ExactCount`]) is a number of items, which no export can hold more
//! than `u64::MAX` of, so a larger value is an error rather than a clamp that could make `covered`
//! and `count` look equal.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Unexpected, Visitor};

/// A non-negative integral JSON number (integer or integral float), clamped to `u64::MAX`.
///
/// Negative, fractional and non-numeric values are rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Count(pub u64);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Count, D::Error> {
        deserializer.deserialize_any(CountVisitor)
    }
}

struct CountVisitor;

impl Visitor<'_> for CountVisitor {
    type Value = Count;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a non-negative whole number")
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Count, E> {
        Ok(Count(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Count, E> {
        u64::try_from(value)
            .map(Count)
            .map_err(|_| E::invalid_value(Unexpected::Signed(value), &self))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Count, E> {
        float_count(value).ok_or_else(|| E::invalid_value(Unexpected::Float(value), &self))
    }
}

/// A non-negative integral JSON number up to `u64::MAX`: the item counts of a `summary`. Larger
/// values are rejected, never clamped. A count written as a float (`7.0`, as some re-serialisers
/// write numbers) must be below 2^53, where every integer has its own float: above it, two
/// different counts can read as one (`covered` and `count` would then look equal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ExactCount(pub u64);

/// 2^53: below it, a float holds every integer exactly.
const TWO_POW_53: f64 = 9_007_199_254_740_992.0;

impl<'de> Deserialize<'de> for ExactCount {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ExactCount, D::Error> {
        deserializer.deserialize_any(ExactCountVisitor)
    }
}

struct ExactCountVisitor;

impl Visitor<'_> for ExactCountVisitor {
    type Value = ExactCount;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "a non-negative whole number of items, at most 18446744073709551615 \
             (written as a float: below 2^53)",
        )
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<ExactCount, E> {
        Ok(ExactCount(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<ExactCount, E> {
        u64::try_from(value)
            .map(ExactCount)
            .map_err(|_| E::invalid_value(Unexpected::Signed(value), &self))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<ExactCount, E> {
        float_count(value)
            .filter(|_| value < TWO_POW_53)
            .map(|c| ExactCount(c.0))
            .ok_or_else(|| E::invalid_value(Unexpected::Float(value), &self))
    }
}

/// An integral, finite, non-negative float as a count; `as` saturates at `u64::MAX`.
///
/// Infinities and NaN fail the `fract` test (their fractional part is NaN).
fn float_count(value: f64) -> Option<Count> {
    let integral = value.fract() == 0.0 && value >= 0.0;
    // Truncation cannot happen (the value is integral) and `as` saturates above u64::MAX.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    integral.then_some(Count(value as u64))
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
    fn non_finite_floats_are_not_counts() {
        // JSON cannot spell them, but the float rule must still reject them.
        for value in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN] {
            assert_eq!(float_count(value), None, "{value}");
        }
        assert_eq!(float_count(7.0), Some(Count(7)));
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
        for bad in ["-1", "-1.0", "0.5", "1e-3", "\"1\"", "true", "null", "[]"] {
            let err = parse(bad).expect_err(bad);
            assert!(err.contains("non-negative whole number"), "{bad}: {err}");
        }
    }
}
