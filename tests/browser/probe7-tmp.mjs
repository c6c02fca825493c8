import { chromium } from "playwright-core";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ["--no-sandbox"] });
for (let i = 0; i < 8; i++) {
  const f = i % 2 ? "index2.html" : "index.html";
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } }); const page = await ctx.newPage();
  const errs = []; page.on("pageerror", e => errs.push(e.message));
  await page.goto(`file:///tmp/probe-site-tiny/${f}`);
  await page.waitForFunction(() => document.body.dataset.ready === "1", null, { timeout: 60000 });
  const t = await page.evaluate(() => window.PERFGATE_TIMING);
  console.log(f, Math.round(t.dataMs), Math.round(t.readyMs), errs.join("|"));
  await ctx.close();
}
await browser.close();
