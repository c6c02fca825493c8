// Builds a store.json document (docs/store-json.md) from records described one by one, as
// `perfgate report --format html` writes it: cohort ids and labels by kind, timestamps as
// UTC text, records oldest first (by instant, then in the order given), the six repeating
// columns as dictionaries ({"codes", "values"}), attempt and record ids cut to 12
// characters, metrics with a value sorted by name, the named metrics without one as
// skipped_metrics, sorted benchmarks and devices, the cohort order (most records, then
// newest, then id), and the records whose timestamp is not an instant as unplaced_records.
// The browser tests then see documents with the real shape.

function byteCompare(a, b) {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

// The timestamp grammar perfgate's stores accept (src/model/instant.cpp): a date, then
// optionally "T" or " " and hh:mm[:ss[.fraction]], then optionally "Z" or an offset; a time
// without a zone is UTC. Returns {us, utc}: microseconds since the epoch and the UTC text the
// writer puts in the document; null for text that is not an instant.
const INSTANT = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:[.,](\d+))?)?(?:[Zz]|([+-])(\d\d):?(\d\d))?)?$/;

export function parseInstant(text) {
  const m = typeof text === "string" ? INSTANT.exec(text) : null;
  if (!m) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((part) => (part === undefined ? undefined : Number(part)));
  const monthDays = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (month < 1 || month > 12 || day < 1 || day > monthDays[month - 1] || hour > 23 || minute > 59 || second > 59) return null;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return null;
  const micros = m[7] === undefined ? 0 : Number((m[7] + "000000").slice(0, 6));
  const offset = m[8] === undefined ? 0 : (Number(m[9]) * 3600 + Number(m[10]) * 60) * (m[8] === "+" ? 1 : -1);
  const seconds = Date.UTC(year, month - 1, day, hour, minute, second) / 1000 - offset;
  const civil = new Date(seconds * 1000).toISOString().slice(0, 19);
  const fraction = micros ? "." + String(micros).padStart(6, "0").replace(/0+$/, "") : "";
  return { us: seconds * 1e6 + micros, utc: civil + fraction + "Z" };
}

function instant(timestamp) {
  const parsed = parseInstant(timestamp);
  if (!parsed) throw new Error(`not a timestamp: ${timestamp}`);
  return parsed.us;
}

// An attempt or record id as the writer quotes it, like a short git SHA.
export function shortId(id) {
  return String(id).slice(0, 12);
}

// The columns whose texts repeat from record to record, written as dictionaries.
export const DICTIONARY_COLUMNS = ["benchmark", "branch", "run_source", "comparison_status", "comparison_reason", "baseline_status"];

// {"codes": [index per record], "values": [each distinct text once, in the order first met]}.
export function dictionary(column) {
  const index = new Map();
  const values = [];
  const codes = new Array(column.length);
  for (let k = 0; k < column.length; k++) {
    let code = index.get(column[k]);
    if (code === undefined) {
      code = values.length;
      index.set(column[k], code);
      values.push(column[k]);
    }
    codes[k] = code;
  }
  return { codes, values };
}

// The records' columns in the writer's form: dictionaries for DICTIONARY_COLUMNS (plain
// arrays when `dictionaries` is false, which a reader also accepts).
function encodeColumns(columns, dictionaries) {
  if (!dictionaries) return columns;
  return Object.fromEntries(Object.entries(columns).map(([name, values]) => [name, DICTIONARY_COLUMNS.includes(name) ? dictionary(values) : values]));
}

// A plain-array column of a built cohort, whichever form it was written in.
export function columnValues(column) {
  return Array.isArray(column) ? column : column.codes.map((code) => column.values[code]);
}

const IDENTITY_FIELDS = ["workload_id", "variant_id", "benchmark_version", "recipe_fingerprint", "hardware_profile_id", "software_profile_id"];

export const COLUMNS = [
  "timestamp", "benchmark", "commit", "branch", "run_source", "comparison_status",
  "comparison_reason", "baseline_status", "eligible", "success", "attempt", "record",
];

// The id and label of a cohort, as `perfgate report` titles them.
export function cohortNames(kind, identity, benchmark, device) {
  if (kind === "v2") {
    const i = identity;
    const recipe = String(i.recipe_fingerprint).slice(0, 12);
    return {
      id: `${i.workload_id}/${i.variant_id}/v${i.benchmark_version}/${recipe}/${i.hardware_profile_id}/${i.software_profile_id}`,
      label: `${i.workload_id}/${i.variant_id}/v${i.benchmark_version} (recipe ${recipe}, ${i.hardware_profile_id}, ${i.software_profile_id})`,
    };
  }
  if (kind === "legacy_v1") return { id: `legacy-v1/${benchmark}/${device}`, label: `Legacy v1 (${benchmark}, ${device})` };
  if (kind === "invalid_v2") return { id: `invalid-v2/${benchmark}`, label: `Invalid v2 (${benchmark})` };
  throw new Error(`unknown cohort kind ${kind}`);
}

