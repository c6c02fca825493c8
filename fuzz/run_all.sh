#!/usr/bin/env bash
# make fuzz: runs every fuzz target (or those named) for a time budget each and prints
# what each did. Exits 1 when any target found a crash, a hang or an oversized allocation;
# the input that caused it is in <build>/fuzz/work/<target>/findings/.
#
#   run_all.sh <fuzz build folder> <seconds per target> <jobs> [target...]
set -euo pipefail

build=$1 seconds=$2 jobs=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for dir in "$here"/corpus/*/; do targets+=("$(basename "$dir")"); done
fi
work="$build/fuzz/work"
mkdir -p "$work"

run_one() {
  local target=$1
  local log="$work/$target.log"
  echo "fuzz: $target for ${seconds}s (log: $log)" >&2
  if bash "$here/run_fuzzer.sh" "$build/fuzz/fuzz_$target" "$target" "$work/$target" \
    -max_total_time="$seconds" >"$log" 2>&1; then
    echo ok >"$work/$target.result"
  else
    echo FAILED >"$work/$target.result"
  fi
}
export -f run_one
export here build work seconds
printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one {}'

status=0
printf '\n%-28s %8s %12s  %s\n' target seconds executions result
for target in "${targets[@]}"; do
  result=$(cat "$work/$target.result" 2>/dev/null || echo "not run")
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$target.log" | tail -1)
  time=$(sed -n 's/.*Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$work/$target.log" | tail -1)
  printf '%-28s %8s %12s  %s\n' "$target" "${time:-?}" "${runs:-?}" "$result"
  if [ "$result" != ok ]; then
    status=1
    ls "$work/$target/findings/" 2>/dev/null | sed "s|^|    $work/$target/findings/|"
  fi
done
exit $status
