#pragma once
// Stored records for the baseline seeding tests: one v2 cohort per benchmark.
#include <string>

#include "store/store.hpp"

namespace perfgate {

/// A successful, not yet eligible record of cohort `benchmark`/v/v1 from `source`, with
/// latency `latency` and the given status and commit.
inline StoredRecord seed_record(const std::string& benchmark, const std::string& source,
                                const std::string& status = kCalibrationNeeded,
                                const std::string& commit = "c0ffee", double latency = 1.0,
                                const std::string& timestamp = "2026-11-30T10:00:00Z") {
  NormalizedRecord r;
  r.benchmark_id = benchmark;
  r.config_schema_version = 2;
  r.workload_id = benchmark;
  r.variant_id = "v";
  r.benchmark_version = 1;
  r.recipe_fingerprint = std::string(64, 'a');
  r.hardware_profile_id = "hw-1";
  r.software_profile_id = "sw-1";
  r.timestamp = timestamp;
  r.commit_sha = commit;
  r.run_source = source;
  r.comparison_status = status;
  r.baseline_status =
      status == kCalibrationNeeded ? kBaselineInitializedNewCohort : kBaselineCompared;
  r.comparison_status_reason =
      status == kCalibrationNeeded ? "No baseline found for exact comparable identity" : "compared";
  r.metrics["latency"] = {latency, "s", Direction::kLowerIsBetter};
  assign_record_id(r);
  return {r, "attempt", false};
}

}  // namespace perfgate