// spec: {kind, identity, benchmark, device, records: [{timestamp, benchmark?, device?,
// commit, branch, run_source, comparison_status, comparison_reason, baseline_status,
// eligible, success, attempt, record, metrics: {name: value}}], units: {name: {unit,
// direction}}, named: [metric names a policy or comparison names], changes?: {name: [change
// points, as metrics[].changes holds them, `index` into the records in time order]}, id?,
// label?}; a record may carry verdicts: {name: "regressed" | "inconclusive" | "not_gated" |
// "not_measured" | "ok"}. A metric not named in `changes` gets no field, as a writer before change points
// wrote it. Every record's timestamp is an instant (buildStore sets the others apart).
function buildCohort(spec, dictionaries) {
  const identity = Object.fromEntries(IDENTITY_FIELDS.map((field) => [field, spec.identity?.[field] ?? null]));
  const names = cohortNames(spec.kind, identity, spec.benchmark, spec.device);
  const ordered = spec.records
    .map((record, order) => ({ record, order, at: instant(record.timestamp) }))
    .sort((a, b) => a.at - b.at || a.order - b.order)
    .map((entry) => entry.record);
  const columns = Object.fromEntries(COLUMNS.map((column) => [column, ordered.map((record) => {
    if (column === "timestamp") return parseInstant(record.timestamp).utc;
    if (column === "benchmark") return record.benchmark ?? spec.benchmark;
    if (column === "comparison_reason") return record.comparison_reason ?? "";
    if (column === "attempt" || column === "record") return shortId(record[column]);
    return record[column] ?? null;
  })]));
  const measured = new Set(ordered.flatMap((record) => Object.keys(record.metrics || {}).filter((name) => record.metrics[name] !== null)));
  const describe = (name) => ({ name, unit: spec.units[name].unit, direction: spec.units[name].direction });
  const metrics = [...measured].sort(byteCompare).map((name) => ({
    ...describe(name),
    values: ordered.map((record) => (record.metrics && record.metrics[name] !== undefined ? record.metrics[name] : null)),
    ...(spec.changes && spec.changes[name] !== undefined ? { changes: spec.changes[name] } : {}),
    // Each metric's own verdict per record (record.verdicts: {name: verdict}), as the
    // writer sends it; left out when no record has one, as a writer before verdicts did.
    ...(ordered.some((record) => record.verdicts)
      ? { verdicts: (dictionaries ? dictionary : (column) => column)(ordered.map((record) => record.verdicts?.[name] ?? null)) }
      : {}),
  }));
  const skipped = [...new Set(spec.named || [])].filter((name) => !measured.has(name)).sort(byteCompare).map(describe);
  const distinct = (values) => [...new Set(values)].sort(byteCompare);
  return {
    id: spec.id ?? names.id,
    label: spec.label ?? names.label,
    kind: spec.kind,
    identity,
    benchmarks: distinct(columns.benchmark),
    devices: distinct(ordered.map((record) => record.device ?? spec.device ?? "cpu")),
    records: encodeColumns(columns, dictionaries),
    metrics,
    skipped_metrics: skipped,
  };
}

// dictionaries: false writes the six repeating columns as plain arrays (the older form,
// which a reader still accepts). A record whose timestamp is not an instant is left out of
// its cohort and listed in unplaced_records, with its timestamp as given; record_count
// counts the records in cohorts.
export function buildStore({ cohorts, store = "sqlite:.perfgate/perfgate.db", filter = { benchmark: null, since: null }, generated_at = "2026-12-02T16:00:00Z", dictionaries = true, ...overrides }) {
  const unplaced = [];
  const placed = cohorts.map((spec) => ({
    ...spec,
    records: spec.records.filter((record) => {
      if (parseInstant(record.timestamp)) return true;
      unplaced.push({ benchmark: record.benchmark ?? spec.benchmark, record: shortId(record.record), timestamp: record.timestamp });
      return false;
    }),
  })).filter((spec) => spec.records.length);
  const built = placed.map((spec) => buildCohort(spec, dictionaries));
  const count = (cohort) => cohort.records.timestamp.length;
  const newest = (cohort) => instant(cohort.records.timestamp[count(cohort) - 1]);
  built.sort((a, b) => count(b) - count(a) || newest(b) - newest(a) || byteCompare(a.id, b.id));
  return {
    schema_version: 1,
    kind: "perfgate-store-view",
    generated_at,
    store,
    filter,
    record_count: built.reduce((sum, cohort) => sum + count(cohort), 0),
    unplaced_records: unplaced,
    cohorts: built,
    ...overrides,
  };
}

