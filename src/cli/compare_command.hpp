#pragma once
// `perfgate compare`: normalise the raw records of a results folder, judge them against
// the rolling baseline, write the summaries, store per the upload policy.
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace perfgate {

struct CompareOptions {
  std::string results_dir;
  std::string reports_dir;
  std::string store;
  std::string project;
  std::string upload;
  std::optional<int> run_rc;
  std::string run_source;
  bool json = false;
  bool init = false;
  bool all = false;            ///< --all: every run of the results folder, not only the newest
  bool change_points = false;  ///< --change-points: report recent change points too
  std::string method;          ///< --method stat|seed; "" = [policy] method, else stat
  /// --confirm N: re-measure a REGRESSION or INCONCLUSIVE state with N more runs before
  /// judging it; nullopt = [policy] confirm_runs, else 0 (off).
  std::optional<int> confirm;
};

CLI::App* add_compare_command(CLI::App& app, CompareOptions& options);
int execute_compare(const CompareOptions& options);

}  // namespace perfgate
