//! The terminal table (comfy-table): one row per failing or unmeasured file (every file with
//! `--show all`), each metric as `covered/total`, then the summary line and notes.

use comfy_table::presets::UTF8_FULL_CONDENSED;
use comfy_table::{Cell, Color, ColumnConstraint, ContentArrangement, Table};
use rayon::prelude::*;
use std::collections::HashMap;

use super::{log_line, summary_line, Show};
use crate::judge::{unavailable_hint, FileVerdict, MetricStatus, MetricVerdict, Verdict};
use crate::model::Metric;
use crate::outcome::{ConditionFacts, Facts, RosterFacts, TargetFacts};

/// Renders the verdict as text for a terminal or a CI log. Under the table, each failing file
/// lists its first `items` uncovered items per failing metric (`… and M more` after them).
pub fn render(facts: &Facts, verdict: &Verdict, metrics: &[Metric], opts: &TableOptions) -> String {
    let mut out = wrap_lines(&facts_lines(facts), opts.width);
    let rows: Vec<&FileVerdict> = verdict
        .files
        .iter()
        .filter(|f| opts.show == Show::All || f.status.fails())
        .collect();
    // The table and the lists under it are made at once, the lists on every core: a failing
    // export can have thousands of failing files.
    let (table, lists) = rayon::join(
        || (!rows.is_empty()).then(|| fitted_table(&rows, metrics, opts)),
        || {
            let failing: Vec<&FileVerdict> = verdict
                .files
                .iter()
                .filter(|f| opts.show == Show::All || f.status.fails())
                .collect();
            failing
                .par_iter()
                .map(|file| wrap_lines(&uncovered_list(file, metrics, opts.items), opts.width))
                .collect::<Vec<String>>()
        },
    );
    if let Some(table) = table {
        out.push_str(&table);
        out.push('\n');
    }
    out.extend(lists);
    let mut tail = format!("{}\n", summary_line(verdict));
    if let Some(debt) = crate::debt::summary_line(verdict) {
        tail.push_str(&format!("{debt}\n"));
    }
    tail.push_str(&dropped_line(verdict));
    tail.push_str(&ignored_line(verdict, facts.walked));
    for metric in &verdict.unavailable {
        tail.push_str(&format!("note: {}\n", unavailable_hint(*metric)));
    }
    if !facts.walked {
        tail.push_str("note: --no-walk: the root was not searched, so files that no report mentions were not checked\n");
    }
    if let Some(note) = verdict.empty.note() {
        out.push_str(&format!("note: {note}\n"));
    }
    let word = if verdict.passed() { "PASS" } else { "FAIL" };
    tail.push_str(&format!("covgate: {word}\n"));
    out.push_str(&wrap_lines(&tail, opts.width));
    out
}

/// A report- or policy-controlled value inside a table line ([`super::log_line`]): control
/// characters, line breaks included, written as escapes, so it stays on its line, and a start
/// of a workflow command broken, so cells keep their width. The whole output passes the line
/// rule of [`super::command_safe`] again where it is written.
fn plain(text: &str) -> String {
    log_line(text)
}

/// The indented list of uncovered items under one failing file (empty when it lists nothing).
/// A metric's notes follow its items, each on a line of its own (`      note: …`), so a note is
/// never read as one of the items; a metric with notes and no item says `none named`.
fn uncovered_list(file: &FileVerdict, metrics: &[Metric], limit: usize) -> String {
    let mut out = String::new();
    for metric in metrics {
        let u = &file.uncovered;
        let notes: Vec<String> = u
            .notes_of(*metric)
            .map(|note| format!("      note: {}\n", plain(note)))
            .collect();
        let total = u.len(*metric);
        if total == 0 && notes.is_empty() {
            continue;
        }
        let shown: Vec<String> = u
            .items(*metric, limit)
            .iter()
            .map(|item| plain(item))
            .collect();
        let listed = match total.saturating_sub(limit) {
            _ if total == 0 => "none named".to_string(),
            0 => shown.join(", "),
            more => format!("{} … and {more} more", shown.join(", ")),
        };
        out.push_str(&format!("    {metric}: {listed}\n{}", notes.concat()));
    }
    if out.is_empty() {
        out
    } else {
        format!("{} — uncovered:\n{out}", plain(&file.path))
    }
}

