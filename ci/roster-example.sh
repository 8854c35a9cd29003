#!/usr/bin/env bash
# The exempt-suite roster in CI: one policy, two runs. The roster's `[[suite]]` entries name the
# heavy suites; covgate derives the arguments of both runs from it, so the instrumented run and
# the plain run always split the workspace's test suites the same way the policy says.
#
#   1. covgate roster --verify      the roster is exact (filter and glob agree, no overlap)
#   2. instrumented run             every suite but the roster's, under cargo-llvm-cov
#   3. plain run                    the roster's suites, uninstrumented
#   4. covgate check                the export of the instrumented run against the policy
#   5. (optional) admission         ADMIT=1: the roster suites once instrumented on their own;
#                                   every measured file they execute must be at 100% in step 2
#
# Needs cargo-llvm-cov and cargo-nextest (cargo install --locked cargo-llvm-cov cargo-nextest)
# and covgate on PATH. Set RUNNER=cargo to use `cargo test` instead of nextest. Pass the leg's
# platform to every covgate call with COVGATE_PLATFORM (e.g. "--features extra").
#
# Usage: ci/roster-example.sh            (from the root of the crate or workspace)
set -euo pipefail

runner=${RUNNER:-nextest}
# shellcheck disable=SC2206  # word splitting is wanted: these are arguments
platform=(${COVGATE_PLATFORM:-})

covgate roster --verify "${platform[@]}"

# The arguments are assigned first, so that a roster that does not verify stops the script
# (set -e) instead of turning into an empty argument list. Every printed word is free of spaces
# and glob characters, so the unquoted expansions below split back into the same words.
instrumented=$(covgate roster --args instrumented --runner "$runner" "${platform[@]}")
plain=$(covgate roster --args plain --runner "$runner" "${platform[@]}")
echo "instrumented run: $instrumented"
echo "plain run:        $plain"

if [ "$runner" = nextest ]; then
    # shellcheck disable=SC2086
    cargo llvm-cov nextest --json --output-path target/coverage.json $instrumented
    # shellcheck disable=SC2086
    cargo nextest run $plain
else
    # shellcheck disable=SC2086
    cargo llvm-cov --json --output-path target/coverage.json $instrumented
    # shellcheck disable=SC2086
    cargo test $plain
fi

covgate check target/coverage.json "${platform[@]}"

if [ "${ADMIT:-0}" = 1 ]; then
    # Admission: the roster suites, instrumented once on their own (slow: run it when a suite
    # joins the roster, or on a schedule).
    if [ "$runner" = nextest ]; then
        # shellcheck disable=SC2086
        cargo llvm-cov nextest --json --output-path target/suites.json $plain
    else
        # shellcheck disable=SC2086
        cargo llvm-cov --json --output-path target/suites.json $plain
    fi
    covgate roster --verify --suite-report target/suites.json --report target/coverage.json "${platform[@]}"
fi
