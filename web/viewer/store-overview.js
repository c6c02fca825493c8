// The store overview: a small chart per cohort that passes the filters and metric, over the
// cohort's own time range, so that a reader sees every chart at once; what changed in the
// recent window first (landing-data.js), with the latest value, the change and its verdict.
// One decimated path and one path of regression marks per card keep 100,000 records fast.
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
      // This metric's own verdict: a record that regressed on another metric is no mark here.
      if (values[j] === null || pv.markerClass(statuses[j], metric.verdicts, j) !== "st-regression") continue;
      var px = Math.round(x(info.times[j]));
      if (px === lastColumn) continue;
      lastColumn = px;
      marks.push("M" + px + "," + (y(values[j]) - 3).toFixed(1) + "l-3.5,-6h7z");
    }
    if (marks.length) svg.appendChild(pv.svg("path", { class: "spark-flags", d: marks.join("") }));
    return { svg: svg, low: low, high: high, present: present };
  }

  var VERDICT_WORD = { regressed: "REGRESSION", inconclusive: "INCONCLUSIVE" };

  function card(entry, selected, onSelect) {
    var info = entry.info;
    var cohort = info.cohort;
    var metric = entry.m >= 0 ? info.metrics[entry.m] : null;
    var parts = [
      pv.el("span", { class: "card-title" }, pv.text(cohort.label)),
      pv.kindBadge(cohort.kind),
      pv.el("span", { class: "card-sub" }, pv.kindText(cohort.kind) + " · " + pv.plural(info.n, "record", "records") + " · " + pv.cohortRange(info)),
    ];
    if (metric) {
      var drawn = sparkline(info, metric);
      var shown = pv.metricDisplay(metric);
      var recent = entry.recent;
      var change = pv.recentChangeWords(recent, function (c) { return "on " + pv.utcParts(info.times[c.index]).date; }, "values");
      parts.push(pv.el("span", { class: "card-sub card-metric" }, pv.titledWithUnit(pv.text(metric.name), shown)));
      parts.push(drawn.svg);
      parts.push(pv.el("span", { class: "card-foot" }, [
        "latest " + pv.formatIn(recent.latest, shown),
        change ? pv.el("span", { class: recent.changed ? "card-change card-changed" : "card-change" }, " · " + change) : null,
        recent.verdict ? pv.el("span", { class: recent.verdict === "regressed" ? "card-flags" : "card-undecided" }, " · " + VERDICT_WORD[recent.verdict]) : null,
      ]));
      parts.push(pv.el("span", { class: "card-foot card-range" }, pv.plural(drawn.present, "value", "values") + " · " +
        (drawn.low === drawn.high ? pv.formatIn(drawn.low, shown) : pv.significant(drawn.low / shown.divisor) + "–" + pv.formatIn(drawn.high, shown))));
    } else {
      parts.push(pv.el("span", { class: "card-foot" }, "no metric with a value: nothing to draw"));
    }
    var button = pv.el("button", {
      type: "button",
      class: "card" + (entry.recent && entry.recent.changed ? " changed" : ""),
      "aria-pressed": selected ? "true" : "false",
      on: { click: function () { onSelect(info.id, metric ? metric.name : ""); } },
    }, parts);
    button.cohortId = info.id;
    if (metric) button.dataset.metric = metric.name;
    return button;
  }

  // The cards of `list` (cohorts): one per metric (one for a cohort without any), each
  // with its recent change in the window of `windowKey`; ordered by that change, the
  // changed first, then as the cohorts are ordered.
  pv.storeCards = function (model, list, windowKey) {
    var since = pv.storeSince(model, windowKey);
    var entries = [];
    list.forEach(function (info, order) {
      if (!info.metrics.length) {
        entries.push({ info: info, m: -1, recent: null, order: order, score: -1 });
        return;
      }
      info.metrics.forEach(function (metric, m) {
        var recent = pv.storeCardChange(info, m, since);
        entries.push({ info: info, m: m, recent: recent, order: order * 1000 + m, score: recent.score });
      });
    });
    return entries.sort(function (a, b) { return b.score - a.score || a.order - b.order; });
  };

  // The first cards are drawn at once; the rest follow in small tasks, so that with many
  // cohorts the page answers input before the last card is drawn.
  var FIRST_CARDS = 8;
  var CARDS_PER_TASK = 12;

  // Draws the cards `entries` (pv.storeCards) into `container`; a click calls
  // onSelect(id, metric name). container.dataset.complete is "1" once every card is drawn.
  pv.renderStoreOverview = function (container, entries, selectedId, onSelect, emptyText) {
    container.selectedId = selectedId;
    pv.renderCardGrid(container, entries, FIRST_CARDS, CARDS_PER_TASK, emptyText || "No cohort matches the filters.", function (entry) {
      return card(entry, entry.info.id === container.selectedId, onSelect);
    });
  };

  pv.markStoreOverviewChoice = function (container, id) {
    container.selectedId = id;
    var cards = container.querySelectorAll(".card");
    for (var i = 0; i < cards.length; i++) cards[i].setAttribute("aria-pressed", cards[i].cohortId === id ? "true" : "false");
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
