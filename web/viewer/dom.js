// DOM and text helpers shared by the viewer's scripts. Every string that comes from
// history data enters the page through these as a text node or an attribute value, never
// as markup: a case named `<img src=x onerror=alert(1)>` is just a name.
(function (pv) {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";

  function append(parent, children) {
    if (children === undefined || children === null) return;
    if (!Array.isArray(children)) children = [children];
    for (var i = 0; i < children.length; i++) {
      var child = children[i];
      if (child === null || child === undefined || child === false) continue;
      parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
  }

  function applyProps(node, props) {
    if (!props) return;
    Object.keys(props).forEach(function (key) {
      var value = props[key];
      if (value === undefined || value === null || value === false) return;
      if (key === "text") node.textContent = String(value);
      else if (key === "on") {
        Object.keys(value).forEach(function (type) {
          node.addEventListener(type, value[type]);
        });
      } else node.setAttribute(key, String(value));
    });
  }

  // el("td", {class: "num"}, ["text", otherNode]): strings become text nodes.
  pv.el = function (tag, props, children) {
    var node = document.createElement(tag);
    applyProps(node, props);
    append(node, children);
    return node;
  };

  pv.svg = function (tag, props, children) {
    var node = document.createElementNS(SVG_NS, tag);
    applyProps(node, props);
    append(node, children);
    return node;
  };

  pv.clear = function (node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  };

  // Draws card(item) for each item of `list` into a grid of cards in `container`, or the
  // note `emptyText` when the list is empty: the first `firstCount` cards at once, the rest
  // `perTask` at a time in later tasks. A newer render into the same container stops an
  // older one; container.dataset.complete is "1" once every card is drawn.
  pv.renderCardGrid = function (container, list, firstCount, perTask, emptyText, card) {
    pv.clear(container);
    var token = {};
    container.renderToken = token;
    container.dataset.complete = "";
    if (!list.length) {
      container.appendChild(pv.el("p", { class: "note" }, emptyText));
      container.dataset.complete = "1";
      return;
    }
    var grid = pv.el("div", { class: "cards" });
    container.appendChild(grid);
    var next = 0;
    function draw(count) {
      if (container.renderToken !== token) return; // a newer render replaced this one
      var fragment = document.createDocumentFragment();
      var end = Math.min(list.length, next + count);
      for (; next < end; next++) fragment.appendChild(card(list[next]));
      grid.appendChild(fragment);
      if (next < list.length) setTimeout(draw, 0, perTask);
      else container.dataset.complete = "1";
    }
    draw(firstCount);
  };

  // Environment and configuration values are free-form JSON: show any of them as text.
  pv.text = function (value) {
    if (value === null || value === undefined) return "—";
    if (typeof value === "string") return value;
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    return JSON.stringify(value);
  };

  pv.shortSha = function (sha) {
    return typeof sha === "string" ? sha.slice(0, 10) : "—";
  };

  function pad(n) {
    return n < 10 ? "0" + n : String(n);
  }

  // Commit times are seconds since the epoch; shown in UTC so that every reader of a
  // permalink sees the same text.
  pv.commitTime = function (seconds) {
    if (seconds === null || seconds === undefined) return "time unknown";
    var d = new Date(seconds * 1000);
    return (
      d.getUTCFullYear() + "-" + pad(d.getUTCMonth() + 1) + "-" + pad(d.getUTCDate()) +
      " " + pad(d.getUTCHours()) + ":" + pad(d.getUTCMinutes()) + " UTC"
    );
  };

  pv.commitDate = function (seconds) {
    if (seconds === null || seconds === undefined) return "";
    var d = new Date(seconds * 1000);
    return d.getUTCFullYear() + "-" + pad(d.getUTCMonth() + 1) + "-" + pad(d.getUTCDate());
  };

  pv.commitDayHour = function (seconds) {
    if (seconds === null || seconds === undefined) return "";
    var d = new Date(seconds * 1000);
    return pad(d.getUTCMonth() + 1) + "-" + pad(d.getUTCDate()) + " " + pad(d.getUTCHours()) + ":" + pad(d.getUTCMinutes());
  };

  // A record's instant (milliseconds since the epoch) to the second, in UTC.
  pv.instantText = function (ms) {
    if (ms === null || ms === undefined || !isFinite(ms)) return "time unknown";
    var d = new Date(ms);
    return (
      d.getUTCFullYear() + "-" + pad(d.getUTCMonth() + 1) + "-" + pad(d.getUTCDate()) +
      " " + pad(d.getUTCHours()) + ":" + pad(d.getUTCMinutes()) + ":" + pad(d.getUTCSeconds()) + " UTC"
    );
  };

  pv.utcParts = function (ms) {
    var d = new Date(ms);
    return {
      date: d.getUTCFullYear() + "-" + pad(d.getUTCMonth() + 1) + "-" + pad(d.getUTCDate()),
      monthDay: pad(d.getUTCMonth() + 1) + "-" + pad(d.getUTCDate()),
      month: d.getUTCFullYear() + "-" + pad(d.getUTCMonth() + 1),
      minute: pad(d.getUTCHours()) + ":" + pad(d.getUTCMinutes()),
      second: pad(d.getUTCHours()) + ":" + pad(d.getUTCMinutes()) + ":" + pad(d.getUTCSeconds()),
    };
  };

  // Booleans of the store's records: yes, no, or unknown when the file has none.
  pv.yesNo = function (value) {
    if (value === true) return "yes";
    if (value === false) return "no";
    return "—";
  };

  pv.summaryText = function (summary) {
    if (summary === null || summary === undefined) return "(summary unknown)";
    if (summary === "") return "(empty summary)";
    return summary;
  };

  // For reading at a glance: at most 4 significant digits, no exponent for usual sizes.
  pv.formatShort = function (value) {
    if (value === null || value === undefined || !isFinite(value)) return "—";
    var magnitude = Math.abs(value);
    if (magnitude !== 0 && (magnitude >= 1e7 || magnitude < 1e-4)) return value.toExponential(2);
    return String(Number(value.toPrecision(4)));
  };

  // A stored value for reading, in the store's views and the history's evidence tables
  // alike: 15 significant digits, which every double holds, so that a unit's conversion
  // (12.5 ms stored as 0.012500000000000002 s, 101 ms as 0.10099999999999999 s) shows no
  // binary noise; nothing a measurement could tell apart is rounded away.
  pv.formatValue = function (value) {
    if (value === null || value === undefined) return "—";
    return typeof value === "number" ? String(Number(value.toPrecision(15))) : pv.text(value);
  };

  pv.formatCount = function (n) {
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  };

  pv.plural = function (n, one, many) {
    return pv.formatCount(n) + " " + (n === 1 ? one : many);
  };

  // Counts of work (perfgate's counted runs: docs/measurement.md, "Instruction counts") are
  // read beside the times, never instead of them: each count's chart says so.
  pv.isCountUnit = function (unit) {
    return unit === "instructions" || unit === "cycles" || unit === "misses";
  };
  pv.COUNT_NOTE = "A count of work, not a time: a proxy that misses I/O, waiting, contention, " +
    "memory bandwidth and a faster instruction mix. Latency stays the truth.";
})((window.PerfgateViewer = window.PerfgateViewer || {}));
