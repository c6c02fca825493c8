// The dashboard as the real perfgate writes and serves it: a store filled by `perfgate
// import` from Google Benchmark files (one benchmark named like markup), then the site of
// `perfgate report --format html` opened from disk, `perfgate serve` with a record added
// while it runs, and both with a commit history. The binary is $PERFGATE_BIN (make test
// sets it), else build-asan/perfgate of this checkout; without either the tests are skipped.
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Skip, assert, assertClean, assertEqual, viewerFiles, waitReady } from "./harness.mjs";
import { HOSTILE, partialHistory } from "./fixtures.mjs";
import { documentText } from "./history-format.mjs";
import { DICTIONARY_COLUMNS } from "./store-builder.mjs";
import { NOTHING_INJECTED, hoverRecord, injected, pickCohort } from "./store-tests.mjs";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
// An AddressSanitizer build starts slowly and runs a few times slower than a release one.
const COMMAND_TIMEOUT_MS = 120000;

// The binary under test: PERFGATE_BIN (relative to the current folder, as make passes it),
// else build-asan/perfgate of this checkout.
function perfgateBinary() {
  const named = process.env.PERFGATE_BIN;
  if (named) {
    const path = resolve(process.cwd(), named);
    if (!existsSync(path)) throw new Error(`PERFGATE_BIN=${named}: there is no such file (${path})`);
    return path;
  }
  const fallback = join(REPO, "build-asan", "perfgate");
  if (existsSync(fallback)) return fallback;
  throw new Skip(`skipped: set PERFGATE_BIN to a perfgate binary (${fallback} does not exist)`);
}

const ENV = { ...process.env, NO_COLOR: "1" };

// Runs perfgate with `args` in `cwd`; resolves to {code, stdout, stderr}, rejects when the
// exit status is not one of `codes`.
function perfgate(args, { cwd, codes = [0] }) {
  const binary = perfgateBinary();
  return new Promise((done, fail) => {
    const child = spawn(binary, args, { cwd, env: ENV, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => { stdout += chunk; });
    child.stderr.on("data", (chunk) => { stderr += chunk; });
    const timer = setTimeout(() => child.kill("SIGKILL"), COMMAND_TIMEOUT_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (codes.includes(code)) done({ code, stdout, stderr });
      else fail(new Error(`perfgate ${args.join(" ")} exited ${signal ? "by " + signal : code}: ${(stderr || stdout).trim().split("\n").slice(-3).join(" | ")}`));
    });
  });
}

// A Google Benchmark JSON result (docs/formats.md): `benchmarks` as [{name, unit, times}],
// each time one repetition's real_time.
function gbenchFile(path, benchmarks) {
  const rows = benchmarks.flatMap((benchmark, family) => benchmark.times.map((time, repetition) => ({
    name: benchmark.name,
    family_index: family,
    per_family_instance_index: 0,
    run_name: benchmark.name,
    run_type: "iteration",
    repetitions: benchmark.times.length,
    repetition_index: repetition,
    threads: 1,
    iterations: 1000,
    real_time: time,
    cpu_time: time * 0.98,
    time_unit: benchmark.unit,
  })));
  const context = { date: "2026-12-01T10:00:00+00:00", host_name: "ci", executable: "./bench", num_cpus: 2, mhz_per_cpu: 3000, cpu_scaling_enabled: false, library_build_type: "release" };
  writeFileSync(path, JSON.stringify({ context, benchmarks: rows }, null, 2));
  return path;
}

const SORT = "BM_sort/1000";
// The imports, in order: two before the site is written, one while perfgate serve runs.
const IMPORTS = [
  { source: "scheduled_main", benchmarks: [{ name: SORT, unit: "ms", times: [12.1, 12.3, 12.2] }, { name: HOSTILE, unit: "us", times: [3.5, 3.6] }] },
  { source: "pr", benchmarks: [{ name: SORT, unit: "ms", times: [12.6, 12.4, 12.5] }, { name: HOSTILE, unit: "us", times: [3.4, 3.5] }] },
  { source: "local", benchmarks: [{ name: SORT, unit: "ms", times: [12.0, 12.2, 12.1] }] },
];

// Record timestamps are whole seconds: imports start a second apart, so that every record
// has a time of its own on the chart.
let lastImportStart = 0;

