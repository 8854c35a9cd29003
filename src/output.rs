//! Writing a check's outputs: the chosen format on stdout, plus any files asked for
//! (`--output-json`, `--output-markdown`, and the GitHub step summary), from one run.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};

use crate::error::{Error, Result};
use crate::outcome::Outcome;
use crate::render::table::TableOptions;
use crate::render::{command_safe, github, json, markdown, table};

/// An output format (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// A table for terminals and CI logs.
    #[default]
    Table,
    /// JSON for machines (see docs/outputs.md; schema in schema/).
    Json,
    /// Markdown for a pull-request comment or a CI step summary.
    Markdown,
    /// GitHub Actions annotations (then the table); the Markdown result goes to the step summary.
    Github,
}

/// Where and how a check's result is written.
#[derive(Debug, Clone, Default)]
pub struct OutputOptions {
    /// The format printed on stdout.
    pub format: Format,
    /// How the table is drawn (also the table under GitHub annotations).
    pub table: TableOptions,
    /// Also write the JSON result here.
    pub output_json: Option<PathBuf>,
    /// Also write the Markdown result here.
    pub output_markdown: Option<PathBuf>,
    /// With `--format github`: append the Markdown result here (`--summary-file`, else
    /// `$GITHUB_STEP_SUMMARY`).
    pub summary_file: Option<PathBuf>,
    /// `--link-base`: the URL of the root folder at the commit under test, for links in the
    /// Markdown result (checked by [`markdown::check_link_base`]).
    pub link_base: Option<String>,
    /// `--link-repository`: the URL of the repository root at the commit under test; the link
    /// base is then this URL and the root's path below the repository (the annotations'
    /// prefix, [`github::file_prefix`]).
    pub link_repository: Option<String>,
    /// With `--format github`: the root's path relative to the repository root, put before each
    /// annotation's file (`--annotation-prefix`; see [`github::file_prefix`]).
    pub annotation_prefix: Option<String>,
    /// `$GITHUB_WORKSPACE` (the repository's checkout), for the annotations' prefix when
    /// `annotation_prefix` is not given.
    pub workspace: Option<String>,
}

/// Colour for the table: only on a terminal, and never when `NO_COLOR` is set (any value), as
/// <https://no-color.org> asks.
pub(crate) fn color_wanted(stdout_is_terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    stdout_is_terminal && no_color.is_none()
}

/// Writes the outputs: the files first (`--output-json`, `--output-markdown`, then the step
/// summary), then stdout. An output file named `/dev/stdout` or `/dev/stderr` (or
/// `/dev/fd/1`, `/proc/self/fd/1`, and the same for 2) is written into that stream, before the
/// format chosen for stdout. Errors (exit 2) when stdout or a file cannot be written; a file that
/// cannot be written stops before anything is printed on stdout.
pub fn emit(outcome: &Outcome, opts: &OutputOptions, stdout: &mut dyn Write) -> Result<()> {
    let (facts, verdict, metrics) = (&outcome.facts, &outcome.verdict, &outcome.metrics);
    let prefix = github::file_prefix(
        opts.annotation_prefix.as_deref(),
        opts.workspace.as_deref(),
        &facts.root,
    );
    let below = |repository: &String| markdown::repository_link(repository, &prefix);
    let link_base = opts
        .link_base
        .clone()
        .or_else(|| opts.link_repository.as_ref().map(below));
    let link_base = link_base.as_deref();
    // The files first: one that cannot be written stops the run (exit 2) before a verdict is
    // printed that the exit code would contradict.
    if let Some(path) = &opts.output_json {
        let mut fill = |out: &mut dyn Write| json::write(facts, verdict, &mut JsonForLog::new(out));
        on_stream(path, stdout, &mut fill).unwrap_or_else(|| write_json(path, outcome))?;
    }
    if let Some(path) = &opts.output_markdown {
        let text = markdown::render(facts, verdict, metrics, link_base);
        let mut fill = |out: &mut dyn Write| out.write_all(command_safe(&text).as_bytes());
        on_stream(path, stdout, &mut fill).unwrap_or_else(|| write(path, &text))?;
    }
    // `commands`: covgate's own workflow commands (`--format github`), escaped as they are made;
    // `text`: everything else, which passes the line rule of the CI log as it is written.
    let (commands, text) = match opts.format {
        Format::Table => (
            String::new(),
            table::render(facts, verdict, metrics, &opts.table),
        ),
        Format::Json => {
            // Written as it is serialised: a failing workspace's JSON can be hundreds of MB.
            json::write(facts, verdict, &mut JsonForLog::new(stdout)).map_err(to_stdout)?;
            (String::new(), String::new())
        }
        Format::Markdown => (
            String::new(),
            markdown::render(facts, verdict, metrics, link_base),
        ),
        Format::Github => {
            let summary = markdown::render(facts, verdict, metrics, link_base);
            if let Some(path) = &opts.summary_file {
                append(path, &summary)?;
            }
            (
                github::render(facts, verdict, &prefix),
                table::render(facts, verdict, metrics, &opts.table),
            )
        }
    };
    print_to(stdout, &commands)?;
    print_to(stdout, &command_safe(&text))
}

