#!/usr/bin/env bash
# make bench, compare part (issue 34): how `perfgate compare` (--method stat, the default,
# and --method seed beside it) judges the same program and a program doing 10% more work,
# N tries a row, on an idle machine and with a busy loop on every core. The workload is
# fixed_work (a fixed amount of CPU work, ~30 ms idle), 10 runs a record; its baseline is
# five records approved at the start, on the idle machine; the policy is the built-in 8%.
# Goals: no REGRESSION for the same program, idle or loaded; 10% more work REGRESSION in
# >= 95% of the idle tries, and never PASS under load. Usage: compare_verdicts.sh BUILD [N]
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
N=${2:-20}
PG="$BUILD/perfgate"
tmp=$(mktemp -d)
hogs=()
cleanup() {
  for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

cd "$tmp"
mkdir suite
printf '[baseline]\ntrusted_run_sources = ["local"]\n' > suite/perfgate.toml
cat > suite/work.toml <<TOML
benchmark_id = "fixed-work"
config_schema_version = 2
workload_id = "fixed-work"
variant_id = "cpu"
benchmark_version = 1
command = "$BUILD/bench/fixed_work \$(cat $tmp/suite/millions)"
[run_config]
num_warmup_runs = 1
num_measurement_runs = 10
TOML
echo 30 > suite/millions
export PERFGATE_STORE="sqlite:$tmp/store.db"

# The baseline: five records of the idle machine, approved as one batch.
for i in 1 2 3 4 5; do "$PG" run suite --results-dir "seed/$i" >/dev/null 2>&1; done
for i in 1 2 3 4 5; do
  "$PG" compare --init --all -r "seed/$i" --upload pass >/dev/null 2>&1 || true
done
"$PG" baseline prepare --project suite/perfgate.toml --allow-mixed-commits -o seed.json >/dev/null
"$PG" baseline approve --project suite/perfgate.toml seed.json | tail -n 1

load() {  # a busy loop on every core, or none
  for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
  hogs=()
  if [ "$1" = busy ]; then
    for _ in $(seq 1 "$(nproc)"); do
      sh -c 'while :; do :; done' &
      hogs+=($!)
    done
  fi
}

verdicts() {  # verdicts LABEL MILLIONS METHOD -> one line of counts
  local label=$1 millions=$2 method=$3
  local pass=0 regression=0 inconclusive=0 other=0
  echo "$millions" > suite/millions
  for i in $(seq 1 "$N"); do
    rm -rf out
    "$PG" run suite --results-dir out >/dev/null 2>&1 || true
    local rc=0
    "$PG" compare -r out --method "$method" >/dev/null 2>&1 || rc=$?
    case $rc in 0) pass=$((pass+1));; 1) regression=$((regression+1));; 2) inconclusive=$((inconclusive+1));; *) other=$((other+1));; esac
  done
  printf '%-44s%6d%12d%14d%7d%8.1f\n' "$label" "$pass" "$regression" "$inconclusive" "$other" \
    "$(cut -d' ' -f1 /proc/loadavg)"
}

printf '%-44s%6s%12s%14s%7s%8s\n' "$N tries a row" PASS REGRESSION INCONCLUSIVE error load
for state in idle busy; do
  load "$state"
  for method in stat seed; do
    verdicts "$method, $state: same program" 30 "$method"
    verdicts "$method, $state: 10% more work" 33 "$method"
  done
done
load idle
