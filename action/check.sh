#!/usr/bin/env bash
# covgate's GitHub Action, step 3: runs `covgate check` once, with `--format github`
# (annotations and the table in the log, the Markdown result appended to the step summary),
# `--output-markdown` and `--output-json`. Always exits 0: the code goes to the step's outputs
# (`code`, `leg`, `dir`), so the comment is written before the last step fails with it.
# In: COVGATE_REPORTS and COVGATE_ARGS (lists: see `entries`), COVGATE_POLICY,
# COVGATE_LEG, GITHUB_JOB, COVGATE_LINK_BASE (`none`: no links; empty: `--link-repository` GITHUB_SERVER_URL/GITHUB_REPOSITORY/
# blob/COVGATE_SHA when those are set), RUNNER_OS, RUNNER_TEMP, GITHUB_OUTPUT.
set -uo pipefail
out="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/covgate"
mkdir -p "$out"
rm -f "$out/result.md" "$out/result.json"

# A list input's entries: every word of every line, split at spaces, tabs, carriage returns and
# newlines (blank lines and surrounding spaces ignored; one entry per line or several per line).
# Nothing is evaluated: no quotes, `$`, `~` or globs; a space inside a path is matched with `?`.
entries() {
    local -a words=()
    IFS=$' \t\r\n' read -r -d '' -a words <<<"$1" || true
    if [ "${#words[@]}" -gt 0 ]; then
        printf '%s\n' "${words[@]}"
    fi
}

# Args: each word is one argument, never a glob.
extra=()
while IFS= read -r word; do
    extra+=("$word")
done < <(entries "${COVGATE_ARGS:-}")

# The leg: as given, else the runner's OS, the target (--target in args, else the host's) and
# a hash of what else tells the legs apart.
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
# The default leg name ends with a short hash (8 hex digits, POSIX cksum) of the job's id, the
# args, the reports and policy inputs (as written: globs unexpanded) and the working folder (below
# GITHUB_WORKSPACE; omitted at its top): legs of one OS and target that differ by features or
# other arguments, and two steps of one job that check other policies or reports, get sections
# of their own, and the same leg keeps its name from run to run.
here="$PWD"
if [ -n "${GITHUB_WORKSPACE:-}" ]; then
    here="${PWD#"$GITHUB_WORKSPACE"}"
    here="${here#/}"
fi
ident=$(
    printf '%s\n' "${GITHUB_JOB:-}" ${extra[@]+"${extra[@]}"}
    entries "${COVGATE_REPORTS:-}" | sed 's/^/reports=/'
    if [ -n "${COVGATE_POLICY:-}" ]; then printf 'policy=%s\n' "$COVGATE_POLICY"; fi
    if [ -n "$here" ]; then printf 'dir=%s\n' "$here"; fi
)
ident=$(printf '%s\n' "$ident" | cksum)
ident=$(printf '%08x' "${ident%% *}")
leg="${COVGATE_LEG:-${RUNNER_OS:-local} ${target:-unknown target} ${ident}}"
leg="${leg//[$'\r\n']/ }"

# Ends the step with the code in its outputs (the last step fails with it).
finish() {
    {
        echo "code=$1"
        echo "leg=$leg"
        echo "dir=$out"
    } >>"$GITHUB_OUTPUT"
    exit 0
}

# Reports: a word with `*`, `?` or `[` is a glob, replaced by the files it matches (sorted); a glob
# that matches nothing is an error naming it (code 2), never a report silently left out. Other
# words are passed as they are (covgate names a missing one).
# `**` matches any number of folders, as in the policy's globs and other actions' inputs.
shopt -s globstar
reports=()
while IFS= read -r word; do
    case "$word" in
        *[*?[]*)
            found=0
            while IFS= read -r match; do
                reports+=("$match")
                found=1
            done < <(compgen -G "$word" | LC_ALL=C sort)
            if [ "$found" = 0 ]; then
                echo "::error title=covgate::reports: no file matches the glob '$word' (working folder $PWD); fix the pattern or produce the report before this step"
                finish 2
            fi
            ;;
        *) reports+=("$word") ;;
    esac
done < <(entries "${COVGATE_REPORTS:-}")

args=(check ${reports[@]+"${reports[@]}"} --format github
    --output-markdown "$out/result.md" --output-json "$out/result.json")
if [ -n "${COVGATE_POLICY:-}" ]; then
    args+=(--policy "$COVGATE_POLICY")
fi
# The default links go to the repository at the commit, and covgate adds the policy root's path
# below the repository (`--link-repository`); a `link-base` given is the root's own URL.
link="${COVGATE_LINK_BASE:-}"
if [ -z "$link" ] && [ -n "${GITHUB_SERVER_URL:-}" ] && [ -n "${GITHUB_REPOSITORY:-}" ] && [ -n "${COVGATE_SHA:-}" ]; then
    args+=(--link-repository "$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/blob/$COVGATE_SHA")
elif [ -n "$link" ] && [ "$link" != none ]; then
    args+=(--link-base "$link")
fi
args+=(${extra[@]+"${extra[@]}"})

covgate "${args[@]}"
finish "$?"
