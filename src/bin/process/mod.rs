//! What both binaries (`covgate`, `cargo-covgate`) set up for the process before
//! [`covgate::app`] runs: the allocator, the look at stdout, and when the allocator gives
//! freed memory back.

use std::ffi::{c_int, c_long};

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

/// mimalloc v2's default `mi_option_purge_delay`, in milliseconds.
const MI_DEFAULT_PURGE_DELAY: c_long = 10;

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

/// Sets mimalloc's purge delay: 0 when `at_once` (freed memory is given back at once), else
/// mimalloc's default of 10 ms. Called by [`covgate::memory`]: at once from the end of the
/// reading to the end of the judging, when a report is a tracefile.
fn give_back(at_once: bool) {
    let delay = if at_once { 0 } else { MI_DEFAULT_PURGE_DELAY };
    // SAFETY: sets one integer option (an aligned word) of the allocator linked above; any
    // value is valid, and the check's other threads are done or idle when it is set.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, delay) };
}

/// Sets the process up, first thing in `main`. Freed memory is given back at once from the
/// end of the reading of a tracefile to the end of the judging, rather than after 10 ms: the check frees the
/// report files as it judges them, mostly on other threads than those that read them, and
/// with the delay that memory was not given back before the check ended (1 GB tracefile: 127
/// → 94 MB peak RSS); otherwise the delay keeps short-lived buffers at hand (failing 1 GB
/// export: 0.8 → 0.6 s of system time). See `covgate::memory` and docs/performance.md.
pub fn start() {
    covgate::memory::set_give_back(give_back);
}
