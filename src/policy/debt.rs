//! The debt ledger's entries as the policy writes them: `[[debt]]` tables in the policy, or in
//! the file its `debt = "…"` key names (see [`crate::debt`] for how they are judged).

use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::error::{Error, Result};
use crate::model::Metric;
use crate::paths;
use crate::platform::{Cfg, Platform};
use crate::policy::line_col;
use crate::source;

/// One `[[debt]]` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The file, root-relative, normalised by [`path_key`] as an `[[exclude]]` path is.
    pub path: String,
    /// The allowances written, in covgate's metric order: metric and missed items allowed.
    pub allowed: Vec<(Metric, u64)>,
    /// Why the debt is allowed (non-empty).
    pub reason: String,
    /// Where the entry's `path` is written: `file:line:col`.
    pub location: String,
    /// `when = "cfg(...)"`: the legs the entry holds on (see [`crate::platform`]); `None` for
    /// every leg. On a leg where it does not hold the entry is set aside
    /// ([`Ledger::inactive`]): it allows nothing there, is never stale, and `--tighten` leaves it.
    pub when: Option<Cfg>,
}

impl Entry {
    /// The missed items allowed for `metric`: 0 when the entry does not name it.
    pub fn allowed(&self, metric: Metric) -> u64 {
        self.allowed
            .iter()
            .find(|(m, _)| *m == metric)
            .map_or(0, |(_, n)| *n)
    }
}

/// The ledger: every `[[debt]]` entry and the file they are written in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ledger {
    /// The file holding the entries: the policy, or the file its `debt` key names.
    pub file: PathBuf,
    /// The entries, in file order.
    pub entries: Vec<Entry>,
    /// True while the entries of a named ledger file are still to be read ([`Ledger::load`]).
    pub pending: bool,
    /// Where the policy's `debt = "…"` names the ledger file (`file:line:col`); empty when the
    /// entries are in the policy.
    pub named_at: String,
    /// The entries whose `when` does not hold on this leg, in file order: taken out of
    /// `entries` by [`Ledger::decide`].
    pub inactive: Vec<Entry>,
}

impl Ledger {
    /// Sets aside the entries whose `when` does not hold on `platform` (into
    /// [`Ledger::inactive`]): the debt of a platform-only gap (a `#[cfg(windows)]` path) is
    /// judged on the legs that compile it and is neither stale nor tightened on the others.
    pub fn decide(&mut self, platform: &Platform) {
        let (active, inactive) = std::mem::take(&mut self.entries)
            .into_iter()
            .partition(|e| platform.activation(e.when.as_ref(), &[]).active);
        self.entries = active;
        self.inactive = inactive;
    }

    /// The entry for the root-relative `path`, if any.
    pub fn entry(&self, path: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.path == path)
    }

    /// The ledger of a policy, from its `debt` key (`raw`, parsed by the policy as any TOML
    /// value) and its text: the `[[debt]]` entries written in it, or a pending ledger for the
    /// file `debt = "…"` names (relative to the policy's folder; read by [`Ledger::load`]).
    ///
    /// Errors: `debt` is neither a file name nor entries, names an empty file name, or an entry
    /// is bad (see [`Ledger::load`]) — each with line and column.
    pub fn in_policy(
        file: &Path,
        text: &str,
        raw: Option<Spanned<toml::Value>>,
        metrics: &[Metric],
    ) -> Result<Ledger> {
        let shown = file.display().to_string();
        let folder = file.parent().unwrap_or(Path::new(""));
        match raw.as_ref().map(|r| (r.get_ref(), r.span())) {
            None => Ok(Ledger {
                file: file.to_path_buf(),
                ..Ledger::default()
            }),
            Some((toml::Value::String(name), span)) if name.trim().is_empty() => Err(at(
                &shown,
                text,
                span,
                "`debt` names no file; give the ledger's path (e.g. debt = \"coverage-debt.toml\")",
            )),
            Some((toml::Value::String(name), span)) => Ok(Ledger {
                file: folder.join(name),
                entries: Vec::new(),
                inactive: Vec::new(),
                pending: true,
                named_at: {
                    let (line, col) = line_col(text, span.start);
                    format!("{shown}:{line}:{col}")
                },
            }),
            Some((toml::Value::Array(_), _)) => Ok(Ledger {
                file: file.to_path_buf(),
                entries: entries(&shown, text, metrics)?,
                inactive: Vec::new(),
                pending: false,
                named_at: String::new(),
            }),
            Some((_, span)) => Err(at(
                &shown,
                text,
                span,
                "`debt` is either the ledger's file name (debt = \"coverage-debt.toml\") or [[debt]] entries",
            )),
        }
    }

    /// Reads the entries of a pending ledger (a file the policy names); any other ledger is
    /// returned as it is.
    ///
    /// Errors: the file is not a regular file, too large (over [`source::MAX_POLICY`]), not
    /// UTF-8 or not TOML; a key other than `[[debt]]` in it; an entry without a `path` or
    /// `reason`, with an empty one, a glob for a path, a path named twice, a negative count, or
    /// a metric the policy does not judge — each with line and column.
    pub fn load(self, metrics: &[Metric]) -> Result<Ledger> {
        if !self.pending {
            return Ok(self);
        }
        let shown = self.file.display().to_string();
        let cannot = |why: &dyn std::fmt::Display| {
            Error::new(format!(
                "{shown}: cannot read the debt ledger that `debt` names at {}: {why}",
                self.named_at
            ))
        };
        let bytes = source::read(&self.file, source::MAX_POLICY).map_err(|why| cannot(&why))?;
        let text = crate::text::utf8(bytes).map_err(|why| cannot(&why))?;
        toml::from_str::<LedgerFile>(&text).map_err(|e| toml_error(&shown, &text, &e))?;
        Ok(Ledger {
            entries: entries(&shown, &text, metrics)?,
            inactive: Vec::new(),
            pending: false,
            file: self.file,
            named_at: self.named_at,
        })
    }
}

