// Builds a history.json document from an archive-like description (commits of the ledger,
// attempts with their measured cases, rejected files), applying the rules of
// docs/history-json.md the way `perfgate history export` does: the winning attempt, commit
// status, coverage, attempt order, compatibility series and their ids, regression flags
// and the series order. The browser tests then see documents with the real shape.
import { canonicalJson, sha256Hex } from "./history-format.mjs";

const TIMING_UNITS_IN_MS = { s: 1000, ms: 1, us: 0.001, "µs": 0.001, ns: 0.000001 };
const DEFAULT_FLAG_RULE = { percent: 10, absolute_ms: 0.1, mad_factor: 3 };

function byteCompare(a, b) {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

function instant(timestamp) {
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) throw new Error(`not a timestamp: ${timestamp}`);
  return ms;
}

// started_at as an instant, then identity: sha, run by bytes, attempt as a number.
function compareAttempts(a, b) {
  return (
    instant(a.started_at) - instant(b.started_at) ||
    byteCompare(a.sha, b.sha) ||
    byteCompare(a.run, b.run) ||
    a.attempt - b.attempt
  );
}

function attemptId(attempt) {
  return `${attempt.sha}-${attempt.run}-${attempt.attempt}`;
}

function attemptPart(attempt) {
  return sha256Hex(
    canonicalJson({
      benchmark_sources: attempt.benchmark_sources,
      configuration: attempt.configuration,
      environment: attempt.environment,
      harness_version: attempt.harness_version,
      label: attempt.label,
    }),
  );
}

function seriesId(part, result) {
  const text = canonicalJson({
    attempt_part: part,
    case: result.case,
    metric: result.metric,
    repetitions: result.repetitions,
    source_id: result.source_id,
    threads: result.threads,
    unit: result.unit,
  });
  return "s-" + sha256Hex(text).slice(0, 16);
}

function isFlagged(rule, unit, previous, current) {
  const toUnit = TIMING_UNITS_IN_MS[unit];
  if (toUnit === undefined) return false; // memory, counts: never flagged
  const rise = current.median - previous.median;
  return (
    rise > (rule.percent / 100) * previous.median &&
    rise > rule.absolute_ms / toUnit &&
    rise > rule.mad_factor * (current.mad + previous.mad)
  );
}

function completeAttempt(attempt) {
  return {
    errors: [],
    missing_cases: [],
    results: [],
    benchmark_sources: {},
    configuration: {},
    harness_version: 1,
    harness_sha: "9f1c2e7a4b3d5f6e8a9b0c1d2e3f4a5b6c7d8e9f",
    label: "diagnostic",
    ...attempt,
  };
}

function buildSeries(spec, commits, winnerOf, attemptIndex) {
  const rule = { ...DEFAULT_FLAG_RULE, ...(spec.flagRule || {}) };
  const seriesById = new Map();
  commits.forEach((commit, commitIndex) => {
    const winner = winnerOf.get(commit.sha);
    if (!winner || winner.status !== "success") return;
    const part = attemptPart(winner);
    for (const result of winner.results) {
      const id = seriesId(part, result);
      let series = seriesById.get(id);
      if (!series) {
        series = {
          id,
          case: result.case,
          metric: result.metric,
          unit: result.unit,
          label: winner.label,
          environment: winner.environment,
          harness_version: winner.harness_version,
          threads: result.threads,
          points: { commit: [], median: [], mad: [], min: [], max: [], attempt: [], flag: [] },
        };
        seriesById.set(id, series);
      }
      const points = series.points;
      const k = points.commit.length;
      const flagged =
        k > 0 &&
        isFlagged(rule, result.unit, { median: points.median[k - 1], mad: points.mad[k - 1] }, result);
      points.commit.push(commitIndex);
      points.median.push(result.median);
      points.mad.push(result.mad);
      points.min.push(result.min);
      points.max.push(result.max);
      points.attempt.push(attemptIndex.get(winner));
      points.flag.push(flagged ? 1 : 0);
    }
  });
  const series = [...seriesById.values()];
  for (const s of series) {
    const p = s.points;
    s.count = p.commit.length;
    s.first_commit = commits[p.commit[0]].sha;
    s.last_commit = commits[p.commit[s.count - 1]].sha;
  }
  series.sort(
    (a, b) =>
      b.count - a.count ||
      b.points.commit[b.count - 1] - a.points.commit[a.count - 1] ||
      byteCompare(a.id, b.id),
  );
  return series;
}

