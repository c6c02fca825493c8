// The histories and store views the browser tests load, each built from a small
// description (history-builder.mjs: an archive; store-builder.mjs: records), and written
// where the viewer looks for them (data/history.js and/or data/history.json, data/store.js
// and/or data/store.json beside index.html).
//
// As a command, writes one scenario for a person to look at:
//   node tests/browser/fixtures.mjs partial /tmp/site      (then open /tmp/site/data/...)
//   node tests/browser/fixtures.mjs store-partial /tmp/site
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildHistory } from "./history-builder.mjs";
import { documentText, sha256Hex } from "./history-format.mjs";
import { apartStore } from "./store-apart.mjs";
import { buildLargeStore, buildStore } from "./store-builder.mjs";

export const HOSTILE = `<img src=x onerror=alert(1)>`;
export const HOSTILE_SCRIPT = `"><script>alert(2)</script>`;
export const HOSTILE_SVG = `</text><svg onload=alert(3)>`;

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
    // 101 × 0.1: a median with a conversion's binary noise (10.100000000000001).
    attempts: [attempt(commits[0], 0, { results: [timing("sort[n=1000]", "latency", 101 * 0.1)] })],
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

// The partial history with the change points of its series (series[].changes): the
// Xeon latency steps up at its point 4 (commit #6, also flagged), where the series' points
// skip commits 3 and 4, so the point's index and its commit's differ. The other series
// carry "changes": [] as the writer writes it. (Seven points are fewer than perfgate's
// method needs, five each side: the viewer draws what the document says.)
export const CHANGE_P_VALUE = 2.5e-9;

