//! The `cargo-covgate` binary, so that `cargo covgate check …` works as `covgate check …` does:
//! cargo runs it as `cargo-covgate covgate check …`, and [`covgate::app::from_cargo`] drops the
//! `covgate` it adds.

use std::process::ExitCode;

/// The allocator and the rest of the process's set-up, as in the `covgate` binary.
#[path = "process/mod.rs"]
mod process;

fn main() -> ExitCode {
    process::start();
    covgate::app::main(covgate::app::from_cargo(std::env::args_os()))
}
