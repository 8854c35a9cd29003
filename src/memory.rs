//! The check's phases of memory use, told to the binary's allocator.
//!
//! The `covgate` binary's allocator (mimalloc) gives freed memory back to the system 10 ms
//! after it is freed, which keeps short-lived buffers at hand: given back at once, they are
//! taken again page by page (a failing gigabyte export: 0.41 → 0.80 s of system time, the same
//! peak). But while the check judges, it frees the report files as their batches are judged,
//! on other threads than those that read them, and with the delay that memory was not given
//! back before the check ended (a gigabyte tracefile of 189,000 files: 127 → 94 MB peak RSS
//! given back at once; the naming and scoping before the judging free memory too). So the
//! binary sets a hook ([`set_give_back`]) that `covgate check` calls once the reports are read
//! and once they are judged ([`give_back_at_once`]), to give freed memory back at once from
//! the one to the other and keep the delay otherwise; it asks for it only when a report is a
//! tracefile (an llvm-cov export peaks while it is read, and giving its records' pages back at
//! once as they are judged cost about 50 ms of a failing gigabyte's 2.5 s, the peak the same). The library allocates through whatever allocator the
//! program has, and sets nothing itself.

use std::sync::OnceLock;

/// The hook [`give_back_at_once`] calls.
static GIVE_BACK: OnceLock<fn(bool)> = OnceLock::new();

/// Sets the function that [`give_back_at_once`] calls, once a process (a second call changes
/// nothing): `hook(true)` once the reports are read and the root walked (give freed memory back
/// at once), `hook(false)` once the files are judged. It runs on the check's main thread while
/// the check's other threads are done or idle.
pub fn set_give_back(hook: fn(bool)) {
    let _ = GIVE_BACK.set(hook);
}

/// Calls the hook of [`set_give_back`] with `on`, when one is set.
pub(crate) fn give_back_at_once(on: bool) {
    GIVE_BACK.get().into_iter().for_each(|hook| hook(on));
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    static CALLS: AtomicUsize = AtomicUsize::new(0);

    /// Counts 1 for on, 10 for off.
    fn count(on: bool) {
        CALLS.fetch_add(if on { 1 } else { 10 }, Ordering::SeqCst);
    }

    fn other(_: bool) {
        CALLS.fetch_add(100, Ordering::SeqCst);
    }

    #[test]
    fn the_hook_set_first_is_told_when_to_give_memory_back_at_once() {
        super::set_give_back(count);
        super::set_give_back(other);
        let before = CALLS.load(Ordering::SeqCst);
        super::give_back_at_once(true);
        super::give_back_at_once(false);
        assert_eq!(CALLS.load(Ordering::SeqCst) - before, 11);
    }
}
