#include "cli/report_command.hpp"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "cli/output_file.hpp"
#include "cli/project_lookup.hpp"
#include "measure/results_folder.hpp"
#include "model/error.hpp"
#include "model/time_window.hpp"
#include "report/history_freshness.hpp"
#include "report/html_site.hpp"
#include "report/store_report.hpp"
#include "report/store_view.hpp"

namespace perfgate {

CLI::App* add_report_command(CLI::App& app, ReportOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "report", "Report the store's records as Markdown, JSON, CSV or a dashboard");
  cmd->add_option("--format", options.format,
                  "md, json, csv, or html: the dashboard as a folder (-o DIR) that opens from "
                  "disk (default: md)")
      ->check(CLI::IsMember({"md", "json", "csv", "html"}));
  cmd->add_flag("--json", options.json, "Same as --format json");
  cmd->add_option("--since", options.since, "Only records this recent: 30d, 12h, 2026-11-01, …");
  cmd->add_option("-b,--benchmark", options.benchmark,
                  "Only records whose benchmark_id matches this glob");
  cmd->add_option("-o,--output", options.output,
                  "Write to this file instead of standard output (an existing file is kept "
                  "unless --force); with --format html, the folder of the site");
  cmd->add_option("--history", options.history,
                  "With --format html: add the commit-history views of this history.json "
                  "(perfgate history export)");
  cmd->add_option("--expect-source", options.expect_source,
                  "With --history: refuse an export whose source_sha is not this commit (the "
                  "site's own checkout)");
  cmd->add_option("--stale-after", options.stale_after_days,
                  "With --history: warn when its newest attempt started more than this many "
                  "days ago")
      ->check(CLI::Range(1, 36500));
  cmd->add_flag("--force", options.force, "Replace the --output file or folder if it exists");
  cmd->add_option(
      "--store", options.store,
      "Store URL (default: $PERFGATE_STORE, [store] url, sqlite:.perfgate/perfgate.db)");
  cmd->add_option("--project", options.project,
                  "perfgate.toml to use (store URL, [report] commit_url)");
  cmd->footer(
      "Examples:\n"
      "  perfgate report --since 30d --benchmark 'sort*'\n"
      "  perfgate report --format csv -o perf.csv\n"
      "  perfgate report --format json --store dir:perf-archive\n"
      "  perfgate report --format html -o site/            # then open site/index.html\n"
      "  perfgate report --format html --history history.json -o site/\n"
      "  perfgate report --format html --history history.json -o site/ \\\n"
      "      --expect-source \"$(git rev-parse HEAD)\" --stale-after 3\n\n"
      "Exit status: 0 report written; 64 bad flag, or an --output file or non-empty folder\n"
      "that exists (pass --force); 65 unreadable store record or history.json; 66 store,\n"
      "--history file or --output folder not found; 74 store or file not readable or\n"
      "writable.");
  return cmd;
}

namespace {

int write_dashboard(const ReportOptions& options, const ProjectConfig& project,
                    const RecordFilter& filter, const std::string& generated_at) {
  if (options.output.empty()) {
    throw Error(ExitCode::kUsage,
                "--format html writes a folder: name it with -o, e.g. perfgate report --format "
                "html -o site/");
  }
  // The site replaces its folder whole: never one that holds what it is made from.
  const StoreChoice choice = project_store(options.store, project);
  std::vector<std::filesystem::path> inputs;
  if (const auto store_path = store_local_path(choice.url)) inputs.push_back(*store_path);
  // The documented flow exports site/history.json and writes the site around it: the site
  // keeps it (docs/reports.md).
  std::vector<std::filesystem::path> kept;
  if (!options.history.empty()) kept.emplace_back(options.history);
  check_html_site_target(options.output, options.force, inputs, kept);
  HtmlSiteData data;
  if (!options.history.empty()) {
    data.history = read_history_file(options.history);
  }
  // A second parse of the export, so only when a check asks for it: a site build without
  // them reads a 60 MB history.json once.
  if (!options.expect_source.empty() || options.stale_after_days > 0) {
    const HistoryProvenance provenance = history_provenance(*data.history);
    if (!options.expect_source.empty())
      check_history_source(provenance, options.expect_source, options.history);
    if (options.stale_after_days > 0) {
      const auto now_us = std::chrono::duration_cast<std::chrono::microseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
      if (const auto warning =
              staleness_warning(provenance, options.stale_after_days, now_us, options.history))
        std::cerr << "perfgate report: warning: " << *warning << "\n";
    }
  }
  if (store_exists(choice.url) || !choice.is_default || !data.history) {
    const auto store = open_existing_store(choice.url);
    StoreViewContext context;
    context.store_url = store->url();
    context.generated_at = generated_at;
    context.benchmark_glob = options.benchmark;
    context.since = filter.since;
    context.commit_url = report_commit_url(project);
    const std::vector<StoredRecord> records = store->list_records(filter);
    // A large store's page shows its first screen sooner when each cohort's details are
    // loaded only when the cohort is opened (docs/viewer.md, "Large sites").
    if (records.size() > kDetailsApartRecords) {
      StoreViewApart apart = write_store_view_apart(records, context);
      data.store_view = std::move(apart.document);
      data.cohort_details = std::move(apart.details);
    } else {
      data.store_view = write_store_view(records, context);
    }
  } else {
    std::cerr << "perfgate report: note: no store at " << choice.url
              << ": the site shows the commit history only\n";
  }
  write_html_site(options.output, data, options.force, inputs, kept);
  std::filesystem::path index = std::filesystem::path(options.output) / "index.html";
  std::cout << index.lexically_normal().string() << "\n";
  return 0;
}

}  // namespace

int execute_report(const ReportOptions& options) {
  if ((!options.expect_source.empty() || options.stale_after_days > 0) && options.history.empty()) {
    throw Error(ExitCode::kUsage,
                "--expect-source and --stale-after check a --history export. Pass --history "
                "history.json --format html -o DIR with them");
  }
  if (!options.history.empty() && options.format != "html") {
    throw Error(ExitCode::kUsage,
                "--history adds views to the html dashboard only. Pass "
                "--format html -o DIR with it");
  }
  if (!options.output.empty() && options.format != "html") {
    check_output_file(options.output, "--output", options.force);
  }
  if (options.format == "html" && options.json) {
    throw Error(ExitCode::kUsage, "--json and --format html ask for two formats. Pass one");
  }
  const ProjectConfig project = project_for(options.project, std::filesystem::current_path());
  const std::time_t now = std::time(nullptr);
  RecordFilter filter;
  filter.benchmark_glob = options.benchmark;
  if (!options.since.empty()) filter.since = since_to_timestamp(options.since, now);
  if (options.format == "html") return write_dashboard(options, project, filter, iso_utc(now));
  const auto store = open_existing_store(project_store_url(options.store, project));
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
