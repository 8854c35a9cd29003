//! Numbers as llvm-cov prints them: counts may be written `7`, `0.0` or `1.8446744073709552e19`.

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

    #[test]
    fn rejects_negative_fractional_and_non_numbers() {
        for bad in ["-1", "-1.0", "0.5", "1e-3", "\"1\"", "true", "null", "[]"] {
            let err = parse(bad).expect_err(bad);
            assert!(err.contains("non-negative whole number"), "{bad}: {err}");
        }
    }
}
