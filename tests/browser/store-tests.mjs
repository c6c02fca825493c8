// The store views (docs/store-json.md) on small store views, and which parts a page shows
// for each mix of present, absent and broken data files: each test builds its documents,
// opens the viewer from disk (or from a local server) and checks what a person would see.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assert, assertClean, assertEqual, waitReady } from "./harness.mjs";
import {
  HOSTILE, HOSTILE_SCRIPT, HOSTILE_SVG, UNPLACED_TIMESTAMPS, bigCohortStore, commitSha, emptyStore, hostileStore, oneRecordStore,
  partialHistory, partialStore, partScripts, sortCohort, steppedStore, storeScript, unplacedStore, STEPPED_LABEL_PREFIX,
} from "./fixtures.mjs";
import { DICTIONARY_COLUMNS, buildStore } from "./store-builder.mjs";
import { documentText, sha256Hex } from "./history-format.mjs";

async function text(page, selector) {
  return page.locator(selector).innerText();
}

async function hashParams(page) {
  return Object.fromEntries(new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)));
}

function cohortOf(doc, label) {
  const cohort = doc.cohorts.find((c) => c.label === label);
  if (!cohort) throw new Error(`no cohort ${label}`);
  return cohort;
}

const SORT_LABEL_PREFIX = "sort/default/v1 (recipe ";

function sortCohortOf(doc) {
  return doc.cohorts.find((c) => c.label.startsWith(SORT_LABEL_PREFIX));
}

export async function pickCohort(page, label) {
  await page.locator("#cohort-table button.cohort-pick").filter({ hasText: label }).first().click();
  await page.waitForFunction((label) => document.querySelector("#cohort-title .cohort-label")?.textContent === label, label);
}

// Client coordinates of record k of `cohort` in the chart of metric `m`, from the scales
// the chart's SVG carries (no pixel reading).
async function recordPoint(page, cohort, m, k) {
  const time = Date.parse(cohort.records.timestamp[k]);
  const value = cohort.metrics[m].values[k];
  return page.evaluate(({ m, time, value }) => {
    const svg = document.querySelectorAll("#cohort-charts svg.store-chart")[m];
    const d = svg.dataset;
    const x = Number(d.xLo) + ((time - Number(d.tLo)) * (Number(d.xHi) - Number(d.xLo))) / (Number(d.tHi) - Number(d.tLo));
    const y = value === null
      ? svg.viewBox.baseVal.height / 2
      : Number(d.yLo) + ((value - Number(d.vLo)) * (Number(d.yHi) - Number(d.yLo))) / (Number(d.vHi) - Number(d.vLo));
    const box = svg.getBoundingClientRect();
    const scale = box.width / svg.viewBox.baseVal.width;
    return { x: box.left + x * scale, y: box.top + y * scale };
  }, { m, time, value });
}

function tooltipOf(page, m) {
  return page.locator("#cohort-charts .metric-chart").nth(m).locator(".tooltip");
}

// Hovers record k in the chart of metric m; returns the tooltip's lines.
export async function hoverRecord(page, cohort, m, k) {
  await page.locator("#cohort-charts svg.store-chart").nth(m).scrollIntoViewIfNeeded();
  const at = await recordPoint(page, cohort, m, k);
  await page.mouse.move(at.x, at.y);
  const tooltip = tooltipOf(page, m);
  await page.waitForFunction(({ m, k }) => {
    const tip = document.querySelectorAll("#cohort-charts .metric-chart .tooltip")[m];
    return tip && !tip.hidden && tip.dataset.record === String(k);
  }, { m, k });
  return (await tooltip.innerText()).split("\n");
}

export async function storeOverviewCards(page) {
  await page.waitForFunction(() => document.getElementById("store-overview").dataset.complete === "1");
  return page.locator("#store-overview .card");
}

export async function injected(page) {
  return page.evaluate(() => ({
    images: document.querySelectorAll("img").length,
    handlers: document.querySelectorAll("[onerror],[onload]").length,
    scripts: [...document.scripts].filter((s) => !s.src).length,
    nestedSvg: document.querySelectorAll("svg svg").length,
  }));
}

export const NOTHING_INJECTED = JSON.stringify({ images: 0, handlers: 0, scripts: 0, nestedSvg: 0 });

