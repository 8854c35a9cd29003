//! Validating the policy's raw values ([`super::raw`]) into its types: globs, metrics, the
//! threshold, `allow-empty`, `[inline]`, `[[exclude]]` and `[[suite]]` entries with their
//! conditions. Each error names the value's line and column.

use std::ops::Range;

use globset::{Glob, GlobBuilder};
use toml::Spanned;

use super::filter::Filter;
use super::raw::{RawExclude, RawInline, RawSuite};
use super::{CoverageOff, Exclude, Family, Inline, Matchers, Pattern, Suite};
use crate::error::{Error, Result};
use crate::model::{Metric, Threshold};
use crate::paths;
use crate::platform::{Activation, Cfg};

pub(super) type Locate<'a> = dyn Fn(Range<usize>, String) -> Error + 'a;

pub(super) fn compile(glob: &str) -> std::result::Result<Matchers, String> {
    let build = |fold: bool| {
        GlobBuilder::new(glob)
            .literal_separator(true)
            .backslash_escape(true)
            .case_insensitive(fold)
            .build()
            .map(|g: Glob| g.compile_matcher())
    };
    build(false)
        .and_then(|exact| build(true).map(|folded| Matchers { exact, folded }))
        .map_err(|e| format!("bad glob `{glob}`: {}", e.kind()))
}

pub(super) fn compile_all(globs: &[Spanned<String>], here: &Locate) -> Result<Vec<Pattern>> {
    globs.iter().map(|g| pattern(g, here)).collect()
}

/// Compiles a glob after normalising it as report paths are normalised ([`paths::normalize`]:
/// `\\` is a separator, `./` and repeated `/` go), so `./src\\lib.rs` matches `src/lib.rs`.
///
/// Errors: a glob that [`paths::climbs_out`] of a folder it names (`src/gen/../x.rs`), and one
/// that no root-relative path can match ([`paths::unrooted`]: empty, absolute, or above the root).
fn pattern(glob: &Spanned<String>, here: &Locate) -> Result<Pattern> {
    if paths::climbs_out(glob.get_ref()) {
        return Err(here(glob.span(), paths::climb_error(glob.get_ref())));
    }
    if let Some(why) = paths::unrooted(glob.get_ref()) {
        return Err(here(glob.span(), why));
    }
    let matcher =
        compile(&paths::normalize(glob.get_ref())).map_err(|msg| here(glob.span(), msg))?;
    Ok(Pattern {
        glob: glob.get_ref().clone(),
        location: position(glob, here),
        matcher,
    })
}

/// `file:line:col` of a spanned value.
fn position<T>(value: &Spanned<T>, here: &Locate) -> String {
    here(value.span(), String::new())
        .message()
        .trim_end_matches(": ")
        .to_string()
}

/// `allow-empty` and its reason: both or neither (a `false` needs no reason), the reason not
/// blank.
pub(super) fn allow_empty(
    allow: Option<Spanned<bool>>,
    reason: Option<Spanned<String>>,
    here: &Locate,
) -> Result<Option<String>> {
    let allowed = allow.as_ref().is_some_and(|a| *a.get_ref());
    match (allow, reason) {
        (Some(flag), None) if allowed => Err(here(
            flag.span(),
            "`allow-empty = true` needs `allow-empty-reason = \"…\"` in `[measure]`: say why a \
             check that measures no file may pass"
                .to_string(),
        )),
        (_, Some(reason)) if !allowed => Err(here(
            reason.span(),
            "`allow-empty-reason` without `allow-empty = true`; remove it, or allow an empty check"
                .to_string(),
        )),
        (_, Some(reason)) if crate::text::is_blank(reason.get_ref()) => Err(here(
            reason.span(),
            "`allow-empty-reason` is empty; say why a check that measures no file may pass"
                .to_string(),
        )),
        (_, reason) => Ok(reason.map(Spanned::into_inner)),
    }
}

pub(super) fn inline(raw: RawInline, here: &Locate) -> Result<Inline> {
    let families = match raw.markers {
        None => Family::ALL.to_vec(),
        Some(names) => names
            .get_ref()
            .iter()
            .map(|name| {
                Family::from_name(name.get_ref()).ok_or_else(|| {
                    here(
                        name.span(),
                        format!(
                            "unknown marker family `{}`; expected covgate, lcov or grcov{}",
                            name.get_ref(),
                            crate::hint::did_you_mean(
                                name.get_ref(),
                                &["covgate", "lcov", "grcov"]
                            )
                        ),
                    )
                })
            })
            .collect::<Result<Vec<_>>>()?,
    };
    Ok(Inline {
        families,
        require_reason: raw.require_reason.unwrap_or(true),
        coverage_off: coverage_off(raw.coverage_off, here)?,
    })
}

