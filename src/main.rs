//! The `covgate` binary: parses arguments, runs the library, prints, and sets the exit code
//! (0 every measured file passes, 1 the policy fails, 2 usage, policy or input error;
//! `covgate roster`: 0 verified, 1 not, 2 error).

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;
use covgate::check::{self, CheckOptions};
use covgate::cli::{CheckArgs, Cli, Command, RosterArgs, ShowArg};
use covgate::output::{self, OutputOptions};
use covgate::platform::PlatformOptions;
use covgate::render::table::TableOptions;
use covgate::render::{error_text, log_line, log_text, Show};
use covgate::roster::command::{self, Mode};

/// mimalloc: a reader of a large export allocates and frees millions of small records, where it
/// is measurably faster than the system allocator (README "Performance").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check(args) => check(&args),
        Command::Roster(args) => roster(&args),
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
        ..CheckOptions::default()
    };
    let mode = match args.args {
        Some(run) => Mode::Args(run, args.runner),
        None => Mode::Verify(
            (!args.suite_report.is_empty())
                .then(|| (args.suite_report.clone(), args.report.clone())),
        ),
    };
    match command::run(&opts, &mode) {
        Ok(printed) => {
            print!("{}", log_text(&printed.stdout));
            eprint!("{}", log_text(&printed.stderr));
            ExitCode::from(printed.code)
        }
        Err(err) => {
            eprintln!("covgate: error: {}", error_text(&err));
            ExitCode::from(2)
        }
    }
}

fn check(args: &CheckArgs) -> ExitCode {
    if let Some(message) = args.usage_error() {
        eprintln!("covgate: error: {}", log_line(&message));
        return ExitCode::from(2);
    }
    let opts = CheckOptions {
        reports: args.reports.clone(),
        policy: args.policy.clone(),
        root: args.root.clone(),
        remaps: args.remap_path_prefix.clone(),
        walk: !args.no_walk,
        cwd: std::env::current_dir().unwrap_or_default(),
        platform: PlatformOptions {
            target: args.target.clone(),
            cfgs: args.cfg.clone(),
            features: args.features.clone(),
        },
    };
    match check::run(&opts) {
        Ok(outcome) => {
            for warning in &outcome.facts.warnings {
                eprintln!("covgate: warning: {}", log_line(warning));
            }
            let outputs = OutputOptions {
                format: args.format,
                table: TableOptions {
                    show: match args.show {
                        ShowArg::Failing => Show::Failing,
                        ShowArg::All => Show::All,
                    },
                    items: usize::try_from(args.items).unwrap_or(usize::MAX),
                    color: output::color_wanted(
                        std::io::stdout().is_terminal(),
                        std::env::var_os("NO_COLOR").as_deref(),
                    ),
                    width: 100,
                },
                output_json: args.output_json.clone(),
                output_markdown: args.output_markdown.clone(),
                summary_file: args
                    .summary_file
                    .clone()
                    .or_else(|| std::env::var_os("GITHUB_STEP_SUMMARY").map(Into::into)),
            };
            if let Err(err) = output::emit(&outcome, &outputs, &mut std::io::stdout()) {
                eprintln!("covgate: error: {}", error_text(&err));
                return ExitCode::from(2);
            }
            let passed = outcome.verdict.passed();
            // The process ends here: freeing every uncovered item first would only delay it.
            std::mem::forget(outcome);
            ExitCode::from(if passed { 0 } else { 1 })
        }
        Err(err) => {
            eprintln!("covgate: error: {}", error_text(&err));
            ExitCode::from(2)
        }
    }
}
