#!/usr/bin/env bash
# Runs the GitHub Action's script (scripts/ci/action.sh) in each mode, end to end, with a
# fake GitHub Actions environment: $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY files, a
# pull_request event, a run id, and git repositories standing in for the checkout and its
# origin. Uses a built perfgate (PERFGATE_BIN), so nothing is built or installed; the
# comment is printed (perfgate comment --dry-run), never posted.
#
#   tests/ci/action-test.sh PERFGATE
#
# One line per check, then "N passed, N failed"; exits non-zero when a check failed.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: action-test.sh PERFGATE (a built binary)" >&2; exit 64; }
pg=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
action=$repo/scripts/ci/action.sh
[ -x "$repo/examples/bin/primes" ] || { echo "action-test: build perfgate first (examples/bin/primes)" >&2; exit 66; }

work=$(mktemp -d "${TMPDIR:-/tmp}/perfgate-action-test.XXXXXX")
# PERFGATE_ACTION_TEST_KEEP=1 keeps the folder, to read the steps' logs.
if [ -n "${PERFGATE_ACTION_TEST_KEEP:-}" ]; then echo "in $work" >&2; else trap 'rm -rf "$work"' EXIT; fi
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@example.com \
  GIT_COMMITTER_NAME=ci GIT_COMMITTER_EMAIL=ci@example.com

passed=0
failed=0
check() { # check NAME COMMAND...: one line, ok or FAIL
  if "${@:2}"; then
    passed=$((passed + 1))
    echo "ok   $1"
  else
    failed=$((failed + 1))
    echo "FAIL $1"
  fi
}
has_output() { grep -qxF "$2=$3" "$1/output"; }           # has_output STEP KEY VALUE
output_of() { sed -n "s/^$2=//p" "$1/output" | tail -1; }  # output_of STEP KEY
is_file() { [ -n "$1" ] && [ -f "$1" ]; }
contains() { grep -qF -- "$2" "$1"; }
lacks() { ! grep -rqF -- "$2" "$1"; }
equals() { [ "$1" = "$2" ]; }
json_of() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
has_ref() { git -C "$1" rev-parse -q --verify "$2" >/dev/null; }

# step NAME DIR [VAR=VALUE...]: action.sh run in DIR as a GitHub step would, with only the
# variables a runner sets (and those given), so nothing of this machine's environment
# leaks in. Its files are under $work/NAME; its exit status in $work/NAME/rc.
# gitlab_step NAME DIR [VAR=VALUE...]: the same as a GitLab job would, outputs in the
# dotenv file (INPUT_OUTPUT_DIR=$work/NAME/out/perfgate.env).
step() { run_step github "$@"; }
gitlab_step() { run_step gitlab "$@"; }
run_step() {
  local provider=$1 dir=$3 s=$work/$2
  shift 3
  mkdir -p "$s/runner-temp"
  : >"$s/output"
  : >"$s/summary"
  local ci=(GITHUB_ACTIONS=true GITHUB_OUTPUT="$s/output" GITHUB_STEP_SUMMARY="$s/summary"
    GITHUB_WORKSPACE="$dir" GITHUB_REPOSITORY=acme/app GITHUB_REPOSITORY_OWNER=acme
    GITHUB_SERVER_URL=https://github.com GITHUB_API_URL=http://127.0.0.1:9 GITHUB_RUN_ID=1001
    GITHUB_RUN_ATTEMPT=1 GITHUB_JOB=perf GITHUB_ACTOR=ci RUNNER_TEMP="$s/runner-temp" RUNNER_OS=Linux)
  if [ "$provider" = gitlab ]; then
    ci=(GITLAB_CI=true CI_PROJECT_DIR="$dir" CI_PROJECT_ID=42 CI_PROJECT_PATH=acme/app
      CI_SERVER_URL=http://127.0.0.1:9 CI_API_V4_URL=http://127.0.0.1:9/api/v4 CI_PIPELINE_ID=5005
      CI_JOB_ID=7007 CI_JOB_TOKEN=fake-job-token-do-not-leak INPUT_OUTPUT_DIR="$s/out")
  fi
  local rc=0
  (cd "$dir" && env -i PATH="$PATH" HOME="$HOME" TMPDIR="$s/runner-temp" LANG=C.UTF-8 \
    GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@example.com \
    GIT_COMMITTER_NAME=ci GIT_COMMITTER_EMAIL=ci@example.com CI=true "${ci[@]}" \
    PERFGATE_BIN="$pg" "$@" bash "$action" run) >"$s/log" 2>&1 || rc=$?
  echo "$rc" >"$s/rc"
}
rc_of() { cat "$work/$1/rc"; }

