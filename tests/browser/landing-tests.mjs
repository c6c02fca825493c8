// "What changed" first (web/viewer/landing*.js), the cards ordered by it, permalinks to a
// point with its tooltip shown, the store charts' spread bands and commit links.
import { assert, assertClean, assertEqual, waitReady } from "./harness.mjs";
import { changedHistory, partialStore, steppedStore } from "./fixtures.mjs";

async function text(page, selector) {
  return (await page.locator(selector).innerText()).trim();
}

async function lines(page, selector) {
  return (await page.locator(selector).allInnerTexts()).map((line) => line.replace(/\s+/g, " ").trim());
}

async function hashParams(page) {
  return Object.fromEntries(new URLSearchParams(new URL(page.url()).hash.slice(1)));
}

// Whether the element is at least partly inside the window.
async function inView(locator) {
  return locator.evaluate((node) => {
    const box = node.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight;
  });
}

const STEPPED = "compress/zstd/v1 (recipe 812679d9a3ad, hw-1a2b3c4d, sw-5e6f7a8b)";
const SORT = "sort/default/v1 (recipe c62df5b0e5f6, hw-1a2b3c4d, sw-5e6f7a8b)";

// The stepped store's events, newest first (fixtures.mjs: records a day apart; latency
// steps up at record 12, a REGRESSION there too; memory falls at 6 and rises at 14; the
// sort cohort's REGRESSION at its record 5). At one instant a REGRESSION comes before a
// change point.
const STORE_EVENTS = [
  `change point 2026-12-05 22:00 UTC ${STEPPED} · memory 60 MB → 61.5 MB (+2.5%, worse), p = 0.00042 · 16cb9a7f7b`,
  `REGRESSION 2026-12-03 22:00 UTC ${STEPPED} · latency gated metrics regressed against the rolling baseline: latency +15.0% (+3 ms) · 9cc046d988`,
  `change point 2026-12-03 22:00 UTC ${STEPPED} · latency 20 ms → 23 ms (+15.0%, worse), p = 2.7e-26 · 9cc046d988`,
  `change point 2026-11-27 22:00 UTC ${STEPPED} · memory 64 MB → 60 MB (−6.3%, better), p = 3.1e-12 · b1f0a64ee9`,
  `REGRESSION 2026-11-26 10:00 UTC ${SORT} · latency gated metrics regressed against the rolling baseline: latency +12.5% (+0.0015 s) · 414c378719`,
];

function recordId(cohort, k) {
  return cohort.records.record[k];
}

function storeHash(cohort, k, metric) {
  const params = new URLSearchParams({ cohort: cohort.id, record: recordId(cohort, k) });
  if (metric) params.set("metric", metric);
  return "#" + params.toString();
}