async function importRecords(dir, db, step) {
  const wait = lastImportStart + 1100 - Date.now();
  if (wait > 0) await new Promise((done) => setTimeout(done, wait));
  lastImportStart = Date.now();
  const file = gbenchFile(join(dir, `gbench-${step}.json`), IMPORTS[step].benchmarks);
  // 1: a REGRESSION or another failing verdict is still stored; the test reads the store.
  return perfgate(["import", file, "--store", `sqlite:${db}`, "--init", "--run-source", IMPORTS[step].source], { cwd: dir, codes: [0, 1] });
}

// The store of the first two imports, made once per run and copied by each test.
let baseStore = null;

function storeFor(h, name) {
  if (!baseStore || baseStore.root !== h.root) {
    const dir = join(h.root, "perfgate-base");
    mkdirSync(dir, { recursive: true });
    const db = join(dir, "perf.db");
    baseStore = {
      root: h.root,
      made: (async () => {
        await importRecords(dir, db, 0);
        await importRecords(dir, db, 1);
        return db;
      })(),
    };
  }
  return baseStore.made.then((db) => {
    const dir = join(h.root, name);
    mkdirSync(dir, { recursive: true });
    for (const suffix of ["", "-wal", "-shm"]) if (existsSync(db + suffix)) copyFileSync(db + suffix, join(dir, "perf.db" + suffix));
    return { dir, db: join(dir, "perf.db") };
  });
}

const UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$/;
const TOP_KEYS = ["cohorts", "commit_url", "filter", "generated_at", "kind", "record_count", "schema_version", "store", "unplaced_records"];
const COHORT_KEYS = ["benchmarks", "devices", "id", "identity", "kind", "label", "metrics", "records", "skipped_metrics"];
const RECORD_COLUMNS = ["attempt", "baseline_status", "benchmark", "branch", "commit", "comparison_reason", "comparison_status", "eligible", "record", "run_source", "success", "timestamp"];

// Whether codes name each value once at least, the values in the order first met: 0 first,
// then 1, and so on.
function firstMetInOrder(codes, size) {
  let next = 0;
  for (const code of codes) {
    if (code === next) next++;
    else if (code > next) return false;
  }
  return next === size;
}

