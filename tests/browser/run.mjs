// Runs the viewer's browser tests in Debian's Chromium, one line per test, then the
// closing "N passed, N failed" line (", N skipped" when a test could not run here); exits
// non-zero when a test fails.
//   node tests/browser/run.mjs [substring of test names]
import { Harness, SHOTS_DIR, Skip } from "./harness.mjs";
import { viewTests } from "./view-tests.mjs";
import { storeTests } from "./store-tests.mjs";
import { storeApartTests } from "./store-apart-tests.mjs";
import { loadTests } from "./load-tests.mjs";
import { perfgateTests } from "./perfgate-tests.mjs";
import { a11yTests } from "./a11y-tests.mjs";
import { landingTests } from "./landing-tests.mjs";

const only = process.argv[2] || "";
const tests = [...viewTests, ...storeTests, ...storeApartTests, ...landingTests, ...a11yTests, ...loadTests, ...perfgateTests].filter((test) => test.name.includes(only));

const harness = new Harness();
let passed = 0;
let failed = 0;
let skipped = 0;
try {
  await harness.start();
  for (const test of tests) {
    const started = Date.now();
    const notes = [];
    try {
      await test.run(harness, (text) => notes.push(text));
      passed++;
      console.log(`ok   ${test.name} (${Date.now() - started} ms)${notes.length ? ": " + notes.join("; ") : ""}`);
    } catch (error) {
      if (error instanceof Skip) {
        skipped++;
        console.log(`skip ${test.name}: ${error.message}`);
        continue;
      }
      failed++;
      console.log(`FAIL ${test.name} (${Date.now() - started} ms): ${error.message.split("\n")[0]}`);
      if (process.env.PERFGATE_BROWSER_VERBOSE) console.log(error.stack);
    } finally {
      await harness.closePages();
    }
  }
} finally {
  await harness.stop();
}
console.log(`screenshots in ${SHOTS_DIR}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed || !(passed + skipped) ? 1 : 0);