export const landingTests = [
  {
    name: "landing: the store opens on what changed, newest first, each line a link to its point",
    async run(h) {
      const doc = steppedStore();
      const [stepped, sort] = doc.cohorts;
      const { page, seen } = await h.open(h.fileUrl(h.site("landing-store", null, { store: doc })));
      // The first thing of the part, before the cohorts.
      const order = await page.evaluate(() => {
        const landing = document.getElementById("store-landing");
        const filters = document.getElementById("cohort-filters-section");
        return Boolean(landing.compareDocumentPosition(filters) & Node.DOCUMENT_POSITION_FOLLOWING);
      });
      assert(order, "what changed is not above the cohorts");
      assertEqual(await text(page, "#store-landing-count"),
        "The last 30 days up to the newest record (2026-12-10 22:00 UTC): 2 REGRESSION, 3 change points.", "the count line");
      assertEqual(JSON.stringify(await lines(page, "#store-landing .landing-item")), JSON.stringify(STORE_EVENTS), "the events");
      // Colour is not the only signal: each line says its kind in words.
      assertEqual(JSON.stringify(await page.locator("#store-landing .event-kind").allTextContents()),
        JSON.stringify(["change point", "REGRESSION", "change point", "change point", "REGRESSION"]), "the kinds");
      const hrefs = await page.locator("#store-landing .event-link").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
      assertEqual(JSON.stringify(hrefs), JSON.stringify([
        storeHash(stepped, 14, "memory"), storeHash(stepped, 12, "latency"), storeHash(stepped, 12, "latency"),
        storeHash(stepped, 6, "memory"), storeHash(sort, 5, "latency"),
      ]), "the links");
      // The default view is the cards, what changed first.
      assertEqual((await hashParams(page)).view, "overview", "the section a plain link opens");
      await page.waitForFunction(() => document.getElementById("store-overview").dataset.complete === "1");
      assertEqual(JSON.stringify(await page.locator("#store-overview .card").evaluateAll((cards) => cards.slice(0, 3).map((c) => c.dataset.metric))),
        JSON.stringify(["latency", "memory", "latency"]), "the first cards: the stepped cohort's latency (+15.0%), memory (+2.5%), then sort's latency");
      assertEqual(await text(page, "#store-overview .card >> nth=0 >> .card-foot >> nth=0"),
        "latest 22.9 ms · change point +15.0% worse on 2026-12-03 · REGRESSION", "the first card's foot");
      await h.shot(page, "landing-store");
      // A narrower window: only what happened in the 7 days up to the newest record.
      await page.selectOption("#store-recent", "7d");
      assertEqual((await hashParams(page)).recent, "7d", "the window in the URL");
      assertEqual(await text(page, "#store-landing-count"),
        "The last 7 days up to the newest record (2026-12-10 22:00 UTC): 1 REGRESSION, 2 change points.", "the count line of 7 days");
      assertEqual(JSON.stringify(await lines(page, "#store-landing .landing-item")), JSON.stringify(STORE_EVENTS.slice(0, 3)), "the events of 7 days");
      await page.click("#store-cards-filter .cards-changed");
      await page.waitForFunction(() => document.getElementById("store-overview").dataset.complete === "1");
      // Latency and memory by their change points; wall_time too: this document has no
      // per-metric verdicts, so the record's REGRESSION stands for each of its metrics.
      assertEqual(JSON.stringify(await page.locator("#store-overview .card").evaluateAll((cards) => cards.map((c) => c.dataset.metric))),
        JSON.stringify(["latency", "memory", "wall_time"]), "cards that changed in 7 days");
      // A line's link opens the cohort at that record, the chart of its metric in view with
      // the record's tooltip shown.
      await page.locator("#store-landing .event-link").nth(1).click();
      await page.waitForFunction(() => document.querySelector("#cohort-charts .metric-chart .tooltip:not([hidden])") !== null);
      assertEqual(await text(page, "#cohort-title .cohort-label"), STEPPED, "the cohort of the link");
      const tooltip = page.locator("#cohort-charts .metric-chart").nth(0).locator(".tooltip");
      assertEqual(await tooltip.getAttribute("data-record"), "12", "the record of the tooltip");
      assert(await inView(page.locator("#cohort-charts svg.store-chart").nth(0)), "the latency chart is not in view");
      assertEqual((await text(page, "#cohort-charts .metric-chart >> nth=0 >> .tooltip")).split("\n")[0], "latency 23.2 ms", "the tooltip's first line");
      assertClean(seen);
    },
  },
  {
    name: "landing: a point's permalink opens its chart scrolled to it, its tooltip shown, after a reload too",
    async run(h) {
      const doc = steppedStore();
      const stepped = doc.cohorts[0];
      const dir = h.site("landing-permalink", null, { store: doc });
      const { page, seen } = await h.open(h.fileUrl(dir, storeHash(stepped, 14, "memory")));
      const check = async (p, what) => {
        await p.waitForFunction(() => document.querySelectorAll("#cohort-charts .metric-chart .tooltip:not([hidden])").length === 1);
        const memory = p.locator("#cohort-charts .metric-chart").nth(1);
        assertEqual(await memory.locator(".tooltip").getAttribute("data-record"), "14", `${what}: the record`);
        assert(await inView(memory.locator("svg.store-chart")), `${what}: the memory chart is not in view`);
        assertEqual((await memory.locator(".tooltip").innerText()).split("\n")[0], "memory 61.55 MB", `${what}: the tooltip`);
      };
      await check(page, "opened");
      await page.reload();
      await waitReady(page);
      await check(page, "reloaded");
      // Each row of the records table links its record's point.
      const first = page.locator("#records-table tbody tr").first().locator("a.permalink");
      assertEqual(await first.getAttribute("href"), storeHash(stepped, 19, null), "the newest row's permalink");
      // Without a metric: the first chart where the record has a value.
      const second = await h.open(h.fileUrl(dir, storeHash(stepped, 3, null)));
      await second.page.waitForFunction(() => document.querySelectorAll("#cohort-charts .metric-chart .tooltip:not([hidden])").length === 1);
      assertEqual(await second.page.locator("#cohort-charts .metric-chart").nth(0).locator(".tooltip").getAttribute("data-record"), "3", "the record on the first chart");
      // A record the cohort does not have: said so, nothing pinned.
      const stale = await h.open(h.fileUrl(dir, "#cohort=" + encodeURIComponent(stepped.id) + "&record=000000000000&metric=memory"));
      assert((await text(stale.page, "#cohort-notes")).includes("The record 000000000000 from the link has no point in this cohort on memory"), "the stale record is not mentioned");
      assertEqual(await stale.page.locator("#cohort-charts .metric-chart .tooltip:not([hidden])").count(), 0, "a tooltip for a stale record");
      assertClean(seen);
      assertClean(second.seen);
      assertClean(stale.seen);
    },
  },
  {
    name: "landing: the history opens on its flags, change points and failed commits; a link shows the point",
    async run(h) {
      const doc = changedHistory();
      const { page, seen } = await h.open(h.fileUrl(h.site("landing-history", doc)));
      assertEqual(await text(page, "#history-landing-count"),
        "The last 30 days up to the newest commit (2026-01-05 20:00 UTC): 2 failed, 2 flags, 1 change point.", "the count line");
      assertEqual(JSON.stringify(await lines(page, "#history-landing .landing-item")), JSON.stringify([
        "failed 2026-01-05 17:00 UTC commit 3d36cd092d suite: benchmarks/sort: timed out after 600 s · 3d36cd092d Tune step 8",
        "flag 2026-01-05 15:00 UTC sort[n=1000] · latency 10.1 ms → 13 ms (+28.7%) · cce0b167b2 Tune step 6",
        "flag 2026-01-05 15:00 UTC sort[n=1000] · cpu_time 9.54 ms → 12.35 ms (+29.5%) · cce0b167b2 Tune step 6",
        "change point 2026-01-05 15:00 UTC sort[n=1000] · latency 10.06 ms → 13.03 ms (+29.5%, worse), p = 2.5e-9 · cce0b167b2 Tune step 6",
        "failed 2026-01-05 13:00 UTC commit fc396ea39b build: cmake --build build exited with status 2 · fc396ea39b Tune step 4",
      ]), "the events");
      const stepped = doc.series.find((s) => s.changes.length);
      const sha = doc.commits[stepped.points.commit[4]].sha;
      assertEqual(await page.locator("#history-landing .event-link").nth(3).getAttribute("href"), `#series=${stepped.id}&point=${sha}`, "the change's link");
      // The overview's cards come before the chart, the changed first.
      await page.waitForFunction(() => document.getElementById("overview").dataset.complete === "1");
      assertEqual(await page.locator("#overview .card.changed").count(), 2, "cards that changed (the flagged latency and cpu_time)");
      await h.shot(page, "landing-history");
      await page.locator("#history-landing .event-link").nth(3).click();
      await page.waitForFunction(() => {
        const tip = document.querySelector("#chart .tooltip");
        return tip && !tip.hidden && tip.dataset.point === "4";
      });
      assertEqual(await page.locator("#series-list").inputValue(), stepped.id, "the series of the link");
      assert(await inView(page.locator("#chart svg")), "the chart is not in view");
      // Each row of the points table links its point.
      assertEqual(await page.locator("#points-table tbody tr").first().locator("a.permalink").getAttribute("href"),
        `#series=${stepped.id}&point=${doc.commits[stepped.points.commit.at(-1)].sha}`, "the newest point's permalink");
      assertClean(seen);
    },
  },
  {
    name: "landing: nothing changed is said in words, and the changed cards' filter says so",
    async run(h) {
      const doc = partialStore();
      // Every record a PASS: no event, no card that changed.
      for (const cohort of doc.cohorts) {
        cohort.records.comparison_status = cohort.records.comparison_status.codes
          ? { codes: cohort.records.comparison_status.codes.map(() => 0), values: ["PASS"] }
          : cohort.records.comparison_status.map(() => "PASS");
        cohort.records.success = cohort.records.success.map(() => true);
      }
      const { page, seen } = await h.open(h.fileUrl(h.site("landing-quiet", null, { store: doc }), "#cards=changed"));
      assertEqual(await text(page, "#store-landing-count"),
        "The last 30 days up to the newest record (2026-11-30 10:00 UTC): no REGRESSION or INCONCLUSIVE record, no failed run and no change point.", "the quiet count line");
      assertEqual(await page.locator("#store-landing .landing-item").count(), 0, "event lines");
      await page.waitForFunction(() => document.getElementById("store-overview").dataset.complete === "1");
      assertEqual(await text(page, "#store-overview"), "Nothing changed in the last 30 days: choose all to see every chart.", "the empty changed filter");
      assertEqual((await text(page, "#store-cards-filter")).replace(/\s+/g, " "), "Show: changed (0) all (8)", "the filter's counts");
      assertClean(seen);
    },
  },
  {
    name: "landing: the store charts draw each record's spread, and commits link through commit_url",
    async run(h) {
      const doc = steppedStore();
      const stepped = doc.cohorts[0];
      const latency = stepped.metrics[0];
      assertEqual(latency.name, "latency", "the first metric");
      // Runs 0.5 ms either side of each mean, the median 0.1 ms under it; record 3 without samples.
      latency.spread = {
        min: latency.values.map((v, k) => (k === 3 ? null : v - 0.5)),
        median: latency.values.map((v, k) => (k === 3 ? null : v - 0.1)),
        max: latency.values.map((v, k) => (k === 3 ? null : v + 0.5)),
      };
      doc.commit_url = "https://git.example.test/perf/commit/{sha}";
      const { page, seen } = await h.open(h.fileUrl(h.site("landing-spread", null, { store: doc }), "#view=cohort"));
      const chart = page.locator("#cohort-charts svg.store-chart").nth(0);
      assertEqual(await chart.locator("path.store-band").getAttribute("data-count"), "19", "records in the band");
      assertEqual(await chart.locator("path.store-median").count(), 1, "the median line");
      assertEqual(await page.locator("#cohort-charts svg.store-chart").nth(1).locator("path.store-band").count(), 0, "a band on memory, which has no spread");
      // The axis spans the runs: from below the lowest min to above the highest max.
      const domain = await chart.evaluate((svg) => [Number(svg.dataset.vLo), Number(svg.dataset.vHi)]);
      assert(domain[0] <= 19.8 - 0.5 && domain[1] >= 23.2 + 0.5, `the axis ${domain} does not hold the band 19.3–23.7`);
      assert((await text(page, "#cohort-legend")).includes("band: each record's fastest to slowest run; dashed: the median of its runs"), "the legend's band item");
      // The tooltip says the runs: record 19's mean is 22.9 ms.
      await page.locator("#cohort-charts svg.store-chart").nth(0).focus();
      await page.waitForFunction(() => !document.querySelector("#cohort-charts .metric-chart .tooltip").hidden);
      assertEqual((await text(page, "#cohort-charts .metric-chart >> nth=0 >> .tooltip")).split("\n").slice(0, 2).join(" / "),
        "latency 22.9 ms / runs: 22.4 ms to 23.4 ms, median 22.8 ms", "the tooltip's value and runs");
      const link = page.locator("#records-table tbody tr").first().locator("a.commit-link");
      const commit = stepped.records.commit[19];
      assertEqual(await link.getAttribute("href"), `https://git.example.test/perf/commit/${commit}`, "the commit's link");
      assertEqual(await link.innerText(), commit.slice(0, 10), "the link's text");
      await h.shot(page, "store-spread", "#cohort-charts .metric-block:first-child");
      assertClean(seen);
      // Only http(s) templates become links; a damaged spread is refused with its place.
      doc.commit_url = "javascript:alert(1)//{sha}";
      const unsafe = await h.open(h.fileUrl(h.site("landing-unsafe-url", null, { store: doc }), "#view=cohort"));
      assertEqual(await unsafe.page.locator("#records-table a.commit-link").count(), 0, "links from a javascript: template");
      assertClean(unsafe.seen);
      latency.spread.min[5] = latency.spread.max[5] + 1;
      const damaged = await h.open(h.fileUrl(h.site("landing-bad-spread", null, { store: doc }), "#view=cohort"));
      const message = await text(damaged.page, "#message-store");
      assert(message.includes("cohorts[0].metrics[0].spread at record 5 is not ordered"), `the message: ${message}`);
      assertClean(damaged.seen);
    },
  },
];
