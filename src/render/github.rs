//! GitHub Actions workflow commands (`--format github`): a `::notice` with the facts the verdict
//! was reached under, a `::warning` per report warning, then one `::error` annotation per
//! uncovered item of a failing file (line range, region, branch side, function that never ran,
//! MC/DC condition; regions, branch sides and conditions name their instantiation as the table
//! does) and per unmeasured file, so the gaps show up on the pull request's diff.
//!
//! Shape: `::error file=PATH,line=L,endLine=E,title=TITLE::MESSAGE`. Values are escaped as the
//! runner requires: in messages `%`, CR and LF become `%25`, `%0D`, `%0A`; in properties `:` and
//! `,` also become `%3A` and `%2C`. Annotations are bounded: at most [`PER_FILE`] per file
//! (shared fairly by the kinds of item it lists) and [`TOTAL`] in all, spread over the
//! failing files (GitHub shows 10 error annotations a step); a closing `::notice` says how many
//! were dropped. GitHub resolves `file=`
//! against the repository root (`$GITHUB_WORKSPACE`), so each path is the root-relative path
//! after a prefix: the root's path below the repository ([`file_prefix`]).

use crate::judge::{FileStatus, FileVerdict, MetricStatus, MetricVerdict, Verdict};
use crate::model::LineRange;
use crate::model::Metric;
use crate::outcome::Facts;
use crate::uncovered::{
    branch_text, condition_text, range_text, region_text, BranchItem, ConditionItem, FunctionItem,
    RegionItem, Uncovered,
};

/// The most annotations written for one file.
pub(crate) const PER_FILE: usize = 10;

/// The most `::error` annotations written in all: GitHub keeps 10 error annotations (and 10
/// warnings, 10 notices) per step and drops the rest unseen (actions/toolkit, "Limitations"),
/// and covgate runs in one step.
pub const TOTAL: usize = 10;

/// The most `::warning` annotations written (report warnings), for the same reason.
pub const WARNINGS: usize = 10;

/// Escapes a workflow-command message: `%`, CR and LF as the runner requires, any other
/// control or format character as `\u{1b}`, `\u{202e}` (see [`super::printable`]), and the `[` of `##[` (the older
/// command syntax, read anywhere in a line) as `\u{5b}`.
pub(crate) fn escape_data(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            '[' if out.ends_with("##") => out.push_str("\\u{5b}"),
            c if crate::text::is_hidden(c) => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
    }
    out
}

/// Escapes a workflow-command property value.
pub(crate) fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// The prefix of every annotation's file: the root's path relative to the repository root,
/// with a trailing `/` (`""` when the root is the repository). `explicit`
/// (`--annotation-prefix`, `.`, `./x/` and `x` spelled as `x/`) wins; otherwise it is the
/// normalised `root` below the normalised `workspace` (`$GITHUB_WORKSPACE`), and `""` when
/// there is no workspace or the root does not lie below it (compared as spelled, after
/// [`crate::paths::normalize`]; symbolic links are not followed).
pub fn file_prefix(explicit: Option<&str>, workspace: Option<&str>, root: &str) -> String {
    let below = match (explicit, workspace) {
        (Some(dir), _) => crate::paths::normalize(dir),
        (None, Some(workspace)) if !workspace.is_empty() => {
            let base = format!("{}/", crate::paths::normalize(workspace));
            let base = base.replace("//", "/");
            let root = format!("{}/", crate::paths::normalize(root));
            let inner = root.strip_prefix(&base).unwrap_or_default();
            inner.trim_end_matches('/').to_string()
        }
        _ => String::new(),
    };
    if below.is_empty() {
        below
    } else {
        format!("{below}/")
    }
}

