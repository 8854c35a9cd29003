//! `covgate check --tighten`: rewrites the debt ledger (see [`crate::debt`]) as the check
//! judges it, one rule for every entry: an entry the check calls *stale* (its file gone, excluded,
//! without code, or at 100% on every metric) is removed, saying why; an allowance the check calls
//! *loose* is lowered to the missed count (its key removed at 0); nothing else changes. So an
//! allowance never goes up, and an entry is never removed while its file misses items (that
//! would hold the file to the threshold, which may allow more): an entry whose allowances all
//! reached 0 stays, allowing nothing, until its file reaches 100% and the entry goes as stale.
//!
//! The ledger file (the policy, or the file its `debt` key names) is edited in place with
//! `toml_edit`: every comment, the order of entries and keys, and the formatting of what is not
//! changed are kept; a lowered count keeps its own comment. Raising an allowance is a hand edit,
//! visible in review.

use toml_edit::{DocumentMut, Item, Table};

use crate::commands::check::{self, CheckOptions};
use crate::debt::{self, Ledger};
use crate::error::{Error, Result};
use crate::judge::Verdict;
use crate::model::Metric;
use crate::policy::Policy;
use crate::source;

/// One change to the ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// An allowance lowered to the missed count: metric, from, to (above 0).
    Lower(Metric, u64, u64),
    /// An allowance removed: its metric misses nothing now (the old count).
    Drop(Metric, u64),
    /// The whole entry removed: why it is stale (as the check says it, hint included).
    Remove(String),
}

/// What `--tighten` does to the entry of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// The entry's `path`.
    pub path: String,
    /// The change.
    pub change: Change,
}

impl Edit {
    /// `src/a.rs: lines 2 → 1`, `src/a.rs: regions 1 → 0 (removed)`,
    /// `src/a.rs: entry removed (at 100% on every metric)`.
    pub fn describe(&self) -> String {
        let what = match &self.change {
            Change::Lower(metric, from, to) => format!("{metric} {from} → {to}"),
            Change::Drop(metric, from) => format!("{metric} {from} → 0 (removed)"),
            Change::Remove(why) => format!("entry removed ({why})"),
        };
        format!("{}: {what}", self.path)
    }
}

/// The edits that bring `ledger` down to `verdict`'s counts, as the check judges each entry
/// (see the module docs): a stale entry ([`debt::stale_because`]; `walked` as for it) removed,
/// with why and, for a file that is gone, the in-scope file it probably misspells; each loose
/// allowance (above its missed count) lowered to it, or dropped at 0. An allowance of a metric
/// that was not measured (unavailable, or the file unmeasured) stays, as does an allowance the
/// file exceeds (raising it is a hand edit).
pub fn plan(ledger: &Ledger, verdict: &Verdict, walked: bool) -> Vec<Edit> {
    let mut edits = Vec::new();
    for entry in &ledger.entries {
        let edit = |change| Edit {
            path: entry.path.clone(),
            change,
        };
        if let Some(why) = debt::stale_because(entry, verdict, walked) {
            let hint = debt::gone_hint(entry, why, verdict);
            edits.push(edit(Change::Remove(format!("{why}{hint}"))));
            continue;
        }
        let file = verdict.files.iter().find(|f| f.path == entry.path);
        let measured = |metric: Metric| {
            file.and_then(|f| f.metrics.iter().find(|m| m.metric == metric))
                .and_then(|m| m.counts)
                .map(debt::missed)
        };
        for &(metric, from) in &entry.allowed {
            match measured(metric) {
                Some(0) if from > 0 => edits.push(edit(Change::Drop(metric, from))),
                Some(to) if to < from => edits.push(edit(Change::Lower(metric, from, to))),
                _ => {}
            }
        }
    }
    edits
}

/// `text` (a policy or ledger file) with `edits` made to its `[[debt]]` tables, everything else
/// as it was.
///
/// Errors: the text is not TOML, or its `debt` is not written as `[[debt]]` tables (an inline
/// array cannot be edited in place).
pub fn rewrite(file: &str, text: &str, edits: &[Edit]) -> Result<String> {
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e| Error::new(format!("{file}: cannot edit the debt ledger: {e}")))?;
    let Some(tables) = doc.get_mut("debt").and_then(Item::as_array_of_tables_mut) else {
        return Err(Error::new(format!(
            "{file}: cannot tighten the debt ledger: write its entries as [[debt]] tables"
        )));
    };
    // Comments above a removed entry or key move to what follows it, never lost.
    let mut carried = String::new();
    let mut keep = Vec::new();
    for table in tables.iter_mut() {
        let changes: Vec<Option<(Metric, u64)>> = path_of(table)
            .map(|path| {
                edits
                    .iter()
                    .filter(|e| e.path == path)
                    .map(|e| target(&e.change))
                    .collect()
            })
            .unwrap_or_default();
        let removed = changes.contains(&None);
        if removed {
            // Blank lines alone are spacing, not worth keeping.
            let own = prefix(table.decor());
            if own.contains('#') {
                carried.push_str(&own);
            }
        } else {
            carry_to(table.decor_mut(), &mut carried);
            for (metric, to) in changes.into_iter().flatten() {
                edit_table(table, metric, to, &mut carried);
            }
        }
        keep.push(!removed);
    }
    let mut keep = keep.into_iter();
    tables.retain(|_| keep.next().unwrap_or(true));
    let trailing = format!("{carried}{}", prefix_raw(Some(doc.trailing())));
    doc.set_trailing(trailing);
    Ok(doc.to_string())
}