# A project made of the example suite's sieve (examples/src/primes.cpp) in a git
# repository, with an origin to push to.
make_project() { # make_project DIR
  mkdir -p "$1/src" "$1/benchmarks" "$1/perf"
  cp "$repo/examples/src/primes.cpp" "$1/src/"
  printf 'bin/\n' >"$1/.gitignore"
  # The example config, smaller: one n, 3 measured runs.
  sed -e 's/^n = .*/n = [200000]/' -e 's/^command = .*/command = ["bin\/primes", "{n}", "10"]/' \
    "$repo/examples/primes.toml" >"$1/benchmarks/primes.toml"
  cat >"$1/perfgate.toml" <<'TOML'
[run]
num_warmup_runs = 0
num_measurement_runs = 3

[history]
branch = "main"
archive = "git:perfgate-data"
build = ["mkdir -p bin", "c++ -O1 -o bin/primes src/primes.cpp"]
suite = "benchmarks/"
TOML
  # The scenario saves its environment, so the test can see that no secret reached it.
  cat >"$1/perf/scenarios.toml" <<'TOML'
[budgets]
latency = "50%,2ms"
cpu_time = "50%,2ms"

[scenarios.primes]
command = 'env > "$PERFGATE_AB_OUTPUT_DIR/env" && {side}/bin/primes 200000'
TOML
  git -C "$1" init -q -b main
  git -C "$1" add -A
  git -C "$1" commit -qm "sieve: 20 rounds"
}
build_cmd='mkdir -p bin && c++ -O1 -o bin/primes src/primes.cpp'

# ---- pr: ab of a head that sieves 8 times as often as its base --------------------------
pr=$work/pr
make_project "$pr"
base=$(git -C "$pr" rev-parse HEAD)
sed -i 's/: 20;/: 160;/' "$pr/src/primes.cpp"
git -C "$pr" commit -qam "sieve: 160 rounds (8 times the work)"
check "pr: the head sieves more often than the base" grep -q ": 160;" "$pr/src/primes.cpp"
printf '{"action": "opened", "number": 7, "pull_request": {"number": 7, "base": {"sha": "%s"}, "head": {"sha": "%s"}}}\n' \
  "$base" "$(git -C "$pr" rev-parse HEAD)" >"$work/event.json"
step pr "$pr" GITHUB_EVENT_NAME=pull_request GITHUB_EVENT_PATH="$work/event.json" GITHUB_REF=refs/pull/7/merge \
  GITHUB_SHA="$(git -C "$pr" rev-parse HEAD)" GITHUB_TOKEN=fake-token-do-not-leak PERFGATE_COMMENT_DRY_RUN=1 \
  INPUT_MODE=pr INPUT_BUILD="$build_cmd" INPUT_SCENARIO_FILE=perf/scenarios.toml INPUT_COMMENT_KEY=perf \
  INPUT_BUDGETS=$'latency=60%,2ms\ncpu_time=60%,2ms'