/// Renders a `::notice` with the facts, then the annotations for every failing and unmeasured
/// file, each named by `prefix` (see [`file_prefix`]) and its root-relative path.
pub fn render(facts: &Facts, verdict: &Verdict, prefix: &str) -> String {
    let mut wanted = 0;
    let mut per_file: Vec<std::vec::IntoIter<String>> = Vec::new();
    for file in verdict.files.iter().filter(|f| f.status.fails()) {
        let (annotations, all) = annotations(file, prefix);
        wanted += all;
        per_file.push(annotations.into_iter());
    }
    let nothing = verdict.empty.note();
    let room = TOTAL - usize::from(nothing.is_some() && !verdict.passed());
    let kept = spread(per_file, room);
    let mut out = facts_notice(facts);
    // What the readers warned of (e.g. a tracefile that ends without `end_of_record`, as a
    // truncated one does) shows on the run's summary, not only in the log.
    // With --no-walk, its caveat comes first, within the same limit.
    let no_walk = (!facts.walked).then_some(("--no-walk", super::NO_WALK_WARNING));
    let all = no_walk
        .into_iter()
        .chain((facts.warnings.iter()).map(|warning| ("report warning", warning.as_str())));
    for (title, warning) in all.take(WARNINGS) {
        out.push_str(&format!(
            "::warning title=covgate%3A {title}::{}\n",
            escape_data(warning)
        ));
    }
    let total = usize::from(!facts.walked) + facts.warnings.len();
    if total > WARNINGS {
        out.push_str(&format!(
            "::notice title=covgate::{} more warning(s) not annotated (GitHub shows {WARNINGS} a step); see the step summary or the log\n",
            total - WARNINGS
        ));
    }
    if let Some(note) = nothing {
        let level = if verdict.passed() { "notice" } else { "error" };
        out.push_str(&format!(
            "::{level} title=covgate%3A nothing measured::{}\n",
            escape_data(&note)
        ));
    }
    out.extend(kept.iter().map(|a| format!("{a}\n")));
    if wanted > kept.len() {
        out.push_str(&format!(
            "::notice title=covgate::{} more annotation(s) (uncovered items) not written (GitHub shows {TOTAL} errors a step); see the step summary or the log\n",
            wanted - kept.len()
        ));
    }
    out
}

/// At most `room` annotations from the failing files' lists, taken in turn (each file's first,
/// then each file's second, …), so that every failing file shows on the pull request before
/// any shows a second; in file order within each turn.
fn spread(mut per_file: Vec<std::vec::IntoIter<String>>, room: usize) -> Vec<String> {
    let mut kept = Vec::new();
    while kept.len() < room {
        let turn: Vec<String> = per_file.iter_mut().filter_map(Iterator::next).collect();
        if turn.is_empty() {
            break;
        }
        kept.extend(turn.into_iter().take(room - kept.len()));
    }
    kept
}

/// `::notice title=covgate facts::covgate V · policy P · root R · threshold 100% · target T
/// (host) · cfg: … · programs on PATH: … · reports: …` (programs only when the policy names any).
fn facts_notice(facts: &Facts) -> String {
    let reports: Vec<String> = facts
        .reports
        .iter()
        .map(|(origin, kind)| format!("{origin} ({kind})"))
        .collect();
    let programs = super::programs_text(facts)
        .map_or_else(String::new, |p| format!(" · programs on PATH: {p}"));
    let text = format!(
        "covgate {} · policy {} · root {} · threshold {}% · target {} ({}) · cfg: {}{programs} · reports: {}",
        facts.version,
        facts.policy,
        facts.root,
        facts.threshold,
        facts.target.triple,
        facts.target.source,
        super::cfg_summary(&facts.target),
        reports.join(", ")
    );
    format!("::notice title=covgate facts::{}\n", escape_data(&text))
}

/// The kinds of uncovered item annotated, in the order a file's annotations give them.
const KINDS: [Metric; 5] = [
    Metric::Lines,
    Metric::Regions,
    Metric::Branches,
    Metric::Functions,
    Metric::Mcdc,
];

