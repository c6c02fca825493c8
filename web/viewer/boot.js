// Runs before the data scripts: notes whether data/store.js and data/history.js loaded, so
// that the viewer can tell an absent file (it failed to load: nothing to show) from a
// broken one (it loaded but set no data, e.g. a syntax error), and starts the timings.
(function (pv) {
  "use strict";

  // "data/store.js" -> "loaded" or "failed"; no entry while a script is still pending.
  pv.dataScripts = {};

  function note(event) {
    var target = event.target;
    if (!target || target.tagName !== "SCRIPT") return;
    var src = target.getAttribute("src") || "";
    if (src === "data/store.js" || src === "data/history.js") {
      pv.dataScripts[src] = event.type === "load" ? "loaded" : "failed";
    }
  }
  // Capture on the document: load and error events of a script do not bubble, and a load
  // event never reaches window.
  document.addEventListener("load", note, true);
  document.addEventListener("error", note, true);

  // Milliseconds since navigation start at each step of the first render, for the load
  // tests and for anyone asking where the time goes (window.PERFGATE_TIMING).
  pv.phase = function (name) {
    window.PERFGATE_TIMING = window.PERFGATE_TIMING || {};
    window.PERFGATE_TIMING[name] = performance.now();
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
