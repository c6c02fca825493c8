#include <gtest/gtest.h>

#include "model/error.hpp"
#include "model/normalized_record.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

// A legacy v1 record as old uploads wrote it: no schema version, no identity.
Json legacy_v1() {
  return Json::parse(R"({
    "model_id": "flux-dev-1gpu",
    "gpu_type": "NVIDIA H100",
    "timestamp": "2025-03-01T10:00:00+00:00",
    "commit_sha": "1111111",
    "latency": 12.5,
    "throughput": 0.08,
    "memory": 30210.0,
    "vae_time_s": null,
    "denoise_time_s": 9.75,
    "num_frames": 16
  })");
}

// A legacy v2 record: identity, profiles and comparison outcome, metrics still flat.
Json legacy_v2() {
  return Json::parse(R"({
    "model_id": "ltx-2b-2gpu",
    "result_schema_version": 2,
    "workload_id": "ltx",
    "variant_id": "2b-sp2",
    "benchmark_version": 4,
    "timestamp": "2026-02-03T04:05:06+00:00",
    "commit_sha": "2222222",
    "gpu_type": "NVIDIA L40S",
    "latency": 20.0,
    "throughput": 2.5,
    "memory": null,
    "encoder_time_s": 1.25,
    "regression_thresholds": {
      "latency": {"threshold_percent": 0.1, "threshold_absolute": 1.0, "gated": false},
      "throughput": {"threshold_percent": 0.05, "threshold_absolute": 0.1}
    },
    "recipe_fingerprint": "f00d",
    "hardware_profile_id": "hw-aa",
    "software_profile_id": "sw-bb",
    "environment_fingerprint": "env-cc",
    "run_source": "pr",
    "branch": "topic",
    "pr_number": 77,
    "test_scope": "direct",
    "build_url": "https://ci.example/b/9",
    "build_id": "b-9",
    "job_id": "j-3",
    "quality_metadata": {"quality_status": "canonical"},
    "baseline_status": "compared",
    "comparison_status": "PASS",
    "comparison_status_reason": "no gated regressions",
    "baseline_eligible": false,
    "success": true
  })");
}

TEST(LegacyRecord, ReadsAVersion1RecordAsAnEligibleMainUpload) {
  const NormalizedRecord r = normalized_record_from_json(legacy_v1(), "old.json");
  EXPECT_EQ(r.result_schema_version, 3);
  EXPECT_EQ(r.config_schema_version, 1);
  EXPECT_EQ(r.benchmark_id, "flux-dev-1gpu");
  EXPECT_EQ(r.device, "NVIDIA H100");
  EXPECT_EQ(r.timestamp, "2025-03-01T10:00:00+00:00");
  EXPECT_EQ(r.commit_sha, "1111111");
  EXPECT_EQ(r.run_source, "scheduled_main");
  EXPECT_TRUE(r.baseline_eligible);
  EXPECT_TRUE(r.success);
  EXPECT_FALSE(r.cohort().has_value());
  const std::map<std::string, MetricValue> metrics = {
      {"latency", {12.5, "s", Direction::kLowerIsBetter}},
      {"throughput", {0.08, "units/s", Direction::kHigherIsBetter}},
      {"memory", {30210.0, "MB", Direction::kLowerIsBetter}},
      {"denoise_time_s", {9.75, "s", Direction::kLowerIsBetter}},
  };
  EXPECT_EQ(r.metrics, metrics);
  EXPECT_EQ(r.legacy_fields, Json({{"num_frames", 16}}));
  EXPECT_EQ(r.baseline_status, "");
  EXPECT_TRUE(r.comparisons.empty());
}

