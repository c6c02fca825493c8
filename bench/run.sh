#!/usr/bin/env bash
# make bench: perfgate's per-run overhead beside hyperfine and a bare posix_spawn loop,
# and what each tool reports for workloads of known cost. Every figure is measured in
# this one run on this machine and printed beside its peer as a ratio.
set -euo pipefail
BUILD=${1:-build}
RUNS=${PERFGATE_BENCH_RUNS:-2000}
# The overhead figures come from this many rounds, each tool once a round: the median of the
# rounds' own ratios, so that a moment of load on the machine does not decide the ratio.
ROUNDS=${PERFGATE_BENCH_ROUNDS:-5}
BUILD=$(cd "$BUILD" && pwd)
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)  # its Python helpers (paired_rounds.py)
PG="$BUILD/perfgate"
tmp=$(mktemp -d)
busy_pids=()
# A busy loop on each core, as on a shared CI runner: runs compete with them for a CPU.
busy_start() {
  for _ in $(seq "$(nproc)"); do "$BUILD/bench/busy_loop" 600000 & busy_pids+=($!); done
}
busy_stop() {
  if ((${#busy_pids[@]} > 0)); then
    kill "${busy_pids[@]}" 2>/dev/null || true
    wait "${busy_pids[@]}" 2>/dev/null || true
  fi
  busy_pids=()
}
# busy_stop, not a bare kill: with no loops left, `kill` fails, and under set -e that made
# the script exit 2 after every figure was printed.
trap 'busy_stop; rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$2 - $1:.6f}')"; }

config() {  # config NAME RUNS COMMAND... -> $tmp/NAME.toml
  local name=$1 runs=$2; shift 2
  local argv
  argv=$(printf '"%s", ' "$@")
  cat > "$tmp/$name.toml" <<TOML
benchmark_id = "$name"
command = [${argv%, }]
[run_config]
num_warmup_runs = 0
num_measurement_runs = $runs
TOML
}

config true "$RUNS" /bin/true
# waited FLOOR_S FLOOR_SLOW PERFGATE_S HYPERFINE_S: a round's totals, and how many runs of
# each took over 3x its median run. Under a busy loop per core such a run is one the kernel
# started on a CPU whose busy loop kept it waiting for the rest of its time slice (about
# 3 ms here): their number decides a busy round more than the harness does
# (docs/measurement.md, "Busy rounds").
waited() {
  python3 - "$@" "$tmp/out" "$tmp/hyperfine.json" <<'PY'
import glob, json, statistics, sys
floor_s, floor_slow, pg_s, hf_s = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
out, hf_json = sys.argv[5], sys.argv[6]
def slow(walls):
    median = statistics.median(walls)
    return sum(w > 3 * median for w in walls)
records = glob.glob(f"{out}/*/perf_*.json")
pg = [r["wall_s"] for r in json.load(open(records[0]))["runs"]] if records else []
hf = json.load(open(hf_json))["results"][0]["times"]
print(f"  round: floor {float(floor_s):.3f} s ({floor_slow} runs over 3x the median), "
      f"perfgate {pg_s:.3f} s ({slow(pg) if pg else '?'}), hyperfine {hf_s:.3f} s ({slow(hf)})")
PY
}
# One tool's turn in a round: its total seconds into the variable named after it.
turn_floor() { floor_round=$("$BUILD/bench/spawn_floor" --count-slow "$RUNS" /bin/true 2>"$tmp/floor-slow"); }
turn_vfork() { vfork_round=$("$BUILD/bench/spawn_floor" --vfork "$RUNS" /bin/true); }
turn_perfgate() {
  local t0 t1
  rm -rf "$tmp/out"
  t0=$(now); "$PG" run "$tmp/true.toml" --results-dir "$tmp/out" --no-progress >/dev/null 2>&1; t1=$(now)
  perfgate_round=$(elapsed "$t0" "$t1")
}
turn_hyperfine() {
  local t0 t1
  t0=$(now); hyperfine -N --runs "$RUNS" --style none --export-json "$tmp/hyperfine.json" /bin/true >/dev/null 2>&1; t1=$(now)
  hyperfine_round=$(elapsed "$t0" "$t1")
}
# overhead LABEL: $ROUNDS rounds, each tool once a round, the order rotated from one round to
# the next (no tool always follows the same one). The goals are judged on the median of the
# rounds' own ratios: each compares tools measured within seconds of each other, while this
# VM's speed moves by 5-10% from one round to the next (docs/measurement.md, "Paired
# rounds"). The best and the median round of each tool are printed beside them, as before.
overhead() {
  local floor_round vfork_round perfgate_round hyperfine_round turn k round
  local floor_rounds=() vfork_rounds=() perfgate_rounds=() hyperfine_rounds=()
  local turns=(turn_floor turn_vfork turn_perfgate turn_hyperfine)
  echo "== Per-run overhead, $1: /bin/true x $RUNS, $ROUNDS rounds, each tool in turn (load $(cut -d' ' -f1 /proc/loadavg)) =="
  for round in $(seq "$ROUNDS"); do
    for k in 0 1 2 3; do
      turn=${turns[$(((k + round - 1) % 4))]}
      "$turn"
    done
    floor_rounds+=("$floor_round")
    vfork_rounds+=("$vfork_round")
    perfgate_rounds+=("$perfgate_round")
    hyperfine_rounds+=("$hyperfine_round")
    waited "$floor_round" "$(cat "$tmp/floor-slow")" "$perfgate_round" "$hyperfine_round"
  done
  PYTHONPATH="$BENCH_DIR" python3 - "$RUNS" "${floor_rounds[*]}" "${vfork_rounds[*]}" \
    "${perfgate_rounds[*]}" "${hyperfine_rounds[*]}" <<'PY'
import statistics, sys
from paired_rounds import paired
runs = int(sys.argv[1])
floor, vfork, pg, hf = ([float(x) for x in rounds.split()] for rounds in sys.argv[2:6])
print(f"{'':28}{'best s':>9}{'median s':>10}{'per run µs':>12}{'vs floor':>10}")
for name, totals in (("posix_spawn+wait4 (floor)", floor), ("vfork+execve+wait4", vfork),
                     ("perfgate run", pg), ("hyperfine -N", hf)):
    med = statistics.median(totals)
    print(f"{name:28}{min(totals):9.3f}{med:10.3f}{med / runs * 1e6:12.1f}"
          f"{med / statistics.median(floor):10.2f}x")
print(f"perfgate / hyperfine: {paired(pg, hf)}   (goal: <= 1.00x)")
print(f"perfgate / floor:     {paired(pg, floor)}   (goal: <= 1.15x)")
print(f"perfgate / vfork:     {paired(pg, vfork)}   (the lowest floor: how perfgate-spawner starts a run)")
print(f"best rounds: perfgate / hyperfine {min(pg) / min(hf):.2f}x, / floor {min(pg) / min(floor):.2f}x")
PY
}
overhead idle
echo
busy_start
sleep "${PERFGATE_BENCH_LOAD_RISE_S:-5}"
overhead "a busy loop on each core"
busy_stop

echo
echo "== Peak memory: perfgate beside the program's own peak (10 runs each) =="
config mem_true 10 /bin/true
config mem_alloc 10 "$BUILD/bench/alloc_touch" 6
"$PG" run "$tmp/mem_true.toml" "$tmp/mem_alloc.toml" --results-dir "$tmp/out3" --json --no-progress \
  > "$tmp/mem.json"
python3 - "$tmp/mem.json" "$("$BUILD/bench/peak_floor" 10 /bin/true)" \
  "$("$BUILD/bench/peak_floor" 10 "$BUILD/bench/alloc_touch" 6)" <<'PY'
import json, sys
pg = {r["benchmark_id"]: r["metrics"]["memory"]["summary"]["max"] for r in json.load(open(sys.argv[1]))}
print(f"{'program':22}{'own peak':>10}{'perfgate':>10}{'perfgate/own':>14}")
for name, label, own in (("mem_true", "/bin/true", sys.argv[2]), ("mem_alloc", "alloc_touch 6 MB", sys.argv[3])):
    own = float(own)
    print(f"{label:22}{own:8.2f}MB{pg[name]:8.2f}MB{pg[name] / own:13.2f}x")
print("own peak: the largest ru_maxrss when started from a tiny static program (peak_floor)")
print("goal: /bin/true < 2 MB; alloc_touch 6 MB reads 6-8 MB")
PY

echo
# The 20 ms busy loop's accuracy (issue 41: within 1% of hyperfine), in $ROUNDS rounds of 10 runs,
# each tool once a round, the order rotated, judged on the median of the rounds' own ratios:
# measured one tool after the other, the two differed by up to 2% when the
# machine's start of a program moved between them (docs/measurement.md, "Paired rounds"). The
# floor's loop (posix_spawn + wait4, nothing else) times the same runs from outside too.
echo "== Known workloads: 20 ms busy loop ($ROUNDS rounds of 10 runs, each tool in turn), 200 MB allocation (10 runs) =="
config busy 10 "$BUILD/bench/busy_loop" 20
config alloc 10 "$BUILD/bench/alloc_touch" 200
mkdir -p "$tmp/accuracy"
# One tool's turn at the busy loop in round $round: its 10 runs' mean, in files of that round.
accuracy_floor() {
  "$BUILD/bench/spawn_floor" 10 "$BUILD/bench/busy_loop" 20 > "$tmp/accuracy/floor-$round"
}
accuracy_perfgate() {
  "$PG" run "$tmp/busy.toml" --results-dir "$tmp/accuracy/out-$round" --json --no-progress \
    > "$tmp/accuracy/perfgate-$round.json" 2>/dev/null  # a load warning per round, as in turn_perfgate
}
accuracy_hyperfine() {
  hyperfine -N --runs 10 --style none --export-json "$tmp/accuracy/hyperfine-$round.json" \
    "$BUILD/bench/busy_loop 20" >/dev/null 2>&1
}
accuracy_turns=(accuracy_floor accuracy_perfgate accuracy_hyperfine)
for round in $(seq "$ROUNDS"); do
  for k in 0 1 2; do "${accuracy_turns[$(((k + round - 1) % 3))]}"; done
done
"$PG" run "$tmp/alloc.toml" --results-dir "$tmp/out2" --json --no-progress > "$tmp/pg.json"
hyperfine -N --runs 10 --style none --export-json "$tmp/hf.json" \
  "$BUILD/bench/alloc_touch 200" >/dev/null 2>&1
PYTHONPATH="$BENCH_DIR" python3 - "$tmp" "$ROUNDS" <<'PY'
import json, statistics, sys
from paired_rounds import paired
tmp, rounds = sys.argv[1], int(sys.argv[2])
def perfgate(path):
    return json.load(open(path))[0]["metrics"]
pg = [perfgate(f"{tmp}/accuracy/perfgate-{r}.json")["latency"]["summary"]["mean"] for r in range(1, rounds + 1)]
hf = [json.load(open(f"{tmp}/accuracy/hyperfine-{r}.json"))["results"][0]["mean"] for r in range(1, rounds + 1)]
floor = [float(open(f"{tmp}/accuracy/floor-{r}").read()) / 10 for r in range(1, rounds + 1)]
print(f"{'busy 20 ms, mean of 10 runs':30}{'median round':>14}{'rounds':>22}")
for name, means in (("perfgate run", pg), ("hyperfine -N", hf), ("posix_spawn+wait4 (floor)", floor)):
    print(f"{name:30}{statistics.median(means) * 1e3:11.2f} ms{min(means) * 1e3:12.2f}-{max(means) * 1e3:.2f} ms")
print(f"perfgate / hyperfine: {paired(pg, hf, 3)}   (goal: within 1%, 0.990-1.010x)")
print(f"perfgate / floor:     {paired(pg, floor, 3)}   (the same runs timed by a bare loop)")
print(f"hyperfine / floor:    {paired(hf, floor, 3)}")
m = perfgate(f"{tmp}/pg.json")
h = json.load(open(f"{tmp}/hf.json"))["results"][0]
hf_mem = f"{max(h['memory_usage_byte']) / 2**20:.1f} MB" if h.get("memory_usage_byte") else "not measured"
print(f"{'alloc 200 MB':18}{'tool':10}{'mean time':>12}{'stdev':>10}{'peak memory':>16}")
print(f"{'':18}{'perfgate':10}{m['latency']['summary']['mean']*1e3:10.2f}ms"
      f"{m['latency']['summary']['stdev']*1e3:8.2f}ms{m['memory']['summary']['max']:13.1f} MB")
print(f"{'':18}{'hyperfine':10}{h['mean']*1e3:10.2f}ms{h['stddev']*1e3:8.2f}ms{hf_mem:>16}")
PY

echo
echo "== Store: append 100,000 normalised records (1,000 cohorts x 100), compare 1,000 =="
"$BUILD/bench/store_bench" 1000 100 "$tmp/dashboard.db"

echo
echo "== Store at scale: 1,000,000 records (10,000 cohorts x 100) in PostgreSQL and SQLite =="
# A throwaway server, as make test starts one (scripts/test-postgres.sh), stopped on exit.
# Its folder is outside $tmp, which the server's user (nobody, under root) cannot enter.
pg_dir=$(mktemp -d -u /tmp/perfgate-bench-pg.XXXXXX)
bash "$(dirname "$0")/../scripts/test-postgres.sh" start "$pg_dir" $$
"$BUILD/bench/store_scale_bench" "$PG" "$pg_dir" 10000 100
bash "$(dirname "$0")/../scripts/test-postgres.sh" stop "$pg_dir"

echo
echo "== perfgate report --format html: the dashboard of that store (100,000 records) =="
python3 - "$PG" "$tmp" <<'PY'
import os, resource, subprocess, sys, time
pg, tmp = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
subprocess.run([pg, "report", "--format", "html", "--store", f"sqlite:{tmp}/dashboard.db",
                "-o", f"{tmp}/site"], check=True, stdout=subprocess.DEVNULL)
wall = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
# data/store.js, and beyond 2 MiB its parts data/store.N.js: what the first screen loads;
# beyond 10,000 records each cohort's details apart in data/cohorts/N.js.
data = f"{tmp}/site/data"
size = sum(os.path.getsize(f"{data}/{f}") for f in os.listdir(data) if f.startswith("store.")) / 1e6
cohorts = f"{data}/cohorts"
apart = sum(os.path.getsize(f"{cohorts}/{f}") for f in os.listdir(cohorts)) / 1e6 if os.path.isdir(cohorts) else 0
print(f"{'':40}{'seconds':>9}{'/ limit':>9}{'peak MiB':>10}{'store*.js MB':>13}{'cohorts/ MB':>12}")
print(f"{'report --format html, 100,000 records':40}{wall:9.3f}{wall / 2:8.2f}x{peak:10.1f}{size:13.1f}{apart:12.1f}")
print("limit (issue 14): the HTML for 100,000 records in under 2 s")
PY

echo
echo "== perfgate history changes: change points of a 10,000-point series (goals: 1 s, 10 ms per append) =="
"$BUILD/bench/changes_bench" 10000 100
echo
echo "== perfgate history changes: precision and recall on the labelled corpora (docs/changes.md) =="
echo "goals (issue 34, on a seed not tuned to): F1 >= 0.85, precision >= 0.90, recall >= 0.95 for"
echo "steps > 4 noise SD and >= 0.70 for 2-4 SD"
"$BUILD/bench/changes_corpus" 400 341 5 0.001 issue34
"$BUILD/bench/changes_corpus" 400 16 5 0.001 issue16
echo
echo "== the statistical A/B rule on simulated and recorded pairs (issue 16's goals; docs/ab.md) =="
# 300 recorded A/A pairs of the 30 ms busy loop: a budget of 0.01% keeps the rule from
# deciding, so every pair runs; their log-ratios are then drawn for 2,000 tries a row.
"$BUILD/perfgate" ab --method stat --repeat-check --base "$BUILD/bench/busy_loop 30" \
  --budget duration=0.01%,0s --budget cpu=0.01%,0s --budget rss=0.01%,0B --max-pairs 300 \
  --out "$tmp/ab-recorded" >/dev/null 2>&1 || true
"$BUILD/bench/ab_stat_sim" 2000 5 "$tmp/ab-recorded/results.json"
echo
echo "== perfgate ab: verdicts on a 30 ms CPU-bound scenario, budgets +5% and +1 ms =="
bash "$(dirname "$0")/ab_verdicts.sh" "$BUILD" 20
echo
echo "== perfgate compare: the interval's coverage on simulated records (docs/compare.md) =="
"$BUILD/bench/compare_coverage" 4000 34
echo
echo "== perfgate run: the TWO_LEVELS warning on simulated records (docs/measurement.md) =="
"$BUILD/bench/two_levels_sim" 20000 5
echo
echo "== perfgate compare: verdicts on the same program and on one 10% slower, idle and busy =="
echo "goals (issue 34): no REGRESSION for the same program; 10% slower REGRESSION in >= 95%"
echo "of the idle tries and never PASS under load (INCONCLUSIVE allowed there)"
bash "$(dirname "$0")/compare_verdicts.sh" "$BUILD" 20

echo
echo "== History flags and their confirmation: make demo's history, idle and under load =="
echo "goals (issues 34, 36): the slowdown flagged and confirmed every time (its instruction"
echo "counts; times listed beside them); no commit that changes no code flagged"
bash "$(dirname "$0")/history_flags.sh" "$BUILD" 5
echo
echo "== ... the same history measured in times only (DEMO_MEASURE='[\"time\"]') =="
MEASURE='["time"]' bash "$(dirname "$0")/history_flags.sh" "$BUILD" 5

echo
echo "== Instruction counts: spread, overhead and compare's verdicts, idle and busy (issue 36) =="
echo "goals: CV of instructions <= 0.01%; the same program never REGRESSION; 1% more work"
echo "REGRESSION in 20 of 20 tries, under load too"
bash "$(dirname "$0")/count_verdicts.sh" "$BUILD" 20

echo
echo "== perfgate bisect: generated repositories of 64 commits, a busy loop on every core (issue 37) =="
echo "goals: the 5% slower commit named 10 of 10 in <= 8 measured commits on average; 1% more"
echo "instructions 10 of 10, one run per tested commit; no change 10 of 10 after one comparison;"
echo "two 3% steps never anything else; 3 commits that do not build skipped, the culprit found"
bash "$(dirname "$0")/bisect_goals.sh" "$BUILD" 10
echo "a step's far values pulled in (what bisect does) or left out, on models of a busy machine's noise:"
python3 "$(dirname "$0")/bisect_far_values.py" 50
echo
echo "== Process start: perfgate --version beside /bin/true, best of 200 starts each =="
# What every command pays before its work: libpq, libgit2, libcrypto and cpp-httplib are
# opened only by the commands that use them (docs/development.md, "Libraries opened on
# first use").
python3 - "$PG" "$("$BUILD/bench/peak_floor" 20 /bin/true)" \
  "$("$BUILD/bench/peak_floor" 20 "$PG" --version | tail -n 1)" <<'PY'
import os, sys, time
def best_ms(argv, starts=200):
    best = 1e9
    for _ in range(starts):
        t0 = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, os.environ,
                             file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
        os.waitpid(pid, 0)
        best = min(best, time.perf_counter() - t0)
    return best * 1e3
floor = (best_ms(["/bin/true"]), float(sys.argv[2]))
pg = (best_ms([sys.argv[1], "--version"]), float(sys.argv[3]))
print(f"{'':24}{'best ms':>9}{'peak MB':>9}")
print(f"{'/bin/true (floor)':24}{floor[0]:9.2f}{floor[1]:9.1f}")
print(f"{'perfgate --version':24}{pg[0]:9.2f}{pg[1]:9.1f}   {pg[0] / floor[0]:.2f}x the floor's "
      f"time, {pg[1] / floor[1]:.2f}x its memory")
print("peak: the largest ru_maxrss of 20 starts from a tiny static program (peak_floor)")
PY

echo
echo "== perfgate diff: two nvbench files of 2,040 states, half with 400 bulk samples (issue 11's pair) =="
bash "$(dirname "$0")/diff_bench.sh" "$BUILD" 2040 400 7 2 27.5
echo
echo "== perfgate diff: two nvbench files of 10,000 states, half with 400 bulk samples =="
# The memory limit scales the 2,040-state one with the number of states.
bash "$(dirname "$0")/diff_bench.sh" "$BUILD" 10000 400 5 2 135

echo
echo "== perfgate history: plan over 100,000 commits, export of 10,000 attempts x 20 cases =="
bash "$(dirname "$0")/history_bench.sh" "$BUILD" 100000 10000 20

echo
echo "== perfgate-probe: ns per empty region (enter + exit) beside two clock reads, 1 and 2 threads =="
# Medians of 10 repetitions: the VM's noise moves a single 0.2 s figure by a nanosecond.
probe_json=$(mktemp)
"$BUILD/bench/probe_bench" --benchmark_min_time=0.2 --benchmark_repetitions=10 \
  --benchmark_report_aggregates_only=true --benchmark_format=json >"$probe_json" 2>/dev/null
python3 - "$probe_json" <<'PY'
import json, sys
rows = {b["run_name"]: b["cpu_time"] for b in json.load(open(sys.argv[1]))["benchmarks"]
        if b.get("aggregate_name") == "median"}
pair = rows["BM_TscReadPair/threads:1"]
floor = rows["BM_MinimalRegionFloor"]
# The goals (issue 12): enabled at most 2x its two clock reads, at most 25 ns with 1,000
# siblings, at most 1 ns switched off.
limits = {"BM_RegionEnabled/threads:1": ("2x two TSC reads", 2 * pair),
          "BM_RegionAmongSiblings/1000": ("25 ns", 25.0),
          "BM_RegionRuntimeDisabled/threads:1": ("1 ns", 1.0)}
print(f"{'median CPU ns of 10':<40}{'ns':>8}{'/ 2 TSC reads':>15}{'/ floor':>9}   limit")
for name, ns in rows.items():
    line = f"{name:<40}{ns:8.2f}{ns / pair:14.2f}x{ns / floor:8.2f}x"
    if name in limits:
        label, limit = limits[name]
        line += f"   / {label} = {ns / limit:.2f}x"
    print(line)
PY
rm -f "$probe_json"

echo
echo "== perfgate-probe: 100,000 distinct region names, called once each, and their report =="
names_out=$(mktemp -d)
read -r names_calls names_report < <("$BUILD/bench/probe_names" 100000 "$names_out/r.json")
names_mb=$(python3 -c "import os; print(os.path.getsize('$names_out/r.json') / 1e6)")
rm -rf "$names_out"
python3 - "$names_calls" "$names_report" "$names_mb" <<'PY'
import sys
calls, report, mb = map(float, sys.argv[1:])
print(f"{'calls':<28}{calls:8.3f} s   / limit 1 s = {calls / 1.0:.2f}x")
print(f"{'report written':<28}{report:8.3f} s   ({mb:.1f} MB)")
PY

echo
echo "== perfgate-probe: 1,000,000 runs, their report, and perfgate profile reading it =="
runs_out=$(mktemp -d)
read -r runs_time runs_report < <("$BUILD/bench/probe_runs" 1000000 "$runs_out/r.json")
runs_mb=$(python3 -c "import os; print(os.path.getsize('$runs_out/r.json') / 1e6)")
view_s=$(python3 - "$BUILD/perfgate" "$runs_out" <<'PY'
import subprocess, sys, time
start = time.monotonic()
subprocess.run([sys.argv[1], "profile", f"{sys.argv[2]}/r.json", "-o", f"{sys.argv[2]}/view.md"], check=True)
print(time.monotonic() - start)
PY
)
view_mb=$("$BUILD/bench/peak_floor" 1 "$BUILD/perfgate" profile "$runs_out/r.json" -o "$runs_out/view.md" --force)
rm -rf "$runs_out"
python3 - "$runs_time" "$runs_report" "$runs_mb" "$view_s" "$view_mb" <<'PY'
import sys
runs, report, mb, view_s, view_mb = map(float, sys.argv[1:])
print(f"{'1,000,000 runs':<28}{runs:8.3f} s   ({runs * 1e3:.0f} ns per run of 3 regions)")
print(f"{'report written':<28}{report:8.3f} s")
print(f"{'report size':<28}{mb:8.3f} MB  / limit 20 MB = {mb / 20:.2f}x")
print(f"{'perfgate profile':<28}{view_s:8.3f} s   / limit 2 s = {view_s / 2:.2f}x")
print(f"{'perfgate profile memory':<28}{view_mb:8.1f} MiB / limit 500 MB = {view_mb / 500:.2f}x")
PY

echo
echo "== perfgate-probe: what a whole program with one run and one region pays, report written =="
# The same program with the probe compiled out is the peer; the limit is issue 12's 0.5 ms,
# idle and with a busy loop on each core (issue 41), beside the floor of any report at exit.
# spawn_pair starts the two in turn, 600 times each, and takes the median of the paired
# differences: this machine's speed drifts within a minute, and two blocks of 300 runs, one
# after the other, measured that drift as the probe's cost. Page faults per run stand beside
# the times: on a VM where a fault costs tens of µs they are most of what the probe adds,
# and their count does not move from run to run as the time does. So does each run's CPU
# time: with a busy loop on each core a run often waits out a loop's time slice (about 3 ms)
# before it gets a CPU, and the paired wall difference then moved from -1.07 to +2.82 ms
# between rounds of the same build, while the CPU time's stayed within 0.20-0.27 ms (why:
# docs/probe.md, "The busy wall figure is the probe's"; bench/probe_under_load.py).
probe_out=$(mktemp -d)
# The floor beside it: the same program writing a ready-made report of the same size at exit,
# the way the probe does (bench/probe_exit_floor.cpp).
probe_pairs() {
  rm -f "$probe_out/r.json"
  PERFGATE_PROBE_OUT="$probe_out/r.json" "$BUILD/bench/spawn_pair" 600 \
    "$BUILD/bench/probe_exit_compiled_out" "$BUILD/bench/probe_exit"
  test -s "$probe_out/r.json" || { echo "probe_exit wrote no report" >&2; exit 1; }
  PERFGATE_PROBE_OUT="$probe_out/floor.json" "$BUILD/bench/spawn_pair" 600 \
    "$BUILD/bench/probe_exit_compiled_out" "$BUILD/bench/probe_exit_floor"
}
idle_pairs=$(probe_pairs)
# The goal holds with a busy loop on each core too (issue 41).
busy_start
busy_pairs=$(probe_pairs)
busy_stop
rm -rf "$probe_out"
# shellcheck disable=SC2086  # each pair's six numbers, split into arguments
python3 - $idle_pairs $busy_pairs <<'PY'
import sys
values = list(map(float, sys.argv[1:]))
print(f"{'per run (median of 600)':<30}{'ms':>8}{'faults':>9}{'CPU ms':>9}")
for state, at in (("idle", 0), ("a busy loop on each core", 12)):
    without, with_probe, added, without_faults, with_faults, added_cpu = values[at:at + 6]
    _, with_floor, floor, _, floor_faults, floor_cpu = values[at + 6:at + 12]
    print(state)
    print(f"{'  probe compiled out':<30}{without:8.3f}{without_faults:9.1f}")
    print(f"{'  probe, report written':<30}{with_probe:8.3f}{with_faults:9.1f}")
    print(f"{'  added by the probe':<30}{added:8.3f}{with_faults - without_faults:9.1f}{added_cpu:9.3f}"
          f"   / limit 0.5 ms = {added / 0.5:.2f}x (CPU {added_cpu / 0.5:.2f}x)")
    print(f"{'  added by a ready report':<30}{floor:8.3f}{floor_faults - without_faults:9.1f}{floor_cpu:9.3f}"
          f"   (the floor: probe / floor = {added / floor:.2f}x)")
print("added: the median of the paired differences; idle the wall and CPU figures agree; with a")
print("busy loop per core the wall one also holds the waits for a CPU that the probe's reading")
print("of its own CPU time can bring (docs/probe.md, \"The busy wall figure is the probe's\")")
PY

echo
echo "== The dashboard: 100,000 records interactive within 1 s (headless Chromium) =="
# The browser tests' load cases with their goal and budgets held (tests only report them):
# each prints ready, data and viewer times per form; the goal is asserted on an idle machine.
if command -v node >/dev/null && [ -d tests/browser/node_modules ]; then
  PERFGATE_BROWSER_GOALS=1 node tests/browser/run.mjs "interactive within" || echo "(a dashboard goal was missed: see above)"
else
  echo "(skipped: run bash scripts/install-deps.sh --browser first)"
fi

echo
echo "== Micro-benchmarks (Google Benchmark) =="
"$BUILD/bench/perfgate_micro" --benchmark_min_time=0.2
