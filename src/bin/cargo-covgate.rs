//! The `cargo-covgate` binary, so that `cargo covgate check …` works as `covgate check …` does:
//! cargo runs it as `cargo-covgate covgate check …`, and [`covgate::app::from_cargo`] drops the
//! `covgate` it adds.

use std::process::ExitCode;

/// mimalloc, as in the `covgate` binary (README "Performance").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    covgate::app::main(covgate::app::from_cargo(std::env::args_os()))
}
