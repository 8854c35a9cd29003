#!/usr/bin/env bash
# covgate gates itself: runs the whole test suite under branch instrumentation (nightly), writes
# the llvm-cov JSON export, and checks it with the freshly built covgate against the repository's
# coverage-policy.toml (every file of src/ at 100% on regions, branches, functions and lines).
#
# Usage: ci/self-coverage.sh            (from anywhere in the repository)
# Exit code: covgate's (0 pass, 1 a file below 100%, 2 error); set -e stops earlier on a failed step.
set -euo pipefail
cd "$(dirname "$0")/.."

export_path=target/self-coverage.json

# A clean profile and build folder, so stale profiles cannot help. The folder is removed whole:
# `cargo llvm-cov clean` leaves test binaries of an older cargo build layout in place, and those
# (with their uncovered copies of every function) would be counted too.
rm -rf target/llvm-cov-target
cargo +nightly llvm-cov clean --workspace
cargo +nightly llvm-cov --branch --json --output-path "$export_path"

cargo build --quiet
verdict=$(mktemp)
set +e
target/debug/covgate check "$export_path" --policy coverage-policy.toml --show all | tee "$verdict"
status=${PIPESTATUS[0]}
set -e

# Inline ignores are allowed sparingly: at most 20 ignored lines in covgate's own sources.
ignored=$(sed -n 's/^ignored by inline markers: \([0-9]*\) line.*/\1/p' "$verdict")
echo "self-coverage: ${ignored:-?} line(s) ignored by inline markers (limit 20)"
if [ -z "$ignored" ] || [ "$ignored" -gt 20 ]; then
    echo "self-coverage: more than 20 ignored lines (or no count printed)" >&2
    exit 1
fi
exit "$status"
