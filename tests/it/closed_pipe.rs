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
