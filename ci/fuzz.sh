#!/usr/bin/env bash
# Fuzzes covgate's readers with cargo-fuzz (libFuzzer): each target runs for SECONDS (default 60)
# from the corpus in fuzz/corpus/<target>/ (seeded from tests/fixtures by fuzz/seed.sh, grown by
# every run). Fails when any target finds a crash (a panic, an input running 30 s, or memory
# over 2 GB); the input that did it is in fuzz/artifacts/<target>/. An input slower than 2 s is
# reported and saved there as slow-unit-*, without failing: libFuzzer's clock is wall-clock time,
# and on a shared VM a process can stall for 10 s (seen on ordinary 1 ms inputs; fuzz/RESULTS.md).
#
# Usage: ci/fuzz.sh [SECONDS] [TARGET]...      (targets: llvm_json lcov policy ignore_scan channels)
#   ci/fuzz.sh 15          # the short run: 15 s per target, about a minute in all
#   ci/fuzz.sh 3600 lcov   # one target for an hour
# Environment: FUZZ_ARGS adds libFuzzer flags (e.g. FUZZ_ARGS=-fork=4 for four processes).
#
# Targets are built with overflow checks and debug assertions (-a) and without a sanitizer
# (-s none): covgate has no unsafe code, and the speed buys more executions. Needs nightly.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    targets=(llvm_json lcov policy ignore_scan channels)
fi

# Largest input per target: big enough for a few records of each kind, small enough to run fast.
max_len() {
    case "$1" in
        llvm_json | ignore_scan) echo 8192 ;;
        channels) echo 1024 ;;
        *) echo 4096 ;;
    esac
}

if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install --locked cargo-fuzz
fi
fuzz/seed.sh >/dev/null
cargo +nightly fuzz build -a -s none
# cargo-fuzz has no --locked: a build after a change to covgate's dependencies rewrites the lock.
if ! git diff --quiet -- fuzz/Cargo.lock 2>/dev/null; then
    echo "ci/fuzz.sh: the build updated fuzz/Cargo.lock; commit the update" >&2
fi

failed=()
summary=()
for target in "${targets[@]}"; do
    echo "== fuzz $target for ${seconds}s"
    log=$(mktemp)
    status=0
    # shellcheck disable=SC2086 # FUZZ_ARGS is a list of flags
    cargo +nightly fuzz run -a -s none "$target" -- \
        -max_total_time="$seconds" -max_len="$(max_len "$target")" -timeout=30 \
        -report_slow_units=2 -rss_limit_mb=2048 -print_final_stats=1 ${FUZZ_ARGS:-} >"$log" 2>&1 || status=$?
    grep -E '^Done [0-9]+ runs|ERROR|panicked|SUMMARY|Test unit written|Slowest unit' "$log" || true
    runs=$(awk '/stat::number_of_executed_units/ { n += $2 } END { print n + 0 }' "$log")
    slowest=$(awk '/stat::slowest_unit_time_sec/ { if ($2 > s) s = $2 } END { print s + 0 }' "$log")
    if [ "$status" -ne 0 ]; then
        tail -n 40 "$log"
        failed+=("$target")
        summary+=("$target: CRASH (exit $status) after $runs executions; input in fuzz/artifacts/$target/")
    else
        summary+=("$target: $runs executions in ${seconds}s, no crash, slowest input ${slowest}s")
    fi
    rm -f "$log"
done

echo "== fuzz summary"
printf '%s\n' "${summary[@]}"
if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz: crashes in ${failed[*]}" >&2
    exit 1
fi
