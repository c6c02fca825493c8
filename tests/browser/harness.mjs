// What every browser test shares: Debian's Chromium through playwright-core, a temporary
// site per history (the viewer's files plus data/), a page that records dialogs, page
// errors and console errors, and screenshots into one folder.
import { chromium } from "playwright-core";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeHistoryData, writeStoreData } from "./fixtures.mjs";

const here = dirname(fileURLToPath(import.meta.url));
export const VIEWER_DIR = resolve(here, "../../web/viewer");
export const SHOTS_DIR = process.env.PERFGATE_BROWSER_SHOTS || "/tmp/perfgate-browser-shots";
const CHROMIUM = process.env.PERFGATE_CHROMIUM || "/usr/bin/chromium";

// The viewer's files as perfgate writes them into a site (cmake/embed_viewer.cmake): the
// scripts web/viewer/bundle.txt lists as one file, bundle.js (their bytes in its order),
// and the other pages, scripts and stylesheets as they are. {name: Buffer}, read once: every
// test's site gets the same files.
let viewerFilesRead = null;
export function viewerFiles() {
  if (!viewerFilesRead) viewerFilesRead = readViewerFiles();
  return viewerFilesRead;
}

function readViewerFiles() {
  const bundled = readFileSync(join(VIEWER_DIR, "bundle.txt"), "utf8").split("\n").filter((line) => line && !line.startsWith("#"));
  const files = { "bundle.js": Buffer.concat(bundled.map((name) => readFileSync(join(VIEWER_DIR, name)))) };
  for (const name of readdirSync(VIEWER_DIR)) {
    if (/\.(html|js|css)$/.test(name) && !bundled.includes(name)) files[name] = readFileSync(join(VIEWER_DIR, name));
  }
  return files;
}

export class Harness {
  async start() {
    this.root = mkdtempSync(join(tmpdir(), "perfgate-browser-"));
    mkdirSync(SHOTS_DIR, { recursive: true });
    // --no-sandbox: the tests run as root, where Chromium's sandbox cannot start.
    this.browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
    this.servers = [];
    this.contexts = [];
  }

  async closePages() {
    for (const context of this.contexts.splice(0)) await context.close().catch(() => {});
  }

  async stop() {
    for (const server of this.servers) await new Promise((done) => server.close(done));
    if (this.browser) await this.browser.close();
    if (this.root) rmSync(this.root, { recursive: true, force: true });
  }

  // A copy of the viewer with `document` as its history and `store` as its store view
  // (either may be null: absent); returns the folder. js/json: which history files;
  // storeJs/storeJson: which store files; storeString: store.js holds the JSON as a string.
  // storeApart: store.js as perfgate writes a large store's site (each cohort's details apart).
  site(name, document, { js = true, json = false, store = null, storeJs = true, storeJson = false, storeString = false, storeApart = false } = {}) {
    const dir = join(this.root, name);
    mkdirSync(dir, { recursive: true });
    for (const [file, content] of Object.entries(viewerFiles())) writeFileSync(join(dir, file), content);
    if (document) this.lastDataBytes = writeHistoryData(dir, document, { js, json });
    if (store) this.lastStoreBytes = writeStoreData(dir, store, { js: storeJs, json: storeJson, string: storeString, apart: storeApart });
    return dir;
  }

  fileUrl(dir, hash = "") {
    return pathToFileURL(join(dir, "index.html")).href + hash;
  }

  // Serves `dir` under `prefix` (e.g. "/immersx/") on 127.0.0.1 until the harness stops.
  // answers: {relative path: [status, body]} for the paths that answer something else than
  // the file (a server error, as `perfgate serve` gives one: JSON with "error").
  async serve(dir, prefix, { answers = {} } = {}) {
    const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".json": "application/json" };
    const server = createServer(async (request, response) => {
      const path = decodeURIComponent(new URL(request.url, "http://127.0.0.1").pathname);
      const relative = path.startsWith(prefix) ? path.slice(prefix.length) || "index.html" : null;
      if (relative !== null && answers[relative]) {
        const [status, body] = answers[relative];
        response.writeHead(status, { "content-type": "application/json" }).end(body);
        return;
      }
      const file = relative === null ? null : normalize(join(dir, relative));
      if (!file || !file.startsWith(dir)) {
        response.writeHead(404).end();
        return;
      }
      try {
        const body = await readFile(file);
        response.writeHead(200, { "content-type": types[extname(file)] || "application/octet-stream" }).end(body);
      } catch {
        response.writeHead(404).end();
      }
    });
    await new Promise((done) => server.listen(0, "127.0.0.1", done));
    this.servers.push(server);
    return `http://127.0.0.1:${server.address().port}${prefix}`;
  }

  async open(url, { width = 1280, height = 900 } = {}) {
    const context = await this.browser.newContext({ viewport: { width, height } });
    this.contexts.push(context);
    const page = await context.newPage();
    // optionalMissing: the data files that were not there (data/store.js and the like): a
    // page may lack either source, so their failed loads are not console errors.
    const seen = { dialogs: [], pageErrors: [], consoleErrors: [], requests: [], optionalMissing: [] };
    page.on("dialog", (dialog) => {
      seen.dialogs.push(dialog.message());
      dialog.dismiss().catch(() => {});
    });
    page.on("pageerror", (error) => seen.pageErrors.push(String(error.message)));
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      const url = (message.location() && message.location().url) || "";
      const optional = /\/data\/(store|history)\.(js|json)$/.exec(url);
      if (optional && /Failed to load resource/.test(message.text())) seen.optionalMissing.push(optional[0].slice(1));
      // The browser's own request for an icon at the server's root, not the page's.
      else if (/\/favicon\.ico$/.test(url)) return;
      else seen.consoleErrors.push(message.text() + (url ? ` (${url})` : ""));
    });
    page.on("request", (request) => seen.requests.push(request.url()));
    await page.goto(url);
    await waitReady(page);
    return { page, context, seen };
  }

  async shot(page, name, selector) {
    const path = join(SHOTS_DIR, name + ".png");
    if (selector) await page.locator(selector).screenshot({ path });
    else await page.screenshot({ path, fullPage: false });
    return path;
  }
}

