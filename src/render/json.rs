//! JSON output (`--format json`): a stable interface for machines.
//!
//! ```text
//! { "schema_version": 1, "verdict": "pass" | "fail",
//!   "facts": { "version", "policy", "root", "threshold", "walked", "reports": [{ "path", "format" }],
//!              "target": { "triple", "source", "known", "cfg": [..] },
//!              "programs": [{ "name", "found", "path" }],
//!              "conditions": [{ "path", "location", "reason", "when", "when_missing", "active", "why" }],
//!              "warnings": [..],
//!              "roster"?: { "verified", "suites": [{ "name", "location", "reason", "filter", "glob",
//!                                                    "when", "when_missing", "active", "why" }] } },
//!   "summary": { "measured", "passed", "failed", "unmeasured", "excluded", "no_code", "outside_include",
//!                "ignored": { "lines", "regions", "branches", "functions" }, "files_with_ignores",
//!                "notes": [{ "metric", "note" }] },
//!   "files": [ { "path", "status", "metrics": { "<metric>": { "covered", "total", "status" } },
//!               "reason"?, "uncovered"?, "ignored"? } ] }
//! ```
//! `path` is root-relative with `/` separators; `status` is `pass`, `fail`, `unmeasured`,
//! `excluded` or `no-code`; a metric's `status` is `pass`, `fail`, `vacuous` or `unavailable`
//! (then `covered` and `total` are `null`). Files come failing first, then by path. A failing
//! file carries `uncovered`: for each metric it fails, the complete list of items
//! (see [`crate::uncovered`]). A measured file carries `ignored`: what inline markers took out.
//! `facts.target.source` is `host` or `--target`; `cfg` lists `rustc --print cfg` lines.
//! `facts.programs` lists each `when-missing` program (`path` null when not found);
//! `facts.conditions` lists each conditional `[[exclude]]` (`when` null when absent), active or not.
//! `facts.roster` is present only when the policy has `[[suite]]` entries. `facts.warnings` lists
//! what the reports' readers warned of (e.g. a tracefile without its final `end_of_record`),
//! each naming its report and line; empty when nothing was.

use std::collections::BTreeMap;
use std::io::Write;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::{json, Value};

/// The version of this output's shape (`schema/check-output.schema.json`). Later versions only
/// add fields; consumers ignore fields they do not know.
pub const SCHEMA_VERSION: u32 = 1;

use super::Facts;
use crate::ignore::Ignored;
use crate::judge::{unavailable_hint, FileStatus, FileVerdict, MetricVerdict, Verdict};
use crate::model::Metric;
use crate::report::llvm_json::{LineRange, Span};
use crate::uncovered::{BranchItem, FunctionItem, Uncovered};

/// Renders the verdict as a pretty-printed JSON document (with a final newline), in the shape
/// above, as `{:#}` prints a `serde_json::Value` (two-space indent).
///
/// Objects are written with their keys in alphabetical order. The files, which can hold millions
/// of uncovered items, are serialised straight from the verdict, without a `Value` tree.
pub fn render(facts: &Facts, verdict: &Verdict) -> String {
    let mut out = Vec::with_capacity(4096);
    // Writing to a `Vec` cannot fail, and every map key here is a string.
    let _ = write(facts, verdict, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Writes what [`render`] returns to `out` as it is serialised (no copy of the document is
/// held). Errors are `out`'s write errors.
pub fn write(facts: &Facts, verdict: &Verdict, out: &mut dyn Write) -> std::io::Result<()> {
    let passed = verdict.count(FileStatus::Pass);
    let failed = verdict.count(FileStatus::Fail);
    let doc = Document {
        facts: facts_json(facts),
        files: verdict.files.iter().map(FileView).collect(),
        schema_version: SCHEMA_VERSION,
        summary: json!({
            "measured": passed + failed,
            "passed": passed,
            "failed": failed,
            "unmeasured": verdict.count(FileStatus::Unmeasured),
            "excluded": verdict.count(FileStatus::Excluded),
            "no_code": verdict.count(FileStatus::NoCode),
            "outside_include": verdict.outside_include,
            "ignored": ignored_json(verdict.ignored().0),
            "files_with_ignores": verdict.ignored().1,
            "notes": verdict.unavailable.iter().map(|m| json!({
                "metric": m.name(), "note": unavailable_hint(*m),
            })).collect::<Vec<_>>(),
        }),
        verdict: if verdict.passed() { "pass" } else { "fail" },
    };
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    serde_json::to_writer_pretty(&mut out, &doc)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// The whole document, its keys in alphabetical order (as a `Value` map writes them).
#[derive(Serialize)]
struct Document<'a> {
    facts: Value,
    files: Vec<FileView<'a>>,
    schema_version: u32,
    summary: Value,
    verdict: &'static str,
}

fn facts_json(facts: &Facts) -> Value {
    let mut doc = json!({
        "version": facts.version,
        "policy": facts.policy,
        "root": facts.root,
        "threshold": facts.threshold,
        "walked": facts.walked,
        "reports": facts.reports.iter().map(|(path, format)| json!({"path": path, "format": format})).collect::<Vec<_>>(),
        "target": {
            "triple": facts.target.triple,
            "source": facts.target.source,
            "known": facts.target.known,
            "cfg": facts.target.cfg,
        },
        "programs": facts.programs.iter().map(|(name, path)| json!({
            "name": name, "found": path.is_some(), "path": path,
        })).collect::<Vec<_>>(),
        "warnings": facts.warnings,
        "conditions": facts.conditions.iter().map(|c| json!({
            "path": c.glob, "location": c.location, "reason": c.reason, "when": c.when,
            "when_missing": c.when_missing, "active": c.active, "why": c.why,
        })).collect::<Vec<_>>(),
    });
    // `doc` is the object built just above, so only `facts.roster` decides whether this runs.
    if let (Some(roster), Value::Object(fields)) = (&facts.roster, &mut doc) {
        fields.insert(
            "roster".to_string(),
            json!({
                "verified": roster.verified,
                "suites": roster.suites.iter().map(|s| json!({
                    "name": s.name, "location": s.location, "reason": s.reason, "filter": s.filter,
                    "glob": s.glob, "when": s.when, "when_missing": s.when_missing,
                    "active": s.active, "why": s.why,
                })).collect::<Vec<_>>(),
            }),
        );
    }
    doc
}

/// One file: `{ "ignored"?, "metrics", "path", "reason"?, "status", "uncovered"? }`.
struct FileView<'a>(&'a FileVerdict);

impl Serialize for FileView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let file = self.0;
        let measured = matches!(file.status, FileStatus::Pass | FileStatus::Fail);
        let failed = file.status == FileStatus::Fail;
        let mut map = serializer.serialize_map(None)?;
        if measured {
            map.serialize_entry("ignored", &ignored_json(file.ignored))?;
        }
        let metrics: BTreeMap<&str, MetricView> = file
            .metrics
            .iter()
            .map(|m| (m.metric.name(), MetricView(m)))
            .collect();
        map.serialize_entry("metrics", &metrics)?;
        map.serialize_entry("path", &file.path)?;
        if let Some(reason) = &file.reason {
            map.serialize_entry("reason", reason)?;
        }
        map.serialize_entry("status", file.status.name())?;
        if failed {
            map.serialize_entry("uncovered", &UncoveredView(&file.uncovered))?;
        }
        map.end()
    }
}

