#!/usr/bin/env bash
# make bench, instruction counts (issue 36): a deterministic ~30 ms program (sort_work: 100
# rounds of filling 4,000 integers from a fixed seed and sorting them; 101 rounds is 1% more
# work), idle and with a busy loop on every core.
#  1. Spread: one record of 20 timed runs and 20 counted runs; the coefficient of variation
#     of latency beside that of instructions (goal: instructions <= 0.01%).
#  2. Overhead: the counted run's wall time beside the timed run's (Valgrind's slowdown),
#     and the extra wall time of a `perfgate run` that also counts (2 counted runs).
#  3. Verdicts: a baseline of three records approved, then N tries of `compare` on
#     instructions alone, the same program (goal: no REGRESSION) and 1% more sorting
#     (goal: REGRESSION every time), under load as idle. The policy is 0.5%: a count repeats
#     exactly, so a budget below the change to catch is safe (the built-in 1% would sit on
#     a 1% change). Then the same with `ab --measure instructions --budget instructions=0.5%`.
# The counter is Valgrind's (run_config.counter = "valgrind"), so that the figures are the
# same on a machine with hardware counters. Usage: count_verdicts.sh BUILD [N]
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
printf '[baseline]\ntrusted_run_sources = ["local"]\n[policies.instructions]\nthreshold_percent = 0.005\nthreshold_absolute = 0\n' > perfgate.toml

config() {  # config RUNS COUNT_RUNS MEASURE
  cat > sort.toml <<TOML
benchmark_id = "sort-work"
config_schema_version = 2
workload_id = "sort-work"
variant_id = "20000"
benchmark_version = 1
command = ["$BUILD/bench/sort_work", "@$tmp/rounds"]
[run_config]
num_warmup_runs = 1
num_measurement_runs = $1
num_count_runs = $2
counter = "valgrind"
measure = $3
TOML
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

spread() {  # spread STATE: one record, 20 timed and 20 counted runs
  echo 100 > rounds
  config 20 20 '["time", "instructions"]'
  rm -rf spread
  "$PG" run sort.toml -r spread --no-progress --json > spread.json 2>/dev/null
  python3 - "$1" spread.json <<'PY'
import json, statistics, sys
record = json.load(open(sys.argv[2]))[0]
def cv(name):
    s = record["metrics"][name]["samples"]
    return statistics.pstdev(s) / statistics.mean(s) * 100, statistics.mean(s)
lat, lat_mean = cv("latency")
ins, ins_mean = cv("instructions")
print(f"{sys.argv[1]:6} CV latency {lat:7.3f}%   CV instructions {ins:9.6f}% "
      f"(goal <= 0.01%)   {ins_mean / 1e6:.2f} M instructions, latency {lat_mean * 1e3:.1f} ms")
PY
}

overhead() {  # overhead STATE: Valgrind's slowdown, and what counting adds to a run
  echo 100 > rounds
  local t0 t1 t2 native counted
  t0=$(date +%s.%N)
  for _ in 1 2 3 4 5; do "$BUILD/bench/sort_work" "@$tmp/rounds" || true; done
  t1=$(date +%s.%N)
  for _ in 1 2 3 4 5; do
    # As perfgate's Valgrind counter runs it (count/counter_backend.cpp).
    valgrind --tool=callgrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 \
      --LL=8388608,16,64 --combine-dumps=yes --dump-line=no --callgrind-out-file=/dev/null -q \
      "$BUILD/bench/sort_work" "@$tmp/rounds" 2>/dev/null || true
  done
  t2=$(date +%s.%N)
  native=$(echo "($t1 - $t0) / 5" | bc -l)
  counted=$(echo "($t2 - $t1) / 5" | bc -l)
  config 10 2 '["time"]'
  local r0 r1 r2
  r0=$(date +%s.%N); "$PG" run sort.toml -r o1 --no-progress >/dev/null 2>&1; r1=$(date +%s.%N)
  config 10 2 '["time", "instructions"]'
  "$PG" run sort.toml -r o2 --no-progress >/dev/null 2>&1; r2=$(date +%s.%N)
  printf '%-6s one run %.1f ms, under callgrind %.0f ms: slowdown %.1fx; perfgate run of 10 timed runs %.2f s, with 2 counted runs too %.2f s (+%.2f s)\n' \
    "$1" "$(echo "$native * 1000" | bc -l)" "$(echo "$counted * 1000" | bc -l)" \
    "$(echo "$counted / $native" | bc -l)" "$(echo "$r1 - $r0" | bc -l)" \
    "$(echo "$r2 - $r1" | bc -l)" "$(echo "$r2 - $r1 - ($r1 - $r0)" | bc -l)"
}

verdicts() {  # verdicts STATE: N A/A tries and N tries of 1% more work, on instructions
  export PERFGATE_STORE="sqlite:$tmp/store-$1.db"
  config 10 2 '["instructions"]'
  echo 100 > rounds
  for i in 1 2 3; do
    "$PG" run sort.toml -r "seed-$1/$i" --no-progress >/dev/null 2>&1
    "$PG" compare --init --all -r "seed-$1/$i" --upload pass >/dev/null 2>&1 || true
  done
  "$PG" baseline prepare --allow-mixed-commits -o "seed-$1.json" >/dev/null 2>&1
  "$PG" baseline approve "seed-$1.json" >/dev/null 2>&1
  echo 100 > base-rounds
  local label work kind
  for kind in compare ab; do
    for label in "same program" "1% more work"; do
      work=100
      [ "$label" = "same program" ] || work=101
      echo "$work" > rounds
      local pass=0 regression=0 inconclusive=0 other=0
      for i in $(seq 1 "$N"); do
        local rc=0
        if [ "$kind" = compare ]; then
          rm -rf out
          "$PG" run sort.toml -r out --no-progress >/dev/null 2>&1 || true
          "$PG" compare -r out >/dev/null 2>&1 || rc=$?
        else
          "$PG" ab --measure instructions --budget instructions=0.5% \
            --base "$BUILD/bench/sort_work @$tmp/base-rounds" \
            --head "$BUILD/bench/sort_work @$tmp/rounds" --out "ab-$1-$work-$i" >/dev/null 2>&1 ||
            rc=$?
        fi
        case $rc in 0) pass=$((pass+1));; 1) regression=$((regression+1));;
          2) inconclusive=$((inconclusive+1));; *) other=$((other+1));; esac
      done
      printf '%-6s %-22s%6d%12d%14d%7d%8s\n' "$1" "$kind, $label" "$pass" "$regression" \
        "$inconclusive" "$other" "$(cut -d' ' -f1 /proc/loadavg)"
    done
  done
}

for state in ${STATES:-idle busy}; do
  load "$state"
  if [ "$state" = busy ]; then sleep "${LOAD_RISE_S:-20}"; fi
  spread "$state"
  overhead "$state"
  printf '%-6s %-22s%6s%12s%14s%7s%8s\n' "" "$N tries" PASS REGRESSION INCONCLUSIVE error load
  verdicts "$state"
done
load idle
