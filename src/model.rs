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
