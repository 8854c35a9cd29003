//! The `covgate` binary: runs [`covgate::app`] on the command line (exit codes: 0 every measured
//! file passes, 1 the policy fails, 2 usage, policy or input error; `covgate roster`: 0
//! verified, 1 not, 2 error).

use std::process::ExitCode;

/// mimalloc: a reader of a large export allocates and frees millions of small records, where it
/// is measurably faster than the system allocator (README "Performance").
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
    covgate::app::main(std::env::args_os())
}
