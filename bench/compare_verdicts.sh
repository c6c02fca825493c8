#!/usr/bin/env bash
# make bench, compare part (issue 34): how `perfgate compare` (--method stat, the default,
# and --method seed beside it) judges the same program and a program 10% slower, N tries a
# row, on an idle machine and with a busy loop on every core. The workload is fixed_work (a
# fixed amount of CPU work, ~40 ms idle), RUNS runs a record (10 unless told). The slower
# program does the extra work that makes its whole run 10% longer, measured here first: 10%
# more work alone is only ~9% slower, as every run also pays the program's start (~4 ms).
# For each state (idle, busy) a new store gets a baseline of ten records measured in that
# state and approved as one batch (the rolling baseline is the newest five; --method stat takes the
# spread between records from all ten), so both sides of every comparison met the same
# machine: an A/A check. The policy is 5% for latency and cpu_time (as ab's check budgets
# +5%), the built-in 5% for memory; no absolute floor (--method stat's default).
# Goals: no REGRESSION for the same program, idle or loaded; 10% slower REGRESSION in
# >= 95% of the idle tries, and never PASS under load. The stat rows are repeated with
# --confirm 5. Then (state "mixed") the baseline measured idle and the records with a busy
# loop on every core: no REGRESSION either way, the machine's load is not the code's
# (issue 34). STATES="idle busy mixed" by default. SEED_GAP_S=10 seeds the ten records 10 s
# apart (0 by default: back to back), at several moments of the machine, as a baseline that
# rolls with CI runs holds them. Last in each state, two rows whose every try first measures
# the unchanged program and offers its record to the baseline (`--upload pass`), as nightly
# builds on main roll a CI baseline (ROLLING=0 leaves them out).
# Usage: compare_verdicts.sh BUILD [N]
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
N=${2:-20}
RUNS=${RUNS:-10}
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
cat > suite/perfgate.toml <<'TOML'
[baseline]
trusted_run_sources = ["local"]
[policies.latency]
threshold_percent = 0.05
threshold_absolute = 0
[policies.cpu_time]
threshold_percent = 0.05
threshold_absolute = 0
TOML
cat > suite/work.toml <<TOML
benchmark_id = "fixed-work"
config_schema_version = 2
workload_id = "fixed-work"
variant_id = "cpu"
benchmark_version = 1
command = ["$BUILD/bench/fixed_work", "@$tmp/suite/millions"]
[run_config]
num_warmup_runs = 1
num_measurement_runs = $RUNS
TOML

# The slower program: the rounds whose time is a tenth of the whole run of 30 million, start
# included, from the median CPU time (user + system) of 21 interleaved runs of 0 and 30.
slower=$(python3 - "$BUILD/bench/fixed_work" <<'PY'
import os, statistics, sys
def cpu(millions):
    pid = os.posix_spawn(sys.argv[1], [sys.argv[1], str(millions)], os.environ)
    ru = os.wait4(pid, 0)[2]
    return ru.ru_utime + ru.ru_stime
start, whole = [], []
for _ in range(21):
    start.append(cpu(0))
    whole.append(cpu(30))
start, whole = statistics.median(start), statistics.median(whole)
print(f"{30 + 0.1 * whole / ((whole - start) / 30):.2f}")
PY
)
echo "the slower program: $slower million rounds against 30 (10% of the whole run's CPU time)," \
  "$RUNS runs a record" >&2

seed_baseline() {  # seed_baseline STATE: a new store, ten records of this state approved
  export PERFGATE_STORE="sqlite:$tmp/store-$1.db"
  echo 30 > suite/millions
  rm -rf seed
  for i in $(seq 1 10); do
    if [ "$i" -gt 1 ]; then sleep "${SEED_GAP_S:-0}"; fi
    "$PG" run suite --results-dir "seed/$i" >/dev/null 2>&1
  done
  for i in $(seq 1 10); do
    "$PG" compare --init --all -r "seed/$i" --upload pass >/dev/null 2>&1 || true
  done
  "$PG" baseline prepare --project suite/perfgate.toml --allow-mixed-commits -o "seed-$1.json" \
    >/dev/null
  echo "$1 (seeded ${SEED_GAP_S:-0} s apart): $("$PG" baseline approve --project suite/perfgate.toml "seed-$1.json" | tail -n 1)"
}

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

