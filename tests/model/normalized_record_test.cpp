#include "model/normalized_record.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/error.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;

NormalizedRecord small_record() {
  NormalizedRecord r;
  r.benchmark_id = "sieve";
  r.config_schema_version = 2;
  r.workload_id = "primes";
  r.variant_id = "st";
  r.benchmark_version = 1;
  r.timestamp = "2026-01-02T03:04:05Z";
  r.commit_sha = "abc";
  r.device = "cpu";
  r.metrics["latency"] = {1.5, "s", Direction::kLowerIsBetter};
  r.regression_thresholds["latency"] = {0.08, 0.5, true};
  r.recipe_fingerprint = "r1";
  r.hardware_profile_id = "hw-1";
  r.software_profile_id = "sw-1";
  r.environment_fingerprint = "env-1";
  r.run_source = "pr";
  r.baseline_status = kBaselineCompared;
  r.comparison_status = kPass;
  r.comparison_status_reason = "ok";
  MetricComparison c;
  c.metric = "latency";
  c.current = 1.5;
  c.baseline_count = 0;
  c.policy = {0.08, 0.5, true};
  r.comparisons.push_back(c);
  return r;
}

std::string error_of(const Json& json) {
  try {
    normalized_record_from_json(json, "rec.json");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kDataError);
    return e.what();
  }
  return "no error";
}

TEST(NormalizedRecord, WritesEveryFieldWithNullForAbsentOptionalOnes) {
  const std::string expected =
      R"({"baseline_eligible":false,"baseline_status":"compared","benchmark_id":"sieve",)"
      R"("benchmark_version":1,"branch":null,"build_id":null,"build_url":null,"commit_sha":"abc",)"
      R"("comparison_status":"PASS","comparison_status_reason":"ok","comparisons":[)"
      R"({"absolute_delta":0.0,"baseline":null,"baseline_count":0,"current":1.5,"metric":"latency",)"
      R"("percent_delta":0.0,"policy":{"gated":true,"threshold_absolute":0.5,)"
      R"("threshold_percent":0.08},"regressed":false,"threshold_exceeded":false}],)"
      R"("config_schema_version":2,"device":"cpu","environment_fingerprint":"env-1",)"
      R"("hardware_profile_id":"hw-1","job_id":null,)"
      R"("metrics":{"latency":{"direction":"lower","unit":"s","value":1.5}},)"
      R"("pr_number":null,"quality_metadata":{},"raw_record_sha256":"",)"
      R"("recipe_fingerprint":"r1","record_id":"",)"
      R"("regression_thresholds":{"latency":{"gated":true,"threshold_absolute":0.5,)"
      R"("threshold_percent":0.08}},"result_schema_version":3,"run_source":"pr",)"
      R"("software_profile_id":"sw-1","success":true,"timestamp":"2026-01-02T03:04:05Z",)"
      R"("variant_id":"st","workload_id":"primes"})";
  EXPECT_EQ(to_json(small_record()).dump(), expected);
}

TEST(NormalizedRecord, ReadsBackWhatItWrites) {
  NormalizedRecord r = small_record();
  r.comparisons[0].baseline = 1.25;
  r.quality_metadata = {{"quality_status", "canonical"}};
  r.metrics["throughput"] = {3, "frames/s", Direction::kHigherIsBetter};
  assign_record_id(r);
  const Json text = Json::parse(to_json(r).dump(2));
  EXPECT_EQ(normalized_record_from_json(text, "rec.json"), r);
}

TEST(NormalizedRecord, KeepsLegacyFieldsThroughARoundTrip) {
  NormalizedRecord r = small_record();
  r.legacy_fields = {{"test_scope", "direct"}};
  EXPECT_EQ(to_json(r)["legacy_fields"], r.legacy_fields);
  EXPECT_EQ(normalized_record_from_json(to_json(r), "rec.json"), r);
  EXPECT_FALSE(to_json(small_record()).contains("legacy_fields"));
}

TEST(NormalizedRecord, WritesParametersOnlyForAStateWithAxes) {
  NormalizedRecord r = small_record();
  r.parameters = {{"n", "200000"}, {"threads", "8"}};
  EXPECT_EQ(to_json(r)["parameters"], Json::parse(R"({"n":"200000","threads":"8"})"));
  EXPECT_EQ(normalized_record_from_json(to_json(r), "rec.json"), r);
  // A record without them keeps the layout, and so the id, it had before they were kept.
  EXPECT_FALSE(to_json(small_record()).contains("parameters"));
  NormalizedRecord with = r;
  assign_record_id(with);
  NormalizedRecord without = small_record();
  assign_record_id(without);
  EXPECT_NE(with.record_id, without.record_id);
}

