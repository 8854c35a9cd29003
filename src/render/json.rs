//! JSON output (`--format json`): a stable interface for machines.
//!
//! ```text
//! { "schema_version": 2, "verdict": "pass" | "fail",
//!   "facts": { "version", "policy", "root", "threshold", "walked", "reports": [{ "path", "format" }],
//!              "target": { "triple", "source", "known", "cfg": [..] },
//!              "programs": [{ "name", "found", "path" }],
//!              "conditions": [{ "path", "location", "reason", "when", "when_missing", "active", "why" }],
//!              "warnings": [..],
//!              "roster"?: { "verified", "suites": [{ "name", "location", "reason", "filter", "glob",
//!                                                    "when", "when_missing", "active", "why" }] } },
//!   "summary": { "measured", "passed", "failed", "unmeasured", "excluded", "no_code", "outside_include",
//!                "ignored": { "lines", "regions", "branches", "functions" }, "files_with_ignores",
//!                "coverage_off": { "items", "outside_tests", "files" },
//!                "debt"?: { "allowed", "files" },
//!                "notes": [{ "metric", "note" }], "empty"?: { "allowed", "reason", "note" } },
//!   "files": [ { "path", "status", "metrics": { "<metric>": { "covered", "total", "status", "allowed"? } },
//!               "reason"?, "uncovered"?, "ignored"?,
//!               "coverage_off"?: { "items", "lines", "outside_tests" } } ],
//!   "dropped": [ { "report", "path", "name", "why" } ] }
//! ```
//! `dropped` lists every report file that is not judged, once per report and spelling: `path` as
//! the report spells it, `name` as covgate resolved it (root-relative, or absolute outside the
//! root), `why` is `outside the root` or `not selected by include`; root-relative names first,
//! then absolute ones, each in path order.
//! `path` is root-relative with `/` separators; `status` is `pass`, `fail`, `unmeasured`,
//! `excluded` or `no-code`; a metric's `status` is `pass`, `fail`, `vacuous`, `unavailable`
//! (then `covered` and `total` are `null`) or `loose` (a `[[debt]]` entry allows more missed
//! items than there are; `allowed` is then present, as for every metric of a file with an
//! entry: see [`crate::debt`]). `summary.debt` totals the allowances (schema version 2). Files come failing first, then by path. A failing
//! file carries `uncovered`: for each metric it fails, the complete list of items
//! (see [`crate::uncovered`]). A measured file carries `ignored`: what inline markers took out.
//! A measured Rust file with `coverage(off)` attributes carries `coverage_off`: how many, the
//! line of each, and the lines of those outside test code; `summary.coverage_off` totals them
//! (`files`: how many files have any).
//! Schema 2 added the `mcdc` metric (present only when the policy names it), `uncovered.conditions`
//! (`[{line, column, decision_line, decision_column, instantiation?}]`, present only when the
//! policy names `mcdc`), and `instantiation` on uncovered regions and branch sides (present only
//! when the item's function has several instantiations).
//! `facts.target.source` is `host` or `--target`; `cfg` lists `rustc --print cfg` lines.
//! `facts.programs` lists each `when-missing` program (`path` null when not found);
//! `facts.conditions` lists each conditional `[[exclude]]` (`when` null when absent), active or not.
//! `facts.roster` is present only when the policy has `[[suite]]` entries. `facts.warnings` lists
//! what the reports' readers warned of (e.g. a tracefile without its final `end_of_record`),
//! each naming its report and line; empty when nothing was.

use std::collections::BTreeMap;
use std::io::Write;

use rayon::prelude::*;
use serde::ser::Serializer;
use serde::Serialize;
use serde_json::ser::Formatter;
use serde_json::{json, Value};

/// The version of this output's shape (`schema/check-output.schema.json`). Later versions only
/// add fields; consumers ignore fields they do not know.
pub(crate) const SCHEMA_VERSION: u32 = 2;

use crate::judge::{unavailable_hint, Empty, FileStatus, FileVerdict, MetricVerdict, Verdict};
use crate::measure::Ignored;
use crate::model::LineRange;
use crate::model::Metric;
use crate::outcome::Facts;
use crate::uncovered::{BranchItem, ConditionItem, FunctionItem, RegionItem, Uncovered};

