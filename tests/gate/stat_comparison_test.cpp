// compare --method stat at the gate: the interval decides REGRESSION, PASS or INCONCLUSIVE,
// absolute floors default to 0, and a change a floor holds back is never silent.
#include <gtest/gtest.h>

#include <cmath>

#include "gate/comparison_status.hpp"
#include "gate/normalized_fixtures.hpp"
#include "gate/rolling_baseline.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

// A latency record whose runs are `samples` (the value is their mean), policy 8% and 0.
NormalizedRecord latency_runs(const std::vector<double>& samples) {
  double sum = 0;
  for (double s : samples) sum += s;
  NormalizedRecord record = v2_record({{"latency", sum / static_cast<double>(samples.size())}});
  record.metrics["latency"].samples = samples;
  record.regression_thresholds["latency"] = default_policy("latency", CompareMethod::kStat);
  return record;
}

MetricComparison stat_compare(const NormalizedRecord& current,
                              const std::vector<NormalizedRecord>& baseline) {
  const auto comparisons = compare_with_baseline(current, baseline, CompareMethod::kStat);
  EXPECT_EQ(comparisons.size(), 1u);
  return comparisons.empty() ? MetricComparison{} : comparisons.front();
}

NormalizedRecord classified_stat(NormalizedRecord record,
                                 const std::vector<NormalizedRecord>& baseline) {
  ClassificationInputs inputs;
  inputs.baseline = baseline;
  inputs.method = CompareMethod::kStat;
  classify(record, inputs);
  return record;
}

TEST(StatComparison, DefaultPoliciesHaveNoAbsoluteFloor) {
  EXPECT_EQ(default_policy("latency", CompareMethod::kStat), (MetricPolicy{0.08, 0, true}));
  EXPECT_EQ(default_policy("memory", CompareMethod::kStat), (MetricPolicy{0.05, 0, true}));
  EXPECT_EQ(default_policy("decode", CompareMethod::kStat), (MetricPolicy{0.05, 0, true}));
  EXPECT_EQ(default_policy("latency", CompareMethod::kSeed), (MetricPolicy{0.08, 0.5, true}));
}

TEST(StatComparison, AMillisecondProgramThreeTimesSlowerRegresses) {
  // The seed's 0.5 s floor hid this; under stat the interval carries the noise.
  const MetricComparison c =
      stat_compare(latency_runs({0.006, 0.006, 0.006}),
                   std::vector<NormalizedRecord>(5, latency_runs({0.002, 0.002, 0.002})));
  EXPECT_EQ(c.method, CompareMethod::kStat);
  EXPECT_NEAR(c.percent_delta, 2.0, 1e-12);
  EXPECT_NEAR(c.absolute_delta, 0.004, 1e-12);
  ASSERT_TRUE(c.interval.has_value());
  EXPECT_NEAR(c.interval->low, 2.0, 1e-12);
  EXPECT_NEAR(c.interval->high, 2.0, 1e-12);
  EXPECT_EQ(c.interval->confidence, 0.95);
  EXPECT_TRUE(c.threshold_exceeded);
  EXPECT_TRUE(c.regressed);
  EXPECT_FALSE(c.inconclusive);
  EXPECT_EQ(c.not_gated, "");
}

TEST(StatComparison, AnIntervalThatStraddlesTheThresholdIsInconclusive) {
  // Baseline records at 1.0, 0.9, 1.1, 1.0, 1.0: a spread of ~7% between records, so a
  // record 10% slower cannot be told from the noise at 8%.
  std::vector<NormalizedRecord> baseline;
  for (double level : {1.0, 0.9, 1.1, 1.0, 1.0}) baseline.push_back(latency_runs({level, level}));
  const NormalizedRecord r = classified_stat(latency_runs({1.1, 1.1}), baseline);
  ASSERT_EQ(r.comparisons.size(), 1u);
  const MetricComparison& c = r.comparisons[0];
  EXPECT_NEAR(c.percent_delta, 0.1, 1e-12);
  ASSERT_TRUE(c.interval.has_value());
  EXPECT_LT(c.interval->low, 0.08);
  EXPECT_GT(c.interval->high, 0.08);
  EXPECT_TRUE(c.inconclusive);
  EXPECT_FALSE(c.regressed);
  EXPECT_EQ(r.comparison_status, "INCONCLUSIVE");
  EXPECT_EQ(r.comparison_status_reason.substr(0, 70),
            "the change's interval straddles the threshold: latency +10% (+0.1 s), ");
  EXPECT_NE(r.comparison_status_reason.find(". Rerun, or raise the repetitions"),
            std::string::npos);
  EXPECT_FALSE(r.baseline_eligible) << "only an approval can make INCONCLUSIVE eligible";
  EXPECT_TRUE(r.success);
}