export function changedHistory() {
  const doc = partialHistory();
  for (const series of doc.series) {
    const stepped = series.case === "sort[n=1000]" && series.metric === "latency" && series.environment.cpu === XEON.cpu;
    series.changes = stepped ? [changePoint(series.points.median, 4, { p_value: CHANGE_P_VALUE })] : [];
  }
  return doc;
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

// string: history.js assigns the JSON text as a string (what perfgate writes), which the
// viewer parses; otherwise an object literal (also accepted).
export function historyScript(jsonText, { string = false } = {}) {
  const body = jsonText.trimEnd();
  return `window.PERFGATE_HISTORY = ${string ? JSON.stringify(body) : body};\n`;
}

// The data scripts of a document as perfgate writes them (docs/dashboard.md): up to
// partBytes of JSON text, data/NAME.js sets GLOBAL to the text; beyond, data/NAME.js sets
// GLOBAL_PARTS (the count) and data/NAME.N.js sets GLOBAL_N (part N of the text). Returns
// {file name: script}.
export function partScripts(name, global, jsonText, partBytes) {
  const body = jsonText.trimEnd();
  const count = Math.max(1, Math.ceil(body.length / partBytes));
  if (count === 1) return { [`${name}.js`]: `window.${global} = ${JSON.stringify(body)};\n` };
  const files = { [`${name}.js`]: `window.${global}_PARTS = ${count};\n` };
  for (let i = 1; i <= count; i++) {
    files[`${name}.${i}.js`] = `window.${global}_${i} = ${JSON.stringify(body.slice((i - 1) * partBytes, i * partBytes))};\n`;
  }
  return files;
}

// ---- Store views (docs/store-json.md) ----

const DAY = 24 * HOUR;
const STORE_T0 = Date.parse("2026-11-21T10:00:00Z");


function storeRecord(k, fields) {
  return {
    timestamp: timestamp(STORE_T0 + k * DAY),
    commit: commitSha(k, "store"),
    branch: "main",
    run_source: "scheduled_main",
    comparison_status: "PASS",
    comparison_reason: "Comparable baseline found with no gated regressions",
    baseline_status: "compared",
    eligible: true,
    success: true,
    attempt: sha256Hex(`attempt ${k}`),
    record: sha256Hex(`record ${k}`),
    ...fields,
  };
}

export const SORT_IDENTITY = {
  workload_id: "sort",
  variant_id: "default",
  benchmark_version: 1,
  recipe_fingerprint: sha256Hex("recipe sort"),
  hardware_profile_id: "hw-1a2b3c4d",
  software_profile_id: "sw-5e6f7a8b",
};

const SORT_UNITS = {
  latency: { unit: "s", direction: "lower" },
  memory: { unit: "MB", direction: "lower" },
  throughput: { unit: "items/s", direction: "higher" },
};

// The sort cohort: ten daily records, a calibration first, a local run without a commit,
// a pull request's REGRESSION, a time recorded in another zone, and memory missing from
// three records; throughput is named by a policy but never measured.
export function sortCohort() {
  const latency = [0.0121, 0.0119, 0.012, 0.0118, 0.0122, 0.0135, 0.0121, 0.012, 0.0119, 0.0121];
  const memory = [41.2, null, 41.0, null, 41.3, 41.9, 41.1, null, 41.0, 41.2];
  const special = {
    0: { comparison_status: "CALIBRATION_NEEDED", comparison_reason: "No baseline found for exact comparable identity", baseline_status: "initialized_new_cohort" },
    1: { run_source: "local", commit: null, branch: null, eligible: false },
    3: { run_source: "pr", branch: "feature/faster-sort", eligible: false },
    5: {
      run_source: "pr",
      branch: "feature/faster-sort",
      comparison_status: "REGRESSION",
      comparison_reason: "gated metrics regressed against the rolling baseline: latency +12.5% (+0.0015 s)",
      eligible: false,
    },
    6: { timestamp: "2026-11-27T19:00:00+09:00" },
  };
  return {
    kind: "v2",
    identity: SORT_IDENTITY,
    benchmark: "sort",
    device: "cpu",
    units: SORT_UNITS,
    named: ["latency", "throughput"],
    records: latency.map((value, k) => storeRecord(k, { ...special[k], metrics: { latency: value, memory: memory[k] } })),
  };
}

function parseCohort() {
  return {
    kind: "v2",
    identity: { ...SORT_IDENTITY, workload_id: "parse", variant_id: "json", benchmark_version: 2, recipe_fingerprint: sha256Hex("recipe parse") },
    benchmark: "parse_json",
    device: "cpu",
    units: { latency: { unit: "ms", direction: "lower" }, cpu_time: { unit: "ms", direction: "lower" } },
    records: [0, 1, 2, 3, 4, 5].map((k) => storeRecord(k + 0.25, {
      attempt: sha256Hex(`parse attempt ${k}`),
      record: sha256Hex(`parse record ${k}`),
      run_source: k % 2 ? "pr" : "scheduled_main",
      // compare --method stat could not decide record 2: its own marker and legend entry.
      ...(k === 2 ? {
        comparison_status: "INCONCLUSIVE",
        comparison_reason: "the change's interval straddles the threshold: latency +9% (+0.29 ms), 95% interval +6.5% to +11.6%. Rerun, or raise the repetitions",
        baseline_status: "compared",
        eligible: false,
      } : {}),
      ...(k === 4 ? {
        comparison_status: "RECIPE_MISMATCH",
        comparison_reason: "no baseline for recipe 0123456789ab; trusted records of parse/json/v2 exist under recipe(s) 3f2a9c81d0e4",
        baseline_status: "compared",
        eligible: false,
      } : {}),
      metrics: { latency: 3.2 + k * 0.05, cpu_time: 2.9 + (k % 3) * 0.04 },
    })),
  };
}

function legacyCohort() {
  return {
    kind: "legacy_v1",
    benchmark: "render",
    device: "gpu",
    units: { latency: { unit: "s", direction: "lower" }, fps: { unit: "frames/s", direction: "higher" } },
    records: [0, 1, 2, 3].map((k) => storeRecord(k * 2 + 0.5, {
      attempt: sha256Hex(`render attempt ${k}`),
      record: sha256Hex(`render record ${k}`),
      eligible: false,
      baseline_status: "skipped_missing_identity",
      comparison_reason: "legacy v1 record: gated by static thresholds only",
      ...(k === 2 ? { comparison_status: "REGRESSION", comparison_reason: "static threshold breached: latency mean 2.1 s > 2 s", success: false } : {}),
      metrics: { latency: k === 2 ? 2.1 : 1.8 + k * 0.02, fps: 58 - k },
    })),
  };
}

function invalidCohort() {
  return {
    kind: "invalid_v2",
    identity: { workload_id: "upload", variant_id: "default", benchmark_version: 1, hardware_profile_id: "hw-1a2b3c4d" },
    benchmark: "upload",
    device: "cpu",
    units: { latency: { unit: "s", direction: "lower" } },
    records: [0, 1, 2].map((k) => storeRecord(k * 3 + 0.75, {
      attempt: sha256Hex(`upload attempt ${k}`),
      record: sha256Hex(`upload record ${k}`),
      comparison_status: "INFRA_ERROR",
      comparison_reason: "v2 record is missing required identity fields: recipe_fingerprint, software_profile_id",
      baseline_status: "skipped_missing_identity",
      eligible: false,
      success: false,
      metrics: { latency: 0.8 + k * 0.1 },
    })),
  };
}

// Two records that name a metric no record measured: nothing to chart at all.
function unmeasuredCohort() {
  return {
    kind: "legacy_v1",
    benchmark: "boot",
    device: "cpu",
    units: { boot_time: { unit: "s", direction: "lower" } },
    named: ["boot_time"],
    records: [0, 1].map((k) => storeRecord(k * 4 + 0.1, {
      attempt: sha256Hex(`boot attempt ${k}`),
      record: sha256Hex(`boot record ${k}`),
      eligible: false,
      baseline_status: "skipped_missing_identity",
      comparison_reason: "legacy v1 record: gated by static thresholds only",
      metrics: {},
    })),
  };
}

// The change point of `values` at `index` (the first record or point after it), as perfgate
// reports one (docs/changes.md): the means of the segments beside it, between the
// neighbouring changes `from` and `to`, relative_change = after / before − 1, and whether
// that is worse for `direction`.
function changePoint(values, index, { from = 0, to = values.length, direction = "lower", p_value }) {
  const mean = (list) => list.reduce((sum, v) => sum + v, 0) / list.length;
  const before = mean(values.slice(from, index));
  const after = mean(values.slice(index, to));
  const relative_change = after / before - 1;
  return { index, before, after, relative_change, worse: direction === "lower" ? relative_change > 0 : relative_change < 0, p_value };
}

// Twenty daily records of a compression benchmark: latency steps up 15% at record 12 (a
// REGRESSION there too), memory falls 6.25% at record 6 and rises 2.5% at record 14;
// wall_time is flat and carries "changes": [] as the writer writes it.
export const STEPPED_LABEL_PREFIX = "compress/zstd/v1 (recipe ";

function steppedCohort() {
  const wiggle = [0.2, -0.2, 0.1, -0.1]; // sums to zero: the segments' means are round
  const latency = Array.from({ length: 20 }, (_, k) => (k < 12 ? 20 : 23) + wiggle[k % 4]);
  const memory = Array.from({ length: 20 }, (_, k) => (k < 6 ? 64 : k < 14 ? 60 : 61.5) + wiggle[k % 4] / 2);
  const wallTime = Array.from({ length: 20 }, (_, k) => 1.5 + wiggle[k % 4] / 10);
  return {
    kind: "v2",
    identity: { ...SORT_IDENTITY, workload_id: "compress", variant_id: "zstd", recipe_fingerprint: sha256Hex("recipe compress") },
    benchmark: "compress_zstd",
    device: "cpu",
    units: {
      latency: { unit: "ms", direction: "lower" },
      memory: { unit: "MB", direction: "lower" },
      wall_time: { unit: "s", direction: "lower" },
    },
    changes: {
      latency: [changePoint(latency, 12, { p_value: 2.7e-26 })],
      memory: [
        changePoint(memory, 6, { to: 14, p_value: 3.1e-12 }),
        changePoint(memory, 14, { from: 6, p_value: 0.00042 }),
      ],
      wall_time: [],
    },
    records: latency.map((value, k) => storeRecord(k + 0.5, {
      attempt: sha256Hex(`compress attempt ${k}`),
      record: sha256Hex(`compress record ${k}`),
      ...(k === 12 ? {
        comparison_status: "REGRESSION",
        comparison_reason: "gated metrics regressed against the rolling baseline: latency +15.0% (+3 ms)",
        eligible: false,
      } : {}),
      metrics: { latency: value, memory: memory[k], wall_time: wallTime[k] },
    })),
  };
}

// A cohort whose series step (with metrics[].changes), beside the sort cohort (without).
export function steppedStore() {
  return buildStore({ cohorts: [steppedCohort(), sortCohort()] });
}

export function emptyStore() {
  return buildStore({ cohorts: [] });
}

export function oneRecordStore() {
  const cohort = sortCohort();
  cohort.records = cohort.records.slice(0, 1);
  return buildStore({ cohorts: [cohort] });
}

// Several cohorts of every kind: the sort cohort, another v2 cohort with a
// RECIPE_MISMATCH, Legacy v1 and Invalid v2 cohorts, and one without any value.
export function partialStore(overrides = {}) {
  return buildStore({
    cohorts: [sortCohort(), parseCohort(), legacyCohort(), invalidCohort(), unmeasuredCohort()],
    ...overrides,
  });
}

// Markup and script in every string the store views show.
export function hostileStore() {
  const hostileRecord = (k, fields = {}) => storeRecord(k, {
    benchmark: HOSTILE,
    commit: HOSTILE_SVG,
    branch: HOSTILE,
    run_source: HOSTILE_SCRIPT,
    comparison_status: HOSTILE,
    comparison_reason: `${HOSTILE} ${HOSTILE_SCRIPT}`,
    baseline_status: HOSTILE_SVG,
    attempt: HOSTILE_SCRIPT,
    record: HOSTILE,
    metrics: { [HOSTILE_SCRIPT]: 10 + k, [HOSTILE]: k === 1 ? null : 5 - k },
    ...fields,
  });
  const units = { [HOSTILE_SCRIPT]: { unit: HOSTILE_SVG, direction: "lower" }, [HOSTILE]: { unit: HOSTILE, direction: "higher" }, [HOSTILE_SVG]: { unit: HOSTILE_SCRIPT, direction: "lower" } };
  return buildStore({
    store: HOSTILE,
    generated_at: HOSTILE_SVG,
    filter: { benchmark: HOSTILE, since: HOSTILE_SCRIPT },
    cohorts: [
      {
        kind: "v2",
        id: `${HOSTILE_SVG}/${HOSTILE}`,
        label: `${HOSTILE} ${HOSTILE_SCRIPT}`,
        identity: { ...SORT_IDENTITY, workload_id: HOSTILE, variant_id: HOSTILE_SCRIPT, hardware_profile_id: HOSTILE_SVG },
        benchmark: HOSTILE,
        device: HOSTILE_SVG,
        units,
        named: [HOSTILE_SVG],
        records: [0, 1, 2].map((k) => hostileRecord(k, k === 2 ? { comparison_status: "REGRESSION" } : {})),
      },
      {
        kind: "invalid_v2",
        label: `Invalid v2 (${HOSTILE_SVG})`,
        id: `invalid-v2/${HOSTILE_SVG}`,
        benchmark: HOSTILE_SVG,
        device: HOSTILE,
        units,
        records: [hostileRecord(5)],
      },
    ],
  });
}

// Records a store could not place on a time axis (a damaged or hand-written timestamp),
// beside the sort cohort: unplaced_records lists them, record_count leaves them out.
export const UNPLACED_TIMESTAMPS = ["2026-13-45T10:00:00Z", "yesterday", HOSTILE_SCRIPT];

export function unplacedStore() {
  const sort = sortCohort();
  const bad = UNPLACED_TIMESTAMPS.map((timestamp, i) => ({
    ...storeRecord(20 + i, { attempt: sha256Hex(`unplaced attempt ${i}`), record: sha256Hex(`unplaced record ${i}`) }),
    timestamp,
    benchmark: i === 2 ? HOSTILE : "sort",
    metrics: { latency: 0.012 },
  }));
  sort.records.splice(4, 0, bad[0], bad[1]);
  sort.records.push(bad[2]);
  return buildStore({ cohorts: [sort] });
}

// One cohort of 250 records: more than the records table draws at first.
export function bigCohortStore() {
  return buildLargeStore({ cohortCount: 1, perCohort: 250, metricCount: 2, random: randomSource(11), hash: sha256Hex });
}

// 100,000 records: `cohortCount` cohorts of about `perCohort` records, `metricCount` metrics.
export function largeStore({ cohortCount = 50, perCohort = 2000, metricCount = 3 } = {}) {
  return buildLargeStore({ cohortCount, perCohort, metricCount, random: randomSource(7), hash: sha256Hex });
}

// Writes data/store.js (the form that works from disk) and/or data/store.json, laid out as
// the writer lays them out (sorted keys, compact, newline-ended). string: store.js assigns
// the JSON text as a string, which the viewer parses (also accepted).
// apart: store.js as perfgate writes a large store's site, each cohort's details apart in
// data/cohorts/N.js and the rest as a string in parts of 2 MiB (store.json stays whole).
export function writeStoreData(siteDir, document, { js = true, json = false, string = false, apart = false } = {}) {
  const dataDir = join(siteDir, "data");
  mkdirSync(dataDir, { recursive: true });
  const text = documentText(document);
  if (json) writeFileSync(join(dataDir, "store.json"), text);
  if (js && apart) writeApartScripts(dataDir, document);
  else if (js) writeFileSync(join(dataDir, "store.js"), storeScript(text, { string }));
  return text.length;
}

// What perfgate report writes for a large document: the JSON text in parts of 2 MiB.
export const PART_BYTES = 2 * 1024 * 1024;

// data/store.js (in parts beyond PART_BYTES) and data/cohorts/N.js; returns the bytes of
// JSON text the first screen loads.
export function writeApartScripts(dataDir, document) {
  const { document: first, details } = apartStore(document);
  const text = documentText(first);
  for (const [file, script] of Object.entries(partScripts("store", "PERFGATE_STORE", text, PART_BYTES))) {
    writeFileSync(join(dataDir, file), script);
  }
  mkdirSync(join(dataDir, "cohorts"), { recursive: true });
  details.forEach((doc, i) => {
    writeFileSync(join(dataDir, "cohorts", `${i + 1}.js`), `window.PERFGATE_COHORT_${i + 1} = ${JSON.stringify(documentText(doc).trimEnd())};\n`);
  });
  return text.length;
}

export function storeScript(jsonText, { string = false } = {}) {
  const body = jsonText.trimEnd();
  return `window.PERFGATE_STORE = ${string ? JSON.stringify(body) : body};\n`;
}

const SCENARIOS = {
  empty: emptyHistory,
  one: onePointHistory,
  noseries: noSeriesHistory,
  partial: partialHistory,
  changes: changedHistory,
  hostile: hostileHistory,
  large: largeHistory,
  records100k: () => largeHistory({ commitCount: 10000, caseCount: 10 }),
  "store-empty": emptyStore,
  "store-one": oneRecordStore,
  "store-partial": partialStore,
  "store-hostile": hostileStore,
  "store-unplaced": unplacedStore,
  "store-stepped": steppedStore,
  "store-records100k": largeStore,
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [name, siteDir] = process.argv.slice(2);
  if (!SCENARIOS[name] || !siteDir) {
    console.error(`usage: node fixtures.mjs {${Object.keys(SCENARIOS).join("|")}} SITE_DIR`);
    process.exit(2);
  }
  const store = name.startsWith("store-");
  const write = store ? writeStoreData : writeHistoryData;
  const bytes = write(siteDir, SCENARIOS[name](), { js: true, json: true });
  console.log(`${name}: ${bytes} bytes of ${store ? "store" : "history"}.json in ${join(siteDir, "data")}`);
}
