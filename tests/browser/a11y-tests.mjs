// Accessibility of the viewer's main views (issue 38, point 7): axe-core (pinned in
// package.json, loaded from node_modules, never downloaded at test time) finds no violation
// of impact "serious" or "critical" on each view; the moderate and minor ones are reported
// as notes. And the history chart's change points and flags have a list that a keyboard
// reaches, as the store charts have their line of changes.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { assert, assertClean, assertEqual, runAxe } from "./harness.mjs";
import {
  CHANGE_P_VALUE,
  HOSTILE,
  changedHistory,
  hostileHistory,
  partialHistory,
  partialStore,
  hostileStore,
  steppedStore,
} from "./fixtures.mjs";

const BLOCKING = new Set(["serious", "critical"]);

function describe(violation) {
  const node = violation.nodes[0];
  const target = node ? JSON.stringify(node.target) : "(no node)";
  const more = violation.nodes.length > 1 ? ` (+${violation.nodes.length - 1} more)` : "";
  return `${violation.id} [${violation.impact}] ${violation.help}: ${target}${more}`;
}

// Runs axe on the page as it is; fails on a serious or critical violation, naming each one's
// id, impact, help and first node; notes the others.
async function checkAxe(page, view, note) {
  const violations = await runAxe(page);
  const blocking = violations.filter((v) => BLOCKING.has(v.impact));
  const others = violations.filter((v) => !BLOCKING.has(v.impact));
  if (others.length) note(`${view}: ${others.map(describe).join("; ")}`);
  assert(!blocking.length, `${view}: ${blocking.length} serious or critical axe violation(s): ${blocking.map(describe).join("; ")}`);
}

async function cardsDrawn(page, id) {
  await page.waitForFunction((id) => document.getElementById(id).dataset.complete === "1", id);
}

// A view: a site from `make(h)`, opened at `hash`; `prepare(page)` brings it to the state
// to check (a tab, a focused chart); `shot` names its screenshot.
function axeTest(name, make, { hash = "", prepare = null, shot } = {}) {
  return {
    name: `a11y: ${name} has no serious or critical axe violation`,
    async run(h, note) {
      const { page, seen } = await h.open(h.fileUrl(make(h), hash));
      if (prepare) await prepare(page);
      await checkAxe(page, name, note);
      if (shot) await h.shot(page, shot);
      assertClean(seen);
    },
  };
}

