#pragma once
// perfgate.toml's [history] table: which branch is monitored, where its archive lives, how
// each commit is built and which suite measures it (SPEC §9, docs/history.md).
#include <optional>
#include <string>
#include <vector>

#include "config/config_value.hpp"

namespace perfgate {

/// When a point of a series is flagged as a possible regression: its median rose by more
/// than all three of these over the previous point's (seed 003's diagnostic rule).
struct RegressionFlagRule {
  double percent = 10.0;     ///< relative rise, in percent
  double absolute_ms = 0.1;  ///< absolute rise of a timing, in milliseconds
  double mad_factor = 3.0;   ///< rise over the sum of both points' MADs
  bool operator==(const RegressionFlagRule&) const = default;
};

struct HistoryConfig {
  std::string branch = "main";
  std::string archive = "git:perfgate-data";  ///< "git:BRANCH" or "dir:PATH"
  std::vector<std::string> build;             ///< shell commands, run in order in the copy
  std::string suite = "benchmarks/";          ///< relative to the copy of the commit
  std::vector<std::string> sources;           ///< default: the suite alone
  int harness_version = 1;
  int max_per_run = 8;
  /// How many of a batch's commits `history measure` builds first and then measures in
  /// alternation, run by run: commits compared with each other meet the same moments of
  /// the machine. 1 measures one commit after the other.
  int interleave = 8;
  double timeout_s = 3600;  ///< each build command and the suite, per commit
  RegressionFlagRule flags;
  /// A commit's page, with "{sha}" for its SHA: every commit of the export and the viewer
  /// links there. "" for none.
  std::string commit_url;
  /// Where the archive's files are published (raw/<id>/ under it): the viewer links each
  /// attempt's raw output. "" for none.
  std::string raw_url;
  /// Where each measured copy's suite and `sources` come from: "commit" (the commit's own,
  /// seed 003's rule) or "harness" (those of the checkout that drives the pipeline, laid
  /// into the copy: backfill any range with today's benchmarks, as asv does).
  std::string suite_from = "commit";
  /// A git remote of the repository that holds the shared archive branch ("origin"): plan
  /// fetches it first, publish pushes to it (never forced). "" for a local archive.
  std::string remote;
};

/// Reads a [history] table; every error of the table is reported at once.
HistoryConfig read_history_config(const ConfigValue& value);

}  // namespace perfgate
