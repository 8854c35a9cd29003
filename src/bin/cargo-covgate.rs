//! The `cargo-covgate` binary, so that `cargo covgate check …` works as `covgate check …` does:
//! cargo runs it as `cargo-covgate covgate check …`, and [`covgate::app::from_cargo`] drops the
//! `covgate` it adds.

use std::process::ExitCode;

/// mimalloc, as in the `covgate` binary (README "Performance").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Looks at stdout before `main` ([`covgate::output::look_at_stdout`]): Rust's runtime opens
/// `/dev/null` on a closed standard descriptor before `main` runs, so a closed stdout (`>&-`)
/// is only seen from the program's initialisers, which run first.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static LOOK_AT_STDOUT: extern "C" fn() = {
    extern "C" fn look() {
        covgate::output::look_at_stdout();
    }
    look
};

fn main() -> ExitCode {
    covgate::app::main(covgate::app::from_cargo(std::env::args_os()))
}
