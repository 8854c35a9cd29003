//! Command-line definitions (clap derive). Parsing only; `main.rs` hands off to the library.

use std::path::PathBuf;

use clap::{ArgGroup, Args, CommandFactory, Parser, Subcommand, ValueEnum};

use crate::output;
use crate::paths::PathCase;
use crate::roster::args;

/// covgate: every measured source file at its bar, on every metric.
#[derive(Debug, Parser)]
#[command(name = "covgate", version, about, long_about = None)]
pub(crate) struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// covgate's subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Judge coverage reports against the policy (exit 0 pass, 1 fail, 2 error).
    Check(CheckArgs),
    /// Write a starting coverage-policy.toml for the crate or workspace here, recording today's debt from the reports.
    Init(InitArgs),
    /// Verify the exempt-suite roster (`[[suite]]`), or print the arguments of its two runs.
    Roster(RosterArgs),
    /// Compose the pull-request comment that holds one section per CI leg (used by action.yml).
    Comment(CommentArgs),
    /// Print a shell completion script (e.g. `covgate completions bash > /etc/bash_completion.d/covgate`).
    Completions(CompletionsArgs),
    /// Print covgate's man page (roff), e.g. `covgate man > covgate.1`.
    Man,
}

/// Arguments of `covgate comment`: prints `update ID` or `create`, and writes the body.
#[derive(Debug, Args)]
pub(crate) struct CommentArgs {
    /// The CI leg's name, e.g. `ubuntu-latest` (its section's title).
    #[arg(long, value_name = "NAME")]
    pub leg: String,
    /// The exit code of the leg's `covgate check` (0 pass, 1 fail, other: could not judge).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub code: i32,
    /// The leg's Markdown result (`covgate check --output-markdown PATH`); a missing file means none.
    #[arg(long, value_name = "PATH")]
    pub markdown: Option<PathBuf>,
    /// The pull request's comments as `gh api --paginate repos/OWNER/REPO/issues/N/comments` prints them.
    #[arg(long, value_name = "PATH")]
    pub comments: Option<PathBuf>,
    /// The login that owns covgate's comment; "" accepts any author.
    #[arg(long, value_name = "LOGIN", default_value = "github-actions[bot]")]
    pub author: String,
    /// Where the new comment body is written.
    #[arg(long, value_name = "PATH")]
    pub body_out: PathBuf,
    /// Who writes the section: `RUN/JOB` (the action passes GITHUB_RUN_ID.GITHUB_RUN_ATTEMPT and
    /// the runner's name). A section of the same name written in the same RUN by another JOB is
    /// a collision of two legs: the new section says so.
    #[arg(long, value_name = "RUN/JOB", default_value = "")]
    pub writer: String,
}

/// Arguments of `covgate init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// Coverage reports of today's tests: each file below 100% gets a [[debt]] entry allowing what it misses.
    #[arg(value_name = "REPORT", value_parser = path_text)]
    pub reports: Vec<String>,
    /// Replace an existing coverage-policy.toml.
    #[arg(long)]
    pub force: bool,
    /// Rewrite a path prefix in the reports, as `check` does (repeatable; the last match wins).
    #[arg(long = "remap-path-prefix", value_name = "FROM=TO")]
    pub remap_path_prefix: Vec<String>,
    /// How report paths match files on disk, as for `check`.
    #[arg(long, value_enum, value_name = "CASE", default_value_t = PathCaseArg::Auto)]
    pub path_case: PathCaseArg,
}

