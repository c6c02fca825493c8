#pragma once
// Normalised records for the gate tests: one v2 cohort, default policies.
#include <map>
#include <string>
#include <vector>

#include "model/normalize.hpp"
#include "model/normalized_record.hpp"

namespace perfgate {

inline constexpr const char* kRecipeA =
    "aaaaaaaaaaaa1111111111111111111111111111111111111111111111111111";

/// A metric as a normalised record holds it: the unit and direction of the standard
/// metric, else seconds and lower-is-better (a component timing).
inline MetricValue metric_value(const std::string& name, double value) {
  const Metric metric =
      standard_metric(name).value_or(Metric{name, "s", Direction::kLowerIsBetter});
  return {value, metric.unit, metric.direction};
}

/// A successful scheduled_main v2 record of primes-sieve/single-thread/v1 under recipe A,
/// with `metrics` and their default policies.
inline NormalizedRecord v2_record(const std::map<std::string, double>& metrics) {
  NormalizedRecord record;
  record.benchmark_id = "primes[n=1000]";
  record.config_schema_version = 2;
  record.workload_id = "primes-sieve";
  record.variant_id = "single-thread";
  record.benchmark_version = 1;
  record.timestamp = "2026-11-30T11:37:04Z";
  record.device = "AMD EPYC 7B13";
  record.recipe_fingerprint = kRecipeA;
  record.hardware_profile_id = "hw-0123456789ab";
  record.software_profile_id = "sw-0123456789ab";
  record.environment_fingerprint = "env-0123456789ab";
  record.run_source = "scheduled_main";
  for (const auto& [name, value] : metrics) {
    record.metrics[name] = metric_value(name, value);
    record.regression_thresholds[name] = default_policy(name);
  }
  return record;
}

/// `count` baseline records whose `metric` is `value`.
inline std::vector<NormalizedRecord> flat_baseline(const std::string& metric, double value,
                                                   int count = 5) {
  return std::vector<NormalizedRecord>(static_cast<std::size_t>(count),
                                       v2_record({{metric, value}}));
}

}  // namespace perfgate
