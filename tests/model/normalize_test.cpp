#include "model/normalize.hpp"
#include "gate/raw_outcome.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "measure/ci_environment.hpp"
#include "model/error.hpp"
#include "model/raw_record.hpp"
#include "stats/summary.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

constexpr const char* kFix =
    "Raw records are written by `perfgate run`; run it again rather than editing the file";

// A raw record as `perfgate run` writes it: a v2 config with a throughput declaration, a
// component timing "decode", a GPU, and a latency override in regression_thresholds.
constexpr const char* kRawRecord = R"json({
  "benchmark_id": "sieve[n=1000000]",
  "ci": {"branch": "main", "build_id": "4711", "build_url": "https://ci.example/builds/4711",
         "commit": "0123456789abcdef0123456789abcdef01234567", "job_id": "job-9",
         "pr_number": null, "provider": "github-actions", "scheduled": true},
  "config_benchmark_id": "sieve",
  "config_path": "suite/sieve.toml",
  "config_schema_version": 2,
  "device": "NVIDIA L40S",
  "environment_fingerprint": "env-5e5e5e5e5e5e",
  "environment_metadata": {"hostname": "runner-3"},
  "failure_reason": null,
  "hardware_profile": {"cpu_model": "AMD EPYC 7B13"},
  "hardware_profile_id": "hw-111111111111",
  "metrics": {
    "cpu_time": {"direction": "lower", "samples": [0.9, 1.1],
                 "summary": {"count": 2, "iqr": 0.1, "mad": 0.1, "max": 1.1, "mean": 1.0,
                             "median": 1.0, "min": 0.9, "q1": 0.95, "q3": 1.05, "stdev": 0.14}, "unit": "s"},
    "decode": {"direction": "lower", "samples": [0.25, 0.35],
               "summary": {"count": 2, "iqr": 0.05, "mad": 0.05, "max": 0.35, "mean": 0.3,
                           "median": 0.3, "min": 0.25, "q1": 0.275, "q3": 0.325, "stdev": 0.07}, "unit": "s"},
    "gpu_memory": {"direction": "lower", "samples": [8000.0, 8400.0],
                   "summary": {"count": 2, "iqr": 200.0, "mad": 200.0, "max": 8400.0, "mean": 8200.0,
                               "median": 8200.0, "min": 8000.0, "q1": 8100.0, "q3": 8300.0, "stdev": 282.8}, "unit": "MB"},
    "latency": {"direction": "lower", "samples": [1.25, 1.75],
                "summary": {"count": 2, "iqr": 0.25, "mad": 0.25, "max": 1.75, "mean": 1.5,
                            "median": 1.5, "min": 1.25, "q1": 1.375, "q3": 1.625, "stdev": 0.35}, "unit": "s"},
    "memory": {"direction": "lower", "samples": [100.0, 140.0],
               "summary": {"count": 2, "iqr": 20.0, "mad": 20.0, "max": 140.0, "mean": 120.0,
                           "median": 120.0, "min": 100.0, "q1": 110.0, "q3": 130.0, "stdev": 28.3}, "unit": "MB"},
    "throughput": {"direction": "higher", "samples": [8.0, 6.0],
                   "summary": {"count": 2, "iqr": 1.0, "mad": 1.0, "max": 8.0, "mean": 7.0,
                               "median": 7.0, "min": 6.0, "q1": 6.5, "q3": 7.5, "stdev": 1.41}, "unit": "frames/s"}
  },
  "missing_components": [],
  "num_measurement_runs": 2,
  "num_warmup_runs": 1,
  "parameters": {"n": "1000000"},
  "perfgate_version": "0.1.0",
  "quality_metadata": {"quality_status": "canonical"},
  "recipe": {"recipe_schema_version": 1},
  "recipe_fingerprint": "aaaaaaaaaaaa1111111111111111111111111111111111111111111111111111",
  "regression_thresholds": {"latency": {"gated": true, "threshold_absolute": 1.0, "threshold_percent": 0.1}},
  "result_schema_version": 1,
  "run_source": "scheduled_main",
  "runs": [],
  "software_profile": {"os": "Debian 12"},
  "software_profile_id": "sw-222222222222",
  "static_thresholds": {"checks": [
      {"breached": false, "kind": "max", "limit": 2.0, "metric": "latency", "statistic": "mean", "value": 1.5}],
    "selected_block": "L40S", "status": "PASS", "unmeasured": []},
  "success": true,
  "timestamp": "2026-11-30T11:37:04Z",
  "variant_id": "single-thread",
  "benchmark_version": 3,
  "warnings": [],
  "worker_log_path": "results/worker_logs/worker_sieve_n_1000000_20261130T113704Z.log",
  "workload_id": "primes-sieve"
})json";

