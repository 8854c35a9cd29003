//! The hostile inputs of break session 14, each as a test of its kind: a Rust source nested too
//! deep for the no-code parser, special files where covgate writes the step summary or the
//! comment body and where `covgate init` reads the manifest, UTF-16 reports and policies, and a
//! `--no-walk` pass in the pull-request comment.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::bad_inputs::run_killed_after;
use crate::common::{Run, Sandbox};

/// Runs covgate in `dir` with `env`, killed (exit -9) after 20 s: a hang fails the test.
fn run_bounded(dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_covgate"));
    command
        .args(args)
        .current_dir(dir)
        .env("COLUMNS", "1000")
        .env_remove("GITHUB_STEP_SUMMARY");
    for (key, value) in env {
        command.env(key, value);
    }
    run_killed_after(&mut command, Duration::from_secs(20))
}

/// A sandbox with a covered `src/lib.rs`, a lines-only policy of `src/**/*.rs`, and `t.info`.
fn covered_lib() -> Sandbox {
    let sb = Sandbox::new();
    sb.policy("[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"lines\"]\n");
    sb.write("src/lib.rs", "pub fn a() -> u32 { 1 }\n");
    sb.write("t.info", "SF:src/lib.rs\nDA:1,1\nend_of_record\n");
    sb
}

/// A source in scope and in no report, nested 5,000 levels deep (finding #14), is unmeasured
/// ("does not parse"), named, and the check fails: it once overflowed the stack and aborted.
/// One just under the limit is parsed (no code).
#[test]
fn a_deeply_nested_source_in_no_report_is_unmeasured_not_a_crash() {
    let sb = covered_lib();
    let deep = format!(
        "pub const T: u8 = {}1{};\n",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    sb.write("src/table.rs", &deep);
    let run = run_bounded(sb.path(), &["check", "t.info"], &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("src/table.rs ┆ unmeasured")
            && run.stdout.contains(
                "in no report, and does not parse (line 1: nested deeper than 1000 levels of \
                 brackets and operators, which covgate does not parse)"
            ),
        "{}",
        run.stdout
    );
    let fine = format!(
        "pub const T: u8 = {}1{};\n",
        "(".repeat(900),
        ")".repeat(900)
    );
    sb.write("src/table.rs", &fine);
    let run = run_bounded(sb.path(), &["check", "t.info"], &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("1 no code"), "{}", run.stdout);
}

/// The step summary named by `--summary-file` or `$GITHUB_STEP_SUMMARY` that is a FIFO (or a
/// folder) is refused at once, as `--output-json` is (finding #2); its open blocked for ever.
#[cfg(unix)]
#[test]
fn a_step_summary_that_is_a_fifo_is_refused() {
    let sb = covered_lib();
    let fifo = sb.path().join("summary");
    crate::bad_inputs::mkfifo(&fifo);
    let want = format!(
        "covgate: error: {}: cannot append the step summary: {} is not a regular file",
        fifo.display(),
        fifo.canonicalize().expect("real").display()
    );
    let given = ["check", "t.info", "--format", "github", "--summary-file"];
    let run = run_bounded(sb.path(), &[&given[..], &["summary"]].concat(), &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("covgate: error: summary: cannot append the step summary: ")
            && run
                .stderr
                .contains("summary is not a regular file (a folder, FIFO, socket or block device)"),
        "{}",
        run.stderr
    );
    let run = run_bounded(
        sb.path(),
        &["check", "t.info", "--format", "github"],
        &[("GITHUB_STEP_SUMMARY", &fifo)],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains(&want), "{}", run.stderr);
    // A regular file is appended to, as before.
    let file = sb.path().join("summary.md");
    std::fs::write(&file, "before\n").expect("write");
    let run = run_bounded(
        sb.path(),
        &["check", "t.info", "--format", "github"],
        &[("GITHUB_STEP_SUMMARY", &file)],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&file).expect("read");
    assert!(text.starts_with("before\n### covgate: ✅ pass"), "{text}");
}

/// `covgate comment --body-out` naming a FIFO is refused, as every output is.
#[cfg(unix)]
#[test]
fn a_comment_body_that_is_a_fifo_is_refused() {
    let sb = Sandbox::new();
    let fifo = sb.path().join("body.md");
    crate::bad_inputs::mkfifo(&fifo);
    let run = run_bounded(
        sb.path(),
        &[
            "comment",
            "--leg",
            "l",
            "--code",
            "0",
            "--body-out",
            "body.md",
        ],
        &[],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("body.md: cannot write the result: ")
            && run.stderr.contains("is not a regular file"),
        "{}",
        run.stderr
    );
}

/// `covgate init` on a `Cargo.toml` that is a link to `/dev/zero` or a FIFO (finding #11) is
/// refused before cargo runs, naming the manifest, as the roster refuses it; it waited for ever.
#[cfg(unix)]
#[test]
fn init_refuses_a_manifest_that_is_a_device_or_a_fifo() {
    let sb = Sandbox::new();
    sb.write("src/lib.rs", "pub fn f() {}\n");
    let manifest = sb.path().join("Cargo.toml");
    std::os::unix::fs::symlink("/dev/zero", &manifest).expect("symlink");
    let run = run_bounded(sb.path(), &["init"], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "Cargo.toml: covgate init runs cargo, which reads this manifest, but it is a device, \
             not a regular file"
        ),
        "{}",
        run.stderr
    );
    crate::bad_inputs::mkfifo(&manifest);
    let run = run_bounded(sb.path(), &["init"], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("covgate init runs cargo, which reads this manifest, but it is a FIFO"),
        "{}",
        run.stderr
    );
    assert!(!sb.path().join("coverage-policy.toml").exists());
}

