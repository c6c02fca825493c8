# mode pr, sourced by scripts/ci/action.sh, in two stages:
#   measure  `perfgate ab` of the pull request's checkout (the head: the current folder)
#            against its base commit, checked out beside it; then, given a token, the report
#            as the pull request's one perfgate comment
#   comment  only that comment, of INPUT_REPORT: for a job that runs none of the pull
#            request's code, the only one that holds a token that may write (docs/ci.md)
# shellcheck shell=bash disable=SC2154 # pg, out, root: set by action.sh, which sources this

base_commit() { # the commit the pull request goes into
  local base=${INPUT_BASE_REF:-}
  if [ -z "$base" ] && [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -f "$GITHUB_EVENT_PATH" ]; then
    base=$(json "$GITHUB_EVENT_PATH" '(d.get("pull_request") or {}).get("base", {}).get("sha", "")')
  fi
  if [ -z "$base" ]; then base=${CI_MERGE_REQUEST_DIFF_BASE_SHA:-}; fi
  [ -n "$base" ] || fail 64 "pr mode needs the base commit: the base-ref input, a pull_request event, or a GitLab merge request pipeline"
  # A shallow checkout may lack it; the checkout step's fetch-depth: 0 avoids this fetch.
  if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
    git fetch --no-tags --quiet --depth=1 origin "$base" ||
      fail 66 "the base commit $base is not in this checkout and cannot be fetched: check out with fetch-depth: 0"
  fi
  git rev-parse "$base^{commit}"
}

build_side() { # build_side SIDE DIR: the project's build command in one checkout
  [ -n "${INPUT_BUILD:-}" ] || return 0
  say "building the $1 in $2"
  if ! (cd "$2" && bash -euo pipefail -c "$INPUT_BUILD"); then
    printf '## perfgate ab: ERROR\n\nThe build of the %s failed: see the job log.\n' "$1" >"$out/error.md"
    summary "$out/error.md"
    # 1, as ab's own execution errors: 2 would read as INCONCLUSIVE.
    finish ERROR 1 "" ""
  fi
}

comment() { # comment REPORT: post or update the pull request's comment (docs/ci.md)
  local provider args=() secrets=() rc=0
  provider=$(ci_provider)
  case "$provider" in
    github) [ -n "$github_token" ] || { say "no github-token: no comment"; return 0; } ;;
    gitlab) [ -n "$gitlab_token$job_token" ] || { say "no GitLab token: no comment"; return 0; } ;;
    *) say "not in GitHub Actions or GitLab CI: no comment"; return 0 ;;
  esac
  args=(comment --provider "$provider" --report "$1")
  if [ -n "${INPUT_COMMENT_KEY:-}" ]; then args+=(--key "$INPUT_COMMENT_KEY"); fi
  # Tests (tests/ci/action-test.sh) print the comment instead of posting it.
  if is_true "${PERFGATE_COMMENT_DRY_RUN:-}"; then args+=(--dry-run); fi
  if [ -n "$github_token" ]; then secrets+=("GITHUB_TOKEN=$github_token"); fi
  if [ -n "$gitlab_token" ]; then secrets+=("PERFGATE_GITLAB_TOKEN=$gitlab_token"); fi
  if [ -n "$job_token" ]; then secrets+=("CI_JOB_TOKEN=$job_token"); fi
  env "${secrets[@]}" "$pg" "${args[@]}" >"$out/comment.out" || rc=$?
  cat "$out/comment.out"
  # perfgate comment exits 0 when it cannot comment for a reason of the event (a fork's
  # read-only token, no pull request); 74 is the API failing, not the pull request's fault.
  case "$rc" in
    0) set_output comment "done" ;;
    74) set_output comment "failed ($rc)"; warn "the comment could not be posted (exit 74): the report is in the job summary" ;;
    *) set_output comment "failed ($rc)"; comment_failed=$rc ;;
  esac
}

pr_measure() {
  local base head
  head=$(git rev-parse HEAD)
  base=$(base_commit)
  basedir=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/perfgate-base.XXXXXX")
  # The base as a second work tree of this repository, removed however the job ends
  # (basedir is global: the trap runs after this function's locals are gone).
  trap 'git worktree remove --force "$basedir" >/dev/null 2>&1 || rm -rf "$basedir"; git worktree prune' EXIT
  git worktree add --detach --quiet "$basedir" "$base"
  say "base ${base:0:12}, head ${head:0:12}"
  build_side base "$basedir"
  build_side head "$PWD"

  local args=(ab --base-dir "$basedir" --head-dir "$PWD" --scenario-file "${INPUT_SCENARIO_FILE:-perf/scenarios.toml}"
    --suite "${INPUT_SCENARIO_SUITE:-basic}" --out "$out/ab" --json --no-color)
  if [ -n "${INPUT_METHOD:-}" ]; then args+=(--method "$INPUT_METHOD"); fi
  if [ -n "${INPUT_MEASURE:-}" ]; then args+=(--measure "$INPUT_MEASURE"); fi
  if [ -n "${INPUT_TIMEOUT:-}" ]; then args+=(--timeout "$INPUT_TIMEOUT"); fi
  # Budgets are separated by spaces or lines; read, not expanded, so nothing globs.
  local budget budgets=()
  read -r -d '' -a budgets <<<"${INPUT_BUDGETS:-}" || true
  for budget in "${budgets[@]}"; do args+=(--budget "$budget"); done

  local rc=0
  "$pg" "${args[@]}" >"$out/ab.json" || rc=$?
  local report="" verdict regressions=""
  if [ -f "$out/ab/report.md" ]; then report=$out/ab/report.md; fi
  if [ -s "$out/ab.json" ]; then
    verdict=$(json "$out/ab.json" 'd["verdict"]')
    regressions=$(json "$out/ab.json" 'sum(s["status"] == "REGRESSION" for s in d["scenarios"])')
  else
    verdict=$(verdict_of "$rc")
    [ "$rc" -eq 0 ] || verdict=ERROR # no verdict object: ab refused its input
  fi

  comment_failed=0
  if [ -n "$report" ]; then comment "$report"; fi
  if [ "$comment_failed" -ne 0 ]; then
    warn "perfgate comment failed with exit $comment_failed"
    # A misused comment command (64-66, 70) is the workflow's to fix: it fails a passing job.
    if [ "$rc" -eq 0 ]; then finish "$verdict" "$comment_failed" "$regressions" "$report"; fi
  fi
  finish "$verdict" "$rc" "$regressions" "$report"
}

pr_comment() {
  local report=${INPUT_REPORT:-}
  [ -n "$report" ] && [ -f "$report" ] || fail 66 "report: '$report' is not a file (the measure job's report.md)"
  comment_failed=0
  comment "$report"
  [ "$comment_failed" -eq 0 ] || fail "$comment_failed" "perfgate comment failed with exit $comment_failed"
}

run_pr() {
  case "${INPUT_STAGE:-measure}" in
    measure) pr_measure ;;
    comment) pr_comment ;;
    *) fail 64 "stage: '${INPUT_STAGE}' is not one of measure, comment (pr mode)" ;;
  esac
}
