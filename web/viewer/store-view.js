// The store views: loads nothing itself (main.js hands over the document), wires the cohort
// chooser, the chosen cohort's charts and records, and the overview of all cohorts to the
// view state in the URL hash, which it shares with the history views.
(function (pv) {
  "use strict";

  var app = { model: null, state: null, chooser: null, shown: [], notices: [], dirty: { cohort: true, overview: true } };

  function byId(id) {
    return document.getElementById(id);
  }

  function chosen() {
    return app.model.byId.get(app.state.cohort);
  }

  function filtered() {
    return Boolean(app.state.source || app.state.status);
  }

  function renderFacts() {
    var doc = app.model.doc;
    byId("store-title").textContent = "Records of " + pv.text(doc.store);
    var facts = pv.clear(byId("store-facts"));
    var filter = doc.filter && typeof doc.filter === "object" ? doc.filter : {};
    var selection = [];
    if (filter.benchmark !== null && filter.benchmark !== undefined) selection.push("benchmark " + pv.text(filter.benchmark));
    if (filter.since !== null && filter.since !== undefined) selection.push("since " + pv.text(filter.since));
    [
      ["store", pv.text(doc.store)],
      ["records", pv.formatCount(app.model.recordCount) + " in " + pv.plural(app.model.cohorts.length, "cohort", "cohorts")],
      ["selected", selection.length ? selection.join(", ") : "every record of the store"],
      ["exported", pv.text(doc.generated_at)],
    ].forEach(function (fact) {
      facts.appendChild(pv.el("div", null, [pv.el("dt", null, fact[0]), pv.el("dd", null, fact[1])]));
    });
    var notes = pv.clear(byId("store-notes"));
    if (typeof doc.record_count === "number" && doc.record_count !== app.model.recordCount) {
      notes.appendChild(pv.el("p", { class: "note warning" },
        "record_count says " + pv.formatCount(doc.record_count) + ", but the cohorts hold " + pv.formatCount(app.model.recordCount) + " records; the records are shown."));
    }
    if (app.model.unplaced.length) notes.appendChild(unplacedNote(app.model.unplaced));
  }

  var UNPLACED_LISTED = 20;

  function unplacedText(value) {
    return value === "" ? "(empty)" : pv.text(value);
  }

  // The records the document could not place on a time axis, each as text: benchmark,
  // record id and the timestamp as stored.
  function unplacedNote(unplaced) {
    var n = unplaced.length;
    var list = pv.el("ul", { class: "unplaced-list" });
    unplaced.slice(0, UNPLACED_LISTED).forEach(function (entry) {
      list.appendChild(pv.el("li", null, [
        unplacedText(entry.benchmark),
        " · record ", pv.el("span", { class: "mono" }, unplacedText(entry.record)),
        " · timestamp ", pv.el("span", { class: "mono" }, unplacedText(entry.timestamp)),
      ]));
    });
    if (n > UNPLACED_LISTED) list.appendChild(pv.el("li", null, "and " + pv.plural(n - UNPLACED_LISTED, "other", "others")));
    return pv.el("div", { class: "note warning", id: "store-unplaced" }, [
      pv.el("p", null, pv.plural(n, "record was", "records were") + " left out of the cohorts and charts: " +
        (n === 1 ? "its timestamp is" : "their timestamps are") + " not an instant, so " +
        (n === 1 ? "it has" : "they have") + " no place on a time axis."),
      list,
    ]);
  }

  function swatch(className) {
    var shape = className === "line"
      ? pv.svg("path", { class: "store-line", d: "M2,8h24" })
      : className === "band"
        ? pv.svg("g", null, [pv.svg("path", { class: "band store-band", d: "M2,3h24v10h-24z" }), pv.svg("path", { class: "store-median", d: "M2,8h24" })])
      : className === "no-value"
        ? pv.svg("path", { class: "no-value", d: "M14,4v8" })
        : className === "change"
          ? pv.changeSwatchShape(18)
          : pv.svg("path", { class: "marker " + className, d: pv.markerPath(className, 14, 9) });
    return pv.svg("svg", { class: "swatch", width: 28, height: 18, viewBox: "0 0 28 18", "aria-hidden": "true" }, [shape]);
  }

  function changeCount(info) {
    return info.changes.reduce(function (sum, list) { return sum + list.length; }, 0);
  }

  // The marks of the charts, with this cohort's count of each status.
  function renderLegend(info) {
    var legend = pv.clear(byId("cohort-legend"));
    var items = [["line", "values in time order (the mean of each record's runs); a gap where a record has no value"]];
    if (info.metrics.some(function (metric) { return metric.spread; })) {
      items.push(["band", "band: each record's fastest to slowest run; dashed: the median of its runs"]);
    }
    var ownVerdicts = info.metrics.some(function (metric) { return metric.verdicts; });
    if (ownVerdicts) {
      // Per chart: a record that regressed on one metric is a triangle on that chart only.
      items.push(["note", "markers show each chart's own metric: its verdict in that record, not the record's status"]);
      var marked = {};
      info.metrics.forEach(function (metric) {
        (metric.verdicts || []).forEach(function (verdict) { if (verdict !== null) marked[verdict] = true; });
      });
      [["regressed", "st-regression"], ["inconclusive", "st-inconclusive"], ["not_gated", "st-notgated"], ["ok", "st-pass"]].forEach(function (pair) {
        if (marked[pair[0]]) items.push([pair[1], pv.VERDICT_TEXT[pair[0]]]);
      });
    }
    pv.orderStatuses(Array.from(info.statusCounts.keys())).forEach(function (status) {
      items.push([pv.statusClass(status), (ownVerdicts ? "record status " : "") + status + " (" + pv.formatCount(info.statusCounts.get(status)) + ")"]);
    });
    items.push(["no-value", "record without this metric"]);
    // Only where a chart draws one: most cohorts have no change, and a legend item for a
    // mark no chart shows would send a reader looking for it.
    if (changeCount(info)) {
      items.push(["change", "dashed line: a change point (docs/changes.md), at the first record after it; red worse, green better"]);
    }
    items.forEach(function (item) {
      legend.appendChild(item[0] === "note"
        ? pv.el("span", { class: "legend-item legend-note" }, item[1])
        : pv.el("span", { class: "legend-item" }, [swatch(item[0]), item[1]]));
    });
  }

  function renderIdentity(info) {
    var cohort = info.cohort;
    var identity = cohort.identity && typeof cohort.identity === "object" ? cohort.identity : {};
    var list = pv.clear(byId("cohort-identity"));
    var rows = [["id", pv.text(cohort.id)], ["kind", pv.kindText(cohort.kind)]];
    pv.IDENTITY_FIELDS.forEach(function (field) {
      rows.push([field, identity[field] === null || identity[field] === undefined ? "— (not recorded)" : pv.text(identity[field])]);
    });
    rows.push(
      ["benchmarks", Array.isArray(cohort.benchmarks) ? cohort.benchmarks.map(pv.text).join(", ") : "—"],
      ["devices", Array.isArray(cohort.devices) ? cohort.devices.map(pv.text).join(", ") : "—"],
      ["records", pv.formatCount(info.n) + ", " + pv.cohortRange(info)]
    );
    rows.forEach(function (row) {
      list.appendChild(pv.el("div", null, [pv.el("dt", null, row[0]), pv.el("dd", { class: row[0] === "id" ? "mono" : null }, row[1])]));
    });
  }

  function metricTitle(info, metric) {
    var missing = 0;
    for (var k = 0; k < info.n; k++) if (metric.values[k] === null) missing++;
    var direction = metric.direction === "lower" ? "lower is better" : metric.direction === "higher" ? "higher is better" : "direction " + pv.text(metric.direction);
    return pv.titledWithUnit(pv.text(metric.name), pv.metricDisplay(metric)) + " · " + direction + " · " +
      pv.plural(info.n - missing, "value", "values") + (missing ? ", " + pv.plural(missing, "record", "records") + " without one" : "");
  }

  // The changes of a chart in words, under its title: "2 changes: 2026-11-13 10:00 UTC
  // 20 ms → 23 ms (+15.0%, worse), p = 2.7e-26; …", worded as the markers' titles, for a
  // reader who does not point at the markers (or cannot).
  function changeList(info, metric, changes) {
    return pv.el("p", { class: "change-list" }, pv.plural(changes.length, "change", "changes") + ": " + changes.map(function (change) {
      var at = pv.utcParts(info.times[change.index]);
      return at.date + " " + at.minute + " UTC " + pv.changeText(change, metric.unit);
    }).join("; "));
  }

  function renderCharts(info) {
    var box = pv.clear(byId("cohort-charts"));
    app.charts = [];
    if (!info.metrics.length) {
      box.appendChild(pv.el("p", { class: "note", id: "no-metrics" }, "No metric of this cohort has a value: there is nothing to chart."));
      return;
    }
    // The hosts first, then one read of their width, then the drawing: a width read after
    // each chart would lay the page out once per chart. The first drawing uses the width
    // read before the page was filled (app.startWidth): a read here would lay out the whole
    // page once more before it is shown.
    var hosts = info.metrics.map(function (metric, m) {
      var host = pv.el("div", { class: "metric-chart" });
      var changes = info.changes[m];
      box.appendChild(pv.el("div", { class: "metric-block" }, [
        pv.el("h3", { class: "metric-title" }, metricTitle(info, metric)),
        changes.length ? changeList(info, metric, changes) : null,
        pv.isCountUnit(metric.unit) ? pv.el("p", { class: "note count-note" }, pv.COUNT_NOTE) : null,
        host,
      ]));
      return host;
    });
    var width = app.startWidth || hosts[0].clientWidth;
    app.startWidth = 0;
    info.metrics.forEach(function (metric, m) {
      pv.renderMetricChart(hosts[m], { info: info, metric: metric, changes: info.changes[m], clipId: "store-clip-" + m, width: width });
    });
    app.charts = hosts;
  }

  function renderRecords(info) {
    var rows = pv.matchingRecords(info, app.state);
    pv.clear(byId("cohort-records")).appendChild(pv.storeRecordsTable(info, rows, filtered(), app.state.rows === "all", function (value) {
      app.state.rows = value;
      pv.writeState(app.state);
      renderRecords(info);
    }, app.model.doc.commit_url));
  }

  function renderFilterNote(info) {
    var note = byId("cohort-filter-note");
    var hidden = info && app.shown.indexOf(info) < 0;
    note.hidden = !hidden;
    note.textContent = hidden
      ? "This cohort does not pass the filters; it stays chosen until you choose another. Clear the filters to list it again."
      : "";
  }

  // Draws the chosen cohort; returns a promise of its drawing, which waits for its details
  // when a large store's site has them apart (store-details.js).
  function renderCohort() {
    var info = chosen();
    app.dirty.cohort = false;
    if (!info) return Promise.resolve();
    if (!pv.detailsLoaded(info)) {
      renderCohortHead(info);
      return renderPending(info);
    }
    // A permalink's point, once per link: its record is known once the details are in.
    if (app.pin === undefined) {
      app.pin = pinnedPoint(info);
      if (app.pin && app.pin.missing) {
        app.notices.push("The record " + app.state.record + " from the link has no point in this cohort" +
          (app.state.metric ? " on " + app.state.metric : "") + "; the cohort is shown without it.");
      }
    }
    renderCohortHead(info);
    renderLegend(info);
    renderCharts(info);
    renderRecords(info);
    return Promise.resolve();
  }

  // What the cohort's own columns need not wait for: its title, notes, identity and the
  // metrics without values.
  function renderCohortHead(info) {
    var cohort = info.cohort;
    var title = pv.clear(byId("cohort-title"));
    title.appendChild(pv.el("span", { class: "cohort-label" }, pv.text(cohort.label)));
    var badge = pv.kindBadge(cohort.kind);
    if (badge) {
      title.appendChild(document.createTextNode(" "));
      title.appendChild(badge);
    }
    renderFilterNote(info);
    var notes = pv.clear(byId("cohort-notes"));
    app.notices.forEach(function (text) {
      notes.appendChild(pv.el("p", { class: "note warning" }, text));
    });
    if (info.n === 1) notes.appendChild(pv.el("p", { class: "note", id: "one-record" }, "This cohort has one record, so there is no trend yet."));
    renderIdentity(info);
    var skipped = byId("cohort-skipped");
    skipped.hidden = !info.skipped.length;
    skipped.textContent = info.skipped.length
      ? "Skipped (no values): " + info.skipped.map(function (metric) {
        return pv.text(metric && metric.name) + " (" + pv.text(metric && metric.unit) + ")";
      }).join(", ")
      : "";
  }

  // A cohort whose details are apart and not loaded yet: a note while its file loads, then
  // the cohort, or what is wrong with the file (the rest of the page works either way).
  function renderPending(info) {
    pv.clear(byId("cohort-legend"));
    pv.clear(byId("cohort-records"));
    app.charts = [];
    pv.clear(byId("cohort-charts")).appendChild(pv.el("p", { class: "note", id: "cohort-loading" },
      "Loading this cohort's records (" + pv.cohortDetailsFile(info) + ")…"));
    return pv.loadCohortDetails(info).then(function () {
      if (chosen() !== info) return undefined;
      if (app.state.view !== "cohort") {
        app.dirty.cohort = true;
        return undefined;
      }
      // The page around the charts has changed since the width was read at the start.
      app.startWidth = 0;
      return renderCohort();
    }, function (error) {
      if (chosen() !== info) return;
      var title = error instanceof pv.DataError ? error.title : "The viewer could not load this cohort's records";
      var detail = error instanceof pv.DataError ? error.detail : String((error && error.message) || error);
      pv.clear(byId("cohort-charts")).appendChild(pv.el("div", { class: "note warning", id: "cohort-details-error", role: "alert" }, [
        pv.el("strong", null, title), ". ", detail,
      ]));
    });
  }

  function renderOverview() {
    app.dirty.overview = false;
    var all = pv.storeCards(app.model, app.shown, app.state.recent);
    var changed = all.filter(function (entry) { return entry.recent && entry.recent.changed; });
    var entries = app.state.cards === "changed" ? changed : all;
    pv.renderCardsFilter(byId("store-cards-filter"), app.state.cards, changed.length, all.length, function (value) {
      app.state.cards = value;
      pv.writeState(app.state);
      renderOverview();
    });
    byId("store-overview-count").textContent =
      pv.plural(entries.length, "chart", "charts") + " of " + pv.plural(app.shown.length, "cohort", "cohorts") + " (the filters apply): one per cohort and metric, " +
      "what changed in the " + pv.recentWindow(app.state.recent).text + " first (a change point, a REGRESSION or INCONCLUSIVE verdict), then by how far the latest value " +
      "moved. Each card is drawn over its cohort's own time range, scaled to its own values; ▲ marks a record whose metric regressed. Click one to open it.";
    pv.renderStoreOverview(byId("store-overview"), entries, app.state.cohort, function (id, metricName) {
      selectCohort(id);
      var shown = changeView("cohort");
      // The section at once; the metric's chart once drawn (its details may be loading).
      byId("cohort-section").scrollIntoView({ block: "start" });
      shown.then(function () {
        var m = metricIndex(chosen(), metricName);
        if (m >= 0 && app.charts[m]) app.charts[m].parentNode.scrollIntoView({ block: "start" });
      });
    }, app.state.cards === "changed" && all.length ? "Nothing changed in the " + pv.recentWindow(app.state.recent).text + ": choose all to see every chart." : null);
  }

  function metricIndex(info, name) {
    if (!info || !name) return -1;
    for (var m = 0; m < info.metrics.length; m++) if (info.metrics[m].name === name) return m;
    return -1;
  }

  // "What changed" over the whole store, in the window of state.recent.
  function renderLanding() {
    pv.renderStoreLanding(byId("store-landing"), app.model, app.state, function (key) {
      app.state.recent = key;
      pv.writeState(app.state);
      renderLanding();
      app.dirty.overview = true;
      if (app.state.view === "overview") renderOverview();
    });
  }

  // A point's permalink (#cohort=…&record=…&metric=…): the record's point on that metric's
  // chart (or the first chart where the record has a value), scrolled to, its tooltip shown.
  function pinnedPoint(info) {
    if (!info || !app.state.record) return null;
    var k = info.cohort.records.record.indexOf(app.state.record);
    if (k < 0) return { missing: true };
    var m = metricIndex(info, app.state.metric);
    if (m < 0 || info.metrics[m].values[k] === null) {
      m = -1;
      for (var j = 0; j < info.metrics.length && m < 0; j++) if (info.metrics[j].values[k] !== null) m = j;
    }
    return m < 0 ? { missing: true } : { k: k, m: m };
  }

  function showPinned(scroll) {
    var pin = app.pin;
    if (!pin || pin.missing || app.state.view !== "cohort" || !app.charts[pin.m]) return;
    var host = app.charts[pin.m];
    if (scroll) host.parentNode.scrollIntoView({ block: "start" });
    host.chartInteraction.showRecord(pin.k);
  }

  function showView() {
    var overview = app.state.view === "overview";
    byId("cohort-section").hidden = overview;
    byId("store-overview-section").hidden = !overview;
    byId("tab-cohort").setAttribute("aria-selected", overview ? "false" : "true");
    byId("tab-overview").setAttribute("aria-selected", overview ? "true" : "false");
    if (overview && app.dirty.overview) renderOverview();
    if (!overview && app.dirty.cohort) return renderCohort();
    return Promise.resolve();
  }

  // Returns the promise of the view's drawing.
  function changeView(view) {
    if (app.state.view === view) return Promise.resolve();
    app.state.view = view;
    pv.writeState(app.state);
    return showView();
  }

  function selectCohort(id) {
    if (id === app.state.cohort || !app.model.byId.has(id)) return;
    app.state.cohort = id;
    app.state.rows = "newest";
    app.state.record = "";
    app.state.metric = "";
    app.pin = null;
    app.notices = [];
    pv.writeState(app.state);
    var listed = false;
    var buttons = app.chooser.body.querySelectorAll("button.cohort-pick");
    for (var i = 0; i < buttons.length; i++) listed = listed || buttons[i].cohortId === id;
    // Marking keeps the keyboard focus in the list; a cohort not listed needs a refill.
    if (listed) pv.markCohortChoice(app.chooser, id);
    else app.shown = pv.fillCohortChooser(app.chooser, app.model, app.state);
    pv.markStoreOverviewChoice(byId("store-overview"), id);
    app.dirty.cohort = true;
    if (app.state.view === "cohort") renderCohort();
  }

  function changeFilters(cq, source, status) {
    app.state.cq = cq;
    app.state.source = source;
    app.state.status = status;
    pv.writeState(app.state);
    app.shown = pv.fillCohortChooser(app.chooser, app.model, app.state);
    var info = chosen();
    renderFilterNote(info);
    // The records table follows the run-source and status filters; the charts keep every
    // record, so that a filtered record is still seen in its context.
    // A cohort whose details are loading gets its records table when they are in.
    if (info && app.state.view === "cohort" && pv.detailsLoaded(info)) renderRecords(info);
    else app.dirty.cohort = true;
    if (app.state.view === "overview") renderOverview();
    else app.dirty.overview = true;
  }

  // The cohort of the link when the store has it; else the first that passes the filters.
  function resolveCohort() {
    var requested = app.state.cohort;
    if (requested && app.model.byId.has(requested)) return;
    if (requested) {
      app.notices = ["The cohort " + requested + " from the link is not in this store; the first cohort is shown instead."];
      app.state.rows = "newest";
    }
    var first = app.model.cohorts.filter(function (info) { return pv.cohortMatches(info, app.state); })[0] || app.model.cohorts[0];
    app.state.cohort = first ? first.id : "";
  }

  // Draws every part from the state; returns the promise of the chosen view's drawing.
  function renderAll() {
    renderFacts();
    var empty = !app.model.cohorts.length;
    byId("store-empty").hidden = !empty;
    byId("store-main").hidden = empty;
    if (empty) {
      var doc = app.model.doc;
      var filter = doc.filter && typeof doc.filter === "object" ? doc.filter : {};
      var selected = (filter.benchmark !== null && filter.benchmark !== undefined) || (filter.since !== null && filter.since !== undefined);
      byId("store-empty").textContent = (app.model.unplaced.length
        ? "This store view has no record with an instant, so there is no cohort to chart."
        : "This store view has no records, so there is no cohort to chart.") +
        (selected ? " The records were selected by a benchmark or time filter: the store may hold others." : "");
      return Promise.resolve();
    }
    resolveCohort();
    // A cohort opened by a link: its details (where they are apart) load while the rest of
    // the page is drawn; renderCohort waits for the same load and says what went wrong.
    if (app.state.view === "cohort" && chosen()) pv.loadCohortDetails(chosen()).catch(function () {});
    // Resolved when the cohort is drawn (renderCohort).
    app.pin = undefined;
    pv.writeState(app.state);
    renderLanding();
    pv.phase("storeLandingMs");
    app.shown = pv.fillCohortChooser(app.chooser, app.model, app.state);
    pv.phase("storeChooserMs");
    app.dirty.cohort = true;
    app.dirty.overview = true;
    return showView().then(function () {
      showPinned(true);
      pv.phase("storeShownMs");
    });
  }

  // Checks and shows `doc` (from `file`); throws a DataError when it cannot be read.
  // Returns {title, refresh} for main.js: refresh() redraws after the hash changed.
  pv.startStoreView = function (doc, file, state) {
    app.model = pv.storeModel(doc, file);
    pv.phase("storeCheckedMs");
    app.state = state;
    app.chooser = pv.createCohortChooser(byId("cohort-filters"), byId("cohort-list"), app.model, {
      filter: changeFilters,
      select: selectCohort,
    });
    byId("tab-cohort").addEventListener("click", function () { changeView("cohort"); });
    byId("tab-overview").addEventListener("click", function () { changeView("overview"); });
    byId("store-app").hidden = false;
    // A link that names no cohort opens on the overview of every chart, what changed first.
    var named = new URLSearchParams(location.hash.replace(/^#/, ""));
    if (!named.has("cohort") && !named.has("view")) app.state.view = "overview";
    // The charts' width while the page is nearly empty, so laid out in no time (0 when the
    // overview is shown first: the charts then read their own width when shown).
    app.startWidth = app.state.view === "overview" ? 0 : byId("cohort-charts").clientWidth;
    var shown = renderAll();
    // Fits the charts to their width when it is not the one they were drawn at: after a
    // resize, or when the filled page's scroll bar took some of the width read above.
    function fitCharts() {
      var info = chosen();
      if (!info) return;
      // Hidden charts have no width to fit: they are drawn again when shown.
      if (app.state.view !== "cohort") {
        app.dirty.cohort = true;
        return;
      }
      app.charts.forEach(function (host, m) {
        var svg = host.querySelector("svg.store-chart");
        var width = host.clientWidth;
        if (svg && svg.getAttribute("width") === String(Math.max(520, Math.floor(width)))) return;
        pv.renderMetricChart(host, { info: info, metric: info.metrics[m], changes: info.changes[m], clipId: "store-clip-" + m, width: width });
        // A redrawn chart has a new tooltip: the permalink's point is shown again.
        if (app.pin && app.pin.m === m) showPinned(false);
      });
    }
    requestAnimationFrame(fitCharts);
    var resizeTimer = 0;
    window.addEventListener("resize", function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(fitCharts, 150);
    });
    return {
      title: "records of " + (typeof doc.store === "string" ? doc.store : "a store"),
      // The first view drawn (main.js marks the page ready after it).
      shown: shown,
      refresh: function () {
        app.notices = [];
        renderAll();
      },
    };
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
