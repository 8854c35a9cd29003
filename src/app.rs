//! The command-line program behind the `covgate` and `cargo-covgate` binaries: parses arguments,
//! runs the library, prints, and gives the exit code (0 every measured file passes, 1 the policy
//! fails, 2 usage, policy or input error; `covgate roster`: 0 verified, 1 not, 2 error).

use std::ffi::OsString;
use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;

use crate::cli::{CheckArgs, Cli, Command, CommentArgs, InitArgs, RosterArgs, ShowArg};
use crate::commands::check::{self, CheckOptions};
use crate::commands::roster::{self as command, Mode};
use crate::comment::CommentOptions;
use crate::error::Error;
use crate::output::{self, OutputOptions};
use crate::platform::PlatformOptions;
use crate::render::table::TableOptions;
use crate::render::{error_text, log_line, log_text, Show};

/// Runs the program on its command line (`args`, the program name first) and returns the exit
/// code. clap prints help, the version and usage errors itself (usage errors exit 2).
pub fn main(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let cli = Cli::parse_from(args);
    if let Err(err) = output::stdout_open() {
        return failed(&err);
    }
    match cli.command {
        Command::Check(args) => check(&args),
        Command::Roster(args) => roster(&args),
        Command::Init(args) => init(&args),
        Command::Comment(args) => comment(&args),
        Command::Completions(args) => printed(&crate::cli::completions(args.shell), 0),
        Command::Man => printed(&crate::cli::man_page(), 0),
    }
}

/// Prints `text` on stdout ([`output::print`]) and gives `code`, or, when stdout cannot be
/// written (a closed pipe), the error and exit 2.
fn printed(text: &str, code: u8) -> ExitCode {
    match output::print(text) {
        Ok(()) => ExitCode::from(code),
        Err(err) => failed(&err),
    }
}

/// Prints `err` on stderr and gives exit 2.
fn failed(err: &Error) -> ExitCode {
    output::eprint(&format!("covgate: error: {}\n", error_text(err)));
    ExitCode::from(2)
}

fn init(args: &InitArgs) -> ExitCode {
    let opts = crate::commands::init::InitOptions {
        reports: args.reports.clone(),
        force: args.force,
        cwd: std::env::current_dir().unwrap_or_default(),
        date: crate::commands::init::today(),
        remaps: args.remap_path_prefix.clone(),
        path_case: args.path_case.into(),
    };
    match crate::commands::init::run(&opts) {
        Ok(text) => printed(&log_text(&text), 0),
        Err(err) => failed(&err),
    }
}

fn comment(args: &CommentArgs) -> ExitCode {
    let opts = CommentOptions {
        leg: args.leg.clone(),
        code: args.code,
        markdown: args.markdown.clone(),
        comments: args.comments.clone(),
        author: args.author.clone(),
        body_out: args.body_out.clone(),
        writer: args.writer.clone(),
    };
    match crate::comment::run(&opts) {
        Ok(action) => printed(&format!("{action}\n"), 0),
        Err(err) => failed(&err),
    }
}

fn roster(args: &RosterArgs) -> ExitCode {
    let opts = CheckOptions {
        policy: args.policy.clone(),
        root: args.root.clone(),
        cwd: std::env::current_dir().unwrap_or_default(),
        platform: PlatformOptions {
            target: args.target.clone(),
            cfgs: args.cfg.clone(),
            features: args.features.clone(),
        },
        remaps: args.remap_path_prefix.clone(),
        path_case: args.path_case.into(),
        ..CheckOptions::default()
    };
    let mode = match args.args {
        Some(run) => Mode::Args(run.into(), args.runner.into()),
        None => Mode::Verify(
            (!args.suite_report.is_empty())
                .then(|| (args.suite_report.clone(), args.report.clone())),
        ),
    };
    match command::run(&opts, &mode) {
        Ok(result) => {
            let code = printed(&log_text(&result.stdout), result.code);
            output::eprint(&log_text(&result.stderr));
            code
        }
        Err(err) => failed(&err),
    }
}

