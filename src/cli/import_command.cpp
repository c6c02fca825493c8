#include "cli/import_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>

#include "cli/format_in_flag.hpp"
#include "cli/judged_records.hpp"
#include "cli/project_lookup.hpp"
#include "gate/batch_comparison.hpp"
#include "ingest/import_records.hpp"
#include "measure/host_provenance.hpp"
#include "model/error.hpp"
#include "model/time_window.hpp"
#include "store/absent_store.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> identity_flag(const std::optional<std::string>& value,
                                         const char* flag) {
  if (value && value->empty()) {
    throw Error(ExitCode::kUsage,
                std::string(flag) + " must not be empty. Give a name or leave the flag out");
  }
  return value;
}

/// Warnings that many records share (every nvbench state without samples says the same)
/// are printed once, with how many records and the first few of them.
void print_record_warnings(const std::vector<ingest::ImportedStates>& files) {
  std::map<std::string, std::vector<std::string>> by_warning;
  for (const auto& file : files) {
    for (const auto& record : file.records) {
      for (const auto& warning : record.warnings)
        by_warning[warning].push_back(record.identity.benchmark_id);
    }
  }
  constexpr std::size_t kNamesShown = 3;
  for (const auto& [warning, ids] : by_warning) {
    const std::vector<std::string> shown(ids.begin(),
                                         ids.begin() + std::min(ids.size(), kNamesShown));
    std::cerr << "perfgate: note: " << warning << " (" << ids.size()
              << " record(s): " << fmt::format("{}", fmt::join(shown, ", "))
              << (ids.size() > kNamesShown ? ", …" : "") << ")\n";
  }
}

/// A micro-benchmark's latency is far below the default absolute threshold (0.5 s): it
/// regresses only when it gets worse by more than that, so the gate would pass a doubling.
void note_thresholds_above_values(const std::vector<NormalizedRecord>& records) {
  std::map<std::string, std::pair<std::size_t, const MetricPolicy*>> below;
  for (const auto& record : records) {
    for (const auto& [name, value] : record.metrics) {
      const auto policy = record.regression_thresholds.find(name);
      if (policy == record.regression_thresholds.end() || !policy->second.gated) continue;
      if (std::abs(value.value) < policy->second.threshold_absolute) {
        auto& [count, example] = below[name];
        ++count;
        example = &policy->second;
      }
    }
  }
  for (const auto& [name, entry] : below) {
    std::cerr << fmt::format(
        "perfgate: note: {} of {} record(s) is smaller than its policy's threshold_absolute "
        "({:g}): it regresses only when it gets worse by more than that. Set "
        "[policies.{}] threshold_absolute in perfgate.toml to a size that fits these "
        "benchmarks\n",
        name, entry.first, entry.second->threshold_absolute, name);
  }
}

}  // namespace

CLI::App* add_import_command(CLI::App& app, ImportCommandOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "import",
      "Store results of Google Benchmark, nvbench, hyperfine or pyperf as records, judged "
      "against their rolling baselines");
  cmd->add_option("files", options.files, "Result files to import")->required();
  cmd->add_option("--format-in", options.format_in,
                  "nvbench, gbench, hyperfine, pyperf, perfgate-raw or perfgate-normalized "
                  "(default: recognised from each file's content)");
  cmd->add_option("--benchmark-prefix", options.benchmark_prefix,
                  "Put before every benchmark name, e.g. cpu/");
  cmd->add_option("--workload-id", options.workload_id,
                  "workload_id of every imported state (default: the mapping, else "
                  "<prefix><benchmark>)");
  cmd->add_option("--variant-id", options.variant_id,
                  "variant_id of every imported state (default: the mapping, else the state, "
                  "else 'default')");
  cmd->add_option("--benchmark-version", options.benchmark_version,
                  "benchmark_version of every imported state (default: the mapping, else 1)")
      ->check(CLI::Range(1LL, LLONG_MAX));
  cmd->add_option("--mapping", options.mapping,
                  "TOML or JSON file of [[benchmark]] entries (match, workload_id, variant_id, "
                  "benchmark_version); the first match wins, flags win over it");
  cmd->add_option("--run-source", options.run_source,
                  "pr, local, scheduled_main or unknown (default: inferred from CI variables)")
      ->check(CLI::IsMember({"pr", "local", "scheduled_main", "unknown"}));
  cmd->add_option("--store", options.store,
                  "Store URL: sqlite:PATH or dir:PATH (default: $PERFGATE_STORE, [store] url, "
                  "sqlite:.perfgate/perfgate.db)");
  cmd->add_option("--project", options.project,
                  "perfgate.toml to use (default: found from the current folder)");
  cmd->add_option("--upload", options.upload,
                  "never, pass or always (default: $PERFGATE_UPLOAD_POLICY, else always)")
      ->check(CLI::IsMember({"never", "pass", "always"}));
  cmd->add_flag("--json", options.json,
                "Print the normalised records as JSON instead of the table");
  cmd->add_flag("--dry-run", options.dry_run,
                "Convert and judge, but store nothing (and create no store)");
  cmd->footer(
      "Examples:\n"
      "  perfgate import results/gbench.json --benchmark-prefix cpu/ --run-source local\n"
      "  perfgate import nv.json --mapping perf/import-map.toml --upload pass --json\n"
      "  perfgate import hyperfine.json --workload-id startup --variant-id cold --dry-run\n\n"
      "Exit status: 0 PASS or CALIBRATION_NEEDED; 1 REGRESSION, RECIPE_MISMATCH or "
      "INFRA_ERROR;\n"
      "64 bad flag; 65 malformed result or mapping file (nothing stored); 66 file or store not "
      "found;\n74 store not writable.");
  return cmd;
}

