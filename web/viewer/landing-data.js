// "What changed": the events a reader looks for first, gathered from the store view and the
// commit history within a recent window, newest first, and a score per chart of how much it
// changed recently (to order the cards). Pure functions of the models: landing.js and the
// overviews draw them.
(function (pv) {
  "use strict";

  var DAY_MS = 24 * 3600 * 1000;
  // The window's choices, as the state key `recent` spells them.
  pv.RECENT_WINDOWS = [
    { key: "7d", days: 7, text: "last 7 days" },
    { key: "30d", days: 30, text: "last 30 days" },
    { key: "90d", days: 90, text: "last 90 days" },
    { key: "all", days: Infinity, text: "everything" },
  ];

  function windowOf(key) {
    return pv.RECENT_WINDOWS.filter(function (w) { return w.key === key; })[0] || pv.RECENT_WINDOWS[1];
  }
  pv.recentWindow = windowOf;

  // Kinds in the order a reader weighs them; among events of the same time the first wins.
  pv.EVENT_KINDS = ["regression", "inconclusive", "flag-confirmed", "failed", "flag", "flag-unconfirmed", "change"];
  pv.EVENT_TEXT = {
    regression: "REGRESSION",
    inconclusive: "INCONCLUSIVE",
    "flag-confirmed": "flag, confirmed",
    flag: "flag",
    "flag-unconfirmed": "flag, unconfirmed",
    failed: "failed",
    change: "change point",
  };
  // The same, counted: "2 REGRESSION", "3 flags, unconfirmed".
  pv.EVENT_PLURAL = {
    regression: "REGRESSION",
    inconclusive: "INCONCLUSIVE",
    "flag-confirmed": "flags, confirmed",
    flag: "flags",
    "flag-unconfirmed": "flags, unconfirmed",
    failed: "failed",
    change: "change points",
  };

  function byNewest(a, b) {
    return b.at - a.at || pv.EVENT_KINDS.indexOf(a.kind) - pv.EVENT_KINDS.indexOf(b.kind) || a.order - b.order;
  }

  // The window is counted back from the newest data, not from now: a store last written a
  // month ago still opens on its last changes, and the page says up to when.
  pv.storeNewest = function (model) {
    var newest = -Infinity;
    model.cohorts.forEach(function (info) {
      if (info.times[info.n - 1] > newest) newest = info.times[info.n - 1];
    });
    return newest;
  };

  // The first record of `info` inside the window that starts at `since` (ms).
  function firstRecentRecord(info, since) {
    return since === -Infinity ? 0 : pv.lowerBound(info.times, since);
  }

  // The metric a record's event points at: the first one whose verdict is `verdict`, else
  // the first metric with a value in that record (so that the link opens a chart that has it).
  function eventMetric(info, k, verdict) {
    var m;
    for (m = 0; m < info.metrics.length; m++) {
      if (info.metrics[m].verdicts && info.metrics[m].verdicts[k] === verdict) return m;
    }
    for (m = 0; m < info.metrics.length; m++) {
      if (info.metrics[m].values[k] !== null) return m;
    }
    return -1;
  }

  // The store's events within `windowKey`: REGRESSION and INCONCLUSIVE records, failed
  // records (INFRA_ERROR or success false) and change points. Each: {at (ms), kind, info,
  // record (index), metric (index or -1), change (for change points)}.
  pv.storeEvents = function (model, windowKey) {
    var since = pv.storeSince(model, windowKey);
    var events = [];
    var order = 0;
    model.cohorts.forEach(function (info) {
      var records = info.cohort.records;
      var first = firstRecentRecord(info, since);
      for (var k = first; k < info.n; k++) {
        var status = records.comparison_status[k];
        var kind = status === "REGRESSION" ? "regression" : status === "INCONCLUSIVE" ? "inconclusive"
          : status === "INFRA_ERROR" || records.success[k] === false ? "failed" : "";
        if (!kind) continue;
        events.push({ at: info.times[k], kind: kind, info: info, record: k, metric: eventMetric(info, k, kind === "regression" ? "regressed" : "inconclusive"), order: order++ });
      }
      info.changes.forEach(function (list, m) {
        list.forEach(function (change) {
          if (change.index < first) return;
          events.push({ at: info.times[change.index], kind: "change", info: info, record: change.index, metric: m, change: change, order: order++ });
        });
      });
    });
    return { events: events.sort(byNewest), newest: pv.storeNewest(model), window: windowOf(windowKey) };
  };

  // The newest commit time of the history (seconds), or -Infinity when none has one.
  function historyNewest(model) {
    var newest = -Infinity;
    model.commits.forEach(function (commit) {
      if (typeof commit.time === "number" && commit.time > newest) newest = commit.time;
    });
    return newest;
  }

  // The first commit index inside the window: commits are in the ledger's order (oldest
  // first), and one without a time belongs to the window when the commit before it does.
  function firstRecentCommit(model, since) {
    if (since === -Infinity) return 0;
    for (var c = 0; c < model.commits.length; c++) {
      var time = model.commits[c].time;
      if (typeof time === "number" && time >= since) return c;
    }
    return model.commits.length;
  }

  // The history's events within `windowKey`: flags (by their confirmation), change points
  // and failed commits. Each: {at (commit index), kind, series, point (index or -1),
  // commit (index), flag or change}.
  pv.historyEvents = function (model, windowKey) {
    var first = pv.historyFirstRecent(model, windowKey);
    var events = [];
    var order = 0;
    (Array.isArray(model.doc.flags) ? model.doc.flags : []).forEach(function (flag) {
      var c = model.commitIndexBySha.get(flag.commit);
      var series = model.seriesById.get(flag.series);
      if (c === undefined || c < first || !series) return;
      var kind = flag.confirmation === "confirmed" ? "flag-confirmed" : flag.confirmation === "unconfirmed" ? "flag-unconfirmed" : "flag";
      events.push({ at: c, kind: kind, series: series, point: pv.pointAtCommit(series, c), commit: c, flag: flag, order: order++ });
    });
    model.series.forEach(function (series) {
      pv.seriesChanges(series).forEach(function (change) {
        var c = series.points.commit[change.index];
        if (c < first) return;
        events.push({ at: c, kind: "change", series: series, point: change.index, commit: c, change: change, order: order++ });
      });
    });
    model.failedCommits.forEach(function (c) {
      if (c >= first) events.push({ at: c, kind: "failed", series: null, point: -1, commit: c, order: order++ });
    });
    return { events: events.sort(byNewest), newest: historyNewest(model), window: windowOf(windowKey) };
  };

  function median(list) {
    var sorted = list.slice().sort(function (a, b) { return a - b; });
    var mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  var BEFORE_LATEST = 10; // earlier values the latest one is set against

  // How the latest of `values` (with `present(k)` saying which hold one, indices from
  // `from` to `to`) compares with the median of the up to 10 values before it: a fraction,
  // null when there is nothing to compare or the median is 0.
  function latestAgainstBefore(valueAt, from, to) {
    var latest = null;
    var before = [];
    for (var k = to - 1; k >= from && before.length < BEFORE_LATEST; k--) {
      var v = valueAt(k);
      if (v === null) continue;
      if (latest === null) latest = v;
      else before.push(v);
    }
    if (latest === null || !before.length) return { latest: latest, relative: null };
    var m = median(before);
    return { latest: latest, relative: m === 0 ? null : latest / m - 1 };
  }

  // A chart's recent change, for its card: `changed` when the window holds one of its
  // change points or a gated verdict against it (a flag for a series), `relative` the
  // newest change point's size in the window, else the latest value against the median of
  // those before it; `score` orders the cards (changed first, then by size).
  function recentScore(changed, relative) {
    return (changed ? 1e6 : 0) + (relative === null ? 0 : Math.min(Math.abs(relative), 1e5));
  }

  pv.storeCardChange = function (info, m, since) {
    var metric = info.metrics[m];
    var first = firstRecentRecord(info, since);
    var change = null;
    info.changes[m].forEach(function (c) {
      if (c.index >= first) change = c;
    });
    var statuses = info.cohort.records.comparison_status;
    var verdict = "";
    for (var k = info.n - 1; k >= first; k--) {
      var own = metric.verdicts ? metric.verdicts[k] : statuses[k] === "REGRESSION" ? "regressed" : statuses[k] === "INCONCLUSIVE" ? "inconclusive" : null;
      if (own === "regressed" || (own === "inconclusive" && !verdict)) verdict = own;
      if (verdict === "regressed") break;
    }
    var latest = latestAgainstBefore(function (k) { return metric.values[k]; }, 0, info.n);
    var relative = change ? change.relative_change : latest.relative;
    var changed = Boolean(change || verdict);
    return { changed: changed, change: change, verdict: verdict, latest: latest.latest, relative: relative, score: recentScore(changed, relative) };
  };

  pv.seriesCardChange = function (model, series, first) {
    var p = series.points;
    var n = series.count !== undefined ? series.count : p.commit.length;
    var change = null;
    pv.seriesChanges(series).forEach(function (c) {
      if (p.commit[c.index] >= first) change = c;
    });
    var flags = 0;
    for (var k = n - 1; k >= 0 && p.commit[k] >= first; k--) if (p.flag[k] === 1) flags++;
    var latest = latestAgainstBefore(function (k) { return p.median[k]; }, 0, n);
    var relative = change ? change.relative_change : latest.relative;
    var changed = Boolean(change || flags);
    return { changed: changed, change: change, flags: flags, latest: latest.latest, relative: relative, score: recentScore(changed, relative) };
  };

  // A card's recent change in words: "change point +15.0% worse <where(change)>", else
  // "+4.5% against the <noun> before", else "" when there is nothing to compare.
  pv.recentChangeWords = function (recent, where, noun) {
    if (recent.change) return "change point " + pv.changeLabel(recent.change) + " " + where(recent.change);
    if (recent.relative === null) return "";
    return pv.changePercentText(recent.relative) + " against the " + noun + " before";
  };

  // The window's start: ms for the store, a commit index for the history.
  pv.storeSince = function (model, windowKey) {
    var w = windowOf(windowKey);
    return w.days === Infinity ? -Infinity : pv.storeNewest(model) - w.days * DAY_MS;
  };
  pv.historyFirstRecent = function (model, windowKey) {
    var w = windowOf(windowKey);
    var newest = historyNewest(model);
    return firstRecentCommit(model, w.days === Infinity || newest === -Infinity ? -Infinity : newest - w.days * 86400);
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
