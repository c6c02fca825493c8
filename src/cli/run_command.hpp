#pragma once
// `perfgate run`: parse flags, load and validate the suite, measure, write, print, judge.
#include <optional>
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
  /// `perfgate run -- CMD ARGS...`: an ad-hoc benchmark of this command, no config.
  std::vector<std::string> command;
  std::string name;           ///< --name: the ad-hoc benchmark's id
  std::optional<int> runs;    ///< --runs: its measured runs
  std::optional<int> warmup;  ///< --warmup: its warmup runs
  /// --measure time,instructions: over every config's run_config.measure; empty: theirs.
  std::vector<std::string> measure;
};

/// Takes `perfgate run ... -- CMD ARGS...` apart before the flags are parsed: the words
/// after `--` are the ad-hoc command (into options.command) and argc is cut before them.
/// Error(kUsage) for a `--` with nothing after it.
void split_adhoc_command(int& argc, char** argv, RunOptions& options);

/// Adds the `run` subcommand and its flags to `app`.
CLI::App* add_run_command(CLI::App& app, RunOptions& options);

/// Runs it; returns the process exit code (SPEC §3). Throws perfgate::Error for bad input.
int execute_run(const RunOptions& options);

}  // namespace perfgate