/// Writes the verdict to `out` as a pretty-printed JSON document (with a final newline), in the
/// shape above, as `{:#}` prints a `serde_json::Value` (two-space indent), while it is
/// serialised: no copy of the document is held.
///
/// Objects are written with their keys in alphabetical order. The files, which can hold millions
/// of uncovered items, are serialised straight from the verdict, without a `Value` tree: a batch
/// of [`BATCH`] files at a time, on every core, each core's files into a buffer of its own, the
/// buffers then written in order.
///
/// Errors: `out`'s write errors.
pub fn write(facts: &Facts, verdict: &Verdict, out: &mut dyn Write) -> std::io::Result<()> {
    let passed = verdict.count(FileStatus::Pass);
    let failed = verdict.count(FileStatus::Fail);
    let dropped: Vec<Value> = verdict
        .dropped
        .iter()
        .map(|d| json!({"report": d.report, "path": d.path, "name": d.name, "why": d.why.describe()}))
        .collect();
    let mut summary = json!({
        "measured": passed + failed,
        "passed": passed,
        "failed": failed,
        "unmeasured": verdict.count(FileStatus::Unmeasured),
        "excluded": verdict.count(FileStatus::Excluded),
        "no_code": verdict.count(FileStatus::NoCode),
        "outside_include": verdict.outside_include,
        "ignored": ignored_json(verdict.ignored().0),
        "files_with_ignores": verdict.ignored().1,
        "coverage_off": coverage_off_totals(verdict),
        "notes": verdict.unavailable.iter().map(|m| json!({
            "metric": m.name(), "note": unavailable_hint(*m),
        })).collect::<Vec<_>>(),
    });
    if let (Some(empty), Some(fields)) = (empty_json(&verdict.empty), summary.as_object_mut()) {
        fields.insert("empty".to_string(), empty);
    }
    if let (Some(debt), Some(fields)) = (debt_json(verdict), summary.as_object_mut()) {
        fields.insert("debt".to_string(), debt);
    }
    let verdict_name = if verdict.passed() { "pass" } else { "fail" };
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    // The document's own object, written key by key (in alphabetical order), each value one
    // level in.
    out.write_all(b"{\n  \"dropped\": ")
        .and_then(|()| nested(&mut out, &dropped, 1))
        .and_then(|()| out.write_all(b",\n  \"facts\": "))
        .and_then(|()| nested(&mut out, &facts_json(facts), 1))
        .and_then(|()| out.write_all(b",\n  \"files\": "))
        .and_then(|()| write_files(&mut out, &verdict.files))
        .and_then(|()| out.write_all(b",\n  \"schema_version\": "))
        .and_then(|()| nested(&mut out, &SCHEMA_VERSION, 1))
        .and_then(|()| out.write_all(b",\n  \"summary\": "))
        .and_then(|()| nested(&mut out, &summary, 1))
        .and_then(|()| out.write_all(b",\n  \"verdict\": "))
        .and_then(|()| nested(&mut out, &verdict_name, 1))
        .and_then(|()| out.write_all(b"\n}\n"))
        .and_then(|()| out.flush())
}

/// How many files are rendered before they are written: the bytes held at once stay a few
/// megabytes, whatever the number of files.
const BATCH: usize = 2048;

/// How many files one core renders into one buffer.
const SHARE: usize = 64;

/// The `files` array, two levels in: `[]`, or each file on a line of its own.
fn write_files(out: &mut impl Write, files: &[FileVerdict]) -> std::io::Result<()> {
    // The array's end as serde_json's pretty printer writes it, its items two levels in.
    let mut array = Nested {
        depth: 2,
        has_value: !files.is_empty(),
    };
    out.write_all(b"[")
        .and_then(|()| {
            files
                .chunks(BATCH)
                .enumerate()
                .try_for_each(|(batch, files)| write_batch(out, files, batch * BATCH))
        })
        .and_then(|()| array.end_array(out))
}

/// One batch of files, rendered on every core and written in order; `base` is the index of its
/// first file in the array.
fn write_batch(out: &mut impl Write, files: &[FileVerdict], base: usize) -> std::io::Result<()> {
    let rendered: Vec<std::io::Result<Vec<u8>>> = files
        .par_chunks(SHARE)
        .enumerate()
        .map(|(share, files)| render_files(files, base + share * SHARE))
        .collect();
    rendered
        .into_iter()
        .try_for_each(|bytes| bytes.and_then(|bytes| out.write_all(&bytes)))
}

/// Files of the `files` array, each after its separator (a comma, except before the array's
/// first item; `base` is the index of the first of `files` in the array) and indentation.
/// (Written into memory: the only error would be serde_json's, which these views never give.)
fn render_files(files: &[FileVerdict], base: usize) -> std::io::Result<Vec<u8>> {
    let bytes = Vec::with_capacity(files.len() * 1024);
    files
        .iter()
        .enumerate()
        .try_fold(bytes, |mut bytes, (at, file)| {
            // The comma is left out before the array's first item only.
            let separator = b",\n    ".get(usize::from(base + at == 0)..);
            bytes.extend_from_slice(separator.unwrap_or_default());
            nested(&mut bytes, &file_json(file), 2).map(|()| bytes)
        })
}