/// `[inline] coverage-off`: `count` (the default) or `deny`.
fn coverage_off(raw: Option<Spanned<String>>, here: &Locate) -> Result<CoverageOff> {
    let Some(name) = raw else {
        return Ok(CoverageOff::default());
    };
    CoverageOff::from_name(name.get_ref()).ok_or_else(|| {
        here(
            name.span(),
            format!(
                "unknown `coverage-off` value `{}`; expected count or deny{}",
                name.get_ref(),
                crate::hint::did_you_mean(name.get_ref(), &CoverageOff::NAMES)
            ),
        )
    })
}

pub(super) fn metrics(
    raw: Option<Spanned<Vec<Spanned<String>>>>,
    here: &Locate,
) -> Result<Vec<Metric>> {
    let Some(raw) = raw else {
        return Ok(Metric::DEFAULT.to_vec());
    };
    let span = raw.span();
    let mut chosen = Vec::new();
    for name in raw.get_ref() {
        let metric = Metric::from_name(name.get_ref()).ok_or_else(|| {
            here(
                name.span(),
                format!(
                    "unknown metric `{}`; expected one of regions, branches, functions, lines, mcdc{}",
                    name.get_ref(),
                    crate::hint::did_you_mean(
                        name.get_ref(),
                        &["regions", "branches", "functions", "lines", "mcdc"]
                    )
                ),
            )
        })?;
        if chosen.contains(&metric) {
            return Err(here(
                name.span(),
                format!("metric `{metric}` is listed twice"),
            ));
        }
        chosen.push(metric);
    }
    if chosen.is_empty() {
        return Err(here(
            span,
            "`[measure] metrics` is empty; list at least one metric".to_string(),
        ));
    }
    chosen.sort();
    Ok(chosen)
}

pub(super) fn threshold(raw: Option<Spanned<f64>>, here: &Locate) -> Result<Threshold> {
    raw.map_or(Ok(Threshold::FULL), |raw| {
        Threshold::from_f64(*raw.get_ref()).map_err(|message| here(raw.span(), message))
    })
}

pub(super) fn excludes(raw: Vec<RawExclude>, here: &Locate) -> Result<Vec<Exclude>> {
    raw.into_iter()
        .map(|entry| {
            if crate::text::is_blank(entry.reason.get_ref()) {
                return Err(here(
                    entry.reason.span(),
                    "an [[exclude]] needs a non-empty `reason` saying why the file is not measured"
                        .to_string(),
                ));
            }
            Ok(Exclude {
                pattern: pattern(&entry.path, here)?,
                reason: entry.reason.into_inner(),
                when: when(entry.when, here)?,
                when_missing: when_missing(entry.when_missing, here)?,
                activation: Activation::always(),
            })
        })
        .collect()
}

pub(super) fn suites(raw: Vec<RawSuite>, here: &Locate) -> Result<Vec<Suite>> {
    let mut suites: Vec<Suite> = Vec::new();
    for entry in raw {
        let name = entry.name.get_ref().trim();
        if name.is_empty() {
            return Err(here(
                entry.name.span(),
                "a [[suite]] needs a non-empty `name`".to_string(),
            ));
        }
        if let Some(first) = suites.iter().find(|s| s.name == name) {
            return Err(here(
                entry.name.span(),
                format!(
                    "suite `{name}` is named twice (first at {}); give each [[suite]] its own name",
                    first.location
                ),
            ));
        }
        if crate::text::is_blank(entry.reason.get_ref()) {
            return Err(here(
                entry.reason.span(),
                "a [[suite]] needs a non-empty `reason` saying why it is left out of the instrumented run"
                    .to_string(),
            ));
        }
        suites.push(Suite {
            name: name.to_string(),
            location: position(&entry.name, here),
            filter: Filter::parse(entry.filter.get_ref())
                .map_err(|msg| here(entry.filter.span(), msg))?,
            glob: pattern(&entry.glob, here)?,
            reason: entry.reason.into_inner(),
            when: when(entry.when, here)?,
            when_missing: when_missing(entry.when_missing, here)?,
            activation: Activation::always(),
        });
    }
    Ok(suites)
}

fn when(raw: Option<Spanned<String>>, here: &Locate) -> Result<Option<Cfg>> {
    raw.map(|when| Cfg::parse(when.get_ref()).map_err(|msg| here(when.span(), msg)))
        .transpose()
}

fn when_missing(raw: Option<Spanned<Vec<Spanned<String>>>>, here: &Locate) -> Result<Vec<String>> {
    let Some(raw) = raw else {
        return Ok(Vec::new());
    };
    if raw.get_ref().is_empty() {
        return Err(here(
            raw.span(),
            "`when-missing` is empty; name the programs whose absence exempts the files (e.g. [\"pwsh\"]) or drop the key"
                .to_string(),
        ));
    }
    raw.into_inner()
        .into_iter()
        .map(|name| match super::program::unfindable(name.get_ref()) {
            Some(what) => Err(here(
                name.span(),
                super::program::message(name.get_ref(), what),
            )),
            None => Ok(name.into_inner()),
        })
        .collect()
}
