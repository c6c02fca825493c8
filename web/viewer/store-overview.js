// The store overview: every cohort that passes the filters as a small chart of its first
// metric over its own time range, so that a reader sees all cohorts at once. One decimated
// path and one path of regression marks per card keep 100,000 records fast.
(function (pv) {
  "use strict";

  var WIDTH = 300;
  var HEIGHT = 74;
  var PAD = { left: 6, right: 6, top: 12, bottom: 6 };

  function sparkline(info, metric) {
    var values = metric.values;
    var low = Infinity;
    var high = -Infinity;
    var present = 0;
    for (var k = 0; k < info.n; k++) {
      var v = values[k];
      if (v === null) continue;
      present++;
      if (v < low) low = v;
      if (v > high) high = v;
    }
    var domain = pv.paddedDomain(low, high);
    var time = pv.cohortTimeDomain(info);
    var x = pv.linearScale(time[0], time[1], PAD.left, WIDTH - PAD.right);
    var y = pv.linearScale(domain[0], domain[1], HEIGHT - PAD.bottom, PAD.top);
    var svg = pv.svg("svg", { class: "spark", viewBox: "0 0 " + WIDTH + " " + HEIGHT, "aria-hidden": "true" });
    svg.appendChild(pv.svg("line", { class: "spark-axis", x1: PAD.left, x2: WIDTH - PAD.right, y1: HEIGHT - 1, y2: HEIGHT - 1 }));
    svg.appendChild(pv.svg("path", { class: "spark-line store-spark-line", d: pv.gappedLine(info.times, values, 0, info.n, x, y) }));
    if (present === 1) {
      // One value is a point, not a line: a dot that can be seen.
      var one = 0;
      while (values[one] === null) one++;
      svg.appendChild(pv.svg("circle", { class: "spark-point", cx: x(info.times[one]).toFixed(1), cy: y(values[one]).toFixed(1), r: 3 }));
    }
    var statuses = info.cohort.records.comparison_status;
    var marks = [];
    var lastColumn = NaN;
    for (var j = 0; j < info.n; j++) {
      if (statuses[j] !== "REGRESSION" || values[j] === null) continue;
      var px = Math.round(x(info.times[j]));
      if (px === lastColumn) continue;
      lastColumn = px;
      marks.push("M" + px + "," + (y(values[j]) - 3).toFixed(1) + "l-3.5,-6h7z");
    }
    if (marks.length) svg.appendChild(pv.svg("path", { class: "spark-flags", d: marks.join("") }));
    return { svg: svg, low: low, high: high, present: present };
  }

  function card(info, selected, onSelect) {
    var cohort = info.cohort;
    var metric = info.metrics[0];
    var regressions = info.statusCounts.get("REGRESSION") || 0;
    var undecided = info.statusCounts.get("INCONCLUSIVE") || 0;
    var parts = [
      pv.el("span", { class: "card-title" }, pv.text(cohort.label)),
      pv.kindBadge(cohort.kind),
      pv.el("span", { class: "card-sub" }, pv.kindText(cohort.kind) + " · " + pv.plural(info.n, "record", "records") + " · " + pv.cohortRange(info)),
    ];
    if (metric) {
      var drawn = sparkline(info, metric);
      var shown = pv.metricDisplay(metric);
      var unit = pv.text(shown.suffix);
      parts.push(pv.el("span", { class: "card-sub" }, pv.titledWithUnit(pv.text(metric.name), shown) +
        (info.metrics.length > 1 ? ", the first of " + pv.plural(info.metrics.length, "metric", "metrics") : "")));
      parts.push(drawn.svg);
      parts.push(pv.el("span", { class: "card-foot" }, [
        pv.plural(drawn.present, "value", "values") + " · " +
          (drawn.low === drawn.high ? pv.significant(drawn.low / shown.divisor) : pv.significant(drawn.low / shown.divisor) + "–" + pv.significant(drawn.high / shown.divisor)) + (unit ? " " + unit : ""),
        regressions ? pv.el("span", { class: "card-flags" }, " · " + pv.formatCount(regressions) + " REGRESSION") : null,
        undecided ? pv.el("span", { class: "card-undecided" }, " · " + pv.formatCount(undecided) + " INCONCLUSIVE") : null,
      ]));
    } else {
      parts.push(pv.el("span", { class: "card-foot" }, "no metric with a value: nothing to draw"));
    }
    var button = pv.el("button", {
      type: "button",
      class: "card",
      "aria-pressed": selected ? "true" : "false",
      on: { click: function () { onSelect(info.id); } },
    }, parts);
    button.cohortId = info.id;
    return button;
  }

  // The first cards are drawn at once; the rest follow in small tasks, so that with many
  // cohorts the page answers input before the last card is drawn.
  var FIRST_CARDS = 8;
  var CARDS_PER_TASK = 12;

  // Draws a card per cohort of `list` into `container`; a click calls onSelect(id).
  // container.dataset.complete is "1" once every card is drawn.
  pv.renderStoreOverview = function (container, list, selectedId, onSelect) {
    container.selectedId = selectedId;
    pv.renderCardGrid(container, list, FIRST_CARDS, CARDS_PER_TASK, "No cohort matches the filters.", function (info) {
      return card(info, info.id === container.selectedId, onSelect);
    });
  };

  pv.markStoreOverviewChoice = function (container, id) {
    container.selectedId = id;
    var cards = container.querySelectorAll(".card");
    for (var i = 0; i < cards.length; i++) cards[i].setAttribute("aria-pressed", cards[i].cohortId === id ? "true" : "false");
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
