// The chart of one series, drawn as SVG by the viewer: x is the monitored commit (oldest
// left), y the median (absolute) or the median divided by the reference point's (ratio).
// Commits without a point are marked under the plot, never drawn as values.
(function (pv) {
  "use strict";

  var HEIGHT = 400;
  var MARGIN = { top: 18, right: 28, bottom: 84, left: 88 };
  var MARKER_ROW = 14; // below the plot: failed, missing and absent commits
  var FEW_POINTS_SPACING = 7; // pixels per point under which single points stop being drawn

  // Shared with the store's charts (store-chart.js): grid lines and value labels.
  function yAxis(svg, plot, y, ticks, format) {
    var group = pv.svg("g", { class: "axis y-axis" });
    ticks.forEach(function (t) {
      var py = y(t).toFixed(1);
      group.appendChild(pv.svg("line", { class: "grid", x1: plot.left, x2: plot.right, y1: py, y2: py }));
      group.appendChild(
        pv.svg("text", { x: plot.left - 8, y: py, "text-anchor": "end", "dominant-baseline": "middle" }, format(t))
      );
    });
    svg.appendChild(group);
  }

  function xAxis(svg, plot, x, lo, hi, commits) {
    var group = pv.svg("g", { class: "axis x-axis" });
    var width = plot.right - plot.left;
    var ticks = pv.niceTicks(lo, hi, Math.max(2, Math.floor(width / 110))).ticks.filter(function (t) {
      return Number.isInteger(t) && t >= lo && t <= hi;
    });
    if (!ticks.length) ticks = [lo];
    // Ticks a few days apart or less would all read the same date: show the hour too.
    var first = commits[ticks[0]];
    var last = commits[ticks[ticks.length - 1]];
    var withHour = first && last && first.time !== null && last.time !== null && Math.abs(last.time - first.time) < 3 * 86400;
    var dateLabel = withHour ? pv.commitDayHour : pv.commitDate;
    var base = plot.bottom + MARKER_ROW + 12;
    group.appendChild(pv.svg("line", { class: "baseline", x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom }));
    ticks.forEach(function (t) {
      var px = x(t).toFixed(1);
      group.appendChild(pv.svg("line", { class: "tick", x1: px, x2: px, y1: plot.bottom, y2: plot.bottom + 5 }));
      group.appendChild(pv.svg("text", { x: px, y: base + 6, "text-anchor": "middle" }, "#" + t));
      var date = commits[t] ? dateLabel(commits[t].time) : "";
      if (date) group.appendChild(pv.svg("text", { class: "date", x: px, y: base + 20, "text-anchor": "middle" }, date));
    });
    svg.appendChild(group);
  }

  function markers(svg, plot, x, gaps, lo, hi) {
    var row = plot.bottom + MARKER_ROW;
    var group = pv.svg("g", { class: "gap-markers" });
    var absent = pv.markerColumns(gaps.absent, lo, hi, x);
    var missing = pv.markerColumns(gaps.missing, lo, hi, x);
    var failed = pv.markerColumns(gaps.failed, lo, hi, x);
    if (absent.length) {
      group.appendChild(pv.svg("path", {
        class: "marker-absent",
        d: absent.map(function (px) { return "M" + px + "," + (row - 4) + "v8"; }).join(""),
      }));
    }
    if (missing.length) {
      group.appendChild(pv.svg("path", {
        class: "marker-missing",
        "data-count": gaps.missing.length,
        d: missing.map(function (px) { return "M" + (px - 3.5) + "," + row + "a3.5,3.5 0 1,0 7,0a3.5,3.5 0 1,0 -7,0"; }).join(""),
      }));
    }
    if (failed.length) {
      group.appendChild(pv.svg("path", {
        class: "marker-failed",
        "data-count": gaps.failed.length,
        d: failed.map(function (px) { return "M" + (px - 4) + "," + (row - 4) + "l8,8m0,-8l-8,8"; }).join(""),
      }));
    }
    svg.appendChild(group);
  }

  // Everything the chart draws is derived here once; hover and keys reuse it.
  function layout(ctx, width) {
    var series = ctx.series;
    var p = series.points;
    var plot = { left: MARGIN.left, right: width - MARGIN.right, top: MARGIN.top, bottom: HEIGHT - MARGIN.bottom };
    var lo = ctx.range[0];
    var hi = ctx.range[1];
    var visible = pv.visiblePoints(series, lo, hi);
    var from = visible[0];
    var to = visible[1];
    var factor = ctx.factor;
    var low = Infinity;
    var high = -Infinity;
    for (var k = from; k < to; k++) {
      var a = p.min[k] * factor;
      var b = p.max[k] * factor;
      var m = p.median[k] * factor;
      if (a < low) low = a;
      if (m < low) low = m;
      if (b > high) high = b;
      if (m > high) high = m;
    }
    if (ctx.mode === "ratio") {
      low = Math.min(low, 1);
      high = Math.max(high, 1);
    }
    var yDomain = pv.paddedDomain(low, high);
    var xPad = hi === lo ? 0.5 : 0;
    return {
      plot: plot,
      lo: lo,
      hi: hi,
      from: from,
      to: to,
      x: pv.linearScale(lo - xPad, hi + xPad, plot.left, plot.right),
      y: pv.linearScale(yDomain[0], yDomain[1], plot.bottom, plot.top),
      yDomain: yDomain,
    };
  }

  function drawSeries(svg, ctx, geo) {
    var p = ctx.series.points;
    var x = geo.x;
    var y = geo.y;
    var f = ctx.factor;
    var clip = pv.svg("g", { "clip-path": "url(#plot-clip)" });
    clip.appendChild(pv.svg("path", { class: "band", d: pv.decimatedBand(p.commit, p.min, p.max, f, geo.from, geo.to, x, y) }));
    if (geo.to - geo.from > 1) {
      clip.appendChild(pv.svg("path", { class: "line", d: pv.decimatedLine(p.commit, p.median, f, geo.from, geo.to, x, y) }));
    }
    var plotWidth = geo.plot.right - geo.plot.left;
    if ((geo.to - geo.from) * FEW_POINTS_SPACING <= plotWidth) {
      var dots = pv.svg("g", { class: "points" });
      for (var k = geo.from; k < geo.to; k++) {
        dots.appendChild(pv.svg("circle", { class: "point", cx: x(p.commit[k]).toFixed(1), cy: y(p.median[k] * f).toFixed(1), r: 3.5 }));
      }
      clip.appendChild(dots);
    }
    // Flags: one triangle per pixel column, above the flagged point; filled when a
    // re-measurement confirmed it, hollow when it did not, plain when not yet re-measured.
    var parts = { confirmed: [], unconfirmed: [], not_remeasured: [] };
    var counts = { confirmed: 0, unconfirmed: 0, not_remeasured: 0 };
    var lastColumn = { confirmed: NaN, unconfirmed: NaN, not_remeasured: NaN };
    for (var j = geo.from; j < geo.to; j++) {
      if (p.flag[j] !== 1) continue;
      var state = pv.flagConfirmation(ctx.model, ctx.series, j);
      counts[state]++;
      var px = Math.round(x(p.commit[j]));
      if (px === lastColumn[state]) continue;
      lastColumn[state] = px;
      var py = y(p.median[j] * f) - 8;
      parts[state].push("M" + px + "," + py.toFixed(1) + "l-5,-9h10z");
    }
    ["not_remeasured", "unconfirmed", "confirmed"].forEach(function (state) {
      if (!parts[state].length) return;
      clip.appendChild(pv.svg("path", { class: pv.FLAG_CLASS[state], "data-count": counts[state], d: parts[state].join("") }));
    });
    svg.appendChild(clip);
  }

  function referenceMarks(svg, ctx, geo) {
    if (ctx.mode !== "ratio") return;
    var py = geo.y(1).toFixed(1);
    svg.appendChild(pv.svg("line", { class: "ref-line", x1: geo.plot.left, x2: geo.plot.right, y1: py, y2: py }));
    svg.appendChild(pv.svg("text", { class: "ref-label", x: geo.plot.right - 4, y: Number(py) - 5, "text-anchor": "end" }, "1× = reference"));
    var c = ctx.series.points.commit[ctx.refPoint];
    if (c >= geo.lo && c <= geo.hi) {
      var px = geo.x(c).toFixed(1);
      svg.appendChild(pv.svg("line", { class: "ref-commit", x1: px, x2: px, y1: geo.plot.top, y2: geo.plot.bottom }));
    }
  }

  // The change points of the series (docs/history-json.md, series[].changes): a dashed
  // line at the commit of the point that starts the new level, the same in both modes (a
  // vertical line does not depend on y); label and title give the change in the series'
  // own unit, since a change's means are absolute whatever the reference.
  function changeMarks(svg, ctx, geo) {
    var p = ctx.series.points;
    var commits = ctx.model.commits;
    var marks = [];
    pv.seriesChanges(ctx.series).forEach(function (change) {
      var c = p.commit[change.index];
      if (c < geo.lo || c > geo.hi) return;
      var commit = commits[c];
      marks.push({
        change: change,
        index: change.index,
        x: geo.x(c),
        title: "change at " + pv.shortSha(commit.sha) + " (#" + c + ", " + pv.commitTime(commit.time) + "): " +
          pv.changeText(change, ctx.series.unit),
      });
    });
    pv.drawChangeMarkers(svg, geo.plot, marks);
  }

  function titles(svg, ctx, geo, width) {
    var yTitle = ctx.mode === "ratio"
      ? "median ÷ reference median (×)"
      : pv.titledWithUnit("median " + pv.text(ctx.series.metric), pv.seriesDisplay(ctx.series));
    var cy = (geo.plot.top + geo.plot.bottom) / 2;
    svg.appendChild(pv.svg("text", { class: "axis-title", x: 16, y: cy, transform: "rotate(-90 16 " + cy + ")", "text-anchor": "middle" }, yTitle));
    svg.appendChild(pv.svg("text", { class: "axis-title", x: (geo.plot.left + geo.plot.right) / 2, y: HEIGHT - 6, "text-anchor": "middle" },
      "monitored commit: index in the history (oldest → newest) and commit time, UTC"));
    svg.setAttribute("width", width);
  }

  // Beside the anchor, on the side with room: right of it unless that overflows, above it
  // in the lower half of the chart so that the marker row's tooltips stay in the frame.
  function positionTooltip(tooltip, frame, px, py) {
    tooltip.hidden = false;
    var left = px + 14;
    if (left + tooltip.offsetWidth > frame.clientWidth) left = Math.max(0, px - 14 - tooltip.offsetWidth);
    var top = py > frame.clientHeight / 2 ? py - tooltip.offsetHeight - 12 : py + 12;
    top = Math.max(0, Math.min(top, frame.clientHeight - tooltip.offsetHeight));
    tooltip.style.left = left + "px";
    tooltip.style.top = top + "px";
  }

  // Draws the chart into `container`. ctx: {model, series, mode, factor, refPoint, range,
  // gaps, onReference(k)}. Returns nothing; the SVG keeps its own hover state.
  pv.renderChart = function (container, ctx) {
    pv.clear(container);
    var width = Math.max(520, Math.floor(container.clientWidth || 900));
    var geo = layout(ctx, width);
    var frame = pv.el("div", { class: "chart-frame" });
    var svg = pv.svg("svg", {
      class: "chart",
      viewBox: "0 0 " + width + " " + HEIGHT,
      height: HEIGHT,
      role: "img",
      tabindex: 0,
      "aria-label": "Chart of " + pv.text(ctx.series.case) + " " + pv.text(ctx.series.metric) +
        ". Arrow keys move between points; Enter makes the focused point the reference.",
    });
    // Where commits land, for tests and tools that point at a commit without reading pixels.
    svg.setAttribute("data-commit-lo", geo.lo);
    svg.setAttribute("data-commit-hi", geo.hi);
    svg.setAttribute("data-x-lo", geo.x(geo.lo).toFixed(2));
    svg.setAttribute("data-x-hi", geo.x(geo.hi).toFixed(2));
    svg.setAttribute("data-marker-row", geo.plot.bottom + MARKER_ROW);
    svg.setAttribute("data-points", geo.to - geo.from);
    var clipPath = pv.svg("clipPath", { id: "plot-clip" }, [
      pv.svg("rect", { x: geo.plot.left - 6, y: geo.plot.top - 14, width: geo.plot.right - geo.plot.left + 12, height: geo.plot.bottom - geo.plot.top + 20 }),
    ]);
    svg.appendChild(pv.svg("defs", null, [clipPath]));
    var yTicks = pv.niceTicks(geo.yDomain[0], geo.yDomain[1], 6).ticks;
    var display = pv.seriesDisplay(ctx.series);
    var format = ctx.mode === "ratio" ? function (t) { return pv.formatShort(t) + "×"; } : function (t) { return pv.significant(t / display.divisor); };
    yAxis(svg, geo.plot, geo.y, yTicks, format);
    xAxis(svg, geo.plot, geo.x, geo.lo, geo.hi, ctx.model.commits);
    titles(svg, ctx, geo, width);
    referenceMarks(svg, ctx, geo);
    drawSeries(svg, ctx, geo);
    markers(svg, geo.plot, geo.x, ctx.gaps, geo.lo, geo.hi);

    var cursor = pv.svg("g", { class: "cursor", visibility: "hidden" }, [
      pv.svg("line", { class: "cursor-line", y1: geo.plot.top, y2: geo.plot.bottom + MARKER_ROW }),
      pv.svg("circle", { class: "cursor-ring", r: 6 }),
    ]);
    svg.appendChild(cursor);
    var hit = pv.svg("rect", { class: "hit", x: geo.plot.left - 6, y: geo.plot.top, width: geo.plot.right - geo.plot.left + 12, height: geo.plot.bottom - geo.plot.top + MARKER_ROW + 10 });
    svg.appendChild(hit);
    // Above the hover area, so that pointing at a marker shows its title.
    changeMarks(svg, ctx, geo);

    var tooltip = pv.el("div", { class: "tooltip", role: "status", "aria-live": "polite" });
    tooltip.hidden = true;
    frame.appendChild(svg);
    frame.appendChild(tooltip);
    container.appendChild(frame);

    var interaction = pv.chartInteraction(ctx, geo, svg, cursor, tooltip, function (px, py) {
      positionTooltip(tooltip, frame, px, py);
    });
    container.chartInteraction = interaction;
  };

  pv.CHART_MARKER_ROW = MARKER_ROW;
  pv.drawYAxis = yAxis;
  pv.positionTooltip = positionTooltip;
})((window.PerfgateViewer = window.PerfgateViewer || {}));
