#!/usr/bin/env bash
# The logic of the perfgate GitHub Action (action.yml) and of the GitLab CI templates
# (examples/ci/gitlab/): the YAML only passes inputs as INPUT_* variables, so that every
# step runs here, and tests/ci/action-test.sh runs it with a fake CI environment.
#
#   action.sh key       the cache key and install folder of this perfgate (outputs key, prefix)
#   action.sh install   build perfgate into $PERFGATE_PREFIX, or on a cache hit install the
#                       packages it loads (output perfgate)
#   action.sh run       the flow INPUT_MODE names: pr, main or nightly (docs/ci.md)
#
# Outputs go to $GITHUB_OUTPUT and to OUT/perfgate.env (GitLab's dotenv); `run` exits with
# the verdict's exit code: 0 PASS, 1 REGRESSION or an error, 2 INCONCLUSIVE, 64-74 as
# perfgate's (docs/cli.md).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/ci/lib.sh
. "$here/lib.sh"

out=""
case "${1:-}" in
  key | install)
    # shellcheck source=scripts/ci/install.sh
    . "$here/install.sh"
    if [ "$1" = key ]; then install_key; else install_perfgate; fi
    exit 0
    ;;
  run) ;;
  *) fail 64 "usage: action.sh key|install|run (scripts/ci/action.sh, docs/ci.md)" ;;
esac

# Secrets leave the environment before anything else starts: builds and benchmarks (a pull
# request's own code) inherit the environment, so a token there could be read by them. Each
# secret is handed back only to the one perfgate command that needs it.
# shellcheck disable=SC2034 # read by the mode-*.sh files
store_url=${PERFGATE_STORE:-}
# shellcheck disable=SC2034
github_token=${GITHUB_TOKEN:-} gitlab_token=${PERFGATE_GITLAB_TOKEN:-} job_token=${CI_JOB_TOKEN:-} \
  archive_token=${PERFGATE_ARCHIVE_TOKEN:-}
unset PERFGATE_STORE GITHUB_TOKEN GH_TOKEN PERFGATE_GITLAB_TOKEN CI_JOB_TOKEN PERFGATE_ARCHIVE_TOKEN

# No git command may wait for a password that no one will type (a fetch without credentials).
export GIT_TERMINAL_PROMPT=0

pg=${PERFGATE_BIN:-perfgate}
command -v "$pg" >/dev/null || fail 66 "no perfgate at '$pg': set perfgate-path, or let the action build it"
pg=$(command -v "$pg")
case "$pg" in /*) ;; *) pg=$PWD/$pg ;; esac

mode=${INPUT_MODE:-}
out=${INPUT_OUTPUT_DIR:-}
if [ -z "$out" ]; then
  if [ -n "${RUNNER_TEMP:-}" ]; then out=$RUNNER_TEMP/perfgate-$mode; else out=$PWD/perfgate-out; fi
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
: >"$out/perfgate.env"

# finish VERDICT CODE [REGRESSIONS] [REPORT]: the outputs, then the job's status.
finish() {
  set_output verdict "$1"
  set_output regressions "${3:-}"
  set_output report-path "${4:-}"
  say "verdict $1 (exit $2)${4:+, report $4}"
  exit "$2"
}

case "$mode" in
  pr | main | nightly)
    # shellcheck source=/dev/null
    . "$here/mode-$mode.sh"
    "run_$mode"
    ;;
  *) fail 64 "mode: '$mode' is not one of pr, main, nightly" ;;
esac