// axe-core (pinned in package.json, installed by npm ci: nothing is downloaded at test time).
const AXE_SOURCE = join(here, "node_modules", "axe-core", "axe.min.js");
let axeSource = null;

// Runs axe-core on the page as it is now and returns its violations ([{id, impact, help,
// helpUrl, nodes: [{target, html, failureSummary}]}]). The page's policy allows its own
// folder's scripts only, so a <script> tag of axe would be refused: its source is evaluated
// through the DevTools protocol instead (as page.evaluate does, outside the page's CSP),
// which leaves the policy that every other test checks as it is. preload: false: axe would
// fetch the stylesheet with XMLHttpRequest, which a page opened from disk (origin null)
// refuses with a console error; the rules that need it (css-orientation-lock) are left
// incomplete, not failed.
export async function runAxe(page, options = {}) {
  if (axeSource === null) {
    try {
      axeSource = readFileSync(AXE_SOURCE, "utf8");
    } catch {
      throw new Skip(`axe-core is not installed (${AXE_SOURCE}): run bash scripts/install-browser-deps.sh`);
    }
  }
  if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.evaluate(axeSource);
  return page.evaluate(
    (options) => window.axe.run(document, { resultTypes: ["violations"], preload: false, ...options }).then((results) =>
      results.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        helpUrl: v.helpUrl,
        nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, failureSummary: n.failureSummary })),
      }))),
    options,
  );
}

export async function waitReady(page, timeout = 60000) {
  await page.waitForFunction(() => document.body && document.body.dataset.ready === "1", null, { timeout });
}

// Thrown by a test that cannot run here (what it needs is missing): the runner says so and
// counts it apart from passes and failures.
export class Skip extends Error {}

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}

export function assertEqual(actual, expected, what) {
  if (actual !== expected) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

// A clean page: no dialog, no uncaught error, no console error (except those expected).
export function assertClean(seen, allowedConsole = []) {
  assertEqual(seen.dialogs.length, 0, `dialogs fired (${seen.dialogs.join(" | ")})`);
  assertEqual(seen.pageErrors.length, 0, `page errors (${seen.pageErrors.join(" | ")})`);
  const unexpected = seen.consoleErrors.filter((text) => !allowedConsole.some((pattern) => pattern.test(text)));
  assertEqual(unexpected.length, 0, `console errors (${unexpected.join(" | ")})`);
  const remote = seen.requests.filter((url) => !url.startsWith("file:") && !url.startsWith("http://127.0.0.1:") && !url.startsWith("data:"));
  assertEqual(remote.length, 0, `network requests outside the site (${remote.join(" ")})`);
}

// Client coordinates of commit `commitIndex` on the chart's x axis, at the marker row when
// `row` is "markers", else at the vertical middle of the plot.
export async function chartPoint(page, commitIndex, row = "plot") {
  return page.evaluate(
    ({ commitIndex, row }) => {
      const svg = document.querySelector("#chart svg");
      const lo = Number(svg.dataset.commitLo);
      const hi = Number(svg.dataset.commitHi);
      const x0 = Number(svg.dataset.xLo);
      const x1 = Number(svg.dataset.xHi);
      const box = svg.getBoundingClientRect();
      const scale = box.width / svg.viewBox.baseVal.width;
      const x = hi === lo ? x0 : x0 + ((commitIndex - lo) * (x1 - x0)) / (hi - lo);
      const y = row === "markers" ? Number(svg.dataset.markerRow) : svg.viewBox.baseVal.height / 2.5;
      return { x: box.left + x * scale, y: box.top + y * scale };
    },
    { commitIndex, row },
  );
}

export async function hoverCommit(page, commitIndex, row) {
  await page.locator("#chart svg").scrollIntoViewIfNeeded();
  const at = await chartPoint(page, commitIndex, row);
  await page.mouse.move(at.x, at.y);
  await page.waitForFunction(() => !document.querySelector("#chart .tooltip").hidden);
  return page.locator("#chart .tooltip").innerText();
}