/// Writes `text` on stdout and flushes it: the one way every command prints its result (see
/// [`print_to`]).
///
/// # Errors
///
/// Exit 2, as for [`emit`]: stdout cannot be written, a closed pipe included
/// (`covgate man | head -0`): `cannot write the result to stdout: …`.
pub fn print(text: &str) -> Result<()> {
    print_to(&mut std::io::stdout().lock(), text)
}

/// Writes `text` on `stdout` and flushes it. Rust ignores `SIGPIPE`, so a closed pipe is an
/// error here (`EPIPE`), not the end of the process; `print!` would panic on it.
///
/// # Errors
///
/// `cannot write the result to stdout: …` (exit 2).
pub(crate) fn print_to(stdout: &mut dyn Write, text: &str) -> Result<()> {
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(to_stdout)
}

/// The OS error of duplicating descriptor 1 when the process started ([`look_at_stdout`]), 0
/// when it was open or not looked at.
static STDOUT_AT_START: AtomicI32 = AtomicI32::new(0);

/// Looks whether stdout (descriptor 1) is open; the binaries call it before `main`, from the
/// program's initialisers, since Rust's runtime then opens `/dev/null` on a closed standard
/// descriptor (`covgate check >&-` would write its result there and exit 0 without a word).
pub fn look_at_stdout() {
    if let Err(e) = descriptor_open() {
        STDOUT_AT_START.store(e.raw_os_error().unwrap_or(-1), Ordering::Relaxed);
    }
}

/// Errors when stdout was closed as the process started ([`look_at_stdout`]): the result
/// cannot be written. Called before the command runs, which then does nothing.
///
/// # Errors
///
/// `cannot write the result to stdout: Bad file descriptor (os error 9)` (exit 2).
pub fn stdout_open() -> Result<()> {
    match STDOUT_AT_START.load(Ordering::Relaxed) {
        0 => Ok(()),
        code => Err(to_stdout(std::io::Error::from_raw_os_error(code))),
    }
}

/// Duplicates descriptor 1 (and closes the copy, numbered 3 or above): `EBADF` when it is not
/// open.
#[cfg(unix)]
fn descriptor_open() -> std::io::Result<()> {
    use std::os::fd::AsFd;
    std::io::stdout().as_fd().try_clone_to_owned().map(drop)
}

/// Elsewhere a closed stdout is not looked for.
#[cfg(not(unix))]
fn descriptor_open() -> std::io::Result<()> {
    Ok(())
}

/// Writes `text` on stderr (warnings, errors, a command's messages). A stderr that cannot be
/// written is left so: there is nowhere to say it, and the exit code still tells.
pub fn eprint(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// The error of a write to stdout that failed.
fn to_stdout(e: std::io::Error) -> Error {
    Error::new(format!("cannot write the result to stdout: {e}"))
}

/// The line rule of the CI log ([`crate::render::command_safe`]) for JSON on stdout, as it
/// streams: every `[` right after `##` is written as `\u005b`, JSON's escape of the same
/// character, so no line holds the runner's `##[` and the document still reads the same. A `[`
/// of JSON's own never follows `#`, which can only be inside a string.
pub(crate) struct JsonForLog<'a> {
    out: &'a mut dyn Write,
    /// How many `#` the bytes written so far end with.
    hashes: usize,
}

