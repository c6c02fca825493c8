#!/usr/bin/env bash
# perfgate diff at scale: two nvbench results of STATES states, every BULK_EVERY-th state
# with SAMPLES bulk samples (times and clock frequencies), compared REPS times. Prints
# states/s and peak memory, each beside its limit as a ratio, and beside the floor: the
# same files read in C (read_floor), on one thread and on every core, with nothing else
# done; the default text output and --format json are both measured. The limits are
# issue 11's: >= 100,000 states/s (50x nvbench's own Python
# comparator, 0.92 s for 2,040 states) and a peak of at most a quarter of that
# comparator's (110 MB for 2,040 states; LIMIT_MB). With NVBENCH_COMPARE set to nvbench's
# scripts/nvbench_compare.py, that peer is measured here too, on the same files.
#   bench/diff_bench.sh BUILD [STATES] [SAMPLES] [REPS] [BULK_EVERY] [LIMIT_MB]
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
STATES=${2:-2040}
SAMPLES=${3:-400}
REPS=${4:-5}
BULK_EVERY=${5:-2}
LIMIT_MB=${6:-27.5}
PG="$BUILD/perfgate"
GEN="$BUILD/bench/gen_nvbench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$GEN" "$tmp/ref.json" "$STATES" "$SAMPLES" 1 0 "$BULK_EVERY"
"$GEN" "$tmp/cmp.json" "$STATES" "$SAMPLES" 2 0.1 "$BULK_EVERY"

(cd "$tmp" && "$BUILD/bench/read_floor" 1 "$REPS" ref.json cmp.json) > "$tmp/floor1"
(cd "$tmp" && "$BUILD/bench/read_floor" "$(nproc)" "$REPS" ref.json cmp.json) > "$tmp/floorN"

python3 - "$tmp" "$PG" "$STATES" "$REPS" "$LIMIT_MB" "${NVBENCH_COMPARE:-}" "$(nproc)" <<'PY'
import glob, os, resource, statistics, subprocess, sys, time
tmp, pg, states, reps, limit_mb, peer = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
cores = int(sys.argv[7])
json_bytes = sum(os.path.getsize(os.path.join(tmp, f)) for f in ("ref.json", "cmp.json"))
bins = glob.glob(os.path.join(tmp, "*-bin", "*.bin"))
bin_bytes = sum(os.path.getsize(b) for b in bins)
with_bulk = len(glob.glob(os.path.join(tmp, "ref.json-bin", "*.bin")))
print(f"{states:,} states per file, {with_bulk:,} of them with bulk files; JSON "
      f"{json_bytes / 2e6:.1f} MB per file, {len(bins):,} bulk files ({bin_bytes / 1e6:.1f} MB)")

def measure(argv, reps):
    """Best and median wall seconds and the peak RSS (MB) of `reps` runs, each run in a
    fresh child so that ru_maxrss is that child's own peak."""
    walls, peaks = [], []
    for _ in range(reps):
        pid = os.fork()
        if pid == 0:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1); os.dup2(devnull, 2)
            os.chdir(tmp)
            try:
                os.execv(argv[0], argv)
            finally:
                os._exit(127)
        t0 = time.perf_counter()
        _, status, usage = os.wait4(pid, 0)
        walls.append(time.perf_counter() - t0)
        peaks.append(usage.ru_maxrss / 1024)  # KiB -> MiB
    return min(walls), statistics.median(walls), max(peaks)

def floor(name):
    with open(os.path.join(tmp, name)) as f:
        return float(f.read().split()[0]) / 1e3

floor_1, floor_n = floor("floor1"), floor("floorN")
rows = [("perfgate diff", measure([pg, "diff", "ref.json", "cmp.json"], reps)),
        ("perfgate diff --format json", measure([pg, "diff", "--format", "json", "ref.json", "cmp.json"], reps))]
if peer:
    rows.append(("nvbench_compare.py (peer)", measure(["/usr/bin/python3", peer, "ref.json", "cmp.json"], max(1, reps // 2))))
goal_rate = 100_000
print(f"{'':30}{'best ms':>9}{'median ms':>11}{'states/s':>12}{'/ goal':>8}{'peak MB':>9}{'/ limit':>9}")
print(f"{'read the files, 1 thread':30}{floor_1 * 1e3:9.1f}{'':11}{states / floor_1:12,.0f}{states / floor_1 / goal_rate:7.2f}x")
print(f"{f'read the files, {cores} threads':30}{floor_n * 1e3:9.1f}{'':11}{states / floor_n:12,.0f}{states / floor_n / goal_rate:7.2f}x")
for name, (best, median, peak) in rows:
    rate = states / best
    print(f"{name:30}{best * 1e3:9.1f}{median * 1e3:11.1f}{rate:12,.0f}{rate / goal_rate:7.2f}x"
          f"{peak:9.1f}{peak / limit_mb:8.2f}x")
    print(f"{name + ' / floor':30}{best / floor_n:9.2f}x the {cores}-thread floor, "
          f"{best / floor_1:.2f}x the 1-thread floor")
print(f"goal: >= {goal_rate:,} states/s (/ goal >= 1.00x); limit: peak <= {limit_mb:g} MB (/ limit <= 1.00x)")
PY