s=$work/pr
check "pr: exits 1, the code of a REGRESSION" equals "$(rc_of pr)" 1
check "pr: verdict=REGRESSION" has_output "$s" verdict REGRESSION
check "pr: regressions=1" has_output "$s" regressions 1
check "pr: report-path is ab's report.md" equals "$(output_of "$s" report-path)" "$s/runner-temp/perfgate-pr/ab/report.md"
check "pr: the report exists" is_file "$(output_of "$s" report-path)"
check "pr: the step summary has ab's Markdown" contains "$s/summary" "# perfgate ab: REGRESSION"
check "pr: the step summary names the scenario" contains "$s/summary" "primes"
check "pr: the budgets input overrides the file's" contains "$s/runner-temp/perfgate-pr/ab/report.md" "+60% and 2 ms"
check "pr: the comment was made with --dry-run" has_output "$s" comment "done"
check "pr: the comment's body is the report" contains "$s/runner-temp/perfgate-pr/comment.out" "# perfgate ab: REGRESSION"
check "pr: the comment carries its key's marker" contains "$s/runner-temp/perfgate-pr/comment.out" "<!-- perfgate-comment: perf -->"
check "pr: the benchmarks ran in the base" is_file "$s/runner-temp/perfgate-pr/ab/runs/primes/base-1/env"
check "pr: and in the head" is_file "$s/runner-temp/perfgate-pr/ab/runs/primes/head-1/env"
check "pr: the token never reached a benchmark" lacks "$s/runner-temp/perfgate-pr/ab/runs" fake-token-do-not-leak
check "pr: the token is in no log" lacks "$s/log" fake-token-do-not-leak
check "pr: the base work tree is removed" equals "$(git -C "$pr" worktree list | wc -l)" 1
check "pr: the dotenv file has the outputs" contains "$s/runner-temp/perfgate-pr/perfgate.env" "PERFGATE_VERDICT=REGRESSION"

# The comment job's form: only the comment of the measure job's report; none without a token.
step pr-comment "$work" GITHUB_EVENT_NAME=pull_request GITHUB_EVENT_PATH="$work/event.json" \
  GITHUB_TOKEN=fake-token-do-not-leak PERFGATE_COMMENT_DRY_RUN=1 INPUT_MODE=pr INPUT_STAGE=comment \
  INPUT_REPORT="$s/runner-temp/perfgate-pr/ab/report.md"
check "pr comment stage: exits 0" equals "$(rc_of pr-comment)" 0
check "pr comment stage: comment=done" has_output "$work/pr-comment" comment "done"
check "pr comment stage: the default key's marker" contains "$work/pr-comment/log" "<!-- perfgate-comment: perfgate -->"
step pr-comment-notoken "$work" GITHUB_EVENT_NAME=pull_request GITHUB_EVENT_PATH="$work/event.json" \
  PERFGATE_COMMENT_DRY_RUN=1 INPUT_MODE=pr INPUT_STAGE=comment INPUT_REPORT="$s/runner-temp/perfgate-pr/ab/report.md"
check "pr comment stage, no token: exits 0 without commenting" equals "$(rc_of pr-comment-notoken)" 0
check "pr comment stage, no token: says so" contains "$work/pr-comment-notoken/log" "no github-token: no comment"

# A scenarios file that is not there: ab's 66, passed through, with no report to comment.
step pr-missing "$pr" GITHUB_EVENT_NAME=pull_request GITHUB_EVENT_PATH="$work/event.json" \
  GITHUB_TOKEN=fake-token-do-not-leak PERFGATE_COMMENT_DRY_RUN=1 INPUT_MODE=pr INPUT_SCENARIO_FILE=perf/none.toml
check "pr, missing scenarios file: exits 66" equals "$(rc_of pr-missing)" 66
check "pr, missing scenarios file: verdict=ERROR" has_output "$work/pr-missing" verdict ERROR
check "pr, missing scenarios file: no report, no comment" has_output "$work/pr-missing" report-path ""
step pr-nobase "$pr" INPUT_MODE=pr
check "pr, no base commit anywhere: exits 64" equals "$(rc_of pr-nobase)" 64
step bad-mode "$pr" INPUT_MODE=weekly
check "mode weekly: exits 64" equals "$(rc_of bad-mode)" 64
check "mode weekly: says which modes there are" contains "$work/bad-mode/log" "not one of pr, main, nightly"

