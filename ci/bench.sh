#!/usr/bin/env bash
# Times `covgate check` on large generated reports (issue #8's performance targets): an llvm-cov
# JSON export of ≈ 1 GB (7000 renamed copies of tests/fixtures/real/walkdir.branch.json) and an
# LCOV tracefile of ≈ 100 MB (2678 copies of tests/fixtures/real/semver.lcov), each with a source
# tree and a policy under target/bench/ so the whole check runs with every file in scope
# (examples/gen_export.rs, examples/gen_lcov.rs). Inputs are generated once and kept (a stamp
# file records the copy count); the release build is made first.
#
# Usage: ci/bench.sh                      (from anywhere in the repository)
#   CASES="lcov json json100 mixed"   which cases to run (default all four; `lcov` alone skips
#                       the 1 GB exports). `json` is the export as it is (21,000 of the 28,000
#                       files below 100%, their uncovered items listed); `json100` the same written
#                       with `--covered` (every file at 100%, as in a project held to the gate);
#                       `mixed` the covered export with every 100th copy as it is (0.75% of the
#                       files fail: a project with a few files below the gate).
#   JSON_COPIES=7000 LCOV_COPIES=2678     input sizes
#   RUNS=3              hyperfine runs per case, when hyperfine is installed
# Prints one line per case: input size, wall time and peak RSS of one `covgate check` run
# (/usr/bin/time), its exit code (0 pass, 1 below threshold: both fine; 2 is an error), then
# hyperfine's statistics when available.
set -euo pipefail
cd "$(dirname "$0")/.."

cases=${CASES:-lcov json json100 mixed}
json_copies=${JSON_COPIES:-7000}
lcov_copies=${LCOV_COPIES:-2678}
runs=${RUNS:-3}

cargo build --release --quiet --bin covgate --example gen_export --example gen_lcov
bin=$PWD/target/release/covgate
examples=$PWD/target/release/examples

# generate NAME COPIES COMMAND...: runs COMMAND unless target/bench/NAME holds inputs of COPIES.
generate() {
    local name=$1 copies=$2
    shift 2
    local dir=target/bench/$name
    if [ "$(cat "$dir/.copies" 2>/dev/null)" != "$copies" ]; then
        echo "bench: generating $dir ($copies copies)" >&2
        rm -rf "$dir"
        mkdir -p "$dir"
        "$@"
        echo "$copies" >"$dir/.copies"
    fi
}

declare -A report
for case in $cases; do
    case $case in
    lcov)
        generate lcov "$lcov_copies" "$examples/gen_lcov" tests/fixtures/real/semver.lcov \
            target/bench/lcov/big.lcov --copies "$lcov_copies" --sources target/bench/lcov
        report[lcov]=big.lcov
        ;;
    json)
        generate json "$json_copies" "$examples/gen_export" tests/fixtures/real/walkdir.branch.json \
            target/bench/json/big.json --copies "$json_copies" --sources target/bench/json
        report[json]=big.json
        ;;
    json100)
        generate json100 "$json_copies" "$examples/gen_export" \
            tests/fixtures/real/walkdir.branch.json target/bench/json100/big.json \
            --copies "$json_copies" --sources target/bench/json100 --covered
        report[json100]=big.json
        ;;
    mixed)
        generate mixed "$json_copies" "$examples/gen_export" \
            tests/fixtures/real/walkdir.branch.json target/bench/mixed/big.json \
            --copies "$json_copies" --sources target/bench/mixed --covered --failing-every 100
        report[mixed]=big.json
        ;;
    *)
        echo "bench: unknown case $case (lcov, json, json100, mixed)" >&2
        exit 2
        ;;
    esac
done

rows=()
for case in $cases; do
    dir=target/bench/$case
    file=${report[$case]}
    size=$(du -m "$dir/$file" | cut -f1)
    timing=$(mktemp)
    status=0
    (cd "$dir" && /usr/bin/time -f '%e s, %M KB' -o "$timing" "$bin" check "$file" >/dev/null 2>&1) || status=$?
    rows+=("$(printf '%-7s %8s MB   %-24s exit %s' "$case" "$size" "$(tail -1 "$timing")" "$status")")
    rm -f "$timing"
    if [ "$status" -gt 1 ]; then
        echo "bench: covgate check $dir/$file failed with exit $status:" >&2
        (cd "$dir" && "$bin" check "$file" 2>&1 >/dev/null | tail -5) >&2 || true
    fi
done

echo
printf '%-7s %11s   %-24s %s\n' case input 'wall, peak RSS' 'covgate check'
printf '%s\n' "${rows[@]}"

if command -v hyperfine >/dev/null; then
    for case in $cases; do
        (cd "target/bench/$case" && hyperfine --runs "$runs" -i "$bin check ${report[$case]}")
    done
else
    echo "(hyperfine not installed: one run per case)"
fi
