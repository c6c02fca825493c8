#include "ingest/import_records.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>

#include "model/fingerprint.hpp"
#include "perfgate_version.hpp"
#include "stats/summary.hpp"

namespace perfgate::ingest {
namespace {

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool all_finite(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

/// How many MB (MiB, perfgate's memory unit) one of `unit` is; nullopt for a unit that is
/// not an amount of bytes.
std::optional<double> mebibytes_per(const std::string& unit) {
  const std::string u = lowercase(unit);
  if (u == "b" || u == "byte" || u == "bytes") return 1.0 / (1024.0 * 1024.0);
  if (u == "kb" || u == "kib") return 1.0 / 1024.0;
  if (u == "mb" || u == "mib") return 1.0;
  if (u == "gb" || u == "gib") return 1024.0;
  return std::nullopt;
}

/// `memory` or `gpu_memory` for a metric that measures memory in bytes, nullopt for any
/// other. Memory metrics take these names so that they get the memory policy (peak, 5% and
/// 256 MB) and line up with what `perfgate run` measures.
std::optional<std::string> memory_metric_name(const ExtraMetric& metric) {
  const std::string name = lowercase(metric.name);
  const bool memory =
      name.find("memory") != std::string::npos || name.find("rss") != std::string::npos;
  if (!memory || !mebibytes_per(metric.unit)) return std::nullopt;
  return std::string(name.find("gpu") != std::string::npos ? metric_names::kGpuMemory
                                                           : metric_names::kMemory);
}

MetricSeries series(Metric metric, std::vector<double> samples) {
  MetricSeries out;
  out.metric = std::move(metric);
  out.samples = std::move(samples);
  out.summary = summarize(out.samples);
  return out;
}

/// The latency samples of a state, or nullopt (with `why`) when it has no usable timing.
std::optional<std::vector<double>> latency_samples(const ResultState& state, RawRecord& record,
                                                   std::string& why) {
  std::vector<double> samples = state.samples;
  if (samples.empty() && state.summary.median) {
    samples = {*state.summary.median};
    record.warnings.emplace_back(kLatencyFromMedianWarning);
  } else if (samples.empty() && state.summary.mean) {
    samples = {*state.summary.mean};
    record.warnings.emplace_back(kLatencyFromMeanWarning);
  }
  if (samples.empty()) {
    why = "no samples, median or mean of its " + state.timing_name + "; not imported";
    return std::nullopt;
  }
  if (!all_finite(samples)) {
    why = "its " + state.timing_name + " holds a value that is not a finite number; not imported";
    return std::nullopt;
  }
  return samples;
}

void add_extra_metrics(const ResultState& state, RawRecord& record) {
  for (const ExtraMetric& extra : state.extra_metrics) {
    if (extra.samples.empty()) continue;
    if (!all_finite(extra.samples)) {
      record.warnings.push_back("metric '" + extra.name +
                                "' holds a value that is not a finite number; left out");
      continue;
    }
    Metric metric{extra.name, extra.unit, extra.direction};
    std::vector<double> samples = extra.samples;
    // A second memory metric keeps its own name and unit: only one can be `memory`.
    if (const auto memory = memory_metric_name(extra);
        memory && !record.metrics.contains(*memory)) {
      const double factor = *mebibytes_per(extra.unit);
      for (double& sample : samples) sample *= factor;
      metric = {*memory, "MB", Direction::kLowerIsBetter};
    }
    if (record.metrics.contains(metric.name)) {
      record.warnings.push_back("metric '" + extra.name +
                                "' has the name of a metric the record already has; left out");
      continue;
    }
    const std::string name = metric.name;
    record.metrics[name] = series(std::move(metric), std::move(samples));
  }
}

const ResultDevice* find_device(const ResultFile& file, const std::optional<long long>& id) {
  if (!id) return nullptr;
  for (const ResultDevice& device : file.devices) {
    if (device.id == *id) return &device;
  }
  return nullptr;
}

/// `entry`: the state's mapping entry, or nullptr.
BenchmarkIdentity identity_for(const ResultFile& file, const ResultState& state,
                               const ImportOptions& options, const MappingEntry* entry) {
  const std::string family = options.benchmark_prefix + state.benchmark;
  const IdentityChoice none;
  const IdentityChoice& mapped = entry ? entry->identity : none;

  BenchmarkIdentity id;
  id.benchmark_id = family;
  if (!state.state_key.empty()) id.benchmark_id += "[" + state.state_key + "]";
  if (file.devices.size() > 1 && state.device)
    id.benchmark_id += "@dev" + std::to_string(*state.device);
  id.config_benchmark_id = family;
  id.config_schema_version = 2;
  id.workload_id = options.flags.workload_id.value_or(mapped.workload_id.value_or(family));
  id.variant_id = options.flags.variant_id.value_or(mapped.variant_id.value_or(
      state.state_key.empty() ? std::string("default") : state.state_key));
  id.benchmark_version =
      options.flags.benchmark_version.value_or(mapped.benchmark_version.value_or(1));
  id.parameters = state.axis_values;
  return id;
}

// What was measured, as far as a result file tells: which tool, which benchmark and
// state, which timing on which device. No path, time or sample enters it, so importing
// the same benchmark again gives the same fingerprint.
Json recipe_for(const ResultFile& file, const ResultState& state, const BenchmarkIdentity& id) {
  const ResultDevice* device = find_device(file, state.device);
  return {
      {"recipe_schema_version", 1},
      {"benchmark",
       {{"workload_id", *id.workload_id},
        {"variant_id", *id.variant_id},
        {"benchmark_version", *id.benchmark_version}}},
      {"import",
       {{"format", std::string(to_string(file.format))},
        {"benchmark", state.benchmark},
        {"state_key", state.state_key},
        {"timing", state.timing_name},
        {"device", device ? Json(device->name) : Json(nullptr)},
        {"device_id",
         file.devices.size() > 1 && state.device ? Json(*state.device) : Json(nullptr)}}},
  };
}

}  // namespace

ImportedStates import_states(const ResultFile& file, const ImportOptions& options,
                             const Provenance& host) {
  ImportedStates out;
  for (const ResultState& state : file.states) {
    RawRecord record;
    const MappingEntry* entry =
        find_mapping_entry(options.mapping, mapping_subject(state.benchmark, state.state_key));
    record.identity = identity_for(file, state, options, entry);
    if (state.skipped) {
      out.left_out.push_back(record.identity.benchmark_id + ": skipped by the benchmark (" +
                             state.skip_reason + ")");
      continue;
    }
    std::string why;
    auto latency = latency_samples(state, record, why);
    if (!latency) {
      out.left_out.push_back(record.identity.benchmark_id + ": " + why);
      continue;
    }
    record.num_measurement_runs =
        static_cast<int>(state.samples.empty() && state.summary.sample_size
                             ? *state.summary.sample_size
                             : static_cast<long long>(latency->size()));
    record.metrics[std::string(metric_names::kLatency)] =
        series(Metric{std::string(metric_names::kLatency), "s", Direction::kLowerIsBetter},
               std::move(*latency));
    add_extra_metrics(state, record);

    // The mapping entry's policies, as a benchmark config's regression_thresholds: they
    // win over perfgate.toml's [policies] for these states.
    if (entry != nullptr) {
      for (const auto& [metric, policy] : entry->regression_thresholds) {
        record.regression_thresholds[metric] = policy_json(policy);
      }
    }
    record.config_path = file.path.string();
    record.perfgate_version = kVersion;
    record.recipe = recipe_for(file, state, record.identity);
    record.recipe_fingerprint = fingerprint(record.recipe);
    record.provenance = host;
    if (const ResultDevice* device = find_device(file, state.device))
      record.provenance.device = device->name;
    out.records.push_back(std::move(record));
  }
  return out;
}

}  // namespace perfgate::ingest
