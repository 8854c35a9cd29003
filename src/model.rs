//! The coverage model shared by every stage: metrics, covered/total counts, per-file summaries
//! and the source positions of items (spans, line ranges, branch sides).

use std::fmt;

/// One of the metrics covgate judges: four by default, and MC/DC when a policy asks for it.
///
/// Semantics follow `llvm-cov report`: *regions* are LLVM code regions (kind 0, "statements"),
/// *branches* count each side (true/false) of a branch condition, *functions* are instantiation
/// groups (all instantiations of one source function count once), *lines* are executable lines as
/// llvm-cov's line-coverage rule defines them, *mcdc* counts the conditions of decisions (`&&`/`||`
/// chains of two or more conditions, clang `-fcoverage-mcdc`) and which of them were shown to
/// change their decision on their own (llvm-cov's "MC/DC Conditions" column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Metric {
    /// LLVM code regions (llvm-cov's "Regions" column).
    Regions,
    /// Branch sides (llvm-cov's "Branches" column; LCOV `BRDA`).
    Branches,
    /// Functions (llvm-cov's "Functions" column; LCOV `FN`).
    Functions,
    /// Lines (llvm-cov's "Lines" column; LCOV `DA`).
    Lines,
    /// MC/DC conditions (llvm-cov's "MC/DC Conditions" column; llvm-cov JSON only), judged only
    /// when a policy names it.
    Mcdc,
}

impl Metric {
    /// Every metric, in the order covgate prints them.
    pub const ALL: [Metric; 5] = [
        Metric::Regions,
        Metric::Branches,
        Metric::Functions,
        Metric::Lines,
        Metric::Mcdc,
    ];

    /// The metrics of a policy that names none: all but MC/DC, which is opt-in.
    pub const DEFAULT: [Metric; 4] = [
        Metric::Regions,
        Metric::Branches,
        Metric::Functions,
        Metric::Lines,
    ];

    /// The metric's name as written in the policy and in JSON output (`"regions"`, …).
    pub fn name(self) -> &'static str {
        match self {
            Metric::Regions => "regions",
            Metric::Branches => "branches",
            Metric::Functions => "functions",
            Metric::Lines => "lines",
            Metric::Mcdc => "mcdc",
        }
    }

    /// The metric's column title: `Regions`, `Branches`, `Functions`, `Lines`, `MC/DC`.
    pub fn title(self) -> &'static str {
        match self {
            Metric::Regions => "Regions",
            Metric::Branches => "Branches",
            Metric::Functions => "Functions",
            Metric::Lines => "Lines",
            Metric::Mcdc => "MC/DC",
        }
    }

    /// Parses a policy name (`"regions"`, `"branches"`, `"functions"`, `"lines"`, `"mcdc"`).
    pub(crate) fn from_name(name: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.name() == name)
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A covered/total pair of counts (items, not percent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Counts {
    /// Items with an execution count above zero.
    pub covered: u64,
    /// Items in total; `0` means the metric is vacuous for this file.
    pub total: u64,
}

impl Counts {
    /// Builds a pair; callers guarantee `covered <= total`.
    pub fn new(covered: u64, total: u64) -> Counts {
        Counts { covered, total }
    }
}

impl std::ops::Add for Counts {
    type Output = Counts;

    /// Component-wise sum.
    fn add(self, other: Counts) -> Counts {
        Counts::new(self.covered + other.covered, self.total + other.total)
    }
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.covered, self.total)
    }
}

/// A coverage threshold in percent (0–100), held exactly as a decimal with at most
/// [`Threshold::DECIMALS`] places, so that `covered/total` is compared with it in integers
/// ([`Threshold::meets`]): 161 of 250 meets 64.4 exactly, which a float comparison gets wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Threshold {
    /// The percent times 10^[`Threshold::DECIMALS`] (100% is 1,000,000).
    scaled: u32,
}

