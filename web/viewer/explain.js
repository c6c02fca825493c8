// Why a monitored commit has no point in a series. Failed and missing commits are
// explained with the evidence (the attempt's errors, rejected files), never drawn as zeros.
(function (pv) {
  "use strict";

  // The machine a series was measured on ("" when its attempts do not say).
  pv.seriesEnvironment = function (series) {
    var env = series && series.environment;
    return env && typeof env === "object" && typeof env.id === "string" ? env.id : "";
  };

  // A commit's state on the series' machine: {status, attempt}. An export that lists each
  // commit's environments says it per machine (a second machine never hides or fails the
  // first one's data); an older export has only the commit's own status.
  pv.commitState = function (model, commitIndex, series) {
    var commit = model.commits[commitIndex];
    var environments = commit.environments;
    if (!environments || typeof environments !== "object") {
      return { status: commit.status, attempt: commit.attempt, elsewhere: [] };
    }
    var id = pv.seriesEnvironment(series);
    var here = Object.prototype.hasOwnProperty.call(environments, id) ? environments[id] : undefined;
    var elsewhere = Object.keys(environments).filter(function (other) { return other !== id; }).sort();
    if (!here) return { status: "missing", attempt: undefined, elsewhere: elsewhere };
    return { status: here.status, attempt: here.attempt, elsewhere: elsewhere };
  };

  // Commit indices in [lo, hi] without a point in `series`, by kind: "failed" (the winning
  // attempt on the series' machine failed), "missing" (no valid attempt there) and
  // "absent" (measured there, but the measurement belongs to another series or lacks this
  // case).
  pv.seriesGaps = function (model, series, lo, hi) {
    var gaps = { failed: [], missing: [], absent: [] };
    var commits = model.commits;
    var points = series.points.commit;
    var k = pv.lowerBound(points, lo);
    for (var c = Math.max(0, lo); c <= hi && c < commits.length; c++) {
      while (k < points.length && points[k] < c) k++;
      if (k < points.length && points[k] === c) continue;
      var status = pv.commitState(model, c, series).status;
      if (status === "failed") gaps.failed.push(c);
      else if (status === "missing") gaps.missing.push(c);
      else gaps.absent.push(c);
    }
    return gaps;
  };

  pv.gapKind = function (model, commitIndex, series) {
    var status = pv.commitState(model, commitIndex, series).status;
    return status === "failed" || status === "missing" ? status : "absent";
  };

  pv.GAP_TITLES = {
    failed: "failed",
    missing: "missing",
    absent: "no point in this series",
  };

  function rejectedFilesOf(model, sha) {
    if (!model.rejectedBySha) {
      model.rejectedBySha = new Map();
      model.rejected.forEach(function (file) {
        var sha = typeof file.id === "string" ? file.id.slice(0, 40) : "";
        if (!model.rejectedBySha.has(sha)) model.rejectedBySha.set(sha, []);
        model.rejectedBySha.get(sha).push(file);
      });
    }
    return model.rejectedBySha.get(sha) || [];
  }

  function errorLines(attempt) {
    var errors = Array.isArray(attempt.errors) ? attempt.errors : [];
    if (!errors.length) return ["attempt " + attempt.id + " failed without a recorded error"];
    return errors.map(function (error) {
      return pv.text(error && error.stage) + ": " + pv.text(error && error.message);
    });
  }

  // What differs between the series' setup and the attempt's: the reason its measurement
  // is in another series.
  function setupDifferences(series, attempt) {
    var differences = [];
    if (attempt.label !== series.label) {
      differences.push("label " + pv.text(attempt.label) + " (series: " + pv.text(series.label) + ")");
    }
    if (attempt.harness_version !== series.harness_version) {
      differences.push("harness version " + pv.text(attempt.harness_version));
    }
    var mine = series.environment || {};
    var theirs = attempt.environment || {};
    var keys = Object.keys(Object.assign({}, mine, theirs)).sort();
    keys.forEach(function (key) {
      if (JSON.stringify(mine[key]) !== JSON.stringify(theirs[key])) {
        differences.push(key + " " + pv.text(theirs[key]) + " (series: " + pv.text(mine[key]) + ")");
      }
    });
    return differences;
  }

  // Text lines that explain commit `commitIndex` in `series`: kind, then evidence.
  pv.explainGap = function (model, series, commitIndex) {
    var commit = model.commits[commitIndex];
    var state = pv.commitState(model, commitIndex, series);
    var kind = pv.gapKind(model, commitIndex, series);
    var winner = state.attempt ? pv.attemptById(model, state.attempt) : undefined;
    var machine = pv.seriesEnvironment(series);
    var on = commit.environments && machine ? " on " + machine : "";
    var lines = [];
    if (kind === "missing") {
      lines.push("missing: no valid attempt measured this commit" + on);
      if (state.elsewhere.length) lines.push("measured on other machines: " + state.elsewhere.join(", "));
      rejectedFilesOf(model, commit.sha).forEach(function (file) {
        lines.push("rejected file " + pv.text(file.path) + ": " + pv.text(file.reason));
      });
    } else if (kind === "failed") {
      lines.push("failed: the latest attempt" + on + " " + pv.text(state.attempt) + " failed");
      if (winner) lines = lines.concat(errorLines(winner));
      var earlier = (commit.attempts || []).filter(function (id) {
        if (id === state.attempt) return false;
        var attempt = pv.attemptById(model, id);
        if (!commit.environments) return true;
        var env = attempt && attempt.environment && typeof attempt.environment.id === "string" ? attempt.environment.id : "";
        return attempt && attempt.superseded && env === machine;
      }).length;
      if (earlier > 0) lines.push(pv.plural(earlier, "earlier attempt is", "earlier attempts are") + " superseded by it");
    } else {
      lines.push("measured by " + pv.text(state.attempt) + ", but not in this series");
      if (winner && Array.isArray(winner.missing_cases) && winner.missing_cases.indexOf(series.case) >= 0) {
        lines.push("the case gave no measurement in that attempt");
      } else if (winner) {
        var differences = setupDifferences(series, winner);
        lines.push(
          differences.length
            ? "measured in another setup: " + differences.join("; ")
            : "measured with another configuration, benchmark source or metric setup (another series)"
        );
      }
    }
    return { kind: kind, lines: lines };
  };

  pv.attemptErrorLines = errorLines;
})((window.PerfgateViewer = window.PerfgateViewer || {}));
