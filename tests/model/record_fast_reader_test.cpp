#include "model/record_fast_reader.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "model/error.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

const std::string kId = "5f0e9a1c2b3d4e5f60718293a4b5c6d7e8f90123456789abcdef0123456789ab";

NormalizedRecord full_record() {
  NormalizedRecord r;
  r.record_id = kId;
  r.benchmark_id = "sort[n=1000] <img src=x>";
  r.config_schema_version = 2;
  r.workload_id = "sort";
  r.variant_id = "n=1000";
  r.benchmark_version = 3;
  r.timestamp = "2026-12-02T06:00:00.5+01:00";
  r.commit_sha = "89abcdef0123456789abcdef0123456789abcdef";
  r.branch = "main";
  r.pr_number = "42";
  r.build_url = "https://ci.example/1";
  r.build_id = "1";
  r.job_id = "bench";
  r.device = "cpu";
  r.metrics["latency"] = {0.0123, "s", Direction::kLowerIsBetter};
  r.metrics["throughput"] = {1.5e9, "items/s", Direction::kHigherIsBetter};
  r.metrics["memory"] = {1048576, "B", Direction::kLowerIsBetter};
  r.regression_thresholds["latency"] = {0.08, 0.0005, true};
  r.regression_thresholds["memory"] = {0.1, 0, false};
  r.recipe_fingerprint = "r1";
  r.hardware_profile_id = "hw-1";
  r.software_profile_id = "sw-1";
  r.environment_fingerprint = "env-1";
  r.run_source = "pr";
  r.quality_metadata = {{"runs", 5}, {"warnings", {"noisy", "é"}}, {"cv", 0.03}};
  r.raw_record_sha256 = "feed";
  r.baseline_status = kBaselineCompared;
  r.comparison_status = kRegression;
  r.comparison_status_reason = "latency is 12.0% worse";
  MetricComparison c;
  c.metric = "latency";
  c.current = 0.0123;
  c.baseline = 0.011;
  c.baseline_count = 9;
  c.absolute_delta = 0.0013;
  c.percent_delta = 0.118;
  c.policy = {0.08, 0.0005, true};
  c.threshold_exceeded = true;
  c.regressed = true;
  r.comparisons.push_back(c);
  c.metric = "memory";  // a worse value over a baseline of 0: written as a null percentage
  c.current = 10;
  c.baseline = 0;
  c.absolute_delta = 10;
  c.percent_delta = std::numeric_limits<double>::infinity();
  c.regressed = false;
  r.comparisons.push_back(c);
  c.metric = "throughput";  // skipped: the record lacks it
  c.current = std::nullopt;
  c.baseline = std::nullopt;
  c.absolute_delta = 0;
  c.percent_delta = 0;
  c.threshold_exceeded = false;
  r.comparisons.push_back(c);
  r.baseline_eligible = true;
  r.success = true;
  return r;
}

/// A record's content as a store keeps it: its JSON without record_id.
Json content_of(const NormalizedRecord& record) {
  Json json = to_json(record);
  json.erase("record_id");
  return json;
}

/// Both readers on the same stored content: the fast one must read it, and read what the
/// strict one reads (given the id beside the content, as the store does).
NormalizedRecord read_by_both(const Json& content) {
  const std::optional<NormalizedRecord> fast = read_current_record_fast(content.dump(), kId);
  Json with_id = content;
  with_id["record_id"] = kId;
  const NormalizedRecord strict = normalized_record_from_json(with_id, "store");
  EXPECT_TRUE(fast.has_value()) << content.dump();
  if (fast) {
    EXPECT_TRUE(*fast == strict) << content.dump();
  }
  return strict;
}

