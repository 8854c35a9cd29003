#!/usr/bin/env bash
# covgate's GitHub Action, step 4: keeps one pull-request comment with a section per leg.
# Lists the PR's comments with `gh api`, lets `covgate comment` replace this leg's section in
# covgate's comment (found by its hidden marker and author), and edits that comment or adds it.
# The token reaches `gh` as GH_TOKEN and is never printed. Commenting never fails the job:
# outside a pull request, on a fork's pull request (the job's token cannot write there), or when
# the API refuses, it says why and leaves the result in the step summary.
# In: GH_TOKEN, COVGATE_REPO, COVGATE_PR, COVGATE_HEAD_REPO, COVGATE_AUTHOR, COVGATE_CODE,
# COVGATE_LEG, COVGATE_OUT, GITHUB_STEP_SUMMARY, GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT, GITHUB_JOB,
# RUNNER_NAME.
set -uo pipefail
out="${COVGATE_OUT:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/covgate}"
mkdir -p "$out"
say() {
    echo "covgate: $1"
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
        printf '\n_covgate: %s_\n' "$1" >>"$GITHUB_STEP_SUMMARY"
    fi
}
if [ -z "${COVGATE_PR:-}" ]; then
    echo "covgate: not a pull request, so no comment; the result is in the step summary"
    exit 0
fi
if [ -n "${COVGATE_HEAD_REPO:-}" ] && [ "$COVGATE_HEAD_REPO" != "${COVGATE_REPO:-}" ]; then
    say "no pull-request comment: this pull request comes from a fork, where the job's token cannot write comments; the result is in this step summary"
    exit 0
fi
if ! gh api --paginate "repos/$COVGATE_REPO/issues/$COVGATE_PR/comments" >"$out/comments.json" 2>"$out/gh.err"; then
    say "no pull-request comment: the comments could not be listed (does the token have pull-requests write?); the result is in this step summary"
    exit 0
fi
# Who writes: the run and its attempt, then the job and the runner. Another job of the same run
# attempt that wrote a section of this leg's name is a collision, which the section then shows.
writer=""
if [ -n "${GITHUB_RUN_ID:-}" ]; then
    writer="$GITHUB_RUN_ID.${GITHUB_RUN_ATTEMPT:-1}/${GITHUB_JOB:-} ${RUNNER_NAME:-}"
fi
if ! action=$(covgate comment --leg "${COVGATE_LEG:-default}" --code "${COVGATE_CODE:-2}" \
    --markdown "$out/result.md" --comments "$out/comments.json" \
    --author "${COVGATE_AUTHOR-github-actions[bot]}" --body-out "$out/body.md" \
    --writer "$writer"); then
    say "no pull-request comment: covgate could not compose it (see the log)"
    exit 0
fi
case "$action" in
    "update "*)
        gh api --method PATCH "repos/$COVGATE_REPO/issues/comments/${action#update }" \
            -F "body=@$out/body.md" >/dev/null 2>"$out/gh.err"
        ;;
    *)
        gh api --method POST "repos/$COVGATE_REPO/issues/$COVGATE_PR/comments" \
            -F "body=@$out/body.md" >/dev/null 2>"$out/gh.err"
        ;;
esac
status=$?
if [ "$status" -ne 0 ]; then
    say "no pull-request comment: the API refused to write it (does the token have pull-requests write?); the result is in this step summary"
    exit 0
fi
echo "covgate: pull-request comment ${action%% *}d"
