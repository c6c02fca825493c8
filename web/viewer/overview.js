// The overview: every series that passes the filters as a small chart on the shared commit
// axis, each scaled to its own range, what changed in the recent window first
// (landing-data.js), with its latest value and change. One decimated path per card keeps
// it fast.
(function (pv) {
  "use strict";

  var WIDTH = 300;
  var HEIGHT = 74;
  var PAD = { left: 4, right: 4, top: 12, bottom: 6 };

  function sparkline(model, series) {
    var p = series.points;
    var n = series.count !== undefined ? series.count : p.commit.length;
    var low = Infinity;
    var high = -Infinity;
    for (var k = 0; k < n; k++) {
      var v = p.median[k];
      if (v < low) low = v;
      if (v > high) high = v;
    }
    var domain = pv.paddedDomain(low, high);
    var last = Math.max(1, model.commits.length - 1);
    var x = pv.linearScale(0, last, PAD.left, WIDTH - PAD.right);
    var y = pv.linearScale(domain[0], domain[1], HEIGHT - PAD.bottom, PAD.top);
    var svg = pv.svg("svg", { class: "spark", viewBox: "0 0 " + WIDTH + " " + HEIGHT, "aria-hidden": "true" });
    svg.appendChild(pv.svg("line", { class: "spark-axis", x1: PAD.left, x2: WIDTH - PAD.right, y1: HEIGHT - 1, y2: HEIGHT - 1 }));
    if (n === 1) {
      svg.appendChild(pv.svg("circle", { class: "spark-point", cx: x(p.commit[0]), cy: y(p.median[0]), r: 3 }));
    } else {
      svg.appendChild(pv.svg("path", { class: "spark-line", d: pv.decimatedLine(p.commit, p.median, 1, 0, n, x, y) }));
    }
    // An unconfirmed flag is hollow here too.
    var flags = { held: [], unconfirmed: [] };
    var lastColumn = { held: NaN, unconfirmed: NaN };
    for (var j = 0; j < n; j++) {
      if (p.flag[j] !== 1) continue;
      var kind = pv.flagConfirmation(model, series, j) === "unconfirmed" ? "unconfirmed" : "held";
      var px = Math.round(x(p.commit[j]));
      if (px === lastColumn[kind]) continue;
      lastColumn[kind] = px;
      flags[kind].push("M" + px + "," + (y(p.median[j]) - 3).toFixed(1) + "l-3.5,-6h7z");
    }
    if (flags.held.length) svg.appendChild(pv.svg("path", { class: "spark-flags", d: flags.held.join("") }));
    if (flags.unconfirmed.length) svg.appendChild(pv.svg("path", { class: "spark-flags spark-flags-unconfirmed", d: flags.unconfirmed.join("") }));
    return { svg: svg, low: low, high: high, n: n };
  }

  function card(model, entry, selected, onSelect) {
    var series = entry.series;
    var drawn = sparkline(model, series);
    var shown = pv.seriesDisplay(series);
    var unit = pv.text(shown.suffix);
    var flagCount = 0;
    var confirmedCount = 0;
    for (var j = 0; j < drawn.n; j++) {
      if (series.points.flag[j] !== 1) continue;
      flagCount++;
      if (pv.flagConfirmation(model, series, j) === "confirmed") confirmedCount++;
    }
    var change = pv.recentChangeWords(entry.recent, function (c) {
      return "at " + pv.shortSha(model.commits[series.points.commit[c.index]].sha);
    }, "points");
    var button = pv.el("button", {
      type: "button",
      class: "card" + (entry.recent.changed ? " changed" : ""),
      "data-series": series.id,
      "aria-pressed": selected ? "true" : "false",
      on: { click: function () { onSelect(series.id); } },
    }, [
      pv.el("span", { class: "card-title" }, pv.text(series.case)),
      pv.el("span", { class: "card-sub" }, pv.text(series.metric) + " · " + pv.text(pv.seriesEnvironment(series, "cpu")) + " · " + pv.text(series.label)),
      drawn.svg,
      pv.el("span", { class: "card-foot" }, [
        "latest " + pv.formatIn(entry.recent.latest, shown),
        change ? pv.el("span", { class: entry.recent.changed ? "card-change card-changed" : "card-change" }, " · " + change) : null,
      ]),
      pv.el("span", { class: "card-foot card-range" }, [
        pv.plural(drawn.n, "point", "points") + " · " +
          (drawn.low === drawn.high ? pv.significant(drawn.low / shown.divisor) : pv.significant(drawn.low / shown.divisor) + "–" + pv.significant(drawn.high / shown.divisor)) + (unit ? " " + unit : ""),
        flagCount ? pv.el("span", { class: "card-flags" }, " · " + pv.plural(flagCount, "flag", "flags") +
          (confirmedCount ? " (" + pv.formatCount(confirmedCount) + " confirmed)" : "")) : null,
      ]),
    ]);
    return button;
  }

  // The first cards are drawn at once; the rest follow in small tasks, so that with many
  // series the chooser and the chart answer input before the last card is drawn.
  var FIRST_CARDS = 4;
  var CARDS_PER_TASK = 8;

  // The cards of `seriesList`, each with its recent change in the window of `windowKey`:
  // the changed first, then by how far the latest point moved, then in the list's order.
  pv.seriesCards = function (model, seriesList, windowKey) {
    var first = pv.historyFirstRecent(model, windowKey);
    return seriesList.map(function (series, order) {
      return { series: series, recent: pv.seriesCardChange(model, series, first), order: order };
    }).sort(function (a, b) { return b.recent.score - a.recent.score || a.order - b.order; });
  };

  // Draws the cards `entries` (pv.seriesCards) into `container`; clicking one calls
  // onSelect(id). container.dataset.complete is "1" once every card is drawn.
  pv.renderOverview = function (container, model, entries, selectedId, onSelect, emptyText) {
    container.selectedId = selectedId;
    pv.renderCardGrid(container, entries, FIRST_CARDS, CARDS_PER_TASK, emptyText || "No series match the filters.", function (entry) {
      return card(model, entry, entry.series.id === container.selectedId, onSelect);
    });
  };

  pv.markOverviewSelection = function (container, selectedId) {
    container.selectedId = selectedId;
    var cards = container.querySelectorAll(".card");
    for (var i = 0; i < cards.length; i++) {
      cards[i].setAttribute("aria-pressed", cards[i].getAttribute("data-series") === selectedId ? "true" : "false");
    }
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