impl<'a> JsonForLog<'a> {
    /// A writer to `out`.
    pub(crate) fn new(out: &'a mut dyn Write) -> JsonForLog<'a> {
        JsonForLog { out, hashes: 0 }
    }

    /// How many `#` come just before `buf[at]`, counting those that ended the earlier writes
    /// when every byte of `buf` before `at` is one.
    fn hashes_before(&self, buf: &[u8], at: usize) -> usize {
        let before = buf.get(..at).unwrap_or_default();
        let run = before.iter().rev().take_while(|b| **b == b'#').count();
        if run == before.len() {
            run + self.hashes
        } else {
            run
        }
    }
}

impl Write for JsonForLog<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut escaped = Vec::new();
        let mut start = 0;
        // Only a `[` can need escaping: they are found with memchr, not byte by byte (the JSON
        // of a failing gigabyte is about 100 MB).
        for at in memchr::memchr_iter(b'[', buf) {
            if self.hashes_before(buf, at) >= 2 {
                escaped.extend_from_slice(buf.get(start..at).unwrap_or_default());
                escaped.extend_from_slice(b"\\u005b");
                start = at + 1;
            }
        }
        self.hashes = self.hashes_before(buf, buf.len());
        let bytes = if start == 0 {
            buf
        } else {
            escaped.extend_from_slice(buf.get(start..).unwrap_or_default());
            &escaped
        };
        self.out.write_all(bytes).map(|()| buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// The names of the process's own standard output and error: an output file named so is
/// written into that stream ([`on_stream`]).
const STDOUT_NAMES: [&str; 3] = ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"];
const STDERR_NAMES: [&str; 3] = ["/dev/stderr", "/dev/fd/2", "/proc/self/fd/2"];

/// Runs `fill` on the standard stream that `path` names (one of [`STDOUT_NAMES`]: `stdout`, the
/// writer the table goes to; one of [`STDERR_NAMES`]: stderr), or returns `None` when it names
/// neither. Such a path is not a file of its own: when stdout is redirected to a file, the path
/// resolves to that file, and replacing it would lose what stdout writes after it (the table);
/// opening it again would write over it from its start. `fill` passes the line rule of the CI
/// log, as stdout does. Errors (exit 2) name `path`.
fn on_stream(
    path: &Path,
    stdout: &mut dyn Write,
    fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Option<Result<()>> {
    let named = |names: [&str; 3]| names.iter().any(|name| path == Path::new(name));
    let written = if named(STDOUT_NAMES) {
        fill(stdout)
    } else if named(STDERR_NAMES) {
        fill(&mut std::io::stderr().lock())
    } else {
        return None;
    };
    Some(
        written
            .map_err(|e| Error::new(format!("{}: cannot write the result: {e}", path.display()))),
    )
}

fn write(path: &Path, text: &str) -> Result<()> {
    write_atomically(path, &mut |file| file.write_all(text.as_bytes()))
}

fn write_json(path: &Path, outcome: &Outcome) -> Result<()> {
    write_atomically(path, &mut |file| {
        json::write(&outcome.facts, &outcome.verdict, file)
    })
}

/// Writes the file at `path` whole or not at all, and never replaces what is not a file of its
/// own. The one writer of every file covgate makes (`--output-json`, `--output-markdown`, and
/// the policy or ledger `check --tighten` rewrites). `path` is first resolved through symbolic
/// links, then:
///
/// - a regular file, or a path that does not exist: `fill` writes a temporary file in the same
///   folder, which is then renamed over it. A reader, or another covgate writing the same path
///   at the same time, sees one complete file, never a mixture or a cut one; on an error the
///   temporary file is removed. A replaced file keeps its permission bits; a new one is made as
///   [`std::fs::File::create`] makes one (`0o666` less the umask on Unix), not private as
///   temporary files are;
/// - a read-only file (no write permission bit, whoever runs covgate): an error, not replaced;
/// - a character device (`/dev/null`, a terminal): written straight into;
/// - a symbolic link that resolves to nothing (dangling, or `/dev/fd/3` on a pipe): opened
///   through the link and written straight into;
/// - anything else (a folder, a FIFO, a socket, a block device): an error.
///
/// Errors (exit 2) name `path`.
pub(crate) fn write_atomically(
    path: &Path,
    fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let failed = |why: String| {
        Error::new(format!(
            "{}: cannot write the result: {why}",
            path.display()
        ))
    };
    match target(path).map_err(failed)? {
        Target::Replace(real, keep) => replace(&real, keep, fill),
        Target::InPlace(real) => std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(real)
            .and_then(|mut file| fill(&mut file)),
    }
    .map_err(|e| failed(e.to_string()))
}

/// How [`write_atomically`] writes a path.
#[derive(Debug, PartialEq)]
enum Target {
    /// A temporary file renamed over this path (a regular file, or nothing), given these
    /// permissions when it replaces a file.
    Replace(PathBuf, Option<std::fs::Permissions>),
    /// Opened and written straight into (a character device, or a link that resolves to
    /// nothing).
    InPlace(PathBuf),
}

/// Where `path` is written (see [`write_atomically`]), or why it is not.
fn target(path: &Path) -> std::result::Result<Target, String> {
    let Ok((real, meta)) = std::fs::canonicalize(path)
        .and_then(|real| std::fs::metadata(&real).map(|meta| (real, meta)))
    else {
        // Nothing there, or a link to nothing (which the open follows).
        return Ok(match std::fs::symlink_metadata(path) {
            Ok(_) => Target::InPlace(path.to_path_buf()),
            Err(_) => Target::Replace(path.to_path_buf(), None),
        });
    };
    let kind = meta.file_type();
    if kind.is_file() && meta.permissions().readonly() {
        Err(format!(
            "{} is read-only; covgate does not replace it (make it writable or write elsewhere)",
            real.display()
        ))
    } else if kind.is_file() {
        Ok(Target::Replace(real, Some(meta.permissions())))
    } else if is_char_device(&kind) {
        Ok(Target::InPlace(real))
    } else {
        Err(format!(
            "{} is not a regular file (a folder, FIFO, socket or block device); covgate writes files and character devices only",
            real.display()
        ))
    }
}

#[cfg(unix)]
fn is_char_device(kind: &std::fs::FileType) -> bool {
    std::os::unix::fs::FileTypeExt::is_char_device(kind)
}

#[cfg(not(unix))]
fn is_char_device(_: &std::fs::FileType) -> bool {
    false
}

/// Writes `path` through a temporary file in its folder renamed over it, with `keep`'s
/// permissions if given.
fn replace(
    path: &Path,
    keep: Option<std::fs::Permissions>,
    fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut builder = tempfile::Builder::new();
    builder.prefix(".covgate-").suffix(".tmp");
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    builder.tempfile_in(folder).and_then(|mut file| {
        fill(file.as_file_mut())?;
        keep.into_iter()
            .try_for_each(|perms| file.as_file().set_permissions(perms))
            .and_then(|()| file.persist(path).map(drop).map_err(|e| e.error))
    })
}

/// Appends `text` to the step summary at `path` (`--summary-file`, `$GITHUB_STEP_SUMMARY`).
/// What is there is checked as [`write_atomically`] checks it ([`target`]) before it is opened:
/// a regular file, a character device or nothing is appended to; a FIFO (whose open would block
/// until a reader comes, for ever on a CI runner), a folder, a socket or a read-only file is an
/// error. Errors (exit 2) name `path`.
fn append(path: &Path, text: &str) -> Result<()> {
    let failed = |why: String| {
        Error::new(format!(
            "{}: cannot append the step summary: {why}",
            path.display()
        ))
    };
    target(path).map_err(failed)?;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| failed(e.to_string()))
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn printing_to_a_closed_stdout_is_an_error() {
        struct Broken;
        impl Write for Broken {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let err = print_to(&mut Broken, "text\n").unwrap_err();
        assert_eq!(
            err.message(),
            "cannot write the result to stdout: broken pipe"
        );
        let mut out = Vec::new();
        print_to(&mut out, "text\n").unwrap();
        assert_eq!(out, b"text\n");
        print("").unwrap();
        eprint("");
    }

    #[test]
    fn only_the_names_of_the_standard_streams_are_written_into_them() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("closed"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut fill = |out: &mut dyn Write| out.write_all(b"{}");
        let err = on_stream(Path::new("/dev/fd/1"), &mut Closed, &mut fill)
            .expect("a standard stream")
            .unwrap_err();
        assert_eq!(err.message(), "/dev/fd/1: cannot write the result: closed");
        let mut out = Vec::new();
        assert!(on_stream(Path::new("/dev/stdout"), &mut out, &mut fill).is_some());
        assert_eq!(out, b"{}");
        for file in ["/dev/stdout2", "dev/stdout", "/proc/self/fd/10", "out.json"] {
            assert!(
                on_stream(Path::new(file), &mut out, &mut fill).is_none(),
                "{file}"
            );
        }
    }

    #[test]
    fn outputs_are_written_whole_or_not_at_all() {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join("out.md");
        std::fs::write(&out, "old").expect("old");
        write(&out, "new\n").expect("write");
        assert_eq!(std::fs::read_to_string(&out).expect("read"), "new\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&out).expect("meta").permissions().mode();
            assert_ne!(
                mode & 0o044,
                0,
                "readable by others, as File::create makes it: {mode:o}"
            );
        }
        // A write that fails half-way leaves the old file and no temporary file.
        let err = write_atomically(&out, &mut |file| {
            file.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        })
        .unwrap_err();
        assert_eq!(
            err.message(),
            format!("{}: cannot write the result: disk full", out.display())
        );
        assert_eq!(std::fs::read_to_string(&out).expect("read"), "new\n");
        // A folder in the way, and a folder that does not exist.
        let err = write(dir.path(), "x").unwrap_err();
        assert!(err.message().contains("cannot write the result"), "{err}");
        let err = write(&dir.path().join("gone/out.md"), "x").unwrap_err();
        assert!(
            err.message()
                .contains("gone/out.md: cannot write the result"),
            "{err}"
        );
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, ["out.md"]);
        // An empty path: the temporary file is made in the current folder, the rename fails.
        assert!(write(Path::new(""), "x").is_err());
    }

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).expect("meta").permissions().mode() & 0o7777
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_and_files_keep_their_mode() {
        use std::os::unix::fs::{symlink, PermissionsExt};
        let dir = tempfile::tempdir().expect("tempdir");
        let real = dir.path().join("real.json");
        std::fs::write(&real, "old").expect("old");
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        let link = dir.path().join("link.json");
        symlink("real.json", &link).expect("symlink");
        write(&link, "new").expect("write");
        assert!(std::fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&real).expect("read"), "new");
        assert_eq!(mode(&real), 0o640);
        // A link to nothing: the file it names is made, the link stays.
        let dangling = dir.path().join("dangling.json");
        symlink("made.json", &dangling).expect("symlink");
        write(&dangling, "made").expect("write");
        assert!(std::fs::symlink_metadata(&dangling)
            .expect("link")
            .file_type()
            .is_symlink());
        let made = dir.path().join("made.json");
        assert_eq!(std::fs::read_to_string(made).expect("read"), "made");
    }