# ---- main: run + compare of the example suite into a new store -------------------------
mkdir -p "$work/main-ws"
step main "$work/main-ws" GITHUB_EVENT_NAME=push GITHUB_REF=refs/heads/main GITHUB_SHA="$base" \
  INPUT_MODE=main INPUT_SUITE="$repo/examples/" INPUT_RUN_SOURCE=scheduled_main INPUT_INIT_STORE=true \
  INPUT_CONFIRM=2 PERFGATE_STORE="sqlite:$work/store.db"
s=$work/main
check "main: exits 0" equals "$(rc_of main)" 0
check "main: verdict=PASS (new cohorts: calibration needed)" has_output "$s" verdict PASS
check "main: regressions=0" has_output "$s" regressions 0
check "main: report-path is compare's summary" is_file "$(output_of "$s" report-path)"
check "main: the step summary has compare's Markdown" contains "$s/summary" "perfgate comparison for"
check "main: the records are in the store" is_file "$work/store.db"

# A threshold no run can meet: a static REGRESSION, exit 1.
sed -e "s|^command = .*|command = [\"$repo/examples/bin/primes\", \"{n}\", \"10\"]|" \
  -e 's/^max_latency_s = .*/max_latency_s = 0.000001/' "$repo/examples/primes.toml" >"$work/strict.toml"
step main-regression "$work/main-ws" GITHUB_EVENT_NAME=push GITHUB_SHA="$base" INPUT_MODE=main \
  INPUT_SUITE="$work/strict.toml" PERFGATE_STORE="sqlite:$work/store.db"
s=$work/main-regression
check "main, threshold breached: exits 1" equals "$(rc_of main-regression)" 1
check "main, threshold breached: verdict=REGRESSION" has_output "$s" verdict REGRESSION
check "main, threshold breached: regressions=2 (both n)" has_output "$s" regressions 2
check "main, threshold breached: the summary says so" contains "$s/summary" "REGRESSION"

# ---- nightly: measure (read-only job), publish (writer job), site ----------------------
make_project "$work/app"
git -C "$work/app" commit -q --allow-empty -m "notes"
git clone -q --bare "$work/app" "$work/origin.git"
clone() { git clone -q "$work/origin.git" "$1"; } # as actions/checkout with fetch-depth: 0
head=$(git -C "$work/app" rev-parse HEAD)
nightly_env=(GITHUB_EVENT_NAME=schedule GITHUB_REF=refs/heads/main GITHUB_SHA="$head" INPUT_MODE=nightly
  INPUT_ENVIRONMENT=ci-test)

clone "$work/measure-ws"
step measure "$work/measure-ws" "${nightly_env[@]}" INPUT_STAGE=measure
s=$work/measure
batch=$(output_of "$s" batch-path)
check "nightly measure: exits 0" equals "$(rc_of measure)" 0
check "nightly measure: verdict=PASS" has_output "$s" verdict PASS
check "nightly measure: regressions is empty (known after publishing)" has_output "$s" regressions ""
check "nightly measure: batch-path has batch.json" is_file "$batch/batch.json"
check "nightly measure: the attempts are this run's (gh-1001)" contains "$batch/batch.json" '"run": "gh-1001"'
check "nightly measure: report-path exists" is_file "$(output_of "$s" report-path)"
check "nightly measure: the step summary has the validation" contains "$s/summary" "has a valid measurement"
check "nightly measure: nothing was pushed" equals "$(git -C "$work/origin.git" branch --list perfgate-data)" ""