/// Arguments of `covgate completions`.
#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `covgate roster`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("mode").required(true).args(["verify", "args"])))]
pub(crate) struct RosterArgs {
    /// Check that each entry's filter and glob select the same files and that no two overlap (exit 0 verified, 1 not, 2 error).
    #[arg(long)]
    pub verify: bool,
    /// With --verify: the export of the roster suites' own instrumented run, for the admission check (repeatable: shards).
    #[arg(long, value_name = "SUITE_EXPORT", requires_all = ["verify", "report"], value_parser = path_text)]
    pub suite_report: Vec<String>,
    /// With --suite-report: the export of the main (instrumented) run (repeatable: shards).
    #[arg(long, value_name = "MAIN_EXPORT", requires = "suite_report", value_parser = path_text)]
    pub report: Vec<String>,
    /// Print the arguments of one run: every suite but the roster's (instrumented) or the roster's alone (plain).
    #[arg(long, value_enum, value_name = "RUN")]
    pub args: Option<Run>,
    /// The test runner the arguments are for.
    #[arg(long, value_enum, default_value_t = Runner::Nextest, requires = "args")]
    pub runner: Runner,
    /// The policy file [default: coverage-policy.toml in this folder or the nearest ancestor].
    #[arg(long, value_name = "PATH")]
    pub policy: Option<PathBuf>,
    /// The folder globs are relative to, inside the cargo workspace [default: policy `root`, else the policy's folder].
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Evaluate `when` conditions for this target triple instead of the host (e.g. x86_64-pc-windows-msvc).
    #[arg(long, value_name = "TRIPLE")]
    pub target: Option<String>,
    /// A custom cfg that holds on this leg, as rustc's --cfg (repeatable).
    #[arg(long = "cfg", value_name = "KEY[=VALUE]")]
    pub cfg: Vec<String>,
    /// Cargo features enabled on this leg, for `feature = "x"` conditions (comma- or space-separated; repeatable).
    #[arg(long, value_name = "A,B")]
    pub features: Vec<String>,
    /// With --suite-report: rewrite a path prefix in the exports, as `check` does (repeatable; the last match wins).
    #[arg(
        long = "remap-path-prefix",
        value_name = "FROM=TO",
        requires = "suite_report"
    )]
    pub remap_path_prefix: Vec<String>,
    /// With --suite-report: how export paths match files on disk, as for `check`.
    #[arg(long, value_enum, value_name = "CASE", default_value_t = PathCaseArg::Auto)]
    pub path_case: PathCaseArg,
}

/// `covgate roster --args RUN`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Run {
    /// The instrumented run: every suite but the roster's.
    Instrumented,
    /// The plain run: the roster's suites alone.
    Plain,
}

/// `covgate roster --runner`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub(crate) enum Runner {
    /// `cargo nextest run` / `cargo llvm-cov nextest`.
    #[default]
    Nextest,
    /// `cargo test` / `cargo llvm-cov`.
    Cargo,
}

/// A path argument held as text (reports, `--file`): an empty one is refused, as clap refuses an
/// empty `--policy` or `--root`. `covgate check ''` would otherwise read the current folder,
/// and the error would not say that the argument was empty.
fn path_text(value: &str) -> Result<String, String> {
    if value.is_empty() {
        return Err("an empty path names no file; give the file's path".to_string());
    }
    Ok(value.to_string())
}

/// Arguments of `covgate check`.
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// Coverage reports: llvm-cov JSON exports or LCOV tracefiles (detected from content); `-` reads stdin.
    #[arg(required = true, value_name = "REPORT", value_parser = path_text)]
    pub reports: Vec<String>,
    /// The policy file [default: coverage-policy.toml in this folder or the nearest ancestor].
    #[arg(long, value_name = "PATH")]
    pub policy: Option<PathBuf>,
    /// The folder report paths and globs are relative to [default: policy `root`, else the policy's folder].
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Rewrite a path prefix in the reports, as rustc's flag does (repeatable; the last match wins).
    #[arg(long = "remap-path-prefix", value_name = "FROM=TO")]
    pub remap_path_prefix: Vec<String>,
    /// Judge the reports alone: do not walk the root for files that no report mentions.
    #[arg(long)]
    pub no_walk: bool,
    /// How report paths match files on disk: `auto` matches a report recorded on Windows (drive
    /// letters or `\` separators) case-insensitively and takes the on-disk spelling.
    #[arg(long, value_enum, value_name = "CASE", default_value_t = PathCaseArg::Auto)]
    pub path_case: PathCaseArg,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Which files the table lists.
    #[arg(long, value_enum, default_value_t = ShowArg::Failing)]
    pub show: ShowArg,
    /// How many uncovered items the table lists per failing file and metric, at least 1 (JSON
    /// and Markdown list all).
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..))]
    pub items: u64,
    /// Also write the JSON result to PATH (from the same run).
    #[arg(long, value_name = "PATH")]
    pub output_json: Option<PathBuf>,
    /// Also write the Markdown result to PATH (from the same run).
    #[arg(long, value_name = "PATH")]
    pub output_markdown: Option<PathBuf>,
    /// With --format github: append the Markdown result to PATH [default: $GITHUB_STEP_SUMMARY].
    /// Without --format github it is an error (nothing would be written there).
    #[arg(long, value_name = "PATH")]
    pub summary_file: Option<PathBuf>,
    /// Evaluate `when` conditions for this target triple instead of the host (e.g. x86_64-pc-windows-msvc).
    #[arg(long, value_name = "TRIPLE")]
    pub target: Option<String>,
    /// A custom cfg that holds on this leg, as rustc's --cfg (repeatable).
    #[arg(long = "cfg", value_name = "KEY[=VALUE]")]
    pub cfg: Vec<String>,
    /// Cargo features enabled on this leg, for `feature = "x"` conditions (comma- or space-separated; repeatable).
    #[arg(long, value_name = "A,B")]
    pub features: Vec<String>,
    /// Link file names and lines in the Markdown result to the source: the URL of the root folder
    /// at the commit under test, e.g. https://github.com/OWNER/REPO/blob/SHA.
    #[arg(long, value_name = "URL", conflicts_with = "link_repository")]
    pub link_base: Option<String>,
    /// Link file names and lines in the Markdown result to the source: the URL of the repository
    /// root at the commit under test; the root's path below the repository (as for
    /// --annotation-prefix) is added to it. What the GitHub action passes by default.
    #[arg(long, value_name = "URL")]
    pub link_repository: Option<String>,
    /// With --format github: the root's path relative to the repository root, put before each
    /// annotation's file (GitHub resolves it against the repository). Default: from
    /// GITHUB_WORKSPACE when the root lies below it; "" for none.
    #[arg(long, value_name = "DIR")]
    pub annotation_prefix: Option<String>,
    /// First rewrite the debt ledger to the measured counts: lower allowances that went down
    /// (never up), drop entries at zero or stale, keep comments and layout; then check. With
    /// --file, only those files' entries are rewritten.
    #[arg(long)]
    pub tighten: bool,
    /// Judge and show only this file, every uncovered item listed (repeatable; relative to the current folder).
    #[arg(long = "file", value_name = "PATH", value_parser = path_text)]
    pub file: Vec<String>,
}

