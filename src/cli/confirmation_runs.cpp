#include "cli/confirmation_runs.hpp"

#include <iostream>

#include <fmt/format.h>

#include "cli/progress_line.hpp"
#include "cli/raw_inputs.hpp"
#include "cli/run_environment.hpp"
#include "config/suite_loader.hpp"
#include "gate/comparison_status.hpp"
#include "measure/confirmation_record.hpp"
#include "measure/interruption.hpp"
#include "measure/process_executor.hpp"
#include "measure/recipe.hpp"
#include "measure/results_folder.hpp"
#include "model/error.hpp"
#include "model/fingerprint.hpp"
#include "model/time_window.hpp"
#include "report/comparison_row.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

constexpr const char* kConfirmFolder = "confirm";

std::string text_of(const Json& raw, const char* key) {
  const auto it = raw.is_object() ? raw.find(key) : raw.end();
  return raw.is_object() && it != raw.end() && it->is_string() ? it->get<std::string>() : "";
}

// The confirmations in one folder's confirm/, by the digest of the raw record each confirms.
std::map<std::string, RawInput> confirmations_in(const fs::path& folder) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder / kConfirmFolder, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.rfind("perf_", 0) == 0 &&
        entry.path().extension() == ".json")
      files.push_back(entry.path());
  }
  std::map<std::string, RawInput> found;
  for (RawInput& input : read_raw_records(files)) {
    if (!input.unreadable.empty()) {
      std::cerr << "perfgate: note: not a confirmation perfgate can read: " << input.unreadable
                << "; ignored. Remove it, and compare --confirm measures the state again\n";
      continue;
    }
    const std::string confirmed = confirmed_raw_sha256(input.raw);
    if (!confirmed.empty()) found.emplace(confirmed, std::move(input));
  }
  return found;
}

// The metrics whose change made the first verdict what it is, as the table showed them:
// the regressed ones first, then those whose interval straddled the threshold.
std::vector<FirstEvidence> first_evidence(const NormalizedRecord& record) {
  std::vector<const MetricComparison*> deciding;
  for (const MetricComparison& comparison : record.comparisons) {
    if (comparison.regressed) deciding.push_back(&comparison);
  }
  for (const MetricComparison& comparison : record.comparisons) {
    if (comparison.inconclusive && !comparison.regressed) deciding.push_back(&comparison);
  }
  std::vector<FirstEvidence> evidence;
  for (const MetricComparison* chosen : deciding) {
    const MetricComparison& comparison = *chosen;
    const auto metric = record.metrics.find(comparison.metric);
    const Direction direction =
        metric == record.metrics.end() ? Direction::kLowerIsBetter : metric->second.direction;
    evidence.push_back({comparison.metric, format_change(comparison, direction)});
  }
  return evidence;
}

struct MeasuredConfirmation {
  std::optional<RawInput> merged;
  std::string why_not;  ///< when there is no merged record
};