int execute_import(const ImportCommandOptions& options) {
  const UploadChoice upload = resolve_upload_policy(options.upload, "always");
  const std::optional<ingest::ResultFormat> format = parse_format_in_flag(options.format_in);
  ingest::ImportOptions conversion;
  conversion.benchmark_prefix = options.benchmark_prefix;
  conversion.flags.workload_id = identity_flag(options.workload_id, "--workload-id");
  conversion.flags.variant_id = identity_flag(options.variant_id, "--variant-id");
  conversion.flags.benchmark_version = options.benchmark_version;
  if (!options.mapping.empty()) conversion.mapping = ingest::read_import_mapping(options.mapping);

  const ProjectConfig project = project_for(options.project, fs::current_path());
  const std::time_t clock = std::time(nullptr);
  const HostProvenance host = describe_host(real_host(), current_environment(),
                                            project.software_profile, options.run_source, clock);

  // Every file is read and converted before anything is judged or stored, so that one
  // malformed file stores nothing.
  std::vector<ingest::ImportedStates> imported;
  std::vector<RawInput> inputs;
  // benchmark_id -> the position on the command line of the file that gave it
  std::map<std::string, std::size_t> file_of;
  for (std::size_t file_index = 0; file_index < options.files.size(); ++file_index) {
    const std::string& path = options.files[file_index];
    const ingest::ResultFile file = ingest::read_result_file(path, format);
    for (const auto& warning : file.warnings) std::cerr << "perfgate: warning: " << warning << "\n";
    imported.push_back(ingest::import_states(file, conversion, host.provenance));
    for (const auto& why : imported.back().left_out)
      std::cerr << "perfgate: note: " << path << ": " << why << "\n";
    for (const auto& record : imported.back().records) {
      const auto [earlier, added] = file_of.emplace(record.identity.benchmark_id, file_index);
      if (!added) {
        // Two records of one benchmark in one attempt would both claim its place in the
        // history, with the same timestamp.
        if (earlier->second == file_index) {
          throw Error(ExitCode::kDataError,
                      path + ": holds two states named " + record.identity.benchmark_id +
                          " (same benchmark, state name and axis values), which one record "
                          "identity cannot tell apart. Give the states distinct axis values, "
                          "or import the runs from separate files");
        }
        throw Error(ExitCode::kDataError,
                    path + ": " + record.identity.benchmark_id + " is also in " +
                        options.files[earlier->second] +
                        ". Import each result once: results of separate runs of one benchmark "
                        "belong in separate imports");
      }
      // No raw file exists for an import: the normalised record's raw_record_sha256 is "".
      inputs.push_back({path + " (" + record.identity.benchmark_id + ")", to_json(record), ""});
    }
  }
  if (inputs.empty()) {
    throw Error(ExitCode::kDataError,
                fmt::format("{}: no state to import (every state was skipped or had no timing). "
                            "Check that the benchmarks ran",
                            fmt::join(options.files, ", ")));
  }
  print_record_warnings(imported);

  BatchOptions batch;
  batch.project_policies = project.policies;
  batch.trusted_run_sources = project.trusted_run_sources;
  const std::string url = resolve_store_url(options.store, project.store_url);
  const auto store = options.dry_run ? open_store_for_reading(url) : open_store(url);
  std::vector<NormalizedRecord> records = compare_batch(inputs, *store, batch);
  note_thresholds_above_values(records);

  std::string stored_note = "dry run: nothing stored";
  if (options.dry_run) {
    for (auto& record : records) assign_record_id(record);
  } else {
    stored_note = store_judged_records(*store, records, upload, iso_utc(clock));
  }
  print_judged_records(records, options.json);
  if (!options.json) std::cout << stored_note << "\n";
  return judged_exit_status(records);
}

}  // namespace perfgate
