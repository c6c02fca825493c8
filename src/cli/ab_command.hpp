#pragma once
// `perfgate ab`: paired, alternating base/head measurement with a verdict (SPEC §7).
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace perfgate {

struct AbOptions {
  std::string base;
  std::string head;
  std::string base_dir;
  std::string head_dir;
  std::string scenario_file;
  std::string suite = "basic";
  std::string scenario;
  std::vector<std::string> budgets;
  std::string noise_limit;
  std::string out;
  bool repeat_check = false;
  std::string timeout;           ///< --timeout: every run's limit ("90s", "2m")
  bool json = false;             ///< --json: the verdict as JSON on stdout
  std::string method = "pairs";  ///< --method: pairs (3 + 2 pairs) or stat
  double alpha = 0.01;           ///< --alpha, for --method stat
  long long max_pairs = 60;      ///< --max-pairs, for --method stat
  /// --measure time,instructions: timed pairs and/or counted rounds; empty: time.
  std::vector<std::string> measure;
};

/// Adds the `ab` subcommand and its flags to `app`.
CLI::App* add_ab_command(CLI::App& app, AbOptions& options);

/// Runs it; returns 0 PASS, 1 REGRESSION or an execution error, 2 INCONCLUSIVE, and
/// 128 + the signal (130, 143, 129) when SIGINT, SIGTERM or SIGHUP interrupted it.
/// Throws perfgate::Error for bad flags (64), a bad scenarios file (65/66), an existing
/// output folder (64) or an output folder that cannot be written (74).
int execute_ab(const AbOptions& options);

}  // namespace perfgate
