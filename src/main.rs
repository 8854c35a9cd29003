//! The `covgate` binary: runs [`covgate::app`] on the command line (exit codes: 0 every measured
//! file passes, 1 the policy fails, 2 usage, policy or input error; `covgate roster`: 0
//! verified, 1 not, 2 error).

use std::process::ExitCode;

/// The allocator and the rest of the process's set-up, shared with `cargo-covgate`.
#[path = "bin/process/mod.rs"]
mod process;

fn main() -> ExitCode {
    process::start();
    covgate::app::main(std::env::args_os())
}
