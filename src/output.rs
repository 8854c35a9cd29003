//! Writing a check's outputs: the chosen format on stdout, plus any files asked for
//! (`--output-json`, `--output-markdown`, and the GitHub step summary), from one run.

use std::io::Write;
use std::path::{Path, PathBuf};

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
}

/// Colour for the table: only on a terminal, and never when `NO_COLOR` is set (any value), as
/// <https://no-color.org> asks.
pub(crate) fn color_wanted(stdout_is_terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    stdout_is_terminal && no_color.is_none()
}

/// Writes the outputs. Errors (exit 2) when stdout or a file cannot be written.
pub fn emit(outcome: &Outcome, opts: &OutputOptions, stdout: &mut dyn Write) -> Result<()> {
    let (facts, verdict, metrics) = (&outcome.facts, &outcome.verdict, &outcome.metrics);
    let to_stdout =
        |e: std::io::Error| Error::new(format!("cannot write the result to stdout: {e}"));
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
            markdown::render(facts, verdict, metrics, opts.link_base.as_deref()),
        ),
        Format::Github => {
            let summary = markdown::render(facts, verdict, metrics, opts.link_base.as_deref());
            if let Some(path) = &opts.summary_file {
                append(path, &summary)?;
            }
            (
                github::render(facts, verdict),
                table::render(facts, verdict, metrics, &opts.table),
            )
        }
    };
    stdout
        .write_all(commands.as_bytes())
        .and_then(|()| stdout.write_all(command_safe(&text).as_bytes()))
        .map_err(to_stdout)?;
    if let Some(path) = &opts.output_json {
        write_json(path, outcome)?;
    }
    if let Some(path) = &opts.output_markdown {
        write(
            path,
            &markdown::render(facts, verdict, metrics, opts.link_base.as_deref()),
        )?;
    }
    Ok(())
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

fn write(path: &Path, text: &str) -> Result<()> {
    write_atomically(path, &mut |file| file.write_all(text.as_bytes()))
}

fn write_json(path: &Path, outcome: &Outcome) -> Result<()> {
    write_atomically(path, &mut |file| {
        json::write(&outcome.facts, &outcome.verdict, file)
    })
}

/// Writes the file at `path` whole or not at all: `fill` writes a temporary file in the same
/// folder, which is then renamed over `path`. A reader, or another covgate writing the same
/// path at the same time, sees one complete file, never a mixture or a cut one; on an error the
/// temporary file is removed. The file is made as [`std::fs::File::create`] makes one
/// (permissions `0o666` less the umask on Unix), not private as temporary files are.
pub(crate) fn write_atomically(
    path: &Path,
    fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut builder = tempfile::Builder::new();
    builder.prefix(".covgate-").suffix(".tmp");
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    builder
        .tempfile_in(folder)
        .and_then(|mut file| {
            fill(file.as_file_mut())?;
            file.persist(path).map_err(|e| e.error)
        })
        .map(drop)
        .map_err(|e| Error::new(format!("{}: cannot write the result: {e}", path.display())))
}

fn append(path: &Path, text: &str) -> Result<()> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| {
            Error::new(format!(
                "{}: cannot append the step summary: {e}",
                path.display()
            ))
        })
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

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
