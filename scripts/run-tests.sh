#!/usr/bin/env bash
# make test: configures and builds the sanitized test build, runs every ctest test (unit,
# end-to-end and the fuzz smoke runs) on every core, then the dashboard's browser tests,
# then the CI files' checks (tests/ci/: the validators and the action's script).
# Prints how long each phase took, the total, and the 20 slowest tests, so that the next
# change to the build or the suite can be compared with this one (docs/development.md).
#
#   run-tests.sh <build folder> [cmake arguments...]
set -euo pipefail

build=$1
shift
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
jobs=$(nproc)

phases=()
started=$(date +%s)
phase() {
  local name=$1
  shift
  local begin
  begin=$(date +%s)
  echo "== make test: $name" >&2
  "$@"
  phases+=("$(printf '%-10s %5d s' "$name" $(($(date +%s) - begin)))")
}

summary() {
  local status=$?
  # What follows only reports: head ending sort's pipe early must not become the status.
  set +e +o pipefail
  echo >&2
  echo "== make test: phases" >&2
  for line in "${phases[@]}"; do echo "   $line" >&2; done
  printf '   %-10s %5d s\n' total $(($(date +%s) - started)) >&2
  # ctest keeps each test's last duration here: the slowest 20.
  local costs="$build/Testing/Temporary/CTestCostData.txt"
  if [ -f "$costs" ]; then
    echo "== make test: the 20 slowest tests (seconds)" >&2
    awk '/^---/ {exit} NF == 3 {printf "%8.1f  %s\n", $3, $1}' "$costs" | sort -rn | head -20 >&2
  fi
  exit "$status"
}
trap summary EXIT

phase configure cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DPERFGATE_SANITIZE=ON \
  -DPERFGATE_BUILD_BENCH=OFF "$@" >/dev/null
phase build cmake --build "$build" --parallel "$jobs"
phase ctest ctest --test-dir "$build" --output-on-failure -j "$jobs"
phase browser env PERFGATE_BIN="$build/perfgate" make --no-print-directory browser-test
phase ci-files bash tests/ci/run.sh "$build"
