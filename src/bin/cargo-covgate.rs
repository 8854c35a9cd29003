//! The `cargo-covgate` binary, so that `cargo covgate check …` works as `covgate check …` does:
//! cargo runs it as `cargo-covgate covgate check …`, and [`covgate::app::from_cargo`] drops the
//! `covgate` it adds.

use std::ffi::{c_int, c_long};
use std::process::ExitCode;

/// mimalloc, as in the `covgate` binary (README "Performance").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

extern "C" {
    /// mimalloc's `mi_option_set` (libmimalloc-sys, linked for [`ALLOCATOR`]).
    fn mi_option_set(option: c_int, value: c_long);
}

/// `mi_option_purge_delay` in mimalloc v2's `mi_option_e`.
const MI_OPTION_PURGE_DELAY: c_int = 15;
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
    // Freed memory is given back at once, as in the `covgate` binary (see src/main.rs).
    // SAFETY: sets one integer option of the allocator linked above; any value is valid.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    covgate::app::main(covgate::app::from_cargo(std::env::args_os()))
}
