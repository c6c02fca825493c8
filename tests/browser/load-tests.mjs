// Large histories: the time from navigation start to the viewer's ready marker, split into
// loading the data (outside the viewer's control: reading and parsing the file) and the
// viewer's own work, then the time of an interaction. Tests check what is drawn; times are
// reported. With PERFGATE_BROWSER_GOALS=1 (make bench) the 1 s goal and the budgets are
// asserted too, the goal only on an idle machine.
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { assert, assertClean, assertEqual } from "./harness.mjs";
import { PART_BYTES, largeHistory, largeStore, partScripts, writeApartScripts } from "./fixtures.mjs";

const GOAL_MS = 1000;
// The viewer's own part must stay small whatever the load: it is ours to keep fast.
const VIEWER_BUDGET_MS = 600;
const INTERACTION_BUDGET_MS = 300;
// Whether the times are held to the goal and budgets (make bench), or only reported.
const GOALS = process.env.PERFGATE_BROWSER_GOALS === "1";
// 1-minute load average per core above which the machine counts as loaded.
const LOADED = 0.7;

function machineLoad() {
  return loadavg()[0] / cpus().length;
}

// data/NAME.js and its parts data/NAME.N.js.
function removeScripts(dir, name) {
  const pattern = new RegExp(`^${name}(\\.\\d+)?\\.js$`);
  for (const file of readdirSync(join(dir, "data"))) if (pattern.test(file)) rmSync(join(dir, "data", file));
}

function writeParts(dir, name, global, jsonText) {
  removeScripts(dir, name);
  for (const [file, script] of Object.entries(partScripts(name, global, jsonText, PART_BYTES))) {
    writeFileSync(join(dir, "data", file), script);
  }
}

// The floor under the viewer, measured in the same run: a bare page that loads the same
// data scripts side by side and parses their joined text, and does nothing else. Returns
// the ms from navigation start to the parsed document.
const FLOOR_SCRIPT = `
  function loadScript(src, done) {
    var script = document.createElement("script");
    script.onload = done;
    script.src = src;
    document.head.appendChild(script);
  }
  var name = document.currentScript.dataset.name, global = document.currentScript.dataset.global;
  loadScript("data/" + name + ".js", function () {
    var count = window[global + "_PARTS"], left = count;
    var parse = function () {
      var texts = [];
      for (var i = 1; i <= count; i++) texts.push(window[global + "_" + i]);
      JSON.parse(count ? texts.join("") : window[global]);
      window.FLOOR_MS = performance.now();
    };
    if (!count) return parse();
    for (var i = 1; i <= count; i++) loadScript("data/" + name + "." + i + ".js", function () { if (!--left) parse(); });
  });
`;

async function dataFloor(h, dir, name, global) {
  writeFileSync(join(dir, "floor.js"), FLOOR_SCRIPT);
  writeFileSync(join(dir, "floor.html"), `<!doctype html><script src="floor.js" data-name="${name}" data-global="${global}"></script>`);
  const context = await h.browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(pathToFileURL(join(dir, "floor.html")).href);
    await page.waitForFunction(() => window.FLOOR_MS !== undefined, null, { timeout: 60000 });
    return await page.evaluate(() => window.FLOOR_MS);
  } finally {
    await context.close();
  }
}

async function timings(page) {
  return page.evaluate(() => window.PERFGATE_TIMING);
}

// Selects another series and hovers the chart; returns the slower of the two in ms.
async function interact(page) {
  const selectMs = await page.evaluate(() => {
    const list = document.getElementById("series-list");
    const started = performance.now();
    list.value = list.options[list.options.length - 1].value;
    list.dispatchEvent(new Event("change"));
    return performance.now() - started;
  });
  // The chart lies below the cards: brought into view first, as a reader scrolls to it.
  await page.locator("#chart svg").scrollIntoViewIfNeeded();
  const box = await page.locator("#chart svg").boundingBox();
  const hoverStarted = Date.now();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
  await page.waitForFunction(() => !document.querySelector("#chart .tooltip").hidden);
  return Math.max(selectMs, Date.now() - hoverStarted);
}

