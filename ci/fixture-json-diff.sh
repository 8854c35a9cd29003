#!/usr/bin/env bash
# Behaviour check for refactors: runs `covgate check --format json` over every coverage input in
# tests/fixtures with two binaries (BASE and NEW) and diffs the outputs byte for byte.
# Usage: ci/fixture-json-diff.sh BASE_BINARY NEW_BINARY
# Each input is judged twice: alone (`--no-walk`, every file in scope), and, for a case with a
# source tree (crate/, ws/, project/), against that tree with its report prefix remapped, so the
# walk and the inline markers run too. Exit 0 when every output (and exit code) is identical.
set -uo pipefail
base=$1 new=$2
cd "$(dirname "$0")/.."
fx=tests/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '[measure]\ninclude = ["**"]\nmetrics = ["regions", "branches", "functions", "lines"]\n' >"$tmp/all.toml"
runs=0 diffs=0
judge() { # name, args...
    local name=$1
    shift
    "$base" check "$@" --format json >"$tmp/a.out" 2>"$tmp/a.err"
    echo "exit $?" >>"$tmp/a.out"
    "$new" check "$@" --format json >"$tmp/b.out" 2>"$tmp/b.err"
    echo "exit $?" >>"$tmp/b.out"
    runs=$((runs + 1))
    if ! cmp -s "$tmp/a.out" "$tmp/b.out" || ! cmp -s "$tmp/a.err" "$tmp/b.err"; then
        diffs=$((diffs + 1))
        echo "DIFF: $name"
        diff "$tmp/a.out" "$tmp/b.out" | head -20
        diff "$tmp/a.err" "$tmp/b.err" | head -5
    fi
}
while IFS= read -r input; do
    judge "$input (alone)" "$input" --policy "$tmp/all.toml" --root "$tmp" --no-walk
    dir=$(dirname "$input")
    for tree in crate ws project; do
        [ -d "$dir/$tree" ] || continue
        prefix=$(grep -ao '/ws/[A-Za-z0-9_.-]*' "$input" | head -1)
        policy="$tmp/all.toml"
        [ -f "$dir/coverage-policy.toml" ] && policy="$dir/coverage-policy.toml"
        [ -f "$dir/$tree/coverage-policy.toml" ] && policy="$dir/$tree/coverage-policy.toml"
        if [ -n "$prefix" ]; then
            judge "$input (tree $tree)" "$input" --policy "$policy" --root "$dir/$tree" \
                --remap-path-prefix "$prefix=$PWD/$dir/$tree"
        else
            judge "$input (tree $tree)" "$input" --policy "$policy" --root "$dir/$tree"
        fi
    done
done < <(find "$fx" -type f \( -name '*.json' -o -name '*.info' -o -name '*.lcov' -o -name '*.dat' \) | sort)
for policy in "$fx"/readme/*.toml; do
    judge "tricky_stable.json ($policy)" "$fx/llvm/tricky_stable.json" --policy "$policy" --root "$fx/readme" --no-walk
done
echo "fixture JSON diff: $runs runs, $diffs differing"
[ "$diffs" -eq 0 ]
