//! `covgate roster`: verifies the roster (and, given both exports, the admission of its
//! suites), or prints the arguments of one of the two runs.
//!
//! Exit codes: `--verify` gives 0 when the roster verifies (and every admitted file is at
//! 100%), 1 when it does not, listing what does not hold; `--args` gives 0 with the arguments
//! on one line, or 1 with the roster's problems on stderr and nothing on stdout. Policy, cargo
//! and input errors give 2 (the caller prints the [`Error`](crate::error::Error)).

use super::check::{self, CheckOptions, Setup};
use crate::error::{Error, Result};
use crate::roster::admit::admit;
use crate::roster::args::{self, Run, Runner};
use crate::roster::Roster;

/// What `covgate roster` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `--verify`, with the suites' and the main run's exports for the admission check.
    Verify(Option<(Vec<String>, Vec<String>)>),
    /// `--args RUN --runner RUNNER`.
    Args(Run, Runner),
}

/// What to print, and the exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Printed {
    /// For standard output.
    pub stdout: String,
    /// For standard error.
    pub stderr: String,
    /// The exit code (0 or 1).
    pub code: u8,
}

/// Runs `covgate roster`. `opts` gives the policy, root, cwd and platform (its reports and
/// `walk` are not read).
///
/// Errors (exit 2): a bad policy, cargo metadata failing, an unreadable export, arguments that
/// cannot be derived (see [`args::derive`]).
pub(crate) fn run(opts: &CheckOptions, mode: &Mode) -> Result<Printed> {
    let setup = Setup::load(opts)?;
    let roster = setup.roster()?;
    match mode {
        Mode::Verify(admission) => verify(&setup, opts, &roster, admission.as_ref()),
        Mode::Args(_, _) if !roster.verified() => Ok(Printed {
            stdout: String::new(),
            stderr: format!(
                "{}covgate: the roster does not verify, so no arguments are printed (see covgate roster --verify)\n",
                roster.report()
            ),
            code: 1,
        }),
        Mode::Args(run, runner) => {
            let words = args::derive(&roster, *run, *runner).map_err(Error::new)?;
            Ok(Printed {
                stdout: format!("{}\n", words.join(" ")),
                stderr: String::new(),
                code: 0,
            })
        }
    }
}

fn verify(
    setup: &Setup,
    opts: &CheckOptions,
    roster: &Roster,
    admission: Option<&(Vec<String>, Vec<String>)>,
) -> Result<Printed> {
    let mut out = if roster.entries.is_empty() {
        format!(
            "no [[suite]] in {}: the roster is empty\n",
            setup.policy.file.display()
        )
    } else {
        roster.report()
    };
    let mut ok = roster.verified();
    if let Some((suite, main)) = admission {
        let main_opts = CheckOptions {
            reports: main.clone(),
            walk: true,
            ..opts.clone()
        };
        let outcome = check::check_verified(setup, &main_opts, roster.verified())?;
        let executed = check::executed(setup, opts, suite)?;
        let (suite, main) = (suite.join(", "), main.join(", "));
        let result = admit(&executed, &outcome.verdict);
        if result.below.is_empty() {
            out.push_str(&format!(
                "admission: the roster suites executed {} measured file(s) ({suite}); each is at 100% in {main}\n",
                result.checked
            ));
        } else {
            ok = false;
            out.push_str(&format!(
                "admission: the roster suites executed {} measured file(s) ({suite}); these are below 100% in {main}:\n",
                result.checked
            ));
            for line in &result.below {
                out.push_str(&format!("  {line}\n"));
            }
        }
    }
    Ok(Printed {
        stdout: out,
        stderr: String::new(),
        code: if ok { 0 } else { 1 },
    })
}
