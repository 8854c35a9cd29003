//! Random names through every output channel: the table, Markdown (stdout and file), GitHub
//! annotations, JSON on stdout, and stderr. Whatever a report or policy holds, no channel may
//! print a line that starts a GitHub Actions workflow command (`::` after white space, or `##[`
//! anywhere) other than covgate's own annotations, no name may start a line of its own in the
//! table or on stderr, and Markdown may hold no bare URL, e-mail address or HTML tag.
//!
//! The input is split at 0xFF bytes (never part of UTF-8) into names, read as UTF-8 with
//! replacement; the names fill every string a report or policy controls, in turn.
#![no_main]

use libfuzzer_sys::fuzz_target;

use covgate::error::Error;
use covgate::judge::{
    Dropped, Empty, FileStatus, FileVerdict, MetricStatus, MetricVerdict, Verdict,
};
use covgate::model::{Counts, Metric};
use covgate::output::{self, Format, OutputOptions};
use covgate::render::table::TableOptions;
use covgate::outcome::{ConditionFacts, Facts, Outcome, RosterFacts, SuiteFacts, TargetFacts};
use covgate::render::{error_text, log_line, markdown, Show};
use covgate::scope::Why;
use covgate::uncovered::{FunctionItem, Uncovered};

/// The report- and policy-controlled strings, handed out in turn.
struct Names {
    names: Vec<String>,
    next: usize,
}

impl Names {
    fn take(&mut self) -> String {
        let name = self.names[self.next % self.names.len()].clone();
        self.next += 1;
        name
    }
}

fn file(names: &mut Names, status: FileStatus) -> FileVerdict {
    let measured = matches!(status, FileStatus::Fail | FileStatus::Pass);
    let metric = |metric, status| MetricVerdict {
        metric,
        counts: Some(Counts::new(1, 2)),
        status,
        allowed: None,
    };
    FileVerdict {
        path: names.take(),
        status,
        metrics: if measured {
            vec![
                metric(Metric::Functions, MetricStatus::Fail),
                metric(Metric::Lines, MetricStatus::Pass),
            ]
            .into()
        } else {
            Vec::new().into()
        },
        reason: (!measured).then(|| names.take()),
        uncovered: Uncovered {
            functions: if status == FileStatus::Fail {
                (1..=3)
                    .map(|line| FunctionItem {
                        line: Some(line),
                        name: names.take(),
                    })
                    .collect()
            } else {
                Vec::new()
            },
            notes: vec![(Metric::Lines, names.take())],
            ..Uncovered::default()
        }
        .into(),
        ignored: Default::default(),
        coverage_off: Box::default(),
    }
}

fn outcome(names: &mut Names) -> Outcome {
    let facts = Facts {
        version: names.take(),
        target: TargetFacts {
            triple: names.take(),
            source: "host",
            known: names.next % 2 == 0,
            cfg: vec![names.take(), names.take()],
        },
        programs: vec![(names.take(), None), (names.take(), Some(names.take()))],
        conditions: vec![ConditionFacts {
            glob: names.take(),
            location: names.take(),
            reason: names.take(),
            when: Some(names.take()),
            when_missing: vec![names.take()],
            active: true,
            why: names.take(),
        }],
        roster: Some(RosterFacts {
            verified: true,
            suites: vec![SuiteFacts {
                name: names.take(),
                location: names.take(),
                reason: names.take(),
                filter: names.take(),
                glob: names.take(),
                when: None,
                when_missing: Vec::new(),
                active: false,
                why: names.take(),
            }],
        }),
        policy: names.take(),
        root: names.take(),
        reports: vec![(names.take(), names.take())],
        walked: names.next % 3 != 0,
        threshold: covgate::model::Threshold::FULL,
        warnings: vec![names.take()],
    };
    let files = vec![
        file(names, FileStatus::Fail),
        file(names, FileStatus::Unmeasured),
        file(names, FileStatus::Excluded),
        file(names, FileStatus::Pass),
    ];
    Outcome {
        facts,
        verdict: Verdict {
            dropped: vec![Dropped {
                report: names.take(),
                path: names.take(),
                name: names.take(),
                why: Why::NotIncluded,
            }],
            files,
            outside_include: 1,
            unavailable: vec![Metric::Branches],
            empty: Empty::default(),
        },
        metrics: vec![Metric::Functions, Metric::Lines],
    }
}

