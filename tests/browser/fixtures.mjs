// The histories the browser tests load, each built by history-builder.mjs from a small
// archive-like description, and written where the viewer looks for them (data/history.js
// and/or data/history.json beside index.html).
//
// As a command, writes one scenario for a person to look at:
//   node tests/browser/fixtures.mjs partial /tmp/site      (then open /tmp/site/data/...)
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildHistory } from "./history-builder.mjs";
import { documentText } from "./history-format.mjs";

export const HOSTILE = `<img src=x onerror=alert(1)>`;
const HOSTILE_SCRIPT = `"><script>alert(2)</script>`;
const HOSTILE_SVG = `</text><svg onload=alert(3)>`;

export function commitSha(n, salt = "commit") {
  return createHash("sha1").update(`${salt}:${n}`).digest("hex");
}

// Deterministic pseudo-random numbers, so that every run draws the same charts.
function randomSource(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const T0 = Date.parse("2026-01-05T09:00:00Z");
const HOUR = 3600 * 1000;

function timestamp(ms) {
  return new Date(ms).toISOString().replace(".000Z", "Z");
}

const XEON = { cpu: "Intel Xeon Platinum 8375C", kernel: "6.8.0-1021-azure", os: "Ubuntu 24.04", compiler: "gcc 12.2" };
const EPYC = { cpu: "AMD EPYC 7763", kernel: "6.1.0-18-amd64", os: "Debian 12", compiler: "gcc 12.2" };
const BUILD = { build: ["cmake -B build -DCMAKE_BUILD_TYPE=Release", "cmake --build build"], suite: "benchmarks/" };
const SOURCES = { "benchmarks/sort.toml": "3b18e512dba79e4c8300dd08aeb37f8e728b8dad" };

function ledger(count, summaryOf = (i) => `Change number ${i}`) {
  return Array.from({ length: count }, (_, i) => ({
    sha: commitSha(i),
    time: Math.floor((T0 + i * HOUR) / 1000),
    summary: summaryOf(i),
  }));
}

function attempt(commit, index, fields) {
  const start = T0 + index * HOUR + 10 * 60 * 1000;
  return {
    sha: commit.sha,
    run: String(8800 + index),
    attempt: 1,
    started_at: timestamp(start),
    finished_at: timestamp(start + 4 * 60 * 1000),
    status: "success",
    label: "stable",
    environment: XEON,
    configuration: BUILD,
    benchmark_sources: SOURCES,
    ...fields,
  };
}

function timing(caseName, metric, median, spread = 0.01) {
  return {
    case: caseName,
    metric,
    unit: "ms",
    repetitions: 5,
    source_id: "c1",
    threads: 1,
    median,
    mad: median * spread,
    min: median * (1 - 3 * spread),
    max: median * (1 + 4 * spread),
  };
}

export function emptyHistory() {
  return buildHistory({ commits: [], attempts: [], baseline: commitSha(0) });
}

export function onePointHistory() {
  const commits = ledger(1, () => "Add the sort benchmark");
  return buildHistory({
    commits,
    attempts: [attempt(commits[0], 0, { results: [timing("sort[n=1000]", "latency", 10)] })],
  });
}

// Commits, but no successful measurement: nothing to chart, everything to explain.
export function noSeriesHistory() {
  const commits = ledger(3);
  return buildHistory({
    commits,
    attempts: [0, 2].map((i) => attempt(commits[i], i, {
      status: "failure",
      missing_cases: ["sort[n=1000]"],
      errors: [{ stage: "build", message: `build ${i} failed` }],
    })),
  });
}

// Twelve commits on the Xeon, then a second setup: every way a commit can lack a point.
export function partialHistory(overrides = {}) {
  const commits = ledger(12, (i) => ["Add the sort benchmark", "Use a stable sort", "Inline the comparator"][i] || `Tune step ${i}`);
  const results = (i) => {
    const slow = i >= 6 ? 1.3 : 1; // commit 6 makes sorting 30% slower: flagged
    return [
      timing("sort[n=1000]", "latency", 10 * slow + (i % 3) * 0.05),
      timing("sort[n=1000]", "cpu_time", 9.5 * slow + (i % 2) * 0.04),
      timing("sort[n=100000]", "latency", 1450 + i * 3),
      { ...timing("sort[n=1000]", "memory", 4096000 + i * 1024), unit: "B" },
    ];
  };
  const attempts = [];
  commits.forEach((commit, i) => {
    if (i === 3 || i === 11) return; // missing: never measured (11 is current)
    if (i === 4) {
      attempts.push(attempt(commit, i, {
        status: "failure",
        results: [],
        missing_cases: ["sort[n=1000]", "sort[n=100000]"],
        errors: [{ stage: "build", message: "cmake --build build exited with status 2" }],
      }));
      return;
    }
    if (i === 8) {
      // An older success hidden by a newer failure: the commit is failed, not measured.
      attempts.push(attempt(commit, i, { results: results(i) }));
      attempts.push(attempt(commit, i + 0.5, {
        run: "9100",
        status: "failure",
        results: [],
        missing_cases: ["sort[n=100000]"],
        errors: [
          { stage: "suite", message: "benchmarks/sort: timed out after 600 s" },
          { stage: "case", message: "sort[n=100000]: no measurement" },
        ],
      }));
      return;
    }
    if (i === 2) {
      // A failed first try, then a success in a later run: measured.
      attempts.push(attempt(commit, i, {
        status: "failure",
        results: [],
        missing_cases: ["sort[n=1000]"],
        errors: [{ stage: "checkout", message: "git checkout: reference is not a tree" }],
      }));
      attempts.push(attempt(commit, i + 0.5, { run: "9001", results: results(i) }));
      return;
    }
    if (i === 9) {
      // Measured on another machine: its points are another series.
      attempts.push(attempt(commit, i, { label: "diagnostic", environment: EPYC, results: results(i) }));
      return;
    }
    attempts.push(attempt(commit, i, { results: results(i) }));
  });
  const unmonitored = { sha: commitSha(99, "elsewhere"), time: null, summary: null };
  attempts.push(attempt(unmonitored, 5, { results: results(5) }));
  return buildHistory({
    commits,
    attempts,
    rejected: [
      {
        id: `${commits[11].sha}-8851-1`,
        path: `attempts/${commits[11].sha}-8851-1.json`,
        reason: `attempts/${commits[11].sha}-8851-1.json: cases[0].metrics.latency.median: a time's median is zero`,
      },
      { id: "", path: "attempts/notes.json", reason: "attempts/notes.json: the name is not an attempt identity" },
    ],
    ...overrides,
  });
}

// Markup and script in every string the viewer shows: names, summaries, errors,
// environment keys and values, configuration, run ids, rejected files.
export function hostileHistory() {
  const commits = ledger(5, (i) => `${HOSTILE} summary ${i} ${HOSTILE_SCRIPT}`);
  commits[4].summary = HOSTILE_SVG;
  const environment = { cpu: HOSTILE, kernel: HOSTILE_SCRIPT, os: HOSTILE_SVG, [HOSTILE]: HOSTILE };
  const configuration = { build: [HOSTILE, HOSTILE_SCRIPT], suite: HOSTILE_SVG };
  const result = (i) => ({
    ...timing(HOSTILE, HOSTILE_SCRIPT, 10 + (i === 3 ? 5 : 0)),
    unit: "ms",
  });
  const attempts = [0, 1, 3].map((i) => attempt(commits[i], i, { environment, configuration, results: [result(i), { ...result(i), case: HOSTILE_SVG }] }));
  attempts.push(attempt(commits[2], 2, {
    run: HOSTILE_SCRIPT,
    environment,
    configuration,
    status: "failure",
    results: [],
    missing_cases: [HOSTILE],
    errors: [{ stage: "build", message: `${HOSTILE} ${HOSTILE_SCRIPT} ${HOSTILE_SVG}` }],
  }));
  return buildHistory({
    commits,
    attempts,
    branch: HOSTILE,
    archive: HOSTILE_SCRIPT,
    generated_by: HOSTILE_SVG,
    rejected: [{ id: HOSTILE, path: `attempts/${HOSTILE}.json`, reason: `${HOSTILE_SCRIPT} is not JSON` }],
  });
}

// The bench size: `commitCount` monitored commits, `caseCount` timing series over them,
// about 2% missing and 1% failed commits, and a few regressions.
export function largeHistory({ commitCount = 10000, caseCount = 60 } = {}) {
  const random = randomSource(42);
  const commits = ledger(commitCount);
  const level = Array.from({ length: caseCount }, (_, c) => 0.5 + (c % 10) * 3.7 + c * 0.11);
  const attempts = [];
  commits.forEach((commit, i) => {
    const roll = random();
    // Sudden steps, sometimes up (a regression), sometimes down (a fix).
    for (let c = 0; c < caseCount; c++) {
      const step = random();
      if (step < 0.0004) level[c] *= 1.25;
      else if (step < 0.0008) level[c] /= 1.2;
    }
    if (roll < 0.02) return;
    if (roll < 0.03) {
      attempts.push(attempt(commit, i, {
        status: "failure",
        missing_cases: [],
        errors: [{ stage: "build", message: `build of ${commit.sha.slice(0, 8)} failed: exit status 2` }],
      }));
      return;
    }
    const results = level.map((value, c) => {
      const median = value * (1 + (random() - 0.5) * 0.02);
      const mad = median * (0.002 + random() * 0.004);
      return {
        case: `bench_case_${String(c).padStart(2, "0")}[n=${1 << (c % 16)}]`,
        metric: c % 3 === 2 ? "cpu_time" : "latency",
        unit: "ms",
        repetitions: 5,
        source_id: "c1",
        threads: 1 + (c % 4),
        median,
        mad,
        min: median - mad * (1 + random()),
        max: median + mad * (1 + 2 * random()),
      };
    });
    attempts.push(attempt(commit, i, { results }));
  });
  return buildHistory({ commits, attempts });
}

// Writes data/history.js (the form that works from disk) and/or data/history.json.
export function writeHistoryData(siteDir, document, { js = true, json = false } = {}) {
  const dataDir = join(siteDir, "data");
  mkdirSync(dataDir, { recursive: true });
  const text = documentText(document);
  if (json) writeFileSync(join(dataDir, "history.json"), text);
  if (js) writeFileSync(join(dataDir, "history.js"), historyScript(text));
  return text.length;
}

export function historyScript(jsonText) {
  return `window.PERFGATE_HISTORY = ${jsonText.trimEnd()};\n`;
}

const SCENARIOS = {
  empty: emptyHistory,
  one: onePointHistory,
  noseries: noSeriesHistory,
  partial: partialHistory,
  hostile: hostileHistory,
  large: largeHistory,
  records100k: () => largeHistory({ commitCount: 10000, caseCount: 10 }),
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [name, siteDir] = process.argv.slice(2);
  if (!SCENARIOS[name] || !siteDir) {
    console.error(`usage: node fixtures.mjs {${Object.keys(SCENARIOS).join("|")}} SITE_DIR`);
    process.exit(2);
  }
  const bytes = writeHistoryData(siteDir, SCENARIOS[name](), { js: true, json: true });
  console.log(`${name}: ${bytes} bytes of history.json in ${join(siteDir, "data")}`);
}
