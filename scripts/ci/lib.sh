# Helpers of scripts/ci/action.sh, sourced. They speak to GitHub Actions through its
# files ($GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY, workflow commands) and to GitLab CI through
# a dotenv file, so that one script serves both.
# shellcheck shell=bash

ci_provider() { # github, gitlab or local: who ran us, hence whom to comment on
  if [ "${GITHUB_ACTIONS:-}" = true ]; then
    echo github
  elif [ "${GITLAB_CI:-}" = true ]; then
    echo gitlab
  else
    echo local
  fi
}

# Messages, all on stderr (stdout may be a $(...) capturing a value): GitHub turns
# '::warning::' lines into annotations on the run's page; elsewhere they are plain lines.
say() { echo "perfgate-action: $*" >&2; }
warn() {
  if [ "$(ci_provider)" = github ]; then echo "::warning title=perfgate::$*" >&2; else say "warning: $*"; fi
}
fail() { # fail CODE MESSAGE: stop the action with perfgate's exit codes (64 usage, 65 data...)
  local code=$1
  shift
  if [ "$(ci_provider)" = github ]; then echo "::error title=perfgate::$*" >&2; else say "error: $*"; fi
  exit "$code"
}

one_line() { printf '%s' "$1" | tr '\n\r' '  '; } # an output value must not start a new key

# set_output KEY VALUE: a step output on GitHub (key=value in $GITHUB_OUTPUT) and a line
# PERFGATE_KEY=value of $out/perfgate.env, which GitLab's artifacts:reports:dotenv passes
# to later jobs (its names allow letters, digits and underscores only).
set_output() {
  local key=$1 value
  value=$(one_line "$2")
  if [ -n "${GITHUB_OUTPUT:-}" ]; then printf '%s=%s\n' "$key" "$value" >>"$GITHUB_OUTPUT"; fi
  if [ -n "${out:-}" ]; then
    local name
    name=PERFGATE_$(printf '%s' "$key" | tr 'a-z-' 'A-Z_')
    printf '%s=%s\n' "$name" "$value" >>"$out/perfgate.env"
  fi
}

# summary FILE: the Markdown on the job's page. ab and compare append their own reports to
# $GITHUB_STEP_SUMMARY; this is for what the action writes itself.
summary() {
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$1" >>"$GITHUB_STEP_SUMMARY"; fi
}

# json FILE EXPRESSION: a value of a JSON file, `d` being the document (Python, which the
# install step brings: shell has no JSON reader, and jq is not on a Debian image).
json() {
  python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
value = eval(sys.argv[2], {"d": d})
print("" if value is None else value)
PY
}

is_true() { case "${1:-}" in true | True | TRUE | 1 | yes) return 0 ;; *) return 1 ;; esac }

# verdict_of CODE: perfgate's exit codes as a verdict word (docs/cli.md). A mode refines 1,
# which means REGRESSION or an error that the report explains.
verdict_of() {
  case "$1" in
    0) echo PASS ;;
    1) echo REGRESSION ;;
    2) echo INCONCLUSIVE ;;
    129 | 130 | 143) echo INTERRUPTED ;;
    *) echo ERROR ;;
  esac
}