/// What `format` prints on stdout for `outcome`.
fn stdout(outcome: &Outcome, format: Format) -> String {
    let opts = OutputOptions {
        format,
        table: TableOptions {
            show: Show::All,
            items: 10,
            color: false,
            // Wide enough that nothing wraps: a name's length must not add lines (wrapping at
            // the terminal's width does, by design).
            width: 1_000_000,
        },
        ..OutputOptions::default()
    };
    let mut out = Vec::new();
    output::emit(outcome, &opts, &mut out).expect("emit to memory");
    String::from_utf8(out).expect("UTF-8 out")
}

/// The lines a CI runner reads (it splits at `\n` and `\r`).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split(['\n', '\r'])
}

/// No line starts a workflow command, but covgate's own annotations (`own`).
fn assert_no_command(channel: &str, text: &str, own: bool) {
    for line in lines(text) {
        let ours = own
            && [
                "::error file=",
                "::notice title=",
                "::warning title=covgate",
                "::error title=covgate",
            ]
            .iter()
            .any(|start| line.starts_with(start));
        assert!(
            ours || !line.trim_start().starts_with("::"),
            "{channel}: a line starts a workflow command: {line:?}"
        );
        assert!(!line.contains("##["), "{channel}: `##[` in {line:?}");
    }
}

/// No bare URL, `www.`, e-mail address or HTML tag of a name in Markdown.
fn assert_no_link(md: &str) {
    for (at, _) in md.match_indices("://") {
        assert!(md[..at].ends_with('\\'), "a bare URL in Markdown:\n{md}");
    }
    assert!(
        !md.to_ascii_lowercase().contains("www."),
        "`www.` in Markdown:\n{md}"
    );
    assert!(
        !md.replace("`@`", "").contains('@'),
        "an `@` in Markdown:\n{md}"
    );
    let mut rest = md.to_string();
    for tag in ["<details>", "<summary>", "</summary>", "</details>"] {
        rest = rest.replace(tag, "");
    }
    for (at, _) in rest.match_indices('<') {
        assert!(
            rest[..at].ends_with('\\'),
            "an unescaped `<` in Markdown:\n{md}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let names: Vec<String> = data
        .split(|b| *b == 0xFF)
        .map(|name| String::from_utf8_lossy(name).into_owned())
        .collect();
    let mut hostile = Names { names, next: 0 };
    let hostile_outcome = outcome(&mut hostile);
    // The same shape with plain names: the line counts a name must not change.
    let count = hostile.next;
    let mut plain = Names {
        names: (0..count).map(|i| format!("n{i}")).collect(),
        next: 0,
    };
    let benign = outcome(&mut plain);

    let table = stdout(&hostile_outcome, Format::Table);
    assert_no_command("table", &table, false);
    assert_eq!(
        lines(&table).count(),
        lines(&stdout(&benign, Format::Table)).count(),
        "a name started a line of the table:\n{table}"
    );
    assert_no_command(
        "markdown on stdout",
        &stdout(&hostile_outcome, Format::Markdown),
        false,
    );
    assert_no_command("github", &stdout(&hostile_outcome, Format::Github), true);
    let json = stdout(&hostile_outcome, Format::Json);
    assert_no_command("json", &json, false);
    serde_json::from_str::<serde_json::Value>(&json).expect("JSON on stdout is JSON");

    let md = markdown::render(
        &hostile_outcome.facts,
        &hostile_outcome.verdict,
        &hostile_outcome.metrics,
        None,
    );
    assert_no_link(&md);
    assert!(!md.contains('\r'), "a CR in Markdown:\n{md}");

    // stderr: an error of one line and one of several; a warning.
    for name in &hostile.names {
        let one = error_text(&Error::at("t.json", 1, Some(2), format!("bad `{name}`")));
        assert_no_command("stderr", &one, false);
        assert_eq!(
            lines(&one).count(),
            1,
            "a name started a line on stderr: {one:?}"
        );
        let several = error_text(&Error::lines(vec![
            "problems:".to_string(),
            format!("  {name}"),
            format!("{name}: x"),
        ]));
        assert_no_command("stderr", &several, false);
        assert_eq!(lines(&several).count(), 3, "{several:?}");
        let warning = log_line(name);
        assert_no_command("warning", &warning, false);
        assert_eq!(lines(&warning).count(), 1, "{warning:?}");
    }
});
