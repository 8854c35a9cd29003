//! The policy file's TOML schema as serde reads it: every key, with its span, before validation
//! ([`super::Policy::parse`]). Unknown keys are refused.

use serde::Deserialize;
use toml::Spanned;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPolicy {
    pub(super) root: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) measure: RawMeasure,
    #[serde(default)]
    pub(super) exclude: Vec<RawExclude>,
    #[serde(default)]
    pub(super) inline: RawInline,
    #[serde(default)]
    pub(super) suite: Vec<RawSuite>,
    /// `[[debt]]` entries or the ledger's file name: read by [`crate::debt`].
    pub(super) debt: Option<Spanned<toml::Value>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawInline {
    pub(super) markers: Option<Spanned<Vec<Spanned<String>>>>,
    pub(super) require_reason: Option<bool>,
    pub(super) coverage_off: Option<Spanned<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawMeasure {
    pub(super) include: Option<Spanned<Vec<Spanned<String>>>>,
    pub(super) metrics: Option<Spanned<Vec<Spanned<String>>>>,
    pub(super) threshold: Option<Spanned<f64>>,
    pub(super) allow_empty: Option<Spanned<bool>>,
    pub(super) allow_empty_reason: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawExclude {
    pub(super) path: Spanned<String>,
    pub(super) reason: Spanned<String>,
    pub(super) when: Option<Spanned<String>>,
    pub(super) when_missing: Option<Spanned<Vec<Spanned<String>>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawSuite {
    pub(super) name: Spanned<String>,
    pub(super) filter: Spanned<String>,
    pub(super) glob: Spanned<String>,
    pub(super) reason: Spanned<String>,
    pub(super) when: Option<Spanned<String>>,
    pub(super) when_missing: Option<Spanned<Vec<Spanned<String>>>>,
}
