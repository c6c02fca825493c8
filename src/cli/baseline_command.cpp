#include "cli/baseline_command.hpp"

#include <ctime>
#include <fstream>
#include <iostream>

#include "cli/project_lookup.hpp"
#include "gate/baseline_manifest.hpp"
#include "measure/results_folder.hpp"
#include "model/error.hpp"
#include "model/time_window.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

Json read_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(ExitCode::kNoInput,
                path + ": no such manifest. Write one with 'perfgate baseline prepare'");
  try {
    return Json::parse(in);
  } catch (const Json::parse_error& error) {
    throw Error(ExitCode::kDataError, path + ": not valid JSON (" + error.what() +
                                          "). Run 'perfgate baseline prepare' again");
  }
}

}  // namespace

std::pair<CLI::App*, CLI::App*> add_baseline_command(CLI::App& app, BaselineOptions& options) {
  CLI::App* baseline =
      app.add_subcommand("baseline", "Seed the first baseline of a new cohort, after review");
  baseline->require_subcommand(1);
  CLI::App* prepare =
      baseline->add_subcommand("prepare",
                               "Write a digest-protected manifest of the CALIBRATION_NEEDED "
                               "records that may seed baselines");
  prepare->add_option("-b,--benchmark", options.benchmark,
                      "Only records whose benchmark_id matches this glob");
  prepare->add_option("--since", options.since,
                      "Only records this recent: 30d, 12h, 2026-11-01, …");
  prepare->add_option("-o,--output", options.output, "Where to write the manifest")->required();
  CLI::App* approve = baseline->add_subcommand(
      "approve",
      "Re-check a reviewed manifest against the store and make its records eligible, all at once");
  approve->add_option("manifest", options.manifest, "The manifest written by prepare")->required();
  for (CLI::App* cmd : {prepare, approve}) {
    cmd->add_option(
        "--store", options.store,
        "Store URL (default: $PERFGATE_STORE, [store] url, sqlite:.perfgate/perfgate.db)");
    cmd->add_option("--project", options.project, "perfgate.toml to use (trusted run sources)");
  }
  prepare->footer(
      "Examples:\n"
      "  perfgate baseline prepare --benchmark 'sort*' -o manifest.json\n"
      "  perfgate baseline prepare --since 7d -o manifest.json --store dir:perf-archive\n\n"
      "Records qualify when they are CALIBRATION_NEEDED, successful, from a trusted run source\n"
      "([baseline] trusted_run_sources) and not yet eligible. Review the manifest, then approve "
      "it.");
  approve->footer(
      "Examples:\n"
      "  perfgate baseline approve manifest.json\n\n"
      "Refuses (exit 65), marking nothing, when the manifest was edited, the store changed since\n"
      "prepare, or a record no longer qualifies.");
  return {prepare, approve};
}

int execute_baseline_prepare(const BaselineOptions& options) {
  const ProjectConfig project = project_for(options.project, fs::current_path());
  const auto store = open_existing_store(resolve_store_url(options.store, project.store_url));
  const std::string revision = store->revision();
  RecordFilter filter;
  filter.benchmark_glob = options.benchmark;
  if (!options.since.empty()) filter.since = since_to_timestamp(options.since, std::time(nullptr));
  const auto selected =
      select_calibration_records(store->list_records(filter), project.trusted_run_sources);
  if (selected.empty()) {
    std::cerr << "perfgate: no record qualifies: baseline prepare needs CALIBRATION_NEEDED, "
                 "successful records from a "
                 "trusted run source that are not yet eligible. Store them with 'perfgate compare "
                 "--upload pass'.\n";
    return static_cast<int>(ExitCode::kFailure);
  }
  const BaselineManifest manifest =
      build_manifest(selected, store->url(), revision, iso_utc(std::time(nullptr)));
  const fs::path output = fs::absolute(options.output);
  if (fs::exists(output)) {
    throw Error(ExitCode::kUsage,
                options.output +
                    ": already exists. Choose another --output; a manifest is never overwritten");
  }
  write_new_file(output.parent_path(), output.stem().string(), output.extension().string(),
                 pretty_json(to_json(manifest)));
  std::cout << "wrote " << options.output << ": " << manifest.records.size()
            << " record(s) of store " << store->url() << " at revision " << revision.substr(0, 12)
            << "\n";
  for (const auto& entry : manifest.records) {
    std::cout << "  " << entry.benchmark_id << "  " << entry.timestamp << "  " << entry.run_source
              << "  " << entry.cohort << "\n";
  }
  std::cout << "Review it, then run: perfgate baseline approve " << options.output << "\n";
  return static_cast<int>(ExitCode::kOk);
}

int execute_baseline_approve(const BaselineOptions& options) {
  const BaselineManifest manifest =
      manifest_from_json(read_json_file(options.manifest), options.manifest);
  const ProjectConfig project = project_for(options.project, fs::current_path());
  const std::string url = !options.store.empty() ? options.store : manifest.store_url;
  const auto store = open_existing_store(url);
  const std::string revision = store->revision();
  if (revision != manifest.store_revision) {
    throw Error(ExitCode::kDataError,
                options.manifest + ": the store " + store->url() +
                    " changed since prepare (revision " + manifest.store_revision.substr(0, 12) +
                    ", now " + revision.substr(0, 12) +
                    "). Run 'perfgate baseline prepare' again and review the new manifest");
  }
  const auto problems =
      manifest_problems(manifest, store->list_records({}), project.trusted_run_sources);
  if (!problems.empty()) {
    std::string message = options.manifest + ": cannot approve; nothing was marked:";
    for (const auto& problem : problems) message += "\n  " + problem;
    throw Error(ExitCode::kDataError,
                message + "\nRun 'perfgate baseline prepare' again and review the new manifest");
  }
  std::vector<std::string> ids;
  for (const auto& entry : manifest.records) ids.push_back(entry.record_id);
  store->approve(ids, manifest.manifest_sha256, manifest.store_revision);
  std::cout << "approved " << ids.size() << " record(s) in " << store->url()
            << ": they now seed the rolling baseline of their cohorts\n";
  return static_cast<int>(ExitCode::kOk);
}

}  // namespace perfgate
