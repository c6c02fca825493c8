// The panels around the chart: page summary, series setup, view controls, legend, notes.
(function (pv) {
  "use strict";

  // The history's header: what history this is, and how much of it is measured (the page
  // title is main.js's, since a page may show a store too).
  pv.renderSummary = function (model) {
    var doc = model.doc;
    var coverage = doc.coverage || {};
    var current = model.commitIndexBySha.get(doc.current);
    var currentStatus = current === undefined ? "not monitored" : model.commits[current].status;
    document.getElementById("history-title").textContent = "Commit history of " + pv.text(doc.branch);
    var facts = pv.clear(document.getElementById("facts"));
    [
      ["archive", pv.text(doc.archive)],
      ["baseline", pv.shortSha(doc.baseline)],
      ["current", pv.shortSha(doc.current) + " (" + currentStatus + ")"],
      ["exported", pv.text(doc.generated_at) + " by " + pv.text(doc.generated_by)],
    ].forEach(function (fact) {
      facts.appendChild(pv.el("div", null, [pv.el("dt", null, fact[0]), pv.el("dd", null, fact[1])]));
    });
    var monitored = model.commits.length;
    var bar = pv.clear(document.getElementById("coverage"));
    bar.appendChild(pv.el("p", null,
      pv.plural(monitored, "monitored commit", "monitored commits") + ": " +
      pv.formatCount(coverage.measured || 0) + " measured, " +
      pv.formatCount(coverage.failed || 0) + " failed, " +
      pv.formatCount(coverage.missing || 0) + " missing"));
    if (monitored) {
      var meter = pv.el("div", { class: "meter", "aria-hidden": "true" });
      ["measured", "failed", "missing"].forEach(function (kind) {
        var part = pv.el("span", { class: "meter-" + kind });
        part.style.width = ((100 * (coverage[kind] || 0)) / monitored).toFixed(2) + "%";
        meter.appendChild(part);
      });
      bar.appendChild(meter);
    }
    // Per machine, when the export says it: a commit is measured on each machine apart.
    var environments = Array.isArray(doc.environments) ? doc.environments : [];
    if (environments.length > 1 || (environments.length === 1 && environments[0].id)) {
      var list = pv.el("ul", { class: "environments" });
      environments.forEach(function (env) {
        var c = env.coverage || {};
        list.appendChild(pv.el("li", { "data-environment": pv.text(env.id) },
          "on " + (env.id ? pv.text(env.id) : "an unnamed machine") + ": " +
          pv.formatCount(c.measured || 0) + " measured, " +
          pv.formatCount(c.failed || 0) + " failed, " +
          pv.formatCount(c.missing || 0) + " missing · current " + pv.text(env.current)));
      });
      bar.appendChild(list);
    }
  };

  pv.setupLine = function (series) {
    var env = series.environment || {};
    var c = series.points.commit;
    return [
      pv.text(series.label),
      "CPU " + pv.text(env.cpu),
      "kernel " + pv.text(env.kernel),
      pv.plural(series.threads === undefined ? 0 : series.threads, "thread", "threads"),
      "harness v" + pv.text(series.harness_version),
      pv.plural(c.length, "point", "points") + " from " + pv.shortSha(series.first_commit) + " (#" + c[0] + ") to " +
        pv.shortSha(series.last_commit) + " (#" + c[c.length - 1] + ")",
      "series " + pv.text(series.id),
    ].join(" · ");
  };

  pv.environmentDetails = function (series) {
    var env = series.environment && typeof series.environment === "object" ? series.environment : {};
    var list = pv.el("dl", { class: "environment" });
    Object.keys(env).sort().forEach(function (key) {
      list.appendChild(pv.el("div", null, [pv.el("dt", null, key), pv.el("dd", null, pv.text(env[key]))]));
    });
    return pv.el("details", { class: "setup" }, [pv.el("summary", null, "Environment of this series"), list]);
  };

  // Mode, commit range and reference; `change(key, value)` updates the view state and
  // `useFirstPoint()` resets the reference.
  pv.renderControls = function (box, model, state, ctx, change, useFirstPoint) {
    pv.clear(box);
    function radio(name, value, text) {
      var input = pv.el("input", { type: "radio", name: name, value: value, id: name + "-" + value, checked: state[name] === value ? "checked" : null });
      input.addEventListener("change", function () { change(name, value); });
      return pv.el("label", { for: name + "-" + value }, [input, " " + text]);
    }
    box.appendChild(pv.el("fieldset", null, [
      pv.el("legend", null, "Values"),
      radio("mode", "absolute", "absolute"),
      radio("mode", "ratio", "ratio to a reference"),
    ]));
    box.appendChild(pv.el("fieldset", null, [
      pv.el("legend", null, "Commits"),
      radio("range", "all", "all monitored"),
      radio("range", "series", "this series' range"),
    ]));
    if (state.mode === "ratio") {
      var p = ctx.series.points;
      var refCommit = model.commits[p.commit[ctx.refPoint]];
      box.appendChild(pv.el("fieldset", { id: "reference" }, [
        pv.el("legend", null, "Reference"),
        pv.el("span", { class: "mono", id: "reference-commit" }, pv.shortSha(refCommit.sha)),
        " #" + p.commit[ctx.refPoint] + (ctx.refPoint === 0 ? " (first point)" : "") + " ",
        pv.el("button", { type: "button", id: "reference-first", on: { click: useFirstPoint } }, "use the first point"),
        pv.el("span", { class: "hint" }, " Click a point (or focus the chart, move with the arrow keys and press Enter) to choose another."),
      ]));
    }
  };

  function swatch(kind) {
    var shapes = {
      line: [pv.svg("line", { class: "line", x1: 2, x2: 26, y1: 8, y2: 8 })],
      band: [pv.svg("rect", { class: "band", x: 2, y: 3, width: 24, height: 10 })],
      flag: [pv.svg("path", { class: "flags", d: "M14,13l-5,-9h10z" })],
      "flag-confirmed": [pv.svg("path", { class: "flags flags-confirmed", d: "M14,13l-5,-9h10z" })],
      "flag-unconfirmed": [pv.svg("path", { class: "flags flags-unconfirmed", d: "M14,13l-5,-9h10z" })],
      failed: [pv.svg("path", { class: "marker-failed", d: "M10,4l8,8m0,-8l-8,8" })],
      missing: [pv.svg("circle", { class: "marker-missing", cx: 14, cy: 8, r: 3.5 })],
      absent: [pv.svg("path", { class: "marker-absent", d: "M14,4v8" })],
      ref: [pv.svg("line", { class: "ref-line", x1: 2, x2: 26, y1: 8, y2: 8 })],
      change: [pv.changeSwatchShape(16)],
    };
    return pv.svg("svg", { class: "swatch", width: 28, height: 16, viewBox: "0 0 28 16", "aria-hidden": "true" }, shapes[kind]);
  }

  pv.renderLegend = function (legend, ctx) {
    var items = [
      ["line", "median"],
      ["band", "min–max of the repetitions"],
      ["flag", "flagged: possible regression, not yet re-measured"],
      ["flag-confirmed", "flag confirmed by a re-measurement"],
      ["flag-unconfirmed", "flag a re-measurement did not raise"],
      ["failed", "failed commit (" + pv.formatCount(ctx.gaps.failed.length) + ")"],
      ["missing", "missing commit (" + pv.formatCount(ctx.gaps.missing.length) + ")"],
      ["absent", "measured, no point in this series (" + pv.formatCount(ctx.gaps.absent.length) + ")"],
    ];
    if (ctx.mode === "ratio") items.push(["ref", "1× = the reference point's median"]);
    // Only where the chart draws one: most series have no change, and a legend item for a
    // mark the chart does not show would send a reader looking for it.
    if (pv.seriesChanges(ctx.series).length) {
      items.push(["change", "dashed line: a change point (docs/changes.md), at the first point of the new level; red worse, green better"]);
    }
    pv.clear(legend);
    items.forEach(function (item) {
      legend.appendChild(pv.el("span", { class: "legend-item" }, [swatch(item[0]), item[1]]));
    });
  };

  // "Find the commit": for each change point and flag of the series, the command that bisects
  // the commits around it (docs/bisect.md). history.json is the export the page shows, as
  // `perfgate history export -o` wrote it; the command runs in the repository.
  pv.renderBisectHints = function (box, model, series) {
    pv.clear(box);
    var lines = [];
    pv.seriesChanges(series).forEach(function (change, c) {
      var commit = model.commits[series.points.commit[change.index]];
      lines.push([
        "Change " + (c + 1) + " at " + commit.sha.slice(0, 12) + " (" + pv.changeLabel(change) + ")",
        "perfgate history bisect --from history.json --series " + series.id + " --change " + (c + 1),
      ]);
    });
    (Array.isArray(model.doc.flags) ? model.doc.flags : []).forEach(function (flag) {
      if (flag.series !== series.id) return;
      lines.push([
        "Flag at " + String(flag.commit).slice(0, 12) + " (" + pv.text(flag.confirmation || "not_remeasured").replace("_", " ") + ")",
        "perfgate history bisect --from history.json --series " + series.id + " --flag " + String(flag.commit).slice(0, 12),
      ]);
    });
    box.hidden = lines.length === 0;
    if (!lines.length) return;
    box.appendChild(pv.el("h3", {}, "Find the commit"));
    box.appendChild(pv.el("p", { class: "note" }, "Each command measures the commits around the change or flag, in alternation, until a confidence sequence names the commit (docs/bisect.md)."));
    var list = pv.el("ul", { class: "bisect-hints" });
    lines.forEach(function (line) {
      list.appendChild(pv.el("li", {}, [line[0] + ": ", pv.el("code", {}, line[1])]));
    });
    box.appendChild(list);
  };

  var CHANGE_LIST_MAX = 50; // entries listed; the points table lists every flag

  function flagWords(model, series, k) {
    var flag = model.flagByPoint.get(series.id + " " + model.commits[series.points.commit[k]].sha);
    var change = flag && typeof flag.change_percent === "number"
      ? pv.flagPercentText(flag.change_percent) + " "
      : "";
    var state = pv.flagConfirmation(model, series, k);
    return "possible regression, " + change + "vs the previous point; " +
      (state === "confirmed" ? "confirmed by a re-measurement" : state === "unconfirmed" ? "a re-measurement did not raise it" : "not yet re-measured");
  }

  // The change points and flags of the series as text, under the chart, for a reader who
  // does not point at its marks (or cannot see them): a change worded as its marker's title
  // (chart.js), a flag as its point's tooltip, in commit order. Each entry's button puts the
  // chart's cursor on its point and focuses the chart, where the arrow keys go on from it.
  // `chart` is the chart's container (its chartInteraction). A series with neither has no
  // list.
  pv.renderChangeList = function (box, model, series, chart) {
    pv.clear(box);
    var p = series.points;
    var where = function (k) {
      var c = p.commit[k];
      var commit = model.commits[c];
      return pv.shortSha(commit.sha) + " (#" + c + ", " + pv.commitTime(commit.time) + ")";
    };
    var entries = pv.seriesChanges(series).map(function (change) {
      return { k: change.index, order: 0, kind: change.worse ? "change worse" : "change better",
        text: "change at " + where(change.index) + ": " + pv.changeText(change, series.unit) };
    });
    for (var k = 0; k < p.commit.length; k++) {
      if (p.flag[k] === 1) entries.push({ k: k, order: 1, kind: "flag", text: "flag at " + where(k) + ": " + flagWords(model, series, k) });
    }
    box.hidden = entries.length === 0;
    if (!entries.length) return;
    entries.sort(function (a, b) { return a.k - b.k || a.order - b.order; });
    var changes = pv.seriesChanges(series).length;
    var flags = entries.length - changes;
    box.appendChild(pv.el("h3", null, "Change points and flags"));
    var list = pv.el("ul", { class: "change-points" });
    entries.slice(0, CHANGE_LIST_MAX).forEach(function (entry) {
      list.appendChild(pv.el("li", { class: entry.kind, "data-point": entry.k }, [
        pv.el("span", { class: "change-entry" }, entry.text),
        " ",
        pv.el("button", { type: "button", class: "show-point", on: { click: function () {
          var svg = chart.querySelector("svg");
          if (!svg || !chart.chartInteraction) return;
          chart.chartInteraction.showPoint(entry.k);
          svg.focus();
        } } }, "show on the chart"),
      ]));
    });
    if (entries.length > CHANGE_LIST_MAX) {
      list.appendChild(pv.el("li", null, "and " + pv.plural(entries.length - CHANGE_LIST_MAX, "other", "others") + " (the points table lists every flag)"));
    }
    box.appendChild(pv.el("p", { class: "note" }, pv.plural(changes, "change point", "change points") + " and " +
      pv.plural(flags, "flag", "flags") + " in this series, as the chart marks them:"));
    box.appendChild(list);
  };

  pv.renderNotes = function (notes, series, notices) {
    pv.clear(notes);
    if (series.points.commit.length === 1) {
      notes.appendChild(pv.el("p", { class: "note trend", id: "no-trend" }, "This series has one point, so there is no trend yet."));
    }
    notices.forEach(function (text) {
      notes.appendChild(pv.el("p", { class: "note warning" }, text));
    });
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