TEST(NormalizedRecord, RefusesAParameterValueThatIsNotText) {
  Json json = to_json(small_record());
  json["parameters"] = {{"n", 200000}};
  EXPECT_EQ(error_of(json),
            "rec.json: parameters.n: is not a string. Parameter values are written as text, as "
            "perfgate wrote them");
  json["parameters"] = Json::array();
  EXPECT_EQ(error_of(json),
            "rec.json: parameters: expected an object, found an array. Write it as an object");
}

TEST(NormalizedRecord, RecordIdChangesWithContentButNotWithKeyOrder) {
  NormalizedRecord a = small_record();
  assign_record_id(a);
  EXPECT_EQ(a.record_id.size(), 64u);

  // The same content parsed from text with the keys in another order.
  Json reordered = Json::parse(to_json(a).dump());
  NormalizedRecord b = normalized_record_from_json(reordered, "rec.json");
  b.record_id.clear();
  assign_record_id(b);
  EXPECT_EQ(b.record_id, a.record_id);

  NormalizedRecord c = small_record();
  c.metrics["latency"].value = 1.6;
  assign_record_id(c);
  EXPECT_NE(c.record_id, a.record_id);
}

TEST(NormalizedRecord, RecordIdDoesNotDependOnAStaleRecordId) {
  NormalizedRecord a = small_record();
  a.record_id = "stale";
  assign_record_id(a);
  NormalizedRecord b = small_record();
  assign_record_id(b);
  EXPECT_EQ(a.record_id, b.record_id);
}

TEST(NormalizedRecord, HasACohortOnlyWithAllSixIdentityFields) {
  const NormalizedRecord r = small_record();
  ASSERT_TRUE(r.cohort().has_value());
  EXPECT_EQ(r.cohort()->to_string(), "primes/st/v1/r1/hw-1/sw-1");

  NormalizedRecord no_version = r;
  no_version.benchmark_version.reset();
  EXPECT_FALSE(no_version.cohort().has_value());
  NormalizedRecord empty_variant = r;
  empty_variant.variant_id = "";
  EXPECT_FALSE(empty_variant.cohort().has_value());
  NormalizedRecord no_software = r;
  no_software.software_profile_id.clear();
  EXPECT_FALSE(no_software.cohort().has_value());
}

TEST(CohortKey, ShortensTheRecipeFingerprintToTwelveDigits) {
  const CohortKey key{"w", "v", 3, "0123456789abcdef", "hw-a", "sw-b"};
  EXPECT_EQ(key.to_string(), "w/v/v3/0123456789ab/hw-a/sw-b");
}

TEST(NormalizedRecord, RejectsAnUnknownFieldInVersion3) {
  Json json = to_json(small_record());
  json["extra"] = 1;
  EXPECT_EQ(error_of(json),
            "rec.json: extra: unknown field. Remove it; this layout has a fixed set of fields "
            "(see docs/store.md)");
}

TEST(NormalizedRecord, RejectsAWronglyTypedNestedField) {
  Json json = to_json(small_record());
  json["metrics"]["latency"]["value"] = "fast";
  EXPECT_EQ(error_of(json),
            "rec.json: metrics.latency.value: expected a number, found a string. Write it as a "
            "number");
}

TEST(NormalizedRecord, RejectsAnUnknownDirection) {
  Json json = to_json(small_record());
  json["metrics"]["latency"]["direction"] = "down";
  EXPECT_EQ(error_of(json),
            "rec.json: metrics.latency.direction: 'down' is not a direction. Use \"lower\" or "
            "\"higher\"");
}

TEST(NormalizedRecord, NamesTheComparisonByIndex) {
  Json json = to_json(small_record());
  json["comparisons"][0]["policy"]["gated"] = 1;
  EXPECT_EQ(error_of(json),
            "rec.json: comparisons[0].policy.gated: expected true or false, found an integer. "
            "Write it as true or false");
}

TEST(NormalizedRecord, RequiresNullableFieldsToBePresentInVersion3) {
  Json json = to_json(small_record());
  json.erase("job_id");
  EXPECT_EQ(error_of(json),
            "rec.json: job_id: missing. Add the field; every file perfgate writes in this layout "
            "carries it");
}

TEST(NormalizedRecord, RefusesAVersionFromANewerPerfgate) {
  Json json = to_json(small_record());
  json["result_schema_version"] = 4;
  EXPECT_EQ(error_of(json),
            "rec.json: result_schema_version: version 4 was written by a newer perfgate. Upgrade "
            "perfgate; this one reads versions 1 to 3");
}

TEST(NormalizedRecord, RejectsSomethingThatIsNotAnObject) {
  EXPECT_EQ(error_of(Json::array()),
            "rec.json: (top level): expected an object, found an array. Write it as a JSON "
            "object {…}");
}

TEST(NormalizedRecord, NamesTheEnclosingPathOfANestedRecord) {
  Json json = to_json(small_record());
  json["device"] = nullptr;
  try {
    normalized_record_from_json(json, "attempt.json", "records[4]");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "attempt.json: records[4].device: expected a string, found null. Write it as a "
              "string");
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
