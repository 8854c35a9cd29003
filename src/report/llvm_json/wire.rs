//! The export's objects as llvm-cov writes them (LLVM `tools/llvm-cov/CoverageExporterJson.cpp`),
//! as far as covgate reads them; function records are in [`super::record`].
//!
//! In tests, these objects take no key that LLVM does not write (`deny_unknown_fields`, as
//! cargo-llvm-cov's `src/json.rs` does), so a schema change shows in the fixtures; outside
//! tests, unknown keys are skipped (a newer llvm-cov may add some).

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde::Deserialize as DeriveDeserialize;

use crate::model::Counts;

use super::count::ExactCount;
use super::unique::{duplicate, Unique};
use super::LlvmSummary;

/// A key that LLVM writes and covgate skips: in tests, where unknown keys are refused, it is
/// named so that it is known.
#[cfg(test)]
#[derive(Debug, Default)]
struct Known;

#[cfg(test)]
impl<'de> Deserialize<'de> for Known {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Known, D::Error> {
        de::IgnoredAny::deserialize(deserializer).map(|_| Known)
    }
}

/// A `files[]` entry (`renderFile`): `filename`, `segments`, `branches`, `mcdc_records`,
/// `expansions`, `summary`. Only `filename` and `summary` are read; the others are unions over
/// instantiations that covgate does not need.
#[derive(Debug, DeriveDeserialize)]
#[cfg_attr(test, serde(deny_unknown_fields))]
pub(super) struct FileEntry {
    pub(super) filename: String,
    pub(super) summary: SummaryJson,
    #[cfg(test)]
    #[serde(default, rename = "segments")]
    _segments: Known,
    #[cfg(test)]
    #[serde(default, rename = "branches")]
    _branches: Known,
    #[cfg(test)]
    #[serde(default, rename = "mcdc_records")]
    _mcdc_records: Known,
    #[cfg(test)]
    #[serde(default, rename = "expansions")]
    _expansions: Known,
}

impl FileEntry {
    /// An entry with just its filename and summary.
    pub(super) fn new(filename: String, summary: SummaryJson) -> FileEntry {
        FileEntry {
            filename,
            summary,
            #[cfg(test)]
            _segments: Known,
            #[cfg(test)]
            _branches: Known,
            #[cfg(test)]
            _mcdc_records: Known,
            #[cfg(test)]
            _expansions: Known,
        }
    }
}

/// A `summary` object (`renderSummary`; `totals` has the same shape): `lines`, `functions`,
/// `instantiations`, `regions`, `branches` (LLVM 12 on), `mcdc` (LLVM 18 on).
#[derive(Debug, DeriveDeserialize)]
#[cfg_attr(test, serde(deny_unknown_fields))]
pub(super) struct SummaryJson {
    pub(super) lines: CountsJson,
    pub(super) functions: CountsJson,
    pub(super) instantiations: CountsJson,
    pub(super) regions: CountsJson,
    #[serde(default)]
    pub(super) branches: Option<CountsJson>,
    #[serde(default)]
    pub(super) mcdc: Option<CountsJson>,
}

impl SummaryJson {
    /// A summary of these six counts.
    pub(super) fn new(
        [lines, functions, instantiations, regions]: [CountsJson; 4],
        branches: Option<CountsJson>,
        mcdc: Option<CountsJson>,
    ) -> SummaryJson {
        SummaryJson {
            lines,
            functions,
            instantiations,
            regions,
            branches,
            mcdc,
        }
    }

    /// The summary, checked: no metric covers more than it counts.
    pub(super) fn into_summary(self) -> std::result::Result<LlvmSummary, String> {
        Ok(LlvmSummary {
            regions: self.regions.into_counts("regions")?,
            functions: self.functions.into_counts("functions")?,
            instantiations: self.instantiations.into_counts("instantiations")?,
            lines: self.lines.into_counts("lines")?,
            branches: match self.branches {
                Some(branches) => branches.into_counts("branches")?,
                None => Counts::default(),
            },
            mcdc: match self.mcdc {
                Some(mcdc) => mcdc.into_counts("mcdc")?,
                None => Counts::default(),
            },
        })
    }
}

/// `{count, covered, notcovered, percent}` (`renderCounts` and friends): only `count` and
/// `covered` are used, and must be whole numbers up to `u64::MAX` ([`ExactCount`]). `percent` is
/// never read: it may be absent, and a `NaN` there is not JSON at all (a syntax error).
#[derive(Debug, DeriveDeserialize)]
#[cfg_attr(test, serde(deny_unknown_fields))]
pub(super) struct CountsJson {
    pub(super) count: ExactCount,
    pub(super) covered: ExactCount,
    #[cfg(test)]
    #[serde(default, rename = "notcovered")]
    _notcovered: Known,
    #[cfg(test)]
    #[serde(default, rename = "percent")]
    _percent: Known,
}

impl CountsJson {
    /// A pair of counts.
    pub(super) fn new(count: u64, covered: u64) -> CountsJson {
        CountsJson {
            count: ExactCount(count),
            covered: ExactCount(covered),
            #[cfg(test)]
            _notcovered: Known,
            #[cfg(test)]
            _percent: Known,
        }
    }

    fn into_counts(self, metric: &str) -> std::result::Result<Counts, String> {
        let (covered, total) = (self.covered.0, self.count.0);
        if covered > total {
            return Err(format!(
                "summary `{metric}` has covered {covered} above count {total}"
            ));
        }
        Ok(Counts::new(covered, total))
    }
}

/// cargo-llvm-cov's `cargo_llvm_cov: {version, manifest_path}` (its `src/json.rs`, `CargoLlvmCov`):
/// `manifest_path` is read (a string or `null`), every other key skipped; no key may come twice
/// ([`Unique`]).
#[derive(Debug, Default)]
pub(super) struct CargoMeta {
    pub(super) manifest_path: Option<String>,
}

impl<'de> Deserialize<'de> for CargoMeta {
    fn deserialize<D: Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<CargoMeta, D::Error> {
        deserializer.deserialize_map(CargoMetaVisitor)
    }
}

struct CargoMetaVisitor;

impl<'de> Visitor<'de> for CargoMetaVisitor {
    type Value = CargoMeta;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("`cargo_llvm_cov`: an object {version, manifest_path}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<CargoMeta, A::Error> {
        let mut meta = CargoMeta::default();
        let mut keys: Vec<String> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if keys.contains(&key) {
                return Err(de::Error::custom(duplicate(&key)));
            }
            if key == "manifest_path" {
                meta.manifest_path = map.next_value()?;
            } else {
                map.next_value::<Unique>()?;
            }
            keys.push(key);
        }
        Ok(meta)
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn no_metric_may_cover_more_than_it_counts() {
        let good = || CountsJson::new(2, 1);
        let bad = || CountsJson::new(1, 2);
        for metric in 0..5 {
            let pick = |i: usize| if i == metric { bad() } else { good() };
            let summary =
                SummaryJson::new([pick(0), pick(1), pick(2), pick(3)], Some(pick(4)), None);
            let e = summary.into_summary().expect_err("covered above count");
            assert!(e.contains("has covered 2 above count 1"), "{e}");
        }
        let summary = SummaryJson::new([good(), good(), good(), good()], None, None);
        assert_eq!(
            summary.into_summary().expect("good").branches,
            Counts::default()
        );
    }
}
