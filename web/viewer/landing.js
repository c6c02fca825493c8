// "What changed", the first thing on the page: one line per event of the recent window
// (landing-data.js), newest first, each with a link to the chart at that point. The
// window is the state key `recent`, shared by the store and the history parts.
(function (pv) {
  "use strict";

  var FIRST_LINES = 25; // more behind a button: a reader scans the newest first

  // The permalink of a store record's point: the cohort, the record and the chart.
  pv.recordHash = function (info, k, metric) {
    var state = pv.defaultState();
    state.cohort = info.id;
    state.record = pv.text(info.cohort.records.record[k]);
    if (metric) state.metric = pv.text(metric.name);
    return pv.stateHash(state);
  };

  // The permalink of a history point: the series and the commit.
  pv.pointHash = function (model, series, k) {
    var state = pv.defaultState();
    state.series = series.id;
    state.point = model.commits[series.points.commit[k]].sha;
    return pv.stateHash(state);
  };

  // The cards' filter: every card, or only those that changed in the window. Two buttons
  // that say which is on (aria-pressed), with their counts.
  pv.renderCardsFilter = function (box, value, changed, all, onChange) {
    pv.clear(box);
    var group = pv.el("div", { class: "cards-filter", role: "group", "aria-label": "Cards shown" });
    [["changed", "changed (" + pv.formatCount(changed) + ")"], ["all", "all (" + pv.formatCount(all) + ")"]].forEach(function (choice) {
      group.appendChild(pv.el("button", {
        type: "button",
        class: "cards-" + choice[0],
        "aria-pressed": value === choice[0] ? "true" : "false",
        on: { click: function () { if (value !== choice[0]) onChange(choice[0]); } },
      }, choice[1]));
    });
    box.appendChild(pv.el("span", { class: "cards-filter-label" }, "Show: "));
    box.appendChild(group);
  };

  function kindTag(kind) {
    return pv.el("span", { class: "event-kind kind-" + kind }, pv.EVENT_TEXT[kind]);
  }

  function windowControl(state, id, onWindow) {
    var select = pv.el("select", { id: id, on: { change: function () { onWindow(select.value); } } },
      pv.RECENT_WINDOWS.map(function (w) {
        return pv.el("option", { value: w.key, selected: w.key === pv.recentWindow(state.recent).key ? "selected" : null }, w.text);
      }));
    return pv.el("label", { class: "landing-window" }, ["Window: ", select]);
  }

  // The list, capped at FIRST_LINES with a button for the rest.
  function eventList(events, line) {
    var list = pv.el("ul", { class: "landing-list" });
    function fill(count) {
      var fragment = document.createDocumentFragment();
      events.slice(list.childNodes.length, count).forEach(function (event) {
        fragment.appendChild(line(event));
      });
      list.appendChild(fragment);
    }
    fill(FIRST_LINES);
    var block = pv.el("div", null, [list]);
    if (events.length > FIRST_LINES) {
      var more = pv.el("button", {
        type: "button",
        class: "landing-more",
        on: {
          click: function () {
            fill(events.length);
            more.remove();
          },
        },
      }, "show all " + pv.formatCount(events.length));
      block.appendChild(more);
    }
    return block;
  }

  function counts(events) {
    var by = {};
    events.forEach(function (event) { by[event.kind] = (by[event.kind] || 0) + 1; });
    var parts = pv.EVENT_KINDS.filter(function (kind) { return by[kind]; }).map(function (kind) {
      return pv.formatCount(by[kind]) + " " + (by[kind] === 1 ? pv.EVENT_TEXT[kind] : pv.EVENT_PLURAL[kind]);
    });
    return parts.join(", ");
  }

  function storeLine(model, event) {
    var info = event.info;
    var k = event.record;
    var records = info.cohort.records;
    var metric = event.metric >= 0 ? info.metrics[event.metric] : null;
    var at = pv.utcParts(info.times[k]);
    var detail;
    if (event.kind === "change") detail = pv.changeText(event.change, metric.unit);
    else detail = pv.reasonText(records.comparison_reason[k]);
    var commit = records.commit[k];
    return pv.el("li", { class: "landing-item kind-" + event.kind }, [
      kindTag(event.kind),
      " ",
      pv.el("span", { class: "event-time" }, at.date + " " + at.minute + " UTC"),
      " ",
      pv.el("a", { class: "event-link", href: pv.recordHash(info, k, metric) },
        pv.text(info.cohort.label) + (metric ? " · " + pv.text(metric.name) : "")),
      pv.el("span", { class: "event-detail" }, " " + detail),
      commit === null ? null : pv.el("span", { class: "event-commit mono" }, " · " + pv.shortCommit(commit)),
    ]);
  }

  // The store's "what changed": its events in the window of `state.recent`.
  pv.renderStoreLanding = function (box, model, state, onWindow) {
    pv.clear(box);
    var found = pv.storeEvents(model, state.recent);
    var up = pv.utcParts(found.newest);
    box.appendChild(pv.el("h2", { id: "store-landing-title" }, "What changed in the store"));
    box.appendChild(pv.el("div", { class: "landing-head" }, [
      windowControl(state, "store-recent", onWindow),
      pv.el("span", { class: "note landing-count", id: "store-landing-count" },
        (found.window.days === Infinity ? "Every record" : "The " + found.window.text + " up to the newest record (" + up.date + " " + up.minute + " UTC)") +
          ": " + (found.events.length ? counts(found.events) + "." : "no REGRESSION or INCONCLUSIVE record, no failed run and no change point.")),
    ]));
    if (found.events.length) box.appendChild(eventList(found.events, function (event) { return storeLine(model, event); }));
  };

  function flagDetail(event) {
    var flag = event.flag;
    var unit = event.series.unit;
    var display = pv.displayUnit(Math.max(Math.abs(flag.median), Math.abs(flag.previous_median)), unit);
    var change = typeof flag.change_percent === "number" ? (flag.change_percent < 0 ? "−" : "+") + Math.abs(flag.change_percent).toFixed(1) + "%" : "from 0";
    return pv.text(pv.formatIn(flag.previous_median, display)) + " → " + pv.text(pv.formatIn(flag.median, display)) + " (" + change + ")";
  }

  function failedDetail(model, commit) {
    var attempt = commit.attempt ? pv.attemptById(model, commit.attempt) : null;
    var lines = attempt ? pv.attemptErrorLines(attempt) : [];
    return lines.length ? lines[0] : "every machine's newest attempt failed";
  }

  function historyLine(model, event) {
    var commit = model.commits[event.commit];
    var when = typeof commit.time === "number" ? pv.commitTime(commit.time) : "time unknown";
    var target;
    var detail;
    if (event.kind === "failed") {
      target = pv.el("a", { class: "event-link", href: commit.attempt ? "#attempt=" + encodeURIComponent(commit.attempt) : "#" }, "commit " + pv.shortSha(commit.sha));
      detail = failedDetail(model, commit);
    } else {
      var series = event.series;
      target = pv.el("a", { class: "event-link", href: event.point >= 0 ? pv.pointHash(model, series, event.point) : "#series=" + encodeURIComponent(series.id) },
        pv.text(series.case) + " · " + pv.text(series.metric));
      detail = event.kind === "change" ? pv.changeText(event.change, series.unit) : flagDetail(event);
    }
    return pv.el("li", { class: "landing-item kind-" + event.kind }, [
      kindTag(event.kind),
      " ",
      pv.el("span", { class: "event-time" }, when),
      " ",
      target,
      pv.el("span", { class: "event-detail" }, " " + detail),
      " · ",
      pv.commitLink(commit, pv.shortSha(commit.sha)),
      pv.el("span", { class: "event-summary" }, " " + pv.summaryText(commit.summary)),
    ]);
  }

  // The history's "what changed": flags, change points and failed commits in the window.
  pv.renderHistoryLanding = function (box, model, state, onWindow) {
    pv.clear(box);
    var found = pv.historyEvents(model, state.recent);
    var newest = found.newest === -Infinity ? "" : " up to the newest commit (" + pv.commitTime(found.newest) + ")";
    box.appendChild(pv.el("h2", { id: "history-landing-title" }, "What changed in the history"));
    box.appendChild(pv.el("div", { class: "landing-head" }, [
      windowControl(state, "history-recent", onWindow),
      pv.el("span", { class: "note landing-count", id: "history-landing-count" },
        (found.window.days === Infinity ? "Every commit" : "The " + found.window.text + newest) +
          ": " + (found.events.length ? counts(found.events) + "." : "no flag, no change point and no failed commit.")),
    ]));
    if (found.events.length) box.appendChild(eventList(found.events, function (event) { return historyLine(model, event); }));
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
