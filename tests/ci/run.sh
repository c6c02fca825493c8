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
# The main mode measures the example suite, whose programs only the optimised build makes
# (the sanitized build of make test skips them: examples/CMakeLists.txt). On a fresh clone,
# build just those programs in a build folder of their own.
if [ ! -x "$repo/examples/bin/primes" ] || [ ! -x "$repo/examples/bin/frames" ]; then
  echo "ci-files: building the example suite's programs (build-examples/)" >&2
  cmake -S "$repo" -B "$repo/build-examples" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DPERFGATE_BUILD_TESTS=OFF -DPERFGATE_BUILD_BENCH=OFF >/dev/null
  cmake --build "$repo/build-examples" --target example_primes example_memory_tree \
    example_pipeline example_frames >/dev/null
fi
status=0
node "$repo/tests/ci/validate.mjs" || status=$?
bash "$repo/tests/ci/action-test.sh" "$build/perfgate" || status=$?
exit "$status"
