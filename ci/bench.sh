#!/usr/bin/env bash
# Times `covgate check` on generated reports of 10 MB, 100 MB and 1 GB in both formats, beside
# an anchor that only parses the same JSON (examples/anchor.rs: std::fs::read +
# serde_json::from_slice::<IgnoredAny>, one core), and prints wall time, CPU time and peak RSS
# (medians of RUNS runs, /usr/bin/time) with the JSON cases' ratios to the anchor.
#
# Inputs (target/bench/<case>-<MB>/, generated once; a stamp records the copy count):
#   json      a real export replicated under renamed paths with its real coverage
#             (examples/gen_export.rs; tests/fixtures/real/semver.json, 221 kB a copy: 7 files at
#             71-98%, 253 records in 137 instantiation groups): every file below 100%, their
#             uncovered items listed (a failing check);
#   json100   the same written with --covered: every file at 100% (a passing check);
#   lcov      a real tracefile replicated the same way (examples/gen_lcov.rs; semver.lcov):
#             distinct files (189,000 at 1 GB), each in one section;
#   lcovshard the same 1,890 files (270 copies) in more and more sections (gen_lcov --shards),
#             like the tracefiles of many test binaries concatenated: memory follows the files.
# Each input has a source tree and a policy, so the whole check runs with every file in scope.
#
# Usage: ci/bench.sh                    (from anywhere in the repository)
#   SIZES="10 100 1000"   input sizes in MB       CASES="json json100 lcov lcovshard"
#   RUNS=3                runs per measurement    KEEP=1  keep the inputs (default: the 1 GB
#                                                          inputs are removed after their runs)
#   OLD=path/to/covgate   another build, run in turn with this one in every round (old vs new)
#   JSON_FLAGS="--no-walk --format json"   LCOV_FLAGS="--no-walk"   flags of `covgate check`
#   BENCH_DIR=target/bench                 where the inputs are made
set -euo pipefail
cd "$(dirname "$0")/.."

sizes=${SIZES:-10 100 1000}
cases=${CASES:-json json100 lcov lcovshard}
runs=${RUNS:-3}
old=${OLD:-}
keep=${KEEP:-0}
bench_dir=${BENCH_DIR:-target/bench}

cargo build --release --quiet --bin covgate --example gen_export --example gen_lcov --example anchor
bin=$PWD/target/release/covgate
examples=$PWD/target/release/examples

# copies CASE MB: how many copies of the source make about MB megabytes.
copies() {
    case $1 in
    json | json100) echo $(($2 * 1000 / 221)) ;;
    lcov | lcovshard) echo $(($2 * 1000 / 37)) ;;
    esac
}

# generate CASE MB: the input of CASE at MB megabytes, unless it is there already.
generate() {
    local case=$1 mb=$2 n dir
    n=$(copies "$case" "$mb")
    dir=$bench_dir/$case-$mb
    if [ "$(cat "$dir/.copies" 2>/dev/null)" != "$n" ]; then
        echo "bench: generating $dir ($n copies)" >&2
        rm -rf "$dir"
        mkdir -p "$dir"
        case $case in
        json) "$examples/gen_export" tests/fixtures/real/semver.json "$dir/big.json" \
            --copies "$n" --sources "$dir" ;;
        json100) "$examples/gen_export" tests/fixtures/real/semver.json "$dir/big.json" \
            --copies "$n" --sources "$dir" --covered ;;
        lcov) "$examples/gen_lcov" tests/fixtures/real/semver.lcov "$dir/big.lcov" \
            --copies "$n" --sources "$dir" ;;
        lcovshard) "$examples/gen_lcov" tests/fixtures/real/semver.lcov "$dir/big.lcov" \
            --copies 270 --shards $(((n + 135) / 270)) --sources "$dir" ;;
        esac
        echo "$n" >"$dir/.copies"
    fi
}

# measure DIR LABEL=COMMAND...: runs the commands one after the other, RUNS rounds (so that
# builds compared share the machine's load), and prints for each "LABEL wall cpu rss code":
# median wall s, median CPU s (user + system), median peak RSS MB and the last exit code.
# A COMMAND is one word list separated by '|' in place of spaces.
measure() {
    local dir=$1 timing label cmd
    shift
    timing=$(mktemp)
    declare -A walls=() cpus=() rsss=() codes=()
    for _ in $(seq "$runs"); do
        for spec in "$@"; do
            label=${spec%%=*}
            IFS='|' read -r -a cmd <<<"${spec#*=}"
            local code=0
            (cd "$dir" && /usr/bin/time -f '%e %U %S %M' -o "$timing" "${cmd[@]}" >/dev/null 2>&1) || code=$?
            read -r wall user sys rss < <(tail -1 "$timing")
            walls[$label]+="$wall "
            cpus[$label]+="$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') "
            rsss[$label]+="$((rss / 1024)) "
            codes[$label]=$code
        done
    done
    rm -f "$timing"
    for spec in "$@"; do
        label=${spec%%=*}
        # shellcheck disable=SC2086
        echo "$label $(median ${walls[$label]}) $(median ${cpus[$label]}) $(median ${rsss[$label]}) ${codes[$label]}"
    done
}

median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

printf '%-8s %7s  %-6s %8s %8s %8s   %s\n' case input build wall cpu rss 'vs anchor (wall, cpu)'
for mb in $sizes; do
    for case in $cases; do
        generate "$case" "$mb"
        dir=$bench_dir/$case-$mb
        file=big.json
        flags=${JSON_FLAGS:---no-walk --format json}
        if [ "${case#lcov}" != "$case" ]; then
            file=big.lcov
            flags=${LCOV_FLAGS:---no-walk}
        fi
        size=$(du -m "$dir/$file" | cut -f1)
        specs=("new=$bin|check|$file|${flags// /|}")
        [ -n "$old" ] && specs+=("old=$old|check|$file|${flags// /|}")
        [ "${case#lcov}" = "$case" ] && specs+=("anchor=$examples/anchor|$file")
        declare -A row=()
        while read -r label wall cpu rss code; do
            if [ "$label" != anchor ] && [ "$code" -gt 1 ]; then
                echo "bench: $label covgate check $dir/$file failed with exit $code" >&2
                exit 1
            fi
            row[$label]="$wall $cpu $rss"
        done < <(measure "$dir" "${specs[@]}")
        for label in new old; do
            [ -n "${row[$label]:-}" ] || continue
            read -r wall cpu rss <<<"${row[$label]}"
            ratio=''
            if [ -n "${row[anchor]:-}" ]; then
                read -r awall acpu arss <<<"${row[anchor]}"
                ratio=$(printf '%.2f x, %.2f x  (anchor %s s, %s s, %s MB)' \
                    "$(echo "$wall / $awall" | bc -l)" "$(echo "$cpu / $acpu" | bc -l)" \
                    "$awall" "$acpu" "$arss")
            fi
            printf '%-8s %4s MB  %-6s %6s s %6s s %5s MB   %s\n' "$case" "$size" "$label" "$wall" "$cpu" "$rss" "$ratio"
        done
        unset row
        if [ "$mb" -ge 1000 ] && [ "$keep" != 1 ]; then
            rm -rf "$dir"
        fi
    done
done
echo "(medians of $runs runs; exit code 1 = files below the threshold, as expected)"
