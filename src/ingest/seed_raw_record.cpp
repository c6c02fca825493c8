#include "ingest/seed_raw_record.hpp"

#include <cmath>
#include <map>

#include "config/benchmark_config.hpp"
#include "model/error.hpp"
#include "model/raw_record.hpp"
#include "model/static_thresholds.hpp"
#include "stats/summary.hpp"

namespace perfgate {
namespace {

constexpr const char* kLatencyKey = "avg_generation_time_s";
constexpr const char* kMemoryKey = "max_peak_memory_mb";

[[noreturn]] void fail(const std::string& source, const std::string& key,
                       const std::string& reason) {
  throw Error(ExitCode::kDataError, source + ": " + key + ": " + reason +
                                        ". Fix the record, or leave it out of the results folder");
}

std::optional<double> number(const Json& seed, const std::string& key, const std::string& source) {
  const auto it = seed.find(key);
  if (it == seed.end() || it->is_null()) return std::nullopt;
  if (!it->is_number() || !std::isfinite(it->get<double>()))
    fail(source, key, "must be a finite number or null");
  return it->get<double>();
}

std::vector<double> numbers(const Json& seed, const std::string& key, const std::string& source) {
  std::vector<double> out;
  const auto it = seed.find(key);
  if (it == seed.end() || it->is_null()) return out;
  if (!it->is_array()) fail(source, key, "must be an array of numbers");
  for (std::size_t i = 0; i < it->size(); ++i) {
    const Json& value = (*it)[i];
    if (!value.is_number() || !std::isfinite(value.get<double>())) {
      fail(source, key + "[" + std::to_string(i) + "]", "must be a finite number");
    }
    out.push_back(value.get<double>());
  }
  return out;
}

Json text_or_null(const Json& seed, const std::string& key, const std::string& source) {
  const auto it = seed.find(key);
  if (it == seed.end() || it->is_null()) return nullptr;
  if (it->is_string()) return *it;
  if (it->is_number_integer())
    return std::to_string(it->get<long long>());  // PR numbers, build ids
  fail(source, key, "must be a string or null");
}

std::string text(const Json& seed, const std::string& key, const std::string& fallback,
                 const std::string& source) {
  const auto it = seed.find(key);
  if (it == seed.end() || it->is_null()) return fallback;
  if (!it->is_string()) fail(source, key, "must be a string");
  return it->get<std::string>();
}

std::optional<std::string> optional_text(const Json& seed, const std::string& key,
                                         const std::string& source) {
  const Json value = text_or_null(seed, key, source);
  return value.is_null() ? std::nullopt : std::optional<std::string>(value.get<std::string>());
}

void add_series(std::map<std::string, MetricSeries>& metrics, const std::string& name,
                Metric metric, std::vector<double> samples) {
  if (samples.empty()) return;
  MetricSeries series{std::move(metric), std::move(samples), {}};
  series.summary = summarize(series.samples);
  metrics.emplace(name, std::move(series));
}

}  // namespace

bool is_seed_raw_record(const Json& json) {
  return json.is_object() && !json.contains("metrics") &&
         (json.contains(kLatencyKey) || json.contains("individual_times_s") ||
          json.contains(kMemoryKey));
}

Json convert_seed_raw_record(const Json& seed, const std::string& source) {
  std::map<std::string, MetricSeries> metrics;
  std::vector<double> times = numbers(seed, "individual_times_s", source);
  if (times.empty()) {
    if (auto avg = number(seed, kLatencyKey, source)) times = {*avg};
  }
  add_series(metrics, "latency", *standard_metric("latency"), times);
  std::vector<double> peaks = numbers(seed, "individual_peak_memories_mb", source);
  if (peaks.empty()) {
    if (auto peak = number(seed, kMemoryKey, source)) peaks = {*peak};
  }
  add_series(metrics, "memory", *standard_metric("memory"), peaks);
  if (auto fps = number(seed, "throughput_fps", source)) {
    Metric throughput = *standard_metric("throughput");
    throughput.unit = "frames/s";
    add_series(metrics, "throughput", throughput, {*fps});
  }
  std::vector<std::string> missing;
  for (const auto& [key, value] : seed.items()) {
    const bool component =
        key.size() > 7 && key.compare(key.size() - 7, 7, "_time_s") == 0 && key != kLatencyKey;
    if (!component) continue;
    if (auto seconds = number(seed, key, source)) {
      add_series(metrics, key, Metric{key, "s", Direction::kLowerIsBetter}, {*seconds});
    } else {
      missing.push_back(key);
    }
  }

  // The seed's raw record carries the thresholds block it was judged against.
  std::map<std::string, ThresholdBlock> thresholds;
  if (const auto it = seed.find("thresholds"); it != seed.end() && !it->is_null()) {
    if (!it->is_object()) fail(source, "thresholds", "must be an object of limits");
    ThresholdBlock block;
    for (const auto& [key, limit] : it->items()) {
      if (!limit.is_number()) fail(source, "thresholds." + key, "must be a number");
      const std::string metric = key == "max_generation_time_s" ? "latency"
                                 : key == kMemoryKey            ? "memory"
                                 : key.rfind("max_", 0) == 0    ? key.substr(4)
                                                                : key;
      block.limits[metric] = limit.get<double>();
    }
    thresholds["default"] = block;
  }
  const std::string device = text(seed, "device", text(seed, "gpu_type", "", source), source);
  const StaticVerdict verdict = check_static_thresholds(thresholds, device, metrics);

  const bool has_identity = seed.contains("workload_id") || seed.contains("variant_id") ||
                            seed.contains("benchmark_version");
  const Json benchmark_version = seed.value("benchmark_version", Json(nullptr));
  if (!benchmark_version.is_null() && !benchmark_version.is_number_integer()) {
    fail(source, "benchmark_version", "must be an integer");
  }
  const std::string benchmark_id =
      text(seed, "benchmark_id", text(seed, "model_id", "", source), source);
  if (benchmark_id.empty()) {
    fail(source, "benchmark_id",
         "missing: a raw record names its benchmark (benchmark_id, or model_id)");
  }

  RawRecord record;
  record.identity.benchmark_id = record.identity.config_benchmark_id = benchmark_id;
  record.identity.config_schema_version = has_identity ? 2 : 1;
  record.identity.workload_id = optional_text(seed, "workload_id", source);
  record.identity.variant_id = optional_text(seed, "variant_id", source);
  if (!benchmark_version.is_null())
    record.identity.benchmark_version = benchmark_version.get<long long>();
  record.metrics = std::move(metrics);
  record.missing_components = std::move(missing);
  record.static_verdict = verdict;
  record.regression_thresholds = seed.value("regression_thresholds", Json::object());
  record.quality_metadata = seed.value("quality_metadata", Json::object());
  // The machine around the runs, as `run` writes it: a record converted from the seed's
  // layout keeps it, so compare can tell a busy machine from a regression.
  if (const auto machine = seed.find("machine_state"); machine != seed.end()) {
    if (!machine->is_object()) fail(source, "machine_state", "must be an object");
    record.machine_state = *machine;
  }
  record.recipe_fingerprint = text(seed, "recipe_fingerprint", "", source);
  Provenance& p = record.provenance;
  p.timestamp = text(seed, "timestamp", "", source);
  p.device = device;
  p.hardware_profile_id = text(seed, "hardware_profile_id", "", source);
  p.software_profile_id = text(seed, "software_profile_id", "", source);
  p.environment_fingerprint = text(seed, "environment_fingerprint", "", source);
  p.run_source = text(seed, "run_source", "unknown", source);
  p.ci = {{"commit", text_or_null(seed, "commit", source)},
          {"branch", text_or_null(seed, "branch", source)},
          {"pr_number", text_or_null(seed, "pr_number", source)},
          {"build_url", text_or_null(seed, "build_url", source)},
          {"build_id", text_or_null(seed, "build_id", source)},
          {"job_id", text_or_null(seed, "job_id", source)}};
  return to_json(record);
}

}  // namespace perfgate
