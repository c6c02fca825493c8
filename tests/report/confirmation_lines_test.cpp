#include "report/confirmation_lines.hpp"

#include <gtest/gtest.h>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

// A record judged on all its samples after a confirmation whose first verdict was `first`.
NormalizedRecord confirmed_record(const std::string& first, const std::string& now) {
  NormalizedRecord record;
  record.benchmark_id = "sort[n=1000]";
  record.comparison_status = now;
  MetricValue latency;
  latency.value = 1.008;
  latency.unit = "s";
  record.metrics["latency"] = latency;
  MetricComparison comparison;
  comparison.metric = "latency";
  comparison.current = 1.008;
  comparison.baseline = 1.0;
  comparison.baseline_count = 5;
  comparison.percent_delta = 0.008;
  comparison.method = CompareMethod::kStat;
  comparison.interval = ChangeInterval{-0.012, 0.029, 0.95};
  record.comparisons.push_back(comparison);
  record.quality_metadata["confirmation"] = {
      {"first_status", first},
      {"runs_before", 5},
      {"runs_added", 5},
      {"first_evidence",
       Json::parse(R"j([{"metric":"latency","change":"+9.0% worse (95%: +6.5% to +11.6%)"}])j")}};
  return record;
}

TEST(ConfirmationLines, SayTheFirstVerdictWhetherItHeldAndEachDecidingMetricBeforeAndAfter) {
  const std::vector<std::string> lines =
      confirmation_lines({confirmed_record("REGRESSION", "PASS"), NormalizedRecord{}});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "sort[n=1000]: REGRESSION not confirmed by 5 more run(s) (10 in all): now PASS; "
            "latency +9.0% worse (95%: +6.5% to +11.6%) → +0.8% worse (95%: -1.2% to +2.9%)");
  EXPECT_EQ(confirmation_lines({confirmed_record("REGRESSION", "REGRESSION")})[0].substr(0, 66),
            "sort[n=1000]: REGRESSION confirmed by 5 more run(s) (10 in all); l");
}

TEST(ConfirmationLines, NameTheOutcomeOfEveryFirstVerdict) {
  EXPECT_EQ(confirmation_outcome("REGRESSION", "REGRESSION"), "confirmed");
  EXPECT_EQ(confirmation_outcome("REGRESSION", "INCONCLUSIVE"), "not confirmed");
  EXPECT_EQ(confirmation_outcome("REGRESSION", "PASS"), "not confirmed");
  EXPECT_EQ(confirmation_outcome("INCONCLUSIVE", "PASS"), "resolved");
  EXPECT_EQ(confirmation_outcome("INCONCLUSIVE", "REGRESSION"), "resolved");
  EXPECT_EQ(confirmation_outcome("INCONCLUSIVE", "INCONCLUSIVE"), "still inconclusive");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