impl CheckArgs {
    /// A misuse of the arguments that clap's rules cannot state, as the message to print (exit
    /// code 2): `--summary-file` without `--format github`, which would write nothing there; a
    /// `--link-base` that is not an http(s) URL or would end a Markdown link.
    pub(crate) fn usage_error(&self) -> Option<String> {
        let summary = (self.summary_file.is_some() && self.format != Format::Github).then(|| {
            "--summary-file needs --format github (only that format writes a step summary); \
             use --output-markdown PATH to write the Markdown result with any format"
                .to_string()
        });
        let (flag, url) = match (&self.link_base, &self.link_repository) {
            (Some(url), _) => ("--link-base", Some(url)),
            (None, url) => ("--link-repository", url.as_ref()),
        };
        let link = url.and_then(|url| crate::render::markdown::check_link_base(flag, url).err());
        let markdown = matches!(self.format, Format::Markdown | Format::Github)
            || self.output_markdown.is_some();
        let unlinked = (url.is_some() && !markdown).then(|| {
            format!(
                "{flag} links the Markdown result: give it with --format markdown or github, or \
                 with --output-markdown PATH"
            )
        });
        summary.or(link).or(unlinked).or_else(|| self.clobbered())
    }

    /// An output file that is a report, or both outputs in one file: the run would overwrite
    /// its own input, or one result with the other.
    fn clobbered(&self) -> Option<String> {
        let same = |a: &std::path::Path, b: &std::path::Path| {
            a == b
                || std::fs::canonicalize(a)
                    .is_ok_and(|a| std::fs::canonicalize(b).is_ok_and(|b| a == b))
        };
        let outputs = [&self.output_json, &self.output_markdown];
        let outputs: Vec<&PathBuf> = outputs.into_iter().flatten().collect();
        if let [json, markdown] = outputs.as_slice() {
            if same(json, markdown) {
                return Some(format!(
                    "--output-json and --output-markdown both name {}: give each result its own file",
                    json.display()
                ));
            }
        }
        let report = self
            .reports
            .iter()
            .map(std::path::Path::new)
            .find(|report| outputs.iter().any(|output| same(report, output)))?;
        Some(format!(
            "{}: an output file is one of the reports, which the run would overwrite; write the \
             result elsewhere",
            report.display()
        ))
    }
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
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

/// `--show`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ShowArg {
    /// Failing and unmeasured files.
    Failing,
    /// Every in-scope file.
    All,
}

/// `--path-case` (the library's [`PathCase`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum PathCaseArg {
    /// Case-insensitively for a report recorded on Windows (a drive letter or `\` in a path),
    /// case-sensitively otherwise.
    #[default]
    Auto,
    /// Always case-sensitively.
    Sensitive,
    /// Always case-insensitively.
    Insensitive,
}

