#pragma once
// `perfgate history changes`: change points of every cohort's series in the store
// (docs/changes.md).
#include <cstddef>
#include <string>

#include <CLI/CLI.hpp>

namespace perfgate {

struct HistoryChangesOptions {
  std::string store;
  std::string project;
  std::string benchmark;
  std::string since;
  std::string metric;
  std::string history;
  long long min_segment = 5;
  double p_value = 0.001;
  bool json = false;
};

CLI::App* add_history_changes_command(CLI::App* history, HistoryChangesOptions& options);
int execute_history_changes(const HistoryChangesOptions& options);

}  // namespace perfgate
