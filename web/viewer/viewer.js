// The commit-history views: main.js hands over history.json, and this wires the chooser,
// the chart, the overview and the evidence tables to the view state kept in the URL hash
// (shared with the store views).
(function (pv) {
  "use strict";

  var app = { model: null, state: null, chooser: null, shown: [], notices: [] };

  function byId(id) {
    return document.getElementById(id);
  }

  var phase = pv.phase;

  function selectedSeries() {
    return app.model.seriesById.get(app.state.series);
  }

  function commitRange(series) {
    var last = app.model.commits.length - 1;
    if (app.state.range === "series" && series) {
      var c = series.points.commit;
      return [c[0], c[c.length - 1]];
    }
    return [0, Math.max(0, last)];
  }

  // The reference point in ratio mode: the commit named in the state if this series has a
  // point there, else the series' first point.
  function referencePoint(series) {
    if (!app.state.ref) return 0;
    var k = pv.pointAtSha(app.model, series, app.state.ref);
    if (k < 0) {
      app.notices.push("The reference commit " + pv.shortSha(app.state.ref) + " has no point in this series; the first point is the reference.");
      return 0;
    }
    return k;
  }

  function chartContext(series) {
    var range = commitRange(series);
    var ctx = {
      model: app.model,
      series: series,
      mode: app.state.mode,
      factor: 1,
      refPoint: 0,
      range: range,
      gaps: pv.seriesGaps(app.model, series, range[0], range[1]),
      onReference: setReference,
      cursor: app.ctx && app.ctx.series === series ? app.ctx.cursor : -1,
    };
    if (ctx.mode === "ratio") {
      ctx.refPoint = referencePoint(series);
      var reference = series.points.median[ctx.refPoint];
      if (reference > 0 && isFinite(reference)) {
        ctx.factor = 1 / reference;
      } else {
        app.notices.push("The reference point's median is " + pv.formatValue(reference) + ", so ratios are undefined: absolute values are shown. Choose another reference.");
        ctx.mode = "absolute";
      }
    }
    return ctx;
  }

  function setReference(k, keepFocus) {
    var series = selectedSeries();
    if (!series || k < 0) return;
    app.state.ref = k === 0 ? "" : app.model.commits[series.points.commit[k]].sha;
    app.state.mode = "ratio";
    commit({ chart: true, tables: true, focusChart: keepFocus !== false });
  }

  function changeView(key, value) {
    app.state[key] = value;
    commit({ chart: true, tables: true });
  }

  function renderDetail(options) {
    var series = selectedSeries();
    byId("detail-section").hidden = !series;
    if (!series) return;
    app.notices = app.pendingNotices || [];
    app.pendingNotices = [];
    var ctx = chartContext(series);
    var pinned = pinnedPoint(series);
    if (pinned >= 0) ctx.cursor = pinned;
    byId("detail-title").textContent = pv.text(series.case) + " · " + pv.text(series.metric) + " (" + pv.text(series.unit) + ")";
    byId("detail-setup").textContent = pv.setupLine(series);
    pv.clear(byId("detail-environment")).appendChild(pv.environmentDetails(series));
    pv.renderControls(byId("view-controls"), app.model, app.state, ctx, changeView, function () { setReference(0, false); });
    pv.renderNotes(byId("notes"), series, app.notices);
    pv.renderLegend(byId("legend"), ctx);
    pv.renderChart(byId("chart"), ctx);
    pv.renderBisectHints(byId("bisect-hints"), app.model, series);
    pv.renderChangeList(byId("change-list"), app.model, series, byId("chart"));
    app.ctx = ctx;
    if (options.focusChart) byId("chart").querySelector("svg").focus();
    else if (pinned >= 0) {
      byId("chart").chartInteraction.showPoint(pinned);
      if (options.reveal) byId("detail-section").scrollIntoView({ block: "start" });
    }
    renderSeriesTables(ctx);
  }

  function pageSetter(key, render) {
    return function (page) {
      app.state[key] = page;
      pv.writeState(app.state);
      render();
    };
  }

  function renderSeriesTables(ctx) {
    var gaps = pv.clear(byId("gaps"));
    gaps.appendChild(pv.gapsTable(ctx, app.state.gaps, pageSetter("gaps", function () { renderSeriesTables(app.ctx); })));
    var points = pv.clear(byId("points"));
    points.appendChild(pv.pointsTable(ctx, app.state.points, pageSetter("points", function () { renderSeriesTables(app.ctx); }), function (k) { setReference(k, false); }));
  }

  function renderAttempt() {
    var section = byId("attempt-section");
    section.hidden = !app.state.attempt;
    var holder = pv.clear(byId("attempt"));
    if (app.state.attempt) holder.appendChild(pv.attemptDetails(app.model, app.state.attempt));
  }

  function renderEvidence() {
    renderAttempt();
    pv.clear(byId("failed")).appendChild(pv.failedAttemptsTable(app.model, app.state.failed, pageSetter("failed", renderEvidence)));
    pv.clear(byId("rejected")).appendChild(pv.rejectedTable(app.model, app.state.rejected, pageSetter("rejected", renderEvidence)));
  }

  function renderChooserAndOverview() {
    app.shown = pv.fillChooser(app.chooser, app.model, app.state);
    renderOverview();
  }

  function renderOverview() {
    var all = pv.seriesCards(app.model, app.shown, app.state.recent);
    var changed = all.filter(function (entry) { return entry.recent.changed; });
    var entries = app.state.cards === "changed" ? changed : all;
    pv.renderCardsFilter(byId("cards-filter"), app.state.cards, changed.length, all.length, function (value) {
      app.state.cards = value;
      pv.writeState(app.state);
      renderOverview();
    });
    byId("overview-count").textContent =
      pv.plural(entries.length, "series", "series") + " (the filters apply): what changed in the " + pv.recentWindow(app.state.recent).text +
      " first (a change point or a flag), then by how far the latest point moved. Each card is scaled to its own range on the shared commit axis. Click one to select it.";
    pv.renderOverview(byId("overview"), app.model, entries, app.state.series, function (id) {
      selectSeries(id);
      // The overview lies above the chart: bring the chosen series' chart into view.
      byId("detail-section").scrollIntoView({ block: "start" });
    }, app.state.cards === "changed" && all.length ? "Nothing changed in the " + pv.recentWindow(app.state.recent).text + ": choose all to see every series." : null);
  }

  function renderLanding() {
    var box = byId("history-landing");
    box.hidden = false;
    pv.renderHistoryLanding(box, app.model, app.state, function (key) {
      app.state.recent = key;
      pv.writeState(app.state);
      renderLanding();
      if (app.model.series.length) renderOverview();
    });
  }

  // A point's permalink (#series=…&point=<sha>): the chart scrolled to, the point's
  // tooltip shown. A SHA without a point in the series is said in a note.
  function pinnedPoint(series) {
    if (!app.state.point || !series) return -1;
    var k = pv.pointAtSha(app.model, series, app.state.point);
    if (k < 0) app.notices.push("The commit " + pv.shortSha(app.state.point) + " from the link has no point in this series.");
    return k;
  }

  function selectSeries(id) {
    if (id === app.state.series) return;
    app.state.series = id;
    app.state.ref = "";
    app.state.point = "";
    pv.resetPages(app.state);
    app.chooser.list.value = id;
    pv.fillChooser(app.chooser, app.model, app.state);
    pv.markOverviewSelection(byId("overview"), id);
    commit({ chart: true, tables: true });
  }

  // Writes the state to the URL and redraws what depends on the change.
  function commit(options) {
    pv.writeState(app.state);
    if (options.chooser) renderChooserAndOverview();
    if (options.chart || options.tables) renderDetail(options);
  }

  function renderEmptyHistory() {
    var series = byId("no-series");
    series.hidden = false;
    pv.clear(series);
    var commits = app.model.commits;
    if (!commits.length) {
      series.appendChild(pv.el("p", { class: "note", id: "empty-history" }, "This history has no monitored commits yet: nothing has been measured, so there is nothing to chart."));
      return;
    }
    series.appendChild(pv.el("p", { class: "note", id: "no-series-note" },
      "No monitored commit has a successful measurement yet, so there is no series to chart. Every commit is listed below with its status."));
    var all = { id: "", case: "", environment: {}, points: { commit: [] } };
    var ctx = { model: app.model, series: all, gaps: pv.seriesGaps(app.model, all, 0, commits.length - 1) };
    series.appendChild(pv.gapsTable(ctx, app.state.gaps, pageSetter("gaps", renderEmptyHistory)));
  }

  function resolveSelection() {
    var requested = app.state.series;
    if (requested && app.model.seriesById.has(requested)) return;
    if (requested) {
      app.pendingNotices = ["The series " + requested + " from the link is not in this history; the first series is shown instead."];
      app.state.ref = "";
    }
    var first = app.model.series.filter(function (s) { return pv.seriesMatches(s, app.state); })[0] || app.model.series[0];
    app.state.series = first ? first.id : "";
  }

  function renderAll() {
    resolveSelection();
    pv.writeState(app.state);
    pv.renderSummary(app.model);
    renderLanding();
    phase("landingMs");
    var hasSeries = app.model.series.length > 0;
    byId("chooser-section").hidden = !hasSeries;
    byId("overview-section").hidden = !hasSeries;
    byId("no-series").hidden = hasSeries;
    if (hasSeries) {
      renderChooserAndOverview();
      phase("overviewMs");
      renderDetail({ reveal: true });
      phase("detailMs");
    } else {
      byId("detail-section").hidden = true;
      renderEmptyHistory();
    }
    renderEvidence();
  }

  // Checks and shows `doc`; throws a DataError when it cannot be read. Returns {title,
  // refresh} for main.js: refresh() redraws after the hash changed.
  pv.startHistoryView = function (doc, state) {
    pv.checkHistory(doc);
    phase("checkedMs");
    app.model = pv.indexHistory(doc);
    phase("indexedMs");
    app.state = state;
    app.chooser = pv.createChooser(byId("chooser"), {
      filter: function (q, label) {
        app.state.q = q;
        app.state.label = label;
        commit({ chooser: true });
      },
      select: selectSeries,
    });
    byId("app").hidden = false;
    renderAll();
    var resizeTimer = 0;
    window.addEventListener("resize", function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(function () {
        if (selectedSeries()) renderDetail({});
      }, 150);
    });
    return { title: "commit history of " + pv.text(doc.branch), refresh: renderAll };
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