impl From<PathCaseArg> for PathCase {
    fn from(arg: PathCaseArg) -> PathCase {
        match arg {
            PathCaseArg::Auto => PathCase::Auto,
            PathCaseArg::Sensitive => PathCase::Sensitive,
            PathCaseArg::Insensitive => PathCase::Insensitive,
        }
    }
}

impl From<Format> for output::Format {
    fn from(arg: Format) -> output::Format {
        match arg {
            Format::Table => output::Format::Table,
            Format::Json => output::Format::Json,
            Format::Markdown => output::Format::Markdown,
            Format::Github => output::Format::Github,
        }
    }
}

impl From<Run> for args::Run {
    fn from(arg: Run) -> args::Run {
        match arg {
            Run::Instrumented => args::Run::Instrumented,
            Run::Plain => args::Run::Plain,
        }
    }
}

impl From<Runner> for args::Runner {
    fn from(arg: Runner) -> args::Runner {
        match arg {
            Runner::Nextest => args::Runner::Nextest,
            Runner::Cargo => args::Runner::Cargo,
        }
    }
}

/// The completion script of covgate's command line for `shell`, as text.
pub(crate) fn completions(shell: clap_complete::Shell) -> String {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "covgate", &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// covgate's man page (roff, section 1), generated from the argument definitions.
pub(crate) fn man_page() -> String {
    let mut out = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = clap_mangen::Man::new(Cli::command()).render(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn arguments_convert_to_the_library_enums() {
        assert_eq!(PathCase::from(PathCaseArg::Auto), PathCase::Auto);
        assert_eq!(PathCase::from(PathCaseArg::Sensitive), PathCase::Sensitive);
        assert_eq!(
            PathCase::from(PathCaseArg::Insensitive),
            PathCase::Insensitive
        );
        assert_eq!(output::Format::from(Format::Table), output::Format::Table);
        assert_eq!(output::Format::from(Format::Json), output::Format::Json);
        assert_eq!(
            output::Format::from(Format::Markdown),
            output::Format::Markdown
        );
        assert_eq!(output::Format::from(Format::Github), output::Format::Github);
        assert_eq!(args::Run::from(Run::Instrumented), args::Run::Instrumented);
        assert_eq!(args::Run::from(Run::Plain), args::Run::Plain);
        assert_eq!(args::Runner::from(Runner::Nextest), args::Runner::Nextest);
        assert_eq!(args::Runner::from(Runner::Cargo), args::Runner::Cargo);
    }

    fn usage(args: &[&str]) -> Option<String> {
        let cli = Cli::try_parse_from([&["covgate", "check"], args].concat()).unwrap();
        match cli.command {
            Command::Check(check) => check.usage_error(),
            _ => unreachable!(),
        }
    }

    #[test]
    fn outputs_never_overwrite_a_report_or_each_other() {
        let dir = tempfile::tempdir().unwrap();
        let report = dir.path().join("r.json");
        std::fs::write(&report, "{}").unwrap();
        let report = report.to_str().unwrap();
        let other = dir.path().join("out.json");
        let other = other.to_str().unwrap();
        let err = usage(&["r.json", "--output-json", "x", "--output-markdown", "x"]).unwrap();
        assert!(
            err.starts_with("--output-json and --output-markdown both name x"),
            "{err}"
        );
        let err = usage(&[report, "--output-json", report]).unwrap();
        assert!(
            err.contains("an output file is one of the reports"),
            "{err}"
        );
        let respelled = format!(
            "{}/../{}/r.json",
            dir.path().display(),
            dir.path().file_name().unwrap().to_str().unwrap()
        );
        let err = usage(&[report, "--output-markdown", &respelled]).unwrap();
        assert!(
            err.contains("an output file is one of the reports"),
            "{err}"
        );
        assert_eq!(
            usage(&[
                report,
                "--output-json",
                other,
                "--output-markdown",
                report.trim_end_matches(".json")
            ]),
            None
        );
        assert_eq!(usage(&[report]), None);
        let err = usage(&[report, "--link-base", "https://h/x"]).unwrap();
        assert!(
            err.starts_with("--link-base links the Markdown result"),
            "{err}"
        );
        assert_eq!(
            usage(&[
                report,
                "--link-base",
                "https://h/x",
                "--output-markdown",
                other
            ]),
            None
        );
        let err = usage(&[report, "--summary-file", "s.md"]).unwrap();
        assert!(
            err.starts_with("--summary-file needs --format github"),
            "{err}"
        );
    }
}
