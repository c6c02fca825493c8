# mode nightly, sourced by scripts/ci/action.sh: `perfgate history` in the three jobs of
# seed 003's order (docs/ci.md), one INPUT_STAGE each:
#   measure  plan and measure commits, validate the target: a read-only job that runs the
#            benchmarks and uploads the batch
#   publish  check the batch came from this run, add it to the archive branch and push it,
#            export history.json: the writer job, which runs no benchmark
#   site     check history.json was exported from this checkout, build the dashboard, and
#            say whether the branch still points here (an older run must not deploy)
# shellcheck shell=bash disable=SC2154 # pg, out, root: set by action.sh, which sources this

# The checkout's commit, which must be the one the run is for.
this_commit() {
  local head sha
  head=$(git rev-parse HEAD)
  sha=${GITHUB_SHA:-${CI_COMMIT_SHA:-$head}}
  [ "$head" = "$sha" ] || fail 65 "the checkout is at $head, but the run is for $sha: check out the run's commit"
  echo "$sha"
}

# The git: archive's branch (empty for a dir: archive), from the archive input or the
# [history] table of perfgate.toml; set in this shell, not in a $(...), for archive_flag.
archive_flag=()
branch=""
find_archive() {
  local archive=${INPUT_ARCHIVE:-}
  if [ -n "$archive" ]; then archive_flag=(--archive "$archive"); fi
  if [ -z "$archive" ] && [ -f perfgate.toml ]; then
    archive=$(sed -n 's/^[[:space:]]*archive[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' perfgate.toml | head -1)
  fi
  case "$archive" in git:*) branch=${archive#git:} ;; *) branch="" ;; esac
}

# sync_archive BRANCH: the local archive branch at the remote's tip. actions/checkout with
# fetch-depth: 0 fetched every branch while it still had credentials; the fetch here keeps it
# current where the checkout kept none (a public repository, GitLab's job token).
sync_archive() {
  local branch=$1 remote mine
  [ -n "$branch" ] || return 0
  git fetch --no-tags --quiet origin "+refs/heads/$branch:refs/remotes/origin/$branch" 2>/dev/null ||
    say "could not fetch $branch from origin: using the checkout's copy, if any"
  remote=$(git rev-parse -q --verify "refs/remotes/origin/$branch^{commit}") || return 0
  mine=$(git rev-parse -q --verify "refs/heads/$branch^{commit}" || true)
  if [ -z "$mine" ] || git merge-base --is-ancestor "$mine" "$remote"; then
    git update-ref "refs/heads/$branch" "$remote"
  elif ! git merge-base --is-ancestor "$remote" "$mine"; then
    fail 65 "the local $branch and origin's have diverged: perfgate never forces the archive; merge them by hand"
  fi
}

identity_flags=() # the attempts' run identity, which the publish job checks
run_identity() {
  if [ -n "${GITHUB_RUN_ID:-}" ]; then
    identity_flags=(--run "gh-$GITHUB_RUN_ID" --attempt "${GITHUB_RUN_ATTEMPT:-1}")
  elif [ -n "${CI_PIPELINE_ID:-}" ]; then
    # GitLab has no attempt number: a retried job has a new job id, hence a new identity.
    identity_flags=(--run "gl-$CI_PIPELINE_ID-${CI_JOB_ID:-0}" --attempt 1)
  fi
}

nightly_measure() {
  local sha
  sha=$(this_commit)
  find_archive
  sync_archive "$branch"
  run_identity
  local plan=(history plan --target "$sha" -o "$out/plan.json" --force "${archive_flag[@]}")
  local measure=(history measure --plan "$out/plan.json" -o "$out/batch" "${identity_flags[@]}" "${archive_flag[@]}")
  if [ -n "${INPUT_ENVIRONMENT:-}" ]; then
    plan+=(--environment "$INPUT_ENVIRONMENT")
    measure+=(--environment "$INPUT_ENVIRONMENT")
  fi
  if [ -n "${INPUT_MAX_COMMITS:-}" ]; then plan+=(--max "$INPUT_MAX_COMMITS"); fi
  if is_true "${INPUT_RETRY:-}"; then plan+=(--retry); fi
  local rc=0
  "$pg" "${plan[@]}" --no-color || finish ERROR $? "" ""
  "$pg" "${measure[@]}" --no-color || rc=$?
  # A batch exists even after a failure or an interruption: the workflow uploads it whatever
  # the verdict, and the publish job archives its failed attempts too.
  if [ -f "$out/batch/batch.json" ]; then set_output batch-path "$out/batch"; fi
  [ "$rc" -eq 0 ] || finish "$(verdict_of "$rc")" "$rc" "" ""

  # validate: exit 1 when the target has no valid measurement (its build or a case failed).
  "$pg" history validate --batch "$out/batch" "${archive_flag[@]}" --no-color >"$out/validate.txt" || rc=$?
  cat "$out/validate.txt"
  local verdict=PASS
  if [ "$rc" -eq 1 ]; then verdict=ERROR; elif [ "$rc" -ne 0 ]; then verdict=$(verdict_of "$rc"); fi
  {
    printf '## perfgate nightly: %s\n\n' "$verdict"
    printf 'Measured commits of `%s` planned at `%s`; the batch goes to the publish job.\n\n' \
      "$(json "$out/plan.json" 'd["branch"]')" "${sha:0:12}"
    printf '```\n'
    cat "$out/validate.txt"
    printf '```\n'
  } >"$out/nightly.md"
  summary "$out/nightly.md"
  # Regression flags are known once the batch is in the archive: the publish stage counts them.
  finish "$verdict" "$rc" "" "$out/nightly.md"
}