TEST(StatComparison, AnIntervalWithinTheThresholdPasses) {
  std::vector<NormalizedRecord> baseline;
  for (double level : {1.0, 0.99, 1.01, 1.0, 1.0}) baseline.push_back(latency_runs({level}));
  const NormalizedRecord r = classified_stat(latency_runs({1.01}), baseline);
  EXPECT_EQ(r.comparison_status, "PASS");
  EXPECT_TRUE(r.baseline_eligible);
  ASSERT_TRUE(r.comparisons[0].interval.has_value());
  EXPECT_LE(r.comparisons[0].interval->high, 0.08);
}

TEST(StatComparison, AThroughputDropIsWorseWithItsIntervalInTheWorseDirection) {
  NormalizedRecord current = v2_record({{"throughput", 80.0}});
  current.metrics["throughput"].samples = {80, 80};
  current.regression_thresholds["throughput"] = default_policy("throughput", CompareMethod::kStat);
  NormalizedRecord old = v2_record({{"throughput", 100.0}});
  old.metrics["throughput"].samples = {100, 100};
  const MetricComparison c = stat_compare(current, std::vector<NormalizedRecord>(3, old));
  EXPECT_NEAR(c.percent_delta, 0.2, 1e-12);  // 20% worse
  EXPECT_NEAR(c.interval->low, 0.2, 1e-12);
  EXPECT_TRUE(c.regressed);
}

TEST(StatComparison, RecordsWithoutSamplesCountAsOneRunAtTheirValue) {
  // Stored before samples were kept: five identical baseline values, no spread.
  const MetricComparison c = stat_compare(latency_runs({1.2, 1.2}), flat_baseline("latency", 1.0));
  EXPECT_NEAR(c.percent_delta, 0.2, 1e-12);
  EXPECT_NEAR(c.interval->low, 0.2, 1e-12);
  EXPECT_TRUE(c.regressed);
}

TEST(StatComparison, AnExplicitFloorThatHoldsBackAChangeSaysSo) {
  NormalizedRecord current = latency_runs({0.003});
  current.regression_thresholds["latency"] = {0.08, 0.5, true};
  const MetricComparison c =
      stat_compare(current, std::vector<NormalizedRecord>(5, latency_runs({0.001})));
  EXPECT_FALSE(c.regressed);
  EXPECT_FALSE(c.inconclusive);
  EXPECT_EQ(c.not_gated, "under the 500 ms floor");
}

TEST(SeedComparison, AChangeAFloorHoldsBackIsNeverSilent) {
  // +206%, but +0.0062 s against the seed's 0.5 s floor: not gated, and it says why.
  const std::vector<MetricComparison> comparisons = compare_with_baseline(
      v2_record({{"latency", 0.00918}}), flat_baseline("latency", 0.003), CompareMethod::kSeed);
  ASSERT_EQ(comparisons.size(), 1u);
  EXPECT_FALSE(comparisons[0].regressed);
  EXPECT_EQ(comparisons[0].method, CompareMethod::kSeed);
  EXPECT_FALSE(comparisons[0].interval.has_value());
  EXPECT_EQ(comparisons[0].not_gated, "under the 500 ms floor");
}

TEST(SeedComparison, AChangeUnderTheRelativeThresholdHasNoNote) {
  const std::vector<MetricComparison> comparisons =
      compare_with_baseline(v2_record({{"latency", 1.05}}), flat_baseline("latency", 1.0));
  EXPECT_EQ(comparisons[0].not_gated, "");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