impl Threshold {
    /// The most decimal places a threshold may have (`99.9999`).
    pub const DECIMALS: usize = 4;
    /// 10^[`Threshold::DECIMALS`].
    const SCALE: u32 = 10_000;
    /// 100%, the default.
    pub const FULL: Threshold = Threshold {
        scaled: 100 * Threshold::SCALE,
    };

    /// The threshold a policy's number stands for: the number's shortest decimal form (what
    /// was written: `64.4`, `90`, `6.44e1`), exactly.
    ///
    /// # Errors
    ///
    /// What is wrong, for the caller to place: not a number in 0–100 (NaN and infinities
    /// included), or more than [`Threshold::DECIMALS`] decimal places.
    pub fn from_f64(value: f64) -> Result<Threshold, String> {
        if !(0.0..=100.0).contains(&value) {
            return Err(format!(
                "threshold {value} is not a percent between 0 and 100"
            ));
        }
        // `abs` turns -0 into 0, whose shortest form has no sign.
        let value = value.abs();
        let text = value.to_string();
        let fraction = text.split_once('.').map_or("", |(_, fraction)| fraction);
        if fraction.len() > Threshold::DECIMALS {
            return Err(format!(
                "threshold {value} has more than {} decimal places; round it to at most {}",
                Threshold::DECIMALS,
                Threshold::DECIMALS
            ));
        }
        let digits = fraction
            .bytes()
            .fold(0, |acc, digit| acc * 10 + u32::from(digit - b'0'));
        let places = 10u32.pow((Threshold::DECIMALS - fraction.len()) as u32);
        Ok(Threshold {
            scaled: value.trunc() as u32 * Threshold::SCALE + digits * places,
        })
    }

    /// Whether `counts` reach the threshold: `covered / total * 100 >= threshold`, compared
    /// exactly as `covered * 100 * 10^DECIMALS >= scaled * total` in `u128` (no overflow for
    /// any `u64` counts). A total of 0 meets every threshold.
    pub fn meets(self, counts: Counts) -> bool {
        u128::from(counts.covered) * 100 * u128::from(Threshold::SCALE)
            >= u128::from(self.scaled) * u128::from(counts.total)
    }

    /// The threshold as a JSON number (`100.0`, `64.4`): the nearest `f64`, whose shortest form
    /// is the threshold's own.
    pub fn as_f64(self) -> f64 {
        f64::from(self.scaled) / f64::from(Threshold::SCALE)
    }
}

impl fmt::Display for Threshold {
    /// The shortest decimal form: `100`, `64.4`, `0.0001`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.scaled / Threshold::SCALE;
        let fraction = self.scaled % Threshold::SCALE;
        if fraction == 0 {
            return write!(f, "{whole}");
        }
        let digits = format!("{fraction:0width$}", width = Threshold::DECIMALS);
        write!(f, "{whole}.{}", digits.trim_end_matches('0'))
    }
}

/// The metric counts of one file. `None` means the input cannot carry the metric
/// (regions and MC/DC from LCOV; branches from a JSON export made without branch
/// instrumentation; MC/DC from a JSON export made without `-fcoverage-mcdc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Summary {
    /// Code regions, `None` for LCOV input.
    pub regions: Option<Counts>,
    /// Branch sides, `None` when the input holds no branch data at all.
    pub branches: Option<Counts>,
    /// Functions (instantiation groups).
    pub functions: Option<Counts>,
    /// Lines.
    pub lines: Option<Counts>,
    /// MC/DC conditions (covered = shown independent), `None` for LCOV and for exports without
    /// MC/DC data.
    pub mcdc: Option<Counts>,
}

impl Summary {
    /// The counts for `metric`, or `None` when unavailable.
    pub fn get(&self, metric: Metric) -> Option<Counts> {
        match metric {
            Metric::Regions => self.regions,
            Metric::Branches => self.branches,
            Metric::Functions => self.functions,
            Metric::Lines => self.lines,
            Metric::Mcdc => self.mcdc,
        }
    }
}