/// The totals of what inline markers took out, or why markers were not read.
fn ignored_line(verdict: &Verdict, walked: bool) -> String {
    if !walked {
        return "inline ignore markers: not read (--no-walk)\n".to_string();
    }
    let off = super::coverage_off_totals(verdict).map_or_else(String::new, |t| format!("{t}\n"));
    format!(
        "ignored by inline markers: {}\n{off}",
        super::ignored_totals(verdict)
    )
}

/// The facts the verdict was reached under: version, policy, root and threshold; target and
/// cfg values; `when-missing` programs (when any); reports; conditional exclusions (when any);
/// the exempt-suite roster (when the policy has one).
fn facts_lines(facts: &Facts) -> String {
    let reports: Vec<String> = facts
        .reports
        .iter()
        .map(|(origin, kind)| format!("{} ({})", plain(origin), plain(kind)))
        .collect();
    let mut out = format!(
        "covgate {} · policy {} · root {} · threshold {}%\n{}\n",
        plain(&facts.version),
        plain(&facts.policy),
        plain(&facts.root),
        facts.threshold,
        target_line(&facts.target),
    );
    if let Some(programs) = super::programs_text(facts) {
        out.push_str(&format!("programs on PATH: {}\n", plain(&programs)));
    }
    out.push_str(&format!("reports: {}\n", reports.join(", ")));
    if !facts.conditions.is_empty() {
        out.push_str("conditional exclusions:\n");
        for condition in &facts.conditions {
            out.push_str(&condition_line(condition));
        }
    }
    if let Some(roster) = &facts.roster {
        out.push_str(&roster_lines(roster));
    }
    out
}

/// `exempt suites (roster verified):` then one line per suite:
/// `  NAME: active, left out of the instrumented run — REASON (WHY)`.
fn roster_lines(roster: &RosterFacts) -> String {
    let verified = if roster.verified {
        "roster verified"
    } else {
        "roster not verified: --no-walk"
    };
    let mut out = format!("exempt suites ({verified}):\n");
    for suite in &roster.suites {
        let state = if suite.active {
            "active, left out of the instrumented run"
        } else {
            "inactive, runs in the instrumented run"
        };
        let why = if suite.why.is_empty() {
            String::new()
        } else {
            format!(" ({})", plain(&suite.why))
        };
        out.push_str(&format!(
            "  {}: {state} — {}{why}\n",
            plain(&suite.name),
            plain(&suite.reason)
        ));
    }
    out
}

/// `target TRIPLE (host|--target) · cfg: the target's N values + a, b` (see
/// [`super::cfg_summary`]).
fn target_line(target: &TargetFacts) -> String {
    format!(
        "target {} ({}) · cfg: {}",
        plain(&target.triple),
        target.source,
        plain(&super::cfg_summary(target))
    )
}

/// `  GLOB: active, excluded — WHY` or `  GLOB: inactive, measured like any other file — WHY`.
fn condition_line(condition: &ConditionFacts) -> String {
    let state = if condition.active {
        "active, excluded"
    } else {
        "inactive, measured like any other file"
    };
    format!(
        "  {}: {state} — {}\n",
        plain(&condition.glob),
        plain(&condition.why)
    )
}

/// How the table is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableOptions {
    /// Which files get a row.
    pub show: Show,
    /// Uncovered items listed per failing file and metric.
    pub items: usize,
    /// Colour failing cells red and passing ones green (only for a terminal without `NO_COLOR`).
    pub color: bool,
    /// The widest the table and its facts lines may be, in columns ([`table_width`]): long
    /// paths are shortened in the middle, notes and facts wrap.
    pub width: usize,
}

impl Default for TableOptions {
    fn default() -> TableOptions {
        TableOptions {
            show: Show::Failing,
            items: 5,
            color: false,
            width: 100,
        }
    }
}

