// Scales, axis ticks and decimation for the SVG charts. When points outnumber pixels, a
// chart draws per pixel column the first, lowest, highest and last value (the M4 method):
// the line keeps every spike, and its size follows the chart width, not the history size.
(function (pv) {
  "use strict";

  pv.linearScale = function (d0, d1, r0, r1) {
    var span = d1 - d0 || 1;
    var k = (r1 - r0) / span;
    var scale = function (v) {
      return r0 + (v - d0) * k;
    };
    scale.invert = function (p) {
      return d0 + (p - r0) / k;
    };
    return scale;
  };

  // About `count` round ticks (1, 2 or 5 times a power of ten) covering [lo, hi].
  pv.niceTicks = function (lo, hi, count) {
    if (!(hi > lo)) return { ticks: [lo], step: 1 };
    var rough = (hi - lo) / Math.max(1, count);
    var power = Math.pow(10, Math.floor(Math.log10(rough)));
    var step = power;
    [1, 2, 5, 10].some(function (m) {
      step = m * power;
      return step >= rough;
    });
    var ticks = [];
    var first = Math.ceil(lo / step - 1e-9);
    for (var i = first; i * step <= hi + step * 1e-9; i++) ticks.push(Number((i * step).toPrecision(12)));
    return { ticks: ticks, step: step };
  };

  // Pads [lo, hi] so that points do not sit on the frame; a flat series gets a small
  // band around its value instead of a zero-height axis.
  pv.paddedDomain = function (lo, hi) {
    if (!isFinite(lo) || !isFinite(hi)) return [0, 1];
    if (hi === lo) {
      var half = Math.abs(lo) * 0.05 || 1;
      return [lo - half, hi + half];
    }
    var pad = (hi - lo) * 0.08;
    return [lo - pad, hi + pad];
  };

  // Range [from, to) of point indices whose commit lies in [lo, hi] (points are sorted).
  pv.visiblePoints = function (series, lo, hi) {
    var commits = series.points.commit;
    return [pv.lowerBound(commits, lo), pv.lowerBound(commits, hi + 1)];
  };

  // The per pixel column decimation under decimatedLine and gappedLine: feed it the points
  // in order with add(px, v), px a rounded column; it keeps per column the first, lowest,
  // highest and last value as path commands in `parts`. end() closes the run of columns
  // and returns how many it had; the next add starts a new run with "M".
  function columnPath(y) {
    var parts = [];
    var column = NaN;
    var columns = 0;
    var first, low, high, last;
    function flush() {
      if (column !== column) return; // NaN: no column yet
      parts.push((columns ? "L" : "M") + column + "," + y(first).toFixed(1));
      if (low !== first) parts.push("L" + column + "," + y(low).toFixed(1));
      if (high !== low) parts.push("L" + column + "," + y(high).toFixed(1));
      if (last !== high) parts.push("L" + column + "," + y(last).toFixed(1));
      columns++;
      column = NaN;
    }
    return {
      parts: parts,
      add: function (px, v) {
        if (px !== column) {
          flush();
          column = px;
          first = low = high = last = v;
        } else {
          if (v < low) low = v;
          if (v > high) high = v;
          last = v;
        }
      },
      end: function () {
        flush();
        var run = columns;
        columns = 0;
        return run;
      },
    };
  }

  // SVG path of values[k] * factor against x(commits[k]) for k in [from, to), decimated
  // per pixel column.
  pv.decimatedLine = function (commits, values, factor, from, to, x, y) {
    var path = columnPath(y);
    for (var k = from; k < to; k++) path.add(Math.round(x(commits[k])), values[k] * factor);
    path.end();
    return path.parts.join("");
  };

  // Closed SVG path of the band between lows[k] and highs[k] (per pixel column: the lowest
  // low and the highest high), for the min..max spread of the repetitions.
  pv.decimatedBand = function (commits, lows, highs, factor, from, to, x, y) {
    var xs = [];
    var tops = [];
    var bottoms = [];
    for (var k = from; k < to; k++) {
      var px = Math.round(x(commits[k]));
      var lo = lows[k] * factor;
      var hi = highs[k] * factor;
      var n = xs.length;
      if (n && xs[n - 1] === px) {
        if (lo < bottoms[n - 1]) bottoms[n - 1] = lo;
        if (hi > tops[n - 1]) tops[n - 1] = hi;
      } else {
        xs.push(px);
        tops.push(hi);
        bottoms.push(lo);
      }
    }
    if (!xs.length) return "";
    if (xs.length === 1) {
      // One column: a thin bar is still visible.
      return "M" + (xs[0] - 2) + "," + y(tops[0]).toFixed(1) + "h4V" + y(bottoms[0]).toFixed(1) + "h-4Z";
    }
    var parts = [];
    for (var i = 0; i < xs.length; i++) parts.push((i ? "L" : "M") + xs[i] + "," + y(tops[i]).toFixed(1));
    for (var j = xs.length - 1; j >= 0; j--) parts.push("L" + xs[j] + "," + y(bottoms[j]).toFixed(1));
    return parts.join("") + "Z";
  };

  // Pixel columns (deduplicated, in order) of the given sorted commit indices in [lo, hi].
  pv.markerColumns = function (commitIndices, lo, hi, x) {
    var columns = [];
    for (var i = pv.lowerBound(commitIndices, lo); i < commitIndices.length && commitIndices[i] <= hi; i++) {
      var px = Math.round(x(commitIndices[i]));
      if (columns[columns.length - 1] !== px) columns.push(px);
    }
    return columns;
  };

  // Time axes (the store's charts): about `count` ticks on round UTC instants covering
  // [lo, hi] milliseconds, each with its label and, where it changes, the coarser part
  // under it (the date under hours, the year under days), so that labels stay short.
  var SECOND = 1000;
  var MINUTE = 60 * SECOND;
  var HOUR = 60 * MINUTE;
  var DAY = 24 * HOUR;
  var FIXED_STEPS = [
    SECOND, 2 * SECOND, 5 * SECOND, 10 * SECOND, 15 * SECOND, 30 * SECOND,
    MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE,
    HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR,
    DAY, 2 * DAY, 7 * DAY, 14 * DAY,
  ];
  var MONTH_STEPS = [1, 2, 3, 6, 12, 24, 60, 120, 240, 600, 1200];

  function timeLabel(t, step) {
    var parts = pv.utcParts(t);
    if (step < MINUTE) return { main: parts.second, sub: parts.date };
    if (step < DAY) return { main: parts.minute, sub: parts.date };
    if (step < 28 * DAY) return { main: parts.monthDay, sub: parts.date.slice(0, 4) };
    if (step < 12 * 30 * DAY) return { main: parts.month, sub: "" };
    return { main: parts.date.slice(0, 4), sub: "" };
  }

  pv.timeTicks = function (lo, hi, count) {
    var rough = (hi - lo) / Math.max(1, count);
    var ticks = [];
    var step = 0;
    for (var i = 0; i < FIXED_STEPS.length && !step; i++) if (FIXED_STEPS[i] >= rough) step = FIXED_STEPS[i];
    if (step) {
      // Multiples of the step since the epoch: days fall on UTC midnight.
      for (var t = Math.ceil(lo / step) * step; t <= hi; t += step) ticks.push(t);
    } else {
      var months = MONTH_STEPS[MONTH_STEPS.length - 1];
      for (var j = 0; j < MONTH_STEPS.length; j++) {
        if (MONTH_STEPS[j] * 30.4 * DAY >= rough) {
          months = MONTH_STEPS[j];
          break;
        }
      }
      step = months * 30.4 * DAY;
      var start = new Date(lo);
      var index = start.getUTCFullYear() * 12 + start.getUTCMonth();
      index = Math.ceil(index / months) * months;
      for (;; index += months) {
        var instant = Date.UTC(Math.floor(index / 12), index % 12, 1);
        if (instant > hi) break;
        if (instant >= lo) ticks.push(instant);
      }
    }
    var previousSub = null;
    var labels = ticks.map(function (tick) {
      var label = timeLabel(tick, step);
      if (label.sub === previousSub) label.sub = "";
      else previousSub = label.sub;
      return label;
    });
    return { ticks: ticks, labels: labels };
  };

  // SVG path of values[k] against x(times[k]) for k in [from, to), decimated per pixel
  // column like decimatedLine, broken where a value is null: a record without the metric
  // is a gap in the line, never a zero. A run of one column ends with a zero-length
  // segment, which the round line caps draw as a dot.
  pv.gappedLine = function (times, values, from, to, x, y) {
    var path = columnPath(y);
    function endRun() {
      if (path.end() === 1) path.parts.push("h0");
    }
    for (var k = from; k < to; k++) {
      var v = values[k];
      if (v === null || v === undefined) endRun();
      else path.add(Math.round(x(times[k])), v);
    }
    endRun();
    return path.parts.join("");
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
