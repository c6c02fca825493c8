// The whole view state lives in the URL hash, so that a link shows what its author saw and
// a reload restores it. The commit history's keys and the store's keys share the hash
// (their names differ), so one link holds both views of a page that shows both:
//   history: #series=s-…&mode=ratio&ref=<sha>&q=sort&label=stable&range=all&attempt=<id>&…
//            &point=<sha> (a point's permalink)
//   store:   #cohort=<cohort id>&cq=sort&source=pr&status=REGRESSION&view=overview&rows=all
//            &record=<record id>&metric=latency (a point's permalink)
//   both:    #recent=7d&cards=changed (the window of "what changed", the cards shown)
(function (pv) {
  "use strict";

  var DEFAULTS = {
    series: "",
    mode: "absolute", // or "ratio"
    ref: "", // SHA of the reference commit in ratio mode; "" = the series' first point
    q: "", // text filter on case and metric
    label: "all", // "all", "stable" or "diagnostic"
    range: "all", // x axis: "all" monitored commits, or the "series" own range
    points: 0, // page of the points table
    gaps: 0, // page of the commits-without-a-point table
    failed: 0, // page of the failed attempts table
    rejected: 0, // page of the rejected files table
    attempt: "", // id of the attempt shown in full (#attempt=<id>: a permalink to any attempt)
    // The store views (docs/store-json.md):
    cohort: "", // id of the chosen cohort; "" = the first that passes the filters
    cq: "", // text filter on cohort label, benchmark and id
    source: "", // run_source filter: cohorts with a record from this source; "" = any
    status: "", // comparison_status filter, likewise; "" = any
    view: "cohort", // the store section shown: the chosen "cohort", or the "overview"
    rows: "newest", // records table: the "newest" rows, or "all"
    record: "", // permalink to a record's point: its record id (with cohort, and metric)
    metric: "", // the chart of that point; "" = the first metric the record has
    // Both parts:
    recent: "30d", // the window of "what changed" and of the cards' recent change
    cards: "all", // the cards shown: "all", or only those that "changed" in the window
    // The history again:
    point: "", // permalink to a point of the series: the SHA of its commit
  };
  var PAGE_KEYS = ["points", "gaps", "failed", "rejected"];
  var CHOICES = {
    mode: ["absolute", "ratio"],
    label: ["all", "stable", "diagnostic"],
    range: ["all", "series"],
    view: ["cohort", "overview"],
    rows: ["newest", "all"],
    recent: ["7d", "30d", "90d", "all"],
    cards: ["all", "changed"],
  };

  pv.defaultState = function () {
    return Object.assign({}, DEFAULTS);
  };

  pv.readState = function (hash) {
    var state = pv.defaultState();
    var params = new URLSearchParams(String(hash || "").replace(/^#/, ""));
    ["series", "ref", "q", "attempt", "cohort", "cq", "source", "status", "record", "metric", "point"].forEach(function (key) {
      if (params.has(key)) state[key] = params.get(key);
    });
    Object.keys(CHOICES).forEach(function (key) {
      var value = params.get(key);
      if (CHOICES[key].indexOf(value) >= 0) state[key] = value;
    });
    PAGE_KEYS.forEach(function (key) {
      var page = Number(params.get(key));
      if (Number.isInteger(page) && page > 0) state[key] = page;
    });
    return state;
  };

  pv.stateHash = function (state) {
    var params = new URLSearchParams();
    Object.keys(DEFAULTS).forEach(function (key) {
      if (state[key] !== DEFAULTS[key]) params.set(key, String(state[key]));
    });
    var text = params.toString();
    return text ? "#" + text : "";
  };

  // replaceState, not a new history entry per click: Back leaves the viewer instead of
  // replaying every filter keystroke.
  pv.writeState = function (state) {
    var hash = pv.stateHash(state);
    if (hash === location.hash || (hash === "" && location.hash === "")) return;
    history.replaceState(null, "", hash || location.pathname + location.search);
  };

  pv.resetPages = function (state) {
    PAGE_KEYS.forEach(function (key) {
      state[key] = 0;
    });
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
