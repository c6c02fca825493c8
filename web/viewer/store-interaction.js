// Hover and keys on a store chart: the record nearest the pointer (or the focused one) is
// described in a tooltip with every field of the record, all as text.
(function (pv) {
  "use strict";

  var SNAP_PIXELS = 12;

  function line(text, className) {
    return pv.el("div", { class: className }, text);
  }

  // A commit SHA is cut to its first 10 digits; any other text is shown whole, since a cut
  // could hide what makes it odd.
  pv.shortCommit = function (commit) {
    var text = pv.text(commit);
    return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(text) ? text.slice(0, 10) : text;
  };

  // The commit and branch of record k: "commit 9f1c2d3e4f (branch main)".
  pv.recordCommitText = function (records, k) {
    var commit = records.commit[k];
    var branch = records.branch[k];
    var text = commit === null || commit === undefined ? "commit unknown" : "commit " + pv.shortCommit(commit);
    if (branch !== null && branch !== undefined) text += " (branch " + pv.text(branch) + ")";
    return text;
  };

  // The instant in UTC, and the text as recorded when it carries another zone.
  pv.recordTimeText = function (info, k) {
    var recorded = info.cohort.records.timestamp[k];
    var text = pv.instantText(info.times[k]);
    return /Z$/.test(recorded) ? text : text + " (recorded as " + recorded + ")";
  };

  pv.reasonText = function (reason) {
    return reason === "" || reason === null || reason === undefined ? "none" : pv.text(reason);
  };

  // The tooltip's lines for record k in the chart of `metric`.
  pv.recordLines = function (info, metric, k) {
    var records = info.cohort.records;
    var status = records.comparison_status[k];
    // The metric's own verdict, where the document has them (docs/store-json.md).
    var own = !metric.verdicts ? [] : [line("this metric: " + (metric.verdicts[k] !== null ? pv.VERDICT_TEXT[metric.verdicts[k]] : "not compared on it"),
      "status " + pv.markerClass(status, metric.verdicts, k))];
    // Each record's runs, where the document has them (metrics[].spread).
    var display = pv.metricDisplay(metric);
    var spread = metric.spread && metric.spread.min[k] !== null
      ? [line("runs: " + pv.formatIn(metric.spread.min[k], display) + " to " + pv.formatIn(metric.spread.max[k], display) +
        ", median " + pv.formatIn(metric.spread.median[k], display), "spread")]
      : [];
    return [line(pv.text(metric.name) + " " + pv.valueWithExact(metric.values[k], display, metric.unit), "value")].concat(spread, [
      line(pv.recordCommitText(records, k), "mono"),
      line(pv.recordTimeText(info, k)),
      line("run source: " + pv.text(records.run_source[k])),
      line("comparison status: " + pv.text(status), "status " + pv.statusClass(status)),
    ], own, [
      line("reason: " + pv.reasonText(records.comparison_reason[k]), "reason"),
      line("baseline status: " + pv.text(records.baseline_status[k])),
      line("eligible: " + pv.yesNo(records.eligible[k])),
      line("success: " + pv.yesNo(records.success[k])),
      line("benchmark: " + pv.text(records.benchmark[k])),
      line("attempt: " + pv.text(records.attempt[k]), "mono"),
    ]);
  };

  // The index into geo.present of the record nearest (px, py): among those within a few
  // pixels of px the nearest in both directions, else the nearest in time.
  function nearest(geo, px, py) {
    var times = geo.presentTimes;
    var n = times.length;
    if (!n) return -1;
    var i = pv.lowerBound(times, geo.x.invert(px));
    var best = -1;
    var bestDistance = Infinity;
    var values = geo.values;
    function consider(j) {
      var dx = geo.x(times[j]) - px;
      if (Math.abs(dx) > SNAP_PIXELS) return false;
      var dy = geo.y(values[geo.present[j]]) - py;
      var d = dx * dx + dy * dy;
      if (d < bestDistance) {
        bestDistance = d;
        best = j;
      }
      return true;
    }
    for (var left = i - 1; left >= 0 && consider(left); left--);
    for (var right = i; right < n && consider(right); right++);
    if (best >= 0) return best;
    if (i >= n) return n - 1;
    if (i > 0 && px - geo.x(times[i - 1]) <= geo.x(times[i]) - px) return i - 1;
    return i;
  }

  pv.storeChartInteraction = function (ctx, geo, svg, cursor, tooltip, place) {
    geo.values = ctx.metric.values;
    var n = geo.present.length;
    var current = -1; // index into geo.present
    var view = pv.chartCursor(svg, cursor, tooltip, place);
    var hide = view.hide;

    function show(j) {
      current = j;
      var k = geo.present[j];
      tooltip.dataset.record = String(k);
      view.show(geo.x(ctx.info.times[k]), geo.y(geo.values[k]), pv.recordLines(ctx.info, ctx.metric, k));
    }

    svg.addEventListener("mousemove", function (event) {
      var at = view.pointer(event);
      var j = nearest(geo, at.x, at.y);
      if (j >= 0) show(j);
      else hide();
    });
    svg.addEventListener("mouseleave", function () {
      if (document.activeElement !== svg) hide();
    });
    svg.addEventListener("focus", function () {
      if (n) show(current >= 0 ? current : n - 1);
    });
    svg.addEventListener("blur", hide);
    svg.addEventListener("keydown", function (event) {
      if (!n) return;
      var page = Math.max(1, Math.round(n / 10));
      var moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -page, PageDown: page };
      var next = current < 0 ? n - 1 : current;
      if (event.key in moves) next += moves[event.key];
      else if (event.key === "Home") next = 0;
      else if (event.key === "End") next = n - 1;
      else if (event.key === "Escape") {
        hide();
        return;
      } else return;
      event.preventDefault();
      show(Math.min(Math.max(next, 0), n - 1));
    });
    // showRecord(k): describe record k (a record index) if it has a value in this chart.
    return {
      showRecord: function (k) {
        var j = geo.present.indexOf(k);
        if (j >= 0) show(j);
        return j >= 0;
      },
      hide: hide,
    };
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
