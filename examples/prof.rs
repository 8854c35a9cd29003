//! `covgate` on the system allocator, for heap profilers that follow `malloc` (the binary's
//! mimalloc takes its memory in large segments that they cannot see into):
//!
//! ```text
//! cargo build --release --example prof
//! valgrind --tool=massif target/release/examples/prof check big.json --no-walk --format json
//! ms_print massif.out.<pid>
//! ```

fn main() -> std::process::ExitCode {
    covgate::app::main(std::env::args_os())
}
