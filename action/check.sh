#!/usr/bin/env bash
# covgate's GitHub Action, step 3: runs `covgate check` once, with `--format github`
# (annotations and the table in the log, the Markdown result appended to the step summary),
# `--output-markdown` and `--output-json`. Always exits 0: the code goes to the step's outputs
# (`code`, `leg`, `dir`), so the comment is written before the last step fails with it.
# In: COVGATE_REPORTS and COVGATE_ARGS (split at spaces, never evaluated), COVGATE_POLICY,
# COVGATE_LEG, COVGATE_LINK_BASE (`none`: no links; empty: GITHUB_SERVER_URL/GITHUB_REPOSITORY/
# blob/COVGATE_SHA when those are set), RUNNER_OS, RUNNER_TEMP, GITHUB_OUTPUT.
set -uo pipefail
out="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/covgate"
mkdir -p "$out"
rm -f "$out/result.md" "$out/result.json"
read -r -a reports <<<"${COVGATE_REPORTS:-}"
read -r -a extra <<<"${COVGATE_ARGS:-}"
args=(check ${reports[@]+"${reports[@]}"} --format github
    --output-markdown "$out/result.md" --output-json "$out/result.json")
if [ -n "${COVGATE_POLICY:-}" ]; then
    args+=(--policy "$COVGATE_POLICY")
fi
link="${COVGATE_LINK_BASE:-}"
if [ -z "$link" ] && [ -n "${GITHUB_SERVER_URL:-}" ] && [ -n "${GITHUB_REPOSITORY:-}" ] && [ -n "${COVGATE_SHA:-}" ]; then
    link="$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/blob/$COVGATE_SHA"
fi
if [ -n "$link" ] && [ "$link" != none ]; then
    args+=(--link-base "$link")
fi
args+=(${extra[@]+"${extra[@]}"})

# The leg: as given, else the runner's OS and the target (--target in args, else the host's).
target=""
for ((i = 0; i < ${#extra[@]}; i++)); do
    case "${extra[$i]}" in
        --target) target="${extra[$((i + 1))]:-}" ;;
        --target=*) target="${extra[$i]#--target=}" ;;
    esac
done
if [ -z "$target" ]; then
    target=$(rustc -vV 2>/dev/null | sed -n 's/^host: //p')
fi
leg="${COVGATE_LEG:-${RUNNER_OS:-local} ${target:-unknown target}}"
leg="${leg//[$'\r\n']/ }"

covgate "${args[@]}"
code=$?
{
    echo "code=$code"
    echo "leg=$leg"
    echo "dir=$out"
} >>"$GITHUB_OUTPUT"
exit 0
