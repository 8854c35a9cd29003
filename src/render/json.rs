//! JSON output (`--format json`): a stable interface for machines.
//!
//! ```text
//! { "schema_version": 1, "verdict": "pass" | "fail",
//!   "facts": { "version", "policy", "root", "threshold", "walked", "reports": [{ "path", "format" }],
//!              "target": { "triple", "source", "known", "cfg": [..] },
//!              "programs": [{ "name", "found", "path" }],
//!              "conditions": [{ "path", "location", "reason", "when", "when_missing", "active", "why" }],
//!              "roster"?: { "verified", "suites": [{ "name", "location", "reason", "filter", "glob",
//!                                                    "when", "when_missing", "active", "why" }] } },
//!   "summary": { "measured", "passed", "failed", "unmeasured", "excluded", "no_code", "outside_include",
//!                "ignored": { "lines", "regions", "branches", "functions" }, "files_with_ignores" },
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
//! `facts.roster` is present only when the policy has `[[suite]]` entries.

use serde_json::{json, Map, Value};

/// The version of this output's shape (`schema/check-output.schema.json`). Later versions only
/// add fields; consumers ignore fields they do not know.
pub const SCHEMA_VERSION: u32 = 1;

use super::Facts;
use crate::ignore::Ignored;
use crate::judge::{FileStatus, FileVerdict, Verdict};
use crate::uncovered::Uncovered;

/// Renders the verdict as a pretty-printed JSON document (with a final newline).
pub fn render(facts: &Facts, verdict: &Verdict) -> String {
    let passed = verdict.count(FileStatus::Pass);
    let failed = verdict.count(FileStatus::Fail);
    let doc = json!({
        "schema_version": SCHEMA_VERSION,
        "verdict": if verdict.passed() { "pass" } else { "fail" },
        "facts": facts_json(facts),
        "summary": {
            "measured": passed + failed,
            "passed": passed,
            "failed": failed,
            "unmeasured": verdict.count(FileStatus::Unmeasured),
            "excluded": verdict.count(FileStatus::Excluded),
            "no_code": verdict.count(FileStatus::NoCode),
            "outside_include": verdict.outside_include,
            "ignored": ignored_json(verdict.ignored().0),
            "files_with_ignores": verdict.ignored().1,
        },
        "files": verdict.files.iter().map(file_json).collect::<Vec<_>>(),
    });
    format!("{doc:#}\n")
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

fn file_json(file: &FileVerdict) -> Value {
    let metrics: Map<String, Value> = file
        .metrics
        .iter()
        .map(|m| {
            let (covered, total) = match m.counts {
                Some(c) => (json!(c.covered), json!(c.total)),
                None => (Value::Null, Value::Null),
            };
            (
                m.metric.name().to_string(),
                json!({"covered": covered, "total": total, "status": m.status.name()}),
            )
        })
        .collect();
    let mut obj = Map::new();
    obj.insert("path".to_string(), json!(file.path));
    obj.insert("status".to_string(), json!(file.status.name()));
    obj.insert("metrics".to_string(), Value::Object(metrics));
    if let Some(reason) = &file.reason {
        obj.insert("reason".to_string(), json!(reason));
    }
    if file.status == FileStatus::Fail {
        obj.insert("uncovered".to_string(), uncovered_json(&file.uncovered));
    }
    if matches!(file.status, FileStatus::Pass | FileStatus::Fail) {
        obj.insert("ignored".to_string(), ignored_json(file.ignored));
    }
    Value::Object(obj)
}

/// `{ "lines", "regions", "branches", "functions" }`: items inline markers took out.
fn ignored_json(i: Ignored) -> Value {
    json!({"lines": i.lines, "regions": i.regions, "branches": i.branches, "functions": i.functions})
}

/// `{ "lines": [{start, end}], "regions": [{line_start, col_start, line_end, col_end}],
/// "branches": [{line, column, side, what}], "functions": [{name, line}],
/// "notes": [{metric, note}] }`, complete. A note stands for a failing metric whose items the
/// input cannot show.
fn uncovered_json(u: &Uncovered) -> Value {
    json!({
        "lines": u.lines.iter().map(|r| json!({"start": r.start, "end": r.end})).collect::<Vec<_>>(),
        "regions": u.regions.iter().map(|s| json!({
            "line_start": s.line_start, "col_start": s.col_start,
            "line_end": s.line_end, "col_end": s.col_end,
        })).collect::<Vec<_>>(),
        "branches": u.branches.iter().map(|b| json!({
            "line": b.line, "column": b.column, "side": b.side, "what": b.what,
        })).collect::<Vec<_>>(),
        "functions": u.functions.iter().map(|f| json!({"name": f.name, "line": f.line})).collect::<Vec<_>>(),
        "notes": u.notes.iter().map(|(m, note)| json!({"metric": m.name(), "note": note})).collect::<Vec<_>>(),
    })
}