// Numbers in [0, 1) for the runs' spread, from their own seed: drawing them from `random`
// would move every value the tests already know.
function spreadSource(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

// metrics[].spread of one metric, as perfgate report writes it for records that carry their
// runs' samples: min, median and max of each record's runs around its value (the mean),
// null where the value is. Numbers with 4 significant digits, as the writer rounds them.
function runSpread(values, next) {
  const column = (scale) => values.map((v, k) => (v === null ? null : Number((v * scale[k]).toPrecision(4))));
  const low = values.map(() => 1 - 0.004 - 0.02 * next());
  const middle = values.map(() => 1 + (next() - 0.5) * 0.006);
  const high = values.map(() => 1 + 0.004 + 0.02 * next());
  return { max: column(high), median: column(middle), min: column(low) };
}

// The large shape, built column by column (100,000 record objects would cost seconds):
// `cohortCount` v2 cohorts of `perCohort` records with `metricCount` metrics each, in the
// writer's form (dictionaries unless `dictionaries` is false). spread: every metric gets
// metrics[].spread, as records that kept their runs' samples have it (false: none, as
// imported aggregates).
export function buildLargeStore({ cohortCount, perCohort, metricCount, random, hash, dictionaries = true, spread = true }) {
  const t0 = Date.parse("2026-01-01T00:00:00Z");
  const cohorts = [];
  const metricNames = ["cpu_time", "latency", "memory", "throughput", "wall_time"].slice(0, metricCount);
  const units = { cpu_time: "s", latency: "ms", memory: "MB", throughput: "items/s", wall_time: "s" };
  for (let c = 0; c < cohortCount; c++) {
    const recipe = hash(`recipe ${c}`);
    const identity = {
      workload_id: `workload_${String(c).padStart(2, "0")}`,
      variant_id: ["default", "small", "large"][c % 3],
      benchmark_version: 1 + (c % 2),
      recipe_fingerprint: recipe,
      hardware_profile_id: `hw-${hash(`hw ${c % 4}`).slice(0, 8)}`,
      software_profile_id: `sw-${hash(`sw ${c % 5}`).slice(0, 8)}`,
    };
    const names = cohortNames("v2", identity);
    // Sizes around perCohort, each cohort smaller than the one before and the total
    // cohortCount × perCohort: the document's order by record count is the order of c.
    const half = cohortCount >> 1;
    const n = perCohort + (c < half ? half - c : c >= cohortCount - half ? -(half - (cohortCount - 1 - c)) : 0);
    const columns = Object.fromEntries(COLUMNS.map((column) => [column, new Array(n)]));
    const levels = metricNames.map((_, m) => 0.5 + ((c * 7 + m * 13) % 40) * 1.7);
    const values = metricNames.map(() => new Array(n));
    for (let k = 0; k < n; k++) {
      const regression = random() < 0.004;
      const source = k % 7 === 0 ? "pr" : k % 11 === 0 ? "local" : "scheduled_main";
      columns.timestamp[k] = new Date(t0 + (k * 3 + c) * 3600 * 1000 + Math.floor(random() * 600) * 1000).toISOString().replace(".000Z", "Z");
      columns.benchmark[k] = identity.workload_id;
      columns.commit[k] = source === "local" ? null : hash(`commit ${c} ${k}`).slice(0, 40);
      columns.branch[k] = source === "local" ? null : source === "pr" ? `feature/${k % 13}` : "main";
      columns.run_source[k] = source;
      columns.comparison_status[k] = k === 0 ? "CALIBRATION_NEEDED" : regression ? "REGRESSION" : "PASS";
      columns.comparison_reason[k] = k === 0
        ? "No baseline found for exact comparable identity"
        : regression ? "gated metrics regressed against the rolling baseline: latency +12.5% (+0.62 ms)" : "Comparable baseline found with no gated regressions";
      columns.baseline_status[k] = k === 0 ? "initialized_new_cohort" : "compared";
      columns.eligible[k] = source === "scheduled_main" && !regression;
      columns.success[k] = true;
      columns.attempt[k] = shortId(hash(`attempt ${c} ${k}`));
      columns.record[k] = shortId(hash(`record ${c} ${k}`));
      metricNames.forEach((_, m) => {
        if (random() < 0.0005) levels[m] *= 1.15;
        values[m][k] = random() < 0.01 ? null : Number((levels[m] * (regression ? 1.12 : 1) * (1 + (random() - 0.5) * 0.03)).toPrecision(6));
      });
    }
    cohorts.push({
      ...names,
      kind: "v2",
      identity,
      benchmarks: [identity.workload_id],
      devices: ["cpu"],
      records: encodeColumns(columns, dictionaries),
      metrics: metricNames.map((name, m) => ({
        name,
        unit: units[name],
        direction: name === "throughput" ? "higher" : "lower",
        values: values[m],
        ...(spread ? { spread: runSpread(values[m], spreadSource(c * 16 + m + 1)) } : {}),
      })),
      skipped_metrics: [],
    });
  }
  return {
    schema_version: 1,
    kind: "perfgate-store-view",
    generated_at: "2026-12-02T16:00:00Z",
    store: "sqlite:.perfgate/perfgate.db",
    filter: { benchmark: null, since: null },
    record_count: cohorts.reduce((sum, cohort) => sum + cohort.records.timestamp.length, 0),
    unplaced_records: [],
    cohorts,
  };
}
