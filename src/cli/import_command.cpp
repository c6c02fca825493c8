#include "cli/import_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include "cli/format_in_flag.hpp"
#include "cli/judged_records.hpp"
#include "cli/project_lookup.hpp"
#include "gate/batch_comparison.hpp"
#include "ingest/import_records.hpp"
#include "measure/host_provenance.hpp"
#include "measure/local_git.hpp"
#include "model/error.hpp"
#include "model/fingerprint.hpp"
#include "model/time_window.hpp"
#include "store/cohort_history.hpp"

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
  cmd->add_flag("--init", options.init,
                "The store is new: create it if it does not exist (without it, a store named by "
                "--store, PERFGATE_STORE or perfgate.toml must exist)");
  cmd->footer(
      "Examples:\n"
      "  perfgate import results/gbench.json --benchmark-prefix cpu/ --run-source local\n"
      "  perfgate import nv.json --mapping perf/import-map.toml --upload pass --json\n"
      "  perfgate import hyperfine.json --workload-id startup --variant-id cold --dry-run\n"
      "  perfgate import old-history/normalized_perf_*.json --store sqlite:team.db --init\n\n"
      "Normalised records (perfgate's, or the legacy flat layouts) are history: they keep\n"
      "their identity, timestamps (as UTC), profile ids and statuses, and are not judged again.\n"
      "Importing the same file again stores nothing new.\n\n"
      "Results are judged by the project's [policy] method (stat unless it says seed), as\n"
      "compare judges them.\n\n"
      "Exit status: 0 PASS or CALIBRATION_NEEDED; 1 REGRESSION, RECIPE_MISMATCH or "
      "INFRA_ERROR;\n"
      "2 INCONCLUSIVE; 64 bad flag; 65 malformed result or mapping file (nothing stored); 66 file "
      "not found, or\n"
      "a store that does not exist (pass --init to create it); 74 store not writable.");
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
  HostProvenance host = describe_host(real_host(), current_environment(), project.software_profile,
                                      options.run_source, clock);
  // As `run` does: outside CI, the commit of the project's checkout.
  add_local_git(real_host(), host.provenance, project.root.value_or(fs::current_path()), std::cerr);

  // Every file is read and converted before anything is judged or stored, so that one
  // malformed file stores nothing.
  std::vector<ingest::ImportedStates> imported;
  std::vector<RawInput> inputs;
  std::vector<NormalizedRecord> history;  // normalised records, kept as they were
  for (const std::string& path : options.files) {
    const ingest::ResultFile file = ingest::read_result_file(path, format);
    for (const auto& warning : file.warnings) {
      if (file.format != ingest::ResultFormat::kPerfgateNormalized)
        std::cerr << "perfgate: warning: " << warning << "\n";
    }
    if (file.format == ingest::ResultFormat::kPerfgateNormalized) {
      history.insert(history.end(), file.normalized_records.begin(), file.normalized_records.end());
      continue;
    }
    imported.push_back(ingest::import_states(file, conversion, host.provenance));
    for (const auto& why : imported.back().left_out)
      std::cerr << "perfgate: note: " << path << ": " << why << "\n";
    // One state of one file is one measurement: importing the file again finds it stored.
    std::set<std::string> names;
    for (const auto& record : imported.back().records) {
      if (!names.insert(record.identity.benchmark_id).second) {
        // Two records of one benchmark in one file would claim the same measurement.
        throw Error(ExitCode::kDataError,
                    path + ": holds two states named " + record.identity.benchmark_id +
                        " (same benchmark, state name and axis values), which one record "
                        "identity cannot tell apart. Give the states distinct axis values, "
                        "or import the runs from separate files");
      }
      inputs.push_back({path + " (" + record.identity.benchmark_id + ")", to_json(record),
                        sha256_hex(file.sha256 + "\n" + record.identity.benchmark_id), ""});
    }
  }
  if (inputs.empty() && history.empty()) {
    throw Error(ExitCode::kDataError,
                fmt::format("{}: no state to import (every state was skipped or had no timing). "
                            "Check that the benchmarks ran",
                            fmt::join(options.files, ", ")));
  }
  print_record_warnings(imported);

  BatchOptions batch;
  batch.project_policies = project.policies;
  batch.trusted_run_sources = project.trusted_run_sources;
  batch.now = iso_utc(clock);
  batch.method = project.compare_method.value_or(CompareMethod::kStat);
  const auto store = open_judging_store(project_store(options.store, project), options.init,
                                        !options.dry_run && upload.policy != UploadPolicy::kNever);
  const std::vector<PendingRecord> pending = normalize_batch(inputs, batch);
  std::vector<NormalizedRecord> converted;
  for (const auto& entry : pending) converted.push_back(entry.record);
  const CohortHistories histories = fetch_cohort_histories(
      *store, converted, batch.trusted_run_sources, history_size_for(batch.method));
  std::vector<NormalizedRecord> records = judge_batch(pending, histories, batch);
  note_thresholds_above_values(records);
  // History is imported as it was judged when it was made: its statuses, timestamps and
  // eligibility are facts about the past, not verdicts to give again.
  records.insert(records.end(), history.begin(), history.end());

  std::string stored_note = "dry run: nothing stored";
  if (options.dry_run) {
    for (auto& record : records) assign_record_id(record);
  } else {
    stored_note = store_judged_records(*store, records, std::vector<bool>(records.size(), true),
                                       upload, iso_utc(clock));
  }
  print_judged_records(records, options.json, baseline_metric_units(histories));
  if (!options.json) std::cout << stored_note << "\n";
  return judged_exit_status(records);
}

}  // namespace perfgate
