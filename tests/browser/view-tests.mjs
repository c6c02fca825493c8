// The viewer's behaviour on small histories: each test builds its history, opens the viewer
// from disk (or from a local server) and checks what a person would see.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { assert, assertClean, assertEqual, hoverCommit, waitReady } from "./harness.mjs";
import { CHANGE_P_VALUE, HOSTILE, changedHistory, emptyHistory, hostileHistory, noSeriesHistory, onePointHistory, partialHistory } from "./fixtures.mjs";

function findSeries(doc, caseName, metric, cpuPart = "Xeon") {
  return doc.series.find((s) => s.case === caseName && s.metric === metric && String(s.environment.cpu).includes(cpuPart));
}

async function text(page, selector) {
  return page.locator(selector).innerText();
}

// The overview draws its cards in small tasks; counts are read once all are drawn.
async function overviewCards(page, selector = "#overview .card") {
  await page.waitForFunction(() => document.getElementById("overview").dataset.complete === "1");
  return page.locator(selector);
}

async function hashParams(page) {
  return Object.fromEntries(new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)));
}

export const viewTests = [
  {
    name: "empty history: says nothing is measured yet",
    async run(h) {
      const { page, seen } = await h.open(h.fileUrl(h.site("empty", emptyHistory())));
      assert(await page.locator("#empty-history").isVisible(), "the empty-history note is not shown");
      assert((await text(page, "#empty-history")).includes("no monitored commits"), "the note does not say there are no commits");
      assert(await page.locator("#chooser-section").isHidden(), "the series chooser is shown for an empty history");
      assert((await text(page, "#coverage")).includes("0 monitored commits"), "coverage does not say 0 monitored commits");
      await h.shot(page, "empty-history");
      assertClean(seen);
    },
  },
  {
    name: "no successful measurement: every commit listed with its status",
    async run(h) {
      const { page, seen } = await h.open(h.fileUrl(h.site("noseries", noSeriesHistory())));
      assert(await page.locator("#no-series-note").isVisible(), "no note that there is no series");
      const rows = await page.locator("#no-series tbody tr").allInnerTexts();
      assertEqual(rows.length, 3, "commits listed");
      assert(rows[0].includes("build 2 failed") && rows[1].includes("missing") && rows[2].includes("build 0 failed"), `rows: ${rows}`);
      assertClean(seen);
    },
  },
  {
    name: "one point: drawn as one point, says there is no trend",
    async run(h) {
      const { page, seen } = await h.open(h.fileUrl(h.site("one", onePointHistory())));
      assert(await page.locator("#no-trend").isVisible(), "no 'no trend' note");
      assertEqual(await page.locator("#chart circle.point").count(), 1, "points drawn");
      assertEqual(await page.locator("#chart path.line").count(), 0, "trend lines drawn");
      const tip = await hoverCommit(page, 0);
      // Shown to 15 significant digits: the value, without the binary noise.
      assert(tip.includes("median 10.1 ms"), `tooltip lacks the value: ${tip}`);
      await h.shot(page, "one-point");
      assertClean(seen);
    },
  },
  {
    name: "partial history: failed and missing commits are markers and rows, never zeros",
    async run(h) {
      const doc = partialHistory();
      const { page, seen } = await h.open(h.fileUrl(h.site("partial", doc)));
      const latency = findSeries(doc, "sort[n=1000]", "latency");
      assertEqual(await page.locator("#series-list").inputValue(), doc.series[0].id, "default selection (first series)");
      await page.selectOption("#series-list", latency.id);
      assertEqual(await page.locator("#chart circle.point").count(), 7, "points drawn (only measured commits)");
      assertEqual(await page.locator("#chart .marker-failed").getAttribute("data-count"), "2", "failed markers");
      assertEqual(await page.locator("#chart .marker-missing").getAttribute("data-count"), "2", "missing markers");
      assertEqual(await page.locator("#chart .flags").getAttribute("data-count"), "1", "flagged points");
      // No zero is drawn: every y tick lies within the measured values' neighbourhood.
      const ticks = await page.locator("#chart .y-axis text").allTextContents();
      assert(ticks.every((t) => Number(t) > 5), `a y tick near zero suggests a fabricated value: ${ticks}`);
      const gaps = await page.locator("#gaps-table tbody tr").allInnerTexts();
      assertEqual(gaps.length, 5, "rows of commits without a point (2 failed, 2 missing, 1 other setup)");
      assertEqual(await page.locator("#points-table tbody tr").count(), 7, "rows of points");
      assert(gaps.some((row) => row.includes("#9") && row.includes("another setup") && row.includes("AMD EPYC 7763")), "the commit measured on another machine is not explained");
      const flagged = await text(page, "#points-table tr.flagged");
      assert(flagged.includes("+28.7%"), `flag row lacks its change: ${flagged}`);
      await h.shot(page, "partial-detail");
      await h.shot(page, "partial-chart", "#detail-section");
      await overviewCards(page);
      await h.shot(page, "partial-overview", "#overview-section");
      assertClean(seen);
    },
  },
  {
    name: "links: commits link to their page, every attempt has a permalink, a failed one links its raw output",
    async run(h) {
      const doc = partialHistory();
      doc.commit_url = "https://example.invalid/repo/commit/{sha}";
      doc.raw_url = "./archive/";
      doc.commits.forEach((commit) => { commit.url = "https://example.invalid/repo/commit/" + commit.sha; });
      // A hostile URL is never a link.
      doc.commits[4].url = "javascript:alert(1)";
      const superseded = doc.attempts.find((a) => a.superseded && a.status === "success");
      const failed = doc.attempts.find((a) => a.status === "failure");
      assert(superseded && failed, "the fixture has a superseded and a failed attempt");
      const { page, seen } = await h.open(h.fileUrl(h.site("links", doc), `#attempt=${encodeURIComponent(failed.id)}`));
      assertEqual(await page.locator("#attempt-section").isHidden(), false, "the attempt section is shown");
      const details = await text(page, "#attempt");
      assert(details.includes(failed.id) && details.includes("failure"), `details: ${details}`);
      assert(details.includes(failed.errors[0].message), `the errors: ${details}`);
      const raw = page.locator("#attempt a.raw-link");
      assertEqual(await raw.getAttribute("href"), "./archive/" + failed.raw_path, "raw output link");
      const commitIndex = doc.commits.findIndex((c) => c.sha === failed.sha);
      const commitLink = page.locator("#attempt a.commit-link");
      if (commitIndex === 4) {
        assertEqual(await commitLink.count(), 0, "a javascript: URL became a link");
      } else {
        assertEqual(await commitLink.getAttribute("href"), "https://example.invalid/repo/commit/" + failed.sha, "commit link");
      }
      // The failed-attempts table links each attempt to its permalink.
      const links = await page.locator("#failed-table a.attempt-link").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
      assert(links.includes("#attempt=" + encodeURIComponent(failed.id)), `permalinks: ${links}`);
      // A superseded attempt's permalink, followed from the address bar.
      await page.evaluate((id) => { location.hash = "attempt=" + encodeURIComponent(id); }, superseded.id);
      await page.waitForFunction((id) => (document.querySelector("#attempt .attempt-details") || {}).dataset?.attempt === id, superseded.id);
      assert((await text(page, "#attempt")).includes("superseded by a newer attempt"), "superseded said");
      // No javascript: link anywhere, and the points table's commits are links.
      assertEqual(await page.locator('a[href^="javascript:"]').count(), 0, "javascript: links");
      assert(await page.locator("#points-table a.commit-link").count() > 0, "points table commit links");
      await page.evaluate(() => { location.hash = "attempt=nope"; });
      await page.waitForFunction(() => (document.querySelector("#attempt") || {}).textContent?.includes("No attempt nope"));
      await h.shot(page, "attempt-permalink", "#attempt-section");
      assertClean(seen);
    },
  },
  {
    name: "machines: each commit's state is its state on the series' machine, and the summary lists each machine",
    async run(h) {
      // The export as a perfgate with environments writes it: the Xeon is "main", the EPYC
      // "bench-02", and each commit says its newest winner on each machine.
      const doc = partialHistory();
      const machine = (env) => (env && env.cpu === "AMD EPYC 7763" ? "bench-02" : "main");
      doc.attempts.forEach((a) => { a.environment = { ...a.environment, id: machine(a.environment) }; });
      doc.series.forEach((s) => { s.environment = { ...s.environment, id: machine(s.environment) }; });
      const byId = new Map(doc.attempts.map((a) => [a.id, a]));
      doc.commits.forEach((commit) => {
        commit.environments = {};
        commit.attempts.forEach((id) => {
          const a = byId.get(id);
          commit.environments[a.environment.id] = { attempt: id, status: a.status === "success" ? "measured" : "failed" };
        });
      });
      doc.environments = [
        { id: "bench-02", coverage: { measured: 1, failed: 0, missing: 11 }, current: "missing" },
        { id: "main", coverage: { measured: 7, failed: 2, missing: 3 }, current: "missing" },
      ];
      const latency = findSeries(doc, "sort[n=1000]", "latency");
      assertEqual(latency.environment.id, "main", "the main series");
      const { page, seen } = await h.open(h.fileUrl(h.site("machines", doc), `#series=${latency.id}`));
      const machines = await page.locator("#coverage ul.environments li").allInnerTexts();
      assertEqual(JSON.stringify(machines), JSON.stringify([
        "on bench-02: 1 measured, 0 failed, 11 missing · current missing",
        "on main: 7 measured, 2 failed, 3 missing · current missing",
      ]), "machines in the summary");
      // Commit #9 was measured on bench-02 only: on main it is missing, and says where it was.
      assertEqual(await page.locator("#chart .marker-missing").getAttribute("data-count"), "3", "missing markers on main");
      const gaps = await page.locator("#gaps-table tbody tr").allInnerTexts();
      const nine = gaps.find((row) => row.includes("#9")) || "";
      assert(nine.includes("missing: no valid attempt measured this commit on main") && nine.includes("measured on other machines: bench-02"), `commit #9: ${nine}`);
      await h.shot(page, "machines", "#detail-section");
      assertClean(seen);
    },
  },
  {
    name: "flag confirmation: confirmed flags outlined, unconfirmed hollow, each said in the tooltip and table",
    async run(h) {
      for (const state of ["confirmed", "unconfirmed"]) {
        const doc = partialHistory();
        const latency = findSeries(doc, "sort[n=1000]", "latency");
        const flag = doc.flags.find((f) => f.series === latency.id);
        flag.confirmation = state;
        flag.earlier = { median: flag.median, previous_median: flag.previous_median, change_percent: 31.5 };
        const { page, seen } = await h.open(h.fileUrl(h.site("confirm-" + state, doc), `#series=${latency.id}`));
        assertEqual(await page.locator(`#chart .flags-${state}`).getAttribute("data-count"), "1", `${state} flags`);
        assertEqual(await page.locator(`#chart .flags:not(.flags-${state})`).count(), 0, "flags drawn as not re-measured");
        const tip = await hoverCommit(page, 6);
        assert(tip.includes(state + ":") && tip.includes("(first measured +31.5%)"), `tooltip: ${tip}`);
        const row = await text(page, "#points-table tr.flagged");
        assert(row.includes("+28.7% " + state), `flag row: ${row}`);
        assert((await text(page, "#legend")).includes(state === "confirmed" ? "flag confirmed by a re-measurement" : "flag a re-measurement did not raise"), "legend");
        await h.shot(page, "flag-" + state, "#detail-section");
        assertClean(seen);
      }
    },
  },
  {
    name: "flag confirmation round by round: the tooltip says what the paired runs showed",
    async run(h) {
      const doc = partialHistory();
      const latency = findSeries(doc, "sort[n=1000]", "latency");
      const flag = doc.flags.find((f) => f.series === latency.id);
      flag.confirmation = "confirmed";
      flag.paired = { change_percent: 40.13, lower_percent: 32.73, rises: true, rounds: 15 };
      flag.earlier = {
        median: flag.median, previous_median: flag.previous_median, change_percent: 31.5,
        paired: { change_percent: 40.57, lower_percent: 38.77, rises: true, rounds: 15 },
      };
      let opened = await h.open(h.fileUrl(h.site("confirm-paired", doc), `#series=${latency.id}`));
      let tip = await hoverCommit(opened.page, 6);
      assert(tip.includes("confirmed: measured again together, its runs were +40.1% over the previous commit's round by round (at least +32.7%, 15 rounds) (first measured +31.5%, +40.6% round by round)"), `tooltip: ${tip}`);
      assertClean(opened.seen);
      // Unconfirmed: the re-measurement's rounds were not surely above the limits.
      flag.confirmation = "unconfirmed";
      flag.paired = { change_percent: 12.0, lower_percent: 3.5, rises: false, rounds: 15 };
      opened = await h.open(h.fileUrl(h.site("unconfirm-paired", doc), `#series=${latency.id}`));
      tip = await hoverCommit(opened.page, 6);
      assert(tip.includes("unconfirmed: measured again together, its runs were +12.0% over the previous commit's round by round (at least +3.5%, 15 rounds): not surely above the flag's limits"), `tooltip: ${tip}`);
      assertClean(opened.seen);
      // A file written by hand with less: what is there is said, and nothing breaks.
      flag.paired = { change_percent: 12.0 };
      flag.earlier.paired = { rounds: 15 };
      opened = await h.open(h.fileUrl(h.site("partial-paired", doc), `#series=${latency.id}`));
      tip = await hoverCommit(opened.page, 6);
      assert(tip.includes("unconfirmed: measured again together, its runs were +12.0% over the previous commit's round by round: not surely above the flag's limits (first measured +31.5%)"), `tooltip: ${tip}`);
      assertClean(opened.seen);
    },
  },
  {
    name: "each change point and flag of the series has the command that bisects it",
    async run(h) {
      const doc = changedHistory();
      const latency = findSeries(doc, "sort[n=1000]", "latency");
      const sha = doc.commits[6].sha.slice(0, 12);
      const { page, seen } = await h.open(h.fileUrl(h.site("history-bisect-hints", doc)));
      const items = await page.locator("#bisect-hints li").allTextContents();
      assertEqual(items.length, 2, `one change and one flag: ${JSON.stringify(items)}`);
      assertEqual(items[0], `Change 1 at ${sha} (+29.5% worse): perfgate history bisect --from history.json --series ${latency.id} --change 1`, "the change's hint");
      assert(items[1].startsWith(`Flag at ${sha} (`), `the flag's hint: ${items[1]}`);
      assert(items[1].endsWith(`: perfgate history bisect --from history.json --series ${latency.id} --flag ${sha}`), `the flag's command: ${items[1]}`);
      assertEqual(await page.locator("#bisect-hints code").count(), 2, "each command is code");
      // A series with neither has no hints at all.
      const quiet = changedHistory();
      quiet.series.forEach((s) => { s.changes = []; });
      quiet.flags = [];
      const second = await h.open(h.fileUrl(h.site("history-bisect-hints-none", quiet)));
      assertEqual(await second.page.locator("#bisect-hints").isHidden(), true, "no hints without changes or flags");
      assertClean(seen);
      assertClean(second.seen);
    },
  },
  {
    name: "change points are dashed markers at their point's commit, in both modes",
    async run(h) {
      const doc = changedHistory();
      const latency = findSeries(doc, "sort[n=1000]", "latency");
      assertEqual(doc.series[0].id, latency.id, "the stepped series is the default one");
      const change = latency.changes[0];
      assertEqual(latency.points.commit[change.index], 6, "the change's commit (point 4 is on commit #6)");
      const commit = doc.commits[6];
      const expectedTitle = `change at ${commit.sha.slice(0, 10)} (#6, 2026-01-05 15:00 UTC): ` +
        `10.06 ms → 13.03 ms (+29.5%, worse), p = ${CHANGE_P_VALUE}`;
      const { page, seen } = await h.open(h.fileUrl(h.site("history-changes", doc)));
      // Where the marker is, against the point it starts at and the chart's own scale.
      const geometry = async () => page.locator("#chart svg").evaluate((svg) => {
        const d = svg.dataset;
        const line = svg.querySelector(".change-marker .change-line");
        const flags = svg.querySelector(".flags").getAttribute("d");
        return {
          fromScale: Number(d.xLo) + ((6 - Number(d.commitLo)) * (Number(d.xHi) - Number(d.xLo))) / (Number(d.commitHi) - Number(d.commitLo)),
          pointX: Number(svg.querySelectorAll("circle.point")[4].getAttribute("cx")),
          flagX: Number(/^M([-\d.]+),/.exec(flags)[1]),
          x1: Number(line.getAttribute("x1")),
          x2: Number(line.getAttribute("x2")),
          y1: Number(line.getAttribute("y1")),
          y2: Number(line.getAttribute("y2")),
          top: Number(svg.querySelector(".cursor-line").getAttribute("y1")),
          bottom: Number(svg.querySelector(".x-axis .baseline").getAttribute("y1")),
          dashed: getComputedStyle(line).strokeDasharray,
          stroke: getComputedStyle(line).stroke,
        };
      });
      const check = async (mode) => {
        assertEqual(await page.locator("#chart .change-marker").count(), 1, `${mode}: markers`);
        const marker = page.locator("#chart .change-marker.worse");
        assertEqual(await marker.count(), 1, `${mode}: worse markers`);
        assertEqual(await marker.getAttribute("data-index"), "4", `${mode}: the marker's point`);
        const g = await geometry();
        assert(Math.abs(g.x1 - g.fromScale) <= 0.06 && g.x2 === g.x1, `${mode}: marker at x ${g.x1}, commit #6 at ${g.fromScale}`);
        assert(Math.abs(g.x1 - g.pointX) <= 0.06, `${mode}: marker at x ${g.x1}, point 4 at ${g.pointX}`);
        // The regression flag is another rule: it stays, on the same point here.
        assert(Math.abs(g.x1 - g.flagX) <= 0.5, `${mode}: marker at x ${g.x1}, the flag of point 4 at ${g.flagX}`);
        assertEqual(g.y1, g.top, `${mode}: the marker's top (the plot's)`);
        assertEqual(g.y2, g.bottom, `${mode}: the marker's bottom (the plot's)`);
        assert(g.dashed !== "none" && g.dashed !== "", `${mode}: the marker line is not dashed: ${g.dashed}`);
        assertEqual(g.stroke, "rgb(196, 35, 28)", `${mode}: the worse marker's colour (the regression red)`);
        // In ratio mode too the change is told in the series' unit: its means are absolute.
        assertEqual(await marker.locator("title").textContent(), expectedTitle, `${mode}: the marker's title`);
        assertEqual(await marker.locator(".change-label").textContent(), "+29.5% worse", `${mode}: the marker's label`);
        assertEqual(await page.locator("#chart .flags").getAttribute("data-count"), "1", `${mode}: flagged points`);
        assert((await text(page, "#legend")).includes("dashed line: a change point (docs/changes.md)"), `${mode}: the legend does not explain the marker`);
      };
      await check("absolute");
      // The marker is what the pointer meets there (so its title shows), and the point's
      // tooltip still follows the pointer across it.
      const tip = await hoverCommit(page, 6);
      assert(tip.startsWith("median 13 ms") && tip.includes("(#6)"), `tooltip of the point at the marker: ${tip}`);
      const under = await page.evaluate(() => {
        const line = document.querySelector("#chart .change-marker .change-hit");
        const box = line.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height * 0.6);
        return hit && hit.closest(".change-marker") ? "marker" : hit && hit.getAttribute("class");
      });
      assertEqual(under, "marker", "the element under the pointer at the marker");
      await page.mouse.move(0, 0);
      await h.shot(page, "history-change-marker", "#chart");
      await page.check("#mode-ratio");
      assertEqual(await page.locator("#chart .ref-line").count(), 1, "the 1x line of ratio mode");
      await check("ratio");
      assert((await hoverCommit(page, 6)).startsWith("1.3×"), "the point at the marker in ratio mode");
      await page.mouse.move(0, 0);
      await h.shot(page, "history-change-marker-ratio", "#chart");
      assertClean(seen);

      // The unit is data: shown in the title as text.
      const hostile = changedHistory();
      hostile.series[0].unit = HOSTILE;
      const second = await h.open(h.fileUrl(h.site("history-changes-hostile", hostile)));
      assertEqual(await second.page.locator("#chart .change-marker title").textContent(),
        expectedTitle.replaceAll(" ms", ` ${HOSTILE}`), "title with a hostile unit");
      await second.page.waitForTimeout(300); // time for an injected onerror or onload to fire
      assertEqual(await second.page.evaluate(() => document.querySelectorAll("img,[onerror],[onload]").length), 0, "injected elements");
      assertClean(second.seen);
    },
  },
  {
    name: "no change points: no marker and no legend item",
    async run(h) {
      // A document without the key (written before it existed) ...
      const { page, seen } = await h.open(h.fileUrl(h.site("history-no-changes", partialHistory())));
      assertEqual(await page.locator("#chart circle.point").count(), 7, "points drawn");
      assertEqual(await page.locator("#chart .change-marker").count(), 0, "markers without changes");
      assert(!(await text(page, "#legend")).includes("change point"), "the legend explains change points the chart does not draw");
      assertClean(seen);
      // ... and a series with "changes": [], chosen after one with a change.
      const doc = changedHistory();
      const memory = findSeries(doc, "sort[n=1000]", "memory");
      assertEqual(JSON.stringify(memory.changes), "[]", "the memory series' changes");
      const second = await h.open(h.fileUrl(h.site("history-empty-changes", doc)));
      assertEqual(await second.page.locator("#chart .change-marker").count(), 1, "markers on the stepped series");
      await second.page.selectOption("#series-list", memory.id);
      assertEqual(await second.page.locator("#chart .change-marker").count(), 0, "markers on a series with changes: []");
      assert(!(await text(second.page, "#legend")).includes("change point"), "the legend still explains change points");
      assertClean(second.seen);
    },
  },
  {
    name: "damaged change points are refused, naming the series and the field",
    async run(h) {
      const damage = (change) => {
        const doc = changedHistory();
        change(doc.series[0], doc.series[2]);
        return doc;
      };
      const first = (latency) => latency.changes[0];
      const ids = changedHistory().series.map((s) => s.id);
      const at = (i) => `series[${i}] (${ids[i]}): `;
      for (const [name, doc, expected] of [
        ["changes-range", damage((l) => { first(l).index = 7; }),
          `${at(0)}changes[0].index is 7, not the index of a point after the first (a whole number from 1 to 6).`],
        ["changes-zero", damage((l) => { first(l).index = 0; }), `${at(0)}changes[0].index is 0, not the index of a point after the first`],
        ["changes-fraction", damage((l) => { first(l).index = 4.5; }), `${at(0)}changes[0].index is 4.5, not the index`],
        ["changes-text-index", damage((l) => { first(l).index = "4"; }), `${at(0)}changes[0].index is "4", not the index`],
        ["changes-missing-index", damage((l) => { delete first(l).index; }), `${at(0)}changes[0].index is missing, not the index`],
        ["changes-object", damage((l) => { l.changes = first(l); }), `${at(0)}changes is not an array.`],
        ["changes-null", damage((l) => { l.changes = null; }), `${at(0)}changes is not an array.`],
        ["changes-entry", damage((l, m) => { m.changes = [14]; }), `${at(2)}changes[0] is not an object.`],
        ["changes-before", damage((l) => { delete first(l).before; }), `${at(0)}changes[0].before is missing, not a finite number.`],
        ["changes-after", damage((l) => { first(l).after = "13"; }), `${at(0)}changes[0].after is "13", not a finite number.`],
        ["changes-relative", damage((l) => { first(l).relative_change = "15%"; }), `${at(0)}changes[0].relative_change is "15%", not a finite number.`],
        ["changes-worse", damage((l) => { first(l).worse = 1; }), `${at(0)}changes[0].worse is 1, not true or false.`],
        ["changes-p-high", damage((l) => { first(l).p_value = 1.5; }), `${at(0)}changes[0].p_value is 1.5, not a number from 0 to 1.`],
        ["changes-p-text", damage((l) => { first(l).p_value = "0.001"; }), `${at(0)}changes[0].p_value is "0.001", not a number from 0 to 1.`],
      ]) {
        const { page, seen } = await h.open(h.fileUrl(h.site(`history-${name}`, doc)));
        const message = await text(page, "#message-history");
        assert(message.startsWith("This history.json cannot be read"), `${name}: message: ${message}`);
        assert(message.includes(expected), `${name}: the message lacks ${expected}: ${message}`);
        assert(await page.locator("#app").isHidden(), `${name}: the history views are shown`);
        if (name === "changes-range") await h.shot(page, "history-bad-changes");
        assertClean(seen);
      }
    },
  },
  {
    name: "filters keep the user's selection",
    async run(h) {
      const doc = partialHistory();
      const { page, seen } = await h.open(h.fileUrl(h.site("filters", doc)));
      const cpu = findSeries(doc, "sort[n=1000]", "cpu_time");
      await page.selectOption("#series-list", cpu.id);
      await page.fill("#filter-text", "100000");
      assertEqual(await page.locator("#series-list").inputValue(), cpu.id, "selection after a text filter that hides it");
      assert((await text(page, "#series-count")).includes("hidden by the filter"), "no note that the selection is hidden");
      assertEqual(await (await overviewCards(page)).count(), 2, "overview cards for 'sort[n=100000]'");
      assert((await text(page, "#detail-title")).includes("cpu_time"), "the chart no longer shows the chosen series");
      await page.fill("#filter-text", "");
      await page.selectOption("#filter-label", "diagnostic");
      assertEqual(await page.locator("#series-list").inputValue(), cpu.id, "selection after a label filter");
      assertEqual(await (await overviewCards(page)).count(), 4, "diagnostic series in the overview");
      await page.selectOption("#filter-label", "all");
      assertEqual(await page.locator("#series-list").inputValue(), cpu.id, "selection after clearing the filters");
      assertEqual(await page.locator("#series-list option.hidden-by-filter").count(), 0, "a stale 'hidden by filter' entry");
      assertEqual(await (await overviewCards(page, "#overview .card[aria-pressed=true]")).getAttribute("data-series"), cpu.id, "overview highlight");
      const memory = findSeries(doc, "sort[n=1000]", "memory");
      await page.locator(`#overview .card[data-series="${memory.id}"]`).click();
      assertEqual(await page.locator("#series-list").inputValue(), memory.id, "selection by an overview card");
      assertEqual((await hashParams(page)).series, memory.id, "series in the URL after an overview click");
      assertClean(seen);
    },
  },
  {
    name: "a failed attempt's errors are shown",
    async run(h) {
      const doc = partialHistory();
      const { page, seen } = await h.open(h.fileUrl(h.site("failed", doc)));
      const tip = await hoverCommit(page, 4, "markers");
      assert(tip.includes("failed") && tip.includes("build: cmake --build build exited with status 2"), `tooltip of the failed commit: ${tip}`);
      const newerFailure = await hoverCommit(page, 8, "markers");
      assert(newerFailure.includes("suite: benchmarks/sort: timed out after 600 s"), `tooltip of the commit whose newer attempt failed: ${newerFailure}`);
      assert(newerFailure.includes("1 earlier attempt is superseded"), "the superseded success is not mentioned");
      await h.shot(page, "failed-tooltip", "#chart");
      const failedRows = await page.locator("#failed-table tbody tr").allInnerTexts();
      assertEqual(failedRows.length, 3, "failed attempts listed");
      assert(failedRows.some((row) => row.includes("checkout: git checkout: reference is not a tree") && row.includes("yes, by a newer attempt")), "the superseded failure of commit 2 is missing");
      assertClean(seen);
    },
  },
  {
    name: "a missing commit is shown as missing, with its rejected file",
    async run(h) {
      const doc = partialHistory();
      const { page, seen } = await h.open(h.fileUrl(h.site("missing", doc)));
      const tip = await hoverCommit(page, 3, "markers");
      assert(tip.startsWith("missing") && tip.includes("no valid attempt"), `tooltip of a missing commit: ${tip}`);
      const current = await hoverCommit(page, 11, "markers");
      assert(current.includes("a time's median is zero"), `the rejected file of the current commit is not shown: ${current}`);
      assert((await text(page, "#facts")).includes("(missing)"), "the header does not say the current commit is missing");
      const rows = await page.locator("#gaps-table tr.gap-missing").allInnerTexts();
      assertEqual(rows.length, 2, "missing rows");
      assert((await text(page, "#rejected-table")).includes("the name is not an attempt identity"), "rejected files table");
      await h.shot(page, "missing-tooltip", "#chart");
      assertClean(seen);
    },
  },
  {
    name: "ratio mode: values over the reference, dashed 1x line",
    async run(h) {
      const doc = partialHistory();
      const latency = findSeries(doc, "sort[n=1000]", "latency");
      const { page, seen } = await h.open(h.fileUrl(h.site("ratio", doc), `#series=${latency.id}&mode=ratio`));
      assertEqual(await page.locator("#chart .ref-line").count(), 1, "dashed 1x lines");
      assertEqual(await page.locator("#chart .ref-line").getAttribute("class"), "ref-line", "reference line");
      const first = await hoverCommit(page, 0);
      assert(first.startsWith("1×"), `the first point is not 1x: ${first}`);
      const flagged = await hoverCommit(page, 6);
      assert(flagged.startsWith("1.3×"), `ratio of the flagged point: ${flagged}`);
      assert(flagged.includes("flagged"), "the flagged point's tooltip does not say so");
      await page.locator("#points-table tbody tr").first().locator("button.make-ref").click();
      assertEqual((await hashParams(page)).ref, doc.commits[10].sha, "reference chosen from the table");
      assert((await hoverCommit(page, 10)).startsWith("1×"), "the new reference is not 1x");
      await h.shot(page, "ratio-mode", "#detail-section");
      assertClean(seen);
    },
  },
  {
    name: "keyboard: focus and arrow keys describe points, Enter sets the reference",
    async run(h) {
      const doc = partialHistory();
      const latency = findSeries(doc, "sort[n=1000]", "latency");
      const { page, seen } = await h.open(h.fileUrl(h.site("keyboard", doc), `#series=${latency.id}`));
      const tooltip = page.locator("#chart .tooltip");
      await page.focus("#chart svg");
      assert((await tooltip.innerText()).includes("(#10)"), "focus does not describe the newest point");
      await page.keyboard.press("ArrowLeft");
      assert((await tooltip.innerText()).includes("(#7)"), "ArrowLeft does not move to the previous point");
      await page.keyboard.press("Home");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("Enter");
      const params = await hashParams(page);
      assertEqual(params.mode, "ratio", "mode after Enter");
      assertEqual(params.ref, doc.commits[2].sha, "reference after Enter");
      assert(await page.evaluate(() => document.activeElement === document.querySelector("#chart svg")), "the chart lost the focus");
      assert((await tooltip.innerText()).startsWith("1×"), "the new reference is not described as 1x");
      assertClean(seen);
    },
  },
  {
    name: "permalink: the whole view state survives a reload",
    async run(h) {
      const doc = partialHistory();
      const dir = h.site("permalink", doc);
      const { page, seen } = await h.open(h.fileUrl(dir));
      const cpu = findSeries(doc, "sort[n=1000]", "cpu_time");
      await page.selectOption("#series-list", cpu.id);
      await page.check("#mode-ratio");
      await page.check("#range-series");
      await hoverCommit(page, 6);
      await page.mouse.down();
      await page.mouse.up();
      await page.fill("#filter-text", "sort 1000");
      await page.selectOption("#filter-label", "stable");
      const before = await hashParams(page);
      assertEqual(before.series, cpu.id, "series in the URL");
      assertEqual(before.ref, doc.commits[6].sha, "reference in the URL");
      const state = async (p) => ({
        series: await p.locator("#series-list").inputValue(),
        ratio: await p.locator("#mode-ratio").isChecked(),
        range: await p.locator("#range-series").isChecked(),
        reference: await p.locator("#reference-commit").innerText(),
        q: await p.locator("#filter-text").inputValue(),
        label: await p.locator("#filter-label").inputValue(),
        commits: await p.locator("#chart svg").getAttribute("data-commit-lo"),
      });
      const expected = await state(page);
      assertEqual(expected.reference, doc.commits[6].sha.slice(0, 10), "reference shown");
      await page.reload();
      await waitReady(page);
      assertEqual(JSON.stringify(await state(page)), JSON.stringify(expected), "state after a reload");
      const url = page.url();
      const fresh = await h.open(url);
      assertEqual(JSON.stringify(await state(fresh.page)), JSON.stringify(expected), "state in a new tab");
      assertClean(seen);
      assertClean(fresh.seen);
    },
  },
  {
    name: "hostile strings everywhere are shown as text",
    async run(h) {
      const doc = hostileHistory();
      const { page, seen } = await h.open(h.fileUrl(h.site("hostile", doc)));
      await hoverCommit(page, 0);
      await hoverCommit(page, 2, "markers");
      await page.waitForTimeout(300); // time for an injected onerror or onload to fire
      const injected = await page.evaluate(() => ({
        images: document.querySelectorAll("img").length,
        handlers: document.querySelectorAll("[onerror],[onload]").length,
        scripts: [...document.scripts].filter((s) => !s.src).length,
        nestedSvg: document.querySelectorAll("svg svg").length,
      }));
      assertEqual(JSON.stringify(injected), JSON.stringify({ images: 0, handlers: 0, scripts: 0, nestedSvg: 0 }), "injected elements");
      const body = await page.locator("body").innerText();
      for (const literal of [HOSTILE, `"><script>alert(2)</script>`, `</text><svg onload=alert(3)>`]) {
        assert(body.includes(literal), `not shown literally: ${literal}`);
      }
      const options = await page.locator("#series-list option").allInnerTexts();
      assert(options.some((o) => o.startsWith(HOSTILE)), "the case name is not shown literally in the chooser");
      assert((await text(page, "#page-title")).endsWith(HOSTILE), "the branch name in the title");
      assert((await text(page, "#failed-table")).includes(`build: ${HOSTILE}`), "the failure message");
      assert((await page.locator("#chart svg .axis-title").first().textContent()).includes(`"><script>alert(2)</script>`), "the metric name in the axis title");
      await page.locator("#detail-environment summary").click();
      await h.shot(page, "hostile-strings");
      assertClean(seen);
    },
  },
  {
    name: "missing data file: a clear message",
    async run(h) {
      const { page, seen } = await h.open(h.fileUrl(h.site("nodata", null)));
      assert(await page.locator("#message").isVisible(), "no message");
      // Neither a history nor a store: one message for both (store-tests.mjs checks it whole).
      assert((await text(page, "#message")).includes("No store or history data found"), "the message does not say the data is missing");
      assert((await text(page, "#message")).includes("data/history.js"), "the message does not name the file");
      await h.shot(page, "missing-data");
      assertClean(seen, [/ERR_FILE_NOT_FOUND|Failed to load resource/]);
    },
  },
  {
    name: "schema_version 2 is refused",
    async run(h) {
      const { page, seen } = await h.open(h.fileUrl(h.site("v2", partialHistory({ schema_version: 2 }))));
      const message = await text(page, "#message");
      assert(message.includes("newer than this viewer") && message.includes("schema_version 2"), `message: ${message}`);
      assert(await page.locator("#app").isHidden(), "the views are shown for an unknown version");
      await h.shot(page, "schema-v2");
      assertClean(seen);
    },
  },
  {
    name: "served over HTTP under /immersx/ with data/history.json only",
    async run(h) {
      const doc = partialHistory();
      const dir = h.site("served", doc, { js: false, json: true });
      const base = await h.serve(dir, "/immersx/");
      const { page, seen } = await h.open(base);
      assertEqual(await page.locator("#chart circle.point").count(), 7, "points drawn from the fetched file");
      assert(seen.requests.some((url) => url === base + "data/history.json"), "data/history.json was not fetched relative to the page");
      assertClean(seen, [/404/]);
      writeFileSync(join(dir, "data", "history.json"), "{not json");
      const broken = await h.open(base);
      assert((await text(broken.page, "#message")).includes("not valid JSON"), "a broken file is not reported");
      assertClean(broken.seen, [/404/]);
    },
  },
];