# The writer job in a fresh checkout: a batch of another run is refused, this run's goes in.
clone "$work/publish-ws"
step publish-other "$work/publish-ws" "${nightly_env[@]}" GITHUB_RUN_ID=999 INPUT_STAGE=publish INPUT_BATCH="$batch"
check "nightly publish, another run's batch: exits 65" equals "$(rc_of publish-other)" 65
check "nightly publish, another run's batch: says why" contains "$work/publish-other/log" "not of this run gh-999"
check "nightly publish, another run's batch: nothing pushed" equals "$(git -C "$work/origin.git" branch --list perfgate-data)" ""
# origin refuses the first push, as when another writer pushed first: the script fetches,
# publishes on origin's tip again and pushes again.
cat >"$work/origin.git/hooks/pre-receive" <<'HOOK'
#!/bin/sh
[ -f "$GIT_DIR/refused-once" ] && exit 0
touch "$GIT_DIR/refused-once"
echo "another writer is pushing" >&2
exit 1
HOOK
chmod +x "$work/origin.git/hooks/pre-receive"
step publish "$work/publish-ws" "${nightly_env[@]}" INPUT_STAGE=publish INPUT_BATCH="$batch"
s=$work/publish
history=$(output_of "$s" history-path)
check "nightly publish: exits 0" equals "$(rc_of publish)" 0
check "nightly publish: verdict=PASS" has_output "$s" verdict PASS
# A flag is a heuristic on 3 noisy runs of each commit: count them, whatever their number.
check "nightly publish: regressions=N (flags at the current commit)" grep -qE '^regressions=[0-9]+$' "$s/output"
check "nightly publish: origin has the archive branch" has_ref "$work/origin.git" refs/heads/perfgate-data
check "nightly publish: a refused push is published and pushed again" contains "$s/log" "was refused (try 1)"
check "nightly publish: with the target's attempt" \
  git -C "$work/origin.git" cat-file -e "perfgate-data:attempts/$head-gh-1001-1.json"
check "nightly publish: history.json is exported from this commit" contains "$history" "\"source_sha\":\"$head\""
check "nightly publish: the step summary has the coverage" contains "$s/summary" "2 of 2 monitored commits measured"

clone "$work/site-ws"
step site "$work/site-ws" "${nightly_env[@]}" INPUT_STAGE=site INPUT_HISTORY="$history"
s=$work/site
check "nightly site: exits 0" equals "$(rc_of site)" 0
check "nightly site: verdict=PASS" has_output "$s" verdict PASS
check "nightly site: site-path has index.html" is_file "$(output_of "$s" site-path)/index.html"
check "nightly site: current=true (main is still here)" has_output "$s" current true
check "nightly site: no staleness warning for a fresh history" lacks "$s/log" "::warning"

# An export whose newest attempt is years old: perfgate warns, the action makes it an annotation.
python3 - "$history" "$work/old-history.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
for a in h["attempts"]:
    a["started_at"], a["finished_at"] = "2020-01-01T00:00:00Z", "2020-01-01T00:01:00Z"
json.dump(h, open(sys.argv[2], "w"))
PY
step site-old "$work/site-ws" "${nightly_env[@]}" INPUT_STAGE=site INPUT_HISTORY="$work/old-history.json" INPUT_STALE_AFTER=7
check "nightly site, newest attempt years old: exits 0" equals "$(rc_of site-old)" 0
check "nightly site, newest attempt years old: a warning on the run's page" contains "$work/site-old/log" "::warning title=perfgate::"

# main moves on: the older run still builds its site but must not deploy it, and a newer
# checkout refuses the older export (source_sha is not its commit).
git -C "$work/app" commit -q --allow-empty -m "newer"
git -C "$work/app" push -q "$work/origin.git" main
step site-behind "$work/site-ws" "${nightly_env[@]}" INPUT_STAGE=site INPUT_HISTORY="$history"
check "nightly site, main moved on: exits 0" equals "$(rc_of site-behind)" 0
check "nightly site, main moved on: current=false" has_output "$work/site-behind" current false
clone "$work/site-new"
step site-stale "$work/site-new" "${nightly_env[@]}" GITHUB_SHA="$(git -C "$work/app" rev-parse HEAD)" \
  INPUT_STAGE=site INPUT_HISTORY="$history"
