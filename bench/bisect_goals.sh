#!/usr/bin/env bash
# make bench, `perfgate bisect` (issue 37): generated repositories whose program is
# sort_work (about 30 ms; R rounds of sorting, R read from the commit's ROUNDS file, so that
# a commit that raises R does that much more work), bisected N times each:
#  1. 64 commits, one 5% slower (R 100 -> 105), latency, a busy loop on every core: the
#     commit named N of N times, in at most 8 measured commits on average besides the ends.
#  2. The same with --measure instructions and a 1% change (R 100 -> 101): N of N, each test
#     step one run of its commit.
#  3. 64 commits and no change: "no change" after the first comparison, N of N, with
#     --budget 5% (under a busy loop per core a 30 ms program's runs vary by 20-35%, and
#     an interval within +-2% takes more than the 1000 rounds a step may take).
#  4. Two 3% steps (R 100 -> 103 -> 106): both named, or one of them, never another commit.
#  5. 64 commits, one 5% slower, 3 commits in the range that do not build: skipped and
#     named; the slower commit still found.
# Usage: bisect_goals.sh BUILD [N] [CASES]   (CASES: a subset of "1 2 3 4 5"; LOAD=idle for
# no busy loops)
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
N=${2:-10}
CASES=${3:-"1 2 3 4 5"}
LOAD=${LOAD:-busy}
PG="$BUILD/perfgate"
tmp=$(mktemp -d)
hogs=()
cleanup() {
  for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# make_repo DIR "STEP=ROUNDS ..." "BROKEN ...": 64 commits after the good one; from commit
# STEP on the program sorts ROUNDS rounds; the BROKEN commits' build fails.
make_repo() {
  local dir=$1 steps=$2 broken=$3
  git init -q -b main "$dir"
  (
    cd "$dir"
    git config user.name bench && git config user.email bench@perfgate.invalid
    cat > perfgate.toml <<TOML
[run]
num_warmup_runs = 1
num_measurement_runs = 1
[history]
build = ["sh build.sh"]
suite = "benchmarks/"
TOML
    mkdir -p benchmarks
    cat > benchmarks/sort.toml <<TOML
benchmark_id = "sort-work"
command = ["out/app"]
[run_config]
counter = "valgrind"
TOML
    good_build="mkdir -p out && printf '#!/bin/sh\\nexec $BUILD/bench/sort_work @%s\\n' \"\$PWD/ROUNDS\" > out/app && chmod +x out/app"
    echo "$good_build" > build.sh
    echo 100 > ROUNDS
    git add -A && git commit -qm "good"
    local rounds=100
    for i in $(seq 1 64); do
      for step in $steps; do
        [ "${step%%=*}" = "$i" ] && rounds=${step#*=}
      done
      echo "$rounds" > ROUNDS
      echo "$good_build" > build.sh
      for b in $broken; do [ "$b" = "$i" ] && echo "exit 1" > build.sh; done
      echo "$i" > NOTES
      git add -A && git commit -qm "commit $i"
    done
  )
}

load() {
  for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
  hogs=()
  if [ "$LOAD" = busy ]; then
    for _ in $(seq 1 "$(nproc)"); do
      sh -c 'while :; do :; done' &
      hogs+=($!)
    done
  fi
}

# bisect_n NAME DIR EXPECT "FLAGS": N bisections; prints the answers and the averages.
bisect_n() {
  local name=$1 dir=$2 expect=$3 flags=$4
  local results=()
  for t in $(seq 1 "$N"); do
    local out="$tmp/out-$name-$t"
    # shellcheck disable=SC2086
    (cd "$dir" && "$PG" bisect --good main~64 --bad main --out "$out" --json $flags \
      > "$out.json" 2> "$out.err") || true
    results+=("$out.json")
  done
  python3 - "$name" "$dir" "$expect" "${results[@]}" <<'PY'
import json, subprocess, sys
name, repo, expect, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
def sha(i):
    return subprocess.run(["git", "-C", repo, "rev-parse", f"main~{64 - i}"], capture_output=True,
                          text=True, check=True).stdout.strip()
right = 0; measured = 0; runs = 0; seconds = 0; answers = {}; named = {}
for f in files:
    r = json.load(open(f))
    answers[r["answer"]] = answers.get(r["answer"], 0) + 1
    measured += r["commits_measured"]; runs += r["runs"]; seconds += r["seconds"]
    found = [c["sha"] for c in r["found"]]
    for c in found: named[c[:8]] = named.get(c[:8], 0) + 1
    if expect == "none":
        ok = r["answer"] == "no_change" and len(r["steps"]) == 1
    elif expect.startswith("any:"):
        allowed = {sha(int(i)) for i in expect[4:].split(",")}
        ok = r["answer"] in ("commit", "range") and bool(found) and set(found) <= allowed
    else:
        ok = r["answer"] == "commit" and found == [sha(int(expect))]
    right += ok
    if not ok:  # what each step saw, to tell noise from a wrong turn
        print(f"    wrong: {r['answer']}; steps: " + "; ".join(
            f"{s['kind']} {s['outcome']} in {s['rounds']}" for s in r["steps"]))
n = len(files)
print(f"  {name}: right {right}/{n}; answers {answers}; named {named}")
print(f"    commits measured besides the ends: {measured / n:.1f} on average; "
      f"runs {runs / n:.0f}; {seconds / n:.1f} s a bisection")
PY
}

echo "load: $LOAD ($(nproc) cores), load average $(cut -d' ' -f1-3 /proc/loadavg)"
load
[ "$LOAD" = busy ] && sleep 5
for c in $CASES; do
  case $c in
    1) make_repo "$tmp/r1" "37=105" ""
       bisect_n "5% slower, latency" "$tmp/r1" 37 "" ;;
    2) make_repo "$tmp/r2" "23=101" ""
       bisect_n "1% more instructions" "$tmp/r2" 23 "--measure instructions" ;;
    3) make_repo "$tmp/r3" "" ""
       bisect_n "no change" "$tmp/r3" none "--budget 5%" ;;
    4) make_repo "$tmp/r4" "20=103 45=106" ""
       bisect_n "two 3% steps" "$tmp/r4" "any:20,45" "--budget 1%" ;;
    5) make_repo "$tmp/r5" "37=105" "30 31 34"
       bisect_n "5% slower, 3 commits that do not build" "$tmp/r5" 37 "" ;;
  esac
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
