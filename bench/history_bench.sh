#!/usr/bin/env bash
# perfgate history at scale (issue 13): `history plan` over a generated first-parent history
# of COMMITS commits (the activation commit first, so the plan walks all of it), and
# `history export` of a dir: archive of ATTEMPTS attempts x CASES cases (latency, cpu_time
# and memory each) on the newest ATTEMPTS commits. Prints wall time and peak memory of each,
# beside the issue's limits as ratios.
#   bench/history_bench.sh BUILD [COMMITS] [ATTEMPTS] [CASES]
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
COMMITS=${2:-100000}
ATTEMPTS=${3:-10000}
CASES=${4:-20}
PG="$BUILD/perfgate"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo

# The history, written by git fast-import: commit 1 adds perfgate.toml with [history];
# every later commit changes one file.
mkdir -p "$repo"
git -C "$repo" init -q -b main
python3 - "$COMMITS" <<'PY' | git -C "$repo" fast-import --quiet
import sys
n = int(sys.argv[1])
out = sys.stdout
toml = b'[history]\narchive = "dir:../archive"\nsuite = "benchmarks/"\n'
for i in range(1, n + 1):
    out.write(f"commit refs/heads/main\nmark :{i}\ncommitter bench <b@example.com> {1700000000 + i} +0000\n")
    msg = f"commit {i}\n".encode()
    out.write(f"data {len(msg)}\n"); out.flush(); sys.stdout.buffer.write(msg)
    if i > 1:
        out.write(f"from :{i - 1}\n")
    if i == 1:
        out.write(f"M 100644 inline perfgate.toml\ndata {len(toml)}\n"); out.flush()
        sys.stdout.buffer.write(toml)
    body = f"{i}\n".encode()
    out.write(f"M 100644 inline counter\ndata {len(body)}\n"); out.flush()
    sys.stdout.buffer.write(body)
    out.write("\n")
out.flush()
PY
git -C "$repo" checkout -q main

measure() {  # measure LABEL COMMAND...: prints "<seconds> <peak MiB>"
  python3 - "$@" <<'PY'
import os, resource, subprocess, sys, time
t0 = time.perf_counter()
result = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
wall = time.perf_counter() - t0
if result.returncode != 0:
    sys.stderr.write(result.stderr.decode()); sys.exit(result.returncode)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"{wall:.3f} {peak:.1f}")
PY
}

read -r plan_s plan_mb < <(cd "$repo" && measure plan "$PG" history plan -o "$tmp/plan.json")
# A peer measured in the same run, so that a slower machine shows as such: git's own walk of
# the same first-parent chain.
read -r gitwalk_s _ < <(cd "$repo" && measure walk git rev-list --first-parent main)

# The archive: ATTEMPTS attempts on the newest commits, as history measure writes them.
git -C "$repo" rev-list --first-parent -n "$ATTEMPTS" main >"$tmp/shas"
python3 - "$tmp/archive" "$tmp/shas" "$CASES" "$(git -C "$repo" rev-parse "main~$((COMMITS - 1))")" \
  "$(git -C "$repo" rev-parse main)" <<'PY'
import json, os, random, sys
root, shas_file, cases, baseline, current = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
shas = [s.strip() for s in open(shas_file)][::-1]
os.makedirs(f"{root}/attempts")
rng = random.Random(1)
env = {"id": "bench-01", "cpu": "AMD EPYC", "architecture": "x86_64", "logical_cores": 2,
       "os": "Debian GNU/Linux 12", "kernel": "6.1.0", "cc": "cc 12.2.0", "cxx": "c++ 12.2.0",
       "hardware_profile_id": "hw-1", "software_profile_id": "sw-1", "image": None}
index = {}
for i, sha in enumerate(shas):
    started = f"2026-01-01T00:00:00.{i:06d}Z"
    case_list = []
    for c in range(cases):
        metrics = {}
        for name, unit, level in (("latency", "s", 0.01), ("cpu_time", "s", 0.009), ("memory", "MB", 3.0)):
            med = level * (1 + c / 10) * (1 + rng.random() * 0.02)
            metrics[name] = {"unit": unit, "median": med, "mad": med * 0.005, "min": med * 0.99,
                             "max": med * 1.01, "count": 5}
        case_list.append({"name": f"case{c}[n={c * 1000}]", "config": f"benchmarks/case{c}.toml",
                          "source_id": "a" * 40, "repetitions": 5, "threads": 1, "metrics": metrics})
    ident = f"{sha}-bench-1"
    attempt = {"schema_version": 1, "kind": "perfgate-history-attempt", "sha": sha, "run": "bench",
               "attempt": 1, "harness_sha": current, "harness_version": 1,
               "benchmark_sources": {"benchmarks/": "b" * 40}, "started_at": started,
               "finished_at": started, "label": "diagnostic", "environment": env,
               "configuration": {"build": [], "suite": "benchmarks/", "sources": ["benchmarks/"],
                                 "timeout_s": 3600},
               "status": "success", "errors": [], "missing_cases": [], "cases": case_list,
               "raw_path": f"raw/{ident}/"}
    with open(f"{root}/attempts/{ident}.json", "w") as f:
        json.dump(attempt, f, indent=2, sort_keys=True)
    index[ident] = {"status": "success", "started_at": started}
ledger = {"schema_version": 1, "kind": "perfgate-history-ledger", "branch": "main",
          "baseline": baseline, "current": current, "monitored": shas, "attempts": index}
json.dump(ledger, open(f"{root}/plan.json", "w"))
PY
archive_mb=$(du -sm "$tmp/archive" | cut -f1)
read -r export_s export_mb < <(cd "$repo" && measure export "$PG" history export \
  --archive "dir:$tmp/archive" -o "$tmp/history.json")
history_mb=$(du -m "$tmp/history.json" | cut -f1)

python3 - "$COMMITS" "$ATTEMPTS" "$CASES" "$plan_s" "$plan_mb" "$export_s" "$export_mb" "$archive_mb" "$history_mb" "$gitwalk_s" <<'PY'
import sys
commits, attempts, cases = map(int, sys.argv[1:4])
plan_s, plan_mb, export_s, export_mb, archive_mb, history_mb, gitwalk_s = map(float, sys.argv[4:])
print(f"{'':44}{'s':>8}{'/ limit':>9}{'peak MiB':>10}")
print(f"{f'plan over {commits:,} first-parent commits':44}{plan_s:8.3f}{plan_s / 1:8.2f}x{plan_mb:10.1f}")
print(f"{f'export of {attempts:,} attempts x {cases} cases':44}{export_s:8.3f}{export_s / 2:8.2f}x{export_mb:10.1f}")
print(f"{'git rev-list --first-parent (peer walk)':44}{gitwalk_s:8.3f}   plan is {plan_s / gitwalk_s:.2f}x git's walk")
print(f"archive {archive_mb:.0f} MB of attempt files, history.json {history_mb:.0f} MB")
print("limits (issue 13): plan < 1 s, export < 2 s on this machine")
PY
