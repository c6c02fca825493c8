#include "cli/history_changes_command.hpp"

#include <fmt/format.h>

#include <ctime>
#include <filesystem>
#include <iostream>

#include "cli/project_lookup.hpp"
#include "model/error.hpp"
#include "model/time_window.hpp"
#include "report/change_report.hpp"
#include "report/history_changes.hpp"
#include "report/html_site.hpp"

namespace perfgate {

CLI::App* add_history_changes_command(CLI::App* history, HistoryChangesOptions& options) {
  CLI::App* cmd = history->add_subcommand(
      "changes", "Find where each cohort's series changed (E-divisive change points)");
  cmd->add_option(
      "--store", options.store,
      "Store URL (default: $PERFGATE_STORE, [store] url, sqlite:.perfgate/perfgate.db)");
  cmd->add_option("--project", options.project, "perfgate.toml to use (store URL)");
  cmd->add_option("-b,--benchmark", options.benchmark,
                  "Only records whose benchmark_id matches this glob");
  cmd->add_option("--since", options.since, "Only records this recent: 30d, 12h, 2026-11-01, …");
  cmd->add_option("--metric", options.metric, "Only this metric (default: every metric)");
  cmd->add_option("--history", options.history,
                  "Analyse the compatibility series of this history.json (perfgate history "
                  "export) instead of the store");
  cmd->add_option("--min-segment", options.min_segment,
                  "Points on each side of a change, at least (default 5; 2 or more)");
  cmd->add_option("--p-value", options.p_value,
                  "Largest p-value of a change the segment and trend tests accept (default 0.001)");
  cmd->add_flag("--json", options.json, "Print the changes as JSON (docs/changes.md)");
  cmd->footer(
      "Examples:\n"
      "  perfgate history changes\n"
      "  perfgate history changes --metric latency --since 90d\n"
      "  perfgate history changes --benchmark 'sort*' --p-value 0.0001 --json\n"
      "  perfgate history changes --history site/history.json --metric latency\n\n"
      "Each cohort's records, oldest first, make one series per metric; failed runs are left\n"
      "out. A change is reported with the record that starts it, the means before and after,\n"
      "the change in percent (worse or better by the metric's direction) and its p-value.\n\n"
      "Exit status: 0 analysed (whatever was found); 64 bad flag; 65 unreadable store record\n"
      "or history.json; 66 store or --history file not found; 74 store not readable.");
  return cmd;
}

int execute_history_changes(const HistoryChangesOptions& options) {
  if (options.min_segment < 2) {
    throw Error(ExitCode::kUsage,
                "--min-segment " + std::to_string(options.min_segment) +
                    ": a change needs at least 2 points on each side to be tested. Pass 2 or "
                    "more (default 5)");
  }
  if (!(options.p_value > 0 && options.p_value < 1)) {
    throw Error(ExitCode::kUsage,
                fmt::format("--p-value {:g}: a p-value lies between 0 and 1. Pass e.g. 0.001 "
                            "(one chance in a thousand that noise alone makes such a change)",
                            options.p_value));
  }
  const stats::ChangePointOptions method{static_cast<std::size_t>(options.min_segment),
                                         options.p_value};
  if (!options.history.empty()) {
    if (!options.store.empty() || !options.benchmark.empty() || !options.since.empty()) {
      throw Error(ExitCode::kUsage,
                  "--history analyses an export's series; --store, --benchmark and --since "
                  "choose a store's records. Pass --history or those, not both");
    }
    const auto series = analyse_history_changes(read_history_file(options.history), options.history,
                                                options.metric, method);
    std::cout << (options.json ? render_changes_json(series, method, "history", options.history)
                               : render_changes_text(series, method, "series"));
    return 0;
  }
  const ProjectConfig project = project_for(options.project, std::filesystem::current_path());
  RecordFilter filter;
  filter.benchmark_glob = options.benchmark;
  if (!options.since.empty()) filter.since = since_to_timestamp(options.since, std::time(nullptr));
  std::unique_ptr<Store> store;
  try {
    store = open_existing_store(project_store_url(options.store, project));
  } catch (const Error& error) {
    if (error.code() != ExitCode::kNoInput) throw;
    // The archive's export is the other source of series: say so where the store is missing.
    throw Error(ExitCode::kNoInput,
                std::string(error.what()) +
                    ". Or analyse a history export instead: perfgate history changes --history "
                    "site/history.json (written by 'perfgate history export')");
  }
  const auto series = analyse_changes(store->list_records(filter), options.metric, method);
  std::cout << (options.json ? render_changes_json(series, method, "store", store->url())
                             : render_changes_text(series, method));
  return 0;
}

}  // namespace perfgate
