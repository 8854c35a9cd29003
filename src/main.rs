//! The `covgate` binary: runs [`covgate::app`] on the command line (exit codes: 0 every measured
//! file passes, 1 the policy fails, 2 usage, policy or input error; `covgate roster`: 0
//! verified, 1 not, 2 error).

use std::ffi::{c_int, c_long};
use std::process::ExitCode;

/// mimalloc: a reader of a large export allocates and frees millions of small records, where it
/// is measurably faster than the system allocator (README "Performance").
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
    // Freed memory is given back at once rather than after 10 ms: a check frees the report
    // files as it judges them, mostly on other threads than those that read them, and with the
    // delay that memory was not given back before the check ended (1 GB tracefile: 130 → 104
    // MB peak RSS, the same CPU time; docs/performance.md).
    // SAFETY: sets one integer option of the allocator linked above; any value is valid.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    covgate::app::main(std::env::args_os())
}