/// The allowance `change` leaves: metric and count (0: the key goes), `None` when the whole
/// entry goes.
fn target(change: &Change) -> Option<(Metric, u64)> {
    match *change {
        Change::Lower(metric, _, to) => Some((metric, to)),
        Change::Drop(metric, _) => Some((metric, 0)),
        Change::Remove(_) => None,
    }
}

/// Sets `metric`'s allowance in `table` to `to`, or removes its key at 0; a removed key's
/// comments go to the key after it, or into `carried` (for whatever follows the table) when it
/// was the last.
fn edit_table(table: &mut Table, metric: Metric, to: u64, carried: &mut String) {
    let name = metric.name();
    if to > 0 {
        lower(table, metric, to);
        return;
    }
    let next = table
        .iter()
        .map(|(key, _)| key.to_string())
        .skip_while(|key| key != name)
        .nth(1);
    let comments = table
        .key(name)
        .map(|key| prefix(key.leaf_decor()))
        .unwrap_or_default();
    table.remove(name);
    carried.push_str(&comments);
    if let Some(mut key) = next.and_then(|next| table.key_mut(&next)) {
        carry_to(key.leaf_decor_mut(), carried);
    }
}

/// The text before an item (its comments and blank lines), empty when it has the default.
fn prefix(decor: &toml_edit::Decor) -> String {
    prefix_raw(decor.prefix())
}

fn prefix_raw(raw: Option<&toml_edit::RawString>) -> String {
    raw.and_then(toml_edit::RawString::as_str)
        .unwrap_or_default()
        .to_string()
}

/// Puts the `carried` text (comments of removed items) before `decor`'s own, emptying it.
fn carry_to(decor: &mut toml_edit::Decor, carried: &mut String) {
    if !carried.is_empty() {
        let own = prefix(decor);
        decor.set_prefix(format!("{}{own}", std::mem::take(carried)));
    }
}

/// A `[[debt]]` table's `path`, spelled as [`crate::debt`] reads it.
fn path_of(table: &Table) -> Option<String> {
    Some(crate::policy::debt::path_key(table.get("path")?.as_str()?))
}

/// Sets `metric` in `table` to `to`, keeping the value's own spacing and comment.
fn lower(table: &mut Table, metric: Metric, to: u64) {
    if let Some(value) = table.get_mut(metric.name()).and_then(Item::as_value_mut) {
        let decor = value.decor().clone();
        *value = toml_edit::Value::from(i64::try_from(to).unwrap_or(i64::MAX));
        *value.decor_mut() = decor;
    }
}

/// Tightens the ledger of the policy behind `outcome` (as [`plan`] says; only the entries of
/// the root-relative files in `only`, when it names any: `--file`) and writes it back whole or
/// not at all; returns the edits, in ledger order (none: the file is left untouched).
///
/// Errors (exit 2): the policy or ledger cannot be read, edited ([`rewrite`]) or written.
pub fn tighten(
    policy: &Policy,
    verdict: &Verdict,
    walked: bool,
    only: &[String],
) -> Result<Vec<Edit>> {
    let edits: Vec<Edit> = plan(&policy.debt, verdict, walked)
        .into_iter()
        .filter(|e| only.is_empty() || only.contains(&e.path))
        .collect();
    if edits.is_empty() {
        return Ok(edits);
    }
    let file = &policy.debt.file;
    let shown = file.display().to_string();
    source::read(file, source::MAX_POLICY)
        .map_err(|why| Error::new(format!("{shown}: cannot read the debt ledger: {why}")))
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .and_then(|text| rewrite(&shown, &text, &edits))
        .and_then(|text| {
            crate::output::write_atomically(file, &mut |out| out.write_all(text.as_bytes()))
        })
        .map(|()| edits)
}

