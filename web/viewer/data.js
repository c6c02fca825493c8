// Loading the data documents (history.json and store.json), then checking history.json
// (docs/history-json.md) and the lookups the history views need.
(function (pv) {
  "use strict";

  var KNOWN_SCHEMA_VERSION = 1;

  function DataError(title, detail) {
    this.title = title;
    this.detail = detail;
  }
  pv.DataError = DataError;

  // The document from a data script: an object as it is, JSON text parsed.
  function parsedText(spec, embedded) {
    if (typeof embedded !== "string") return { status: "present", doc: embedded, from: spec.js };
    try {
      return { status: "present", doc: JSON.parse(embedded), from: spec.js };
    } catch (e) {
      return { status: "broken", error: new DataError(spec.js + " is not valid JSON", String(e.message)) };
    }
  }

  // The two documents the page shows, each from its data script or its JSON file.
  pv.SOURCES = [
    { key: "store", what: "store", global: "PERFGATE_STORE", js: "data/store.js", json: "data/store.json" },
    { key: "history", what: "history", global: "PERFGATE_HISTORY", js: "data/history.js", json: "data/history.json" },
  ];

  // The most parts a document may be split into (perfgate writes one per 2 MiB of JSON text).
  var MAX_PARTS = 1000;

  function validCount(count) {
    return typeof count === "number" && count === Math.floor(count) && count >= 2 && count <= MAX_PARTS;
  }

  // "data/store.js", 3 -> "data/store.3.js".
  function partFile(spec, number) {
    return spec.js.replace(/\.js$/, "." + number + ".js");
  }

  // A large document is written in parts, because a browser reads several smaller scripts
  // side by side in much less time than one large one (docs/dashboard.md): data/store.js
  // sets PERFGATE_STORE_PARTS (their count), data/store.1.js PERFGATE_STORE_1 (the JSON
  // text's first part), data/store.2.js PERFGATE_STORE_2, and so on. The texts joined are
  // the document's JSON text.
  function loadParts(spec) {
    var count = window[spec.global + "_PARTS"];
    var incomplete = function (detail) {
      return { status: "broken", error: new DataError(spec.js + " cannot be read whole", detail + " Write the site again with perfgate report --format html.") };
    };
    if (!validCount(count)) {
      return Promise.resolve(incomplete(spec.js + " says the document has " + String(count) + " parts; a count from 2 to " + MAX_PARTS + " was expected."));
    }
    // Started when this script ran (below), on the same count.
    return partLoads[spec.global].then(function (outcomes) {
      var texts = [];
      for (var i = 1; i <= count; i++) {
        var text = window[spec.global + "_" + i];
        if (typeof text !== "string") {
          var file = partFile(spec, i);
          var failed = outcomes[i - 1] === "failed";
          return incomplete(file + (failed ? " is missing or could not be loaded" : " does not hold part " + i + " of the document") +
            " (" + spec.js + " says it has " + count + " parts).");
        }
        texts.push(text);
      }
      // The parts' texts are no longer needed once joined: release them before parsing.
      for (var j = 1; j <= count; j++) window[spec.global + "_" + j] = undefined;
      return parsedText(spec, texts.join(""));
    });
  }

  // Loads one script beside the page; resolves to "loaded" or "failed", never rejects.
  pv.loadScript = function (src) {
    return new Promise(function (resolve) {
      var script = document.createElement("script");
      script.onload = function () {
        resolve("loaded");
      };
      script.onerror = function () {
        resolve("failed");
      };
      script.src = src;
      document.head.appendChild(script);
    });
  };

  // Loads parts 1 to `count` side by side; resolves to their outcomes.
  function startParts(spec, count) {
    var loads = [];
    for (var number = 1; number <= count; number++) loads.push(pv.loadScript(partFile(spec, number)));
    return Promise.all(loads);
  }

  // The parts start loading as soon as this script runs, while the rest of the viewer
  // starts: it comes first in bundle.js, which index.html loads right after data/store.js
  // and data/history.js.
  var partLoads = {};
  pv.SOURCES.forEach(function (spec) {
    var count = window[spec.global + "_PARTS"];
    if (window[spec.global] === undefined && validCount(count)) partLoads[spec.global] = startParts(spec, count);
  });

  // From disk (file://) fetch is blocked, so a page built for disk carries each document in
  // a script (data/history.js sets window.PERFGATE_HISTORY, data/store.js
  // window.PERFGATE_STORE); a web server can serve data/history.json and data/store.json
  // instead. Both URLs are relative so that the viewer works under any sub-path.
  //
  // spec: {global, js, json} (the global's name and the two relative URLs). Resolves, never
  // rejects, to one of
  //   {status: "present", doc, from}   from: the file the document came from
  //   {status: "absent", looked}       looked: the files tried, none there
  //   {status: "broken", error}        error: a DataError naming the file and the fault
  // so that each source is judged on its own: a broken store does not hide a good history.
  pv.loadSource = function (spec) {
    var embedded = window[spec.global];
    if (embedded === undefined && window[spec.global + "_PARTS"] !== undefined) return loadParts(spec);
    if (embedded !== undefined) return Promise.resolve(parsedText(spec, embedded));
    if (pv.dataScripts && pv.dataScripts[spec.js] === "loaded") {
      // The file is there but set nothing: a syntax error stops a script before its
      // assignment, and the browser console has the line.
      return Promise.resolve({
        status: "broken",
        error: new DataError(
          spec.js + " sets no data",
          spec.js + " was loaded but did not set window." + spec.global +
            ": it is not valid JavaScript (the browser console names the line) or was not written by perfgate."
        ),
      });
    }
    if (location.protocol === "file:") return Promise.resolve({ status: "absent", looked: [spec.js] });
    return fetch(spec.json, { credentials: "same-origin" }).then(
      function (response) {
        if (response.status === 404) return { status: "absent", looked: [spec.js, spec.json] };
        if (!response.ok) {
          // perfgate serve says why in {"error": "..."}; any other server, in its own way.
          return response.text().then(function (body) {
            var why = "";
            try {
              var parsed = JSON.parse(body);
              if (parsed && typeof parsed.error === "string") why = ": " + parsed.error;
            } catch (e) {
              why = "";
            }
            return { status: "broken", error: new DataError(spec.json + " could not be loaded", "The server answered HTTP " + response.status + why + ".") };
          });
        }
        return response.json().then(
          function (doc) {
            return { status: "present", doc: doc, from: spec.json };
          },
          function (e) {
            return { status: "broken", error: new DataError(spec.json + " is not valid JSON", String(e.message)) };
          }
        );
      },
      function (e) {
        return { status: "broken", error: new DataError(spec.json + " could not be loaded", String(e.message)) };
      }
    );
  };

  function fail(detail) {
    throw new DataError("This history.json cannot be read", detail);
  }

  function requireArray(object, key, where) {
    if (!Array.isArray(object[key])) fail(where + key + " is missing or not an array.");
    return object[key];
  }

  var POINT_COLUMNS = ["commit", "median", "mad", "min", "max", "attempt", "flag"];

  // series[].changes: the change points of the series' medians (docs/history-json.md),
  // checked here so that the chart can draw them as they come: an index outside the points
  // would put a marker on no commit. A document written before the field existed has none
  // (pv.seriesChanges reads that as []). `at` names the series by position and id, since a
  // reader looks the id up in the file.
  function checkChanges(series, at, count) {
    var list = series.changes;
    if (list === undefined) return;
    if (!Array.isArray(list)) fail(at + "changes is not an array.");
    list.forEach(function (change, c) {
      pv.checkChange(change, at + "changes[" + c + "]", count, "point", "series", fail);
    });
  }

  // The checked change points of a series, oldest first; [] where the document has none.
  pv.seriesChanges = function (series) {
    return Array.isArray(series.changes) ? series.changes : [];
  };

  function checkSeries(series, i, commitCount, attemptCount) {
    var where = "series[" + i + "].";
    if (!series || typeof series !== "object") fail(where.slice(0, -1) + " is not an object.");
    if (typeof series.id !== "string") fail(where + "id is missing.");
    var points = series.points;
    if (!points || typeof points !== "object") fail(where + "points is missing.");
    var count = Array.isArray(points.commit) ? points.commit.length : -1;
    if (count < 1) fail(where + "points.commit is missing or empty (a series has at least one point).");
    POINT_COLUMNS.forEach(function (column) {
      if (!Array.isArray(points[column]) || points[column].length !== count) {
        fail(where + "points." + column + " does not have one entry per point.");
      }
    });
    var commits = points.commit;
    var attempts = points.attempt;
    for (var k = 0; k < count; k++) {
      var c = commits[k];
      if (!(c >= 0 && c < commitCount) || (k > 0 && c <= commits[k - 1])) {
        fail(where + "points.commit[" + k + "] is not an increasing index into commits.");
      }
      if (!(attempts[k] >= 0 && attempts[k] < attemptCount)) {
        fail(where + "points.attempt[" + k + "] is not an index into attempts.");
      }
    }
    checkChanges(series, "series[" + i + "] (" + series.id + "): ", count);
  }

  // Checks what the views rely on, so that a damaged file gives a message instead of a
  // broken page. Keys the viewer does not know are ignored, as version 1 allows.
  pv.checkHistory = function (doc) {
    if (!doc || typeof doc !== "object" || Array.isArray(doc)) fail("The document is not a JSON object.");
    if (doc.kind !== undefined && doc.kind !== "perfgate-history") {
      fail('kind is "' + pv.text(doc.kind) + '", not "perfgate-history".');
    }
    var version = doc.schema_version;
    if (typeof version !== "number" || Math.floor(version) !== version) fail("schema_version is missing.");
    if (version > KNOWN_SCHEMA_VERSION) {
      throw new DataError(
        "This history.json is newer than this viewer",
        "It has schema_version " + version + "; this viewer reads schema_version " +
          KNOWN_SCHEMA_VERSION + " only. Use the viewer of the perfgate that wrote the file."
      );
    }
    var commits = requireArray(doc, "commits", "");
    var attempts = requireArray(doc, "attempts", "");
    var series = requireArray(doc, "series", "");
    commits.forEach(function (commit, i) {
      if (!commit || typeof commit.sha !== "string" || typeof commit.status !== "string") {
        fail("commits[" + i + "] has no sha or status.");
      }
    });
    attempts.forEach(function (attempt, i) {
      if (!attempt || typeof attempt.id !== "string") fail("attempts[" + i + "] has no id.");
    });
    series.forEach(function (s, i) {
      checkSeries(s, i, commits.length, attempts.length);
    });
  };

  // How far the flag at point k of a series was checked by a re-measurement of its two
  // commits (history plan --confirm-flags): "confirmed", "unconfirmed" or "not_remeasured"
  // (also for an export written before flags had a confirmation).
  pv.flagConfirmation = function (model, series, k) {
    var flag = model.flagByPoint.get(series.id + " " + model.commits[series.points.commit[k]].sha);
    var state = flag && flag.confirmation;
    return state === "confirmed" || state === "unconfirmed" ? state : "not_remeasured";
  };

  // The flag classes of each confirmation, for the chart, the sparklines and the legend.
  pv.FLAG_CLASS = { confirmed: "flags flags-confirmed", unconfirmed: "flags flags-unconfirmed", not_remeasured: "flags" };

  // The lookups every view shares, built once: a few passes over commits and flags.
  pv.indexHistory = function (doc) {
    var commits = doc.commits;
    var model = {
      doc: doc,
      commits: commits,
      attempts: doc.attempts,
      series: doc.series,
      rejected: Array.isArray(doc.rejected) ? doc.rejected : [],
      seriesById: new Map(),
      commitIndexBySha: new Map(),
      failedCommits: [],
      missingCommits: [],
      flagByPoint: new Map(),
      confirmedFlags: 0,
      attemptByIdCache: null,
    };
    doc.series.forEach(function (s) {
      model.seriesById.set(s.id, s);
    });
    commits.forEach(function (commit, i) {
      model.commitIndexBySha.set(commit.sha, i);
      if (commit.status === "failed") model.failedCommits.push(i);
      else if (commit.status === "missing") model.missingCommits.push(i);
    });
    (Array.isArray(doc.flags) ? doc.flags : []).forEach(function (flag) {
      model.flagByPoint.set(flag.series + " " + flag.commit, flag);
      if (flag.confirmation === "confirmed") model.confirmedFlags++;
    });
    return model;
  };

  // Attempts by id, built on first use: only the explanations of failed commits need it.
  pv.attemptById = function (model, id) {
    if (!model.attemptByIdCache) {
      model.attemptByIdCache = new Map();
      model.attempts.forEach(function (attempt) {
        model.attemptByIdCache.set(attempt.id, attempt);
      });
    }
    return model.attemptByIdCache.get(id);
  };

  // Index of the point of `series` on commit `commitIndex`, or -1 (binary search: points are
  // in increasing commit order).
  pv.pointAtCommit = function (series, commitIndex) {
    var commits = series.points.commit;
    var lo = 0;
    var hi = commits.length - 1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (commits[mid] === commitIndex) return mid;
      if (commits[mid] < commitIndex) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  };

  // Index of the point of `series` on the commit `sha`, or -1 (not monitored, or no point).
  pv.pointAtSha = function (model, series, sha) {
    var c = model.commitIndexBySha.get(sha);
    return c === undefined ? -1 : pv.pointAtCommit(series, c);
  };

  // Index of the first element of the sorted array `values` that is >= `target`.
  pv.lowerBound = function (values, target) {
    var lo = 0;
    var hi = values.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (values[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  pv.seriesEnvironment = function (series, key) {
    var environment = series.environment;
    if (!environment || typeof environment !== "object") return undefined;
    return environment[key];
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