constexpr const char* kRecipe = "aaaaaaaaaaaa1111111111111111111111111111111111111111111111111111";

Json raw_record() {
  return Json::parse(kRawRecord);
}

// The same record from a CPU-only machine, a config without throughput or components.
Json plain_raw_record() {
  Json raw = raw_record();
  for (const char* metric : {"decode", "gpu_memory", "throughput"}) raw["metrics"].erase(metric);
  raw["regression_thresholds"] = Json::object();
  raw["ci"] = {{"branch", nullptr},   {"build_id", nullptr}, {"build_url", nullptr},
               {"commit", nullptr},   {"job_id", nullptr},   {"pr_number", nullptr},
               {"provider", "local"}, {"scheduled", false}};
  raw["run_source"] = "local";
  return raw;
}

NormalizedRecord normalize(const Json& raw,
                           const std::map<std::string, MetricPolicy>& project = {}) {
  return normalize_raw_record(raw, "perf_x.json", "d1g35t", project);
}

TEST(NormalizeRawRecord, ReadsIdentityProvenanceAndCiFieldsOfARealisticRecord) {
  const NormalizedRecord r = normalize(raw_record());
  EXPECT_EQ(r.result_schema_version, kNormalizedRecordSchemaVersion);
  EXPECT_EQ(r.record_id, "");
  EXPECT_EQ(r.benchmark_id, "sieve[n=1000000]");
  EXPECT_EQ(r.config_schema_version, 2);
  EXPECT_EQ(r.workload_id, "primes-sieve");
  EXPECT_EQ(r.variant_id, "single-thread");
  EXPECT_EQ(r.benchmark_version, 3);
  EXPECT_EQ(r.timestamp, "2026-11-30T11:37:04Z");
  EXPECT_EQ(r.commit_sha, "0123456789abcdef0123456789abcdef01234567");
  EXPECT_EQ(r.branch, "main");
  EXPECT_EQ(r.pr_number, std::nullopt);
  EXPECT_EQ(r.build_url, "https://ci.example/builds/4711");
  EXPECT_EQ(r.build_id, "4711");
  EXPECT_EQ(r.job_id, "job-9");
  EXPECT_EQ(r.device, "NVIDIA L40S");
  EXPECT_EQ(r.recipe_fingerprint, kRecipe);
  EXPECT_EQ(r.hardware_profile_id, "hw-111111111111");
  EXPECT_EQ(r.software_profile_id, "sw-222222222222");
  EXPECT_EQ(r.environment_fingerprint, "env-5e5e5e5e5e5e");
  EXPECT_EQ(r.run_source, "scheduled_main");
  EXPECT_EQ(r.quality_metadata, Json({{"quality_status", "canonical"}}));
  EXPECT_EQ(r.raw_record_sha256, "d1g35t");
  EXPECT_TRUE(r.success);
}

TEST(NormalizeRawRecord, KeepsTheStatesParameterValuesAsText) {
  Json raw = raw_record();
  raw["parameters"] = {{"n", "1000000"}, {"threads", "8"}};
  EXPECT_EQ(normalize(raw).parameters,
            (std::map<std::string, std::string>{{"n", "1000000"}, {"threads", "8"}}));
  raw["parameters"] = Json::object();  // a config without axes
  EXPECT_TRUE(normalize(raw).parameters.empty());
  raw.erase("parameters");  // a raw record written by hand may leave them out
  EXPECT_TRUE(normalize(raw).parameters.empty());
}

TEST(NormalizeRawRecord, LeavesEveryComparisonFieldEmpty) {
  const NormalizedRecord r = normalize(raw_record());
  EXPECT_EQ(r.baseline_status, "");
  EXPECT_EQ(r.comparison_status, "");
  EXPECT_EQ(r.comparison_status_reason, "");
  EXPECT_TRUE(r.comparisons.empty());
  EXPECT_FALSE(r.baseline_eligible);
}

