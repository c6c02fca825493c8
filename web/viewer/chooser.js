// The series chooser: filters narrow the list, and the user's choice stays selected (and
// listed) even when a filter hides it, so typing in the filter never loses the chart.
(function (pv) {
  "use strict";

  pv.seriesLabel = function (series) {
    var p = series.points;
    var n = series.count !== undefined ? series.count : p.commit.length;
    return [
      pv.text(series.case),
      pv.text(series.metric) + " (" + pv.text(series.unit) + ")",
      "CPU " + pv.text(pv.seriesEnvironment(series, "cpu")),
      "kernel " + pv.text(pv.seriesEnvironment(series, "kernel")),
      pv.plural(n, "point", "points"),
      pv.shortSha(series.first_commit) + "…" + pv.shortSha(series.last_commit),
      pv.text(series.id),
      pv.text(series.label),
    ].join(" · ");
  };

  pv.seriesMatches = function (series, state) {
    if (state.label !== "all" && series.label !== state.label) return false;
    var query = state.q.trim().toLowerCase();
    if (!query) return true;
    var haystack = (pv.text(series.case) + " " + pv.text(series.metric)).toLowerCase();
    return query.split(/\s+/).every(function (word) {
      return haystack.indexOf(word) >= 0;
    });
  };

  // Builds the filter inputs and the list; `on` = {filter(q, label), select(id)}.
  pv.createChooser = function (container, on) {
    var query = pv.el("input", { type: "search", id: "filter-text", placeholder: "case or metric, e.g. sort latency", autocomplete: "off" });
    var label = pv.el("select", { id: "filter-label" }, [
      pv.el("option", { value: "all" }, "all labels"),
      pv.el("option", { value: "stable" }, "stable"),
      pv.el("option", { value: "diagnostic" }, "diagnostic"),
    ]);
    var list = pv.el("select", { id: "series-list", size: 8, "aria-label": "Series" });
    var count = pv.el("p", { class: "note", id: "series-count" });
    container.appendChild(pv.el("div", { class: "filters" }, [
      pv.el("label", { for: "filter-text" }, "Filter"),
      query,
      pv.el("label", { for: "filter-label" }, "Label"),
      label,
    ]));
    container.appendChild(list);
    container.appendChild(count);
    query.addEventListener("input", function () { on.filter(query.value, label.value); });
    label.addEventListener("change", function () { on.filter(query.value, label.value); });
    list.addEventListener("change", function () { if (list.value) on.select(list.value); });
    return { query: query, label: label, list: list, count: count };
  };

  // Refills the list for the current filters; returns the series that pass them.
  pv.fillChooser = function (chooser, model, state) {
    chooser.query.value = state.q;
    chooser.label.value = state.label;
    var shown = model.series.filter(function (s) { return pv.seriesMatches(s, state); });
    var selected = model.seriesById.get(state.series);
    var list = chooser.list;
    pv.clear(list);
    var fragment = document.createDocumentFragment();
    if (selected && shown.indexOf(selected) < 0) {
      fragment.appendChild(pv.el("option", { value: selected.id, class: "hidden-by-filter" }, "(selected, hidden by the filter) " + pv.seriesLabel(selected)));
    }
    shown.forEach(function (s) {
      fragment.appendChild(pv.el("option", { value: s.id }, pv.seriesLabel(s)));
    });
    list.appendChild(fragment);
    if (selected) list.value = selected.id;
    list.size = Math.min(10, Math.max(3, list.options.length));
    chooser.count.textContent =
      "Showing " + pv.formatCount(shown.length) + " of " + pv.plural(model.series.length, "series", "series") +
      ", most points first" + (selected && shown.indexOf(selected) < 0 ? "; the selected series is hidden by the filter but stays selected." : ".");
    return shown;
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