/// A content the fast reader leaves to the strict one, which must refuse it too.
void refused(const std::string& text) {
  EXPECT_FALSE(read_current_record_fast(text, kId).has_value()) << text;
  const Json json = Json::parse(text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return;  // the store's own error
  Json with_id = json;
  with_id["record_id"] = kId;
  EXPECT_THROW(normalized_record_from_json(with_id, "store"), Error) << text;
}

TEST(RecordFastReader, ReadsEveryFieldExactlyAsTheStrictReaderDoes) {
  const NormalizedRecord read = read_by_both(content_of(full_record()));
  EXPECT_TRUE(read == full_record());
  EXPECT_EQ(read.record_id, kId);
  EXPECT_EQ(read.metrics.at("throughput").direction, Direction::kHigherIsBetter);
  EXPECT_TRUE(std::isinf(read.comparisons[1].percent_delta));
  EXPECT_FALSE(read.comparisons[2].current.has_value());
  EXPECT_EQ(read.quality_metadata["warnings"][1], "é");
}

TEST(RecordFastReader, ReadsSamplesAndAStatComparisonAsTheStrictReaderDoes) {
  NormalizedRecord r = full_record();
  r.metrics["latency"].samples = {0.012, 0.0124, 0.0125};
  r.comparison_status = kInconclusive;
  r.comparisons[0].method = CompareMethod::kStat;
  r.comparisons[0].interval = ChangeInterval{0.05, 0.19, 0.95};
  r.comparisons[0].inconclusive = true;
  r.comparisons[0].regressed = false;
  r.comparisons[1].method = CompareMethod::kStat;
  // Past a baseline of 0 the interval is unbounded: null ends, read back as infinities.
  r.comparisons[1].interval = ChangeInterval{-std::numeric_limits<double>::infinity(),
                                             std::numeric_limits<double>::infinity(), 0.95};
  r.comparisons[2].not_gated = "under the 500 ms floor";
  const Json content = content_of(r);
  EXPECT_EQ(content["metrics"]["latency"]["samples"], Json::parse("[0.012, 0.0124, 0.0125]"));
  EXPECT_FALSE(content["metrics"]["memory"].contains("samples"));
  EXPECT_EQ(content["comparisons"][0]["method"], "stat");
  EXPECT_EQ(content["comparisons"][0]["interval"],
            Json::parse(R"({"low": 0.05, "high": 0.19, "confidence": 0.95})"));
  EXPECT_EQ(content["comparisons"][0]["inconclusive"], true);
  EXPECT_TRUE(content["comparisons"][1]["interval"]["low"].is_null());
  EXPECT_EQ(content["comparisons"][2]["not_gated"], "under the 500 ms floor");
  // The seed's comparisons keep the seed's layout: none of the stat fields.
  EXPECT_FALSE(content_of(full_record())["comparisons"][0].contains("method"));
  EXPECT_FALSE(content_of(full_record())["comparisons"][0].contains("interval"));
  const NormalizedRecord read = read_by_both(content);
  EXPECT_TRUE(read == r);
}

TEST(RecordFastReader, RefusesAnIntervalWhoseEndsAreReversedOrAnUnknownMethod) {
  NormalizedRecord r = full_record();
  r.comparisons[0].method = CompareMethod::kStat;
  r.comparisons[0].interval = ChangeInterval{0.05, 0.19, 0.95};
  Json reversed = content_of(r);
  reversed["comparisons"][0]["interval"]["low"] = 0.5;
  refused(reversed.dump());
  Json method = content_of(r);
  method["comparisons"][0]["method"] = "guess";
  refused(method.dump());
  Json sample = content_of(r);
  sample["metrics"]["latency"]["samples"] = Json::parse(R"([0.1, "x"])");
  refused(sample.dump());
}

TEST(RecordFastReader, ReadsParametersAsTheStrictReaderDoes) {
  NormalizedRecord r = full_record();
  r.parameters = {{"n", "1000"}, {"mode", "<b>fast</b>"}};
  const NormalizedRecord read = read_by_both(content_of(r));
  EXPECT_TRUE(read == r);
  EXPECT_EQ(read.parameters.at("mode"), "<b>fast</b>");
}

TEST(RecordFastReader, ReadsNullOptionalFieldsEmptyMapsAndLegacyFields) {
  NormalizedRecord r = full_record();
  r.workload_id = std::nullopt;
  r.variant_id = std::nullopt;
  r.benchmark_version = std::nullopt;
  r.commit_sha = std::nullopt;
  r.branch = std::nullopt;
  r.metrics.clear();
  r.regression_thresholds.clear();
  r.comparisons.clear();
  r.quality_metadata = Json::object();
  r.legacy_fields = {{"old_field", {1, 2}}};
  r.success = false;
  const NormalizedRecord read = read_by_both(content_of(r));
  EXPECT_TRUE(read == r);
  EXPECT_FALSE(read.cohort().has_value());
  EXPECT_EQ(read.legacy_fields["old_field"][1], 2);
}

TEST(RecordFastReader, IgnoresARecordIdInTheContentAndKeepsTheLastOfDuplicateKeys) {
  std::string text = content_of(full_record()).dump();
  text.pop_back();  // the closing brace
  text += R"(,"record_id":"not-this-one","run_source":"scheduled_main"})";
  const std::optional<NormalizedRecord> fast = read_current_record_fast(text, kId);
  ASSERT_TRUE(fast.has_value());
  EXPECT_EQ(fast->record_id, kId);
  EXPECT_EQ(fast->run_source, "scheduled_main");
}

TEST(RecordFastReader, ReadsIntegersAndNumbersAsTheStrictReaderConvertsThem) {
  Json content = content_of(full_record());
  content["metrics"]["memory"]["value"] = 18446744073709551615ull;  // beyond int64
  content["regression_thresholds"]["latency"]["threshold_absolute"] = 0;
  content["comparisons"][0]["current"] = -0.0;
  const NormalizedRecord read = read_by_both(content);
  EXPECT_EQ(read.metrics.at("memory").value, 18446744073709551615.0);
}

TEST(RecordFastReader, LeavesLegacyLayoutsToTheStrictReader) {
  Json content = content_of(full_record());
  content.erase("result_schema_version");
  EXPECT_FALSE(read_current_record_fast(content.dump(), kId).has_value());
  content["result_schema_version"] = 2;
  EXPECT_FALSE(read_current_record_fast(content.dump(), kId).has_value());
}

TEST(RecordFastReader, LeavesEveryContentTheStrictReaderRefusesToIt) {
  refused("");
  refused("[1]");
  refused(R"({"benchmark_id": )");
  const auto changed = [](const std::string& pointer, const Json& value) {
    Json content = content_of(full_record());
    content[Json::json_pointer(pointer)] = value;
    refused(content.dump());
  };
  changed("/result_schema_version", 4);
  changed("/result_schema_version", 3.0);
  changed("/config_schema_version", 0);
  changed("/config_schema_version", 3000000000LL);
  changed("/config_schema_version", "2");
  changed("/benchmark_id", nullptr);
  changed("/workload_id", 7);
  changed("/benchmark_version", 1.5);
  changed("/benchmark_version", 9223372036854775808ull);
  changed("/metrics", Json::array());
  changed("/metrics/latency/direction", "sideways");
  changed("/metrics/latency/value", "1");
  changed("/metrics/latency/extra", 1);
  changed("/regression_thresholds/latency/gated", 1);
  changed("/regression_thresholds/latency/extra", true);
  changed("/quality_metadata", nullptr);
  changed("/comparisons", Json::object());
  changed("/comparisons/0/baseline_count", -1);
  changed("/comparisons/0/current", "1");
  changed("/comparisons/0/policy", nullptr);
  changed("/comparisons/0/note", "x");
  changed("/baseline_eligible", "true");
  changed("/success", nullptr);
  changed("/legacy_fields", nullptr);
  changed("/parameters", nullptr);
  changed("/parameters", Json::array());
  changed("/parameters/n", 1000);
  changed("/unknown_field", 1);
  const auto removed = [](const std::string& key) {
    Json content = content_of(full_record());
    content.erase(key);
    refused(content.dump());
  };
  removed("branch");  // nullable, but present in every version 3 record
  removed("comparisons");
  removed("success");
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