TEST(NormalizeRawRecord, TakesTheMeanOfTimesAndThroughputAndTheLargestSampleOfMemories) {
  const NormalizedRecord r = normalize(raw_record());
  const std::map<std::string, MetricValue> expected = {
      {"cpu_time", {1.0, "s", Direction::kLowerIsBetter, {0.9, 1.1}}},
      {"decode", {0.3, "s", Direction::kLowerIsBetter, {0.25, 0.35}}},
      {"gpu_memory", {8400.0, "MB", Direction::kLowerIsBetter, {8000.0, 8400.0}}},
      {"latency", {1.5, "s", Direction::kLowerIsBetter, {1.25, 1.75}}},
      {"memory", {140.0, "MB", Direction::kLowerIsBetter, {100.0, 140.0}}},
      {"throughput", {7.0, "frames/s", Direction::kHigherIsBetter, {8.0, 6.0}}}};
  // Each metric keeps its runs' samples, which compare --method stat estimates from.
  EXPECT_EQ(r.metrics, expected);
}

TEST(NormalizeRawRecord, GivesEveryMetricItsEffectivePolicy) {
  const NormalizedRecord r = normalize(raw_record());
  const std::map<std::string, MetricPolicy> expected = {
      {"cpu_time", {0.08, 0.5, true}},   {"decode", {0.05, 0.25, true}},
      {"gpu_memory", {0.05, 256, true}}, {"latency", {0.1, 1.0, true}},
      {"memory", {0.05, 256, true}},     {"throughput", {0.08, 0.05, true}}};
  EXPECT_EQ(r.regression_thresholds, expected);
}

TEST(NormalizeRawRecord, NormalizesARecordWithoutComponentsOrThroughput) {
  const NormalizedRecord r = normalize(plain_raw_record());
  const std::map<std::string, MetricValue> metrics = {
      {"cpu_time", {1.0, "s", Direction::kLowerIsBetter, {0.9, 1.1}}},
      {"latency", {1.5, "s", Direction::kLowerIsBetter, {1.25, 1.75}}},
      {"memory", {140.0, "MB", Direction::kLowerIsBetter, {100.0, 140.0}}}};
  EXPECT_EQ(r.metrics, metrics);
  const std::map<std::string, MetricPolicy> policies = {{"cpu_time", {0.08, 0.5, true}},
                                                        {"latency", {0.08, 0.5, true}},
                                                        {"memory", {0.05, 256, true}}};
  EXPECT_EQ(r.regression_thresholds, policies);
  EXPECT_EQ(r.commit_sha, std::nullopt);
  EXPECT_EQ(r.branch, std::nullopt);
  EXPECT_EQ(r.build_url, std::nullopt);
  EXPECT_EQ(r.build_id, std::nullopt);
  EXPECT_EQ(r.job_id, std::nullopt);
  EXPECT_EQ(r.run_source, "local");
}

TEST(NormalizeRawRecord, AcceptsWhatPerfgateRunWrites) {
  RawRecord written;
  written.identity = {"sort[n=10]", "sort", 2, "sort", "std", 4, {{"n", "10"}}};
  written.provenance.timestamp = "2026-11-30T11:37:04Z";
  written.provenance.device = "AMD EPYC 7B13";
  written.provenance.hardware_profile_id = "hw-aaaaaaaaaaaa";
  written.provenance.software_profile_id = "sw-bbbbbbbbbbbb";
  written.provenance.environment_fingerprint = "env-cccccccccccc";
  CiMetadata ci;
  ci.provider = "gitlab-ci";
  ci.commit = "feedface";
  written.provenance.ci = ci.to_json();
  written.provenance.run_source = "pr";
  written.recipe_fingerprint = kRecipe;
  MetricSeries latency{*standard_metric("latency"), {0.5, 1.5, 1.0}, {}};
  latency.summary = summarize(latency.samples);
  written.metrics["latency"] = latency;

  const NormalizedRecord r = normalize(to_json(written));
  EXPECT_EQ(r.benchmark_id, "sort[n=10]");
  EXPECT_EQ(r.benchmark_version, 4);
  EXPECT_EQ(r.metrics.at("latency"),
            (MetricValue{1.0, "s", Direction::kLowerIsBetter, {0.5, 1.5, 1.0}}));
  EXPECT_EQ(r.commit_sha, "feedface");
  EXPECT_EQ(r.branch, std::nullopt);
  EXPECT_EQ(r.run_source, "pr");
  EXPECT_EQ(r.recipe_fingerprint, kRecipe);
}

