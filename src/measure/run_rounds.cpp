#include "measure/run_rounds.hpp"

#include <algorithm>

#include "measure/recipe.hpp"
#include "model/fingerprint.hpp"
#include "model/static_thresholds.hpp"
#include "stats/summary.hpp"

namespace perfgate {

BenchmarkState round_of(const BenchmarkState& state, bool first, BenchmarkConfig& config) {
  config = *state.config;
  config.run.num_measurement_runs = 1;
  if (!first) {
    config.run.num_warmup_runs = 0;
    // The counted runs are not timed, so the moments they meet do not matter: all of them
    // in the first round.
    config.run.measure_counts = false;
  }
  BenchmarkState round = state;
  round.config = &config;
  return round;
}

RawRecord merge_rounds(const std::vector<RawRecord>& rounds, const BenchmarkState& state) {
  RawRecord merged = rounds.front();
  for (std::size_t r = 1; r < rounds.size(); ++r) {
    const RawRecord& round = rounds[r];
    const int offset = static_cast<int>(merged.runs.size());
    for (RunObservation run : round.runs) {
      run.index += offset;
      merged.runs.push_back(std::move(run));
    }
    merged.num_measurement_runs += round.num_measurement_runs;
    for (const auto& [name, series] : round.metrics) {
      auto [slot, added] = merged.metrics.try_emplace(name, series);
      if (!added) {
        slot->second.samples.insert(slot->second.samples.end(), series.samples.begin(),
                                    series.samples.end());
      }
    }
    for (const std::string& name : round.missing_components) {
      if (std::find(merged.missing_components.begin(), merged.missing_components.end(), name) ==
          merged.missing_components.end())
        merged.missing_components.push_back(name);
    }
    for (const std::string& warning : round.warnings) {
      if (std::find(merged.warnings.begin(), merged.warnings.end(), warning) ==
          merged.warnings.end())
        merged.warnings.push_back(warning);
    }
    if (merged.success && !round.success) {
      merged.success = false;
      merged.failure_reason = round.failure_reason;
    }
  }
  for (auto& [name, series] : merged.metrics) series.summary = summarize(series.samples);
  const BenchmarkConfig& config = *state.config;
  merged.num_warmup_runs = config.run.num_warmup_runs;
  // The counting backend is the first round's, where the counted runs were (round_of).
  const Json& first_measure = rounds.front().recipe.value("measure", Json::object());
  merged.recipe =
      build_recipe(state, digest_inputs(config), first_measure.value("counter", Json(nullptr)));
  merged.recipe_fingerprint = fingerprint(merged.recipe);
  merged.static_verdict =
      check_static_thresholds(config.thresholds, merged.provenance.device, merged.metrics);
  return merged;
}

}  // namespace perfgate