/// Writes `value` as serde_json's pretty printer writes it `depth` levels into a document.
fn nested(out: &mut impl Write, value: &impl Serialize, depth: usize) -> std::io::Result<()> {
    let formatter = Nested {
        depth,
        has_value: false,
    };
    value
        .serialize(&mut serde_json::Serializer::with_formatter(out, formatter))
        .map_err(std::io::Error::from)
}

/// serde_json's `PrettyFormatter` with its two-space indent, starting `depth` levels in: the
/// same bytes as the value's place in the whole document would be given.
struct Nested {
    depth: usize,
    has_value: bool,
}

impl Nested {
    fn indent(&self, out: &mut (impl Write + ?Sized)) -> std::io::Result<()> {
        (0..self.depth).try_for_each(|_| out.write_all(b"  "))
    }

    /// Ends an array or an object: its closing mark on a line of its own, unless it is empty.
    fn end(&mut self, out: &mut (impl Write + ?Sized), mark: &[u8]) -> std::io::Result<()> {
        self.depth -= 1;
        let line = if self.has_value {
            out.write_all(b"\n").and_then(|()| self.indent(out))
        } else {
            Ok(())
        };
        line.and_then(|()| out.write_all(mark))
    }

    /// Starts an item of an array or a key of an object on a line of its own.
    fn item(&mut self, out: &mut (impl Write + ?Sized), first: bool) -> std::io::Result<()> {
        let start: &[u8] = if first { b"\n" } else { b",\n" };
        out.write_all(start).and_then(|()| self.indent(out))
    }
}

impl Formatter for Nested {
    fn begin_array<W: Write + ?Sized>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        out.write_all(b"[")
    }

    fn end_array<W: Write + ?Sized>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.end(out, b"]")
    }

    fn begin_array_value<W: Write + ?Sized>(
        &mut self,
        out: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(out, first)
    }

    fn end_array_value<W: Write + ?Sized>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: Write + ?Sized>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        out.write_all(b"{")
    }

    fn end_object<W: Write + ?Sized>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.end(out, b"}")
    }

    fn begin_object_key<W: Write + ?Sized>(
        &mut self,
        out: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(out, first)
    }

    fn begin_object_value<W: Write + ?Sized>(&mut self, out: &mut W) -> std::io::Result<()> {
        out.write_all(b": ")
    }

    fn end_object_value<W: Write + ?Sized>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// `summary.empty`, present only when the check measured no file (every in-scope file excluded
/// or without code): `{ "allowed", "reason", "note" }`, `reason` being the policy's
/// `allow-empty-reason`, `null` when not allowed (the check then fails).
fn empty_json(empty: &Empty) -> Option<Value> {
    let reason = match empty {
        Empty::No => return None,
        Empty::Fails => None,
        Empty::Allowed(reason) => Some(reason),
    };
    Some(json!({ "allowed": reason.is_some(), "reason": reason, "note": empty.note() }))
}

/// `summary.debt`, present only when a file has a `[[debt]]` entry: `{ "allowed", "files" }`,
/// the missed items the ledger allows in all, and the files it allows any in.
fn debt_json(verdict: &Verdict) -> Option<Value> {
    crate::debt::summary_line(verdict)?;
    let (allowed, files) = crate::debt::totals(verdict);
    Some(json!({ "allowed": allowed, "files": files }))
}

fn facts_json(facts: &Facts) -> Value {
    let mut doc = json!({
        "version": facts.version,
        "policy": facts.policy,
        "root": facts.root,
        "threshold": facts.threshold.as_f64(),
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

/// One file: `{ "coverage_off"?, "ignored"?, "metrics", "path", "reason"?, "status",
/// "uncovered"? }`: `ignored` for a measured file, `coverage_off` for one with a `coverage(off)`
/// attribute, `uncovered` for a failing one. (Derived serialisers: a write error
/// anywhere in the document ends it the same way.)
#[derive(Serialize)]
struct FileJson<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    coverage_off: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ignored: Option<Value>,
    metrics: BTreeMap<&'static str, MetricJson>,
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    uncovered: Option<UncoveredJson<'a>>,
}

fn file_json(file: &FileVerdict) -> FileJson<'_> {
    let measured = matches!(file.status, FileStatus::Pass | FileStatus::Fail);
    let failed = file.status == FileStatus::Fail;
    FileJson {
        coverage_off: (!file.coverage_off.is_empty()).then(|| coverage_off_json(file)),
        ignored: measured
            .then(|| ignored_json(file.ignored.as_deref().copied().unwrap_or_default())),
        metrics: file.metrics.iter().map(|m| metric_json(&m)).collect(),
        path: &file.path,
        reason: file.reason.as_deref(),
        status: file.status.name(),
        // A file shown with `--file` lists its items even when it passes.
        uncovered: (failed || *file.uncovered != Uncovered::default()).then(|| {
            let mcdc = file.metrics.iter().any(|m| m.metric == Metric::Mcdc);
            uncovered_json(&file.uncovered, mcdc)
        }),
    }
}

/// `{ "allowed"?, "covered", "status", "total" }` (counts `null` when unavailable; `allowed`
/// only for a file with a `[[debt]]` entry).
#[derive(Serialize)]
struct MetricJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    allowed: Option<u64>,
    covered: Option<u64>,
    status: &'static str,
    total: Option<u64>,
}

