// Change points (docs/changes.md) as both kinds of chart draw them: the store's metric
// charts (store-chart.js, metrics[].changes) and the history's series chart (chart.js,
// series[].changes). One wording and one drawing, so that a change reads the same in both.
(function (pv) {
  "use strict";

  // A value as a failure message quotes it: JSON, or "missing" where the field is absent.
  function quoted(value) {
    return value === undefined ? "missing" : JSON.stringify(value);
  }

  // Checks one change point of a document (history.json's series[].changes, store.json's
  // metrics[].changes) and calls fail() with `where` and the field otherwise: an index
  // outside the `count` points (or records) would put a marker on nothing. `noun` names one
  // of them ("point", "record") and `owner` what holds them ("series", "cohort").
  pv.checkChange = function (change, where, count, noun, owner, fail) {
    if (!change || typeof change !== "object" || Array.isArray(change)) fail(where + " is not an object.");
    var index = change.index;
    // The first of the new level: never the first, which has none before it.
    if (!(typeof index === "number" && Math.floor(index) === index && index >= 1 && index < count)) {
      fail(where + ".index is " + quoted(index) + ", not the index of a " + noun + " after the first (" +
        (count > 1 ? "a whole number from 1 to " + (count - 1) : "the " + owner + " has one " + noun + ", so it has no change") + ").");
    }
    ["before", "after", "relative_change"].forEach(function (field) {
      var v = change[field];
      // relative_change is null where the level before was 0: no percentage says how far.
      if (field === "relative_change" && v === null) return;
      if (typeof v !== "number" || !isFinite(v)) fail(where + "." + field + " is " + quoted(v) + ", not a finite number.");
    });
    if (typeof change.worse !== "boolean") fail(where + ".worse is " + quoted(change.worse) + ", not true or false.");
    var p = change.p_value;
    if (typeof p !== "number" || !(p >= 0 && p <= 1)) fail(where + ".p_value is " + quoted(p) + ", not a number from 0 to 1.");
  };

  // A change's relative_change in percent to one decimal, signed: "+15.0%", "−4.2%" (a
  // minus sign, as wide as the plus, so that labels line up).
  pv.changePercentText = function (relative) {
    if (relative === null) return "from 0";
    var percent = (Math.abs(relative) * 100).toFixed(1);
    return (relative < 0 ? "−" : "+") + percent + "%";
  };

  // A flag's change_percent as the flag's texts write it: "+28.7%", "-3.1%".
  pv.flagPercentText = function (percent) {
    return (percent >= 0 ? "+" : "") + percent.toFixed(1) + "%";
  };

  // The label a change marker carries: "+15.0% worse".
  pv.changeLabel = function (change) {
    return pv.changePercentText(change.relative_change) + " " + (change.worse ? "worse" : "better");
  };

  // Two significant digits are enough to tell how sure a change is: "2.7e-26", "0.00031".
  function pValueText(p) {
    return String(Number(p.toPrecision(2)));
  }

  // What a change is, after where it is: "20 ms → 23 ms (+15.0%, worse), p = 2.7e-26", the
  // means written as the tooltips write a value. `unit` is data: it stays text.
  pv.changeText = function (change, unit) {
    var display = pv.displayUnit(Math.max(Math.abs(change.before), Math.abs(change.after)), unit);
    return pv.text(pv.formatIn(change.before, display)) + " → " + pv.text(pv.formatIn(change.after, display)) +
      " (" + pv.changePercentText(change.relative_change) + ", " + (change.worse ? "worse" : "better") + "), p = " +
      pValueText(change.p_value);
  };

  // The legend's sample: a worse and a better marker side by side, dashed as on the charts,
  // for a swatch 28 wide and `height` high.
  pv.changeSwatchShape = function (height) {
    return pv.svg("g", null, [
      pv.svg("g", { class: "change-marker worse" }, [pv.svg("line", { class: "change-line", x1: 9, x2: 9, y1: 1, y2: height - 1 })]),
      pv.svg("g", { class: "change-marker better" }, [pv.svg("line", { class: "change-line", x1: 19, x2: 19, y1: 1, y2: height - 1 })]),
    ]);
  };

  var CHANGE_ROWS = 3; // label rows at the top of the plot, for changes close together
  var CHANGE_ROW_HEIGHT = 14;
  var CHANGE_CHAR_WIDTH = 6.6; // about, at the label's 11px bold: enough to keep labels apart

  // A dashed line across the plot at each change, with a short label at its top and the
  // whole change as its title. marks: [{change, x, title, index}] (x in the SVG's units;
  // index: what data-index names, the record or point that starts the new level). The
  // caller draws them above its hover area, so that pointing at a marker shows its title;
  // the pointer's moves still reach the chart's own hover, which listens on the whole SVG.
  // A chart has a handful of changes at most.
  pv.drawChangeMarkers = function (svg, plot, marks) {
    if (!marks.length) return;
    var rows = [];
    for (var r = 0; r < CHANGE_ROWS; r++) rows.push([]);
    var group = pv.svg("g", { class: "change-markers" });
    marks.forEach(function (mark) {
      var change = mark.change;
      var px = mark.x;
      var label = pv.changeLabel(change);
      var width = label.length * CHANGE_CHAR_WIDTH;
      // The label goes on the side where the values are lower, so it sits over the empty top
      // of the plot: left of a step up, right of a step down; the other side where it
      // would leave the plot.
      var left = change.after > change.before;
      if (left && px - 4 - width < plot.left) left = false;
      else if (!left && px + 4 + width > plot.right) left = true;
      var from = left ? px - 4 - width : px + 4;
      // The first row whose labels leave room for this one (the last when none does).
      var row = 0;
      while (row < CHANGE_ROWS - 1 && rows[row].some(function (span) { return from < span[1] + 6 && from + width > span[0] - 6; })) row++;
      rows[row].push([from, from + width]);
      var x = px.toFixed(1);
      group.appendChild(pv.svg("g", {
        class: "change-marker " + (change.worse ? "worse" : "better"),
        "data-index": mark.index,
        "data-x": px.toFixed(2),
      }, [
        pv.svg("title", { text: mark.title }),
        pv.svg("line", { class: "change-line", x1: x, x2: x, y1: plot.top, y2: plot.bottom }),
        // A wider, unseen line: a pointer need not land on the dashes to read the title.
        pv.svg("line", { class: "change-hit", x1: x, x2: x, y1: plot.top, y2: plot.bottom }),
        pv.svg("text", {
          class: "change-label",
          x: (left ? px - 4 : px + 4).toFixed(1),
          y: plot.top + 10 + row * CHANGE_ROW_HEIGHT,
          "text-anchor": left ? "end" : "start",
        }, label),
      ]));
    });
    svg.appendChild(group);
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