TEST(LegacyRecord, ReadsAVersion2RecordWithItsIdentityAndOutcome) {
  const NormalizedRecord r = normalized_record_from_json(legacy_v2(), "v2.json");
  EXPECT_EQ(r.config_schema_version, 2);
  EXPECT_EQ(r.benchmark_id, "ltx-2b-2gpu");
  EXPECT_EQ(r.device, "NVIDIA L40S");
  ASSERT_TRUE(r.cohort().has_value());
  EXPECT_EQ(*r.cohort(), (CohortKey{"ltx", "2b-sp2", 4, "f00d", "hw-aa", "sw-bb"}));
  EXPECT_EQ(r.environment_fingerprint, "env-cc");
  EXPECT_EQ(r.run_source, "pr");
  EXPECT_FALSE(r.baseline_eligible);
  EXPECT_TRUE(r.success);
  EXPECT_EQ(r.branch, "topic");
  EXPECT_EQ(r.pr_number, "77");
  EXPECT_EQ(r.build_url, "https://ci.example/b/9");
  EXPECT_EQ(r.build_id, "b-9");
  EXPECT_EQ(r.job_id, "j-3");
  EXPECT_EQ(r.quality_metadata, Json({{"quality_status", "canonical"}}));
  EXPECT_EQ(r.baseline_status, "compared");
  EXPECT_EQ(r.comparison_status, "PASS");
  EXPECT_EQ(r.comparison_status_reason, "no gated regressions");
  const std::map<std::string, MetricValue> metrics = {
      {"latency", {20.0, "s", Direction::kLowerIsBetter}},
      {"throughput", {2.5, "units/s", Direction::kHigherIsBetter}},
      {"encoder_time_s", {1.25, "s", Direction::kLowerIsBetter}},
  };
  EXPECT_EQ(r.metrics, metrics);
  const std::map<std::string, MetricPolicy> policies = {
      {"latency", {0.1, 1.0, false}},
      {"throughput", {0.05, 0.1, true}},
  };
  EXPECT_EQ(r.regression_thresholds, policies);
  EXPECT_EQ(r.legacy_fields, Json({{"test_scope", "direct"}}));
}

TEST(LegacyRecord, KeepsAnExplicitIneligibleFlagWithoutARunSource) {
  Json json = legacy_v1();
  json["baseline_eligible"] = false;
  const NormalizedRecord r = normalized_record_from_json(json, "old.json");
  EXPECT_FALSE(r.baseline_eligible);
  EXPECT_EQ(r.run_source, "unknown");
}

TEST(LegacyRecord, IsNotEligibleWhenOnlyTheRunSourceIsKnown) {
  Json json = legacy_v1();
  json["run_source"] = "scheduled_main";
  const NormalizedRecord r = normalized_record_from_json(json, "old.json");
  EXPECT_FALSE(r.baseline_eligible);
  EXPECT_EQ(r.run_source, "scheduled_main");
}

TEST(LegacyRecord, IsVersion1ConfigWhenAVersion2RecordLacksIdentity) {
  Json json = legacy_v2();
  json.erase("workload_id");
  json.erase("variant_id");
  json.erase("benchmark_version");
  EXPECT_EQ(normalized_record_from_json(json, "v2.json").config_schema_version, 1);
}

TEST(LegacyRecord, BecomesAVersion3RecordThatReadsBackEqual) {
  NormalizedRecord r = normalized_record_from_json(legacy_v2(), "v2.json");
  assign_record_id(r);
  EXPECT_EQ(to_json(r)["result_schema_version"], 3);
  EXPECT_EQ(normalized_record_from_json(to_json(r), "v3.json"), r);
}

TEST(LegacyRecord, RejectsAFlatMetricThatIsNotANumber) {
  Json json = legacy_v1();
  json["latency"] = "12.5";
  try {
    normalized_record_from_json(json, "old.json");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kDataError);
    EXPECT_EQ(std::string(e.what()),
              "old.json: latency: expected a number, found a string. Write it as a number");
  }
}

TEST(LegacyRecord, RequiresAModelId) {
  Json json = legacy_v1();
  json.erase("model_id");
  try {
    normalized_record_from_json(json, "old.json");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "old.json: model_id: missing. Add model_id, the name of the benchmark the record "
              "measured");
  }
}

TEST(LegacyRecord, PointsARawRecordToCompare) {
  const Json raw = {{"result_schema_version", 1},
                    {"perfgate_version", "0.1.0"},
                    {"runs", Json::array()},
                    {"benchmark_id", "x"}};
  try {
    normalized_record_from_json(raw, "perf_x.json");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "perf_x.json: (top level): this is a raw record written by perfgate run, not a "
              "normalised record. Pass it to perfgate compare, which normalises it");
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
