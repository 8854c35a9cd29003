//! The `covgate` binary: parses arguments, runs the library, prints, and sets the exit code
//! (0 every measured file passes, 1 the policy fails, 2 usage, policy or input error).

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use covgate::check::{self, CheckOptions};
use covgate::cli::{CheckArgs, Cli, Command, Format, ShowArg};
use covgate::platform::PlatformOptions;
use covgate::render::{self, Show};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check(args) => check(&args),
    }
}

fn check(args: &CheckArgs) -> ExitCode {
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
            for warning in &outcome.warnings {
                eprintln!("covgate: warning: {warning}");
            }
            let show = match args.show {
                ShowArg::Failing => Show::Failing,
                ShowArg::All => Show::All,
            };
            let text = match args.format {
                Format::Table => render::table::render(
                    &outcome.facts,
                    &outcome.verdict,
                    &outcome.metrics,
                    show,
                    args.items,
                ),
                Format::Json => render::json::render(&outcome.facts, &outcome.verdict),
            };
            if let Err(err) = std::io::stdout().write_all(text.as_bytes()) {
                eprintln!("covgate: error: cannot write the result to stdout: {err}");
                return ExitCode::from(2);
            }
            ExitCode::from(if outcome.verdict.passed() { 0 } else { 1 })
        }
        Err(err) => {
            eprintln!("covgate: error: {err}");
            ExitCode::from(2)
        }
    }
}