/// The table, within `opts.width` columns where it can be: long paths are shortened in the
/// middle (`src/…/file.rs`, at least 20 characters kept) until the table fits. Notes (exclusion
/// and unmeasured reasons) stand in a `Note` column, where they wrap, when the table fits with it
/// (at least [`NOTE_MIN`] columns for it) without shortening any path; otherwise they follow the
/// table, one per file, wrapped. A note longer than [`NOTE_MAX_LINES`] lines of the table's
/// width is shortened in the middle (the JSON output has it whole).
///
/// A path longer than the whole table may be is shortened to one character more than that
/// before the table is first drawn: the table then still overflows by as much as the longest
/// path makes it, so the fitted width is the same, and the table never lays out a huge path
/// (comfy-table's layout grows with the square of a cell's length).
fn fitted_table(rows: &[&FileVerdict], metrics: &[Metric], opts: &TableOptions) -> String {
    let longest = rows
        .iter()
        .map(|f| f.path.chars().count())
        .max()
        .unwrap_or(0)
        .min(opts.width.saturating_add(1));
    let notes = rows.iter().any(|f| f.reason.is_some());
    let bare = table(rows, metrics, opts, longest, NoteColumn::Left).to_string();
    let widest = bare.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    if notes && widest + NOTE_MIN + 3 <= opts.width {
        return table(rows, metrics, opts, longest, NoteColumn::Filled).to_string();
    }
    let path_width = longest
        .saturating_sub(widest.saturating_sub(opts.width))
        .max(20);
    let mut out = table(rows, metrics, opts, path_width, NoteColumn::Left).to_string();
    let note_max = opts.width.saturating_mul(NOTE_MAX_LINES);
    for file in rows {
        if let Some(reason) = &file.reason {
            let line = format!("  {}: {}", plain(&file.path), plain(reason));
            out.push('\n');
            out.push_str(wrap_lines(&shorten_middle(&line, note_max), opts.width).trim_end());
        }
    }
    out
}

/// The least width the `Note` column is given, in columns; a table that cannot give it that
/// without shortening a path lists the notes under it instead.
pub(crate) const NOTE_MIN: usize = 16;

/// The most lines of the table's width that one note is shown in.
pub(crate) const NOTE_MAX_LINES: usize = 4;

/// The `Note` column: filled with each file's reason, or left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NoteColumn {
    Filled,
    Left,
}

fn table(
    rows: &[&FileVerdict],
    metrics: &[Metric],
    opts: &TableOptions,
    path_width: usize,
    notes: NoteColumn,
) -> Table {
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(u16::try_from(opts.width).unwrap_or(u16::MAX));
    if !opts.color {
        table.force_no_tty();
    } else {
        table.enforce_styling();
    }
    let column = notes == NoteColumn::Filled;
    let mut header = vec![Cell::new("File"), Cell::new("Status")];
    header.extend(metrics.iter().map(|m| Cell::new(m.title())));
    header.extend(column.then(|| Cell::new("Note")));
    table.set_header(header);
    // Every column is as wide as its content (paths come shortened), but the note, which wraps.
    table.set_constraints(vec![ColumnConstraint::ContentWidth; metrics.len() + 2]);
    let note_max = opts.width.saturating_mul(NOTE_MAX_LINES);
    let paths: Vec<String> = rows.iter().map(|f| plain(&f.path)).collect();
    for (file, shown) in rows.iter().zip(distinct_shortened(&paths, path_width)) {
        let mut row = vec![
            Cell::new(shown),
            paint(
                Cell::new(file.status.name()),
                file.status.fails(),
                opts.color,
            ),
        ];
        row.extend(metrics.iter().map(|m| metric_cell_of(file, *m, opts.color)));
        let note = file.reason.as_deref().unwrap_or_default();
        row.extend(column.then(|| Cell::new(shorten_middle(&plain(note), note_max))));
        table.add_row(row);
    }
    table
}

