// Checking store.json (docs/store-json.md) and the lookups the store views need, in one
// pass over the records: with 100,000 records a second pass is time the reader waits for.
(function (pv) {
  "use strict";

  var KNOWN_SCHEMA_VERSION = 1;
  var KIND = "perfgate-store-view";

  // Every column of a cohort's records, one entry per record (docs/store-json.md).
  pv.STORE_COLUMNS = [
    "timestamp", "benchmark", "commit", "branch", "run_source", "comparison_status",
    "comparison_reason", "baseline_status", "eligible", "success", "attempt", "record",
  ];

  // The columns a large store's site writes apart, in each cohort's details file, with the
  // metrics' spread (docs/store-json.md, "Details apart"); the others are always there.
  pv.DETAIL_COLUMNS = ["attempt", "baseline_status", "benchmark", "branch", "commit", "eligible", "record"];
  var FIRST_COLUMNS = pv.STORE_COLUMNS.filter(function (column) { return pv.DETAIL_COLUMNS.indexOf(column) < 0; });
  var DETAILS_KIND = "perfgate-store-cohort-details";
  // The most details files a site may have: one per cohort.
  var MAX_DETAILS_FILES = 1000000;

  pv.IDENTITY_FIELDS = [
    "workload_id", "variant_id", "benchmark_version", "recipe_fingerprint",
    "hardware_profile_id", "software_profile_id",
  ];

  // Comparison statuses in the order of docs/compare.md (the worst first); any other text
  // is shown as it is, after these.
  pv.KNOWN_STATUSES = ["INFRA_ERROR", "REGRESSION", "INCONCLUSIVE", "RECIPE_MISMATCH", "CALIBRATION_NEEDED", "PASS"];
  var STATUS_CLASS = {
    INFRA_ERROR: "st-infra",
    REGRESSION: "st-regression",
    INCONCLUSIVE: "st-inconclusive",
    RECIPE_MISMATCH: "st-mismatch",
    CALIBRATION_NEEDED: "st-calibration",
    PASS: "st-pass",
  };

  // A fixed class per status: data never becomes a class name.
  pv.statusClass = function (status) {
    return STATUS_CLASS[status] || "st-other";
  };

  // metrics[].verdicts (docs/store-json.md): each metric's own verdict in a record.
  pv.METRIC_VERDICTS = ["regressed", "inconclusive", "not_gated", "not_measured", "ok"];
  var VERDICT_CLASS = {
    regressed: "st-regression",
    inconclusive: "st-inconclusive",
    not_gated: "st-notgated",
    not_measured: "st-pass",
    ok: "st-pass",
  };
  var COMPARED = { REGRESSION: true, INCONCLUSIVE: true, PASS: true };
  pv.VERDICT_TEXT = {
    regressed: "this metric regressed",
    inconclusive: "this metric is INCONCLUSIVE (its interval straddles the threshold, or the machine's load may explain it)",
    not_gated: "this metric changed beyond its threshold, but is not gated (or under the floor)",
    not_measured: "this metric was not measured",
    ok: "this metric is within its threshold",
  };

  // The class of record k's marker on one metric's chart: that metric's own verdict, so a
  // record that regressed on latency is no regression on the memory chart. A record not
  // compared on the metric: a plain mark when it was compared on others, else its status
  // (CALIBRATION_NEEDED, RECIPE_MISMATCH, INFRA_ERROR). A document written before verdicts
  // existed: the record's status, as then.
  pv.markerClass = function (status, verdicts, k) {
    if (!verdicts) return pv.statusClass(status);
    var verdict = verdicts[k];
    if (verdict !== null) return VERDICT_CLASS[verdict];
    return COMPARED[status] ? "st-pass" : pv.statusClass(status);
  };

  pv.KIND_BADGES = {
    legacy_v1: { text: "legacy v1: records without the cohort identity", className: "badge-legacy" },
    invalid_v2: { text: "invalid v2: the cohort identity is incomplete", className: "badge-invalid" },
  };

  pv.kindText = function (kind) {
    if (kind === "legacy_v1") return "legacy v1";
    if (kind === "invalid_v2") return "invalid v2";
    return pv.text(kind);
  };

  // The writer's form, "2026-12-02T10:00:00Z" (a fraction of a second when it is not zero),
  // by integer arithmetic: Date.parse (or Date.UTC) of 100,000 strings costs more than the
  // rest of the check. Other forms with a zone ("+09:00") go to Date.parse; a time without
  // a zone is not an instant and is refused.
  var ZONED = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;
  var DAY_MS = 86400000;

  function digits(text, from, to) {
    var n = 0;
    for (var i = from; i < to; i++) {
      var c = text.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return NaN;
      n = n * 10 + c;
    }
    return n;
  }

  // Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
  function daysFromCivil(y, m, d) {
    y -= m <= 2 ? 1 : 0;
    var era = Math.floor(y / 400);
    var yoe = y - era * 400;
    var doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
    return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
  }

  // Milliseconds of a fraction ".5" (text[from] is the dot, text[to] the "Z"), or NaN.
  function fraction(text, from, to) {
    if (text.charCodeAt(from) !== 46 || to - from < 2 || to - from > 10) return NaN;
    var value = digits(text, from + 1, to);
    return (value * 1000) / Math.pow(10, to - from - 1);
  }

  // The day of the last timestamp read, as yyyymmdd, and its milliseconds: records of a
  // cohort come in time order, so most share the day of the one before.
  var cachedDate = -1;
  var cachedDayMs = 0;

  // "2026-12-02T10:00:00Z", the writer's form without a fraction and nearly every timestamp
  // of a store, read in one function with no call per field: the first pass over 100,000 of
  // them runs before the script engine has compiled it, where each call costs more than the
  // digits it reads. NaN for any other text (pv.parseInstant reads the rest).
  function wholeSecondUtc(s) {
    if (s.length !== 20 || s.charCodeAt(19) !== 90 || s.charCodeAt(10) !== 84 || s.charCodeAt(4) !== 45 ||
        s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return NaN;
    var y1 = s.charCodeAt(0) - 48, y2 = s.charCodeAt(1) - 48, y3 = s.charCodeAt(2) - 48, y4 = s.charCodeAt(3) - 48;
    var mo1 = s.charCodeAt(5) - 48, mo2 = s.charCodeAt(6) - 48, d1 = s.charCodeAt(8) - 48, d2 = s.charCodeAt(9) - 48;
    var h1 = s.charCodeAt(11) - 48, h2 = s.charCodeAt(12) - 48, mi1 = s.charCodeAt(14) - 48, mi2 = s.charCodeAt(15) - 48;
    var s1 = s.charCodeAt(17) - 48, s2 = s.charCodeAt(18) - 48;
    // A character below "0" makes the or negative; one above "9" is caught one by one.
    if ((y1 | y2 | y3 | y4 | mo1 | mo2 | d1 | d2 | h1 | h2 | mi1 | mi2 | s1 | s2) < 0 || y1 > 9 || y2 > 9 || y3 > 9 || y4 > 9 ||
        mo1 > 9 || mo2 > 9 || d1 > 9 || d2 > 9 || h1 > 9 || h2 > 9 || mi1 > 9 || mi2 > 9 || s1 > 9 || s2 > 9) return NaN;
    var year = y1 * 1000 + y2 * 100 + y3 * 10 + y4;
    var month = mo1 * 10 + mo2;
    var day = d1 * 10 + d2;
    var hour = h1 * 10 + h2;
    var minute = mi1 * 10 + mi2;
    var second = s1 * 10 + s2;
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return NaN;
    var date = year * 10000 + month * 100 + day;
    if (date !== cachedDate) {
      cachedDayMs = daysFromCivil(year, month, day) * DAY_MS;
      cachedDate = date;
    }
    return cachedDayMs + hour * 3600000 + minute * 60000 + second * 1000;
  }

  pv.parseInstant = function (text) {
    if (typeof text !== "string") return NaN;
    var n = text.length;
    if (n >= 20 && text.charCodeAt(n - 1) === 90 && text.charCodeAt(10) === 84 &&
        text.charCodeAt(4) === 45 && text.charCodeAt(7) === 45 && text.charCodeAt(13) === 58 && text.charCodeAt(16) === 58) {
      var month = digits(text, 5, 7);
      var day = digits(text, 8, 10);
      var hour = digits(text, 11, 13);
      var minute = digits(text, 14, 16);
      var second = digits(text, 17, 19);
      var ms = n === 20 ? 0 : fraction(text, 19, n - 1);
      if (month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 59 && ms >= 0) {
        return daysFromCivil(digits(text, 0, 4), month, day) * DAY_MS + hour * 3600000 + minute * 60000 + second * 1000 + ms;
      }
      return NaN;
    }
    return ZONED.test(text) ? Date.parse(text) : NaN;
  };

  // Builds the model of a store.json document, or throws a DataError that names `file`
  // (data/store.js or data/store.json) and what is wrong with it.
  pv.storeModel = function (doc, file) {
    function fail(detail) {
      throw new pv.DataError(file + " cannot be read: it is not a valid store view", detail);
    }
    if (!doc || typeof doc !== "object" || Array.isArray(doc)) fail("The document is not a JSON object.");
    if (doc.kind !== KIND) {
      fail(doc.kind === undefined ? 'kind is missing; a store view has kind "' + KIND + '".'
        : 'kind is "' + pv.text(doc.kind) + '", not "' + KIND + '".');
    }
    var version = doc.schema_version;
    if (typeof version !== "number" || Math.floor(version) !== version) fail("schema_version is missing.");
    if (version > KNOWN_SCHEMA_VERSION) {
      throw new pv.DataError(
        file + " is newer than this viewer",
        "It has schema_version " + version + "; this viewer reads store.json schema_version " +
          KNOWN_SCHEMA_VERSION + " only. Use the viewer of the perfgate that wrote the file."
      );
    }
    if (!Array.isArray(doc.cohorts)) fail("cohorts is missing or not an array.");
    var model = {
      doc: doc,
      file: file,
      cohorts: [],
      byId: new Map(),
      sources: [],
      statuses: [],
      recordCount: 0,
      unplaced: unplacedOf(doc, fail),
    };
    var sources = new Map();
    var statuses = new Map();
    doc.cohorts.forEach(function (cohort, i) {
      var info = cohortInfo(cohort, i, fail);
      if (model.byId.has(cohort.id)) fail("cohorts[" + i + "].id repeats the id of an earlier cohort.");
      model.byId.set(cohort.id, info);
      model.cohorts.push(info);
      model.recordCount += info.n;
      info.sourceCounts.forEach(function (count, value) { sources.set(value, (sources.get(value) || 0) + count); });
      info.statusCounts.forEach(function (count, value) { statuses.set(value, (statuses.get(value) || 0) + count); });
    });
    model.sources = Array.from(sources.keys()).sort();
    model.statuses = pv.orderStatuses(Array.from(statuses.keys()));
    return model;
  };

  pv.orderStatuses = function (list) {
    return list.slice().sort(function (a, b) {
      var ia = pv.KNOWN_STATUSES.indexOf(a);
      var ib = pv.KNOWN_STATUSES.indexOf(b);
      if (ia < 0) ia = pv.KNOWN_STATUSES.length;
      if (ib < 0) ib = pv.KNOWN_STATUSES.length;
      return ia - ib || (a < b ? -1 : a > b ? 1 : 0);
    });
  };

  function count(map, value, times) {
    var key = typeof value === "string" ? value : pv.text(value);
    map.set(key, (map.get(key) || 0) + (times || 1));
  }

  // How many records hold each text of a column: from the dictionary's codes when the
  // column came as one (a number per record, not a Map lookup), else from the texts.
  function tally(column, dictionary) {
    var map = new Map();
    if (!dictionary) {
      for (var k = 0; k < column.length; k++) count(map, column[k]);
      return map;
    }
    var codes = dictionary.codes;
    var per = new Float64Array(dictionary.values.length);
    for (var j = 0; j < codes.length; j++) per[codes[j]]++;
    dictionary.values.forEach(function (value, i) {
      if (per[i]) count(map, value, per[i]);
    });
    return map;
  }

  // A column may come as a dictionary, {"codes": [index per record], "values": [...distinct]}:
  // repeated texts (statuses, reasons, run sources) then cost a few bytes per record, and the
  // browser parses a fraction of the text (docs/store-json.md). The writer sends benchmark,
  // branch, run_source, comparison_status, comparison_reason and baseline_status so; any
  // column is read either way.
  function isDictionary(column) {
    return column !== null && typeof column === "object" && !Array.isArray(column);
  }

  // The dictionary `column` as a plain array of n entries; `where` names it in a failure.
  function expand(column, where, n, fail) {
    var values = column.values;
    var codes = column.codes;
    if (!Array.isArray(values) || !Array.isArray(codes)) {
      fail(where + " is neither an array nor a dictionary {\"codes\": [...], \"values\": [...]}.");
    }
    if (codes.length !== n) fail(where + ".codes does not have one entry per record.");
    var size = values.length;
    var out = new Array(n);
    for (var k = 0; k < n; k++) {
      var code = codes[k];
      // One test for the usual case: a whole number in range (NaN and fractions fail `| 0`).
      if (!(typeof code === "number" && code >= 0 && code < size && (code | 0) === code)) {
        fail(where + ".codes[" + k + "] is " + JSON.stringify(code) + ", not an index into " + where.split(".").pop() +
          ".values (" + (size ? "a whole number from 0 to " + (size - 1) : "which is empty") + ").");
      }
      out[k] = values[code];
    }
    return out;
  }

  // unplaced_records: the records the writer could not place on a time axis (their
  // timestamp is not an instant), each {benchmark, record, timestamp}; shown as a list.
  function unplacedOf(doc, fail) {
    var list = doc.unplaced_records;
    if (list === undefined || list === null) return [];
    if (!Array.isArray(list)) fail("unplaced_records is not an array.");
    return list.map(function (entry, i) {
      if (!entry || typeof entry !== "object" || Array.isArray(entry)) fail("unplaced_records[" + i + "] is not an object.");
      return { benchmark: entry.benchmark, record: entry.record, timestamp: entry.timestamp };
    });
  }


  // metrics[].changes: the change points of the metric's series (docs/store-json.md),
  // checked here so that the chart can draw them as they come. A document written before
  // the field existed has none, which reads as []. `at` names the metric in a failure.
  function changesOf(metric, at, n, fail) {
    var list = metric.changes;
    if (list === undefined) return [];
    if (!Array.isArray(list)) fail(at + ".changes is not an array.");
    return list.map(function (change, c) {
      pv.checkChange(change, at + ".changes[" + c + "]", n, "record", "cohort", fail);
      return {
        index: change.index,
        before: change.before,
        after: change.after,
        relative_change: change.relative_change,
        worse: change.worse,
        p_value: change.p_value,
      };
    });
  }

  // metrics[].verdicts: a column (or dictionary) of one of METRIC_VERDICTS or null per
  // record, expanded in place; absent in documents written before it (then null).
  function verdictsOf(metric, at, n, fail) {
    var column = metric.verdicts;
    if (column === undefined || column === null) {
      metric.verdicts = null;
      return;
    }
    if (isDictionary(column)) column = expand(column, at + ".verdicts", n, fail);
    if (!Array.isArray(column) || column.length !== n) fail(at + ".verdicts does not have one entry per record.");
    for (var k = 0; k < n; k++) {
      if (column[k] !== null && pv.METRIC_VERDICTS.indexOf(column[k]) < 0) {
        fail(at + ".verdicts[" + k + "] is " + JSON.stringify(column[k]) + ", not one of " + pv.METRIC_VERDICTS.join(", ") + " or null.");
      }
    }
    metric.verdicts = column;
  }

  var SPREAD_FIELDS = ["min", "median", "max"];

  // metrics[].spread: per record, the min, median and max of its runs' samples (null where
  // it has fewer than two), checked here so that the chart draws the band as it comes.
  // Absent when no record has samples (then null).
  function spreadOf(metric, at, n, fail) {
    var spread = metric.spread;
    if (spread === undefined || spread === null) {
      metric.spread = null;
      return;
    }
    if (typeof spread !== "object" || Array.isArray(spread)) fail(at + ".spread is not an object {\"min\", \"median\", \"max\"}.");
    SPREAD_FIELDS.forEach(function (field) {
      if (!Array.isArray(spread[field]) || spread[field].length !== n) fail(at + ".spread." + field + " does not have one entry per record.");
    });
    for (var k = 0; k < n; k++) {
      var lo = spread.min[k];
      var mid = spread.median[k];
      var hi = spread.max[k];
      if (lo === null && mid === null && hi === null) continue;
      SPREAD_FIELDS.forEach(function (field) {
        var v = spread[field][k];
        if (typeof v !== "number" || !isFinite(v)) fail(at + ".spread." + field + "[" + k + "] is " + JSON.stringify(v) + ", not a number (all three are null for a record without samples).");
      });
      if (!(lo <= mid && mid <= hi)) fail(at + ".spread at record " + k + " is not ordered: min " + lo + ", median " + mid + ", max " + hi + ".");
    }
  }

  // cohorts[].details (docs/store-json.md, "Details apart"): which file holds the cohort's
  // details, and the commit and record id of the records named before it is loaded.
  function detailsOf(details, at, n, fail) {
    if (!details || typeof details !== "object" || Array.isArray(details)) fail(at + " is not an object {\"file\", \"rows\", \"commit\", \"record\"}.");
    var file = details.file;
    if (!(typeof file === "number" && file >= 1 && file <= MAX_DETAILS_FILES && Math.floor(file) === file)) {
      fail(at + ".file is " + JSON.stringify(file) + ", not the number of a details file (a whole number from 1 to " + MAX_DETAILS_FILES + ").");
    }
    var rows = details.rows;
    if (!Array.isArray(rows)) fail(at + ".rows is not an array.");
    for (var j = 0; j < rows.length; j++) {
      var row = rows[j];
      if (!(typeof row === "number" && row >= 0 && row < n && Math.floor(row) === row) || (j && row <= rows[j - 1])) {
        fail(at + ".rows[" + j + "] is " + JSON.stringify(row) + ", not an increasing index of a record (0 to " + (n - 1) + ").");
      }
    }
    ["commit", "record"].forEach(function (key) {
      var column = details[key];
      if (!Array.isArray(column) || column.length !== rows.length) fail(at + "." + key + " does not have one entry per row.");
      for (var k = 0; k < column.length; k++) {
        if (typeof column[k] !== "string" && !(key === "commit" && column[k] === null)) {
          fail(at + "." + key + "[" + k + "] is " + JSON.stringify(column[k]) + ", not " + (key === "commit" ? "a commit or null." : "a record id."));
        }
      }
    });
    return { file: file, rows: rows, commit: details.commit, record: details.record, loaded: false, promise: null };
  }

  // A column of n entries with `values` at `rows`, null elsewhere.
  function namedColumn(rows, values, n) {
    var column = new Array(n).fill(null);
    for (var j = 0; j < rows.length; j++) column[rows[j]] = values[j];
    return column;
  }

  // Merges a cohort's details document `doc` (from `file`) into its columns and metrics,
  // after checking it belongs to the cohort; throws a DataError naming `file` otherwise.
  pv.mergeCohortDetails = function (info, doc, file) {
    function fail(detail) {
      throw new pv.DataError(file + " cannot be read: it is not this cohort's details", detail + " Write the site again with perfgate report --format html.");
    }
    if (!doc || typeof doc !== "object" || Array.isArray(doc)) fail("The document is not a JSON object.");
    if (doc.kind !== DETAILS_KIND) fail('kind is ' + JSON.stringify(doc.kind) + ', not "' + DETAILS_KIND + '".');
    if (doc.id !== info.id) fail("It holds the details of the cohort " + pv.text(doc.id) + ", not of " + info.id + ": the site's files were mixed.");
    var n = info.n;
    var records = doc.records;
    if (!records || typeof records !== "object" || Array.isArray(records)) fail("records is missing.");
    var columns = {};
    pv.DETAIL_COLUMNS.forEach(function (column) {
      var values = isDictionary(records[column]) ? expand(records[column], "records." + column, n, fail) : records[column];
      if (!Array.isArray(values) || values.length !== n) fail("records." + column + " does not have one entry per record.");
      columns[column] = values;
    });
    var apart = info.apart;
    apart.rows.forEach(function (row, j) {
      if (columns.record[row] !== apart.record[j] || columns.commit[row] !== apart.commit[j]) {
        fail("Its record " + row + " (" + pv.text(columns.record[row]) + ") is not the one data/store.js names there (" + apart.record[j] + "): the site's files were mixed.");
      }
    });
    var metrics = doc.metrics === undefined ? [] : doc.metrics;
    if (!Array.isArray(metrics)) fail("metrics is not an array.");
    var spreads = metrics.map(function (entry, m) {
      var at = "metrics[" + m + "]";
      if (!entry || typeof entry !== "object" || typeof entry.name !== "string") fail(at + " has no name.");
      var target = info.metrics.filter(function (metric) { return metric.name === entry.name; })[0];
      if (!target) fail(at + " is " + pv.text(entry.name) + ", a metric the cohort does not have.");
      var checked = { spread: entry.spread };
      spreadOf(checked, at, n, fail);
      return [target, checked.spread];
    });
    // Only once every check passed: a file that fails leaves the cohort as it was.
    pv.DETAIL_COLUMNS.forEach(function (column) { info.cohort.records[column] = columns[column]; });
    spreads.forEach(function (pair) { pair[0].spread = pair[1]; });
    apart.loaded = true;
  };

  function cohortInfo(cohort, i, fail) {
    var where = "cohorts[" + i + "].";
    if (!cohort || typeof cohort !== "object") fail("cohorts[" + i + "] is not an object.");
    if (typeof cohort.id !== "string" || !cohort.id) fail(where + "id is missing.");
    if (typeof cohort.label !== "string") fail(where + "label is missing.");
    var records = cohort.records;
    if (!records || typeof records !== "object") fail(where + "records is missing.");
    var n = Array.isArray(records.timestamp) ? records.timestamp.length : -1;
    if (n < 1) fail(where + "records.timestamp is missing or empty (a cohort has at least one record).");
    var apart = cohort.details === undefined ? null : detailsOf(cohort.details, where + "details", n, fail);
    var dictionaries = {};
    var columns = apart ? FIRST_COLUMNS : pv.STORE_COLUMNS;
    columns.forEach(function (column) {
      if (!isDictionary(records[column])) return;
      dictionaries[column] = records[column];
      records[column] = expand(records[column], where + "records." + column, n, fail);
    });
    columns.forEach(function (column) {
      if (!Array.isArray(records[column]) || records[column].length !== n) {
        fail(where + "records." + column + " does not have one entry per record.");
      }
    });
    if (apart) {
      // Until the details are loaded, the commit and record id of the records "what
      // changed" names; the others are not known yet.
      records.commit = namedColumn(apart.rows, apart.commit, n);
      records.record = namedColumn(apart.rows, apart.record, n);
    }
    var times = new Float64Array(n);
    var stamps = records.timestamp;
    for (var k = 0; k < n; k++) {
      var stamp = stamps[k];
      var t = typeof stamp === "string" ? wholeSecondUtc(stamp) : NaN;
      if (t !== t) t = pv.parseInstant(stamp);
      if (t !== t) fail(where + "records.timestamp[" + k + "] is not a timestamp with a time zone: " + pv.text(stamps[k]));
      if (k && t < times[k - 1]) fail(where + "records.timestamp[" + k + "] is older than the record before it (records are oldest first).");
      times[k] = t;
    }
    var metrics = Array.isArray(cohort.metrics) ? cohort.metrics : null;
    if (!metrics) fail(where + "metrics is missing or not an array.");
    var changes = metrics.map(function (metric, m) {
      var at = where + "metrics[" + m + "]";
      if (!metric || typeof metric !== "object" || typeof metric.name !== "string") fail(at + " has no name.");
      var values = metric.values;
      if (!Array.isArray(values) || values.length !== n) fail(at + ".values does not have one entry per record.");
      for (var j = 0; j < n; j++) {
        var v = values[j];
        if (v !== null && (typeof v !== "number" || !isFinite(v))) fail(at + ".values[" + j + "] is neither a number nor null.");
      }
      verdictsOf(metric, at, n, fail);
      spreadOf(metric, at, n, fail);
      return changesOf(metric, at, n, fail);
    });
    var skipped = cohort.skipped_metrics === undefined ? [] : cohort.skipped_metrics;
    if (!Array.isArray(skipped)) fail(where + "skipped_metrics is not an array.");
    var sourceCounts = tally(records.run_source, dictionaries.run_source);
    var statusCounts = tally(records.comparison_status, dictionaries.comparison_status);
    var benchmarks = Array.isArray(cohort.benchmarks) ? cohort.benchmarks : [];
    return {
      cohort: cohort,
      id: cohort.id,
      index: i,
      n: n,
      // {file, rows, commit, record, loaded, promise} for a cohort whose details are apart
      // (store-details.js loads them), else null.
      apart: apart,
      times: times,
      metrics: metrics,
      // The checked change points of each metric, in the order of `metrics`.
      changes: changes,
      skipped: skipped,
      sourceCounts: sourceCounts,
      statusCounts: statusCounts,
      // What the text filter searches, lower-cased once.
      haystack: (cohort.label + " " + benchmarks.map(pv.text).join(" ") + " " + cohort.id).toLowerCase(),
    };
  }

  // Whether record k passes the run_source and status filters.
  pv.recordMatches = function (info, k, state) {
    var records = info.cohort.records;
    if (state.source && pv.text(records.run_source[k]) !== state.source) return false;
    if (state.status && pv.text(records.comparison_status[k]) !== state.status) return false;
    return true;
  };

  // A cohort passes the filters when the text matches it and at least one of its records
  // has the chosen run source and status (one record having both).
  pv.cohortMatches = function (info, state) {
    var query = state.cq.trim().toLowerCase();
    if (query && !query.split(/\s+/).every(function (word) { return info.haystack.indexOf(word) >= 0; })) return false;
    if (!state.source && !state.status) return true;
    if (state.source && !info.sourceCounts.has(state.source)) return false;
    if (state.status && !info.statusCounts.has(state.status)) return false;
    if (!state.source || !state.status) return true;
    for (var k = 0; k < info.n; k++) if (pv.recordMatches(info, k, state)) return true;
    return false;
  };

  // Indices of the records that pass the filters, newest first.
  pv.matchingRecords = function (info, state) {
    var out = [];
    for (var k = info.n - 1; k >= 0; k--) if (pv.recordMatches(info, k, state)) out.push(k);
    return out;
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