# The batch must be this run's, for this commit: the writer never archives a batch another
# run, a pull request or a local experiment made (seed 003).
check_batch() { # check_batch BATCH SHA
  python3 - "$1" "$2" "${GITHUB_RUN_ID:+gh-$GITHUB_RUN_ID}" "${GITHUB_RUN_ATTEMPT:-}" \
    "${CI_PIPELINE_ID:+gl-$CI_PIPELINE_ID-}" <<'PY'
import json, os, sys
batch, sha, gh_run, gh_attempt, gl_prefix = sys.argv[1:]
b = json.load(open(os.path.join(batch, "batch.json")))
plan = json.load(open(os.path.join(batch, "plan.json")))
problems = []
if b.get("kind") != "perfgate-history-batch":
    problems.append("batch.json is not a perfgate history batch")
if plan.get("harness_sha") != sha or plan.get("target") != sha:
    problems.append(f"the batch was planned at {plan.get('harness_sha')} for {plan.get('target')}, not at this run's commit {sha}")
if gh_run and b.get("run") != gh_run:
    problems.append(f"the batch is of run {b.get('run')}, not of this run {gh_run}")
if gh_attempt and not (1 <= int(b.get("attempt", 0)) <= int(gh_attempt)):
    problems.append(f"the batch's attempt {b.get('attempt')} is not one of this run's (1 to {gh_attempt})")
if gl_prefix and not str(b.get("run", "")).startswith(gl_prefix):
    problems.append(f"the batch is of run {b.get('run')}, not of this pipeline ({gl_prefix}...)")
selected = set(plan.get("selected", []))
for attempt in b.get("attempts", []):
    if attempt[:40] not in selected:
        problems.append(f"attempt {attempt} is of a commit the plan did not select")
for p in problems:
    print(f"perfgate-action: error: {p}", file=sys.stderr)
sys.exit(1 if problems else 0)
PY
}

# GitLab: the job token cannot push; the archive token can. git gets it through a
# credential helper that reads it from the environment, never from a command line, and only
# for pushes (the push URL carries no job token); perfgate's own push ([history] remote)
# goes the same way.
git_env=()
push_credentials() {
  [ -n "$archive_token" ] || return 0
  git config --local credential.helper \
    '!f() { test "$1" = get && echo username=oauth2 && echo "password=$PERFGATE_ARCHIVE_TOKEN"; }; f'
  if [ -n "${CI_SERVER_URL:-}" ] && [ -n "${CI_PROJECT_PATH:-}" ]; then
    git config --local remote.origin.pushurl "$CI_SERVER_URL/$CI_PROJECT_PATH.git"
  fi
  git_env=("PERFGATE_ARCHIVE_TOKEN=$archive_token")
}

# Pushes the archive branch with a plain push, never forced. When another writer pushed
# first, the batch is published again on the new tip (attempts are immutable, so this
# adds the same files) and pushed again. Where [history] remote is set, perfgate has pushed
# already and this push has nothing to do.
push_archive() { # push_archive BRANCH BATCH
  local branch=$1 try
  for try in 1 2 3 4 5; do
    if env "${git_env[@]}" git push --quiet origin "refs/heads/$branch:refs/heads/$branch"; then return 0; fi
    say "the push of $branch was refused (try $try): publishing on origin's new tip"
    sleep $((try * 2))
    env "${git_env[@]}" git fetch --no-tags --quiet origin "+refs/heads/$branch:refs/remotes/origin/$branch" || continue
    git update-ref "refs/heads/$branch" "refs/remotes/origin/$branch"
    env "${git_env[@]}" "$pg" history publish --batch "$2" "${archive_flag[@]}" --no-color || finish ERROR $? "" ""
  done
  fail 74 "could not push $branch to origin: check that this job may write it (contents: write)"
}

