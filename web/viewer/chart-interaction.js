// Hover, click and keys on the series chart: the nearest point (or, in the marker row, the
// nearest commit without a point) is described in a tooltip, all as text.
(function (pv) {
  "use strict";

  var SNAP_PIXELS = 10;

  function line(text, className) {
    return pv.el("div", { class: className }, text);
  }

  function pointLines(ctx, k) {
    var model = ctx.model;
    var series = ctx.series;
    var p = series.points;
    var commit = model.commits[p.commit[k]];
    var attempt = model.attempts[p.attempt[k]];
    var display = pv.seriesDisplay(series);
    var nodes = [];
    var median = "median " + pv.valueWithExact(p.median[k], display, series.unit);
    if (ctx.mode === "ratio") {
      nodes.push(line(pv.formatShort(p.median[k] * ctx.factor) + "× the reference", "value"));
      nodes.push(line(median));
    } else {
      nodes.push(line(median, "value"));
    }
    var shown = function (v) { return v === null || v === undefined ? "—" : pv.formatIn(v, display); };
    nodes.push(line("mad " + shown(p.mad[k]) + " · min " + shown(p.min[k]) + " · max " + shown(p.max[k])));
    nodes.push(line("commit " + commit.sha + " (#" + p.commit[k] + ")", "mono"));
    nodes.push(line(pv.commitTime(commit.time)));
    nodes.push(line(pv.summaryText(commit.summary), "summary"));
    nodes.push(line("attempt " + pv.text(attempt && attempt.id), "mono"));
    var here = pv.commitState(model, p.commit[k], series);
    nodes.push(line("status " + pv.text(here.status) + (attempt ? " (attempt " + pv.text(attempt.status) + ")" : "")));
    if (p.flag[k] === 1) {
      var flag = model.flagByPoint.get(series.id + " " + commit.sha);
      var change = flag && typeof flag.change_percent === "number"
        ? pv.flagPercentText(flag.change_percent) + " "
        : "";
      nodes.push(line("flagged: possible regression, " + change + "vs the previous point", "flag"));
      var state = pv.flagConfirmation(model, series, k);
      var earlier = flag && flag.earlier && typeof flag.earlier.change_percent === "number"
        ? " (first measured " + pv.flagPercentText(flag.earlier.change_percent) +
          (flag.earlier.paired && typeof flag.earlier.paired.change_percent === "number"
            ? ", " + pv.flagPercentText(flag.earlier.paired.change_percent) + " round by round" : "") + ")"
        : "";
      // A re-measurement whose runs were compared round by round says how it judged.
      var paired = flag && flag.paired && typeof flag.paired.change_percent === "number"
        ? "measured again together, its runs were " + pv.flagPercentText(flag.paired.change_percent) +
          " over the previous commit's round by round" +
          (typeof flag.paired.lower_percent === "number" && typeof flag.paired.rounds === "number"
            ? " (at least " + pv.flagPercentText(flag.paired.lower_percent) + ", " + flag.paired.rounds + " rounds)"
            : "")
        : "";
      nodes.push(line(state === "confirmed"
        ? "confirmed: " + (paired || "both measurements of the two commits raise it") + earlier
        : state === "unconfirmed"
          ? "unconfirmed: " + (!paired ? "only one of the two measurements shows it"
            : flag.paired.rises === true ? "the first measurement does not show it; " + paired
              : paired + ": not surely above the flag's limits") + earlier
          : "not yet re-measured (history plan --confirm-flags)", "flag"));
    }
    if (k === ctx.refPoint && ctx.mode === "ratio") nodes.push(line("this is the reference point"));
    return nodes;
  }

  function gapLines(ctx, c) {
    var commit = ctx.model.commits[c];
    var explanation = pv.explainGap(ctx.model, ctx.series, c);
    var nodes = [
      line(pv.GAP_TITLES[explanation.kind], "value gap-" + explanation.kind),
      line("commit " + commit.sha + " (#" + c + ")", "mono"),
      line(pv.commitTime(commit.time)),
      line(pv.summaryText(commit.summary), "summary"),
    ];
    explanation.lines.forEach(function (text) {
      nodes.push(line(text, "evidence"));
    });
    return nodes;
  }

  function nearestPoint(ctx, geo, px) {
    var commits = ctx.series.points.commit;
    if (geo.to <= geo.from) return -1;
    var k = pv.lowerBound(commits, geo.x.invert(px));
    k = Math.min(Math.max(k, geo.from), geo.to - 1);
    if (k > geo.from && Math.abs(geo.x(commits[k - 1]) - px) <= Math.abs(geo.x(commits[k]) - px)) k--;
    return k;
  }

  function nearestGap(ctx, geo, px) {
    var best = -1;
    var bestDistance = SNAP_PIXELS;
    var c = geo.x.invert(px);
    ["failed", "missing", "absent"].forEach(function (kind) {
      var list = ctx.gaps[kind];
      var i = pv.lowerBound(list, c);
      [i - 1, i].forEach(function (j) {
        if (j < 0 || j >= list.length) return;
        var d = Math.abs(geo.x(list[j]) - px);
        if (d < bestDistance) {
          bestDistance = d;
          best = list[j];
        }
      });
    });
    return best;
  }

  // The cursor (a line and a ring in `svg`) and the tooltip of a chart, shared by the
  // series chart and the store charts: show(cx, cy, lines) puts both at (cx, cy), the
  // tooltip holding the nodes `lines` and placed by place(cx, cy); hide() hides both;
  // pointer(event) is where a mouse event falls in the SVG's own units.
  pv.chartCursor = function (svg, cursor, tooltip, place) {
    return {
      show: function (cx, cy, lines) {
        cursor.setAttribute("visibility", "visible");
        cursor.firstChild.setAttribute("x1", cx);
        cursor.firstChild.setAttribute("x2", cx);
        cursor.lastChild.setAttribute("cx", cx);
        cursor.lastChild.setAttribute("cy", cy);
        pv.clear(tooltip);
        lines.forEach(function (node) { tooltip.appendChild(node); });
        place(cx, cy);
      },
      hide: function () {
        cursor.setAttribute("visibility", "hidden");
        tooltip.hidden = true;
      },
      pointer: function (event) {
        var box = svg.getBoundingClientRect();
        var scale = box.width ? svg.viewBox.baseVal.width / box.width : 1;
        return { x: (event.clientX - box.left) * scale, y: (event.clientY - box.top) * scale };
      },
    };
  };

  pv.chartInteraction = function (ctx, geo, svg, cursor, tooltip, place) {
    var p = ctx.series.points;
    // The focused point, kept across keys and across redraws of the same series.
    var current = ctx.cursor >= geo.from && ctx.cursor < geo.to ? ctx.cursor : -1;
    var markerRow = geo.plot.bottom + pv.CHART_MARKER_ROW;
    var view = pv.chartCursor(svg, cursor, tooltip, place);
    var hide = view.hide;
    var pointer = view.pointer;

    function showPoint(k) {
      current = k;
      ctx.cursor = k;
      tooltip.dataset.point = String(k);
      delete tooltip.dataset.gap;
      view.show(geo.x(p.commit[k]), geo.y(p.median[k] * ctx.factor), pointLines(ctx, k));
    }

    function showGap(c) {
      tooltip.dataset.gap = String(c);
      delete tooltip.dataset.point;
      view.show(geo.x(c), markerRow, gapLines(ctx, c));
    }

    svg.addEventListener("mousemove", function (event) {
      var at = pointer(event);
      if (at.y > geo.plot.bottom + 3) {
        var c = nearestGap(ctx, geo, at.x);
        if (c >= 0) {
          showGap(c);
          return;
        }
      }
      var k = nearestPoint(ctx, geo, at.x);
      if (k >= 0) showPoint(k);
      else hide();
    });
    svg.addEventListener("mouseleave", function () {
      if (document.activeElement !== svg) hide();
    });
    svg.addEventListener("click", function (event) {
      var at = pointer(event);
      if (at.y > geo.plot.bottom + 3) return;
      var k = nearestPoint(ctx, geo, at.x);
      if (k >= 0 && ctx.onReference) ctx.onReference(k);
    });
    svg.addEventListener("focus", function () {
      if (geo.to > geo.from) showPoint(current >= geo.from && current < geo.to ? current : geo.to - 1);
    });
    svg.addEventListener("blur", hide);
    svg.addEventListener("keydown", function (event) {
      if (geo.to <= geo.from) return;
      var page = Math.max(1, Math.round((geo.to - geo.from) / 10));
      var moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -page, PageDown: page };
      var next = current < 0 ? geo.to - 1 : current;
      if (event.key in moves) next += moves[event.key];
      else if (event.key === "Home") next = geo.from;
      else if (event.key === "End") next = geo.to - 1;
      else if (event.key === "Enter" && ctx.onReference) {
        ctx.onReference(current);
        event.preventDefault();
        return;
      } else if (event.key === "Escape") {
        hide();
        return;
      } else return;
      event.preventDefault();
      showPoint(Math.min(Math.max(next, geo.from), geo.to - 1));
    });
    return { showPoint: showPoint, showGap: showGap, hide: hide };
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