/// Lines longer than `width` columns broken at spaces, the rest of each indented by two more
/// spaces than the line; a word longer than the width stays whole on its own line.
pub(crate) fn wrap_lines(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let words = line.trim_start();
        let indent = line.len() - words.len();
        out.push_str(&line[..indent]);
        let mut used = indent;
        for (i, word) in words.split(' ').enumerate() {
            let len = word.chars().count();
            if i > 0 && used + 1 + len > width {
                out.push('\n');
                out.push_str(&" ".repeat(indent + 2));
                used = indent + 2;
            } else if i > 0 {
                out.push(' ');
                used += 1;
            }
            out.push_str(word);
            used += len;
        }
        out.push('\n');
    }
    out
}

/// The table's width: `COLUMNS` when it is a number, else the terminal's (`terminal`, when
/// stdout is one), else 100; at least 40.
pub(crate) fn table_width(columns: Option<&str>, terminal: Option<u16>) -> usize {
    columns
        .and_then(|c| c.trim().parse::<usize>().ok())
        .or(terminal.map(usize::from))
        .unwrap_or(100)
        .max(40)
}

fn metric_cell_of(file: &FileVerdict, metric: Metric, color: bool) -> Cell {
    let fails = file
        .metrics
        .iter()
        .any(|m| m.metric == metric && m.status.fails());
    paint(Cell::new(cell(file, metric)), fails, color)
}

/// Red for failing, green otherwise, when colour is on.
fn paint(cell: Cell, fails: bool, color: bool) -> Cell {
    match (color, fails) {
        (false, _) => cell,
        (true, true) => cell.fg(Color::Red),
        (true, false) => cell.fg(Color::Green),
    }
}

/// `paths` (distinct) shortened in the middle to `width` characters ([`shorten_middle`]), each
/// shown text distinct: paths that would show the same text (`crates/…/src/lib.rs` for two
/// crates whose names differ in the middle) are shown wider, just wide enough to tell apart.
/// Only such paths are widened, so the table outgrows its width only for them.
fn distinct_shortened(paths: &[String], width: usize) -> Vec<String> {
    let mut shown: Vec<(&str, String)> = paths
        .iter()
        .map(|p| (p.as_str(), shorten_middle(p, width)))
        .collect();
    let mut pending: Vec<&mut (&str, String)> = shown.iter_mut().collect();
    let mut width = width;
    loop {
        let mut groups: HashMap<String, Vec<&mut (&str, String)>> = HashMap::new();
        for row in pending {
            groups.entry(row.1.clone()).or_default().push(row);
        }
        let clashes: Vec<Vec<&mut (&str, String)>> =
            groups.into_values().filter(|g| g.len() > 1).collect();
        let longest = clashes
            .iter()
            .flatten()
            .map(|row| row.0.chars().count())
            .max()
            .unwrap_or(0);
        // Shown whole, distinct paths differ: only equal paths (never given) could clash on.
        if width >= longest {
            break;
        }
        width = clashes
            .iter()
            .map(|group| apart(group))
            .max()
            .unwrap_or(width)
            .max(width + 1);
        pending = clashes.into_iter().flatten().collect();
        for row in &mut pending {
            row.1 = shorten_middle(row.0, width);
        }
    }
    shown.into_iter().map(|(_, text)| text).collect()
}

/// A width at which [`shorten_middle`] shows the paths of `group` apart: its head then outruns
/// the longest prefix two of them share, or its tail the longest suffix (compared in sorted
/// order, where the longest shared prefix is between neighbours).
fn apart(group: &[&mut (&str, String)]) -> usize {
    let shared = |mut keys: Vec<String>| -> usize {
        keys.sort();
        keys.iter()
            .zip(keys.iter().skip(1))
            .map(|(a, b)| a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count())
            .max()
            .unwrap_or(0)
    };
    let prefix = shared(group.iter().map(|row| row.0.to_string()).collect());
    let suffix = shared(
        group
            .iter()
            .map(|row| row.0.chars().rev().collect())
            .collect(),
    );
    (2 * prefix + 3).min(2 * suffix + 2)
}

/// `text` cut to `max` characters by replacing its middle with `…`.
pub(crate) fn shorten_middle(text: &str, max: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= max {
        return text.to_string();
    }
    let keep = max.saturating_sub(1);
    let head = keep / 2;
    let tail = keep - head;
    let start: String = chars.iter().take(head).collect();
    let end: String = chars.iter().skip(chars.len() - tail).collect();
    format!("{start}…{end}")
}

