//! Every command's stdout into a closed pipe (`covgate man | head -0`): the write fails with
//! `EPIPE` (Rust ignores `SIGPIPE`), and each command ends as `check` does: one error line on
//! stderr and exit 2, never a panic (exit 101).

use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::{self, Sandbox};

/// Runs `covgate ARGS` in `cwd` with stdout a pipe whose reading end is already closed, so
/// the first write fails whenever it comes; returns the exit code and stderr.
// `std::io::pipe` is newer than the crate's rust-version; only this test uses it.
#[allow(clippy::incompatible_msrv)]
fn into_closed_pipe(cwd: &Path, args: &[&str]) -> (i32, String) {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_covgate"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env("SOURCE_DATE_EPOCH", "1796083199")
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("run covgate");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const BROKEN: &str =
    "covgate: error: cannot write the result to stdout: Broken pipe (os error 32)\n";

#[test]
fn every_command_into_a_closed_pipe_ends_with_exit_2_and_no_panic() {
    let sb = Sandbox::new();
    sb.write(
        "Cargo.toml",
        "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    sb.write("src/lib.rs", "pub fn f() {}\n");
    sb.write(
        "cov.info",
        "SF:src/lib.rs\nFN:1,f\nFNDA:1,f\nDA:1,1\nend_of_record\n",
    );
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("demo");
    let cases: Vec<(&Path, Vec<&str>)> = vec![
        (sb.path(), vec!["man"]),
        (sb.path(), vec!["completions", "bash"]),
        (sb.path(), vec!["completions", "zsh"]),
        (
            sb.path(),
            vec![
                "comment",
                "--leg",
                "linux",
                "--code",
                "0",
                "--body-out",
                "body.md",
            ],
        ),
        (&demo, vec!["check", "coverage.json"]),
        (&demo, vec!["check", "coverage.json", "--format", "json"]),
        (
            &demo,
            vec!["check", "coverage.json", "--format", "markdown"],
        ),
        (
            &demo,
            vec![
                "check",
                "coverage.json",
                "--format",
                "github",
                "--summary-file",
                "/dev/null",
            ],
        ),
        // `init` last: it writes the policy that the roster then reads.
        (sb.path(), vec!["init", "cov.info"]),
        (sb.path(), vec!["roster", "--args", "plain"]),
    ];
    for (cwd, args) in cases {
        let (code, stderr) = into_closed_pipe(cwd, &args);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.ends_with(BROKEN), "{args:?}: {stderr}");
    }
    // The same commands into an open pipe print and exit as documented.
    let run = common::covgate(sb.path(), &["roster", "--args", "plain"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.is_empty());
}

/// Runs `covgate ARGS` in `cwd` through `sh` with stdout closed (`>&-`); returns the exit code,
/// stdout (nothing can reach it) and stderr.
fn with_stdout_closed(cwd: &Path, args: &[&str]) -> (i32, String) {
    closed_stdout_of(env!("CARGO_BIN_EXE_covgate"), cwd, args)
}

/// [`with_stdout_closed`] for the binary `bin`.
fn closed_stdout_of(bin: &str, cwd: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" >&-")
        .arg(bin)
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("run sh");
    assert!(out.stdout.is_empty());
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Breaker s16 #2: with stdout closed, Rust's stdout writes nothing and reports success, so
/// `check` exited 0 or 1 and `man` 0 with no result and no word. Every command now ends with
/// exit 2 and one line on stderr, before it does anything.
#[cfg(unix)]
#[test]
fn a_closed_stdout_is_exit_2_before_the_command_runs() {
    const CLOSED: &str =
        "covgate: error: cannot write the result to stdout: Bad file descriptor (os error 9)\n";
    let sb = Sandbox::new();
    sb.write(
        "Cargo.toml",
        "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    sb.write("src/lib.rs", "pub fn f() {}\n");
    sb.write(
        "cov.info",
        "SF:src/lib.rs\nFN:1,f\nFNDA:1,f\nDA:1,1\nend_of_record\n",
    );
    // `init` writes no policy.
    assert_eq!(
        with_stdout_closed(sb.path(), &["init", "cov.info"]),
        (2, CLOSED.into())
    );
    assert!(!sb.path().join("coverage-policy.toml").exists());
    sb.write(
        "coverage-policy.toml",
        "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"functions\", \"lines\"]\n",
    );
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("demo");
    let cases: Vec<(&Path, Vec<&str>)> = vec![
        (sb.path(), vec!["man"]),
        (sb.path(), vec!["completions", "bash"]),
        // Passing and failing checks alike.
        (sb.path(), vec!["check", "cov.info", "--file", "src/lib.rs"]),
        (
            sb.path(),
            vec!["check", "cov.info", "--output-json", "out.json"],
        ),
        (&demo, vec!["check", "coverage.json"]),
        (sb.path(), vec!["roster", "--args", "plain"]),
    ];
    for (cwd, args) in cases {
        assert_eq!(
            with_stdout_closed(cwd, &args),
            (2, CLOSED.into()),
            "{args:?}"
        );
    }
    assert!(!sb.path().join("out.json").exists());
    let cargo = env!("CARGO_BIN_EXE_cargo-covgate");
    let via_cargo = closed_stdout_of(cargo, sb.path(), &["covgate", "man"]);
    assert_eq!(via_cargo, (2, CLOSED.into()));
    // The same check with stdout open passes, and writes its file.
    let run = sb.run(&["check", "cov.info", "--output-json", "out.json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(sb.path().join("out.json").exists());
}