    /// Read-only by its mode, for every user: root, whom permissions do not stop, is refused
    /// too.
    #[cfg(unix)]
    #[test]
    fn a_read_only_file_is_not_replaced() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join("out.json");
        std::fs::write(&out, "old").expect("old");
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o444)).expect("chmod");
        let err = write(&out, "new").unwrap_err();
        assert_eq!(
            err.message(),
            format!(
                "{0}: cannot write the result: {0} is read-only; covgate does not replace it (make it writable or write elsewhere)",
                out.display()
            )
        );
        assert_eq!(std::fs::read_to_string(&out).expect("read"), "old");
        assert_eq!(mode(&out), 0o444);
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_written_into_and_fifos_refused() {
        use std::os::unix::fs::FileTypeExt;
        let null = Path::new("/dev/null");
        write(null, "x").expect("write /dev/null");
        assert!(std::fs::metadata(null)
            .expect("meta")
            .file_type()
            .is_char_device());
        assert_eq!(mode(null) & 0o666, 0o666);
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo");
        assert!(made.success());
        // The step summary is appended to only where a result may be written.
        let err = append(&fifo, "x").unwrap_err();
        assert!(
            err.message().starts_with(&format!(
                "{}: cannot append the step summary: ",
                fifo.display()
            )) && err.message().contains("is not a regular file"),
            "{err}"
        );
        append(null, "x").expect("append to /dev/null");
        // The device's write error is the step summary's.
        let err = append(Path::new("/dev/full"), "x").unwrap_err();
        assert!(
            err.message()
                .starts_with("/dev/full: cannot append the step summary: "),
            "{err}"
        );
        let err = write(&fifo, "x").unwrap_err();
        assert!(
            err.message()
                .ends_with("is not a regular file (a folder, FIFO, socket or block device); covgate writes files and character devices only"),
            "{err}"
        );
        assert!(std::fs::symlink_metadata(&fifo)
            .expect("fifo")
            .file_type()
            .is_fifo());
        // The device's write error is the result's.
        let err = write(Path::new("/dev/full"), "x").unwrap_err();
        assert!(
            err.message()
                .starts_with("/dev/full: cannot write the result: "),
            "{err}"
        );
    }

    #[test]
    fn json_on_stdout_holds_no_old_style_command() {
        let mut out = Vec::new();
        let mut json = JsonForLog::new(&mut out);
        json.write_all(b"[\"a##[error]b #[c ##").expect("write");
        json.write_all(b"#[d\"]").expect("write");
        json.write_all(b"\n").expect("write");
        json.flush().expect("flush");
        let text = String::from_utf8(out).expect("utf-8");
        assert_eq!(text, "[\"a##\\u005berror]b #[c ###\\u005bd\"]\n");
        let value: serde_json::Value = serde_json::from_str(&text).expect("still JSON");
        assert_eq!(value[0], "a##[error]b #[c ###[d");
    }

    #[test]
    fn colour_needs_a_terminal_and_no_no_color() {
        assert!(color_wanted(true, None));
        assert!(!color_wanted(false, None));
        assert!(!color_wanted(true, Some(std::ffi::OsStr::new(""))));
    }
}