fn check(args: &CheckArgs) -> ExitCode {
    if let Some(message) = args.usage_error() {
        output::eprint(&format!("covgate: error: {}\n", log_line(&message)));
        return ExitCode::from(2);
    }
    let opts = CheckOptions {
        reports: args.reports.clone(),
        policy: args.policy.clone(),
        root: args.root.clone(),
        remaps: args.remap_path_prefix.clone(),
        walk: !args.no_walk,
        path_case: args.path_case.into(),
        cwd: std::env::current_dir().unwrap_or_default(),
        platform: PlatformOptions {
            target: args.target.clone(),
            cfgs: args.cfg.clone(),
            features: args.features.clone(),
        },
        tighten: false,
        files: args.file.clone(),
    };
    if args.tighten {
        match crate::commands::tighten::run(&opts) {
            Ok(edits) => edits
                .iter()
                .for_each(|edit| output::eprint(&format!("covgate: {}\n", log_line(edit)))),
            Err(err) => return failed(&err),
        }
    }
    // With --file: every row and every uncovered item of the files asked for.
    let focused = !args.file.is_empty();
    match check::run(&opts) {
        Ok(outcome) => {
            for warning in &outcome.facts.warnings {
                output::eprint(&format!("covgate: warning: {}\n", log_line(warning)));
            }
            let outputs = OutputOptions {
                format: args.format.into(),
                table: TableOptions {
                    show: match args.show {
                        _ if focused => Show::All,
                        ShowArg::Failing => Show::Failing,
                        ShowArg::All => Show::All,
                    },
                    items: match focused {
                        true => usize::MAX,
                        false => usize::try_from(args.items).unwrap_or(usize::MAX),
                    },
                    color: output::color_wanted(
                        std::io::stdout().is_terminal(),
                        std::env::var_os("NO_COLOR").as_deref(),
                    ),
                    width: crate::render::table::table_width(
                        std::env::var("COLUMNS").ok().as_deref(),
                        comfy_table::Table::new().width(),
                    ),
                },
                output_json: args.output_json.clone(),
                output_markdown: args.output_markdown.clone(),
                summary_file: args.summary_file.clone().or_else(|| {
                    // Set but empty (outside a job step) is as good as unset.
                    std::env::var_os("GITHUB_STEP_SUMMARY")
                        .filter(|v| !v.is_empty())
                        .map(Into::into)
                }),
                link_base: args.link_base.clone(),
                link_repository: args.link_repository.clone(),
                annotation_prefix: args.annotation_prefix.clone(),
                workspace: std::env::var("GITHUB_WORKSPACE").ok(),
            };
            if let Err(err) = output::emit(&outcome, &outputs, &mut std::io::stdout()) {
                return failed(&err);
            }
            let passed = outcome.verdict.passed();
            // The process ends here: freeing every uncovered item first would only delay it.
            std::mem::forget(outcome);
            ExitCode::from(if passed { 0 } else { 1 })
        }
        Err(err) => failed(&err),
    }
}

/// The command line of `cargo covgate ARGS`: cargo runs `cargo-covgate covgate ARGS`, so the
/// `covgate` after the program name is dropped (a command line without it is kept as it is).
pub fn from_cargo(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut args: Vec<OsString> = args.into_iter().collect();
    if args.get(1).is_some_and(|a| a == "covgate") {
        args.remove(1);
    }
    args
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn cargo_adds_the_subcommand_name() {
        assert_eq!(
            from_cargo(strings(&["cargo-covgate", "covgate", "check", "a.json"])),
            strings(&["cargo-covgate", "check", "a.json"])
        );
        assert_eq!(
            from_cargo(strings(&["cargo-covgate", "check", "covgate"])),
            strings(&["cargo-covgate", "check", "covgate"])
        );
        assert_eq!(from_cargo(strings(&["x"])), strings(&["x"]));
    }
}
