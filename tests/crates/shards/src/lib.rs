//! Code whose coverage comes from tests in several partitions: each test name carries its half
//! (`h1`, `h2`) and its third (`x1`, `x2`, `x3`), so `cargo test h1` runs one of two partitions.
#![cfg_attr(coverage_nightly, feature(coverage_attribute))]

pub mod shapes;

/// Rounds to whole cents; refuses negative amounts.
pub fn cents(amount: f64) -> Result<u64, String> {
    if amount < 0.0 {
        return Err(format!("negative amount {amount}"));
    }
    Ok((amount * 100.0).round() as u64)
}

/// The larger of two values (a generic: one instantiation per type).
pub fn larger<T: PartialOrd>(a: T, b: T) -> T {
    if a > b {
        a
    } else {
        b
    }
}

/// How many values are even, through a closure.
pub fn evens(values: &[i64]) -> usize {
    values.iter().filter(|v| *v % 2 == 0).count()
}

macro_rules! classify {
    ($name:ident, $limit:expr) => {
        /// Whether `n` is small, medium or large against the limit.
        pub fn $name(n: u32) -> &'static str {
            if n < $limit / 2 {
                "small"
            } else if n < $limit {
                "medium"
            } else {
                "large"
            }
        }
    };
}

classify!(bucket_ten, 10);
classify!(bucket_hundred, 100);

/// Never called by any test.
pub fn unused(n: u32) -> u32 {
    n * 3 + 1
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn h1_x1_negative_cents() {
        assert!(cents(-1.0).is_err());
    }

    #[test]
    fn h2_x2_rounded_cents() {
        assert_eq!(cents(1.234), Ok(123));
    }

    #[test]
    fn h1_x2_larger_ints() {
        assert_eq!(larger(3, 2), 3);
    }

    #[test]
    fn h2_x3_larger_floats() {
        assert_eq!(larger(1.0, 2.0), 2.0);
    }

    #[test]
    fn h2_x1_evens() {
        assert_eq!(evens(&[1, 2, 4]), 2);
    }

    #[test]
    fn h1_x3_small_ten() {
        assert_eq!(bucket_ten(1), "small");
    }

    #[test]
    fn h2_x3_large_ten() {
        assert_eq!(bucket_ten(20), "large");
    }

    #[test]
    fn h1_x1_medium_hundred() {
        assert_eq!(bucket_hundred(60), "medium");
    }
}