function byteOrder(list) {
  return list.slice().sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

// Every way the document perfgate wrote departs from docs/store-json.md, as text; the
// document with its dictionary columns expanded, for the checks that follow.
function storeDocumentProblems(text, { store, recordCount }) {
  const problems = [];
  const check = (condition, what) => { if (!condition) problems.push(what); };
  const doc = JSON.parse(text);
  check(text.endsWith("\n") && !text.endsWith("\n\n"), "the document does not end with one newline");
  check(JSON.stringify(Object.keys(doc)) === JSON.stringify(TOP_KEYS), `top-level keys ${Object.keys(doc)}`);
  check(doc.schema_version === 1, `schema_version ${doc.schema_version}`);
  check(doc.kind === "perfgate-store-view", `kind ${doc.kind}`);
  check(UTC.test(doc.generated_at), `generated_at ${doc.generated_at}`);
  check(doc.store === store, `store ${doc.store}, not ${store}`);
  // No perfgate.toml in the folder the command ran in: no commit_url.
  check(doc.commit_url === null, `commit_url ${JSON.stringify(doc.commit_url)}, not null`);
  check(JSON.stringify(doc.filter) === JSON.stringify({ benchmark: null, since: null }), `filter ${JSON.stringify(doc.filter)}`);
  check(Array.isArray(doc.unplaced_records) && doc.unplaced_records.length === 0, `unplaced_records ${JSON.stringify(doc.unplaced_records)}`);
  const counted = doc.cohorts.reduce((sum, cohort) => sum + cohort.records.timestamp.length, 0);
  check(doc.record_count === recordCount && counted === recordCount, `record_count ${doc.record_count}, ${counted} records in cohorts, ${recordCount} imported`);
  doc.cohorts.forEach((cohort, i) => {
    const at = `cohorts[${i}]`;
    check(JSON.stringify(Object.keys(cohort)) === JSON.stringify(COHORT_KEYS), `${at} keys ${Object.keys(cohort)}`);
    check(cohort.kind === "v2", `${at}.kind ${cohort.kind}`);
    const identity = cohort.identity;
    const recipe = String(identity.recipe_fingerprint).slice(0, 12);
    const id = `${identity.workload_id}/${identity.variant_id}/v${identity.benchmark_version}/${recipe}/${identity.hardware_profile_id}/${identity.software_profile_id}`;
    check(cohort.id === id, `${at}.id ${cohort.id}, not ${id}`);
    // Its workload and variant; no two cohorts here share both, so nothing more.
    check(cohort.label === `${identity.workload_id}/${identity.variant_id}`, `${at}.label ${cohort.label}`);
    const records = cohort.records;
    check(JSON.stringify(Object.keys(records)) === JSON.stringify(RECORD_COLUMNS), `${at}.records keys ${Object.keys(records)}`);
    const n = records.timestamp.length;
    for (const column of RECORD_COLUMNS) {
      const value = records[column];
      if (DICTIONARY_COLUMNS.includes(column)) {
        const ok = value && JSON.stringify(Object.keys(value)) === JSON.stringify(["codes", "values"]) && value.codes.length === n &&
          value.codes.every((code) => Number.isInteger(code) && code >= 0 && code < value.values.length) &&
          new Set(value.values).size === value.values.length && firstMetInOrder(value.codes, value.values.length);
        check(ok, `${at}.records.${column} is not a dictionary of distinct values in the order first met: ${JSON.stringify(value)}`);
        if (ok) records[column] = value.codes.map((code) => value.values[code]);
      } else {
        check(Array.isArray(value) && value.length === n, `${at}.records.${column} is not an array of ${n}`);
      }
    }
    check(records.timestamp.every((t) => UTC.test(t)), `${at}.records.timestamp not UTC text: ${records.timestamp}`);
    check(records.timestamp.every((t, k) => !k || Date.parse(t) >= Date.parse(records.timestamp[k - 1])), `${at}.records.timestamp not oldest first`);
    check(records.attempt.every((id) => /^[0-9a-f]{12}$/.test(id)), `${at}.records.attempt not 12-digit ids: ${records.attempt}`);
    check(records.record.every((id) => /^[0-9a-f]{12}$/.test(id)), `${at}.records.record not 12-digit ids: ${records.record}`);
    check(records.comparison_reason.every((reason) => typeof reason === "string"), `${at}.records.comparison_reason has a value that is not text ("" where none): ${JSON.stringify(records.comparison_reason)}`);
    check(records.eligible.every((v) => typeof v === "boolean") && records.success.every((v) => typeof v === "boolean"), `${at}: eligible or success not booleans`);
    check(JSON.stringify(cohort.benchmarks) === JSON.stringify(byteOrder([...new Set(records.benchmark)])), `${at}.benchmarks ${cohort.benchmarks}`);
    const names = cohort.metrics.map((metric) => metric.name);
    check(JSON.stringify(names) === JSON.stringify(byteOrder(names)), `${at}.metrics not sorted by name: ${names}`);
    cohort.metrics.forEach((metric) => {
      check(metric.values.length === n && metric.values.some((v) => v !== null), `${at}.metrics ${metric.name}: ${metric.values.length} values for ${n} records`);
      check(["lower", "higher"].includes(metric.direction), `${at}.metrics ${metric.name}: direction ${metric.direction}`);
    });
  });
  // Most records first, then the newest last record, then the id.
  const count = (cohort) => cohort.records.timestamp.length;
  const newest = (cohort) => Date.parse(cohort.records.timestamp[count(cohort) - 1]);
  const expected = doc.cohorts.slice().sort((a, b) => count(b) - count(a) || newest(b) - newest(a) || Buffer.compare(Buffer.from(a.id), Buffer.from(b.id)));
  check(expected.every((cohort, i) => cohort === doc.cohorts[i]), `cohorts out of order: ${doc.cohorts.map((c) => c.id).join(", ")}`);
  return { problems, doc };
}

function checkStoreDocument(text, expected) {
  const { problems, doc } = storeDocumentProblems(text, expected);
  assert(!problems.length, `the store view departs from docs/store-json.md: ${problems.join("; ")}`);
  return doc;
}

// data/store.js holds the document as a quoted string for JSON.parse:
// window.PERFGATE_STORE = '<json>'; — run it against a stand-in window to get the text.
function storeScriptText(siteDir) {
  const script = readFileSync(join(siteDir, "data", "store.js"), "utf8");
  const prefix = "window.PERFGATE_STORE = '";
  assert(script.startsWith(prefix) && script.endsWith("';\n"), `data/store.js is not "${prefix}<json>';": ${script.slice(0, 60)}`);
  const text = new Function("window", script + "\nreturn window.PERFGATE_STORE;")({});
  assert(typeof text === "string", "data/store.js does not set PERFGATE_STORE to a string");
  return text + "\n";
}

function cohortOf(doc, benchmark) {
  const cohort = doc.cohorts.find((c) => c.benchmarks.includes(benchmark));
  assert(cohort, `no cohort of ${benchmark} in ${doc.cohorts.map((c) => c.label)}`);
  return cohort;
}

// What a person sees of the store: the cohorts of `doc` listed, the hostile name as text,
// the chosen cohort's latency chart with a point per record, and its value on hover.
async function checkStorePage(h, page, doc, shotName) {
  assertEqual(await page.evaluate(() => document.body.dataset.view), "store", "parts shown");
  const labels = await page.locator("#cohort-table button.cohort-pick").allTextContents();
  assertEqual(JSON.stringify(labels), JSON.stringify(doc.cohorts.map((c) => c.label)), "cohorts listed");
  const sortBenchmark = "BM_sort[1000]";
  for (const [benchmark, shot] of [[sortBenchmark, shotName], [HOSTILE, shotName + "-hostile"]]) {
    const cohort = cohortOf(doc, benchmark);
    await pickCohort(page, cohort.label);
    const m = cohort.metrics.findIndex((metric) => metric.name === "latency");
    assert(m >= 0, `no latency metric in ${cohort.label}`);
    const n = cohort.records.timestamp.length;
    const chart = page.locator("#cohort-charts svg.store-chart").nth(m);
    assertEqual(await chart.getAttribute("data-values"), String(n), `latency values drawn for ${benchmark}`);
    const k = n - 1;
    const tip = await hoverRecord(page, cohort, m, k);
    assertShownValue(tip[0], cohort.metrics[m].values[k], `value on hover (${benchmark})`);
    assert(tip.includes(`benchmark: ${benchmark}`), `the tooltip lacks the benchmark ${benchmark}: ${tip.join(" | ")}`);
    assert(tip.includes(`attempt: ${cohort.records.attempt[k]}`), `the tooltip lacks the attempt id: ${tip.join(" | ")}`);
    assertEqual(await page.locator("#records-table tbody tr").count(), n, `record rows of ${benchmark}`);
    await h.shot(page, shot);
  }
  const body = await page.locator("body").innerText();
  assert(body.includes(HOSTILE), "the hostile benchmark name is not shown as text");
  await page.waitForTimeout(300); // time for an injected onerror or onload to fire
  assertEqual(JSON.stringify(await injected(page)), NOTHING_INJECTED, "injected elements");
}

// "latency 12.5 ms (0.0125 s)": the value in the chart's unit, then the stored value to the
// 15 digits a double holds (12.5 ms is stored in seconds as 0.012500000000000002).
function assertShownValue(line, value, what) {
  const found = /^latency (\S+) (ns|µs|ms|s)(?: \((\S+) s\))?$/.exec(line);
  assert(found, `${what}: ${line}`);
  const exact = found[3] === undefined ? Number(found[1]) : Number(found[3]);
  assert(Math.abs(exact - value) <= Math.abs(value) * 1e-14, `${what}: ${line}, stored ${value}`);
  const scale = { ns: 1e-9, "µs": 1e-6, ms: 1e-3, s: 1 }[found[2]];
  assert(Math.abs(Number(found[1]) * scale - value) <= Math.abs(value) * 1e-3, `${what}: ${line}: the shown value is not the stored one`);
}

// perfgate serve answers data/store.js and data/history.js (which only a site on disk has)
// with a 404 of type text/javascript, so Chromium logs an ordinary failed load (recorded
// apart as an absent optional file), never a refusal to run a script of the wrong type.
function assertCleanServed(seen) {
  assertClean(seen);
}

// The viewer files the binary wrote that differ from web/viewer/ (a binary built before the
// viewer's last change).
function staleViewerFiles(site) {
  return Object.entries(viewerFiles()).filter(([name, content]) => {
    const written = join(site, name);
    return !existsSync(written) || !readFileSync(written).equals(content);
  }).map(([name]) => name);
}

function assertRequestsWithin(seen, prefix) {
  const outside = seen.requests.filter((url) => !url.startsWith(prefix));
  assertEqual(outside.length, 0, `requests outside ${prefix} (${outside.join(" ")})`);
}

// perfgate serve as a child process: resolves once it prints its URL.
function startServe(dir, args) {
  const child = spawn(perfgateBinary(), ["serve", ...args, "--listen", "127.0.0.1:0"], { cwd: dir, env: ENV, stdio: ["ignore", "pipe", "pipe"] });
  const served = { child, stdout: "", stderr: "", exited: null };
  served.exit = new Promise((done) => child.on("close", (code, signal) => {
    served.exited = { code, signal };
    done(served.exited);
  }));
  served.url = new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`perfgate serve printed no URL within ${COMMAND_TIMEOUT_MS / 1000} s: ${served.stderr.trim()}`)), COMMAND_TIMEOUT_MS);
    child.stdout.on("data", (chunk) => {
      served.stdout += chunk;
      const found = /^perfgate serve: (http:\/\/127\.0\.0\.1:\d+\/) \(Ctrl-C stops it\)$/m.exec(served.stdout);
      if (found) {
        clearTimeout(timer);
        done(found[1]);
      }
    });
    child.stderr.on("data", (chunk) => { served.stderr += chunk; });
    served.exit.then((status) => {
      clearTimeout(timer);
      fail(new Error(`perfgate serve exited ${JSON.stringify(status)} before printing its URL: ${served.stderr.trim()}`));
    });
  });
  return served;
}