/// `{ "covered", "status", "total" }` (counts `null` when unavailable).
struct MetricView<'a>(&'a MetricVerdict);

impl Serialize for MetricView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let m = self.0;
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("covered", &m.counts.map(|c| c.covered))?;
        map.serialize_entry("status", m.status.name())?;
        map.serialize_entry("total", &m.counts.map(|c| c.total))?;
        map.end()
    }
}

/// `{ "lines", "regions", "branches", "functions" }`: items inline markers took out.
fn ignored_json(i: Ignored) -> Value {
    json!({"lines": i.lines, "regions": i.regions, "branches": i.branches, "functions": i.functions})
}

/// `{ "branches": [{column, line, side, what}], "functions": [{line, name}],
/// "lines": [{end, start}], "notes": [{metric, note}],
/// "regions": [{col_end, col_start, line_end, line_start}] }`, complete. A note stands for a
/// failing metric whose items the input cannot show.
struct UncoveredView<'a>(&'a Uncovered);

impl Serialize for UncoveredView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let u = self.0;
        let mut map = serializer.serialize_map(Some(5))?;
        map.serialize_entry("branches", &Items(&u.branches, branch_json))?;
        map.serialize_entry("functions", &Items(&u.functions, function_json))?;
        map.serialize_entry("lines", &Items(&u.lines, line_json))?;
        map.serialize_entry("notes", &Items(&u.notes, note_json))?;
        map.serialize_entry("regions", &Items(&u.regions, region_json))?;
        map.end()
    }
}

/// A list serialised item by item, each through a small view.
struct Items<'a, T, V>(&'a [T], fn(&'a T) -> V);

impl<'a, T, V: Serialize> Serialize for Items<'a, T, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(self.1))
    }
}

#[derive(Serialize)]
struct BranchJson<'a> {
    column: Option<u32>,
    line: u32,
    side: &'a str,
    what: &'a str,
}

fn branch_json(b: &BranchItem) -> BranchJson<'_> {
    BranchJson {
        column: b.column,
        line: b.line,
        side: &b.side,
        what: b.what,
    }
}

#[derive(Serialize)]
struct FunctionJson<'a> {
    line: Option<u32>,
    name: &'a str,
}

fn function_json(f: &FunctionItem) -> FunctionJson<'_> {
    FunctionJson {
        line: f.line,
        name: &f.name,
    }
}

#[derive(Serialize)]
struct LineJson {
    end: u32,
    start: u32,
}

fn line_json(r: &LineRange) -> LineJson {
    LineJson {
        end: r.end,
        start: r.start,
    }
}

#[derive(Serialize)]
struct NoteJson<'a> {
    metric: &'a str,
    note: &'a str,
}

fn note_json((metric, note): &(Metric, String)) -> NoteJson<'_> {
    NoteJson {
        metric: metric.name(),
        note,
    }
}

#[derive(Serialize)]
struct RegionJson {
    col_end: u32,
    col_start: u32,
    line_end: u32,
    line_start: u32,
}

fn region_json(s: &Span) -> RegionJson {
    RegionJson {
        col_end: s.col_end,
        col_start: s.col_start,
        line_end: s.line_end,
        line_start: s.line_start,
    }
}
