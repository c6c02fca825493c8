// A large store's site with each cohort's details apart (data/cohorts/N.js, docs/store-json.md
// "Details apart"): the page shows exactly what the whole document shows, loading a cohort's
// details when the cohort is opened; a missing, foreign or damaged details file is said in
// that cohort, and the rest of the page works.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assert, assertClean, assertEqual } from "./harness.mjs";
import { partialStore, steppedStore } from "./fixtures.mjs";

async function text(page, selector) {
  return page.locator(selector).innerText();
}

// The cohort section once drawn: its details loaded where they are apart.
async function cohortText(page) {
  await page.waitForFunction(() => !document.getElementById("cohort-loading"), null, { timeout: 10000 })
    .catch(() => { throw new Error("the cohort's details did not load"); });
  return text(page, "#cohort-section");
}

const FIX = " Write the site again with perfgate report --format html.";

export const storeApartTests = [
  {
    name: "store: a site with each cohort's details apart shows what the whole document shows",
    async run(h) {
      for (const [name, doc] of [["stepped", steppedStore()], ["partial", partialStore()]]) {
        const whole = h.site(`store-whole-${name}`, null, { store: doc });
        const apart = h.site(`store-apart-${name}`, null, { store: doc, storeApart: true });
        assert(readFileSync(join(apart, "data", "cohorts", "1.js"), "utf8").startsWith("window.PERFGATE_COHORT_1 = "), "no details apart");
        assert(!readFileSync(join(apart, "data", "store.js"), "utf8").includes('"attempt"'), "store.js still has the attempts");

        // The first screen: what changed (with commits and links) and every card.
        const first = await h.open(h.fileUrl(whole));
        const second = await h.open(h.fileUrl(apart));
        assertEqual(await text(second.page, "#store-landing"), await text(first.page, "#store-landing"), `${name}: what changed`);
        assertEqual(await text(second.page, "#store-overview"), await text(first.page, "#store-overview"), `${name}: the cards`);
        const links = await first.page.locator("#store-landing a.event-link").evaluateAll((all) => all.map((a) => a.getAttribute("href")));
        const apartLinks = await second.page.locator("#store-landing a.event-link").evaluateAll((all) => all.map((a) => a.getAttribute("href")));
        assertEqual(JSON.stringify(apartLinks), JSON.stringify(links), `${name}: the events' links`);
        // No cohort's details are loaded before one is opened.
        assertEqual(await second.page.locator('script[src^="data/cohorts/"]').count(), 0, `${name}: details loaded at first`);
        // A card opens its cohort, the details loaded then.
        await second.page.locator("#store-overview .card").first().click();
        await first.page.locator("#store-overview .card").first().click();
        assertEqual(await cohortText(second.page), await cohortText(first.page), `${name}: the cohort a card opens`);
        assertEqual(await second.page.locator('script[src^="data/cohorts/"]').count(), 1, `${name}: details loaded after a card`);
        assertClean(first.seen);
        assertClean(second.seen);

        // Every cohort, as a link opens it: title, identity, legend, change lists, charts with
        // their bands, and the records table with commits, branches and attempts.
        for (const cohort of doc.cohorts) {
          const hash = "#view=cohort&cohort=" + encodeURIComponent(cohort.id);
          const a = await h.open(h.fileUrl(whole, hash));
          const b = await h.open(h.fileUrl(apart, hash));
          assertEqual(await cohortText(b.page), await cohortText(a.page), `${name}: ${cohort.label}`);
          assertEqual(await b.page.locator("#cohort-charts path.store-band").count(), await a.page.locator("#cohort-charts path.store-band").count(), `${name}: ${cohort.label}: bands`);
          const svg = b.page.locator("#cohort-charts svg.store-chart");
          if (await svg.count()) {
            for (const page of [a.page, b.page]) {
              const chart = page.locator("#cohort-charts svg.store-chart").first();
              await chart.scrollIntoViewIfNeeded();
              const box = await chart.boundingBox();
              await page.mouse.move(box.x + box.width - 60, box.y + box.height / 2);
              await page.waitForFunction(() => !document.querySelector("#cohort-charts .tooltip").hidden, null, { timeout: 10000 })
                .catch(() => { throw new Error(`${name}: ${cohort.label}: no tooltip on hover`); });
            }
            assertEqual(await text(b.page, "#cohort-charts .tooltip >> nth=0"), await text(a.page, "#cohort-charts .tooltip >> nth=0"), `${name}: ${cohort.label}: a tooltip`);
          }
          assertClean(a.seen);
          assertClean(b.seen);
        }

        // Each event's permalink opens its point with the tooltip shown, as in the whole page.
        for (const link of links.slice(0, 4)) {
          const a = await h.open(h.fileUrl(whole, link));
          const b = await h.open(h.fileUrl(apart, link));
          assertEqual(await cohortText(b.page), await cohortText(a.page), `${name}: ${link}`);
          assertEqual(await b.page.locator("#cohort-charts .tooltip:not([hidden])").count(), 1, `${name}: ${link}: the point's tooltip`);
          assertEqual(await text(b.page, "#cohort-charts .tooltip:not([hidden])"), await text(a.page, "#cohort-charts .tooltip:not([hidden])"), `${name}: ${link}: tooltip`);
        }
      }
    },
  },
  {
    name: "store: a missing, foreign or damaged details file is said in its cohort; the rest of the page works",
    async run(h) {
      const doc = partialStore();
      const dir = h.site("store-apart-broken", null, { store: doc, storeApart: true });
      const cohorts = join(dir, "data", "cohorts");
      const keep = readFileSync(join(cohorts, "1.js"), "utf8");
      const first = doc.cohorts[0].id;
      // The details with one entry fewer in the eligible column (inside the script's string).
      const shortened = (script) => {
        const out = script.replace('\\"eligible\\":[true,', '\\"eligible\\":[');
        assert(out !== script, "no eligible column to shorten");
        return out;
      };
      const cases = [
        ["missing", () => rmSync(join(cohorts, "1.js")),
          "data/cohorts/1.js cannot be read. data/cohorts/1.js is missing or could not be loaded; data/store.js names it for the cohort " + first + "." + FIX],
        ["sets nothing", () => writeFileSync(join(cohorts, "1.js"), "// nothing\n"),
          "data/cohorts/1.js cannot be read. data/cohorts/1.js was loaded but did not set window.PERFGATE_COHORT_1; data/store.js names it for the cohort " + first + "." + FIX],
        ["not JSON", () => writeFileSync(join(cohorts, "1.js"), 'window.PERFGATE_COHORT_1 = "{";\n'), "data/cohorts/1.js is not valid JSON. "],
        ["another cohort's", () => writeFileSync(join(cohorts, "1.js"), readFileSync(join(cohorts, "2.js"), "utf8").replace("PERFGATE_COHORT_2", "PERFGATE_COHORT_1")),
          "data/cohorts/1.js cannot be read: it is not this cohort's details. It holds the details of the cohort " + doc.cohorts[1].id + ", not of " + first + ": the site's files were mixed." + FIX],
        ["a short column", () => writeFileSync(join(cohorts, "1.js"), shortened(keep)),
          "data/cohorts/1.js cannot be read: it is not this cohort's details. records.eligible does not have one entry per record." + FIX],
      ];
      for (const [what, damage, expected] of cases) {
        writeFileSync(join(cohorts, "1.js"), keep);
        damage();
        const { page, seen } = await h.open(h.fileUrl(dir, "#view=cohort&cohort=" + encodeURIComponent(first)));
        const said = await text(page, "#cohort-details-error");
        assert(said.startsWith(expected), `${what}: said ${JSON.stringify(said)}, expected ${JSON.stringify(expected)}`);
        assertEqual(await page.locator("#cohort-charts svg").count(), 0, `${what}: charts drawn`);
        // The rest works: the cohort's title, what changed, and another cohort.
        assertEqual(await text(page, "#cohort-title .cohort-label"), doc.cohorts[0].label, `${what}: title`);
        assert((await page.locator("#store-landing li").count()) > 0, `${what}: what changed`);
        await page.locator("#cohort-table button.cohort-pick").nth(1).click();
        await page.waitForFunction(() => !document.getElementById("cohort-loading") && document.querySelector("#cohort-charts svg.store-chart"));
        assertEqual(await page.locator("#cohort-details-error").count(), 0, `${what}: the error stays on another cohort`);
        // The browser logs the failed load of a missing file; nothing else.
        if (what === "missing") {
          assertEqual(seen.consoleErrors.length, 1, "console errors");
          assert(seen.consoleErrors[0].includes("cohorts/1.js"), `console error: ${seen.consoleErrors[0]}`);
          seen.consoleErrors = [];
        }
        assertClean(seen);
      }
    },
  },
];