// SIGINT, then the exit status within a few seconds.
async function stopServe(served) {
  served.child.kill("SIGINT");
  const status = await Promise.race([served.exit, new Promise((done) => setTimeout(() => done(null), 10000))]);
  assert(status, "perfgate serve did not exit within 10 s of SIGINT");
  assertEqual(JSON.stringify(status), JSON.stringify({ code: 0, signal: null }), `exit of perfgate serve after SIGINT (${served.stderr.trim()})`);
  assert(/perfgate serve: stopped by SIGINT/.test(served.stderr), `perfgate serve did not say it stopped: ${served.stderr.trim()}`);
}

// A failed test must not leave the server running: killed by its own pid.
function killServe(served) {
  if (served && !served.exited) {
    try {
      process.kill(served.child.pid, "SIGKILL");
    } catch {
      // it has just exited
    }
  }
}

async function fetchText(url) {
  const response = await fetch(url);
  assertEqual(response.status, 200, `HTTP status of ${url}`);
  return response.text();
}

function writeHistory(dir) {
  const path = join(dir, "h.json");
  const history = partialHistory();
  writeFileSync(path, documentText(history));
  return { path, history };
}

export const perfgateTests = [
  {
    name: "perfgate: report --format html of a store filled by import, opened from disk",
    async run(h, note) {
      const { dir, db } = await storeFor(h, "perfgate-report");
      const site = join(dir, "site");
      await perfgate(["report", "--format", "html", "-o", site, "--store", `sqlite:${db}`], { cwd: dir });
      const text = storeScriptText(site);
      const doc = checkStoreDocument(text, { store: `sqlite:${db}`, recordCount: 4 });
      note(`data/store.js ${text.length} bytes, ${doc.cohorts.length} cohorts: ${doc.cohorts.map((c) => c.records.comparison_status.join("/")).join(", ")}`);
      assert(!existsSync(join(site, "data", "history.js")), "a history.js without --history");
      const stale = staleViewerFiles(site);
      if (stale.length) note(`the binary's viewer differs from web/viewer/ in ${stale.join(", ")}: rebuild it to test this checkout's viewer`);
      const { page, seen } = await h.open(pathToFileURL(join(site, "index.html")).href + "#view=cohort");
      await checkStorePage(h, page, doc, "perfgate-report");
      assertEqual(JSON.stringify(seen.optionalMissing), JSON.stringify(["data/history.js"]), "files that were not there");
      assertRequestsWithin(seen, pathToFileURL(site).href + "/");
      assertClean(seen);
    },
  },
  {
    name: "perfgate: serve, a record imported while it runs, SIGINT stops it",
    async run(h, note) {
      const { dir, db } = await storeFor(h, "perfgate-serve");
      let served = null;
      try {
        served = startServe(dir, ["--store", `sqlite:${db}`]);
        const base = await served.url;
        const doc = checkStoreDocument(await fetchText(base + "data/store.json"), { store: `sqlite:${db}`, recordCount: 4 });
        const { page, seen } = await h.open(base + "#view=cohort");
        await checkStorePage(h, page, doc, "perfgate-serve");
        assert(seen.requests.includes(base + "data/store.json"), "the page did not fetch data/store.json");

        await importRecords(dir, db, 2);
        await page.reload();
        await waitReady(page);
        const after = checkStoreDocument(await fetchText(base + "data/store.json"), { store: `sqlite:${db}`, recordCount: 5 });
        const sort = cohortOf(after, "BM_sort[1000]");
        assertEqual(sort.records.timestamp.length, 3, "records of the sort cohort after the import");
        assertEqual(sort.records.run_source[2], "local", "run source of the new record");
        await pickCohort(page, sort.label);
        const m = sort.metrics.findIndex((metric) => metric.name === "latency");
        assertEqual(await page.locator("#cohort-charts svg.store-chart").nth(m).getAttribute("data-values"), "3", "points after the reload");
        const row = await page.locator("#cohort-table tbody tr").filter({ hasText: sort.label }).innerText();
        assert(row.includes("\t3\t") || row.includes("\n3\n"), `the cohort list does not count 3 records: ${row}`);
        const tip = await hoverRecord(page, sort, m, 2);
        assertShownValue(tip[0], sort.metrics[m].values[2], "the new record's value on hover");
        // Its runs first when the record kept them (metrics[].spread), then commit and time.
        const spread = sort.metrics[m].spread;
        assertEqual(tip[1].startsWith("runs: "), Boolean(spread && spread.min[2] !== null), `the runs line: ${tip[1]}`);
        assertEqual(tip.find((line) => line.startsWith("run source: ")), "run source: local", "the new record's run source");
        await h.shot(page, "perfgate-serve-after-import");
        assertRequestsWithin(seen, base);
        assertCleanServed(seen, note);
        await stopServe(served);
      } finally {
        killServe(served);
      }
    },
  },
  {
    name: "perfgate: report --format html --history and serve --history show both parts",
    async run(h, note) {
      const { dir, db } = await storeFor(h, "perfgate-history");
      const { path, history } = writeHistory(dir);
      const site = join(dir, "site");
      await perfgate(["report", "--format", "html", "--history", path, "-o", site, "--store", `sqlite:${db}`], { cwd: dir });
      const doc = checkStoreDocument(storeScriptText(site), { store: `sqlite:${db}`, recordCount: 4 });
      const checkBoth = async (page, seen, prefix, shot) => {
        assertEqual(await page.evaluate(() => document.body.dataset.view), "store history", "parts shown");
        assertEqual(await page.locator("#store-title").innerText(), `Records of sqlite:${db}`, "store part heading");
        assertEqual(await page.locator("#history-title").innerText(), `Commit history of ${history.branch}`, "history part heading");
        const labels = await page.locator("#cohort-table button.cohort-pick").allTextContents();
        assertEqual(JSON.stringify(labels), JSON.stringify(doc.cohorts.map((c) => c.label)), "cohorts listed");
        assertEqual(await page.locator("#chart svg").count(), 1, "the history's chart");
        assertEqual(await page.locator("#series-list option").count(), history.series.length, "series listed");
        await h.shot(page, shot);
        await h.shot(page, shot + "-history", "#app");
        assertRequestsWithin(seen, prefix);
        assertCleanServed(seen, note);
      };
      const fromDisk = await h.open(pathToFileURL(join(site, "index.html")).href + "#view=cohort");
      assertEqual(fromDisk.seen.optionalMissing.length, 0, "files that were not there");
      await checkBoth(fromDisk.page, fromDisk.seen, pathToFileURL(site).href + "/", "perfgate-report-history");

      let served = null;
      try {
        served = startServe(dir, ["--store", `sqlite:${db}`, "--history", path]);
        const base = await served.url;
        const text = await fetchText(base + "data/history.json");
        assertEqual(text, documentText(history), "data/history.json as served");
        const { page, seen } = await h.open(base + "#view=cohort");
        await checkBoth(page, seen, base, "perfgate-serve-history");
        await stopServe(served);
      } finally {
        killServe(served);
      }
    },
  },
];
