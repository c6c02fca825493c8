// The cohort chooser: a text filter, a run-source filter and a status filter narrow the
// list of cohorts (kept in the document's order: most records first, then newest). The
// user's choice stays chosen, and listed, even when a filter hides it.
(function (pv) {
  "use strict";

  // More rows cost time and help nobody: past this many, the filters are the way in.
  var MAX_ROWS = 200;

  pv.cohortRange = function (info) {
    var first = pv.utcParts(info.times[0]);
    if (info.n === 1 || info.times[0] === info.times[info.n - 1]) return pv.instantText(info.times[0]);
    var last = pv.utcParts(info.times[info.n - 1]);
    return first.date + " " + first.minute + " – " + last.date + " " + last.minute + " UTC";
  };

  // "REGRESSION 2, CALIBRATION_NEEDED 1": what is not PASS, worst first.
  pv.statusSummary = function (info) {
    return pv.orderStatuses(Array.from(info.statusCounts.keys()))
      .filter(function (status) { return status !== "PASS"; })
      .map(function (status) { return status + " " + pv.formatCount(info.statusCounts.get(status)); })
      .join(", ");
  };

  pv.kindBadge = function (kind) {
    var badge = pv.KIND_BADGES[kind];
    return badge ? pv.el("span", { class: "badge " + badge.className }, badge.text) : null;
  };

  function option(value, text) {
    return pv.el("option", { value: value }, text);
  }

  // Builds the filters (into `filtersBox`, with the count under them: they apply to the
  // list and to the overview) and the empty list (into `listBox`);
  // `on` = {filter(cq, source, status), select(id)}.
  pv.createCohortChooser = function (filtersBox, listBox, model, on) {
    var query = pv.el("input", { type: "search", id: "cohort-filter", placeholder: "label, benchmark or id, e.g. sort", autocomplete: "off" });
    var source = pv.el("select", { id: "cohort-source" }, [option("", "any run source")].concat(model.sources.map(function (value) {
      return option(value, value);
    })));
    var status = pv.el("select", { id: "cohort-status" }, [option("", "any status")].concat(model.statuses.map(function (value) {
      return option(value, value);
    })));
    var count = pv.el("p", { class: "note", id: "cohort-count" });
    var body = pv.el("tbody");
    var table = pv.el("table", { class: "data cohorts", id: "cohort-table" }, [
      pv.el("thead", null, pv.el("tr", null, ["cohort", "kind", "records", "benchmarks", "time range (UTC)", "not PASS"].map(function (title) {
        return pv.el("th", { scope: "col" }, title);
      }))),
      body,
    ]);
    filtersBox.appendChild(pv.el("div", { class: "filters" }, [
      pv.el("label", { for: "cohort-filter" }, "Filter"),
      query,
      pv.el("label", { for: "cohort-source" }, "Run source"),
      source,
      pv.el("label", { for: "cohort-status" }, "Status"),
      status,
    ]));
    filtersBox.appendChild(count);
    listBox.appendChild(pv.el("div", { class: "cohort-box" }, table));
    function changed() {
      on.filter(query.value, source.value, status.value);
    }
    query.addEventListener("input", changed);
    source.addEventListener("change", changed);
    status.addEventListener("change", changed);
    body.addEventListener("click", function (event) {
      var button = event.target.closest ? event.target.closest("button.cohort-pick") : null;
      if (button) on.select(button.cohortId);
    });
    // Up and down move between the cohorts like in a list box, choosing as they go.
    body.addEventListener("keydown", function (event) {
      if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
      var buttons = Array.prototype.slice.call(body.querySelectorAll("button.cohort-pick"));
      var at = buttons.indexOf(document.activeElement);
      if (at < 0) return;
      var next = buttons[at + (event.key === "ArrowDown" ? 1 : -1)];
      event.preventDefault();
      if (!next) return;
      next.focus();
      on.select(next.cohortId);
    });
    return { query: query, source: source, status: status, count: count, body: body };
  };

  // A filter value from a link that no record has is still shown as chosen.
  function ensureOption(select, value) {
    if (!value) return;
    for (var i = 0; i < select.options.length; i++) if (select.options[i].value === value) return;
    select.appendChild(option(value, value + " (no record has it)"));
  }

  function row(info, chosen, note) {
    var cohort = info.cohort;
    var pick = pv.el("button", { type: "button", class: "cohort-pick", "aria-pressed": chosen ? "true" : "false" }, pv.text(cohort.label));
    // The id as a property, not read back from markup: any text is a valid id.
    pick.cohortId = info.id;
    var benchmarks = Array.isArray(cohort.benchmarks) ? cohort.benchmarks.map(pv.text).join(", ") : "—";
    var summary = pv.statusSummary(info);
    return pv.el("tr", { class: chosen ? "chosen" : null }, [
      pv.el("td", { class: "cohort-label" }, [note ? pv.el("span", { class: "hidden-note" }, note + " ") : null, pick, pv.kindBadge(cohort.kind)]),
      pv.el("td", { class: "kind" }, pv.kindText(cohort.kind)),
      pv.el("td", { class: "num" }, pv.formatCount(info.n)),
      pv.el("td", null, benchmarks),
      pv.el("td", { class: "time" }, pv.cohortRange(info)),
      pv.el("td", { class: info.statusCounts.has("REGRESSION") ? "statuses has-regression" : "statuses" }, summary || "—"),
    ]);
  }

  // Refills the list for the current filters; returns the cohorts that pass them.
  pv.fillCohortChooser = function (chooser, model, state) {
    chooser.query.value = state.cq;
    ensureOption(chooser.source, state.source);
    ensureOption(chooser.status, state.status);
    chooser.source.value = state.source;
    chooser.status.value = state.status;
    var shown = model.cohorts.filter(function (info) { return pv.cohortMatches(info, state); });
    var chosen = model.byId.get(state.cohort);
    var hidden = chosen && shown.indexOf(chosen) < 0;
    var listed = shown.slice(0, MAX_ROWS);
    var fragment = document.createDocumentFragment();
    if (chosen && listed.indexOf(chosen) < 0) {
      fragment.appendChild(row(chosen, true, hidden ? "(chosen, hidden by the filters)" : "(chosen)"));
    }
    listed.forEach(function (info) {
      fragment.appendChild(row(info, info === chosen, ""));
    });
    pv.clear(chooser.body).appendChild(fragment);
    var text = "Showing " + pv.formatCount(shown.length) + " of " + pv.plural(model.cohorts.length, "cohort", "cohorts") +
      ", most records first";
    if (shown.length > listed.length) text += " (the first " + pv.formatCount(listed.length) + " are listed: narrow the filters to find others)";
    text += hidden ? "; the chosen cohort is hidden by the filters but stays chosen." : ".";
    chooser.count.textContent = text;
    return shown;
  };

  pv.markCohortChoice = function (chooser, id) {
    var buttons = chooser.body.querySelectorAll("button.cohort-pick");
    for (var i = 0; i < buttons.length; i++) {
      var chosen = buttons[i].cohortId === id;
      buttons[i].setAttribute("aria-pressed", chosen ? "true" : "false");
      buttons[i].closest("tr").classList.toggle("chosen", chosen);
    }
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