/// UTF-16 text, with or without a byte-order mark, as UTF-16LE (Windows PowerShell 5.1's `>`)
/// or UTF-16BE.
fn utf16(text: &str, bom: bool, little: bool) -> Vec<u8> {
    let mut bytes = Vec::new();
    let units = bom.then_some(0xFEFF).into_iter().chain(text.encode_utf16());
    for unit in units {
        let pair = if little {
            unit.to_le_bytes()
        } else {
            unit.to_be_bytes()
        };
        bytes.extend_from_slice(&pair);
    }
    bytes
}

/// A UTF-16 report or policy (finding #9) is an error that says so and how to re-encode it; a
/// report was "not an LCOV record" with its bytes escaped, and an export too.
#[test]
fn utf16_reports_and_policies_are_named_as_such() {
    let sb = covered_lib();
    let tracefile = "SF:src/lib.rs\nDA:1,1\nend_of_record\n";
    let export = "{\"type\":\"llvm.coverage.json.export\"}";
    let cases = [
        ("le.info", utf16(tracefile, true, true)),
        ("be.info", utf16(tracefile, true, false)),
        ("bare-le.info", utf16(tracefile, false, true)),
        ("bare-be.info", utf16(tracefile, false, false)),
        ("le.json", utf16(export, true, true)),
    ];
    for (name, bytes) in cases {
        std::fs::write(sb.path().join(name), bytes).expect("write");
        let run = run_bounded(sb.path(), &["check", name], &[]);
        assert_eq!(run.code, 2, "{name}: {}", run.stderr);
        assert!(
            run.stderr.contains(name)
                && run.stderr.contains("the report is UTF-16 text")
                && run.stderr.contains("`| Out-File -Encoding utf8`"),
            "{name}: {}",
            run.stderr
        );
    }
    let policy = "[measure]\nmetrics = [\"lines\"]\n";
    std::fs::write(
        sb.path().join("coverage-policy.toml"),
        utf16(policy, true, true),
    )
    .expect("write");
    let run = run_bounded(sb.path(), &["check", "t.info"], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("coverage-policy.toml: cannot read the policy: it is UTF-16 text"),
        "{}",
        run.stderr
    );
}

