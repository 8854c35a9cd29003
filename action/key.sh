#!/usr/bin/env bash
# covgate's GitHub Action, step 1: a cache key for covgate's build, from its sources
# (Cargo.toml, Cargo.lock, build.rs, src/), and the folder it is installed in.
# In: COVGATE_SOURCE (the action's checkout), RUNNER_OS, RUNNER_TOOL_CACHE or HOME, GITHUB_OUTPUT.
set -euo pipefail
cd "$COVGATE_SOURCE"
digest() { if command -v sha256sum >/dev/null 2>&1; then sha256sum; else shasum -a 256; fi; }
sum=$(find Cargo.toml Cargo.lock build.rs src -type f | LC_ALL=C sort | xargs cat | digest | cut -c1-32)
dir="${RUNNER_TOOL_CACHE:-$HOME/.cache}/covgate/$sum"
{
    echo "key=covgate-${RUNNER_OS:-unknown}-$sum"
    echo "dir=$dir"
} >>"$GITHUB_OUTPUT"
