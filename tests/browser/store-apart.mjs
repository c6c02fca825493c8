// A store view with each cohort's details apart, as perfgate report writes a large store's
// site (src/report/store_view.cpp, write_store_view_apart; docs/store-json.md, "Details
// apart"): the same document and files, built here from a fixture's document.

// The columns written apart, with the metrics' spread.
export const DETAIL_COLUMNS = ["attempt", "baseline_status", "benchmark", "branch", "commit", "eligible", "record"];
export const DETAILS_KIND = "perfgate-store-cohort-details";

// A column as a plain array, whether the fixture wrote it plain or as a dictionary.
function plain(column) {
  return Array.isArray(column) ? column : column.codes.map((code) => column.values[code]);
}

// The records "what changed" names: REGRESSION, INCONCLUSIVE and INFRA_ERROR records, failed
// ones, and the first record after a change point of any metric; ascending.
function namedRows(cohort) {
  const status = plain(cohort.records.comparison_status);
  const success = plain(cohort.records.success);
  const changed = new Set(cohort.metrics.flatMap((metric) => (metric.changes || []).map((change) => change.index)));
  const rows = [];
  for (let k = 0; k < status.length; k++) {
    if (["REGRESSION", "INCONCLUSIVE", "INFRA_ERROR"].includes(status[k]) || success[k] === false || changed.has(k)) rows.push(k);
  }
  return rows;
}

// {document, details}: `doc` with each cohort's detail columns and spread taken out and
// "details" in their place; details[i] the details document of cohort i (file i + 1).
export function apartStore(doc) {
  const copy = structuredClone(doc);
  const details = copy.cohorts.map((cohort, i) => {
    const rows = namedRows(cohort);
    const commit = plain(cohort.records.commit);
    const record = plain(cohort.records.record);
    const records = {};
    for (const column of DETAIL_COLUMNS) {
      records[column] = cohort.records[column];
      delete cohort.records[column];
    }
    const metrics = [];
    for (const metric of cohort.metrics) {
      if (metric.spread) metrics.push({ name: metric.name, spread: metric.spread });
      delete metric.spread;
    }
    cohort.details = { commit: rows.map((k) => commit[k]), file: i + 1, record: rows.map((k) => record[k]), rows };
    return { id: cohort.id, kind: DETAILS_KIND, metrics, records };
  });
  return { document: copy, details };
}
