#pragma once
// `perfgate history plan|measure|publish|export|validate|changes`: every commit of a branch
// measured once, kept forever in an archive, and exported for the viewer (SPEC §9,
// docs/history.md).
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/bisect_command.hpp"
#include "cli/history_changes_command.hpp"

namespace perfgate {

struct HistoryOptions {
  std::string repo = ".";
  std::optional<std::string> archive;
  // plan
  bool retry = false;
  bool confirm_flags = false;   ///< history plan --confirm-flags
  bool no_bridge = false;       ///< history plan --no-bridge
  bool accept_rewrite = false;  ///< history plan --accept-rewrite
  int backfill = 0;             ///< history plan --backfill N
  std::optional<std::string> commit;
  std::optional<int> max;
  std::optional<std::string> target;
  std::optional<std::string> activation;
  // plan, export: the output file; measure: the batch folder
  std::string output;
  bool force = false;
  std::string queue_store;  ///< plan --store: the work queue to fill
  // measure, and plan --store
  std::string plan;
  std::string environment;
  bool stable = false;
  std::string image;
  std::string run;
  int attempt = 0;
  // publish, validate
  std::string batch;
  bool accept_stale = false;  ///< publish --accept-stale
  bool json = false;
  HistoryChangesOptions changes;
  // bisect: the range from an export, then `perfgate bisect`'s own options
  std::string bisect_export;
  std::string bisect_series;
  std::optional<int> bisect_change;
  std::string bisect_flag;
  BisectOptions bisect;
};

struct HistoryCommands {
  CLI::App* history = nullptr;
  CLI::App* plan = nullptr;
  CLI::App* measure = nullptr;
  CLI::App* publish = nullptr;
  CLI::App* export_ = nullptr;
  CLI::App* validate = nullptr;
  CLI::App* changes = nullptr;
  CLI::App* bisect = nullptr;
};

HistoryCommands add_history_command(CLI::App& app, HistoryOptions& options);
/// Runs whichever history subcommand was parsed; returns the exit status.
int execute_history(const HistoryCommands& commands, const HistoryOptions& options);

}  // namespace perfgate