function buildFlags(series, commits) {
  const flags = [];
  for (const s of series) {
    const p = s.points;
    for (let k = 1; k < s.count; k++) {
      if (p.flag[k] !== 1) continue;
      const previous = p.median[k - 1];
      flags.push({
        series: s.id,
        commit: commits[p.commit[k]].sha,
        previous_commit: commits[p.commit[k - 1]].sha,
        median: p.median[k],
        previous_median: previous,
        change_percent: previous === 0 ? null : (100 * (p.median[k] - previous)) / previous,
        confirmation: "not_remeasured",
        earlier: null,
      });
    }
  }
  return flags;
}

// spec: { commits: [{sha, time, summary}], attempts: [{sha, run, attempt, started_at,
// finished_at, status, label, environment, configuration, benchmark_sources, errors,
// missing_cases, results: [{case, metric, unit, repetitions, source_id, threads, median,
// mad, min, max}]}], rejected, branch, archive, current, generated_at, source_sha, ... }
export function buildHistory(spec) {
  const commits = spec.commits;
  const attempts = spec.attempts.map(completeAttempt).sort(compareAttempts);
  const attemptIndex = new Map(attempts.map((a, i) => [a, i]));

  const attemptsOfCommit = new Map();
  for (const attempt of attempts) {
    if (!attemptsOfCommit.has(attempt.sha)) attemptsOfCommit.set(attempt.sha, []);
    attemptsOfCommit.get(attempt.sha).push(attempt);
  }
  // Attempts are already in started_at-then-identity order, so the last one wins.
  const winnerOf = new Map([...attemptsOfCommit].map(([sha, list]) => [sha, list[list.length - 1]]));

  const commitEntries = commits.map((commit) => {
    const list = attemptsOfCommit.get(commit.sha) || [];
    const winner = winnerOf.get(commit.sha);
    return {
      sha: commit.sha,
      time: commit.time === undefined ? null : commit.time,
      summary: commit.summary === undefined ? null : commit.summary,
      status: !winner ? "missing" : winner.status === "success" ? "measured" : "failed",
      attempt: winner ? attemptId(winner) : null,
      attempts: list.map(attemptId),
    };
  });

  const series = buildSeries(spec, commits, winnerOf, attemptIndex);
  const count = (status) => commitEntries.filter((c) => c.status === status).length;
  const baseline = spec.baseline || (commits[0] ? commits[0].sha : "0".repeat(40));
  return {
    schema_version: spec.schema_version === undefined ? 1 : spec.schema_version,
    kind: "perfgate-history",
    generated_at: spec.generated_at || "2026-05-09T06:00:00Z",
    generated_by: spec.generated_by || "perfgate 0.1.0",
    source_sha: spec.source_sha || baseline,
    branch: spec.branch || "main",
    archive: spec.archive || "git:perfgate-data",
    baseline,
    current: spec.current || (commits.length ? commits[commits.length - 1].sha : baseline),
    commits: commitEntries,
    coverage: {
      monitored: commitEntries.length,
      measured: count("measured"),
      failed: count("failed"),
      missing: count("missing"),
    },
    attempts: attempts.map((a) => ({
      id: attemptId(a),
      sha: a.sha,
      run: a.run,
      attempt: a.attempt,
      started_at: a.started_at,
      finished_at: a.finished_at,
      status: a.status,
      label: a.label,
      harness_sha: a.harness_sha,
      harness_version: a.harness_version,
      environment: a.environment,
      configuration: a.configuration,
      benchmark_sources: a.benchmark_sources,
      errors: a.errors,
      missing_cases: a.missing_cases,
      case_count: a.results.length,
      raw_path: `raw/${attemptId(a)}/`,
      superseded: winnerOf.get(a.sha) !== a,
    })),
    rejected: [...(spec.rejected || [])].sort((a, b) => byteCompare(a.path, b.path)),
    series,
    flags: buildFlags(series, commits),
  };
}