// Loads the state the raw record measured, as it is now, and says why it cannot stand for
// the first measurement when it cannot.
MeasuredConfirmation confirm_one(const RawInput& input, const NormalizedRecord& judged, int runs,
                                 bool show_progress) {
  const std::string config_path = text_of(input.raw, "config_path");
  if (config_path.empty() || config_path == "(command line)") {
    return {std::nullopt,
            "measured with 'perfgate run -- CMD', which has no config to run again; rerun it "
            "with more --runs"};
  }
  // `run` writes the config's path as it was named, relative to the folder it ran in: from
  // here, from the project's root, or from the project the record lies in.
  const std::optional<ProjectLocation> project = locate_project(fs::current_path());
  std::optional<fs::path> config_file;
  std::vector<fs::path> candidates = {config_path};
  if (fs::path(config_path).is_relative()) {
    if (project) candidates.push_back(project->root / config_path);
    if (const auto owner = locate_project(fs::absolute(input.path).parent_path()))
      candidates.push_back(owner->root / config_path);
  }
  for (const fs::path& candidate : candidates) {
    if (!config_file && fs::is_regular_file(candidate)) config_file = candidate;
  }
  if (!config_file) {
    return {std::nullopt, "its config " + config_path + " is not here; confirm it where it ran"};
  }
  Suite suite;
  try {
    suite = load_suite({*config_file}, project);
  } catch (const Error& error) {
    return {std::nullopt, std::string("its config no longer loads: ") + error.what()};
  }
  const std::string state_name = text_of(input.raw, "benchmark_id");
  std::optional<BenchmarkState> state;
  for (const BenchmarkConfig& config : suite.configs) {
    for (BenchmarkState& candidate : expand_states(config)) {
      if (candidate.name == state_name) state = std::move(candidate);
    }
  }
  if (!state) return {std::nullopt, config_path + " no longer has the state " + state_name};
  std::string recipe;
  try {
    recipe = fingerprint(build_recipe(*state, digest_inputs(*state->config)));
  } catch (const Error& error) {
    return {std::nullopt, std::string("an input of its config cannot be read: ") + error.what()};
  }
  if (recipe != text_of(input.raw, "recipe_fingerprint")) {
    return {std::nullopt,
            "its recipe is not the record's: its config, an input or the project's [run] "
            "defaults changed since it was measured, or compare runs in another project than "
            "run did; run the suite again instead"};
  }
  const RunEnvironment environment = describe_run_environment(suite, "");
  const std::string hardware = text_of(input.raw, "hardware_profile_id");
  if (environment.provenance.hardware_profile_id != hardware) {
    return {std::nullopt, fmt::format("it was measured on another machine ({}; this one is {}); "
                                      "confirm it where it ran",
                                      hardware, environment.provenance.hardware_profile_id)};
  }
  const std::string software = text_of(input.raw, "software_profile_id");
  if (environment.provenance.software_profile_id != software) {
    return {std::nullopt, fmt::format("the software profile changed since it was measured ({} "
                                      "then, {} now)",
                                      software, environment.provenance.software_profile_id)};
  }

  // The same state, with the confirmation's number of measured runs; its warmups as before.
  BenchmarkConfig config = *state->config;
  config.run.num_measurement_runs = runs;
  state->config = &config;
  const fs::path folder = fs::path(input.path).parent_path() / kConfirmFolder;
  prepare_results_folder(folder);
  ProgressLine progress(stderr, config.run.num_warmup_runs + runs, show_progress);
  ProcessExecutor executor;
  BenchmarkRunner runner(executor, folder, environment, &progress);
  const RawRecord confirmation = runner.run(*state);
  progress.clear();
  if (interruption_signal() != 0) return {std::nullopt, "interrupted"};

  Json merged;
  try {
    merged = merge_confirmation(
        {input.raw, input.path, input.sha256, judged.comparison_status, first_evidence(judged)},
        confirmation);
  } catch (const Error& error) {
    return {std::nullopt, error.what()};
  }
  const std::string bytes = pretty_json(merged);
  const fs::path written = write_new_file(
      folder, "perf_" + file_slug(state_name) + "_" + environment.file_stamp, ".json", bytes);
  return {RawInput{written.string(), Json::parse(bytes), sha256_hex(bytes), ""}, ""};
}

}  // namespace

void use_earlier_confirmations(std::vector<RawInput>& inputs) {
  std::map<fs::path, std::map<std::string, RawInput>> by_folder;
  for (RawInput& input : inputs) {
    if (!input.unreadable.empty()) continue;
    const fs::path folder = fs::path(input.path).parent_path();
    auto known = by_folder.find(folder);
    if (known == by_folder.end()) known = by_folder.emplace(folder, confirmations_in(folder)).first;
    const auto confirmation = known->second.find(input.sha256);
    if (confirmation != known->second.end()) input = confirmation->second;
  }
}

ConfirmationRound confirm_judged_records(std::vector<RawInput>& inputs,
                                         const std::vector<NormalizedRecord>& judged, int runs,
                                         bool show_progress) {
  ConfirmationRound round;
  for (std::size_t i = 0; i < inputs.size() && i < judged.size(); ++i) {
    const NormalizedRecord& record = judged[i];
    if (record.comparison_status != kRegression && record.comparison_status != kInconclusive)
      continue;
    // A failed run or a static breach is a hard failure that more runs cannot undo; a record
    // already confirmed is judged on its samples as they are.
    if (!inputs[i].unreadable.empty() || !record.success ||
        !confirmed_raw_sha256(inputs[i].raw).empty())
      continue;
    if (interruption_signal() != 0) break;
    std::cerr << fmt::format("perfgate: confirming {} ({}): {} more run(s) in fresh processes\n",
                             record.benchmark_id, record.comparison_status, runs);
    MeasuredConfirmation outcome = confirm_one(inputs[i], record, runs, show_progress);
    if (outcome.merged) {
      inputs[i] = std::move(*outcome.merged);
      ++round.merged;
    } else if (interruption_signal() == 0) {
      round.not_confirmed.push_back(fmt::format("{}: {} not re-measured: {}", record.benchmark_id,
                                                record.comparison_status, outcome.why_not));
    }
  }
  return round;
}

}  // namespace perfgate
