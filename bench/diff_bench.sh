#!/usr/bin/env bash
# perfgate diff at scale: two nvbench results of STATES states with SAMPLES bulk samples
# each (times and clock frequencies), compared REPS times. Reports states/s, MB/s of JSON
# and peak memory, beside the floor: reading the same bytes with cat.
#   bench/diff_bench.sh BUILD [STATES] [SAMPLES] [REPS]
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
STATES=${2:-10000}
SAMPLES=${3:-1000}
REPS=${4:-3}
PG="$BUILD/perfgate"
GEN="$BUILD/bench/gen_nvbench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }

t0=$(now)
"$GEN" "$tmp/ref.json" "$STATES" "$SAMPLES" 1 0
"$GEN" "$tmp/cmp.json" "$STATES" "$SAMPLES" 2 0.1
t1=$(now)
json_bytes=$(cat "$tmp/ref.json" "$tmp/cmp.json" | wc -c)
bin_bytes=$(find "$tmp" -name '*.bin' -print0 | xargs -0 cat | wc -c)
echo "generated $STATES states x $SAMPLES samples per file in $(python3 -c "print(f'{$t1 - $t0:.1f}')") s:" \
  "JSON $((json_bytes / 1048576)) MiB, bulk files $((bin_bytes / 1048576)) MiB (both files)"

# The floor: the bytes diff must at least read, read by cat. Each repetition reads them
# again; after the first they come from the page cache, as they do for diff.
floor_json=()
floor_all=()
for _ in $(seq "$REPS"); do
  t0=$(now); cat "$tmp/ref.json" "$tmp/cmp.json" > /dev/null; t1=$(now)
  find "$tmp" -name '*.bin' -print0 | xargs -0 cat > /dev/null; t2=$(now)
  floor_json+=("$(python3 -c "print($t1 - $t0)")")
  floor_all+=("$(python3 -c "print($t2 - $t0)")")
done

# perfgate diff; its exit status says SAME/SLOW/..., which is not what is measured here.
runs=()
for _ in $(seq "$REPS"); do
  (cd "$tmp" && /usr/bin/time -f "%e %M" -o "$tmp/time.txt" "$PG" diff ref.json cmp.json > /dev/null) || true
  runs+=("$(cat "$tmp/time.txt" | tail -1)")
done

python3 - "$STATES" "$json_bytes" "$bin_bytes" "${floor_json[*]}" "${floor_all[*]}" "${runs[@]}" <<'PY'
import statistics, sys
states, json_bytes, bin_bytes = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
floor_json = [float(x) for x in sys.argv[4].split()]
floor_all = [float(x) for x in sys.argv[5].split()]
runs = [tuple(map(float, r.split())) for r in sys.argv[6:]]
walls = [wall for wall, _ in runs]
peak_mb = max(kb for _, kb in runs) / 1024
best, median = min(walls), statistics.median(walls)
mb = json_bytes / 1e6
print(f"{'':34}{'best s':>9}{'median s':>10}{'states/s':>12}{'JSON MB/s':>11}{'vs floor':>10}")
def row(name, best_s, median_s, floor_s):
    best_s, median_s = max(best_s, 1e-3), max(median_s, 1e-3)  # time(1) reports 10 ms steps
    ratio = f"{best_s / floor_s:.1f}x" if floor_s else ""
    print(f"{name:34}{best_s:9.3f}{median_s:10.3f}{states / best_s:12.0f}{mb / best_s:11.1f}{ratio:>10}")
row("cat JSON (floor)", min(floor_json), statistics.median(floor_json), 0)
row("cat JSON + bulk files (floor)", min(floor_all), statistics.median(floor_all), 0)
row("perfgate diff", best, median, min(floor_all))
print(f"perfgate diff peak memory: {peak_mb:.0f} MB over {len(runs)} runs "
      f"(JSON {mb:.0f} MB, bulk files {bin_bytes / 1e6:.0f} MB)")
PY