# Before an idle baseline: waits (at most SETTLE_S seconds, default 180) until the 1-minute
# load average is under half the cores. In make bench this script follows sections with a
# busy loop on every core; an "idle" run begun at a load of 2.5 met a machine whose level
# moved +4% in its first minute (docs/compare.md, the runs of 2026-12-07).
settle() {
  local waited=0 limit=${SETTLE_S:-180}
  while [ "$waited" -lt "$limit" ] &&
    ! awk -v cores="$(nproc)" '{ exit !($1 < cores / 2) }' /proc/loadavg; do
    sleep 5
    waited=$((waited + 5))
  done
  echo "idle: waited ${waited} s for the load average to fall (now $(cut -d' ' -f1 /proc/loadavg))" >&2
}

# verdicts LABEL MILLIONS METHOD [CONFIRM_RUNS] [rolling] -> one line of counts. With
# `rolling`, each try first measures the unchanged program and offers its record to the
# baseline (compare --upload pass: a PASS joins it, as a nightly build's record on main
# does), so the baseline rolls with the machine's moments as it does in CI.
verdicts() {
  local label=$1 millions=$2 method=$3 confirm=${4:-0} rolling=${5:-}
  local pass=0 regression=0 inconclusive=0 other=0
  why=""
  for i in $(seq 1 "$N"); do
    if [ "$rolling" = rolling ]; then
      echo 30 > suite/millions
      rm -rf main
      "$PG" run suite --results-dir main >/dev/null 2>&1 || true
      "$PG" compare -r main --method "$method" --upload pass >/dev/null 2>&1 || true
    fi
    echo "$millions" > suite/millions
    rm -rf out
    "$PG" run suite --results-dir out >/dev/null 2>&1 || true
    local rc=0
    COLUMNS=400 "$PG" compare -r out --method "$method" --confirm "$confirm" >"$tmp/said" \
      2>/dev/null || rc=$?
    case $rc in 0) pass=$((pass+1));; 1) regression=$((regression+1));; 2) inconclusive=$((inconclusive+1));; *) other=$((other+1));; esac
    # What the first verdict that was not PASS said, to read beside the counts.
    if [ "$rc" -ne 0 ] && [ -z "${why:-}" ]; then why=$(head -n 1 "$tmp/said" | cut -c1-160); fi
  done
  printf '%-44s%6d%12d%14d%7d%8.1f\n' "$label" "$pass" "$regression" "$inconclusive" "$other" \
    "$(cut -d' ' -f1 /proc/loadavg)"
  if [ -n "$why" ]; then echo "    first other verdict: $why"; fi
}

mixed() {  # the baseline measured idle, the records under load: the load must not be blamed
  load idle
  if [ ! -f "$tmp/store-idle.db" ]; then
    settle
    seed_baseline idle >&2
  fi
  export PERFGATE_STORE="sqlite:$tmp/store-idle.db"
  load busy
  sleep "${LOAD_RISE_S:-60}"  # the 1-minute load average records say catches up
  verdicts "stat, busy vs idle baseline: same program" 30 stat
  verdicts "stat, busy vs idle baseline: 10% slower" "$slower" stat
  verdicts "stat --confirm 5, busy vs idle: same program" 30 stat 5
}

printf '%-44s%6s%12s%14s%7s%8s\n' "$N tries a row" PASS REGRESSION INCONCLUSIVE error load
for state in ${STATES:-idle busy mixed}; do  # STATES=busy: only the loaded rows
  if [ "$state" = mixed ]; then mixed; continue; fi
  load "$state"
  # The baseline is seeded once the 1-minute load average has caught up with the loops, so
  # that its records say the load they were measured under, as the tries' records will.
  if [ "$state" = busy ]; then sleep "${LOAD_RISE_S:-60}"; else settle; fi
  seed_baseline "$state" >&2
  for method in stat seed; do
    verdicts "$method, $state: same program" 30 "$method"
    verdicts "$method, $state: 10% slower" "$slower" "$method"
  done
  # A REGRESSION or INCONCLUSIVE state measured 5 more times before it counts.
  verdicts "stat --confirm 5, $state: same program" 30 stat 5
  verdicts "stat --confirm 5, $state: 10% slower" "$slower" stat 5
  # Last, as they move the baseline: each try beside a record of the unchanged program that
  # joins the baseline when it passes (ROLLING=0 leaves these rows out).
  if [ "${ROLLING:-1}" = 1 ]; then
    verdicts "stat, $state, rolling: same program" 30 stat 0 rolling
    verdicts "stat, $state, rolling: 10% slower" "$slower" stat 0 rolling
  fi
done
load idle