/// A source range `line_start:col_start – line_end:col_end` (1-based, end column exclusive as
/// LLVM writes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    /// First line.
    pub line_start: u32,
    /// Column where the range starts on `line_start`.
    pub col_start: u32,
    /// Last line.
    pub line_end: u32,
    /// Column where the range ends on `line_end`.
    pub col_end: u32,
}

/// One side of a branch condition that never ran (its count is 0).
///
/// A 0 side may also be a side that the compiler folded away (constant conditions such as
/// `true && x` or `cfg!(…)`): the JSON export does not tell the two apart; only the
/// `llvm-cov show` text ("Folded") does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BranchSide {
    /// The condition's range in the main file (see the JSON reader's
    /// `FunctionStats::uncovered_regions` for conditions inside macro expansions).
    pub span: Span,
    /// `true` for the side where the condition held, `false` for the other side.
    pub outcome: bool,
}

/// An inclusive range of line numbers `start..=end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineRange {
    /// First line.
    pub start: u32,
    /// Last line (inclusive).
    pub end: u32,
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn a_fractional_threshold_is_met_exactly_at_the_bar() {
        // 161/250 is exactly 64.4%; as floats, 64.4 * 250 is 16100.000000000002 > 16100.
        let t = Threshold::from_f64(64.4).unwrap();
        assert!(t.meets(Counts::new(161, 250)));
        assert!(!t.meets(Counts::new(160, 250)));
        // 1/3 is 33.33…%: above 33.3333, below 33.3334.
        assert!(Threshold::from_f64(33.3333)
            .unwrap()
            .meets(Counts::new(1, 3)));
        assert!(!Threshold::from_f64(33.3334)
            .unwrap()
            .meets(Counts::new(1, 3)));
        // The extremes of u64 counts do not overflow.
        assert!(Threshold::FULL.meets(Counts::new(u64::MAX, u64::MAX)));
        assert!(!Threshold::FULL.meets(Counts::new(u64::MAX - 1, u64::MAX)));
        assert!(Threshold::from_f64(0.0)
            .unwrap()
            .meets(Counts::new(0, u64::MAX)));
        assert!(Threshold::FULL.meets(Counts::new(0, 0)));
    }

    #[test]
    fn thresholds_read_and_print_their_shortest_decimal_form() {
        for (value, shown) in [
            (100.0, "100"),
            (90.0, "90"),
            (64.4, "64.4"),
            (6.44e1, "64.4"),
            (99.9999, "99.9999"),
            (0.0001, "0.0001"),
            (0.5, "0.5"),
            (-0.0, "0"),
            (0.0, "0"),
        ] {
            let t = Threshold::from_f64(value).unwrap();
            assert_eq!(t.to_string(), shown, "{value}");
            assert_eq!(t.as_f64().to_string(), shown, "{value}");
        }
        assert_eq!(Threshold::FULL.as_f64(), 100.0);
        assert_eq!(Threshold::from_f64(100.0), Ok(Threshold::FULL));
    }

    #[test]
    fn thresholds_out_of_range_or_too_precise_are_refused() {
        for (value, message) in [
            (f64::NAN, "threshold NaN is not a percent between 0 and 100"),
            (
                f64::INFINITY,
                "threshold inf is not a percent between 0 and 100",
            ),
            (-1.0, "threshold -1 is not a percent between 0 and 100"),
            (100.5, "threshold 100.5 is not a percent between 0 and 100"),
            (
                64.12345,
                "threshold 64.12345 has more than 4 decimal places; round it to at most 4",
            ),
            (
                1e-7,
                "threshold 0.0000001 has more than 4 decimal places; round it to at most 4",
            ),
        ] {
            assert_eq!(Threshold::from_f64(value).unwrap_err(), message, "{value}");
        }
    }
}
