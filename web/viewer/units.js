// Human units, by the one rule the terminal and the Markdown reports use
// (src/report/units.cpp): seconds are shown in ns, µs, ms or s by the size of the values;
// MB (perfgate's MB is 2^20 bytes) stays MB below 1024 and becomes GiB from there; bytes
// (B) take KiB, MiB, GiB or TiB from 10^4 up; other
// units take a k, M, G or T prefix from 10^4 up; at most 4 significant digits in plain
// decimals, trailing zeros dropped. tests/fixtures/units.json holds cases that the C++
// tests and the browser tests both check, so the two cannot drift apart.
(function (pv) {
  "use strict";

  var SIGNIFICANT = 4;
  var PREFIXES = [[1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "k"]];
  var MB_PER_GIB = 1024;
  var BINARY = [[1099511627776, "TiB"], [1073741824, "GiB"], [1048576, "MiB"], [1024, "KiB"]];

  // The unit quantities of `unit` around the size of `reference` are shown in:
  // {divisor, suffix}. Values shown side by side (an axis, a column) share one, chosen from
  // the largest of them.
  pv.displayUnit = function (reference, unit) {
    var magnitude = Math.abs(reference);
    if (unit === "s") {
      if (magnitude !== 0 && magnitude < 1e-6) return { divisor: 1e-9, suffix: "ns" };
      if (magnitude !== 0 && magnitude < 1e-3) return { divisor: 1e-6, suffix: "µs" };
      if (magnitude !== 0 && magnitude < 1) return { divisor: 1e-3, suffix: "ms" };
      return { divisor: 1, suffix: "s" };
    }
    // perfgate's MB is 2^20 bytes, so 1024 MB is one GiB.
    if (unit === "MB") return magnitude >= MB_PER_GIB ? { divisor: MB_PER_GIB, suffix: "GiB" } : { divisor: 1, suffix: "MB" };
    // Bytes take binary prefixes, from 10^4 up like the others: 4.106e6 B reads 3.916 MiB,
    // never "4.106 M B", which a reader takes for perfgate's MB (2^20 bytes).
    if (unit === "B") {
      for (var b = 0; b < BINARY.length; b++) {
        if (magnitude >= BINARY[b][0] && magnitude >= 1e4) return { divisor: BINARY[b][0], suffix: BINARY[b][1] };
      }
      return { divisor: 1, suffix: "B" };
    }
    for (var i = 0; i < PREFIXES.length; i++) {
      if (magnitude >= PREFIXES[i][0] && magnitude >= 1e4) {
        return { divisor: PREFIXES[i][0], suffix: unit ? PREFIXES[i][1] + " " + unit : PREFIXES[i][1] };
      }
    }
    return { divisor: 1, suffix: unit };
  };

  // `value` with 4 significant digits in plain decimals: "12.35", "10840", "0.5".
  pv.significant = function (value) {
    if (!isFinite(value)) return value > 0 ? "inf" : "-inf";
    if (value === 0) return "0";
    var magnitude = Math.floor(Math.log10(Math.abs(value)));
    var text = value.toFixed(Math.max(0, SIGNIFICANT - 1 - magnitude));
    if (text.indexOf(".") >= 0) text = text.replace(/0+$/, "").replace(/\.$/, "");
    return text === "-0" ? "0" : text;
  };

  // "12.35 ms": `value` (in the metric's unit) in `display`.
  pv.formatIn = function (value, display) {
    var number = pv.significant(value / display.divisor);
    return display.suffix ? number + " " + display.suffix : number;
  };

  pv.formatQuantity = function (value, unit) {
    return pv.formatIn(value, pv.displayUnit(value, unit));
  };

  // The display unit of a store metric or a history series, computed once per document.
  var cached = new WeakMap();
  pv.displayFor = function (owner, lists, unit) {
    var found = cached.get(owner);
    if (found) return found;
    var largest = 0;
    lists.forEach(function (values) { largest = Math.max(largest, maxAbs(values)); });
    found = pv.displayUnit(largest, unit);
    cached.set(owner, found);
    return found;
  };
  function maxAbs(values) {
    var largest = 0;
    for (var i = 0; i < values.length; i++) {
      var v = values[i];
      if (v !== null && v !== undefined && isFinite(v) && Math.abs(v) > largest) largest = Math.abs(v);
    }
    return largest;
  }
  pv.metricDisplay = function (metric) {
    return pv.displayFor(metric, [metric.values], metric.unit);
  };
  pv.seriesDisplay = function (series) {
    return pv.displayFor(series, [series.points.median, series.points.max], series.unit);
  };

  // The value in `display`, and the exact value as stored when the two differ:
  // "12.35 ms (0.0123456 s)". `unit` is data: it stays text.
  pv.valueWithExact = function (value, display, unit) {
    if (value === null || value === undefined) return "—";
    var shown = pv.formatIn(value, display);
    var exact = pv.formatValue(value) + (unit ? " " + pv.text(unit) : "");
    return shown === exact ? shown : shown + " (" + exact + ")";
  };

  // "latency (ms)", or the name alone for a plain count.
  pv.titledWithUnit = function (name, display) {
    return display.suffix ? name + " (" + display.suffix + ")" : name;
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
