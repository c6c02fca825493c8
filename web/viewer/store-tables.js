// The records of the chosen cohort as a table, newest first, with every field the chart's
// tooltip shows. The newest hundred rows are drawn unless the reader asks for all: a
// cohort of 100,000 records would otherwise cost a million cells of DOM.
(function (pv) {
  "use strict";

  var NEWEST = 100;
  var ALL_LIMIT = 10000;

  // A 64-digit id (attempt, record) cut to 10 digits; other text whole.
  pv.shortId = function (id) {
    var text = pv.text(id);
    return /^[0-9a-f]{64}$/.test(text) ? text.slice(0, 10) + "…" : text;
  };

  function cell(content, className, title) {
    return pv.el("td", { class: className, title: title }, content);
  }

  // A commit's page from the document's commit_url ("…{sha}…", [report] commit_url):
  // only an http(s) address, and only for a SHA, becomes a link.
  pv.storeCommitUrl = function (template, commit) {
    if (typeof template !== "string" || !/^https?:\/\//i.test(template) || template.indexOf("{sha}") < 0) return "";
    if (typeof commit !== "string" || !/^[0-9a-f]{7,64}$/.test(commit)) return "";
    return template.split("{sha}").join(commit);
  };

  function commitNode(commit, template) {
    var text = commit === null ? "unknown" : pv.shortCommit(commit);
    var url = pv.storeCommitUrl(template, commit);
    if (url) return pv.el("a", { class: "mono commit-link", href: url, title: commit, rel: "noopener noreferrer" }, text);
    return pv.el("span", { class: "mono", title: commit === null ? null : pv.text(commit) }, text);
  }

  function recordRow(info, k, template) {
    var records = info.cohort.records;
    var status = records.comparison_status[k];
    var recorded = records.timestamp[k];
    var cells = [
      cell([
        // The record's permalink: the page opened at its point, its tooltip shown.
        pv.el("a", { class: "permalink", href: pv.recordHash(info, k, null), title: "link to this record's point" }, pv.instantText(info.times[k]).replace(" UTC", "")),
        /Z$/.test(recorded) ? null : pv.el("div", { class: "recorded" }, "recorded as " + recorded),
      ], "time"),
      cell(pv.text(records.benchmark[k])),
    ];
    info.metrics.forEach(function (metric) {
      var value = metric.values[k];
      // At most 4 significant digits in the column's unit; the exact value as its title.
      cells.push(value === null
        ? cell("no value", "num no-value-cell")
        : cell(pv.significant(value / pv.metricDisplay(metric).divisor), "num", pv.formatValue(value) + " " + pv.text(metric.unit)));
    });
    var commit = records.commit[k];
    cells.push(
      cell(pv.text(status), "status " + pv.statusClass(status)),
      cell(pv.reasonText(records.comparison_reason[k]), "reason"),
      cell(pv.text(records.baseline_status[k]), "word"),
      cell(pv.yesNo(records.eligible[k])),
      cell(pv.yesNo(records.success[k])),
      cell(pv.text(records.run_source[k]), "word"),
      cell([
        commitNode(commit, template),
        records.branch[k] === null ? null : pv.el("div", { class: "branch" }, pv.text(records.branch[k])),
      ], "commit"),
      cell(pv.shortId(records.attempt[k]), "mono", pv.text(records.attempt[k]))
    );
    return pv.el("tr", { class: pv.statusClass(status) }, cells);
  }

  // rows: record indices, newest first (the filters applied). showAll: draw them all (up
  // to a limit). onRows(value): "all" or "newest". commitTemplate: the document's commit_url.
  pv.storeRecordsTable = function (info, rows, filtered, showAll, onRows, commitTemplate) {
    var wrapper = pv.el("div", { class: "table-block", id: "records-table" });
    var total = rows.length;
    var drawn = Math.min(total, showAll ? ALL_LIMIT : NEWEST);
    var of = filtered
      ? pv.plural(total, "record", "records") + (total === 1 ? " that matches" : " that match") + " the filters (" + pv.formatCount(info.n) + " in the cohort)"
      : pv.plural(total, "record", "records");
    var note = pv.el("p", { class: "note", id: "records-count" });
    if (!total) {
      note.textContent = "No record of this cohort matches the filters (" + pv.formatCount(info.n) + " in the cohort).";
      wrapper.appendChild(note);
      return wrapper;
    }
    if (drawn === total) {
      note.appendChild(document.createTextNode("Showing all " + of + ", newest first."));
      if (showAll && total > NEWEST) {
        note.appendChild(document.createTextNode(" "));
        note.appendChild(pv.el("button", { type: "button", id: "records-newest", on: { click: function () { onRows("newest"); } } }, "show the newest " + NEWEST + " only"));
      }
    } else {
      note.appendChild(document.createTextNode("Showing the newest " + pv.formatCount(drawn) + " of " + of + "."));
      if (!showAll) {
        note.appendChild(document.createTextNode(" "));
        note.appendChild(pv.el("button", { type: "button", id: "records-all", on: { click: function () { onRows("all"); } } },
          total > ALL_LIMIT ? "show the newest " + pv.formatCount(ALL_LIMIT) : "show all " + pv.formatCount(total)));
      } else {
        note.appendChild(document.createTextNode(" Narrow the filters to see older ones."));
      }
    }
    wrapper.appendChild(note);
    var columns = ["time (UTC)", "benchmark"];
    info.metrics.forEach(function (metric) {
      columns.push(pv.titledWithUnit(pv.text(metric.name), pv.metricDisplay(metric)));
    });
    columns.push("comparison status", "reason", "baseline status", "eligible", "success", "run source", "commit, branch", "attempt");
    var body = pv.el("tbody");
    var fragment = document.createDocumentFragment();
    for (var i = 0; i < drawn; i++) fragment.appendChild(recordRow(info, rows[i], commitTemplate));
    body.appendChild(fragment);
    wrapper.appendChild(pv.el("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": "Records of this cohort" }, pv.el("table", { class: "data records" }, [
      pv.el("thead", null, pv.el("tr", null, columns.map(function (title) { return pv.el("th", { scope: "col" }, title); }))),
      body,
    ])));
    return wrapper;
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