/// A ledger file: `[[debt]]` entries and nothing else.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LedgerFile {
    #[serde(default)]
    #[allow(dead_code)]
    debt: Vec<toml::Value>,
}

/// The `[[debt]]` entries of a policy or ledger file (other keys are the policy's concern).
#[derive(Debug, Deserialize)]
struct Entries {
    #[serde(default)]
    debt: Vec<RawEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    path: Spanned<String>,
    reason: Spanned<String>,
    regions: Option<Spanned<u64>>,
    branches: Option<Spanned<u64>>,
    functions: Option<Spanned<u64>>,
    lines: Option<Spanned<u64>>,
    mcdc: Option<Spanned<u64>>,
    when: Option<Spanned<String>>,
}

fn entries(shown: &str, text: &str, metrics: &[Metric]) -> Result<Vec<Entry>> {
    let raw: Entries = toml::from_str(text).map_err(|e| toml_error(shown, text, &e))?;
    let mut out: Vec<Entry> = Vec::new();
    for entry in raw.debt {
        let here = |span: Range<usize>, msg: String| at(shown, text, span, msg);
        let path = path_key(entry.path.get_ref());
        if path.trim().is_empty() {
            return Err(here(
                entry.path.span(),
                "a [[debt]] needs a non-empty `path`".to_string(),
            ));
        }
        if paths::climbs_out(entry.path.get_ref()) {
            return Err(here(
                entry.path.span(),
                paths::climb_error(entry.path.get_ref()),
            ));
        }
        if path.contains(['*', '?', '[', '{']) {
            return Err(here(
                entry.path.span(),
                format!(
                    "`{path}`: a [[debt]] names one file, not a glob; write one entry per file"
                ),
            ));
        }
        let (line, col) = line_col(text, entry.path.span().start);
        let location = format!("{shown}:{line}:{col}");
        if let Some(first) = out.iter().find(|e| e.path == path) {
            return Err(here(
                entry.path.span(),
                format!(
                    "`{path}` has a [[debt]] entry already (at {}); keep one entry per file",
                    first.location
                ),
            ));
        }
        if crate::text::is_blank(entry.reason.get_ref()) {
            return Err(here(
                entry.reason.span(),
                "a [[debt]] needs a non-empty `reason` saying why the file may miss items"
                    .to_string(),
            ));
        }
        let written = [
            (Metric::Regions, entry.regions),
            (Metric::Branches, entry.branches),
            (Metric::Functions, entry.functions),
            (Metric::Lines, entry.lines),
            (Metric::Mcdc, entry.mcdc),
        ];
        let mut allowed = Vec::new();
        for (metric, count) in written {
            let Some(count) = count else { continue };
            if !metrics.contains(&metric) {
                return Err(here(
                    count.span(),
                    format!(
                        "`{metric}` is not among the policy's `[measure] metrics`; drop it from the [[debt]] entry"
                    ),
                ));
            }
            allowed.push((metric, count.into_inner()));
        }
        let when = match entry.when {
            Some(text) => Some(Cfg::parse(text.get_ref()).map_err(|e| here(text.span(), e))?),
            None => None,
        };
        out.push(Entry {
            path,
            allowed,
            reason: entry.reason.into_inner(),
            location,
            when,
        });
    }
    Ok(out)
}