flags_at_current() { # the regression flags at the export's current commit
  json "$1" 'sum(f["commit"] == d["current"] for f in d["flags"])'
}

nightly_publish() {
  local sha batch=${INPUT_BATCH:-}
  sha=$(this_commit)
  [ -n "$batch" ] && [ -f "$batch/batch.json" ] || fail 66 "batch: '$batch' is not a batch folder (the measure job's artifact)"
  batch=$(cd "$batch" && pwd)
  check_batch "$batch" "$sha" || fail 65 "the batch is not this run's: nothing published"
  find_archive
  sync_archive "$branch"
  push_credentials
  env "${git_env[@]}" "$pg" history publish --batch "$batch" "${archive_flag[@]}" --no-color ||
    finish ERROR $? "" ""
  if [ -n "$branch" ]; then push_archive "$branch" "$batch"; fi
  "$pg" history export -o "$out/history.json" --force "${archive_flag[@]}" --no-color || finish ERROR $? "" ""
  set_output history-path "$out/history.json"

  local regressions
  regressions=$(flags_at_current "$out/history.json")
  python3 - "$out/history.json" >"$out/nightly.md" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
c = h["coverage"]
print("## perfgate nightly: published\n")
print(f"`{h['branch']}` at `{h['current'][:12]}`: {c['measured']} of {c['monitored']} monitored commits "
      f"measured, {c['failed']} failed, {c['missing']} missing; {len(h['flags'])} regression flag(s) in all.\n")
series = {s["id"]: s for s in h["series"]}
flags = [f for f in h["flags"] if f["commit"] == h["current"]]
if flags:
    print("Flags at the current commit (diagnostic: docs/history.md):\n")
    for f in flags:
        s = series.get(f["series"], {})
        change = "n/a" if f["change_percent"] is None else f"{f['change_percent']:+.1f}%"
        print(f"- {s.get('case', '?')} {s.get('metric', '?')}: {change} ({f['confirmation']})")
PY
  summary "$out/nightly.md"
  finish PASS 0 "$regressions" "$out/nightly.md"
}

nightly_site() {
  local sha history=${INPUT_HISTORY:-}
  sha=$(this_commit)
  [ -n "$history" ] && [ -f "$history" ] || fail 66 "history: '$history' is not a history.json (the publish job's artifact)"
  local monitored current=true head
  monitored=$(json "$history" 'd["branch"]')
  # Deploy only while the branch still points at this commit: a slower, older run that
  # finishes last must not replace the newer site (seed 003).
  if head=$(git ls-remote origin "refs/heads/$monitored" 2>/dev/null | cut -f1) && [ -n "$head" ]; then
    if [ "$head" != "$sha" ]; then
      current=false
      warn "$monitored has moved on to ${head:0:12}: this run's site is built but not deployed"
    fi
  else
    say "could not read $monitored from origin: the site counts as current"
  fi
  local rc=0
  # --expect-source refuses a history.json exported from another commit (65), --stale-after
  # warns when its newest attempt is older than that many days.
  "$pg" report --format html --history "$history" -o "$out/site" --expect-source "$sha" \
    --stale-after "${INPUT_STALE_AFTER:-7}" --no-color 2>"$out/site.err" || rc=$?
  cat "$out/site.err" >&2
  grep -i 'warning' "$out/site.err" | while read -r line; do warn "${line#perfgate: }"; done || true
  [ "$rc" -eq 0 ] || finish ERROR "$rc" "" ""
  set_output site-path "$out/site"
  set_output current "$current"
  {
    printf '## perfgate nightly: site\n\n'
    printf 'Built from history.json of `%s`; ' "${sha:0:12}"
    if [ "$current" = true ]; then printf 'deployed.\n'; else printf 'not deployed: `%s` has moved on.\n' "$monitored"; fi
  } >"$out/site.md"
  summary "$out/site.md"
  finish PASS 0 "$(flags_at_current "$history")" "$out/site/index.html"
}

run_nightly() {
  case "${INPUT_STAGE:-measure}" in
    measure) nightly_measure ;;
    publish) nightly_publish ;;
    site) nightly_site ;;
    *) fail 64 "stage: '${INPUT_STAGE}' is not one of measure, publish, site" ;;
  esac
}