// goal: whether the 1 s goal applies (the issue sets it for 100,000 records); a larger
// history reports its time and keeps the viewer's own budget.
function largeTest(name, commitCount, caseCount, shotName, { goal = true } = {}) {
  return {
    name,
    async run(h, note) {
      const doc = largeHistory({ commitCount, caseCount });
      const dir = h.site(shotName, doc, { js: true, json: true });
      note(`history.json ${(h.lastDataBytes / 1e6).toFixed(1)} MB`);
      const loadBefore = machineLoad();
      const jsonText = readFileSync(`${dir}/data/history.json`, "utf8");
      const results = [];
      let floorMs = 0;
      for (const how of ["disk, object", "disk, parts", "http"]) {
        let url = h.fileUrl(dir);
        // The form perfgate writes: the document as a string for JSON.parse.
        if (how === "disk, parts") {
          writeParts(dir, "history", "PERFGATE_HISTORY", jsonText);
          floorMs = await dataFloor(h, dir, "history", "PERFGATE_HISTORY");
        }
        // Served pages may lack history.js; without it the viewer fetches history.json.
        if (how === "http") {
          removeScripts(dir, "history");
          url = await h.serve(dir, "/site/");
        }
        const { page, seen } = await h.open(url);
        const t = await timings(page);
        const interactionMs = await interact(page);
        await page.waitForFunction(() => document.getElementById("overview").dataset.complete === "1");
        assert((await page.locator("#overview .card").count()) === caseCount, "overview cards");
        if (how === "disk, object") {
          await h.shot(page, shotName);
          await h.shot(page, shotName + "-overview", "#overview-section");
          await h.shot(page, shotName + "-chart", "#chart");
        }
        assertClean(seen, [/404/]);
        results.push({ how, ready: t.readyMs, data: t.dataMs, viewer: t.readyMs - t.dataMs, interactionMs });
      }
      const load = Math.max(loadBefore, machineLoad());
      for (const r of results) {
        note(`${r.how}: ready ${r.ready.toFixed(0)} ms (data ${r.data.toFixed(0)} ms + viewer ${r.viewer.toFixed(0)} ms), interaction ${r.interactionMs.toFixed(0)} ms`);
      }
      note(`load ${load.toFixed(2)} per core`);
      // Other processes slow every step down; the budgets stretch with them, not away.
      const stretch = load > LOADED ? 3 : 1;
      for (const r of GOALS ? results : []) {
        assert(r.viewer < VIEWER_BUDGET_MS * stretch, `${r.how}: the viewer's own work took ${r.viewer.toFixed(0)} ms`);
        assert(r.interactionMs < INTERACTION_BUDGET_MS * stretch, `${r.how}: an interaction took ${r.interactionMs.toFixed(0)} ms`);
      }
      note(`floor: the same data scripts loaded and parsed by a bare page, ${floorMs.toFixed(0)} ms`);
      // The goal is for what perfgate writes: the parts from disk, and serve's JSON.
      const best = Math.min(...results.filter((r) => !r.how.startsWith("disk, object")).map((r) => r.ready));
      if (!goal) {
        note(`${commitCount * caseCount} points, beyond the goal's 100,000: reported, not asserted`);
      } else if (!GOALS) {
        note(`the ${GOAL_MS} ms goal: best ${best.toFixed(0)} ms (reported; make bench asserts it on an idle machine)`);
      } else if (load > LOADED) {
        note(`machine loaded: the ${GOAL_MS} ms goal is reported, not asserted`);
      } else {
        assert(best < GOAL_MS, `interactive after ${best.toFixed(0)} ms, goal ${GOAL_MS} ms`);
      }
    },
  };
}

// Chooses the last listed cohort and hovers the first chart; returns the slower in ms. The
// choice counts until the cohort's charts are drawn, its details loaded first where they
// are apart.
async function interactStore(page) {
  const selectMs = await page.evaluate(() => new Promise((resolve) => {
    const buttons = document.querySelectorAll("#cohort-table button.cohort-pick");
    const started = performance.now();
    buttons[buttons.length - 1].click();
    const drawn = () => document.querySelector("#cohort-charts svg.store-chart") && !document.getElementById("cohort-loading");
    const check = () => (drawn() ? resolve(performance.now() - started) : setTimeout(check, 5));
    check();
  }));
  const svg = page.locator("#cohort-charts svg.store-chart").first();
  await svg.scrollIntoViewIfNeeded();
  const box = await svg.boundingBox();
  const hoverStarted = Date.now();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction(() => !document.querySelector("#cohort-charts .tooltip").hidden);
  return Math.max(selectMs, Date.now() - hoverStarted);
}

