#!/usr/bin/env bash
# The CI files' phase of make test (docs/ci.md, "Checking the CI files"): installs the pinned
# validators when missing, validates action.yml, the example GitHub workflows and the GitLab
# templates (validate.mjs), then runs the action's script in every mode with a fake GitHub
# environment (action-test.sh).
#
#   tests/ci/run.sh BUILD    BUILD: the build folder whose perfgate the action test uses
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:?usage: tests/ci/run.sh BUILD (a build folder with perfgate)}
case "$build" in /*) ;; *) build=$repo/$build ;; esac

bash "$repo/scripts/install-ci-deps.sh"
status=0
node "$repo/tests/ci/validate.mjs" || status=$?
bash "$repo/tests/ci/action-test.sh" "$build/perfgate" || status=$?
exit "$status"