fn cell(file: &FileVerdict, metric: Metric) -> String {
    match file.metrics.iter().find(|m| m.metric == metric) {
        Some(verdict) => metric_cell(&verdict),
        None => String::new(),
    }
}

/// `covered/total`, `—` for 0 of 0, `n/a` when unavailable, then ` (N allowed)` for a file
/// with a `[[debt]]` entry; failing cells end in ` ✗`.
pub(crate) fn metric_cell(verdict: &MetricVerdict) -> String {
    let cell = match (verdict.status, verdict.counts) {
        (MetricStatus::Vacuous, _) => "—".to_string(),
        (_, Some(c)) => c.to_string(),
        (_, None) => "n/a".to_string(),
    };
    let mark = if verdict.status.fails() { " ✗" } else { "" };
    format!("{cell}{}{mark}", crate::debt::cell_suffix(verdict.allowed))
}

/// `outside include: NAME (why), … and N more` ([`super::dropped_names`]); empty when no
/// report file was left out.
fn dropped_line(verdict: &Verdict) -> String {
    super::dropped_names(verdict)
        .map(|names| format!("outside include: {}\n", plain(&names)))
        .unwrap_or_default()
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    /// A host missing from the target database cannot be chosen through the binary on a known
    /// host; its facts line says so. A known target's own values are counted, the values set by
    /// `--cfg` and `--features` listed.
    #[test]
    fn an_unknown_target_says_so() {
        let target = |known: bool, cfg: &[&str]| TargetFacts {
            triple: "riscv64-unknown-nowhere".to_string(),
            source: "host",
            known,
            cfg: cfg.iter().map(|c| c.to_string()).collect(),
        };
        assert_eq!(
            target_line(&target(false, &["feature=\"x\""])),
            "target riscv64-unknown-nowhere (host) · cfg: target unknown to covgate's target database + feature=\"x\""
        );
        assert_eq!(
            target_line(&target(
                true,
                &["feature=\"x\"", "target_os=\"none\"", "unix"]
            )),
            "target riscv64-unknown-nowhere (host) · cfg: the target's 2 values + feature=\"x\""
        );
        assert_eq!(
            target_line(&target(true, &["panic=\"abort\""])),
            "target riscv64-unknown-nowhere (host) · cfg: the target's 1 value"
        );
    }

    use crate::judge::{FileStatus, MetricVerdict};
    use crate::model::Counts;

    fn file(path: &str, covered: u64) -> FileVerdict {
        let status = if covered == 4 {
            FileStatus::Pass
        } else {
            FileStatus::Fail
        };
        FileVerdict {
            path: path.to_string(),
            status,
            metrics: vec![MetricVerdict {
                metric: Metric::Lines,
                counts: Some(Counts::new(covered, 4)),
                status: if covered == 4 {
                    MetricStatus::Pass
                } else {
                    MetricStatus::Fail
                },
                allowed: None,
            }]
            .into(),
            reason: None,
            uncovered: Default::default(),
            ignored: Default::default(),
            coverage_off: Box::default(),
        }
    }

    #[test]
    fn lines_wrap_at_spaces_with_their_indent() {
        assert_eq!(wrap_lines("a b c\n", 3), "a b\n  c\n");
        assert_eq!(wrap_lines("  x yy zz\n", 6), "  x yy\n    zz\n");
        assert_eq!(wrap_lines("longword z\nok\n", 4), "longword\n  z\nok\n");
        assert_eq!(wrap_lines("", 10), "");
    }

    #[test]
    fn the_width_is_columns_else_the_terminal_else_100() {
        assert_eq!(table_width(Some("120"), Some(80)), 120);
        assert_eq!(table_width(Some("wide"), Some(80)), 80);
        assert_eq!(table_width(None, None), 100);
        assert_eq!(table_width(Some(" 20 "), None), 40);
    }

    #[test]
    fn long_paths_are_shortened_in_the_middle_to_fit() {
        assert_eq!(shorten_middle("abcdefghij", 5), "ab…ij");
        assert_eq!(shorten_middle("abc", 5), "abc");
        let long = format!("src/{}/file.rs", "deeply/nested".repeat(10));
        let a = file(&long, 3);
        let opts = TableOptions::default();
        let text = fitted_table(&[&a], &[Metric::Lines], &opts);
        assert!(text.lines().all(|l| l.chars().count() <= 100), "{text}");
        assert!(text.contains("src/deeply/nes"), "{text}");
        assert!(text.contains("…"), "{text}");
        assert!(text.contains("nested/file.rs"), "{text}");
        let short = file("src/a.rs", 4);
        assert!(!fitted_table(&[&short], &[Metric::Lines], &opts).contains('…'));
    }

    #[test]
    fn paths_that_would_shorten_alike_are_told_apart() {
        let long = |crate_name: &str| {
            format!("crates/very-long-component-name-for-testing/{crate_name}/src/deeply/nested/module/lib.rs")
        };
        let (a, b, c) = (
            file(&long("alpha"), 3),
            file(&long("bravo"), 3),
            file("src/x.rs", 3),
        );
        let opts = TableOptions {
            width: 60,
            ..TableOptions::default()
        };
        let text = fitted_table(&[&a, &b, &c], &[Metric::Lines], &opts);
        let shown: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("│ "))
            .filter_map(|l| l.split(' ').next())
            .collect();
        assert_eq!(shown.len(), 4, "{text}");
        assert!(shown[1].contains("…a/src/"), "{text}");
        assert!(shown[2].contains("…o/src/"), "{text}");
        assert_eq!(shown[3], "src/x.rs");
        // Told apart by their ends where those differ; a path shown whole that reads as another's
        // shortened text is told apart too; equal paths (never given) end the widening.
        let paths = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(
            distinct_shortened(&paths(&["aaaa-x-zzzz1", "aaaa-y-zzzz2"]), 5),
            ["aa…z1", "aa…z2"]
        );
        assert_eq!(
            distinct_shortened(&paths(&["aaaaxyzzzz", "aaaayxzzzz", "b"]), 5),
            ["aaaaxyzzzz", "aaaayxzzzz", "b"]
        );
        assert_eq!(
            distinct_shortened(&paths(&["ab…yz", "ab…xyz"]), 5),
            ["ab…yz", "ab…xyz"]
        );
        assert_eq!(
            distinct_shortened(&paths(&["abcdef", "abcdef"]), 4),
            ["abcdef", "abcdef"]
        );
    }

    /// A guard against a blow-up, not a benchmark: the width of a 10 MiB path took over 10 s
    /// when it grew with the square of the path's length.
    #[test]
    fn a_path_of_ten_mebibytes_is_fitted_at_once() {
        let long = format!("src/{}.rs", "a/".repeat(5 << 20));
        let a = file(&long, 3);
        let started = std::time::Instant::now();
        let text = fitted_table(&[&a], &[Metric::Lines], &TableOptions::default());
        assert!(
            started.elapsed() < std::time::Duration::from_secs(60),
            "{:?}",
            started.elapsed()
        );
        assert!(text.lines().all(|l| l.chars().count() <= 100), "{text}");
        assert!(text.contains("src/a/a/"), "{text}");
        assert!(text.contains("a/a/.rs"), "{text}");
    }

    #[test]
    fn colour_only_when_asked() {
        let (bad, good) = (file("src/bad.rs", 1), file("src/good.rs", 4));
        let plain = TableOptions::default();
        let coloured = TableOptions {
            color: true,
            ..plain
        };
        let text = fitted_table(&[&bad, &good], &[Metric::Lines], &coloured);
        assert!(
            text.contains("\u{1b}[38;5;9m") || text.contains("\u{1b}[31m"),
            "{text:?}"
        );
        assert!(
            text.contains("\u{1b}[38;5;10m") || text.contains("\u{1b}[32m"),
            "{text:?}"
        );
        assert!(!fitted_table(&[&bad, &good], &[Metric::Lines], &plain).contains('\u{1b}'));
    }
}
