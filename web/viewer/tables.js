// The evidence tables: points of the selected series, its commits without a point, failed
// attempts and rejected files. Each renders one page of rows, so a 10,000-commit history
// costs a hundred rows of DOM, not ten thousand.
(function (pv) {
  "use strict";

  var PAGE_SIZE = 100;

  function cell(content, className) {
    return pv.el("td", { class: className }, content);
  }

  // spec: {id, caption, columns: [title...], count, page, rowAt(i) -> [cells], onPage(page),
  // empty: text when there are no rows}
  pv.pagedTable = function (spec) {
    var wrapper = pv.el("div", { class: "table-block", id: spec.id });
    if (!spec.count) {
      wrapper.appendChild(pv.el("p", { class: "note" }, spec.empty));
      return wrapper;
    }
    var pages = Math.ceil(spec.count / PAGE_SIZE);
    var page = Math.min(Math.max(0, spec.page), pages - 1);
    var first = page * PAGE_SIZE;
    var last = Math.min(spec.count, first + PAGE_SIZE);
    var table = pv.el("table", { class: "data" });
    if (spec.caption) table.appendChild(pv.el("caption", null, spec.caption));
    table.appendChild(pv.el("thead", null, pv.el("tr", null, spec.columns.map(function (title) {
      return pv.el("th", { scope: "col" }, title);
    }))));
    var body = pv.el("tbody");
    for (var i = first; i < last; i++) {
      var row = spec.rowAt(i);
      body.appendChild(pv.el("tr", { class: row.className }, row.cells));
    }
    table.appendChild(body);
    wrapper.appendChild(table);
    if (pages > 1) {
      var pager = pv.el("div", { class: "pager" }, [
        pv.el("button", { type: "button", class: "prev", disabled: page === 0 ? "disabled" : null, on: { click: function () { spec.onPage(page - 1); } } }, "‹ previous"),
        pv.el("span", null, "rows " + pv.formatCount(first + 1) + "–" + pv.formatCount(last) + " of " + pv.formatCount(spec.count)),
        pv.el("button", { type: "button", class: "next", disabled: page === pages - 1 ? "disabled" : null, on: { click: function () { spec.onPage(page + 1); } } }, "next ›"),
      ]);
      wrapper.appendChild(pager);
    }
    return wrapper;
  };

  // A commit's SHA, a link to it where the export gives the commit a URL
  // ([history] commit_url): only http(s) addresses become links.
  pv.commitLink = function (commit, text) {
    var url = commit && typeof commit.url === "string" ? commit.url : "";
    if (/^https?:\/\//i.test(url)) {
      return pv.el("a", { class: "mono commit-link", href: url, title: commit.sha, rel: "noopener noreferrer" }, text);
    }
    return pv.el("span", { class: "mono", title: commit ? commit.sha : "" }, text);
  };

  // An attempt id as its permalink: #attempt=<id> shows the attempt in full.
  pv.attemptLink = function (id) {
    var text = pv.text(id);
    return pv.el("a", { class: "mono attempt-link", href: "#attempt=" + encodeURIComponent(text) }, text);
  };

  function commitCell(model, commitIndex) {
    var commit = model.commits[commitIndex];
    return cell([pv.commitLink(commit, pv.shortSha(commit.sha)), " #" + commitIndex], "commit");
  }

  // Where an attempt's raw output is, when the export says where the archive is published
  // (raw_url): its raw_path under it.
  pv.rawLink = function (model, attempt) {
    var base = typeof model.doc.raw_url === "string" ? model.doc.raw_url : "";
    var path = attempt && typeof attempt.raw_path === "string" ? attempt.raw_path : "";
    if (!base || !path || !/^raw\/[A-Za-z0-9._-]+\/$/.test(path)) return null;
    if (!/^(https?:\/\/|\.{0,2}\/)/i.test(base)) return null;
    return pv.el("a", { class: "raw-link", href: base.replace(/\/?$/, "/") + path, rel: "noopener noreferrer" }, "raw output " + path);
  };

  // The attempt of `id` in full: what it measured, where, how it ended, and its raw output.
  pv.attemptDetails = function (model, id) {
    var attempt = pv.attemptById(model, id);
    var block = pv.el("div", { class: "attempt-details", "data-attempt": pv.text(id) });
    if (!attempt) {
      block.appendChild(pv.el("p", { class: "note" }, "No attempt " + pv.text(id) + " in this history."));
      return block;
    }
    var monitored = model.commitIndexBySha.get(attempt.sha);
    var commit = monitored === undefined ? { sha: attempt.sha } : model.commits[monitored];
    var env = attempt.environment && typeof attempt.environment === "object" ? attempt.environment : {};
    var list = pv.el("dl", { class: "facts" });
    [
      ["attempt", pv.text(attempt.id)],
      ["commit", [pv.commitLink(commit, pv.text(attempt.sha)), monitored === undefined ? " (not monitored)" : " #" + monitored]],
      ["status", pv.text(attempt.status) + (attempt.superseded ? ", superseded by a newer attempt of its machine and setup" : ", the winning attempt of its machine and setup")],
      ["machine", pv.text(env.id)],
      ["started", pv.text(attempt.started_at)],
      ["finished", pv.text(attempt.finished_at)],
      ["label", pv.text(attempt.label)],
      ["harness", "v" + pv.text(attempt.harness_version) + " at " + pv.text(attempt.harness_sha)],
      ["cases measured", pv.text(attempt.case_count)],
    ].forEach(function (fact) {
      list.appendChild(pv.el("div", null, [pv.el("dt", null, fact[0]), pv.el("dd", null, fact[1])]));
    });
    block.appendChild(list);
    if (attempt.status === "failure") {
      block.appendChild(pv.el("div", { class: "evidence" }, pv.attemptErrorLines(attempt).map(function (text) { return pv.el("div", null, text); })));
      var missing = Array.isArray(attempt.missing_cases) ? attempt.missing_cases : [];
      if (missing.length) block.appendChild(pv.el("p", null, "missing cases: " + missing.map(pv.text).join(", ")));
    }
    var raw = pv.rawLink(model, attempt);
    if (raw) block.appendChild(pv.el("p", null, raw));
    return block;
  };

  function flagText(model, series, k) {
    if (series.points.flag[k] !== 1) return "";
    var sha = model.commits[series.points.commit[k]].sha;
    var flag = model.flagByPoint.get(series.id + " " + sha);
    var state = pv.flagConfirmation(model, series, k);
    var suffix = state === "confirmed" ? " confirmed" : state === "unconfirmed" ? " unconfirmed" : "";
    if (flag && typeof flag.change_percent === "number") {
      return "⚑ " + pv.flagPercentText(flag.change_percent) + suffix;
    }
    return "⚑ flagged" + suffix;
  }

  // Newest first: the latest measurements are what a reader checks first.
  // A value in its column's unit, 4 significant digits, the exact value as the title.
  function valueCell(value, series) {
    if (value === null || value === undefined) return cell("—", "num");
    var td = cell(pv.significant(value / pv.seriesDisplay(series).divisor), "num");
    td.title = pv.formatValue(value) + " " + pv.text(series.unit);
    return td;
  }

  pv.pointsTable = function (ctx, page, onPage, onReference) {
    var model = ctx.model;
    var series = ctx.series;
    var p = series.points;
    var n = p.commit.length;
    var ratio = ctx.mode === "ratio";
    var columns = ["commit", "time (UTC)", "summary", "median", "mad", "min", "max"];
    if (ratio) columns.push("ratio", "reference");
    columns.push("attempt", "flag");
    return pv.pagedTable({
      id: "points-table",
      caption: "Points of this series, newest first (values in " + pv.text(pv.seriesDisplay(series).suffix || series.unit) + "; the exact value as each cell's title)",
      columns: columns,
      count: n,
      page: page,
      onPage: onPage,
      empty: "This series has no points.",
      rowAt: function (i) {
        var k = n - 1 - i;
        var commit = model.commits[p.commit[k]];
        var attempt = model.attempts[p.attempt[k]];
        var cells = [
          commitCell(model, p.commit[k]),
          // The point's permalink: the page opened at it, its tooltip shown.
          cell(pv.el("a", { class: "permalink", href: pv.pointHash(model, series, k), title: "link to this point" }, pv.commitTime(commit.time)), "time"),
          cell(pv.summaryText(commit.summary), "summary"),
          valueCell(p.median[k], series),
          valueCell(p.mad[k], series),
          valueCell(p.min[k], series),
          valueCell(p.max[k], series),
        ];
        if (ratio) {
          cells.push(cell(pv.formatShort(p.median[k] * ctx.factor) + "×", "num"));
          cells.push(cell(k === ctx.refPoint
            ? "reference"
            : pv.el("button", { type: "button", class: "make-ref", title: "make this point the reference", on: { click: function () { onReference(k); } } }, "use")));
        }
        cells.push(cell(attempt ? pv.attemptLink(attempt.id) : "", "mono"));
        cells.push(cell(flagText(model, series, k), "flag"));
        return { className: p.flag[k] === 1 ? "flagged" : "", cells: cells };
      },
    });
  };

  // Commits in the chart's range without a point in this series, newest first.
  pv.gapsTable = function (ctx, page, onPage) {
    var model = ctx.model;
    var all = ctx.gaps.failed.concat(ctx.gaps.missing, ctx.gaps.absent).sort(function (a, b) { return b - a; });
    return pv.pagedTable({
      id: "gaps-table",
      caption: "Commits in the chart's range without a point in this series, newest first",
      columns: ["commit", "time (UTC)", "summary", "status", "explanation"],
      count: all.length,
      page: page,
      onPage: onPage,
      empty: "Every monitored commit in the chart's range has a point in this series.",
      rowAt: function (i) {
        var c = all[i];
        var commit = model.commits[c];
        var explanation = pv.explainGap(model, ctx.series, c);
        return {
          className: "gap-" + explanation.kind,
          cells: [
            commitCell(model, c),
            cell(pv.commitTime(commit.time), "time"),
            cell(pv.summaryText(commit.summary), "summary"),
            cell(pv.GAP_TITLES[explanation.kind], "status"),
            cell(explanation.lines.map(function (text) { return pv.el("div", null, text); }), "evidence"),
          ],
        };
      },
    });
  };

  // Every failed attempt of the archive, superseded ones included: the evidence of why
  // commits failed and of retries.
  pv.failedAttemptsTable = function (model, page, onPage) {
    var failed = [];
    for (var i = model.attempts.length - 1; i >= 0; i--) {
      if (model.attempts[i].status === "failure") failed.push(model.attempts[i]);
    }
    return pv.pagedTable({
      id: "failed-table",
      caption: "Failed attempts, newest first",
      columns: ["attempt", "commit", "started (UTC)", "superseded", "errors", "missing cases"],
      count: failed.length,
      page: page,
      onPage: onPage,
      empty: "No attempt failed.",
      rowAt: function (j) {
        var attempt = failed[j];
        var monitored = model.commitIndexBySha.get(attempt.sha);
        var missingCases = Array.isArray(attempt.missing_cases) ? attempt.missing_cases : [];
        return {
          cells: [
            cell([pv.attemptLink(attempt.id)].concat(pv.rawLink(model, attempt) ? [pv.el("div", null, pv.rawLink(model, attempt))] : []), "mono"),
            cell([pv.commitLink(monitored === undefined ? { sha: attempt.sha } : model.commits[monitored], pv.shortSha(attempt.sha)),
              monitored === undefined ? " (not monitored)" : " #" + monitored], "mono"),
            cell(pv.text(attempt.started_at)),
            cell(attempt.superseded ? "yes, by a newer attempt" : "no: latest attempt"),
            cell(pv.attemptErrorLines(attempt).map(function (text) { return pv.el("div", null, text); }), "evidence"),
            cell(missingCases.map(function (name) { return pv.el("div", null, pv.text(name)); })),
          ],
        };
      },
    });
  };

  pv.rejectedTable = function (model, page, onPage) {
    var rejected = model.rejected;
    return pv.pagedTable({
      id: "rejected-table",
      caption: "Attempt files rejected by validation (never data: they make no point)",
      columns: ["file", "identity", "reason"],
      count: rejected.length,
      page: page,
      onPage: onPage,
      empty: "No attempt file was rejected.",
      rowAt: function (i) {
        var file = rejected[i];
        return {
          cells: [
            cell(pv.text(file.path), "mono"),
            cell(file.id ? pv.text(file.id) : "(not an identity)", "mono"),
            cell(pv.text(file.reason), "evidence"),
          ],
        };
      },
    });
  };
})((window.PerfgateViewer = window.PerfgateViewer || {}));