TEST(NormalizeRawRecord, ReadsALegacyV1RecordWithNullIdentity) {
  Json raw = plain_raw_record();
  raw["config_schema_version"] = 1;
  raw["workload_id"] = nullptr;
  raw["variant_id"] = nullptr;
  raw["benchmark_version"] = nullptr;
  const NormalizedRecord r = normalize(raw);
  EXPECT_EQ(r.config_schema_version, 1);
  EXPECT_EQ(r.workload_id, std::nullopt);
  EXPECT_EQ(r.variant_id, std::nullopt);
  EXPECT_EQ(r.benchmark_version, std::nullopt);
}

TEST(NormalizeRawRecord, LeavesOutUnmeasuredMetricsButKeepsTheirPolicies) {
  Json raw = plain_raw_record();
  raw["success"] = false;
  raw["failure_reason"] = "measured run 0: exit status 3";
  raw["metrics"]["latency"]["samples"] = Json::array();
  raw["metrics"]["latency"]["summary"]["count"] = 0;
  raw["missing_components"] = {"vae"};
  const NormalizedRecord r = normalize(raw);
  EXPECT_FALSE(r.success);
  EXPECT_EQ(r.metrics.count("latency"), 0u);
  EXPECT_EQ(r.metrics.count("vae"), 0u);
  EXPECT_EQ(r.regression_thresholds.at("latency"), (MetricPolicy{0.08, 0.5, true}));
  EXPECT_EQ(r.regression_thresholds.at("vae"), (MetricPolicy{0.05, 0.25, true}));
}

TEST(NormalizeRawRecord, LetsTheConfigOverrideTheProjectWhichOverridesTheDefault) {
  Json raw = plain_raw_record();
  raw["regression_thresholds"] = {
      {"latency", {{"threshold_percent", 0.2}, {"threshold_absolute", 2.0}, {"gated", false}}}};
  const std::map<std::string, MetricPolicy> project = {{"latency", {0.15, 1.5, true}},
                                                       {"memory", {0.1, 512, true}}};
  const NormalizedRecord r = normalize(raw, project);
  EXPECT_EQ(r.regression_thresholds.at("latency"), (MetricPolicy{0.2, 2.0, false}));
  EXPECT_EQ(r.regression_thresholds.at("memory"), (MetricPolicy{0.1, 512, true}));
  EXPECT_EQ(r.regression_thresholds.at("cpu_time"), (MetricPolicy{0.08, 0.5, true}));
}

