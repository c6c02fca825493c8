#pragma once
// The fields of a current (version 3) normalised record, for the two readers that must
// agree on them: the strict one (normalized_record.cpp) and the fast one
// (record_fast_reader.cpp).
#include <array>
#include <string_view>

namespace perfgate {

/// Every field of a version 3 record but result_schema_version and legacy_fields, in
/// to_json's order. The nullable ones must still be present.
inline constexpr std::array<std::string_view, 29> kCurrentRecordFields = {
    "record_id",
    "benchmark_id",
    "config_schema_version",
    "workload_id",
    "variant_id",
    "benchmark_version",
    "timestamp",
    "commit_sha",
    "branch",
    "pr_number",
    "build_url",
    "build_id",
    "job_id",
    "device",
    "metrics",
    "regression_thresholds",
    "recipe_fingerprint",
    "hardware_profile_id",
    "software_profile_id",
    "environment_fingerprint",
    "run_source",
    "quality_metadata",
    "raw_record_sha256",
    "baseline_status",
    "comparison_status",
    "comparison_status_reason",
    "comparisons",
    "baseline_eligible",
    "success"};

}  // namespace perfgate
