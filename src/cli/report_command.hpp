#pragma once
// `perfgate report`: the store's records as Markdown, JSON or CSV, or the dashboard as a
// folder (--format html).
#include <string>

#include <CLI/CLI.hpp>

namespace perfgate {

struct ReportOptions {
  std::string store;
  std::string project;
  std::string format = "md";
  std::string since;
  std::string benchmark;
  std::string output;
  std::string history;        ///< --history: a history.json whose views the html site adds
  std::string expect_source;  ///< --expect-source: the SHA the --history export must be of
  int stale_after_days = 0;   ///< --stale-after: warn when the newest attempt is older
  bool force = false;         ///< --force: replace an existing --output file
  bool json = false;
};

CLI::App* add_report_command(CLI::App& app, ReportOptions& options);
int execute_report(const ReportOptions& options);

}  // namespace perfgate
