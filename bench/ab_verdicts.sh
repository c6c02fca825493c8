#!/usr/bin/env bash
# make bench, ab part: how often `perfgate ab` flags identical code on this machine (A/A,
# --repeat-check) and how reliably it catches a 10% slower head, with budgets of +5% and
# +1 ms on a 30 ms CPU-bound scenario; wall time per verdict. Then the same with --method stat
# (and a head 3% slower, within the budget). Usage: ab_verdicts.sh BUILD [N]
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
N=${2:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
loop="$BUILD/bench/busy_loop"

verdicts() {  # verdicts LABEL ARGS... -> one line of counts
  local label=$1; shift
  local pass=0 regression=0 inconclusive=0 other=0 total_s=0
  for i in $(seq 1 "$N"); do
    local start end rc=0
    start=$(date +%s.%N)
    "$BUILD/perfgate" ab "$@" --budget duration=5%,1ms --budget cpu=5%,1ms --out "$tmp/$label-$i" \
      >/dev/null 2>&1 || rc=$?
    end=$(date +%s.%N)
    total_s=$(python3 -c "print($total_s + $end - $start)")
    case $rc in 0) pass=$((pass+1));; 1) regression=$((regression+1));; 2) inconclusive=$((inconclusive+1));; *) other=$((other+1));; esac
  done
  # The median number of measured pairs behind the verdicts (results.json's pairs_judged).
  local pairs
  pairs=$(python3 - "$tmp" "$label" "$N" <<'PY'
import json, statistics, sys
tmp, label, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
counts = []
for i in range(1, n + 1):
    try:
        with open(f"{tmp}/{label}-{i}/results.json") as f:
            counts.append(json.load(f)["scenarios"][0]["pairs_judged"])
    except (OSError, KeyError, ValueError):
        pass
print(statistics.median(counts) if counts else "-")
PY
)
  python3 -c "print(f'{\"$label\":34}{$pass:>6}{$regression:>12}{$inconclusive:>14}{$other:>7}{$total_s / $N:>12.2f} s{\"$pairs\":>8}')"
}

printf '%-34s%6s%12s%14s%7s%14s%8s\n' "" PASS REGRESSION INCONCLUSIVE error "per verdict" pairs
verdicts "A/A (--repeat-check), 30 ms" --base "$loop 30" --repeat-check
verdicts "head 10% slower, 30 ms vs 33 ms" --base "$loop 30" --head "$loop 33"
verdicts "stat: A/A, 30 ms" --method stat --base "$loop 30" --repeat-check
verdicts "stat: head 10% slower" --method stat --base "$loop 30" --head "$loop 33"
verdicts "stat: head 3% slower (budget 5%)" --method stat --base "$loop 30" --head "$loop 30.9"