/// A `[[debt]]` path as it is matched against root-relative file names: normalised as an
/// `[[exclude]]` path is ([`paths::normalize`]: `/` separators, `.` and `..` resolved, no
/// doubled `/`), spaces kept.
pub fn path_key(spelled: &str) -> String {
    paths::normalize(spelled)
}

fn at(file: &str, text: &str, span: Range<usize>, msg: impl std::fmt::Display) -> Error {
    let (line, col) = line_col(text, span.start);
    Error::at(file, line, Some(col), msg)
}

fn toml_error(file: &str, text: &str, err: &toml::de::Error) -> Error {
    super::locate::toml_error_pointing(file, text, err, "the debt ledger: docs/adopting.md")
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;
    use crate::policy::Policy;

    fn policy(text: &str) -> Result<Policy> {
        Policy::parse(Path::new("d/p.toml"), text)
    }

    fn err(text: &str) -> String {
        policy(text).unwrap_err().message()
    }

    #[test]
    fn an_entry_may_hold_for_some_legs_only() {
        let p = policy(
            "[[debt]]\npath = \"src/a.rs\"\nlines = 1\nreason = \"r\"\nwhen = \"cfg(windows)\"\n\
             [[debt]]\npath = \"src/b.rs\"\nlines = 1\nreason = \"r\"\n",
        )
        .unwrap();
        let a = p.debt.entry("src/a.rs").unwrap();
        assert_eq!(
            a.when.as_ref().map(|w| w.text.as_str()),
            Some("cfg(windows)")
        );
        assert_eq!(p.debt.entry("src/b.rs").unwrap().when, None);
        assert_eq!(
            err("[[debt]]\npath = \"src/a.rs\"\nreason = \"r\"\nwhen = \"cfg(unx)\"\n"),
            "d/p.toml:4:8: `unx` in the condition `cfg(unx)` is not a cfg name rustc knows; did \
             you mean `unix`? (a custom cfg holds only on a leg that sets it with --cfg, so a \
             misspelt name makes `not(unx)` hold everywhere); fix it, or rename the custom cfg"
        );
    }

    #[test]
    fn entries_in_the_policy() {
        let p = policy(
            "[[debt]]\npath = \"./src/a.rs\"\nlines = 2\nregions = 3\nreason = \"old\"\n\
             [[debt]]\npath = \"src/b.rs\"\nreason = \"r\"\n",
        )
        .unwrap();
        let ledger = &p.debt;
        assert_eq!(ledger.file, PathBuf::from("d/p.toml"));
        assert!(!ledger.pending);
        let a = ledger.entry("src/a.rs").unwrap();
        assert_eq!(a.allowed, vec![(Metric::Regions, 3), (Metric::Lines, 2)]);
        assert_eq!(a.allowed(Metric::Lines), 2);
        assert_eq!(a.allowed(Metric::Branches), 0);
        assert_eq!(a.location, "d/p.toml:2:8");
        assert_eq!(a.reason, "old");
        assert!(ledger.entry("src/c.rs").is_none());
        assert!(policy("").unwrap().debt.entries.is_empty());
        assert_eq!(
            policy("debt = []\n").unwrap().debt.entries,
            Vec::<Entry>::new()
        );
    }

    #[test]
    fn bad_entries_are_located() {
        let entry = |body: &str| err(&format!("[[debt]]\n{body}\n"));
        assert_eq!(
            entry("path = \" \"\nreason = \"r\""),
            "d/p.toml:2:8: a [[debt]] needs a non-empty `path`"
        );
        assert_eq!(
            entry("path = \"src/*.rs\"\nreason = \"r\""),
            "d/p.toml:2:8: `src/*.rs`: a [[debt]] names one file, not a glob; write one entry per file"
        );
        assert!(entry("path = \"src/x/../b.rs\"\nreason = \"r\"")
            .starts_with("d/p.toml:2:8: `src/x/../b.rs`: a `..` after a folder name is ambiguous"));
        assert_eq!(
            entry("path = \"a\"\nreason = \"\""),
            "d/p.toml:3:10: a [[debt]] needs a non-empty `reason` saying why the file may miss items"
        );
        assert!(entry("path = \"a\"\nreason = \"r\"\nlines = -1")
            .starts_with("d/p.toml:4:9: invalid value"));
        assert!(entry("path = \"a\"\nreason = \"r\"\nstatements = 1")
            .starts_with("d/p.toml:4:1: unknown field `statements`"));
        assert!(entry("path = \"a\"").contains("missing field `reason`"));
        assert!(
            entry("path = \"a\"\nreason = \"r\"\nregion = 3").contains(
                "unknown field `region`, expected one of `path`, `reason`, `regions`, `branches`, `functions`, `lines`, `mcdc`, `when`; did you mean `regions`? (the debt ledger: docs/adopting.md)"
            )
        );
        assert!(err("debt = \"l.toml\"\n[[debt]]\npath = \"a\"\nreason = \"r\"\n").contains(
            "duplicate key `debt` in document root; `debt = \"…\"` names the file the ledger lives in: write the [[debt]] entries there, or drop the `debt` key to keep them in the policy"
        ));
        assert_eq!(
            err("[[debt]]\npath = \"a\"\nreason = \"r\"\nmcdc = 1\n"),
            "d/p.toml:4:8: `mcdc` is not among the policy's `[measure] metrics`; drop it from the [[debt]] entry"
        );
        assert_eq!(
            err("[measure]\nmetrics = [\"lines\"]\n[[debt]]\npath = \"a\"\nreason = \"r\"\nregions = 1\n"),
            "d/p.toml:6:11: `regions` is not among the policy's `[measure] metrics`; drop it from the [[debt]] entry"
        );
        assert_eq!(
            err("[[debt]]\npath = \"a\"\nreason = \"r\"\n[[debt]]\npath = \"./a\"\nreason = \"r\"\n"),
            "d/p.toml:5:8: `a` has a [[debt]] entry already (at d/p.toml:2:8); keep one entry per file"
        );
        assert_eq!(
            err("debt = 3\n"),
            "d/p.toml:1:8: `debt` is either the ledger's file name (debt = \"coverage-debt.toml\") or [[debt]] entries"
        );
        assert_eq!(
            err("debt = \" \"\n"),
            "d/p.toml:1:8: `debt` names no file; give the ledger's path (e.g. debt = \"coverage-debt.toml\")"
        );
    }

    #[test]
    fn a_named_ledger_is_read_by_load() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("coverage-policy.toml");
        std::fs::write(&file, "debt = \"ledger.toml\"\n").unwrap();
        let ledger_path = dir.path().join("ledger.toml");
        std::fs::write(
            &ledger_path,
            "# kept\n[[debt]]\npath = \"src/a.rs\"\nfunctions = 1\nreason = \"r\"\n",
        )
        .unwrap();
        let p = Policy::load(&file).unwrap();
        assert_eq!(p.debt.file, ledger_path);
        assert!(!p.debt.pending);
        assert_eq!(p.debt.entries[0].allowed, vec![(Metric::Functions, 1)]);
        assert_eq!(
            p.debt.entries[0].location,
            format!("{}:3:8", ledger_path.display())
        );
        let e = |text: &[u8]| {
            std::fs::write(&ledger_path, text).unwrap();
            Policy::load(&file).unwrap_err().message()
        };
        let shown = ledger_path.display().to_string();
        assert!(e(b"[measure]\n").starts_with(&format!("{shown}:1:2: unknown field `measure`")));
        assert!(e(b"[[debt]]\npath = 1\n").starts_with(&format!("{shown}:2:8: invalid type")));
        let two_lines = e(b"[[debt]]\npath = [\"a\"\n");
        assert!(
            two_lines.starts_with(&format!("{shown}:3:1: invalid array; expected `]`")),
            "{two_lines}"
        );
        assert!(
            two_lines.ends_with("(the debt ledger: docs/adopting.md)"),
            "{two_lines}"
        );
        assert_eq!(
            e(b"\xff"),
            format!("{shown}: cannot read the debt ledger that `debt` names at {}:1:8: it is not UTF-8 text", file.display())
        );
        std::fs::remove_file(&ledger_path).unwrap();
        assert!(Policy::load(&file)
            .unwrap_err()
            .message()
            .starts_with(&format!(
                "{shown}: cannot read the debt ledger that `debt` names at {}:1:8: ",
                file.display()
            )));
    }
}
