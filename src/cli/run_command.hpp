#pragma once
// `perfgate run`: parse flags, load and validate the suite, measure, write, print, judge.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace perfgate {

struct RunOptions {
  std::vector<std::string> suites;
  std::vector<std::string> filters;
  std::string results_dir;
  std::string run_source;
  bool json = false;
  bool no_progress = false;
  bool list = false;     ///< --list: print the expanded states, run nothing
  bool dry_run = false;  ///< --dry-run: validate everything, print what would run
  std::string timeout;   ///< --timeout: every run's limit ("90s", "2m")
};

/// Adds the `run` subcommand and its flags to `app`.
CLI::App* add_run_command(CLI::App& app, RunOptions& options);

/// Runs it; returns the process exit code (SPEC §3). Throws perfgate::Error for bad input.
int execute_run(const RunOptions& options);

}  // namespace perfgate