fn metric_json(m: &MetricVerdict) -> (&'static str, MetricJson) {
    let json = MetricJson {
        allowed: m.allowed,
        covered: m.counts.map(|c| c.covered),
        status: m.status.name(),
        total: m.counts.map(|c| c.total),
    };
    (m.metric.name(), json)
}

/// `{ "items", "outside_tests", "files" }`: the `coverage(off)` attributes of every file.
fn coverage_off_totals(verdict: &Verdict) -> Value {
    let (items, outside_tests, files) = verdict.coverage_off();
    json!({"items": items, "outside_tests": outside_tests, "files": files})
}

/// `{ "items", "lines", "outside_tests" }`: a file's `coverage(off)` attributes, the line of
/// each, and the lines of those outside test code.
fn coverage_off_json(file: &FileVerdict) -> Value {
    let offs = &file.coverage_off;
    let lines: Vec<u32> = offs.iter().map(|o| o.line).collect();
    let outside: Vec<u32> = offs
        .iter()
        .filter(|o| !o.in_tests)
        .map(|o| o.line)
        .collect();
    json!({"items": offs.len(), "lines": lines, "outside_tests": outside})
}

/// `{ "lines", "regions", "branches", "functions" }`: items inline markers took out, and
/// `conditions` (MC/DC) when they took any out.
fn ignored_json(i: Ignored) -> Value {
    let mut ignored = serde_json::Map::new();
    ignored.insert("lines".into(), i.lines.into());
    ignored.insert("regions".into(), i.regions.into());
    ignored.insert("branches".into(), i.branches.into());
    ignored.insert("functions".into(), i.functions.into());
    if i.conditions > 0 {
        ignored.insert("conditions".into(), i.conditions.into());
    }
    Value::Object(ignored)
}

/// `{ "branches": [{column, line, side, what}], "functions": [{line, name}],
/// "lines": [{end, start}], "notes": [{metric, note}],
/// "regions": [{col_end, col_start, line_end, line_start}] }`, complete. A note stands for a
/// failing metric whose items the input cannot show, or says how many of its missed items are
/// named.
#[derive(Serialize)]
struct UncoveredJson<'a> {
    branches: Items<'a, BranchItem, BranchJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    conditions: Option<Items<'a, ConditionItem, ConditionJson<'a>>>,
    functions: Items<'a, FunctionItem, FunctionJson<'a>>,
    lines: Items<'a, LineRange, LineJson>,
    notes: Items<'a, (Metric, String), NoteJson<'a>>,
    regions: Items<'a, RegionItem, RegionJson<'a>>,
}

/// `mcdc`: the policy names MC/DC (only then are `conditions` written).
fn uncovered_json(u: &Uncovered, mcdc: bool) -> UncoveredJson<'_> {
    UncoveredJson {
        branches: Items(&u.branches, branch_json),
        conditions: mcdc.then_some(Items(&u.conditions, condition_json)),
        functions: Items(&u.functions, function_json),
        lines: Items(&u.lines, line_json),
        notes: Items(&u.notes, note_json),
        regions: Items(&u.regions, region_json),
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
    #[serde(skip_serializing_if = "Option::is_none")]
    instantiation: Option<&'a str>,
    line: u32,
    side: &'a str,
    what: &'a str,
}

fn branch_json(b: &BranchItem) -> BranchJson<'_> {
    BranchJson {
        column: b.column,
        instantiation: b.from.as_deref(),
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
struct RegionJson<'a> {
    col_end: u32,
    col_start: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    instantiation: Option<&'a str>,
    line_end: u32,
    line_start: u32,
}

fn region_json(r: &RegionItem) -> RegionJson<'_> {
    RegionJson {
        col_end: r.span.col_end,
        col_start: r.span.col_start,
        instantiation: r.from.as_deref(),
        line_end: r.span.line_end,
        line_start: r.span.line_start,
    }
}

#[derive(Serialize)]
struct ConditionJson<'a> {
    column: u32,
    decision_column: u32,
    decision_line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    instantiation: Option<&'a str>,
    line: u32,
}

fn condition_json(c: &ConditionItem) -> ConditionJson<'_> {
    ConditionJson {
        column: c.condition.at.1,
        decision_column: c.condition.decision.1,
        decision_line: c.condition.decision.0,
        instantiation: c.from.as_deref(),
        line: c.condition.at.0,
    }
}