TEST(NormalizeRawRecord, RejectsMalformedRecordsNamingTheFileAndTheJsonPath) {
  struct Case {
    std::function<void(Json&)> mutate;
    std::string message;
  };
  const std::string m = "perf_x.json: ";
  const std::vector<Case> cases = {
      {[](Json& r) { r = Json::array(); }, m + "(root): must be an object. " + kFix},
      {[](Json& r) { r["result_schema_version"] = 2; },
       m + "result_schema_version: is 2, but this perfgate reads raw records of version 1. "
           "Use the perfgate version that wrote the record, or a newer one"},
      {[](Json& r) { r["result_schema_version"] = "1"; },
       m + "result_schema_version: must be an integer. " + kFix},
      {[](Json& r) { r.erase("benchmark_id"); }, m + "benchmark_id: is missing. " + kFix},
      {[](Json& r) { r["config_schema_version"] = 3; },
       m + "config_schema_version: must be 1 or 2. " + kFix},
      {[](Json& r) { r.erase("workload_id"); }, m + "workload_id: is missing. " + kFix},
      {[](Json& r) { r["benchmark_version"] = "3"; },
       m + "benchmark_version: must be an integer or null. " + kFix},
      {[](Json& r) { r["success"] = "yes"; }, m + "success: must be true or false. " + kFix},
      {[](Json& r) { r["metrics"] = Json::array(); }, m + "metrics: must be an object. " + kFix},
      {[](Json& r) { r["metrics"]["latency"]["samples"][1] = nullptr; },
       m + "metrics.latency.samples[1]: must be a finite number. " + kFix},
      {[](Json& r) { r["metrics"]["latency"]["direction"] = "up"; },
       m + "metrics.latency.direction: must be \"lower\" or \"higher\". " + kFix},
      {[](Json& r) { r["metrics"]["memory"].erase("unit"); },
       m + "metrics.memory.unit: is missing. " + kFix},
      {[](Json& r) { r["metrics"]["memory"]["summary"]["count"] = 3; },
       m + "metrics.memory.summary.count: is 3, but the metric has 2 samples. " + kFix},
      {[](Json& r) { r["metrics"]["memory"]["summary"]["max"] = nullptr; },
       m + "metrics.memory.summary.max: must be a finite number. " + kFix},
      {[](Json& r) { r["regression_thresholds"]["latency"]["threshold_percent"] = -0.1; },
       m + "regression_thresholds.latency.threshold_percent: must not be negative. " + kFix},
      {[](Json& r) { r["regression_thresholds"]["latency"]["percent"] = 0.1; },
       m + "regression_thresholds.latency.percent: unknown key 'percent'. " + kFix},
      {[](Json& r) { r["static_thresholds"]["status"] = "FAIL"; },
       m + "static_thresholds.status: must be \"PASS\" or \"REGRESSION\". " + kFix},
      {[](Json& r) { r["quality_metadata"] = nullptr; },
       m + "quality_metadata: must be an object. " + kFix},
      {[](Json& r) { r["run_source"] = "nightly"; },
       m + "run_source: must be one of pr, local, scheduled_main, unknown. " + kFix},
      {[](Json& r) { r["ci"]["commit"] = 42; }, m + "ci.commit: must be a string or null. " + kFix},
      {[](Json& r) { r["missing_components"] = {7}; },
       m + "missing_components[0]: must be a string. " + kFix},
      {[](Json& r) { r["parameters"] = Json::array(); },
       m + "parameters: must be an object. " + kFix},
      {[](Json& r) { r["parameters"]["n"] = 1000000; },
       m + "parameters.n: must be a string. " + kFix},
  };
  for (const Case& c : cases) {
    Json raw = raw_record();
    c.mutate(raw);
    try {
      normalize(raw);
      ADD_FAILURE() << "accepted; expected: " << c.message;
    } catch (const Error& error) {
      EXPECT_EQ(error.code(), ExitCode::kDataError);
      EXPECT_EQ(std::string(error.what()), c.message);
    }
  }
}

TEST(DefaultPolicy, FollowsTheBuiltInTableOfTheSpec) {
  EXPECT_EQ(default_policy("latency"), (MetricPolicy{0.08, 0.5, true}));
  EXPECT_EQ(default_policy("throughput"), (MetricPolicy{0.08, 0.05, true}));
  EXPECT_EQ(default_policy("memory"), (MetricPolicy{0.05, 256, true}));
  EXPECT_EQ(default_policy("gpu_memory"), (MetricPolicy{0.05, 256, true}));
  EXPECT_EQ(default_policy("cpu_time"), (MetricPolicy{0.08, 0.5, true}));
  EXPECT_EQ(default_policy("dit_time_s"), (MetricPolicy{0.05, 0.25, true}));
  // Counts: a probe region's instructions are judged as the program's are.
  EXPECT_EQ(default_policy("instructions"), (MetricPolicy{0.01, 0, true}));
  EXPECT_EQ(default_policy("decode.instructions"), (MetricPolicy{0.01, 0, true}));
  EXPECT_EQ(default_policy(".instructions"), (MetricPolicy{0.05, 0.25, true}));
  EXPECT_EQ(default_policy("decode_instructions"), (MetricPolicy{0.05, 0.25, true}));
}