check "nightly site, export of another commit: exits 65" equals "$(rc_of site-stale)" 65
check "nightly site, export of another commit: verdict=ERROR" has_output "$work/site-stale" verdict ERROR

# ---- GitLab: the same script, outputs as dotenv, the run identity of the pipeline --------
# The newer commit of main: the archive has the others, so the plan selects it (and its
# measured neighbour again).
head=$(git -C "$work/app" rev-parse HEAD)
clone "$work/gl-measure-ws"
gitlab_step gl-measure "$work/gl-measure-ws" CI_PIPELINE_SOURCE=schedule CI_COMMIT_SHA="$head" \
  INPUT_MODE=nightly INPUT_STAGE=measure INPUT_ENVIRONMENT=ci-test
s=$work/gl-measure
check "GitLab nightly measure: exits 0" equals "$(rc_of gl-measure)" 0
check "GitLab nightly measure: PERFGATE_VERDICT=PASS in the dotenv file" contains "$s/out/perfgate.env" "PERFGATE_VERDICT=PASS"
check "GitLab nightly measure: the attempts are the pipeline's (gl-5005-7007)" \
  contains "$s/out/batch/batch.json" '"run": "gl-5005-7007"'
# Its one new commit, and (a bridge, docs/history.md) the commit before it again, so that
# its flag compares two measurements of one batch.
check "GitLab nightly measure: the plan selects the new commit and its neighbour again" \
  equals "$(json_of "$s/out/plan.json" 'd["selected"]')" "['$(git -C "$work/app" rev-parse HEAD~1)', '$head']"
check "GitLab nightly measure: the neighbour is the plan's bridge" \
  equals "$(json_of "$s/out/plan.json" 'd["bridging"]')" "['$(git -C "$work/app" rev-parse HEAD~1)']"
clone "$work/gl-publish-ws"
gitlab_step gl-publish "$work/gl-publish-ws" CI_PIPELINE_SOURCE=schedule CI_COMMIT_SHA="$head" \
  CI_SERVER_URL="$work" CI_PROJECT_PATH=origin PERFGATE_ARCHIVE_TOKEN=fake-archive-token-do-not-leak \
  INPUT_MODE=nightly INPUT_STAGE=publish INPUT_BATCH="$s/out/batch"
s=$work/gl-publish
check "GitLab nightly publish: exits 0" equals "$(rc_of gl-publish)" 0
check "GitLab nightly publish: pushes to CI_SERVER_URL/CI_PROJECT_PATH.git" \
  equals "$(git -C "$work/gl-publish-ws" config remote.origin.pushurl)" "$work/origin.git"
check "GitLab nightly publish: origin has the pipeline's attempt" \
  git -C "$work/origin.git" cat-file -e "perfgate-data:attempts/$head-gl-5005-7007-1.json"
check "GitLab nightly publish: the token is in no log" lacks "$s/log" do-not-leak
# What git's push asks the credential helper, answered from the environment.
credential=$(printf 'protocol=https\nhost=gitlab.example.com\n\n' |
  (cd "$work/gl-publish-ws" && GIT_CONFIG_GLOBAL=/dev/null PERFGATE_ARCHIVE_TOKEN=tok-123 git credential fill))
check "GitLab nightly publish: git's credential helper gives the token from the environment" \
  equals "$(printf '%s\n' "$credential" | grep -E '^(username|password)=' | tr '\n' ' ')" "username=oauth2 password=tok-123 "
