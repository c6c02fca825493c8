#!/usr/bin/env bash
# make bench, history flags (issue 34): make demo's history (scripts/history_demo.sh: eleven
# commits of a ~10 ms program, one with 30% more work, confirmation round included) N times
# idle and N times with a busy loop on every core. Prints, per try, the flags of the export
# by confirmation: the slow commit's, and those of commits that change no code.
# Goals: the slowdown flagged and confirmed every time; no confirmed flag on a commit that
# changes no code. A time flag whose measurements were compared round by round shows, for
# the first and the second, the median change and its lower bound ([+40%>=+33%, ...]). The
# flags are listed per metric: the demo counts instructions (Valgrind) beside its times
# (issue 36); MEASURE='["time"]' measures times only.
# Usage: history_flags.sh BUILD [N]
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
N=${2:-5}
tmp=$(mktemp -d)
hogs=()
cleanup() {
  for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$(dirname "$0")/.."

summarise() {  # summarise HISTORY_JSON LABEL
  python3 - "$1" "$2" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
summary = {c["sha"]: c["summary"] for c in h["commits"]}
metric = {s["id"]: s["metric"] for s in h["series"]}
slow, other = [], {"confirmed": 0, "unconfirmed": 0, "not_remeasured": 0}
other_metrics = set()
def rounds(paired):  # a measurement's runs compared round by round: "+40%>=+33%"
    return f'{paired["change_percent"]:+.0f}%>={paired["lower_percent"]:+.0f}%' if paired else "-"
for f in h["flags"]:
    if "30% slower" in summary[f["commit"]]:
        # A time's confirmation says what each measurement's rounds showed: [first, again].
        paired = f["earlier"] and (f["earlier"]["paired"] or f["paired"])
        slow.append(f'{metric[f["series"]]} {f["confirmation"]}' +
                    (f' [{rounds(f["earlier"]["paired"])}, {rounds(f["paired"])}]' if paired else ''))
    else:
        other[f["confirmation"]] += 1
        other_metrics.add(metric[f["series"]])
print(f'{sys.argv[2]:<12} slow commit: {", ".join(sorted(slow)) or "not flagged":<45} '
      f'no-code commits: {other["confirmed"]} confirmed, {other["unconfirmed"]} unconfirmed, '
      f'{other["not_remeasured"]} not re-measured'
      + (f' ({", ".join(sorted(other_metrics))})' if other_metrics else ''))
PY
}

for state in idle busy; do
  if [ "$state" = busy ]; then
    for _ in $(seq 1 "$(nproc)"); do
      sh -c 'while :; do :; done' &
      hogs+=($!)
    done
  fi
  for i in $(seq 1 "$N"); do
    DEMO_MEASURE="${MEASURE:-}" bash scripts/history_demo.sh "$BUILD/perfgate" "$tmp/$state-$i" \
      >/dev/null 2>&1
    summarise "$tmp/$state-$i/site/history.json" \
      "$state $i ($(cut -d' ' -f1 /proc/loadavg))"
  done
done
