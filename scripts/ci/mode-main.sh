# mode main, sourced by scripts/ci/action.sh: `perfgate run` of the suite, then `perfgate
# compare` of the run against the store's rolling baselines, storing what passed.
# shellcheck shell=bash disable=SC2154 # pg, out, root: set by action.sh, which sources this

run_main() {
  if [ -n "${INPUT_BUILD:-}" ]; then
    say "building"
    # 1, as a failed run: 2 would read as INCONCLUSIVE.
    bash -euo pipefail -c "$INPUT_BUILD" || { warn "the build failed: see the log above"; finish ERROR 1 "" ""; }
  fi

  local args=(run "${INPUT_SUITE:-benchmarks/}" --results-dir "$out/results" --no-progress --no-color)
  if [ -n "${INPUT_MEASURE:-}" ]; then args+=(--measure "$INPUT_MEASURE"); fi
  if [ -n "${INPUT_RUN_SOURCE:-}" ]; then args+=(--run-source "$INPUT_RUN_SOURCE"); fi
  if [ -n "${INPUT_TIMEOUT:-}" ]; then args+=(--timeout "$INPUT_TIMEOUT"); fi
  local run_rc=0
  # The benchmarks run without the store's URL: it names a password.
  "$pg" "${args[@]}" || run_rc=$?
  # 1 is a threshold breach or a failed run, which compare judges (--run-rc); anything
  # else (a bad suite, 65/66) produced no records to compare.
  case "$run_rc" in
    0 | 1) ;;
    *) finish "$(verdict_of "$run_rc")" "$run_rc" "" "" ;;
  esac

  args=(compare --results-dir "$out/results" --reports-dir "$out/reports" --upload "${INPUT_UPLOAD:-pass}"
    --run-rc "$run_rc" --no-color)
  if is_true "${INPUT_INIT_STORE:-}"; then args+=(--init); fi
  if [ -n "${INPUT_METHOD:-}" ]; then args+=(--method "$INPUT_METHOD"); fi
  if [ -n "${INPUT_CONFIRM:-}" ]; then args+=(--confirm "$INPUT_CONFIRM"); fi
  local rc=0
  if [ -n "$store_url" ]; then
    PERFGATE_STORE=$store_url "$pg" "${args[@]}" || rc=$?
  else
    "$pg" "${args[@]}" || rc=$?
  fi

  local report="" regressions="" verdict
  report=$(find "$out/reports" -maxdepth 1 -name 'perf_*.md' 2>/dev/null | sort | tail -1)
  if compgen -G "$out/reports/normalized_perf_*.json" >/dev/null; then
    regressions=$(python3 - "$out"/reports/normalized_perf_*.json <<'PY'
import json, sys
print(sum(json.load(open(f)).get("comparison_status") == "REGRESSION" for f in sys.argv[1:]))
PY
)
  fi
  verdict=$(verdict_of "$rc")
  # Exit 1 without a REGRESSION record is INFRA_ERROR or RECIPE_MISMATCH: the report says which.
  if [ "$rc" -eq 1 ] && [ "${regressions:-0}" -eq 0 ]; then verdict=ERROR; fi
  finish "$verdict" "$rc" "$regressions" "$report"
}
