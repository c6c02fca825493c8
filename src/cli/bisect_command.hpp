#pragma once
// `perfgate bisect --good A --bad B`: from "something got slower" to the commit that did it
// (docs/bisect.md). Commits of the first-parent path between A and B are copied and built as
// `history measure` builds them ([history] of perfgate.toml), measured a run at a time in
// alternation, and the search (bisect/bisect_search.hpp) decides each step with the
// confidence sequence of `ab --method stat`.
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace perfgate {

struct BisectOptions {
  std::string repo = ".";
  std::string good;
  std::string bad;
  std::string case_name;
  std::string metric;            ///< "" for latency (instructions with --measure instructions)
  std::string measure = "time";  ///< time or instructions
  std::string budget;            ///< "5%"; "" for the default of the metric
  double alpha = 0.01;
  long long max_rounds = 1000;
  std::string out = "perfgate-bisect";
  bool resume = false;
  bool json = false;
  bool publish = false;  ///< publish each commit built into the [history] archive at the end
  bool fresh = false;    ///< take no runs from the [history] archive's attempts
};

CLI::App* add_bisect_command(CLI::App& app, BisectOptions& options);
int execute_bisect(const BisectOptions& options);

}  // namespace perfgate
