#!/usr/bin/env bash
# make demo, history step: builds a small git repository (a dozen commits of a tiny C
# program; one of them makes it 30% slower, one does not build), then runs
# plan / measure / publish twice (8 commits, then the rest with their measured neighbours
# again: bridges) into its archive branch and exports history.json: the flag at the slow
# commit, the failed commit with its build error, full coverage.
#   scripts/history_demo.sh PERFGATE [FOLDER]
# The program's instructions are counted (Valgrind) beside its times: a count does not move
# with the machine's load or with the CPU a run lands on, so its flags hold where the times'
# cannot (docs/history.md, "Confirming flags"). DEMO_MEASURE='["time"]' measures times only;
# without valgrind the demo says so and measures times only.
set -euo pipefail
PG=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=${2:-$(mktemp -d)}
mkdir -p "$work/repo"
work=$(cd "$work" && pwd)  # the steps below run inside the repository
repo=$work/repo
cd "$repo"
export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=demo GIT_AUTHOR_EMAIL=demo@example.com \
  GIT_COMMITTER_NAME=demo GIT_COMMITTER_EMAIL=demo@example.com
git init -q -b main .
git config commit.gpgsign false

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
t=1700000000
commit() { # commit MESSAGE: everything in the work tree, at a fixed, rising date
  t=$((t + 3600))
  git add -A
  GIT_AUTHOR_DATE="@$t +0000" GIT_COMMITTER_DATE="@$t +0000" git commit -q -m "$1"
}
program() { # program ITERATIONS [BROKEN]: the measured program, ~20 ms of work per 10 M
  cat >app.c <<C
#include <stdio.h>
int main(void) {
  volatile unsigned long sum = 0;
  for (unsigned long i = 0; i < ${1}UL; ++i) sum += i ^ (i >> 3);
  printf("%lu\n", (unsigned long)sum) ${2:-;}
  return 0;
}
C
}

mkdir -p benchmarks
program 20000000
printf 'app\nbuild/\n' >.gitignore
commit "app: a loop to measure"
cat >perfgate.toml <<'TOML'
[run]
num_warmup_runs = 1
num_measurement_runs = 15

[history]
branch = "main"
archive = "git:perfgate-data"
build = ["mkdir -p build", "cc -O1 -o build/app app.c"]
suite = "benchmarks/"
sources = ["benchmarks/"]
harness_version = 1
max_per_run = 8
TOML
cat >benchmarks/app.toml <<'TOML'
benchmark_id = "app"
command = ["build/app"]
TOML
measure=${DEMO_MEASURE:-'["time", "instructions"]'}
if [[ $measure == *instructions* ]] && ! command -v valgrind >/dev/null; then
  echo "(valgrind not found: the history is measured in times only; scripts/install-deps.sh installs it)"
  measure='["time"]'
fi
if [[ $measure == *instructions* ]]; then
  # One counted run per commit: under Callgrind it takes about 1.3 s here, and a second one,
  # which would confirm the count, repeats it to the instruction (docs/measurement.md).
  printf '[run_config]\nmeasure = %s\ncounter = "valgrind"\nnum_count_runs = 1\n' "$measure" \
    >>benchmarks/app.toml
fi
commit "perfgate: monitor main"   # the activation commit
for i in 1 2 3; do echo "note $i" >>NOTES; commit "notes: $i"; done
program 29000000
commit "app: more work per item (30% slower)"
for i in 4 5; do echo "note $i" >>NOTES; commit "notes: $i"; done
program 29000000 "/* missing semicolon */"
commit "app: a typo that does not build"
program 29000000
commit "app: fix the typo"
for i in 6 7; do echo "note $i" >>NOTES; commit "notes: $i"; done
echo "$(git rev-list --count HEAD) commits on main"

for round in 1 2; do
  # The plan is for a machine (what it has not measured); measure measures as that machine.
  step "perfgate history plan --environment demo-machine -o plan-$round.json   (round $round)"
  "$PG" history plan --environment demo-machine -o "$work/plan-$round.json"
  step "perfgate history measure --plan plan-$round.json -o batch-$round/"
  "$PG" history measure --plan "$work/plan-$round.json" -o "$work/batch-$round"
  step "perfgate history validate --batch batch-$round/"
  "$PG" history validate --batch "$work/batch-$round" || echo "(exit $?: see above)"
  step "perfgate history publish --batch batch-$round/"
  "$PG" history publish --batch "$work/batch-$round"
done
step "perfgate history publish --batch batch-2/   (again: a no-op)"
"$PG" history publish --batch "$work/batch-2"

# A flag is a heuristic on one measurement of each commit; a busy moment can raise one.
# Measuring each flagged commit and the commit before it again says whether it holds.
step "perfgate history plan --confirm-flags --environment demo-machine -o plan-3.json   (re-measure the flagged commits)"
"$PG" history plan --confirm-flags --environment demo-machine -o "$work/plan-3.json"
if grep -q '"confirming": \[$' "$work/plan-3.json"; then
  "$PG" history measure --plan "$work/plan-3.json" -o "$work/batch-3"
  "$PG" history validate --batch "$work/batch-3" || echo "(exit $?: see above)"
  "$PG" history publish --batch "$work/batch-3"
fi

step "perfgate history export -o site/history.json"
"$PG" history export -o "$work/site/history.json"
python3 - "$work/site/history.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
by_sha = {c["sha"]: c for c in h["commits"]}
attempts = {a["id"]: a for a in h["attempts"]}
series = {s["id"]: s for s in h["series"]}
for c in h["commits"]:
    line = f'{c["sha"][:10]} {c["status"]:9} {c["summary"] or ""}'
    a = attempts.get(c["attempt"]) if c["attempt"] else None
    if a and a["status"] == "failure":
        line += f' -- {a["errors"][0]["stage"]}: {a["errors"][0]["message"].splitlines()[0]}'
    print(line)
def value(v, unit):  # a time in ms, a count (instructions, cycles) in millions
    return f'{v*1e3:.1f} ms' if unit == "s" else f'{v/1e6:.1f} M {unit}'
for f in h["flags"]:
    unit = series[f["series"]]["unit"]
    line = (f'FLAG {f["commit"][:10]} "{by_sha[f["commit"]]["summary"]}": '
            f'{series[f["series"]]["metric"]} median {value(f["previous_median"], unit)} -> '
            f'{value(f["median"], unit)} ({f["change_percent"]:+.0f}%), '
            f'{f["confirmation"].replace("_", " ")}')
    if f["earlier"]:
        e = f["earlier"]
        line += (f' (first measured {value(e["previous_median"], unit)} -> '
                 f'{value(e["median"], unit)}, {e["change_percent"]:+.0f}%)')
    if f["paired"]:  # the re-measurement's runs, compared round by round
        p = f["paired"]
        line += (f'; round by round {p["change_percent"]:+.0f}%, at least '
                 f'{p["lower_percent"]:+.0f}% in {p["rounds"]} rounds')
    print(line)
cov = h["coverage"]
print(f'coverage: {cov["measured"]} measured, {cov["failed"]} failed, {cov["missing"]} missing '
      f'of {cov["monitored"]} monitored')
PY
echo "archive: branch perfgate-data of $repo ($(git rev-list --count perfgate-data) commits)"