/// UTF-16LE without a byte-order mark (an export or tracefile re-saved by an editor, or a
/// policy) is named as UTF-16 with the fix, as with one: such an export got the JSON reader's
/// error. A report from standard input too.
#[test]
fn utf16_without_a_byte_order_mark_is_named_as_such() {
    let sb = covered_lib();
    let export = "{\"type\":\"llvm.coverage.json.export\"}";
    let cases = [
        ("bare-le.json", utf16(export, false, true)),
        ("bare-be.json", utf16(export, false, false)),
        (
            "spaced-le.json",
            utf16(&format!("\n  {export}"), false, true),
        ),
    ];
    for (name, bytes) in cases {
        std::fs::write(sb.path().join(name), bytes).expect("write");
        let run = run_bounded(sb.path(), &["check", name], &[]);
        assert_eq!(run.code, 2, "{name}: {}", run.stderr);
        assert!(
            run.stderr
                .contains(&format!("{name}: the report is UTF-16 text"))
                && run.stderr.contains("`| Out-File -Encoding utf8`"),
            "{name}: {}",
            run.stderr
        );
    }
    let bare = utf16(export, false, true);
    let run = crate::common::covgate_with_stdin(sb.path(), &["check", "-"], Some(&bare));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("<stdin>: the report is UTF-16 text"),
        "{}",
        run.stderr
    );
    let policy = "[measure]\nmetrics = [\"lines\"]\n";
    for little in [true, false] {
        std::fs::write(
            sb.path().join("coverage-policy.toml"),
            utf16(policy, false, little),
        )
        .expect("write");
        let run = run_bounded(sb.path(), &["check", "bare-le.json"], &[]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(
            run.stderr
                .contains("coverage-policy.toml: cannot read the policy: it is UTF-16 text")
                && run.stderr.contains("`| Out-File -Encoding utf8`"),
            "{}",
            run.stderr
        );
    }
}

/// A `--no-walk` pass (finding #3) carries its caveat as a warning into the Markdown result, so
/// the pull-request comment's one line for the passing leg is followed by it, and into the
/// GitHub annotations; `facts.walked` says so in JSON.
#[test]
fn a_no_walk_pass_is_not_a_clean_pass_in_the_comment() {
    let sb = covered_lib();
    sb.write("src/orphan.rs", "pub fn o() {}\n");
    let run = run_bounded(
        sb.path(),
        &[
            "check",
            "t.info",
            "--no-walk",
            "--output-markdown",
            "r.md",
            "--output-json",
            "r.json",
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sb.path().join("r.json")).expect("json"))
            .expect("JSON");
    assert_eq!(json["facts"]["walked"], false);
    let warning = "> ⚠️ warning: --no-walk: the root was not searched, so files that no \
                   report mentions were not checked (the unmeasured count covers only files the \
                   reports name), nor were stale exclusions and inline ignore markers";
    let markdown = std::fs::read_to_string(sb.path().join("r.md")).expect("md");
    assert!(markdown.contains(warning), "{markdown}");
    let run = run_bounded(
        sb.path(),
        &[
            "comment",
            "--leg",
            "linux",
            "--code",
            "0",
            "--markdown",
            "r.md",
            "--body-out",
            "b.md",
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let body = std::fs::read_to_string(sb.path().join("b.md")).expect("body");
    assert!(
        body.contains("✅ **linux**: covgate passed — 1 measured: 1 passed, 0 failed"),
        "{body}"
    );
    assert!(body.contains(warning), "{body}");
    let run = run_bounded(
        sb.path(),
        &["check", "t.info", "--no-walk", "--format", "github"],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("::warning title=covgate%3A --no-walk::--no-walk: the root was not searched"),
        "{}",
        run.stdout
    );
}
