#pragma once
// Small records and attempts for the store tests.
#include <string>
#include <vector>

#include "model/attempt.hpp"

namespace perfgate {

inline CohortKey test_cohort() {
  return CohortKey{"sieve", "single", 1, "recipe-1", "hw-1", "sw-1"};
}

/// A successful, eligible record of test_cohort() unless changed by the caller.
inline NormalizedRecord test_record(const std::string& benchmark_id, const std::string& timestamp,
                                    double latency = 1.0) {
  const CohortKey cohort = test_cohort();
  NormalizedRecord r;
  r.benchmark_id = benchmark_id;
  r.config_schema_version = 2;
  r.workload_id = cohort.workload_id;
  r.variant_id = cohort.variant_id;
  r.benchmark_version = cohort.benchmark_version;
  r.recipe_fingerprint = cohort.recipe_fingerprint;
  r.hardware_profile_id = cohort.hardware_profile_id;
  r.software_profile_id = cohort.software_profile_id;
  r.timestamp = timestamp;
  r.device = "cpu";
  r.run_source = "scheduled_main";
  r.metrics["latency"] = {latency, "s", Direction::kLowerIsBetter};
  r.baseline_eligible = true;
  return r;
}

/// An attempt holding `records`, with every id assigned.
inline Attempt test_attempt(const std::string& created_at, std::vector<NormalizedRecord> records) {
  Attempt a;
  a.created_at = created_at;
  a.commit_sha = "c0ffee";
  a.run_source = "scheduled_main";
  a.records = std::move(records);
  assign_attempt_id(a);
  return a;
}

}  // namespace perfgate