check "GitLab nightly publish: nor in git's configuration" lacks "$work/gl-publish-ws/.git/config" do-not-leak
gitlab_step gl-comment "$work" CI_PIPELINE_SOURCE=merge_request_event CI_MERGE_REQUEST_IID=3 \
  PERFGATE_GITLAB_TOKEN=fake-gitlab-token-do-not-leak PERFGATE_COMMENT_DRY_RUN=1 INPUT_MODE=pr \
  INPUT_STAGE=comment INPUT_REPORT="$work/pr/runner-temp/perfgate-pr/ab/report.md"
check "GitLab merge request note: exits 0" equals "$(rc_of gl-comment)" 0
check "GitLab merge request note: PERFGATE_COMMENT=done" contains "$work/gl-comment/out/perfgate.env" "PERFGATE_COMMENT=done"
check "GitLab merge request note: the body is the report" contains "$work/gl-comment/log" "# perfgate ab: REGRESSION"

# ---- nightly, a target that does not build: the job fails after its batch is kept --------
printf 'int main( {\n' >"$work/app/src/primes.cpp"
git -C "$work/app" commit -qam "sieve: a typo that does not build"
git -C "$work/app" push -q "$work/origin.git" main
head=$(git -C "$work/app" rev-parse HEAD)
clone "$work/broken-ws"
step broken "$work/broken-ws" "${nightly_env[@]}" GITHUB_SHA="$head" GITHUB_RUN_ID=1002 INPUT_STAGE=measure
s=$work/broken
check "nightly measure, target fails to build: exits 1" equals "$(rc_of broken)" 1
check "nightly measure, target fails to build: verdict=ERROR" has_output "$s" verdict ERROR
check "nightly measure, target fails to build: the batch is kept for upload" is_file "$(output_of "$s" batch-path)/batch.json"
check "nightly measure, target fails to build: the summary says so" contains "$s/summary" "perfgate nightly: ERROR"
step broken-publish "$work/broken-ws" "${nightly_env[@]}" GITHUB_SHA="$head" GITHUB_RUN_ID=1002 INPUT_STAGE=publish \
  INPUT_BATCH="$(output_of "$s" batch-path)"
check "nightly publish of the failed attempt: exits 0" equals "$(rc_of broken-publish)" 0
check "nightly publish of the failed attempt: the export counts it failed" \
  equals "$(json_of "$(output_of "$work/broken-publish" history-path)" 'd["coverage"]["failed"]')" 1

# ---- install: the cache key, and a cache hit that needs no package --------------------
mkdir -p "$work/key"
(cd "$work/key" && env -i PATH="$PATH" HOME="$HOME" GITHUB_ACTIONS=true GITHUB_OUTPUT="$work/key/output" \
  RUNNER_TOOL_CACHE="$work/tool-cache" bash "$action" key >/dev/null 2>&1)
check "key: names version, OS, machine and sources" \
  grep -qE "^key=perfgate-[0-9.]+-[a-z]+[0-9.]*-$(uname -m)-[0-9a-f]{16}$" "$work/key/output"
check "key: the prefix is under the tool cache" grep -q "^prefix=$work/tool-cache/perfgate/" "$work/key/output"
prefix=$work/cached
mkdir -p "$prefix/bin" "$prefix/share/perfgate-action"
ln -s "$pg" "$prefix/bin/perfgate"
echo git >"$prefix/share/perfgate-action/runtime-packages"
mkdir -p "$work/install"
rc=0
(env -i PATH="$PATH" HOME="$HOME" GITHUB_ACTIONS=true GITHUB_OUTPUT="$work/install/output" \
  PERFGATE_PREFIX="$prefix" bash "$action" install >"$work/install/log" 2>&1) || rc=$?
check "install, cache hit: exits 0 without building" equals "$rc" 0
check "install, cache hit: perfgate=PREFIX/bin/perfgate" has_output "$work/install" perfgate "$prefix/bin/perfgate"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
