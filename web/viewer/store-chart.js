// The chart of one metric of a store cohort, drawn as SVG by the viewer: x is the record's
// timestamp (UTC), y its value. Each record is marked by this metric's own verdict (a
// regressed metric is a red triangle; the record's status where it has no verdict); a
// record without the metric leaves a gap in the line and a tick under the plot, never a
// zero.
(function (pv) {
  "use strict";

  var HEIGHT = 280;
  var MARGIN = { top: 28, right: 28, bottom: 74, left: 88 };
  var TITLE_CHARS = 140; // a longer axis title is cut; the heading above has it whole
  var NO_VALUE_ROW = 14; // below the plot: records without this metric
  var SPARSE_SPACING = 5; // pixels per record above which every PASS record gets a marker
  var HOUR = 3600 * 1000;

  // The x range of a cohort, shared by its charts so that they line up: its first to last
  // record, padded; one instant gets an hour either side.
  pv.cohortTimeDomain = function (info) {
    var lo = info.times[0];
    var hi = info.times[info.n - 1];
    if (hi === lo) return [lo - HOUR, hi + HOUR];
    var pad = (hi - lo) * 0.03;
    return [lo - pad, hi + pad];
  };

  // The shape of a status marker centred on (x, y), as path commands; fills and strokes
  // come from the class (viewer.css), the same in the legend and the overview.
  var SHAPES = {
    "st-pass": function (x, y) { return "M" + (x - 3) + "," + y + "a3,3 0 1,0 6,0a3,3 0 1,0 -6,0"; },
    "st-calibration": function (x, y) { return "M" + (x - 3.5) + "," + y + "a3.5,3.5 0 1,0 7,0a3.5,3.5 0 1,0 -7,0"; },
    "st-other": function (x, y) { return "M" + (x - 3) + "," + (y - 3) + "h6v6h-6z"; },
    "st-mismatch": function (x, y) { return "M" + x + "," + (y - 5) + "l5,5l-5,5l-5,-5z"; },
    "st-infra": function (x, y) { return "M" + (x - 4) + "," + (y - 4) + "l8,8m0,-8l-8,8"; },
    "st-regression": function (x, y) { return "M" + x + "," + (y - 7) + "l6,10.5h-12z"; },
    // Undecided: the regression's triangle, hollow and upside down.
    "st-inconclusive": function (x, y) { return "M" + x + "," + (y + 6) + "l5.5,-9.5h-11z"; },
    // Beyond the threshold but not gated: a plus, hollow, in the INCONCLUSIVE colour.
    "st-notgated": function (x, y) { return "M" + (x - 4.5) + "," + y + "h9M" + x + "," + (y - 4.5) + "v9"; },
  };
  // Drawn in this order: the worst last, on top.
  pv.MARKER_ORDER = ["st-pass", "st-calibration", "st-other", "st-notgated", "st-mismatch", "st-inconclusive", "st-infra", "st-regression"];
  pv.markerPath = function (className, x, y) {
    return SHAPES[className](x, y);
  };

  // Everything the chart draws is derived here once; hover and keys reuse it.
  function layout(ctx, width) {
    var info = ctx.info;
    var values = ctx.metric.values;
    var plot = { left: MARGIN.left, right: width - MARGIN.right, top: MARGIN.top, bottom: HEIGHT - MARGIN.bottom };
    var present = [];
    var low = Infinity;
    var high = -Infinity;
    var spread = ctx.metric.spread;
    for (var k = 0; k < info.n; k++) {
      var v = values[k];
      if (v === null) continue;
      present.push(k);
      if (v < low) low = v;
      if (v > high) high = v;
      // The band is drawn whole: the axis spans the runs' extremes too.
      if (spread && spread.min[k] !== null) {
        if (spread.min[k] < low) low = spread.min[k];
        if (spread.max[k] > high) high = spread.max[k];
      }
    }
    var tDomain = pv.cohortTimeDomain(info);
    var yDomain = pv.paddedDomain(low, high);
    var presentTimes = new Float64Array(present.length);
    for (var i = 0; i < present.length; i++) presentTimes[i] = info.times[present[i]];
    return {
      plot: plot,
      present: present,
      presentTimes: presentTimes,
      tDomain: tDomain,
      yDomain: yDomain,
      x: pv.linearScale(tDomain[0], tDomain[1], plot.left, plot.right),
      y: pv.linearScale(yDomain[0], yDomain[1], plot.bottom, plot.top),
    };
  }

  function xAxis(svg, geo) {
    var plot = geo.plot;
    var group = pv.svg("g", { class: "axis x-axis" });
    var width = plot.right - plot.left;
    var axis = pv.timeTicks(geo.tDomain[0], geo.tDomain[1], Math.max(2, Math.floor(width / 120)));
    var base = plot.bottom + NO_VALUE_ROW + 14;
    group.appendChild(pv.svg("line", { class: "baseline", x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom }));
    axis.ticks.forEach(function (t, i) {
      var px = geo.x(t).toFixed(1);
      group.appendChild(pv.svg("line", { class: "tick", x1: px, x2: px, y1: plot.bottom, y2: plot.bottom + 5 }));
      group.appendChild(pv.svg("text", { x: px, y: base + 4, "text-anchor": "middle" }, axis.labels[i].main));
      if (axis.labels[i].sub) {
        group.appendChild(pv.svg("text", { class: "date", x: px, y: base + 18, "text-anchor": "middle" }, axis.labels[i].sub));
      }
    });
    svg.appendChild(group);
  }

  // The value axis is titled above the plot, level: a metric name of any length reads
  // there, where a rotated title would run past the plot's height.
  function titles(svg, ctx, geo) {
    var metric = ctx.metric;
    var title = pv.titledWithUnit(pv.text(metric.name), pv.metricDisplay(metric));
    if (title.length > TITLE_CHARS) title = title.slice(0, TITLE_CHARS - 1) + "…";
    svg.appendChild(pv.svg("text", { class: "axis-title y-title", x: 8, y: 14, "text-anchor": "start" }, title));
    svg.appendChild(pv.svg("text", { class: "axis-title", x: (geo.plot.left + geo.plot.right) / 2, y: HEIGHT - 6, "text-anchor": "middle" },
      "record timestamp, UTC"));
  }

  // The line through the values (broken at nulls) and one path of markers per status,
  // one marker per pixel cell: the DOM stays small however many records there are.
  function drawValues(svg, ctx, geo) {
    var info = ctx.info;
    var values = ctx.metric.values;
    var statuses = info.cohort.records.comparison_status;
    var verdicts = ctx.metric.verdicts;
    var x = geo.x;
    var y = geo.y;
    var clip = pv.svg("g", { "clip-path": "url(#" + ctx.clipId + ")" });
    spreadBand(clip, ctx, geo);
    var line = pv.gappedLine(info.times, values, 0, info.n, x, y);
    clip.appendChild(pv.svg("path", { class: "store-line", d: line, "data-runs": (line.match(/M/g) || []).length }));
    var plotWidth = geo.plot.right - geo.plot.left;
    var sparse = geo.present.length * SPARSE_SPACING <= plotWidth;
    var parts = {};
    var counts = {};
    var seen = {};
    pv.MARKER_ORDER.forEach(function (name) {
      parts[name] = [];
      counts[name] = 0;
      seen[name] = new Set();
    });
    for (var i = 0; i < geo.present.length; i++) {
      var k = geo.present[i];
      var name = pv.markerClass(statuses[k], verdicts, k);
      counts[name]++;
      // Dense charts leave passing records to the line: markers would only thicken it.
      if (name === "st-pass" && !sparse) continue;
      var px = Math.round(x(info.times[k]));
      var py = Math.round(y(values[k]));
      var cell = px * 4096 + py;
      if (seen[name].has(cell)) continue;
      seen[name].add(cell);
      parts[name].push(SHAPES[name](px, py));
    }
    pv.MARKER_ORDER.forEach(function (name) {
      if (!counts[name]) return;
      clip.appendChild(pv.svg("path", { class: "marker " + name, "data-count": counts[name], d: parts[name].join("") }));
    });
    svg.appendChild(clip);
  }

  // Each record's runs: a band from the fastest to the slowest (per pixel column, the
  // extremes) and a dashed line through their medians, under the line of the means that
  // compare gates (docs/store-json.md, metrics[].spread).
  function spreadBand(group, ctx, geo) {
    var spread = ctx.metric.spread;
    if (!spread) return;
    var times = [];
    var lows = [];
    var highs = [];
    var info = ctx.info;
    for (var k = 0; k < info.n; k++) {
      if (spread.min[k] === null || ctx.metric.values[k] === null) continue;
      times.push(info.times[k]);
      lows.push(spread.min[k]);
      highs.push(spread.max[k]);
    }
    if (!times.length) return;
    group.appendChild(pv.svg("path", { class: "band store-band", "data-count": times.length, d: pv.decimatedBand(times, lows, highs, 1, 0, times.length, geo.x, geo.y) }));
    group.appendChild(pv.svg("path", { class: "store-median", d: pv.gappedLine(info.times, spread.median, 0, info.n, geo.x, geo.y) }));
  }

  // Records without this metric: a tick each (one per pixel column) under the plot.
  function noValueMarks(svg, ctx, geo) {
    var info = ctx.info;
    var values = ctx.metric.values;
    var row = geo.plot.bottom + NO_VALUE_ROW;
    var columns = [];
    var missing = 0;
    for (var k = 0; k < info.n; k++) {
      if (values[k] !== null) continue;
      missing++;
      var px = Math.round(geo.x(info.times[k]));
      if (columns[columns.length - 1] !== px) columns.push(px);
    }
    if (!missing) return;
    svg.appendChild(pv.svg("path", {
      class: "no-value",
      "data-count": missing,
      d: columns.map(function (px) { return "M" + px + "," + (row - 4) + "v8"; }).join(""),
    }));
  }

  // The marker's title: "change at 2026-12-03 10:00:00 UTC: 20 ms → 23 ms (+15.0%,
  // worse), p = 2.7e-26" (change-markers.js words the change).
  pv.changeTitle = function (info, metric, change) {
    return "change at " + pv.instantText(info.times[change.index]) + ": " + pv.changeText(change, metric.unit);
  };

  // A dashed line at the first record after each change (change-markers.js draws them).
  function changeMarkers(svg, ctx, geo) {
    var changes = ctx.changes || [];
    pv.drawChangeMarkers(svg, geo.plot, changes.map(function (change) {
      return {
        change: change,
        index: change.index,
        x: geo.x(ctx.info.times[change.index]),
        title: pv.changeTitle(ctx.info, ctx.metric, change),
      };
    }));
  }

  // Draws the chart into `container`. ctx: {info, metric, changes, clipId, width} (width: the
  // container's, read once by the caller for all charts of a cohort; changes: the metric's
  // checked change points, info.changes[m]). The SVG carries
  // its scales as data attributes, for tests and tools that point at a record without
  // reading pixels.
  pv.renderMetricChart = function (container, ctx) {
    pv.clear(container);
    var width = Math.max(520, Math.floor(ctx.width || container.clientWidth || 900));
    var geo = layout(ctx, width);
    var frame = pv.el("div", { class: "chart-frame" });
    var svg = pv.svg("svg", {
      class: "chart store-chart",
      viewBox: "0 0 " + width + " " + HEIGHT,
      width: width,
      height: HEIGHT,
      role: "img",
      tabindex: 0,
      "aria-label": "Chart of " + pv.text(ctx.metric.name) + " over time. Arrow keys move between records.",
      "data-t-lo": geo.tDomain[0],
      "data-t-hi": geo.tDomain[1],
      "data-x-lo": geo.x(geo.tDomain[0]).toFixed(2),
      "data-x-hi": geo.x(geo.tDomain[1]).toFixed(2),
      "data-v-lo": geo.yDomain[0],
      "data-v-hi": geo.yDomain[1],
      "data-y-lo": geo.y(geo.yDomain[0]).toFixed(2),
      "data-y-hi": geo.y(geo.yDomain[1]).toFixed(2),
      "data-values": geo.present.length,
    });
    var clipRect = pv.svg("rect", {
      x: geo.plot.left - 8,
      y: geo.plot.top - 10,
      width: geo.plot.right - geo.plot.left + 16,
      height: geo.plot.bottom - geo.plot.top + 18,
    });
    svg.appendChild(pv.svg("defs", null, [pv.svg("clipPath", { id: ctx.clipId }, [clipRect])]));
    var display = pv.metricDisplay(ctx.metric);
    pv.drawYAxis(svg, geo.plot, geo.y, pv.niceTicks(geo.yDomain[0], geo.yDomain[1], 6).ticks, function (t) {
      return pv.significant(t / display.divisor);
    });
    xAxis(svg, geo);
    titles(svg, ctx, geo);
    drawValues(svg, ctx, geo);
    noValueMarks(svg, ctx, geo);

    var cursor = pv.svg("g", { class: "cursor", visibility: "hidden" }, [
      pv.svg("line", { class: "cursor-line", y1: geo.plot.top, y2: geo.plot.bottom }),
      pv.svg("circle", { class: "cursor-ring", r: 7 }),
    ]);
    svg.appendChild(cursor);
    svg.appendChild(pv.svg("rect", {
      class: "hit",
      x: geo.plot.left - 8,
      y: geo.plot.top - 8,
      width: geo.plot.right - geo.plot.left + 16,
      height: geo.plot.bottom - geo.plot.top + 16,
    }));
    changeMarkers(svg, ctx, geo);
    var tooltip = pv.el("div", { class: "tooltip", role: "status", "aria-live": "polite" });
    tooltip.hidden = true;
    frame.appendChild(svg);
    frame.appendChild(tooltip);
    container.appendChild(frame);
    container.chartInteraction = pv.storeChartInteraction(ctx, geo, svg, cursor, tooltip, function (px, py) {
      pv.positionTooltip(tooltip, frame, px, py);
    });
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