TEST(CountMetric, NamesTheCountsAndEachRegionsInstructions) {
  EXPECT_EQ(count_metric("instructions")->unit, "instructions");
  EXPECT_EQ(count_metric("frame/decode.instructions")->unit, "instructions");
  EXPECT_EQ(count_metric("frame/decode.instructions")->name, "frame/decode.instructions");
  EXPECT_EQ(count_metric("l1_misses")->unit, "misses");
  EXPECT_EQ(count_metric("estimated_cycles")->unit, "cycles");
  EXPECT_FALSE(count_metric(".instructions"));
  EXPECT_FALSE(count_metric("decode"));
  EXPECT_FALSE(count_metric("latency"));
}

TEST(EffectivePolicies, AddsMetricsTheConfigNamesButNotThoseOnlyTheProjectNames) {
  const std::map<std::string, MetricValue> metrics = {
      {"latency", {1.0, "s", Direction::kLowerIsBetter}}};
  const std::map<std::string, MetricPolicy> policies = effective_policies(
      metrics, {{"gpu_memory", {0.1, 100, true}}}, {{"decode", {0.2, 0.1, false}}});
  const std::map<std::string, MetricPolicy> expected = {{"decode", {0.2, 0.1, false}},
                                                        {"latency", {0.08, 0.5, true}}};
  EXPECT_EQ(policies, expected);
}

TEST(RawRecordOutcome, DescribesEveryBreachedCheckWithItsUnit) {
  Json raw = raw_record();
  raw["static_thresholds"]["status"] = "REGRESSION";
  raw["static_thresholds"]["checks"] = {{{"breached", true},
                                         {"kind", "max"},
                                         {"limit", 1.25},
                                         {"metric", "latency"},
                                         {"statistic", "mean"},
                                         {"value", 1.5}},
                                        {{"breached", false},
                                         {"kind", "max"},
                                         {"limit", 500.0},
                                         {"metric", "memory"},
                                         {"statistic", "max"},
                                         {"value", 140.0}},
                                        {{"breached", true},
                                         {"kind", "min"},
                                         {"limit", 10.0},
                                         {"metric", "throughput"},
                                         {"statistic", "mean"},
                                         {"value", 7.0}}};
  EXPECT_TRUE(raw_record_breached_static_threshold(raw));
  const ClassificationInputs outcome = raw_record_outcome(raw);
  EXPECT_TRUE(outcome.run_succeeded);
  EXPECT_TRUE(outcome.static_breach);
  EXPECT_EQ(outcome.static_breach_detail,
            "latency mean 1.5 s > 1.25 s; throughput mean 7 frames/s < 10 frames/s");
}

TEST(RawRecordOutcome, DescribesABreachInTheUnitsOfTheTable) {
  Json raw = raw_record();
  raw["metrics"]["latency"]["unit"] = "s";
  raw["static_thresholds"]["status"] = "REGRESSION";
  raw["static_thresholds"]["checks"] = {{{"breached", true},
                                         {"kind", "max"},
                                         {"limit", 500e-9},
                                         {"metric", "latency"},
                                         {"statistic", "mean"},
                                         {"value", 567e-9}}};
  EXPECT_EQ(raw_record_outcome(raw).static_breach_detail, "latency mean 567 ns > 500 ns");
}

TEST(RawRecordOutcome, CarriesTheFailureReasonOfAFailedRun) {
  Json raw = raw_record();
  raw["success"] = false;
  raw["failure_reason"] = "setup hook failed: timed out after 30 s";
  const ClassificationInputs outcome = raw_record_outcome(raw);
  EXPECT_FALSE(outcome.run_succeeded);
  EXPECT_EQ(outcome.run_failure, "setup hook failed: timed out after 30 s");
  EXPECT_FALSE(outcome.static_breach);
  EXPECT_EQ(outcome.static_breach_detail, "");
}

TEST(RawRecordOutcome, NeverThrowsOnMalformedInput) {
  EXPECT_FALSE(raw_record_breached_static_threshold(Json::array()));
  Json raw = raw_record();
  raw["static_thresholds"] = {{"status", "REGRESSION"},
                              {"checks", {{{"breached", true}, {"value", "high"}}, 3}}};
  const ClassificationInputs outcome = raw_record_outcome(raw);
  EXPECT_TRUE(outcome.static_breach);
  EXPECT_EQ(outcome.static_breach_detail, "static_thresholds.status is REGRESSION");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
