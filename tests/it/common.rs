//! Helpers shared by the integration tests: fixture paths, sandboxes and running the binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

/// `tests/fixtures/<rel>`.
pub fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

/// What one run of the binary gave.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The stdout parsed as JSON (panics with the output when it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", self.stdout, self.stderr))
    }
}

/// Runs `covgate ARGS` in `cwd`, with `stdin` as standard input.
pub fn covgate_with_stdin(cwd: &Path, args: &[&str], stdin: Option<&[u8]>) -> Run {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_covgate"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        // Facts lines and notes wrap at the terminal's width; tests of their content read
        // them whole (the width tests set their own).
        .env("COLUMNS", "1000")
        // Annotations name files below `$GITHUB_WORKSPACE` when it is set (as on a CI runner);
        // the tests that want it set it themselves.
        .env_remove("GITHUB_WORKSPACE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn covgate");
    if let (Some(bytes), Some(mut pipe)) = (stdin, child.stdin.take()) {
        pipe.write_all(bytes).expect("write stdin");
    }
    let out = child.wait_with_output().expect("wait for covgate");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `covgate ARGS` in `cwd`.
pub fn covgate(cwd: &Path, args: &[&str]) -> Run {
    covgate_with_stdin(cwd, args, None)
}

/// A temporary project folder: optionally a copy of a fixture folder, plus a policy.
pub struct Sandbox {
    pub dir: tempfile::TempDir,
}

impl Sandbox {
    /// An empty sandbox.
    pub fn new() -> Sandbox {
        Sandbox {
            dir: tempfile::tempdir().expect("tempdir"),
        }
    }

    /// A sandbox holding a copy of `tests/fixtures/<rel>`.
    pub fn copy_of(rel: &str) -> Sandbox {
        let sandbox = Sandbox::new();
        copy_dir(&fixture(rel), sandbox.path());
        sandbox
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `rel` inside the sandbox (creating folders).
    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.path().join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(&path, text).expect("write");
        path
    }

    /// Writes `coverage-policy.toml`.
    pub fn policy(&self, text: &str) {
        self.write("coverage-policy.toml", text);
    }

    /// Runs covgate in the sandbox.
    pub fn run(&self, args: &[&str]) -> Run {
        covgate(self.path(), args)
    }
}

/// Copies a folder tree.
pub fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walk fixture");
        let rel = entry.path().strip_prefix(from).expect("prefix");
        let dest = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &dest).expect("copy");
        }
    }
}

/// The file object for `path` in a `--format json` document.
pub fn file<'a>(doc: &'a Value, path: &str) -> &'a Value {
    doc["files"]
        .as_array()
        .and_then(|files| files.iter().find(|f| f["path"] == path))
        .unwrap_or_else(|| panic!("no file {path} in {doc:#}"))
}

/// `"covered/total status"` of one metric of one file, e.g. `"10/11 fail"`, `"null/null unavailable"`.
pub fn metric(doc: &Value, path: &str, metric: &str) -> String {
    let m = &file(doc, path)["metrics"][metric];
    format!(
        "{}/{} {}",
        m["covered"],
        m["total"],
        m["status"].as_str().unwrap_or("?")
    )
}

/// The `status` of one file.
pub fn status(doc: &Value, path: &str) -> String {
    file(doc, path)["status"]
        .as_str()
        .unwrap_or("?")
        .to_string()
}

/// Environment that an outer `cargo llvm-cov` (covgate's own self-coverage run) or nextest sets
/// and that must not leak into an inner cargo run.
const OUTER_ENV: &[&str] = &[
    "RUSTFLAGS",
    "RUSTDOCFLAGS",
    "CARGO_ENCODED_RUSTFLAGS",
    "CARGO_ENCODED_RUSTDOCFLAGS",
    "LLVM_PROFILE_FILE",
    "CARGO_TARGET_DIR",
    "CARGO_BUILD_TARGET_DIR",
    "CARGO_LLVM_COV",
    "CARGO_LLVM_COV_SHOW_ENV",
    "CARGO_LLVM_COV_TARGET_DIR",
    "CARGO_INCREMENTAL",
    "RUSTC_WRAPPER",
    "RUSTC_WORKSPACE_WRAPPER",
    "CARGO_MAKEFLAGS",
    "NEXTEST_RUN_ID",
    "NEXTEST_PROFILE",
];

/// `cargo ARGS` in `dir`, without the outer coverage run's environment ([`OUTER_ENV`], and
/// every `CARGO_LLVM_COV*` and `__LLVM_PROFILE*` variable).
pub fn cargo<S: AsRef<std::ffi::OsStr>>(dir: &Path, args: &[S]) -> std::process::Output {
    cargo_on(None, dir, args)
}

/// [`cargo`] on a rustup toolchain (`cargo +TOOLCHAIN ARGS`, through rustup's proxy on PATH),
/// or on the cargo running the tests when `toolchain` is `None`.
pub fn cargo_on<S: AsRef<std::ffi::OsStr>>(
    toolchain: Option<&str>,
    dir: &Path,
    args: &[S],
) -> std::process::Output {
    let mut cmd = match toolchain {
        Some(name) => {
            let mut cmd = Command::new("cargo");
            cmd.arg(format!("+{name}")).env_remove("RUSTUP_TOOLCHAIN");
            cmd
        }
        None => Command::new(env!("CARGO")),
    };
    cmd.args(args).current_dir(dir);
    for var in OUTER_ENV {
        cmd.env_remove(var);
    }
    for (key, _) in std::env::vars() {
        if key.starts_with("CARGO_LLVM_COV") || key.starts_with("__LLVM_PROFILE") {
            cmd.env_remove(key);
        }
    }
    cmd.output().expect("run cargo")
}
