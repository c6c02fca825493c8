#!/usr/bin/env bash
# make demo: the whole loop on the embedded SQLite store .perfgate/perfgate.db against the
# example suite: measure, compare (new cohorts need calibration), seed the baselines through
# a reviewed manifest, measure again, compare against the baselines, report.
set -euo pipefail
PG=${1:-build}/perfgate
demo=.perfgate/demo/$(date -u +%Y%m%dT%H%M%SZ)
project=examples/perfgate.toml
mkdir -p "$demo"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

step "perfgate run examples/   (first measurement)"
"$PG" run examples/ --results-dir "$demo/run-1"

step "perfgate compare --upload pass   (new cohorts have no baseline yet)"
"$PG" compare --results-dir "$demo/run-1" --upload pass

step "perfgate baseline prepare   (records that may seed a baseline, for review)"
if "$PG" baseline prepare --project "$project" -o "$demo/manifest.json"; then
  step "perfgate baseline approve   (after review: seed them, all at once)"
  "$PG" baseline approve --project "$project" "$demo/manifest.json"
else
  echo "(the baselines were seeded by an earlier demo)"
fi

step "perfgate run examples/   (second measurement)"
"$PG" run examples/ --results-dir "$demo/run-2" >/dev/null
echo "records in $demo/run-2"

step "perfgate compare --upload pass   (against the rolling baselines)"
"$PG" compare --results-dir "$demo/run-2" --upload pass

step "perfgate report --since 1d"
"$PG" report --since 1d --benchmark 'primes*'

step "perfgate profile   (where each frame of examples/bin/frames spends its time)"
PERFGATE_PROBE_OUT="$demo/probe.json" examples/bin/frames 3 200000 >/dev/null
"$PG" profile "$demo/probe.json"