/// The annotations of one failing or unmeasured file, at most [`PER_FILE`], and how many it
/// has in all. Its uncovered items (line ranges, regions, branch sides, functions never run,
/// MC/DC conditions; each naming the instantiation it comes from where the table does) share
/// the room fairly ([`quotas`]), so every kind listed shows; then one `below the bar`
/// annotation for the failing metrics that name no item, and one `tighten` annotation for the
/// loose ones. Only the items written are formatted: a file can list millions.
fn annotations(file: &FileVerdict, prefix: &str) -> (Vec<String>, usize) {
    let path = escape_property(&format!("{prefix}{}", file.path));
    if file.status == FileStatus::Unmeasured {
        let why = file.reason.as_deref().unwrap_or("in no report");
        let one = format!(
            "::error file={path},title=covgate%3A unmeasured::{} is in scope but unmeasured: {}",
            escape_data(&file.path),
            escape_data(why)
        );
        return (vec![one], 1);
    }
    let u = &file.uncovered;
    let (loose, below): (Vec<MetricVerdict>, Vec<MetricVerdict>) = file
        .metrics
        .iter()
        .filter(|m| m.status.fails())
        .partition(|m| m.status == MetricStatus::Loose);
    let below = below
        .iter()
        .filter(|m| u.len(m.metric) == 0)
        .map(metric_text)
        .collect();
    let tighten = loose
        .iter()
        .map(|m| {
            let missed = m.counts.map_or(0, crate::debt::missed);
            format!("{}: tighten to {missed}", metric_text(m))
        })
        .collect();
    let summaries: Vec<String> = summary_annotation(below, &path, "below the bar")
        .into_iter()
        .chain(summary_annotation(
            tighten,
            &path,
            "tighten the [[debt]] entry",
        ))
        .chain(denial(file, &path))
        .collect();
    let lengths = KINDS.map(|kind| u.len(kind));
    let room = PER_FILE - summaries.len();
    let mut out: Vec<String> = KINDS
        .iter()
        .zip(quotas(lengths, room))
        .flat_map(|(&kind, quota)| items(u, kind, quota, &path))
        .collect();
    let all = lengths.iter().sum::<usize>() + summaries.len();
    out.extend(summaries);
    (out, all)
}

/// The annotation of a file that `[inline] coverage-off = "deny"` fails (a failing file with a
/// reason), at its first `coverage(off)` outside test code.
fn denial(file: &FileVerdict, path: &str) -> Option<String> {
    let why = file.reason.as_deref()?;
    let line = (file.coverage_off.iter())
        .find(|o| !o.in_tests)
        .map_or_else(String::new, |o| format!(",line={}", o.line));
    Some(format!(
        "::error file={path}{line},title=covgate%3A coverage(off)::{}",
        escape_data(why)
    ))
}

/// How many items of each kind (of `lengths`) fit in `room`: one of each kind in turn while
/// room and items are left, so a file failing on several metrics shows each.
fn quotas(lengths: [usize; 5], mut room: usize) -> [usize; 5] {
    let mut quotas = [0; 5];
    while room > 0 && quotas != lengths {
        for (quota, &length) in quotas.iter_mut().zip(&lengths) {
            if room > 0 && *quota < length {
                *quota += 1;
                room -= 1;
            }
        }
    }
    quotas
}

/// The annotations of the first `count` uncovered items of `kind` in `u`.
fn items(u: &Uncovered, kind: Metric, count: usize, path: &str) -> Vec<String> {
    match kind {
        Metric::Lines => u
            .lines
            .iter()
            .take(count)
            .map(|r| line_range(r, path))
            .collect(),
        Metric::Regions => u
            .regions
            .iter()
            .take(count)
            .map(|r| region(r, path))
            .collect(),
        Metric::Branches => u
            .branches
            .iter()
            .take(count)
            .map(|b| branch(b, path))
            .collect(),
        Metric::Functions => u
            .functions
            .iter()
            .take(count)
            .map(|f| function(f, path))
            .collect(),
        Metric::Mcdc => u
            .conditions
            .iter()
            .take(count)
            .map(|c| condition(c, path))
            .collect(),
    }
}

fn line_range(r: &LineRange, path: &str) -> String {
    let what = if r.start == r.end { "line" } else { "lines" };
    format!(
        "::error file={path},line={},endLine={},title=covgate%3A uncovered {what}::{what} {} not covered",
        r.start,
        r.end,
        range_text(r)
    )
}

/// A region: its lines, and its columns when it is on one line (GitHub reads columns only
/// then).
fn region(r: &RegionItem, path: &str) -> String {
    let s = &r.span;
    let columns = if s.line_start == s.line_end {
        format!(",col={},endColumn={}", s.col_start, s.col_end)
    } else {
        String::new()
    };
    format!(
        "::error file={path},line={},endLine={}{columns},title=covgate%3A uncovered region::region {} not covered",
        s.line_start,
        s.line_end,
        escape_data(&region_text(r))
    )
}

fn branch(b: &BranchItem, path: &str) -> String {
    let column = b.column.map_or_else(String::new, |c| format!(",col={c}"));
    format!(
        "::error file={path},line={}{column},title=covgate%3A uncovered branch side::branch side {}",
        b.line,
        escape_data(&branch_text(b))
    )
}