export const a11yTests = [
  {
    // A check that cannot fail proves nothing: axe must find a flaw planted in the page, and
    // loading it must leave the page's policy as strict as it was.
    name: "a11y: axe runs in the page, finds a planted violation and leaves the page's policy as it was",
    async run(h) {
      const { page, seen } = await h.open(h.fileUrl(h.site("a11y-planted", partialHistory())));
      await page.evaluate(() => {
        const button = document.createElement("button");
        button.id = "planted-unnamed";
        document.querySelector("main").appendChild(button);
      });
      const violations = await runAxe(page);
      const found = violations.find((v) => v.id === "button-name");
      assert(found && found.impact === "critical" && JSON.stringify(found.nodes[0].target) === '["#planted-unnamed"]',
        `axe did not report the planted unnamed button: ${violations.map(describe).join("; ") || "no violation"}`);
      await page.evaluate(() => {
        const script = document.createElement("script");
        script.textContent = "window.PLANTED_INLINE = 1;";
        document.body.appendChild(script);
      });
      assertEqual(await page.evaluate(() => window.PLANTED_INLINE), undefined, "an inline script ran after axe was loaded");
      assertClean(seen, [/inline script violates the following Content Security Policy/]);
    },
  },
  axeTest("history, partial", (h) => h.site("a11y-partial", partialHistory()), {
    prepare: (page) => cardsDrawn(page, "overview"),
    shot: "a11y-history-partial",
  }),
  axeTest("history, hostile strings", (h) => h.site("a11y-hostile", hostileHistory()), {
    prepare: (page) => cardsDrawn(page, "overview"),
    shot: "a11y-history-hostile",
  }),
  axeTest("history, change points in ratio mode, a point described", (h) => h.site("a11y-changes", changedHistory()), {
    hash: "#mode=ratio",
    prepare: async (page) => {
      await cardsDrawn(page, "overview");
      await page.locator("#chart svg").focus();
      await page.keyboard.press("ArrowLeft");
      await page.waitForFunction(() => !document.querySelector("#chart .tooltip").hidden);
    },
    shot: "a11y-history-changes",
  }),
  axeTest("store, partial", (h) => h.site("a11y-store-partial", null, { store: partialStore() }), {
    hash: "#view=cohort",
    shot: "a11y-store-partial",
  }),
  axeTest("store, hostile strings", (h) => h.site("a11y-store-hostile", null, { store: hostileStore() }), {
    hash: "#view=cohort",
    shot: "a11y-store-hostile",
  }),
  axeTest("store, change points, a record described", (h) => h.site("a11y-store-stepped", null, { store: steppedStore() }), {
    hash: "#view=cohort",
    prepare: async (page) => {
      await page.locator("#cohort-charts svg.store-chart").first().focus();
      await page.keyboard.press("ArrowLeft");
      await page.waitForFunction(() => [...document.querySelectorAll("#cohort-charts .tooltip")].some((t) => !t.hidden));
    },
    shot: "a11y-store-stepped",
  }),
  axeTest("store overview", (h) => h.site("a11y-store-overview", null, { store: partialStore() }), {
    hash: "#view=overview",
    prepare: (page) => cardsDrawn(page, "store-overview"),
    shot: "a11y-store-overview",
  }),
  axeTest("store and history on one page", (h) => h.site("a11y-both", changedHistory(), { store: steppedStore() }), {
    prepare: (page) => cardsDrawn(page, "overview"),
    shot: "a11y-both",
  }),
  axeTest("messages: a broken store beside a history", (h) => {
    const dir = h.site("a11y-broken", partialHistory());
    writeFileSync(join(dir, "data", "store.js"), `window.PERFGATE_STORE = "{not json";\n`);
    return dir;
  }),
  {
    name: "a11y: the history chart's change points and flags are listed as text, reachable by keyboard",
    async run(h) {
      const doc = changedHistory();
      const latency = doc.series[0];
      const change = latency.changes[0];
      assertEqual(latency.points.commit[change.index], 6, "the change's commit (point 4 is on commit #6)");
      const flag = doc.flags.find((f) => f.series === latency.id);
      assert(flag && flag.commit === doc.commits[6].sha, "the fixture's flag is on commit #6");
      const at = `${doc.commits[6].sha.slice(0, 10)} (#6, 2026-01-05 15:00 UTC)`;
      const changeText = `change at ${at}: 10.06 ms → 13.03 ms (+29.5%, worse), p = ${CHANGE_P_VALUE}`;
      const flagText = `flag at ${at}: possible regression, +${flag.change_percent.toFixed(1)}% vs the previous point; not yet re-measured`;
      const { page, seen } = await h.open(h.fileUrl(h.site("a11y-change-list", doc)));
      const entries = () => page.locator("#change-list li .change-entry").allTextContents();
      assertEqual(await page.locator("#change-list h3").textContent(), "Change points and flags", "the list's heading");
      assertEqual(await page.locator("#change-list .note").textContent(), "1 change point and 1 flag in this series, as the chart marks them:", "the list's note");
      assertEqual(JSON.stringify(await entries()), JSON.stringify([changeText, flagText]), "the list's entries");
      // The change is worded as the chart's marker is titled.
      assertEqual(await page.locator("#chart .change-marker title").textContent(), changeText, "the marker's title, the same words");
      assertEqual(await page.locator("#change-list li.change.worse").count(), 1, "the change's entry says worse in its class too");
      // Tab from the chart reaches the list; its button puts the chart's cursor on the point.
      await page.locator("#chart svg").focus();
      await page.keyboard.press("Tab");
      assertEqual(await page.evaluate(() => document.activeElement.closest("#change-list li")?.dataset.point), "4", "the focus after Tab from the chart");
      await page.keyboard.press("Enter");
      assertEqual(await page.evaluate(() => document.activeElement === document.querySelector("#chart svg")), true, "the chart has the focus after the button");
      assertEqual(await page.locator("#chart .tooltip").getAttribute("data-point"), "4", "the point described");
      assert((await page.locator("#chart .tooltip").innerText()).includes("(#6)"), "the tooltip of commit #6");
      // In ratio mode, the change keeps the series' unit, as the marker's title does.
      await page.check("#mode-ratio");
      assertEqual(JSON.stringify(await entries()), JSON.stringify([changeText, flagText]), "the list's entries in ratio mode");
      await h.shot(page, "a11y-change-list", "#detail-section");
      // A series with neither: no list.
      const memory = doc.series.find((s) => s.metric === "memory" && s.case === latency.case && s.environment.cpu === latency.environment.cpu);
      await page.selectOption("#series-list", memory.id);
      assertEqual(await page.locator("#change-list").isHidden(), true, "no list for a series without changes or flags");
      assertEqual(await page.locator("#change-list li").count(), 0, "entries for a series without changes or flags");
      assertClean(seen);

      // The unit is data: shown as text.
      const hostile = changedHistory();
      hostile.series[0].unit = HOSTILE;
      const second = await h.open(h.fileUrl(h.site("a11y-change-list-hostile", hostile)));
      assertEqual(await second.page.locator("#change-list li .change-entry").first().textContent(),
        changeText.replaceAll(" ms", ` ${HOSTILE}`), "the change with a hostile unit");
      await second.page.waitForTimeout(300); // time for an injected onerror or onload to fire
      assertEqual(await second.page.evaluate(() => document.querySelectorAll("img,[onerror],[onload]").length), 0, "injected elements");
      assertClean(second.seen);
    },
  },
];