// The store view of 100,000 records (50 cohorts of about 2,000 records, 3 metrics each),
// from disk as data/store.js (an object literal, as docs/store-json.md has it, and the
// same document as a JSON string) and over HTTP as data/store.json.
function storeLoadTest(name) {
  return {
    name,
    async run(h, note) {
      const doc = largeStore();
      // One card per cohort and metric.
      const cardCount = doc.cohorts.reduce((sum, cohort) => sum + Math.max(1, cohort.metrics.length), 0);
      const dir = h.site("store-records-100k", null, { store: doc, storeJs: true, storeJson: true });
      note(`store.json ${(h.lastStoreBytes / 1e6).toFixed(1)} MB, ${doc.record_count} records in ${doc.cohorts.length} cohorts`);
      const loadBefore = machineLoad();
      const jsonText = readFileSync(`${dir}/data/store.json`, "utf8");
      const results = [];
      let floorMs = 0;
      // The default page: "what changed" and the cards of every cohort and metric; as an
      // object literal, and as perfgate writes it (each cohort's details apart).
      let firstBytes = 0;
      for (const how of ["disk, object, default page", "disk, apart, default page"]) {
        if (how === "disk, apart, default page") {
          removeScripts(dir, "store");
          firstBytes = writeApartScripts(join(dir, "data"), doc);
          floorMs = await dataFloor(h, dir, "store", "PERFGATE_STORE");
        }
        const { page, seen } = await h.open(h.fileUrl(dir));
        const t = await timings(page);
        await page.waitForFunction(() => document.getElementById("store-overview").dataset.complete === "1");
        assertEqual(await page.locator("#store-overview .card").count(), cardCount, "cards of the default page");
        if (how === "disk, object, default page") await h.shot(page, "store-records-100k-landing");
        assertClean(seen);
        results.push({ how, ready: t.readyMs, data: t.dataMs, viewer: t.readyMs - t.dataMs, interactionMs: 0, overviewMs: 0 });
      }
      note(`written apart: the first screen loads ${(firstBytes / 1e6).toFixed(1)} MB of JSON text`);
      for (const how of ["disk, object", "disk, apart", "http"]) {
        let url = h.fileUrl(dir);
        if (how === "disk, object") {
          removeScripts(dir, "store");
          rmSync(join(dir, "data", "cohorts"), { recursive: true, force: true });
          writeFileSync(join(dir, "data", "store.js"), `window.PERFGATE_STORE = ${jsonText.trimEnd()};\n`);
        }
        if (how === "disk, apart") {
          removeScripts(dir, "store");
          writeApartScripts(join(dir, "data"), doc);
        }
        if (how === "http") {
          removeScripts(dir, "store");
          rmSync(join(dir, "data", "cohorts"), { recursive: true, force: true });
          url = await h.serve(dir, "/site/");
        }
        // The chosen cohort's charts, as a permalink opens them.
        const { page, seen } = await h.open(url + "#view=cohort");
        const t = await timings(page);
        if (how === "disk, object") {
          await h.shot(page, "store-records-100k");
          await h.shot(page, "store-records-100k-chart", "#cohort-charts .metric-block:first-child");
        }
        const interactionMs = await interactStore(page);
        const overviewMs = await page.evaluate(() => {
          const started = performance.now();
          document.getElementById("tab-overview").click();
          return performance.now() - started;
        });
        await page.waitForFunction(() => document.getElementById("store-overview").dataset.complete === "1");
        assertEqual(await page.locator("#store-overview .card").count(), cardCount, "overview cards");
        if (how === "disk, object") await h.shot(page, "store-records-100k-overview", "#store-overview-section");
        assertClean(seen);
        results.push({ how, ready: t.readyMs, data: t.dataMs, viewer: t.readyMs - t.dataMs, interactionMs, overviewMs });
      }
      const load = Math.max(loadBefore, machineLoad());
      for (const r of results) {
        note(`${r.how}: ready ${r.ready.toFixed(0)} ms (data ${r.data.toFixed(0)} ms + viewer ${r.viewer.toFixed(0)} ms), ` +
          `interaction ${r.interactionMs.toFixed(0)} ms, overview ${r.overviewMs.toFixed(0)} ms`);
      }
      note(`load ${load.toFixed(2)} per core`);
      const stretch = load > LOADED ? 3 : 1;
      for (const r of GOALS ? results : []) {
        assert(r.viewer < VIEWER_BUDGET_MS * stretch, `${r.how}: the viewer's own work took ${r.viewer.toFixed(0)} ms`);
        assert(r.interactionMs < INTERACTION_BUDGET_MS * stretch, `${r.how}: an interaction took ${r.interactionMs.toFixed(0)} ms`);
        assert(r.overviewMs < INTERACTION_BUDGET_MS * stretch, `${r.how}: opening the overview took ${r.overviewMs.toFixed(0)} ms`);
      }
      note(`floor: the first screen's data scripts loaded and parsed by a bare page, ${floorMs.toFixed(0)} ms`);
      // The goal is for what perfgate writes, opened at its default page and at a cohort's
      // link: the site from disk (serve's one JSON response is reported beside it).
      const slowest = Math.max(...results.filter((r) => r.how.startsWith("disk, apart")).map((r) => r.ready));
      if (!GOALS) {
        note(`the ${GOAL_MS} ms goal: the slower of the two ${slowest.toFixed(0)} ms (reported; make bench asserts it on an idle machine)`);
      } else if (load > LOADED) {
        note(`machine loaded: the ${GOAL_MS} ms goal is reported, not asserted`);
      } else {
        assert(slowest < GOAL_MS, `interactive after ${slowest.toFixed(0)} ms, goal ${GOAL_MS} ms`);
      }
    },
  };
}

export const loadTests = [
  largeTest("100,000 records (10,000 commits x 10 series) interactive within 1 s", 10000, 10, "records-100k"),
  largeTest("large history (10,000 commits x 60 series) stays usable", 10000, 60, "large-history", { goal: false }),
  storeLoadTest("store of 100,000 records (50 cohorts x 2,000 records x 3 metrics) interactive within 1 s"),
];