export const storeTests = [
  {
    name: "store: an empty store says there are no records",
    async run(h) {
      const { page, seen } = await h.open(h.fileUrl(h.site("store-empty", null, { store: emptyStore() }), "#view=cohort"));
      assert(await page.locator("#store-empty").isVisible(), "the empty-store note is not shown");
      assertEqual(await text(page, "#store-empty"), "This store view has no records, so there is no cohort to chart.", "empty-store note");
      assert(await page.locator("#store-main").isHidden(), "the cohort views are shown for an empty store");
      assert((await text(page, "#store-facts")).includes("0 in 0 cohorts"), "the facts do not say 0 records");
      assert(await page.locator("#message").isHidden(), "a message is shown for an empty store");
      await h.shot(page, "store-empty");
      assertClean(seen);
    },
  },
  {
    name: "store: one record is one point, with no trend",
    async run(h) {
      const doc = oneRecordStore();
      const { page, seen } = await h.open(h.fileUrl(h.site("store-one", null, { store: doc }), "#view=cohort"));
      assert(await page.locator("#one-record").isVisible(), "no 'one record' note");
      const svg = page.locator("#cohort-charts svg.store-chart").first();
      assertEqual(await svg.getAttribute("data-values"), "1", "values drawn");
      assertEqual(await page.locator("#cohort-charts svg.store-chart").first().locator(".marker").count(), 1, "marker paths");
      const tip = await hoverRecord(page, doc.cohorts[0], 0, 0);
      // In the chart's unit, with the exact stored value beside it.
      assertEqual(tip[0], "latency 12.1 ms (0.0121 s)", "value line");
      assertEqual(tip[4], "comparison status: CALIBRATION_NEEDED", "status line");
      assertEqual(await page.locator("#records-table tbody tr").count(), 1, "record rows");
      await h.shot(page, "store-one-record");
      assertClean(seen);
    },
  },
  {
    name: "store: units: every case of tests/fixtures/units.json is written as the C++ reports write it",
    async run(h) {
      const fixture = JSON.parse(readFileSync(new URL("../fixtures/units.json", import.meta.url), "utf8"));
      const { page, seen } = await h.open(h.fileUrl(h.site("store-units", null, { store: oneRecordStore() }), "#view=cohort"));
      const written = await page.evaluate((cases) => cases.map((c) =>
        window.PerfgateViewer.formatIn(c.value, window.PerfgateViewer.displayUnit(c.reference, c.unit))), fixture.cases);
      fixture.cases.forEach((c, i) => assertEqual(written[i], c.text, `case ${JSON.stringify(c)}`));
      assertClean(seen);
    },
  },
  {
    name: "store: a value converted between units is shown without binary noise",
    async run(h) {
      const doc = oneRecordStore();
      // 12.5 ms stored in seconds, as perfgate import converts a Google Benchmark time.
      doc.cohorts[0].metrics[0].values[0] = 12.5 / 1000 + 1.7e-18;
      assertEqual(String(doc.cohorts[0].metrics[0].values[0]), "0.012500000000000002", "the stored value");
      const { page, seen } = await h.open(h.fileUrl(h.site("store-value-noise", null, { store: doc }), "#view=cohort"));
      const tip = await hoverRecord(page, doc.cohorts[0], 0, 0);
      assertEqual(tip[0], "latency 12.5 ms (0.0125 s)", "value line");
      const cells = await page.locator("#records-table tbody tr td.num").allTextContents();
      assertEqual(cells[0], "12.5", "value in the records table, in its column's unit");
      assertEqual(await page.locator("#records-table tbody tr td.num").first().getAttribute("title"), "0.0125 s", "the exact value as the cell's title");
      const headers = await page.locator("#records-table thead th").allTextContents();
      assert(headers.includes("latency (ms)"), `the latency column's heading: ${headers}`);
      assertClean(seen);
    },
  },
  {
    name: "store: cohorts in the document's order, with Legacy v1 and Invalid v2 titles and badges",
    async run(h) {
      const doc = partialStore();
      const { page, seen } = await h.open(h.fileUrl(h.site("store-partial", null, { store: doc }), "#view=cohort"));
      const labels = await page.locator("#cohort-table button.cohort-pick").allTextContents();
      assertEqual(JSON.stringify(labels), JSON.stringify(doc.cohorts.map((c) => c.label)), "cohorts listed");
      assert(labels[0].startsWith(SORT_LABEL_PREFIX), `the cohort with most records is not first: ${labels[0]}`);
      const first = await page.locator("#cohort-table tbody tr").first().innerText();
      for (const part of ["v2", "10", "sort", "2026-11-21 10:00 – 2026-11-30 10:00 UTC", "REGRESSION 1, CALIBRATION_NEEDED 1"]) {
        assert(first.includes(part), `the first cohort's row lacks ${part}: ${first}`);
      }
      const sort = sortCohortOf(doc);
      assertEqual(await text(page, "#cohort-title .cohort-label"), sort.label, "default cohort (the first)");
      assertEqual(await page.locator("#cohort-title .badge").count(), 0, "a badge on a v2 cohort");
      assertEqual(await page.locator("#cohort-charts svg.store-chart").count(), 2, "charts (latency and memory)");
      const regression = page.locator("#cohort-charts svg.store-chart").first().locator(".marker.st-regression");
      assertEqual(await regression.getAttribute("data-count"), "1", "REGRESSION markers");
      assert((await text(page, "#cohort-legend")).includes("REGRESSION (1)"), "legend lacks the REGRESSION count");
      // A document without metrics[].changes (written before change points): no marker,
      // no list of changes, and no legend item for them.
      assert(doc.cohorts.every((c) => c.metrics.every((metric) => !("changes" in metric))), "the partial store has changes fields");
      assertEqual(await page.locator("#cohort-charts .change-marker").count(), 0, "change markers without changes");
      assertEqual(await page.locator("#cohort-charts .change-list").count(), 0, "change lists without changes");
      assert(!(await text(page, "#cohort-legend")).includes("change point"), "the legend explains change points no chart draws");
      const rows = await page.locator("#records-table tbody tr").allInnerTexts();
      assertEqual(rows.length, 10, "record rows");
      assert(rows[0].startsWith("2026-11-30 10:00:00"), `newest record not first: ${rows[0]}`);
      assertEqual(await page.locator("#records-table tbody tr.st-regression").count(), 1, "REGRESSION rows");
      await h.shot(page, "store-partial");
      await h.shot(page, "store-cohort", "#cohort-section");
      await h.shot(page, "store-chart-latency", "#cohort-charts .metric-block:first-child");

      await pickCohort(page, "Legacy v1 (render, gpu)");
      assertEqual(await text(page, "#cohort-title .cohort-label"), "Legacy v1 (render, gpu)", "legacy title");
      assertEqual(await text(page, "#cohort-title .badge"), "legacy v1: records without the cohort identity", "legacy badge");
      assert(await page.locator("#cohort-title .badge-legacy").isVisible(), "the legacy badge is not visible");
      const identity = await text(page, "#cohort-identity");
      assert(identity.includes("workload_id\t— (not recorded)") || identity.includes("workload_id\n— (not recorded)"), `identity of a legacy cohort: ${identity}`);
      assert(identity.includes("legacy-v1/render/gpu"), "the legacy cohort's id is not shown");
      await h.shot(page, "store-legacy", "#cohort-section");

      await pickCohort(page, "Invalid v2 (upload)");
      assertEqual(await text(page, "#cohort-title .badge-invalid"), "invalid v2: the cohort identity is incomplete", "invalid badge");
      assertEqual(await page.locator("#cohort-charts svg .marker.st-infra").getAttribute("data-count"), "3", "INFRA_ERROR markers");
      const ids = await text(page, "#cohort-identity");
      assert(ids.includes("hw-1a2b3c4d") && ids.includes("upload"), `identity of an invalid cohort: ${ids}`);
      assertEqual(await page.locator("#cohort-identity dd", { hasText: "— (not recorded)" }).count(), 2, "missing identity fields");
      assertEqual((await hashParams(page)).cohort, "invalid-v2/upload", "cohort in the URL");
      // The charts fit a new width.
      const before = await page.locator("#cohort-charts svg.store-chart").first().getAttribute("width");
      await page.setViewportSize({ width: 900, height: 900 });
      await page.waitForFunction((before) => {
        const host = document.querySelector("#cohort-charts .metric-chart");
        const width = host.querySelector("svg").getAttribute("width");
        return width !== before && width === String(Math.max(520, Math.floor(host.clientWidth)));
      }, before);
      assertClean(seen);
    },
  },
  {
    name: "store: a skipped metric is listed, not drawn",
    async run(h) {
      const doc = partialStore();
      const { page, seen } = await h.open(h.fileUrl(h.site("store-skipped", null, { store: doc }), "#view=cohort"));
      assertEqual(await text(page, "#cohort-skipped"), "Skipped (no values): throughput (items/s)", "skipped line");
      const titles = await page.locator("#cohort-charts .metric-title").allTextContents();
      assertEqual(titles.length, 2, "charts");
      assert(titles.every((t) => !t.includes("throughput")), `a chart for the skipped metric: ${titles}`);
      await pickCohort(page, "Legacy v1 (boot, cpu)");
      assertEqual(await text(page, "#cohort-skipped"), "Skipped (no values): boot_time (s)", "skipped line of a cohort without values");
      assertEqual(await page.locator("#cohort-charts svg").count(), 0, "charts of a cohort without values");
      assert(await page.locator("#no-metrics").isVisible(), "no note that there is nothing to chart");
      assertEqual(await page.locator("#records-table tbody tr").count(), 2, "its records are still listed");
      await pickCohort(page, "Legacy v1 (render, gpu)");
      assert(await page.locator("#cohort-skipped").isHidden(), "a skipped line for a cohort without skipped metrics");
      assertClean(seen);
    },
  },
  {
    name: "store: a count's chart says it is a proxy, a time's does not",
    async run(h) {
      const doc = partialStore();
      const sort = sortCohortOf(doc);
      // The sort cohort's second metric becomes an instruction count.
      sort.metrics[1].name = "decode.instructions";
      sort.metrics[1].unit = "instructions";
      const { page, seen } = await h.open(h.fileUrl(h.site("store-counts", null, { store: doc }), "#view=cohort"));
      assertEqual(await page.locator("#cohort-charts .count-note").count(), 1, "count notes");
      assertEqual(await text(page, "#cohort-charts .metric-block:nth-child(2) .count-note"),
        "A count of work, not a time: a proxy that misses I/O, waiting, contention, memory bandwidth and a faster instruction mix. Latency stays the truth.",
        "the note under the count's title");
      assert((await text(page, "#cohort-charts .metric-block:nth-child(2) .metric-title")).startsWith("decode.instructions (instructions)"), "the count's chart");
      assertClean(seen);
    },
  },
  {
    name: "store: null values leave gaps, never zeros",
    async run(h) {
      const doc = partialStore();
      const sort = sortCohortOf(doc);
      const { page, seen } = await h.open(h.fileUrl(h.site("store-nulls", null, { store: doc }), "#view=cohort"));
      const memory = page.locator("#cohort-charts svg.store-chart").nth(1);
      assertEqual(await text(page, "#cohort-charts .metric-block:nth-child(2) .metric-title"), "memory (MB) · lower is better · 7 values, 3 records without one", "memory heading");
      assertEqual(await memory.getAttribute("data-values"), "7", "values drawn");
      assertEqual(await memory.locator(".no-value").getAttribute("data-count"), "3", "records without a value, marked under the plot");
      // Values at 0, 2, 4–6 and 8–9: four runs of line, broken at each null.
      assertEqual(await memory.locator("path.store-line").getAttribute("data-runs"), "4", "runs of line");
      const counts = await memory.locator(".marker").evaluateAll((paths) => paths.map((p) => Number(p.dataset.count)));
      assertEqual(counts.reduce((a, b) => a + b, 0), 7, "markers: one per value");
      const ticks = await memory.locator(".y-axis text").allTextContents();
      assert(ticks.every((t) => Number(t) > 40), `a y tick near zero suggests a fabricated value: ${ticks}`);
      const lowest = Number(await memory.getAttribute("data-v-lo"));
      assert(lowest > 40, `the value axis reaches down to ${lowest}`);
      // Hovering where a record has no value describes a neighbour that has one.
      await memory.scrollIntoViewIfNeeded();
      const at = await recordPoint(page, sort, 1, 7);
      await page.mouse.move(at.x, at.y);
      const tip = tooltipOf(page, 1);
      await page.waitForFunction(() => !document.querySelectorAll("#cohort-charts .tooltip")[1].hidden);
      assert(["6", "8"].includes(await tip.getAttribute("data-record")), "hover at a null did not snap to a record with a value");
      const rows = await page.locator("#records-table tbody tr").allInnerTexts();
      assert(rows[2].includes("no value"), `the record without memory: ${rows[2]}`);
      await h.shot(page, "store-null-gaps", "#cohort-charts .metric-block:nth-child(2)");
      assertClean(seen);
    },
  },
  {
    name: "store: hover shows every field of a record",
    async run(h) {
      const doc = partialStore();
      const sort = sortCohortOf(doc);
      const { page, seen } = await h.open(h.fileUrl(h.site("store-hover", null, { store: doc }), "#view=cohort"));
      const regression = await hoverRecord(page, sort, 0, 5);
      assertEqual(JSON.stringify(regression), JSON.stringify([
        "latency 13.5 ms (0.0135 s)",
        `commit ${commitSha(5, "store").slice(0, 10)} (branch feature/faster-sort)`,
        "2026-11-26 10:00:00 UTC",
        "run source: pr",
        "comparison status: REGRESSION",
        "reason: gated metrics regressed against the rolling baseline: latency +12.5% (+0.0015 s)",
        "baseline status: compared",
        "eligible: no",
        "success: yes",
        "benchmark: sort",
        `attempt: ${sha256Hex("attempt 5").slice(0, 12)}`,
      ]), "tooltip of the REGRESSION record");
      await h.shot(page, "store-tooltip", "#cohort-charts .metric-block:first-child");
      const local = await hoverRecord(page, sort, 0, 1);
      assertEqual(local[1], "commit unknown", "a record without a commit");
      assertEqual(local[3], "run source: local", "run source of the local record");
      assertEqual(local[7], "eligible: no", "eligible of the local record");
      const zoned = await hoverRecord(page, sort, 1, 6);
      assertEqual(zoned[0], "memory 41.1 MB", "value and unit in the memory chart");
      // Recorded as 19:00+09:00; the writer sends the instant in UTC.
      assertEqual(zoned[2], "2026-11-27 10:00:00 UTC", "a time recorded in another zone");
      const calibration = await hoverRecord(page, sort, 0, 0);
      assertEqual(calibration.slice(4, 8).join(" | "),
        "comparison status: CALIBRATION_NEEDED | reason: No baseline found for exact comparable identity | baseline status: initialized_new_cohort | eligible: yes",
        "calibration record");
      assertClean(seen);
    },
  },
  {
    name: "store: keyboard moves between records and between cohorts",
    async run(h) {
      const doc = partialStore();
      const { page, seen } = await h.open(h.fileUrl(h.site("store-keyboard", null, { store: doc }), "#view=cohort"));
      await page.focus("#cohort-charts svg.store-chart >> nth=0");
      const latency = tooltipOf(page, 0);
      assert((await latency.innerText()).includes("2026-11-30 10:00:00 UTC"), "focus does not describe the newest record");
      await page.keyboard.press("ArrowLeft");
      assert((await latency.innerText()).includes("2026-11-29 10:00:00 UTC"), "ArrowLeft does not move to the previous record");
      await page.keyboard.press("Home");
      assert((await latency.innerText()).includes("2026-11-21 10:00:00 UTC"), "Home does not move to the oldest record");
      await page.keyboard.press("Escape");
      assert(await latency.isHidden(), "Escape does not hide the tooltip");
      // In the memory chart the arrows skip the records without a value.
      await page.focus("#cohort-charts svg.store-chart >> nth=1");
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("ArrowLeft");
      const memory = await tooltipOf(page, 1).innerText();
      assert(memory.startsWith("memory 41.1 MB") && memory.includes("2026-11-27 10:00:00 UTC"), `ArrowLeft past a null: ${memory}`);
      await page.locator("#cohort-table button.cohort-pick").first().focus();
      await page.keyboard.press("ArrowDown");
      assertEqual(await text(page, "#cohort-title .cohort-label"), doc.cohorts[1].label, "ArrowDown in the cohort list chooses the next cohort");
      assert(await page.evaluate((label) => document.activeElement.textContent === label, doc.cohorts[1].label), "the focus did not follow");
      await page.keyboard.press("ArrowUp");
      assertEqual(await text(page, "#cohort-title .cohort-label"), doc.cohorts[0].label, "ArrowUp chooses the previous cohort");
      assertClean(seen);
    },
  },
  {
    name: "store: filters keep the chosen cohort",
    async run(h) {
      const doc = partialStore();
      const sort = sortCohortOf(doc);
      const parse = doc.cohorts[1];
      const { page, seen } = await h.open(h.fileUrl(h.site("store-filters", null, { store: doc }), "#view=cohort"));
      await pickCohort(page, parse.label);
      await page.fill("#cohort-filter", "render");
      assertEqual(await text(page, "#cohort-title .cohort-label"), parse.label, "the chosen cohort after a text filter that hides it");
      const rows = await page.locator("#cohort-table tbody tr").allInnerTexts();
      assertEqual(rows.length, 2, "rows: the hidden chosen cohort and the one that matches");
      assert(rows[0].startsWith("(chosen, hidden by the filters)"), `the hidden chosen cohort is not marked: ${rows[0]}`);
      assert(rows[1].startsWith("Legacy v1 (render, gpu)"), `the matching cohort: ${rows[1]}`);
      assert((await text(page, "#cohort-count")).includes("the chosen cohort is hidden by the filters but stays chosen"), "the count does not say so");
      assert(await page.locator("#cohort-filter-note").isVisible(), "the chart does not say its cohort is filtered out");
      await page.fill("#cohort-filter", "");
      assertEqual(await page.locator("#cohort-table .hidden-note").count(), 0, "a stale 'hidden' entry");
      assert(await page.locator("#cohort-filter-note").isHidden(), "a stale filter note");
      await page.fill("#cohort-filter", "SORT hw-1a2b3c4d");
      assertEqual(await page.locator("#cohort-table button.cohort-pick").count(), 2, "a filter of two words (label and id, any case)");

      await page.fill("#cohort-filter", "");
      await page.selectOption("#cohort-status", "REGRESSION");
      assertEqual(await text(page, "#cohort-title .cohort-label"), parse.label, "the chosen cohort after a status filter");
      const listed = await page.locator("#cohort-table button.cohort-pick").allTextContents();
      assertEqual(JSON.stringify(listed), JSON.stringify([parse.label, sort.label, "Legacy v1 (render, gpu)"]), "cohorts with a REGRESSION (after the chosen one)");
      await pickCohort(page, sort.label);
      assertEqual(await page.locator("#records-table tbody tr").count(), 1, "records of the sort cohort that are a REGRESSION");
      assertEqual(await text(page, "#records-count"), "Showing all 1 record that matches the filters (10 in the cohort), newest first.", "records note");
      assertEqual(await page.locator("#cohort-charts svg.store-chart").first().getAttribute("data-values"), "10", "the chart keeps every record");
      await page.selectOption("#cohort-source", "local");
      assertEqual(await text(page, "#cohort-title .cohort-label"), sort.label, "the chosen cohort when no cohort passes");
      assertEqual(await page.locator("#cohort-table tbody tr").count(), 1, "only the chosen cohort is listed");
      assertEqual(await text(page, "#records-count"), "No record of this cohort matches the filters (10 in the cohort).", "records note when none match");
      await page.click("#tab-overview");
      assertEqual(await (await storeOverviewCards(page)).count(), 0, "overview cards when no cohort passes");
      await page.selectOption("#cohort-source", "");
      // One card per metric: sort (latency, memory) and render (fps, latency).
      assertEqual(await (await storeOverviewCards(page)).count(), 4, "overview cards of the cohorts with a REGRESSION");
      await page.selectOption("#cohort-status", "");
      assertEqual(await (await storeOverviewCards(page)).count(), 8, "overview cards without filters");
      await page.click("#tab-cohort");
      assertEqual(await text(page, "#cohort-title .cohort-label"), sort.label, "the chosen cohort after clearing the filters");
      assertEqual(await page.locator("#records-table tbody tr").count(), 10, "records without filters");
      assertClean(seen);
    },
  },
  {
    name: "store: an INCONCLUSIVE record has a marker, a legend entry and a row of its own",
    async run(h) {
      const doc = partialStore();
      const parse = doc.cohorts[1];
      const { page, seen } = await h.open(h.fileUrl(h.site("store-inconclusive", null, { store: doc }), "#view=cohort"));
      const row = await page.locator("#cohort-table tbody tr").filter({ hasText: parse.label }).first().innerText();
      assert(row.includes("INCONCLUSIVE 1, RECIPE_MISMATCH 1"), `the parse cohort's statuses: ${row}`);
      await pickCohort(page, parse.label);
      const chart = page.locator("#cohort-charts svg.store-chart").first();
      assertEqual(await chart.locator(".marker.st-inconclusive").getAttribute("data-count"), "1", "INCONCLUSIVE markers");
      assertEqual(await chart.locator(".marker.st-regression").count(), 0, "an INCONCLUSIVE drawn as a REGRESSION");
      assert((await text(page, "#cohort-legend")).includes("INCONCLUSIVE (1)"), "legend lacks the INCONCLUSIVE count");
      const rows = page.locator("#records-table tbody tr.st-inconclusive");
      assertEqual(await rows.count(), 1, "INCONCLUSIVE rows of the records table");
      assert((await rows.first().innerText()).includes("Rerun, or raise the repetitions"), "the row lacks its reason");
      assertClean(seen);
    },
  },
  {
    name: "store: each chart marks its own metric's verdict, not the record's status",
    async run(h) {
      // The sort cohort as perfgate writes it now: record 5 regressed on latency only, its
      // memory changed beyond the threshold but is not gated; the others are ok.
      const cohort = sortCohort();
      cohort.records = cohort.records.map((record, k) => ({
        ...record,
        verdicts: k === 0 ? undefined : k === 5 ? { latency: "regressed", memory: "not_gated" } : { latency: "ok", memory: record.metrics.memory === null ? "not_measured" : "ok" },
      }));
      const doc = buildStore({ cohorts: [cohort] });
      assertEqual(JSON.stringify(doc.cohorts[0].metrics[0].verdicts.values), JSON.stringify([null, "ok", "regressed"]), "the latency verdicts' dictionary");
      const { page, seen } = await h.open(h.fileUrl(h.site("store-verdicts", null, { store: doc }), "#view=cohort"));
      const charts = page.locator("#cohort-charts svg.store-chart");
      const latency = charts.nth(0);
      const memory = charts.nth(1);
      assertEqual(await latency.locator(".marker.st-regression").getAttribute("data-count"), "1", "regressed markers on the latency chart");
      assertEqual(await memory.locator(".marker.st-regression").count(), 0, "a REGRESSION triangle on the memory chart, which did not regress");
      assertEqual(await memory.locator(".marker.st-notgated").getAttribute("data-count"), "1", "not-gated markers on the memory chart");
      // Record 0 was not compared (CALIBRATION_NEEDED): its status marks it on both charts.
      assertEqual(await latency.locator(".marker.st-calibration").getAttribute("data-count"), "1", "the uncompared record's marker");
      const legend = await text(page, "#cohort-legend");
      for (const part of ["markers show each chart's own metric", "this metric regressed", "not gated", "record status REGRESSION (1)"]) {
        assert(legend.includes(part), `the legend lacks "${part}": ${legend}`);
      }
      await h.shot(page, "store-chart-verdicts", "#cohort-charts .metric-block:nth-child(2)");
      assertClean(seen);
    },
  },
  {
    name: "store: the overview shows every cohort, and a card opens it",
    async run(h) {
      const doc = partialStore();
      const { page, seen } = await h.open(h.fileUrl(h.site("store-overview", null, { store: doc }), "#view=cohort"));
      await page.click("#tab-overview");
      const cards = await storeOverviewCards(page);
      // One card per cohort and metric (one for a cohort without any): those that changed
      // in the last 30 days first (a REGRESSION or INCONCLUSIVE verdict; this document has
      // no per-metric verdicts, so a record's status stands for each of its metrics), then
      // by how far the latest value moved against the median of those before it.
      assertEqual(await cards.count(), 8, "cards");
      const [sort, parse, render, upload, boot] = doc.cohorts.map((c) => c.label);
      const titles = await page.locator("#store-overview .card-title").allTextContents();
      const metrics = await page.locator("#store-overview .card").evaluateAll((nodes) => nodes.map((n) => n.dataset.metric || ""));
      assertEqual(JSON.stringify(titles.map((t, i) => `${t} · ${metrics[i]}`)), JSON.stringify([
        `${parse} · latency`, `${render} · fps`, `${render} · latency`, `${parse} · cpu_time`, `${sort} · latency`, `${sort} · memory`,
        `${upload} · latency`, `${boot} · `,
      ]), "cards, what changed first");
      assertEqual(await text(page, "#store-overview .card >> nth=0 >> .card-foot >> nth=0"), "latest 3.45 ms · +4.5% against the values before · INCONCLUSIVE", "the first card's foot");
      assertEqual(await text(page, "#store-overview .card >> nth=6 >> .card-foot >> nth=0"), "latest 1 s · +17.6% against the values before", "an unchanged card's foot");
      assertEqual(await page.locator("#store-overview .card.changed").count(), 6, "cards marked as changed");
      assertEqual(await page.locator("#store-overview .card .badge").count(), 4, "badges on legacy and invalid cards");
      assertEqual(JSON.stringify(await page.locator("#store-overview .card[aria-pressed=true] .card-title").allTextContents()), JSON.stringify([sort, sort]), "the chosen cohort's cards");
      assertEqual((await hashParams(page)).view, "overview", "the section in the URL");
      await h.shot(page, "store-overview", "#store-overview-section");
      // Only what changed.
      await page.click("#store-cards-filter .cards-changed");
      assertEqual(await (await storeOverviewCards(page)).count(), 6, "cards that changed");
      assertEqual((await hashParams(page)).cards, "changed", "the filter in the URL");
      await page.click("#store-cards-filter .cards-all");
      await page.locator("#store-overview .card").nth(2).click();
      assertEqual((await hashParams(page)).view, undefined, "the section after a card click (the default, cohort)");
      assert(await page.locator("#cohort-section").isVisible(), "a card does not open the cohort");
      assertEqual(await text(page, "#cohort-title .cohort-label"), render, "the cohort of the clicked card");
      assertClean(seen);
    },
  },
  {
    name: "store: a big cohort's table shows the newest 100 rows, then all",
    async run(h) {
      const doc = bigCohortStore();
      const dir = h.site("store-big-cohort", null, { store: doc });
      const { page, seen } = await h.open(h.fileUrl(dir, "#view=cohort"));
      assertEqual(await page.locator("#records-table tbody tr").count(), 100, "rows at first");
      assertEqual(await text(page, "#records-count"), "Showing the newest 100 of 250 records. show all 250", "count note");
      await page.click("#records-all");
      assertEqual(await page.locator("#records-table tbody tr").count(), 250, "rows after 'show all'");
      assertEqual((await hashParams(page)).rows, "all", "rows in the URL");
      await page.reload();
      await waitReady(page);
      assertEqual(await page.locator("#records-table tbody tr").count(), 250, "rows after a reload");
      await page.click("#records-newest");
      assertEqual(await page.locator("#records-table tbody tr").count(), 100, "rows after 'newest only'");
      await h.shot(page, "store-big-cohort");
      assertClean(seen);
    },
  },
  {
    name: "store: permalink: cohort, filters and section survive a reload",
    async run(h) {
      const doc = partialStore();
      const dir = h.site("store-permalink", null, { store: doc });
      const { page, seen } = await h.open(h.fileUrl(dir, "#view=cohort"));
      await pickCohort(page, "Legacy v1 (render, gpu)");
      await page.fill("#cohort-filter", "v1");
      await page.selectOption("#cohort-source", "scheduled_main");
      await page.selectOption("#cohort-status", "REGRESSION");
      await page.click("#tab-overview");
      await storeOverviewCards(page);
      const params = await hashParams(page);
      assertEqual(JSON.stringify(params), JSON.stringify({ cohort: "legacy-v1/render/gpu", cq: "v1", source: "scheduled_main", status: "REGRESSION", view: "overview" }), "the URL's state");
      const state = async (p) => {
        await p.waitForFunction(() => document.getElementById("store-overview").dataset.complete === "1");
        return {
          q: await p.locator("#cohort-filter").inputValue(),
          source: await p.locator("#cohort-source").inputValue(),
          status: await p.locator("#cohort-status").inputValue(),
          overview: await p.locator("#store-overview-section").isVisible(),
          tab: await p.locator("#tab-overview").getAttribute("aria-selected"),
          pressed: await p.locator("#store-overview .card[aria-pressed=true] .card-title").allTextContents(),
          cards: await p.locator("#store-overview .card-title").allTextContents(),
        };
      };
      const expected = await state(page);
      assertEqual(JSON.stringify(expected.pressed), JSON.stringify(["Legacy v1 (render, gpu)", "Legacy v1 (render, gpu)"]), "the chosen cohort's cards (fps, latency)");
      await page.reload();
      await waitReady(page);
      assertEqual(JSON.stringify(await state(page)), JSON.stringify(expected), "state after a reload");
      const fresh = await h.open(page.url());
      assertEqual(JSON.stringify(await state(fresh.page)), JSON.stringify(expected), "state in a new tab");
      await fresh.page.click("#tab-cohort");
      assertEqual(await text(fresh.page, "#cohort-title .cohort-label"), "Legacy v1 (render, gpu)", "the chosen cohort in a new tab");
      // A link to a cohort the store does not have: said so, and the first cohort shown.
      const stale = await h.open(h.fileUrl(dir, "#cohort=gone%2Fcohort"));
      assertEqual(await text(stale.page, "#cohort-title .cohort-label"), doc.cohorts[0].label, "the cohort shown for a stale link");
      assert((await text(stale.page, "#cohort-notes")).includes("The cohort gone/cohort from the link is not in this store"), "the stale link is not mentioned");
      assertClean(seen);
      assertClean(fresh.seen);
      assertClean(stale.seen);
    },
  },
  {
    name: "store: hostile strings everywhere are shown as text",
    async run(h) {
      const doc = hostileStore();
      const { page, seen } = await h.open(h.fileUrl(h.site("store-hostile", null, { store: doc }), "#view=cohort"));
      const cohort = doc.cohorts[0];
      await hoverRecord(page, cohort, 0, 0);
      const tip = await hoverRecord(page, cohort, 1, 2);
      await page.waitForTimeout(300); // time for an injected onerror or onload to fire
      assertEqual(JSON.stringify(await injected(page)), NOTHING_INJECTED, "injected elements");
      assertEqual(tip[0], `${HOSTILE} 3 ${HOSTILE}`, "value line of a hostile metric and unit");
      for (const line of [
        `commit ${HOSTILE_SVG} (branch ${HOSTILE})`,
        `run source: ${HOSTILE_SCRIPT}`,
        "comparison status: REGRESSION",
        `reason: ${HOSTILE} ${HOSTILE_SCRIPT}`,
        `baseline status: ${HOSTILE_SVG}`,
        `benchmark: ${HOSTILE}`,
        `attempt: ${HOSTILE_SCRIPT.slice(0, 12)}`,
      ]) {
        assert(tip.includes(line), `the tooltip lacks ${line}: ${tip.join(" | ")}`);
      }
      assertEqual(await text(page, "#page-title"), `perfgate · records of ${HOSTILE}`, "page title");
      assertEqual(await text(page, "#cohort-title .cohort-label"), cohort.label, "cohort title");
      assertEqual(await text(page, "#cohort-skipped"), `Skipped (no values): ${HOSTILE_SVG} (${HOSTILE_SCRIPT})`, "skipped metric");
      const axisTitles = await page.locator("#cohort-charts .y-title").allTextContents();
      assertEqual(JSON.stringify(axisTitles), JSON.stringify([`${HOSTILE_SCRIPT} (${HOSTILE_SVG})`, `${HOSTILE} (${HOSTILE})`]), "axis titles");
      const body = await page.locator("body").innerText();
      for (const literal of [HOSTILE, HOSTILE_SCRIPT, HOSTILE_SVG, `${HOSTILE_SVG}/${HOSTILE}`, `Invalid v2 (${HOSTILE_SVG})`]) {
        assert(body.includes(literal), `not shown literally: ${literal}`);
      }
      const sources = await page.locator("#cohort-source option").allTextContents();
      assert(sources.includes(HOSTILE_SCRIPT), `run source options: ${sources}`);
      const statuses = await page.locator("#cohort-status option").allTextContents();
      assert(statuses.includes(HOSTILE), `status options: ${statuses}`);
      // A hostile filter value travels through the URL and back.
      await page.selectOption("#cohort-source", HOSTILE_SCRIPT);
      await page.fill("#cohort-filter", HOSTILE);
      await pickCohort(page, `Invalid v2 (${HOSTILE_SVG})`);
      assertEqual((await hashParams(page)).cohort, `invalid-v2/${HOSTILE_SVG}`, "hostile cohort id in the URL");
      await page.reload();
      await waitReady(page);
      assertEqual(await page.locator("#cohort-source").inputValue(), HOSTILE_SCRIPT, "hostile run source after a reload");
      assertEqual(await page.locator("#cohort-filter").inputValue(), HOSTILE, "hostile filter text after a reload");
      assertEqual(await text(page, "#cohort-title .cohort-label"), `Invalid v2 (${HOSTILE_SVG})`, "hostile cohort after a reload");
      await page.click("#tab-overview");
      await storeOverviewCards(page);
      await page.waitForTimeout(200);
      assertEqual(JSON.stringify(await injected(page)), NOTHING_INJECTED, "injected elements in the overview");
      await h.shot(page, "store-hostile");
      assertClean(seen);
    },
  },
  {
    name: "store: data/store.js that is not valid JSON is reported; the history is still shown",
    async run(h) {
      const dir = h.site("store-bad-json", partialHistory());
      writeFileSync(join(dir, "data", "store.js"), `window.PERFGATE_STORE = "{not json";\n`);
      const { page, seen } = await h.open(h.fileUrl(dir, "#view=cohort"));
      const message = await text(page, "#message-store");
      assert(message.startsWith("data/store.js is not valid JSON"), `message: ${message}`);
      assert(await page.locator("#store-app").isHidden(), "the store views are shown for a broken file");
      assertEqual(await page.locator("#chart svg").count(), 1, "the history's chart");
      assertEqual(await page.evaluate(() => document.body.dataset.view), "history", "parts shown");
      await h.shot(page, "store-bad-json");
      assertClean(seen);
    },
  },
  {
    name: "store: a store and a history written in parts are read whole; a missing or damaged part is reported",
    async run(h) {
      const whole = h.site("store-whole", partialHistory(), { store: partialStore() });
      const { page: wholePage } = await h.open(h.fileUrl(whole, "#view=cohort"));
      const expected = await text(wholePage, "#cohort-table");
      const expectedSeries = await wholePage.locator("#series-list option").count();
      // What perfgate writes for a document beyond 2 MiB, here cut every 700 bytes.
      const writeParts = (dir) => {
        for (const [name, global, doc] of [["store", "PERFGATE_STORE", partialStore()], ["history", "PERFGATE_HISTORY", partialHistory()]]) {
          rmSync(join(dir, "data", `${name}.js`));
          for (const [file, script] of Object.entries(partScripts(name, global, documentText(doc), 700))) writeFileSync(join(dir, "data", file), script);
        }
      };
      const dir = h.site("store-parts", partialHistory(), { store: partialStore() });
      writeParts(dir);
      assert(readFileSync(join(dir, "data", "store.js"), "utf8").startsWith("window.PERFGATE_STORE_PARTS = "), "store.js is not in parts");
      assert(readFileSync(join(dir, "data", "history.3.js"), "utf8").startsWith("window.PERFGATE_HISTORY_3 = "), "history.js is not in parts");
      const { page, seen } = await h.open(h.fileUrl(dir, "#view=cohort"));
      assertEqual(await text(page, "#cohort-table"), expected, "the cohorts of a store in parts");
      assertEqual(await page.locator("#series-list option").count(), expectedSeries, "the series of a history in parts");
      assertEqual(await page.evaluate(() => document.body.dataset.view), "store history", "parts shown");
      // The parts' texts are released once joined.
      assertEqual(await page.evaluate(() => typeof window.PERFGATE_STORE_1), "undefined", "part 1 kept after the join");
      assertClean(seen);

      // A part gone: the store cannot be read whole, and says which file; the history still shows.
      rmSync(join(dir, "data", "store.3.js"));
      const missing = await h.open(h.fileUrl(dir, "#view=cohort"));
      const message = await text(missing.page, "#message-store");
      assertEqual(message, "data/store.js cannot be read whole\n\n" +
        `data/store.3.js is missing or could not be loaded (data/store.js says it has ${Object.keys(partScripts("store", "X", documentText(partialStore()), 700)).length - 1} parts). ` +
        "Write the site again with perfgate report --format html.", "the message of a missing part");
      assertEqual(await missing.page.evaluate(() => document.body.dataset.view), "history", "parts shown without store.3.js");
      assertEqual(missing.seen.consoleErrors.length, 1, "console errors");
      assert(missing.seen.consoleErrors[0].includes("store.3.js"), `console error: ${missing.seen.consoleErrors[0]}`);
      missing.seen.consoleErrors = [];
      assertClean(missing.seen);

      // A part that sets nothing, a count that is not one, and parts that join to bad JSON.
      for (const [file, script, expectedMessage] of [
        ["store.3.js", "// nothing\n", "data/store.3.js does not hold part 3 of the document"],
        ["store.js", "window.PERFGATE_STORE_PARTS = \"many\";\n", "data/store.js says the document has many parts; a count from 2 to 1000 was expected."],
        ["store.js", "window.PERFGATE_STORE_PARTS = 2;\n", "data/store.js is not valid JSON"],
      ]) {
        writeParts(dir);
        writeFileSync(join(dir, "data", file), script);
        const damaged = await h.open(h.fileUrl(dir, "#view=cohort"));
        const said = await text(damaged.page, "#message-store");
        assert(said.includes(expectedMessage), `${file}: message ${said}`);
        assertClean(damaged.seen);
      }
    },
  },
  {
    name: "store: data/store.js with a syntax error is reported",
    async run(h) {
      const dir = h.site("store-syntax", null);
      mkdirSync(join(dir, "data"));
      writeFileSync(join(dir, "data", "store.js"), `window.PERFGATE_STORE = {"schema_version": 1, "kind": \n`);
      const { page, seen } = await h.open(h.fileUrl(dir, "#view=cohort"));
      const message = await text(page, "#message-store");
      assert(message.startsWith("data/store.js sets no data") && message.includes("did not set window.PERFGATE_STORE"), `message: ${message}`);
      assert(await page.locator("#message-none").count() === 0, "the 'nothing found' message for a broken file");
      assertEqual(seen.pageErrors.length, 1, "the syntax error is the one page error");
      seen.pageErrors = [];
      assertClean(seen);
    },
  },
  {
    name: "store: a newer schema_version, another kind and a damaged cohort are refused",
    async run(h) {
      for (const [name, doc, expected] of [
        ["store-v2", partialStore({ schema_version: 2 }), ["data/store.js is newer than this viewer", "It has schema_version 2; this viewer reads store.json schema_version 1 only."]],
        ["store-kind", partialHistory(), ["data/store.js cannot be read: it is not a valid store view", 'kind is "perfgate-history", not "perfgate-store-view".']],
        ["store-columns", (() => {
          const damaged = partialStore();
          damaged.cohorts[1].records.eligible.pop();
          return damaged;
        })(), ["data/store.js cannot be read", "cohorts[1].records.eligible does not have one entry per record."]],
        ["store-order", (() => {
          const damaged = partialStore();
          damaged.cohorts[0].records.timestamp.reverse();
          return damaged;
        })(), ["cohorts[0].records.timestamp[1] is older than the record before it"]],
      ]) {
        const { page, seen } = await h.open(h.fileUrl(h.site(name, null, { store: doc }), "#view=cohort"));
        const message = await text(page, "#message-store");
        for (const part of expected) assert(message.includes(part), `${name}: the message lacks ${part}: ${message}`);
        assert(await page.locator("#store-app").isHidden(), `${name}: the store views are shown`);
        if (name === "store-v2") await h.shot(page, "store-schema-v2");
        assertClean(seen);
      }
    },
  },
  {
    name: "store: plain-array columns are read as the dictionaries are",
    async run(h) {
      const dictionaries = partialStore();
      const plain = partialStore({ dictionaries: false });
      for (const column of DICTIONARY_COLUMNS) {
        assert(!Array.isArray(dictionaries.cohorts[0].records[column]), `${column} is not a dictionary in the writer's form`);
        assert(Array.isArray(plain.cohorts[0].records[column]), `${column} is not a plain array in the older form`);
      }
      // A hand-written document may carry a time in another zone: placed by its instant.
      const sort = sortCohortOf(plain);
      sort.records.timestamp[6] = "2026-11-27T19:00:00+09:00";
      const seenBoth = [];
      const views = [];
      for (const [name, doc] of [["store-dictionaries", dictionaries], ["store-plain-arrays", plain]]) {
        const { page, seen } = await h.open(h.fileUrl(h.site(name, null, { store: doc }), "#view=cohort"));
        seenBoth.push(seen);
        views.push({
          page,
          cohorts: await page.locator("#cohort-table tbody tr").allInnerTexts(),
          legend: await text(page, "#cohort-legend"),
          rows: await page.locator("#records-table tbody tr").allInnerTexts(),
          tip: await hoverRecord(page, sortCohortOf(doc), 0, 5),
          sources: await page.locator("#cohort-source option").allTextContents(),
          statuses: await page.locator("#cohort-status option").allTextContents(),
        });
      }
      const [fromDictionaries, fromArrays] = views;
      for (const key of ["cohorts", "legend", "tip", "sources", "statuses"]) {
        assertEqual(JSON.stringify(fromArrays[key]), JSON.stringify(fromDictionaries[key]), `${key} from plain arrays`);
      }
      assertEqual(fromArrays.rows.length, 10, "record rows from plain arrays");
      assertEqual(JSON.stringify(fromArrays.rows.filter((_, i) => i !== 3)), JSON.stringify(fromDictionaries.rows.filter((_, i) => i !== 3)), "record rows from plain arrays");
      assert(fromArrays.rows[3].includes("recorded as 2026-11-27T19:00:00+09:00"), `the zoned record's row: ${fromArrays.rows[3]}`);
      const zoned = await hoverRecord(fromArrays.page, sort, 0, 6);
      assertEqual(zoned[2], "2026-11-27 10:00:00 UTC (recorded as 2026-11-27T19:00:00+09:00)", "a time recorded in another zone");
      // Both forms in one document: a column of each kind per cohort.
      const mixed = partialStore();
      mixed.cohorts[1].records.run_source = plain.cohorts[1].records.run_source;
      const { page, seen } = await h.open(h.fileUrl(h.site("store-mixed-columns", null, { store: mixed }), "#view=cohort"));
      await pickCohort(page, mixed.cohorts[1].label);
      assertEqual(await page.locator("#records-table tbody tr").count(), 6, "rows of a cohort with both forms");
      seenBoth.concat([seen]).forEach((s) => assertClean(s));
    },
  },
  {
    name: "store: a damaged dictionary column is refused, naming data/store.js and the column",
    async run(h) {
      const damage = (change) => {
        const doc = partialStore();
        change(doc.cohorts[0].records, doc);
        return doc;
      };
      for (const [name, doc, expected] of [
        ["dict-range", damage((r) => { r.comparison_status.codes[2] = 7; }),
          "cohorts[0].records.comparison_status.codes[2] is 7, not an index into comparison_status.values (a whole number from 0 to 2)."],
        ["dict-fraction", damage((r) => { r.branch.codes[3] = 0.5; }),
          "cohorts[0].records.branch.codes[3] is 0.5, not an index into branch.values (a whole number from 0 to 2)."],
        ["dict-string", damage((r) => { r.run_source.codes[0] = "0"; }),
          'cohorts[0].records.run_source.codes[0] is "0", not an index into run_source.values'],
        ["dict-negative", damage((r) => { r.baseline_status.codes[9] = -1; }),
          "cohorts[0].records.baseline_status.codes[9] is -1, not an index"],
        ["dict-no-values", damage((r) => { delete r.benchmark.values; }),
          'cohorts[0].records.benchmark is neither an array nor a dictionary {"codes": [...], "values": [...]}.'],
        ["dict-short", damage((r) => { r.comparison_reason.codes.pop(); }),
          "cohorts[0].records.comparison_reason.codes does not have one entry per record."],
        ["unplaced-object", damage((r, d) => { d.unplaced_records = { benchmark: "sort" }; }), "unplaced_records is not an array."],
        ["verdict-unknown", damage((r, d) => { d.cohorts[0].metrics[0].verdicts = { codes: new Array(10).fill(0), values: ["<b>fine</b>"] }; }),
          'cohorts[0].metrics[0].verdicts[0] is "<b>fine</b>", not one of regressed, inconclusive, not_gated, not_measured, ok or null.'],
        ["verdict-short", damage((r, d) => { d.cohorts[0].metrics[0].verdicts = ["ok"]; }),
          "cohorts[0].metrics[0].verdicts does not have one entry per record."],
      ]) {
        const { page, seen } = await h.open(h.fileUrl(h.site(`store-${name}`, null, { store: doc }), "#view=cohort"));
        const message = await text(page, "#message-store");
        assert(message.startsWith("data/store.js cannot be read: it is not a valid store view"), `${name}: message: ${message}`);
        assert(message.includes(expected), `${name}: the message lacks ${expected}: ${message}`);
        assert(await page.locator("#store-app").isHidden(), `${name}: the store views are shown`);
        if (name === "dict-range") await h.shot(page, "store-bad-dictionary");
        assertClean(seen);
      }
    },
  },
  {
    name: "store: change points are dashed markers at their first record, with a label, a title and a list",
    async run(h) {
      const doc = steppedStore();
      const stepped = doc.cohorts[0];
      assert(stepped.label.startsWith(STEPPED_LABEL_PREFIX), `the stepped cohort is not first: ${stepped.label}`);
      const { page, seen } = await h.open(h.fileUrl(h.site("store-changes", null, { store: doc }), "#view=cohort"));
      assertEqual(await text(page, "#cohort-title .cohort-label"), stepped.label, "default cohort");
      const charts = page.locator("#cohort-charts svg.store-chart");
      assertEqual(await charts.count(), 3, "charts (latency, memory, wall_time)");
      const latency = charts.nth(0);
      assertEqual(await latency.locator(".change-marker").count(), 1, "markers on the latency chart");
      const marker = latency.locator(".change-marker.worse");
      assertEqual(await marker.count(), 1, "worse markers on the latency chart");
      assertEqual(await marker.getAttribute("data-index"), "12", "the marker's record");
      // At the x of record 12, which is also where its REGRESSION triangle is drawn (at the
      // rounded pixel), and across the whole plot.
      const geometry = await latency.evaluate((svg, time) => {
        const d = svg.dataset;
        const line = svg.querySelector(".change-marker .change-line");
        const triangle = svg.querySelector(".marker.st-regression").getAttribute("d");
        return {
          expected: Number(d.xLo) + ((time - Number(d.tLo)) * (Number(d.xHi) - Number(d.xLo))) / (Number(d.tHi) - Number(d.tLo)),
          x1: Number(line.getAttribute("x1")),
          x2: Number(line.getAttribute("x2")),
          y1: Number(line.getAttribute("y1")),
          y2: Number(line.getAttribute("y2")),
          top: Number(d.yHi),
          bottom: Number(d.yLo),
          triangleX: Number(/^M([-\d.]+),/.exec(triangle)[1]),
          dashed: getComputedStyle(line).strokeDasharray,
          stroke: getComputedStyle(line).stroke,
        };
      }, Date.parse(stepped.records.timestamp[12]));
      assert(Math.abs(geometry.x1 - geometry.expected) <= 0.06 && geometry.x2 === geometry.x1, `marker at x ${geometry.x1}, record 12 at ${geometry.expected}`);
      assert(Math.abs(geometry.x1 - geometry.triangleX) <= 0.5, `marker at x ${geometry.x1}, the REGRESSION triangle of record 12 at ${geometry.triangleX}`);
      assertEqual(geometry.y1, geometry.top, "the marker's top (the plot's)");
      assertEqual(geometry.y2, geometry.bottom, "the marker's bottom (the plot's)");
      assert(geometry.dashed !== "none" && geometry.dashed !== "", `the marker line is not dashed: ${geometry.dashed}`);
      assertEqual(geometry.stroke, "rgb(196, 35, 28)", "the worse marker's colour (the regression red)");
      assertEqual(await marker.locator("title").textContent(),
        "change at 2026-12-03 22:00:00 UTC: 20 ms → 23 ms (+15.0%, worse), p = 2.7e-26", "the marker's title");
      assertEqual(await marker.locator(".change-label").textContent(), "+15.0% worse", "the marker's label");
      assertEqual(await text(page, "#cohort-charts .metric-block:nth-child(1) .change-list"), "1 change: 2026-12-03 22:00 UTC 20 ms → 23 ms (+15.0%, worse), p = 2.7e-26", "latency's list of changes");

      // Two changes on memory, a better then a worse one, in the order of the document.
      const memory = charts.nth(1);
      assertEqual(await memory.locator(".change-marker").count(), 2, "markers on the memory chart");
      assertEqual(JSON.stringify(await memory.locator(".change-marker").evaluateAll((gs) => gs.map((g) => [g.getAttribute("class"), g.querySelector("text").textContent, g.querySelector("title").textContent]))), JSON.stringify([
        ["change-marker better", "−6.3% better", "change at 2026-11-27 22:00:00 UTC: 64 MB → 60 MB (−6.3%, better), p = 3.1e-12"],
        ["change-marker worse", "+2.5% worse", "change at 2026-12-05 22:00:00 UTC: 60 MB → 61.5 MB (+2.5%, worse), p = 0.00042"],
      ]), "memory's markers");
      assertEqual(await text(page, "#cohort-charts .metric-block:nth-child(2) .change-list"),
        "2 changes: 2026-11-27 22:00 UTC 64 MB → 60 MB (−6.3%, better), p = 3.1e-12; 2026-12-05 22:00 UTC 60 MB → 61.5 MB (+2.5%, worse), p = 0.00042", "memory's list of changes");
      // "changes": [] draws nothing.
      assertEqual(await charts.nth(2).locator(".change-marker").count(), 0, "markers on the wall_time chart");
      assertEqual(await page.locator("#cohort-charts .metric-block:nth-child(3) .change-list").count(), 0, "a list of no changes");
      assert((await text(page, "#cohort-legend")).includes("dashed line: a change point (docs/changes.md)"), "the legend does not explain the markers");

      // The marker is what the pointer meets there (so its title shows), and the record's
      // tooltip still follows the pointer across it.
      const tip = await hoverRecord(page, stepped, 0, 12);
      assertEqual(tip[0], "latency 23.2 ms", "tooltip of the record at the marker");
      const under = await page.evaluate(() => {
        const line = document.querySelector("#cohort-charts svg.store-chart .change-marker .change-hit");
        const box = line.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height * 0.4);
        return hit && hit.closest(".change-marker") ? "marker" : hit && hit.getAttribute("class");
      });
      assertEqual(under, "marker", "the element under the pointer at the marker");
      await page.mouse.move(0, 0);
      await h.shot(page, "store-change-marker", "#cohort-charts .metric-block:nth-child(1)");
      await h.shot(page, "store-change-markers-two", "#cohort-charts .metric-block:nth-child(2)");

      // A cohort without changes fields draws none, and its legend does not name them.
      await pickCohort(page, doc.cohorts[1].label);
      assertEqual(await page.locator("#cohort-charts .change-marker").count(), 0, "markers on a cohort without changes");
      assert(!(await text(page, "#cohort-legend")).includes("change point"), "the legend explains change points no chart draws");
      // Redrawn at another width, the marker stays at its record.
      await pickCohort(page, stepped.label);
      const wide = await charts.nth(0).getAttribute("width");
      await page.setViewportSize({ width: 900, height: 900 });
      await page.waitForFunction((wide) => {
        const svg = document.querySelector("#cohort-charts svg.store-chart");
        return svg.getAttribute("width") !== wide && document.querySelectorAll("#cohort-charts .change-marker").length === 3;
      }, wide);
      const moved = await charts.nth(0).evaluate((svg, time) => {
        const d = svg.dataset;
        return {
          expected: Number(d.xLo) + ((time - Number(d.tLo)) * (Number(d.xHi) - Number(d.xLo))) / (Number(d.tHi) - Number(d.tLo)),
          x: Number(svg.querySelector(".change-marker .change-line").getAttribute("x1")),
        };
      }, Date.parse(stepped.records.timestamp[12]));
      assert(Math.abs(moved.x - moved.expected) <= 0.06, `after a resize, marker at x ${moved.x}, record 12 at ${moved.expected}`);
      await h.shot(page, "store-change-legend", "#cohort-legend");
      assertClean(seen);

      // The unit is data: shown in the title as text.
      const hostile = steppedStore();
      hostile.cohorts[0].metrics[0].unit = HOSTILE;
      const second = await h.open(h.fileUrl(h.site("store-changes-hostile", null, { store: hostile }), "#view=cohort"));
      assertEqual(await second.page.locator("#cohort-charts .change-marker title").first().textContent(),
        `change at 2026-12-03 22:00:00 UTC: 20 ${HOSTILE} → 23 ${HOSTILE} (+15.0%, worse), p = 2.7e-26`, "title with a hostile unit");
      await second.page.waitForTimeout(300); // time for an injected onerror or onload to fire
      assertEqual(JSON.stringify(await injected(second.page)), NOTHING_INJECTED, "injected elements");
      assertClean(second.seen);
    },
  },
  {
    name: "store: a change from a level of 0 has no percentage and is labelled 'from 0'",
    async run(h) {
      const doc = steppedStore();
      const change = doc.cohorts[0].metrics[0].changes[0];
      change.before = 0;
      change.relative_change = null;  // as perfgate writes an infinite ratio
      const { page, seen } = await h.open(h.fileUrl(h.site("store-change-from-zero", null, { store: doc }), "#view=cohort"));
      const label = await page.locator("#cohort-charts .change-marker .change-label").first().textContent();
      assertEqual(label, "from 0 worse", "the label");
      assertClean(seen);
    },
  },
  {
    name: "store: damaged change points are refused, naming the cohort, metric and field",
    async run(h) {
      const damage = (change) => {
        const doc = steppedStore();
        change(doc.cohorts[0].metrics[0], doc.cohorts[0].metrics[1]);
        return doc;
      };
      const first = (latency) => latency.changes[0];
      for (const [name, doc, expected] of [
        ["changes-range", damage((l) => { first(l).index = 20; }),
          "cohorts[0].metrics[0].changes[0].index is 20, not the index of a record after the first (a whole number from 1 to 19)."],
        ["changes-zero", damage((l) => { first(l).index = 0; }), "cohorts[0].metrics[0].changes[0].index is 0, not the index of a record after the first"],
        ["changes-fraction", damage((l) => { first(l).index = 12.5; }), "cohorts[0].metrics[0].changes[0].index is 12.5, not the index"],
        ["changes-text-index", damage((l) => { first(l).index = "12"; }), 'cohorts[0].metrics[0].changes[0].index is "12", not the index'],
        ["changes-object", damage((l) => { l.changes = first(l); }), "cohorts[0].metrics[0].changes is not an array."],
        ["changes-null", damage((l) => { l.changes = null; }), "cohorts[0].metrics[0].changes is not an array."],
        ["changes-entry", damage((l, m) => { m.changes[1] = 14; }), "cohorts[0].metrics[1].changes[1] is not an object."],
        ["changes-before", damage((l) => { delete first(l).before; }), "cohorts[0].metrics[0].changes[0].before is missing, not a finite number."],
        ["changes-after", damage((l) => { first(l).after = "23"; }), 'cohorts[0].metrics[0].changes[0].after is "23", not a finite number.'],
        ["changes-relative", damage((l) => { first(l).relative_change = "15%"; }), 'cohorts[0].metrics[0].changes[0].relative_change is "15%", not a finite number.'],
        ["changes-worse", damage((l) => { first(l).worse = "yes"; }), 'cohorts[0].metrics[0].changes[0].worse is "yes", not true or false.'],
        ["changes-p-high", damage((l) => { first(l).p_value = 1.5; }), "cohorts[0].metrics[0].changes[0].p_value is 1.5, not a number from 0 to 1."],
        ["changes-p-negative", damage((l) => { first(l).p_value = -0.01; }), "cohorts[0].metrics[0].changes[0].p_value is -0.01, not a number from 0 to 1."],
      ]) {
        const { page, seen } = await h.open(h.fileUrl(h.site(`store-${name}`, null, { store: doc }), "#view=cohort"));
        const message = await text(page, "#message-store");
        assert(message.startsWith("data/store.js cannot be read: it is not a valid store view"), `${name}: message: ${message}`);
        assert(message.includes(expected), `${name}: the message lacks ${expected}: ${message}`);
        assert(await page.locator("#store-app").isHidden(), `${name}: the store views are shown`);
        if (name === "changes-range") await h.shot(page, "store-bad-changes");
        assertClean(seen);
      }
    },
  },
  {
    name: "store: records whose timestamp is not an instant are listed in a note, as text",
    async run(h) {
      const doc = unplacedStore();
      assertEqual(doc.unplaced_records.length, 3, "unplaced records in the document");
      assertEqual(doc.record_count, 10, "record_count (the records in cohorts)");
      const { page, seen } = await h.open(h.fileUrl(h.site("store-unplaced", null, { store: doc }), "#view=cohort"));
      const note = page.locator("#store-unplaced");
      assert(await note.isVisible(), "the note of unplaced records is not shown");
      assertEqual(await note.locator("p").innerText(),
        "3 records were left out of the cohorts and charts: their timestamps are not an instant, so they have no place on a time axis.", "the note");
      const items = await note.locator("li").allInnerTexts();
      assertEqual(JSON.stringify(items), JSON.stringify(doc.unplaced_records.map((entry) => `${entry.benchmark} · record ${entry.record} · timestamp ${entry.timestamp}`)), "the records listed");
      assertEqual(items[2], `${HOSTILE} · record ${doc.unplaced_records[2].record} · timestamp ${HOSTILE_SCRIPT}`, "the hostile entry, as text");
      assertEqual(JSON.stringify(doc.unplaced_records.map((entry) => entry.timestamp)), JSON.stringify(UNPLACED_TIMESTAMPS), "timestamps as stored");
      // Above the charts, and the cohort is drawn from its placed records alone.
      assert(await page.evaluate(() => Boolean(document.getElementById("store-unplaced").compareDocumentPosition(document.getElementById("cohort-charts")) & Node.DOCUMENT_POSITION_FOLLOWING)), "the note is not above the charts");
      assert((await text(page, "#store-facts")).includes("10 in 1 cohort"), "the facts do not count the placed records");
      assertEqual(await page.locator("#store-notes .note").count(), 1, "notes (a record_count warning besides?)");
      assertEqual(await page.locator("#cohort-charts svg.store-chart").first().getAttribute("data-values"), "10", "values drawn");
      await page.waitForTimeout(300); // time for an injected onerror or onload to fire
      assertEqual(JSON.stringify(await injected(page)), NOTHING_INJECTED, "injected elements");
      await h.shot(page, "store-unplaced");
      assertClean(seen);

      // Every record unplaced: no cohort, the note still lists them.
      const none = { ...doc, cohorts: [], record_count: 0, unplaced_records: doc.unplaced_records.slice(0, 1) };
      const second = await h.open(h.fileUrl(h.site("store-unplaced-only", null, { store: none }), "#view=cohort"));
      assertEqual(await text(second.page, "#store-empty"), "This store view has no record with an instant, so there is no cohort to chart.", "empty-store note");
      assertEqual(await second.page.locator("#store-unplaced p").innerText(),
        "1 record was left out of the cohorts and charts: its timestamp is not an instant, so it has no place on a time axis.", "the note of one record");
      assertEqual(await second.page.locator("#store-unplaced li").count(), 1, "records listed");
      assertClean(second.seen);
    },
  },
  {
    name: "sources: a store only",
    async run(h) {
      const { page, seen } = await h.open(h.fileUrl(h.site("only-store", null, { store: partialStore() }), "#view=cohort"));
      assertEqual(await page.evaluate(() => document.body.dataset.view), "store", "parts shown");
      assert(await page.locator("#app").isHidden(), "the history views are shown without a history");
      assert(await page.locator("#message").isHidden(), "a message is shown");
      assert(await page.locator("#store-title").isHidden(), "a part heading on a page of one part");
      assertEqual(await text(page, "#page-title"), "perfgate · records of sqlite:.perfgate/perfgate.db", "page title");
      assertEqual(JSON.stringify(seen.optionalMissing), JSON.stringify(["data/history.js"]), "files that were not there");
      assertClean(seen);
    },
  },
  {
    name: "sources: a history only",
    async run(h) {
      const { page, seen } = await h.open(h.fileUrl(h.site("only-history", partialHistory()), "#view=cohort"));
      assertEqual(await page.evaluate(() => document.body.dataset.view), "history", "parts shown");
      assert(await page.locator("#store-app").isHidden(), "the store views are shown without a store");
      assert(await page.locator("#history-title").isHidden(), "a part heading on a page of one part");
      assertEqual(await text(page, "#page-title"), "perfgate · commit history of main", "page title");
      assertEqual(JSON.stringify(seen.optionalMissing), JSON.stringify(["data/store.js"]), "files that were not there");
      assertClean(seen);
    },
  },
  {
    name: "sources: both, the store first, one permalink for both",
    async run(h) {
      const history = partialHistory();
      const store = partialStore();
      const dir = h.site("both", history, { store });
      const { page, seen } = await h.open(h.fileUrl(dir, "#view=cohort"));
      assertEqual(await page.evaluate(() => document.body.dataset.view), "store history", "parts shown");
      assert(await page.evaluate(() => Boolean(document.getElementById("store-app").compareDocumentPosition(document.getElementById("app")) & Node.DOCUMENT_POSITION_FOLLOWING)), "the store is not first");
      assertEqual(await text(page, "#store-title"), "Records of sqlite:.perfgate/perfgate.db", "store part heading");
      assertEqual(await text(page, "#history-title"), "Commit history of main", "history part heading");
      assertEqual(await text(page, "#page-title"), "perfgate · records of sqlite:.perfgate/perfgate.db · commit history of main", "page title");
      await h.shot(page, "both-parts");
      await h.shot(page, "both-parts-history", "#app");
      await pickCohort(page, "Invalid v2 (upload)");
      const series = history.series[2].id;
      await page.selectOption("#series-list", series);
      await page.check("#mode-ratio");
      const params = await hashParams(page);
      assertEqual(params.cohort, "invalid-v2/upload", "cohort in the URL");
      assertEqual(params.series, series, "series in the URL");
      assertEqual(params.mode, "ratio", "mode in the URL");
      await page.reload();
      await waitReady(page);
      assertEqual(await text(page, "#cohort-title .cohort-label"), "Invalid v2 (upload)", "cohort after a reload");
      assertEqual(await page.locator("#series-list").inputValue(), series, "series after a reload");
      assert(await page.locator("#mode-ratio").isChecked(), "ratio mode after a reload");
      // An edited link changes both parts.
      await page.evaluate((series) => { location.hash = `#cohort=legacy-v1%2Frender%2Fgpu&series=${series}`; }, history.series[0].id);
      await page.waitForFunction(() => document.querySelector("#cohort-title .cohort-label").textContent === "Legacy v1 (render, gpu)");
      assertEqual(await page.locator("#series-list").inputValue(), history.series[0].id, "series after a hash change");
      assert(!(await page.locator("#mode-ratio").isChecked()), "ratio mode after a hash change without it");
      assertEqual(seen.optionalMissing.length, 0, "files that were not there");
      assertClean(seen);
    },
  },
  {
    name: "sources: neither: one message naming the files and how to write them",
    async run(h) {
      const { page, seen } = await h.open(h.fileUrl(h.site("neither", null), "#view=cohort"));
      assertEqual(await page.locator("#message .message-block").count(), 1, "messages");
      const message = await text(page, "#message-none");
      for (const part of ["No store or history data found", "data/store.js and data/history.js", "perfgate report --format html -o DIR", "--history history.json", "perfgate serve"]) {
        assert(message.includes(part), `the message lacks ${part}: ${message}`);
      }
      assert(await page.locator("#store-app").isHidden() && await page.locator("#app").isHidden(), "a part is shown without data");
      assertEqual(await page.evaluate(() => document.body.dataset.view), "message", "parts shown");
      await h.shot(page, "no-data");
      assertClean(seen);
    },
  },
  {
    name: "served over HTTP under /immersx/: data/store.json fetched, alone and with data/history.json",
    async run(h) {
      const store = partialStore();
      const dir = h.site("served-store", null, { store, storeJs: false, storeJson: true });
      const base = await h.serve(dir, "/immersx/");
      const { page, seen } = await h.open(base + "#view=cohort");
      assertEqual(await page.evaluate(() => document.body.dataset.view), "store", "parts shown");
      assertEqual(await page.locator("#cohort-charts svg.store-chart").count(), 2, "charts drawn from the fetched file");
      assert(seen.requests.includes(base + "data/store.json"), "data/store.json was not fetched relative to the page");
      assertEqual(JSON.stringify(seen.optionalMissing.sort()), JSON.stringify(["data/history.js", "data/history.json", "data/store.js"]), "files that were not there");
      await h.shot(page, "served-store");
      assertClean(seen);

      const both = h.site("served-both", partialHistory(), { js: false, json: true, store, storeJs: false, storeJson: true });
      const bothBase = await h.serve(both, "/immersx/");
      const second = await h.open(bothBase + "#cohort=legacy-v1%2Frender%2Fgpu");
      assertEqual(await second.page.evaluate(() => document.body.dataset.view), "store history", "parts shown from two .json files");
      assertEqual(await text(second.page, "#cohort-title .cohort-label"), "Legacy v1 (render, gpu)", "the cohort of the link");
      assertClean(second.seen);

      // store.js beside store.json: the script is used, nothing fetched.
      writeFileSync(join(both, "data", "store.js"), storeScript(JSON.stringify(store)));
      const third = await h.open(bothBase);
      assert(!third.seen.requests.includes(bothBase + "data/store.json"), "data/store.json fetched although data/store.js set the data");
      assertClean(third.seen);

      writeFileSync(join(dir, "data", "store.json"), "{not json");
      const broken = await h.open(base);
      assert((await text(broken.page, "#message-store")).startsWith("data/store.json is not valid JSON"), "a broken store.json is not reported");
      assertClean(broken.seen);

      // A server error is broken, not absent, and its reason is shown; the history still is.
      const failing = await h.serve(both, "/immersx/", { answers: { "data/store.json": [500, `{"error":"the store ${HOSTILE} cannot be read","status":500}`] } });
      rmSync(join(both, "data", "store.js"));
      const erred = await h.open(failing);
      assertEqual(await text(erred.page, "#message-store"),
        `data/store.json could not be loaded\n\nThe server answered HTTP 500: the store ${HOSTILE} cannot be read.`, "message of a server error");
      assertEqual(await erred.page.evaluate(() => document.body.dataset.view), "history", "parts shown");
      assertClean(erred.seen, [/status of 500/]);
    },
  },
];
