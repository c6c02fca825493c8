#include "cli/report_command.hpp"

#include <ctime>
#include <iostream>

#include "cli/output_file.hpp"
#include "cli/project_lookup.hpp"
#include "measure/results_folder.hpp"
#include "model/error.hpp"
#include "model/time_window.hpp"
#include "report/store_report.hpp"

namespace perfgate {

CLI::App* add_report_command(CLI::App& app, ReportOptions& options) {
  CLI::App* cmd =
      app.add_subcommand("report", "Report the store's records as Markdown, JSON or CSV");
  cmd->add_option("--format", options.format, "md, json or csv (default: md)")
      ->check(CLI::IsMember({"md", "json", "csv"}));
  cmd->add_flag("--json", options.json, "Same as --format json");
  cmd->add_option("--since", options.since, "Only records this recent: 30d, 12h, 2026-11-01, …");
  cmd->add_option("-b,--benchmark", options.benchmark,
                  "Only records whose benchmark_id matches this glob");
  cmd->add_option("-o,--output", options.output,
                  "Write to this file instead of standard output (an existing file is kept "
                  "unless --force)");
  cmd->add_flag("--force", options.force, "Replace the --output file if it exists");
  cmd->add_option(
      "--store", options.store,
      "Store URL (default: $PERFGATE_STORE, [store] url, sqlite:.perfgate/perfgate.db)");
  cmd->add_option("--project", options.project, "perfgate.toml to use (store URL)");
  cmd->footer(
      "Examples:\n"
      "  perfgate report --since 30d --benchmark 'sort*'\n"
      "  perfgate report --format csv -o perf.csv\n"
      "  perfgate report --format json --store dir:perf-archive\n\n"
      "Exit status: 0 report written; 64 bad flag, or an --output file that exists (pass\n"
      "--force); 65 unreadable store record; 66 store or --output folder not found; 74 store\n"
      "or file not readable or writable.");
  return cmd;
}

int execute_report(const ReportOptions& options) {
  if (!options.output.empty()) check_output_file(options.output, "--output", options.force);
  const ProjectConfig project = project_for(options.project, std::filesystem::current_path());
  const auto store = open_existing_store(resolve_store_url(options.store, project.store_url));
  const std::time_t now = std::time(nullptr);
  RecordFilter filter;
  filter.benchmark_glob = options.benchmark;
  if (!options.since.empty()) filter.since = since_to_timestamp(options.since, now);
  const ReportFormat format = options.json || options.format == "json" ? ReportFormat::kJson
                              : options.format == "csv"                ? ReportFormat::kCsv
                                                                       : ReportFormat::kMarkdown;
  ReportContext context;
  context.store_url = store->url();
  context.generated_at = iso_utc(now);
  context.filter = {
      {"benchmark", options.benchmark.empty() ? Json(nullptr) : Json(options.benchmark)},
      {"since", filter.since.empty() ? Json(nullptr) : Json(filter.since)}};
  const std::string text = render_report(format, store->list_records(filter), context);
  if (options.output.empty()) {
    std::cout << text;
    return 0;
  }
  write_output_file(options.output, "--output", text, options.force);
  std::cerr << "wrote " << options.output << "\n";
  return 0;
}

}  // namespace perfgate
