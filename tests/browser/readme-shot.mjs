// The README's picture of the dashboard: the landing view ("what changed", then the
// cards) of a site that `perfgate report --format html` wrote, as a PNG.
//   make demo && node tests/browser/readme-shot.mjs site docs/images/landing.png
// (`make screenshot` runs both.) Chromium draws the top 1280 × 820 pixels of the page.
import { Harness, waitReady } from "./harness.mjs";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [site = "site", out = "docs/images/landing.png"] = process.argv.slice(2);
const index = resolve(site, "index.html");
if (!existsSync(index)) {
  console.error(`readme-shot: ${index} is not there; write the site first (make demo writes site/)`);
  process.exit(66);
}
const harness = new Harness();
try {
  await harness.start();
  const { page, seen } = await harness.open(pathToFileURL(index).href, { width: 1280, height: 820 });
  await waitReady(page);
  await page.waitForFunction(() => {
    const cards = document.getElementById("store-overview");
    return !cards || cards.dataset.complete === "1";
  });
  if (seen.pageErrors.length || seen.consoleErrors.length) {
    console.error(`readme-shot: the page reported errors: ${[...seen.pageErrors, ...seen.consoleErrors].join("; ")}`);
    process.exit(1);
  }
  await page.screenshot({ path: resolve(out), fullPage: false });
  console.log(`wrote ${join(resolve(out))}`);
} finally {
  await harness.closePages();
  await harness.stop();
}