/// `covgate check --tighten`: judges the reports with stale entries allowed (the roster is left
/// to the check proper), tightens the ledger ([`tighten`]; with `--file`, only those files'
/// entries) and returns one line per edit, e.g. `tightened coverage-debt.toml: src/a.rs:
/// lines 2 → 1`. The check proper runs afterwards, on the tightened ledger.
///
/// Errors (exit 2): as for the check, and for [`tighten`].
pub fn run(opts: &CheckOptions) -> Result<Vec<String>> {
    let first = CheckOptions {
        tighten: true,
        files: Vec::new(),
        ..opts.clone()
    };
    // The roster is verified by the check proper, which runs afterwards.
    let setup = check::Setup::load(&first)?;
    let outcome = check::check_verified(&setup, &first, false)?;
    let cwd = crate::paths::normalize(&opts.cwd.to_string_lossy());
    let only: Vec<String> = opts
        .files
        .iter()
        .map(|f| crate::focus::name(f, &cwd, &setup.root))
        .collect();
    let edits = tighten(&setup.policy, &outcome.verdict, outcome.facts.walked, &only)?;
    let file = setup.policy.debt.file.display().to_string();
    Ok(edits
        .iter()
        .map(|e| format!("tightened {file}: {}", e.describe()))
        .collect())
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    const LEDGER: &str = "\
# The debt ledger.

# Old parser code.
[[debt]]
path = \"src/a.rs\"
regions = 4   # was 5
lines   = 2
reason  = \"legacy\"

[[debt]] # fully tested now
path = \"./src/b.rs\"
functions = 1
reason = \"r\"

[[debt]]
path = \"src/c.rs\"
lines = 3
reason = \"untouched\"
";

    fn edit(path: &str, change: Change) -> Edit {
        Edit {
            path: path.to_string(),
            change,
        }
    }

    #[test]
    fn rewrites_keep_comments_order_and_layout() {
        let edits = [
            edit("src/a.rs", Change::Lower(Metric::Regions, 4, 1)),
            edit("src/a.rs", Change::Drop(Metric::Lines, 2)),
            edit("src/b.rs", Change::Remove("at 100% on every metric".into())),
        ];
        let out = rewrite("l.toml", LEDGER, &edits).unwrap();
        assert_eq!(
            out,
            "\
# The debt ledger.

# Old parser code.
[[debt]]
path = \"src/a.rs\"
regions = 1   # was 5
reason  = \"legacy\"

[[debt]]
path = \"src/c.rs\"
lines = 3
reason = \"untouched\"
"
        );
        // A table without a path, and a lowered metric not written, are left alone.
        let odd = "[[debt]]\nreason = \"r\"\n[[debt]]\npath = 1\n[[debt]]\npath = \"x\"\nreason = \"r\"\n";
        assert_eq!(
            rewrite(
                "l.toml",
                odd,
                &[edit("x", Change::Lower(Metric::Lines, 2, 1))]
            )
            .unwrap(),
            odd
        );
    }

    #[test]
    fn removals_keep_the_comments_above_them() {
        let ledger = "\
# Debt at adoption: header.

# first entry
[[debt]]
path = \"src/a.rs\"
lines = 2
reason = \"r\"

[[debt]]
path = \"src/b.rs\"
# why regions
regions = 3
# why lines
lines = 1
# why functions
functions = 2
reason = \"r\"

# before the last
[[debt]]
path = \"src/c.rs\"
lines = 1
# trailing key's note
branches = 1
";
        let edits = [
            edit("src/a.rs", Change::Remove("at 100% on every metric".into())),
            edit("src/b.rs", Change::Drop(Metric::Lines, 1)),
            edit("src/b.rs", Change::Drop(Metric::Functions, 2)),
            edit("src/c.rs", Change::Drop(Metric::Branches, 1)),
        ];
        assert_eq!(
            rewrite("l.toml", ledger, &edits).unwrap(),
            "\
# Debt at adoption: header.

# first entry

[[debt]]
path = \"src/b.rs\"
# why regions
regions = 3
# why lines
# why functions
reason = \"r\"

# before the last
[[debt]]
path = \"src/c.rs\"
lines = 1
# trailing key's note
"
        );
        // Every entry removed: the comments stay at the end.
        let all = [
            edit("src/a.rs", Change::Remove("r".into())),
            edit("src/b.rs", Change::Remove("r".into())),
            edit("src/c.rs", Change::Remove("r".into())),
        ];
        assert_eq!(
            rewrite("l.toml", ledger, &all).unwrap(),
            "# Debt at adoption: header.\n\n# first entry\n\n# before the last\n"
        );
    }

    #[test]
    fn inline_arrays_and_bad_text_are_errors() {
        let e = rewrite("l.toml", "debt = []\n", &[]).unwrap_err();
        assert_eq!(
            e.message(),
            "l.toml: cannot tighten the debt ledger: write its entries as [[debt]] tables"
        );
        let e = rewrite("l.toml", "[[debt]\n", &[]).unwrap_err();
        assert!(
            e.message()
                .starts_with("l.toml: cannot edit the debt ledger: "),
            "{e}"
        );
    }

    #[test]
    fn a_ledger_that_cannot_be_read_is_an_error() {
        let mut policy = Policy::parse(
            std::path::Path::new("p.toml"),
            "[[debt]]\npath = \"src/gone.rs\"\nlines = 1\nreason = \"r\"\n",
        )
        .unwrap();
        policy.debt.file = "/nonexistent/ledger.toml".into();
        let mut verdict = Verdict {
            files: vec![crate::judge::FileVerdict {
                path: "src/gone.rs".to_string(),
                status: crate::judge::FileStatus::NoCode,
                metrics: crate::judge::Metrics::default(),
                reason: None,
                uncovered: crate::uncovered::Listed::default(),
                ignored: None,
                coverage_off: Box::default(),
            }],
            outside_include: 0,
            dropped: Vec::new(),
            unavailable: Vec::new(),
            empty: crate::judge::Empty::No,
        };
        let e = tighten(&policy, &verdict, true, &[]).unwrap_err();
        assert!(
            e.message()
                .starts_with("/nonexistent/ledger.toml: cannot read the debt ledger: "),
            "{e}"
        );
        // Gone (walked, in no report): stale, as the check says, so removed, naming the file
        // it probably misspells; not walked: a file in no report may still exist, and stays.
        verdict.files[0].path = "src/gone.r".to_string();
        assert_eq!(
            plan(&policy.debt, &verdict, true),
            vec![edit(
                "src/gone.rs",
                Change::Remove(format!("{}; did you mean `src/gone.r`?", debt::GONE))
            )]
        );
        verdict.files.clear();
        assert_eq!(
            plan(&policy.debt, &verdict, true),
            vec![edit("src/gone.rs", Change::Remove(debt::GONE.into()))]
        );
        assert_eq!(plan(&policy.debt, &verdict, false), Vec::new());
    }

    #[test]
    fn plan_does_what_the_check_says() {
        let policy = Policy::parse(
            std::path::Path::new("p.toml"),
            "[measure]\nmetrics = [\"regions\", \"branches\", \"functions\", \"lines\"]\n\
             [[debt]]\npath = \"src/a.rs\"\nregions = 0\nbranches = 1\nfunctions = 2\nlines = 5\nreason = \"r\"\n",
        )
        .unwrap();
        let metric = |metric, covered, total| crate::judge::MetricVerdict {
            metric,
            counts: Some(crate::model::Counts::new(covered, total)),
            status: crate::judge::MetricStatus::Fail,
            allowed: None,
        };
        let verdict = Verdict {
            files: vec![crate::judge::FileVerdict {
                path: "src/a.rs".to_string(),
                status: crate::judge::FileStatus::Fail,
                // regions: 0 allowed, 0 missed (pass); branches: 1 allowed, 0 missed (loose, to
                // 0); functions: 2 allowed, 3 missed (fail, never raised); lines: 5 allowed, 1
                // missed (loose).
                metrics: vec![
                    metric(Metric::Regions, 4, 4),
                    metric(Metric::Branches, 2, 2),
                    metric(Metric::Functions, 0, 3),
                    metric(Metric::Lines, 3, 4),
                ]
                .into(),
                reason: None,
                uncovered: crate::uncovered::Listed::default(),
                ignored: None,
                coverage_off: Box::default(),
            }],
            outside_include: 0,
            dropped: Vec::new(),
            unavailable: Vec::new(),
            empty: crate::judge::Empty::No,
        };
        assert_eq!(
            plan(&policy.debt, &verdict, true),
            vec![
                edit("src/a.rs", Change::Drop(Metric::Branches, 1)),
                edit("src/a.rs", Change::Lower(Metric::Lines, 5, 1))
            ]
        );
    }

    #[test]
    fn edits_describe_themselves() {
        assert_eq!(
            edit("a", Change::Lower(Metric::Lines, 3, 1)).describe(),
            "a: lines 3 → 1"
        );
        assert_eq!(
            edit("a", Change::Drop(Metric::Regions, 2)).describe(),
            "a: regions 2 → 0 (removed)"
        );
        assert_eq!(
            edit("a", Change::Remove("has no code".into())).describe(),
            "a: entry removed (has no code)"
        );
    }
}
