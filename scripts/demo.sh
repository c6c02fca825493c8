#!/usr/bin/env bash
# make demo: the whole loop on the embedded SQLite store .perfgate/perfgate.db against the
# example suite: measure, compare (new cohorts need calibration), seed the baselines through
# a reviewed manifest, measure again, compare against the baselines, report; then re-seed a
# cohort whose level legitimately moved; last, the commit history of a small repository.
set -euo pipefail
PG=${1:-build}/perfgate
demo=.perfgate/demo/$(date -u +%Y%m%dT%H%M%SZ)
project=examples/perfgate.toml
mkdir -p "$demo"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

# compare against the store, which keeps the baselines of earlier demos: a rerun on a busy
# machine can find a gated metric past its threshold, or an interval across it. Those
# verdicts (exit 1, exit 2) are results to show, not a failed demo; any other failure still
# stops it.
compare_or_show() {
  local status=0
  "$PG" compare "$@" || status=$?
  if [ "$status" -eq 1 ]; then
    echo "(exit 1: a REGRESSION against the baselines an earlier demo stored, from noise on" \
      "this machine or a real change; --upload pass stored the passing records only)"
  elif [ "$status" -eq 2 ]; then
    echo "(exit 2: INCONCLUSIVE: an interval straddles its threshold, so compare --method stat" \
      "will not guess; rerun, or raise the repetitions)"
  elif [ "$status" -ne 0 ]; then
    exit "$status"
  fi
}

step "perfgate run examples/   (first measurement)"
"$PG" run examples/ --results-dir "$demo/results"

step "perfgate compare --upload pass   (new cohorts have no baseline yet)"
compare_or_show --results-dir "$demo/results" --upload pass

step "perfgate baseline prepare   (records that may seed a baseline, for review)"
if "$PG" baseline prepare --project "$project" -o "$demo/manifest.json"; then
  step "perfgate baseline approve   (after review: seed them, all at once)"
  "$PG" baseline approve --project "$project" "$demo/manifest.json"
else
  echo "(the baselines were seeded by an earlier demo)"
fi

step "perfgate run examples/   (second measurement)"
# Into the same results folder: each run gets its own run-<stamp>/ folder in it.
"$PG" run examples/ --results-dir "$demo/results" >/dev/null
echo "records in $(ls -d "$demo"/results/run-* | tail -1)"

step "perfgate compare --upload pass --confirm 3   (the newest run, against the rolling baselines)"
# A state judged REGRESSION or INCONCLUSIVE is measured 3 more times before it is reported:
# a busy moment of this machine is not a regression (docs/compare.md, "Confirmation").
compare_or_show --results-dir "$demo/results" --upload pass --confirm 3

step "perfgate report --since 1d"
"$PG" report --since 1d --benchmark 'primes*'

# A benchmark whose speed moves with "the toolchain" (a delay file outside its recipe, so
# the cohort stays the same), in a new cohort for every demo.
tool=$PWD/$demo/toolchain
mkdir -p "$tool"
# The re-seeding flow is seed 000's, where the median of five decides (--method seed):
# under --method stat the old level stays in the baseline's spread until it rolls out
# (docs/compare.md, "After a re-seed").
printf '[policy]\nmethod = "seed"\n\n[baseline]\ntrusted_run_sources = ["scheduled_main", "local"]\n' \
  >"$tool/perfgate.toml"
cat >"$tool/toolchain.toml" <<EOF
benchmark_id = "toolchain"
config_schema_version = 2
workload_id = "toolchain-upgrade"
variant_id = "demo-$(basename "$demo")"
benchmark_version = 1
description = "Stands in for a program whose speed moved with a compiler upgrade"
command = "sleep \$(cat $tool/delay)"
[run_config]
num_warmup_runs = 0
num_measurement_runs = 3
[regression_thresholds.latency]
threshold_percent = 0.08
threshold_absolute = 0.2
EOF
measure_toolchain() { # measure_toolchain RESULTS_DIR UPLOAD [COMPARE FLAGS...]
  "$PG" run "$tool" --results-dir "$demo/$1" >/dev/null
  "$PG" compare --results-dir "$demo/$1" --project "$tool/perfgate.toml" --upload "$2" "${@:3}"
}

step "re-seeding: 'toolchain' takes 0.1 s; seed its first baseline"
echo 0.1 >"$tool/delay"
measure_toolchain toolchain-1 pass >/dev/null
"$PG" baseline prepare --project "$tool/perfgate.toml" --benchmark toolchain \
  -o "$demo/toolchain-calibration.json" >/dev/null
"$PG" baseline approve --project "$tool/perfgate.toml" "$demo/toolchain-calibration.json"

step "after a compiler upgrade it takes 0.6 s: compare --confirm 3 measures it again, and it holds"
echo 0.6 >"$tool/delay"
measure_toolchain toolchain-2 always --confirm 3 ||
  echo "(exit $?: REGRESSION, confirmed, stored with --upload always)"
measure_toolchain toolchain-3 always >/dev/null || echo "(exit $?: REGRESSION again, stored)"

step "perfgate baseline prepare --reseed   (the reviewed new level, to advance the median)"
"$PG" baseline prepare --reseed --project "$tool/perfgate.toml" --benchmark toolchain \
  -o "$demo/toolchain-reseed.json"

step "perfgate baseline approve   (after review; approving it again changes nothing)"
"$PG" baseline approve --project "$tool/perfgate.toml" "$demo/toolchain-reseed.json"
"$PG" baseline approve --project "$tool/perfgate.toml" "$demo/toolchain-reseed.json"

step "perfgate compare   (the new level passes)"
measure_toolchain toolchain-4 pass || echo "(exit $?: the new level's interval was not yet decided)"

step "perfgate profile   (where each frame of examples/bin/frames spends its time)"
PERFGATE_PROBE_OUT="$demo/probe.json" examples/bin/frames 3 200000 >/dev/null
"$PG" profile "$demo/probe.json"

# The commit history of a small repository built for the demo (scripts/history_demo.sh):
# every commit measured once, kept in the archive branch, exported for the dashboard.
bash scripts/history_demo.sh "$PG" "$demo/history"

# The dashboard: the store's records per cohort and the history above, as a folder that
# opens from disk (docs/dashboard.md). `perfgate serve` shows the same, live.
step "perfgate report --format html --history history.json -o site/"
"$PG" report --format html --history "$demo/history/site/history.json" -o site --force
echo "open $(pwd)/site/index.html in a browser, or run: $PG serve --history $demo/history/site/history.json"