fn function(f: &FunctionItem, path: &str) -> String {
    let line = f.line.map_or_else(String::new, |l| format!(",line={l}"));
    format!(
        "::error file={path}{line},title=covgate%3A function never run::{} never ran",
        escape_data(&f.name)
    )
}

fn condition(c: &ConditionItem, path: &str) -> String {
    let (line, column) = c.condition.at;
    format!(
        "::error file={path},line={line},col={column},title=covgate%3A MC/DC condition::condition {} has no independence pair",
        escape_data(&condition_text(c))
    )
}

/// A metric's counts and allowance: `lines 1/2 (2 allowed)`.
fn metric_text(m: &MetricVerdict) -> String {
    describe(m.metric, m.counts) + &crate::debt::cell_suffix(m.allowed)
}

/// One annotation titled `title` listing `texts` (one per failing metric, see
/// [`metric_text`]); none without any.
fn summary_annotation(texts: Vec<String>, path: &str, title: &str) -> Option<String> {
    (!texts.is_empty()).then(|| {
        format!(
            "::error file={path},title=covgate%3A {title}::{}",
            escape_data(&texts.join("; "))
        )
    })
}

fn describe(metric: Metric, counts: Option<crate::model::Counts>) -> String {
    match counts {
        Some(c) => format!("{metric} {c}"),
        None => format!("{metric} unavailable"),
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    use crate::judge::MetricVerdict;
    use crate::model::{Counts, Span};
    use crate::report::llvm_json::Condition;

    fn metric(metric: Metric, counts: Option<Counts>, status: MetricStatus) -> MetricVerdict {
        MetricVerdict {
            metric,
            counts,
            status,
            allowed: None,
        }
    }

    fn failing(uncovered: Uncovered, metrics: Vec<MetricVerdict>) -> FileVerdict {
        FileVerdict {
            path: "src/a,b.rs".to_string(),
            status: FileStatus::Fail,
            metrics: metrics.into(),
            reason: None,
            uncovered: uncovered.into(),
            ignored: None,
            coverage_off: Box::default(),
        }
    }

    #[test]
    fn annotation_files_are_named_from_the_repository_root() {
        let prefix = file_prefix;
        assert_eq!(prefix(None, Some("/ws/repo"), "/ws/repo/demo"), "demo/");
        assert_eq!(prefix(None, Some("/ws/repo/"), "/ws/repo/a/b"), "a/b/");
        assert_eq!(
            prefix(None, Some(r"D:\a\r\r"), "D:/a/r/r/crates/u"),
            "crates/u/"
        );
        assert_eq!(prefix(None, Some("/"), "/ws"), "ws/");
        assert_eq!(prefix(None, Some("/ws/repo"), "/ws/repo"), "");
        assert_eq!(prefix(None, Some("/ws/repo"), "/ws/repo2/x"), "");
        assert_eq!(prefix(None, Some("/ws/repo"), "/tmp/x"), "");
        assert_eq!(prefix(None, Some(""), "/ws/repo/demo"), "");
        assert_eq!(prefix(None, None, "/ws/repo/demo"), "");
        assert_eq!(
            prefix(Some("./crates/u/"), Some("/ws"), "/ws/x"),
            "crates/u/"
        );
        assert_eq!(prefix(Some("."), Some("/ws"), "/ws/x"), "");
        let file = FileVerdict {
            path: "src/a.rs".to_string(),
            status: FileStatus::Unmeasured,
            ..failing(Uncovered::default(), Vec::new())
        };
        let (out, all) = annotations(&file, "demo/");
        assert_eq!(all, 1);
        assert_eq!(
            out,
            ["::error file=demo/src/a.rs,title=covgate%3A unmeasured::src/a.rs is in scope but unmeasured: in no report"]
        );
    }

    #[test]
    fn every_kind_of_item_is_annotated_naming_its_instantiation() {
        let span = |line_start, col_start, line_end, col_end| Span {
            line_start,
            col_start,
            line_end,
            col_end,
        };
        let from = Some("clamp_to<int>".to_string());
        let uncovered = Uncovered {
            lines: vec![LineRange { start: 3, end: 3 }],
            regions: vec![
                RegionItem {
                    span: span(4, 17, 4, 30),
                    from: from.clone(),
                },
                RegionItem {
                    span: span(5, 1, 7, 2),
                    from: None,
                },
            ],
            branches: vec![
                BranchItem {
                    line: 4,
                    column: Some(17),
                    side: "true".to_string(),
                    what: "never taken",
                    from: from.clone(),
                },
                BranchItem {
                    line: 9,
                    column: None,
                    side: "block 0 branch 1".to_string(),
                    what: "never evaluated",
                    from: None,
                },
            ],
            functions: vec![FunctionItem {
                line: None,
                name: "f%".to_string(),
            }],
            conditions: vec![ConditionItem {
                condition: Condition {
                    at: (5, 19),
                    decision: (5, 7),
                },
                from,
            }],
            notes: Vec::new(),
        };
        let file = failing(uncovered, Vec::new());
        let (out, all) = annotations(&file, "");
        assert_eq!(all, 7);
        let p = "::error file=src/a%2Cb.rs";
        assert_eq!(
            out,
            [
                format!("{p},line=3,endLine=3,title=covgate%3A uncovered line::line 3 not covered"),
                format!("{p},line=4,endLine=4,col=17,endColumn=30,title=covgate%3A uncovered region::region 4:17-4:30 (in clamp_to<int>) not covered"),
                format!("{p},line=5,endLine=7,title=covgate%3A uncovered region::region 5:1-7:2 not covered"),
                format!("{p},line=4,col=17,title=covgate%3A uncovered branch side::branch side 4:17 true never taken (in clamp_to<int>)"),
                format!("{p},line=9,title=covgate%3A uncovered branch side::branch side 9 block 0 branch 1 never evaluated"),
                format!("{p},title=covgate%3A function never run::f%25 never ran"),
                format!("{p},line=5,col=19,title=covgate%3A MC/DC condition::condition 5:19 in the decision at 5:7 (in clamp_to<int>) has no independence pair"),
            ]
        );
    }

    #[test]
    fn kinds_share_the_room_and_summaries_keep_theirs() {
        let line = |n| LineRange { start: n, end: n };
        let uncovered = Uncovered {
            lines: (1..=20).map(line).collect(),
            functions: vec![FunctionItem {
                line: Some(1),
                name: "f".to_string(),
            }],
            ..Uncovered::default()
        };
        let mut loose = metric(
            Metric::Functions,
            Some(Counts::new(0, 1)),
            MetricStatus::Loose,
        );
        loose.allowed = Some(2);
        let metrics = vec![
            metric(Metric::Lines, Some(Counts::new(0, 20)), MetricStatus::Fail),
            metric(Metric::Regions, Some(Counts::new(1, 2)), MetricStatus::Fail),
            metric(Metric::Branches, None, MetricStatus::Unavailable),
            loose,
        ];
        let (out, all) = annotations(&failing(uncovered, metrics), "");
        assert_eq!(all, 23);
        assert_eq!(out.len(), PER_FILE);
        // 7 lines and the function in the 8 places left by the two summaries.
        assert_eq!(
            out.iter().filter(|a| a.contains("uncovered line")).count(),
            7
        );
        assert!(
            out[7].ends_with("function never run::f never ran"),
            "{out:?}"
        );
        assert!(
            out[8].ends_with("below the bar::regions 1/2; branches unavailable"),
            "{out:?}"
        );
        assert!(
            out[9].ends_with("tighten the [[debt]] entry::functions 0/1 (2 allowed): tighten to 1"),
            "{out:?}"
        );
        assert_eq!(quotas([3, 0, 1, 0, 0], 10), [3, 0, 1, 0, 0]);
        assert_eq!(quotas([9, 9, 1, 0, 9], 10), [3, 3, 1, 0, 3]);
    }

    #[test]
    fn escapes_as_the_runner_requires() {
        assert_eq!(escape_data("100% a\r\nb"), "100%25 a%0D%0Ab");
        assert_eq!(escape_data("a\x1b]0;x\x07\0"), "a\\u{1b}]0;x\\u{7}\\u{0}");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
        assert_eq!(escape_data("x##[error]y[#[z"), "x##\\u{5b}error]y[#[z");
        assert_eq!(escape_property("##[a"), "##\\u{5b}a");
    }
}
