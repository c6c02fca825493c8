// A large store's site writes each cohort's details apart (docs/store-json.md, "Details
// apart"): data/cohorts/N.js sets window.PERFGATE_COHORT_N to the JSON text of the details
// of the cohort whose details.file is N (its records' commits, branches, attempts, ids and
// the runs' spread). The first screen needs none of it, so the page is ready sooner; a
// cohort's file is loaded when the cohort is opened, once.
(function (pv) {
  "use strict";

  pv.cohortDetailsFile = function (info) {
    return "data/cohorts/" + info.apart.file + ".js";
  };

  // Whether the cohort's columns are all there: written whole, or its details loaded.
  pv.detailsLoaded = function (info) {
    return !info.apart || info.apart.loaded;
  };

  // Loads and merges the cohort's details; resolves when they are in, rejects with a
  // DataError that names the file. The first call starts the load; later calls share it.
  pv.loadCohortDetails = function (info) {
    var apart = info.apart;
    if (!apart || apart.loaded) return Promise.resolve();
    if (apart.promise) return apart.promise;
    var file = pv.cohortDetailsFile(info);
    var global = "PERFGATE_COHORT_" + apart.file;
    apart.promise = pv.loadScript(file).then(function (outcome) {
      var text = window[global];
      // The text is no longer needed once parsed: each file is loaded once.
      window[global] = undefined;
      if (typeof text !== "string") {
        throw new pv.DataError(file + " cannot be read",
          (outcome === "failed" ? file + " is missing or could not be loaded" : file + " was loaded but did not set window." + global) +
            "; data/store.js names it for the cohort " + info.id + ". Write the site again with perfgate report --format html.");
      }
      var doc;
      try {
        doc = JSON.parse(text);
      } catch (e) {
        throw new pv.DataError(file + " is not valid JSON", String(e.message) + ". Write the site again with perfgate report --format html.");
      }
      pv.mergeCohortDetails(info, doc, file);
      // When the first cohort's details were in: on a cohort's link the page waits for them.
      if (!(window.PERFGATE_TIMING && window.PERFGATE_TIMING.storeDetailsMs)) pv.phase("storeDetailsMs");
    });
    return apart.promise;
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
