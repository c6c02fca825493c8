#include "gate/rolling_baseline.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "gate/normalized_fixtures.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

MetricComparison compare_one(const NormalizedRecord& current,
                             const std::vector<NormalizedRecord>& baseline) {
  const std::vector<MetricComparison> comparisons = compare_with_baseline(current, baseline);
  EXPECT_EQ(comparisons.size(), 1u);
  return comparisons.empty() ? MetricComparison{} : comparisons.front();
}

TEST(RollingBaseline, DoesNotExceedWhenOnlyThePercentDeltaIsAboveThePolicy) {
  // +25% but only +0.25 s: latency needs more than 8% and more than 0.5 s.
  const MetricComparison c =
      compare_one(v2_record({{"latency", 1.25}}), flat_baseline("latency", 1.0));
  EXPECT_EQ(c.absolute_delta, 0.25);
  EXPECT_EQ(c.percent_delta, 0.25);
  EXPECT_FALSE(c.threshold_exceeded);
  EXPECT_FALSE(c.regressed);
}

TEST(RollingBaseline, DoesNotExceedWhenOnlyTheAbsoluteDeltaIsAboveThePolicy) {
  // +1 s but only +6.25%.
  const MetricComparison c =
      compare_one(v2_record({{"latency", 17.0}}), flat_baseline("latency", 16.0));
  EXPECT_EQ(c.absolute_delta, 1.0);
  EXPECT_EQ(c.percent_delta, 0.0625);
  EXPECT_FALSE(c.threshold_exceeded);
  EXPECT_FALSE(c.regressed);
}

TEST(RollingBaseline, RegressesWhenBothPercentAndAbsoluteDeltasAreAboveThePolicy) {
  const MetricComparison c =
      compare_one(v2_record({{"latency", 6.0}}), flat_baseline("latency", 5.0));
  EXPECT_EQ(c.metric, "latency");
  EXPECT_EQ(c.current, 6.0);
  EXPECT_EQ(c.baseline, 5.0);
  EXPECT_EQ(c.baseline_count, 5u);
  EXPECT_DOUBLE_EQ(c.absolute_delta, 1.0);
  EXPECT_DOUBLE_EQ(c.percent_delta, 0.2);
  EXPECT_EQ(c.policy, (MetricPolicy{0.08, 0.5, true}));
  EXPECT_TRUE(c.threshold_exceeded);
  EXPECT_TRUE(c.regressed);
}

TEST(RollingBaseline, DoesNotExceedWhenDeltasEqualThePolicyExactly) {
  // 5.5 vs 5.0 is +0.5 s exactly: "above" is strict.
  NormalizedRecord current = v2_record({{"latency", 5.5}});
  current.regression_thresholds["latency"] = {0.05, 0.5, true};
  const MetricComparison c = compare_one(current, flat_baseline("latency", 5.0));
  EXPECT_DOUBLE_EQ(c.absolute_delta, 0.5);
  EXPECT_FALSE(c.threshold_exceeded);
}

TEST(RollingBaseline, TreatsAThroughputDropAsWorse) {
  const MetricComparison c =
      compare_one(v2_record({{"throughput", 1.5}}), flat_baseline("throughput", 2.0));
  EXPECT_DOUBLE_EQ(c.absolute_delta, 0.5);
  EXPECT_DOUBLE_EQ(c.percent_delta, 0.25);
  EXPECT_TRUE(c.threshold_exceeded);
  EXPECT_TRUE(c.regressed);
}

TEST(RollingBaseline, TreatsAThroughputRiseAsBetter) {
  const MetricComparison c =
      compare_one(v2_record({{"throughput", 3.0}}), flat_baseline("throughput", 2.0));
  EXPECT_DOUBLE_EQ(c.absolute_delta, -1.0);
  EXPECT_DOUBLE_EQ(c.percent_delta, -0.5);
  EXPECT_FALSE(c.threshold_exceeded);
}

TEST(RollingBaseline, TreatsALatencyDropAsBetter) {
  const MetricComparison c =
      compare_one(v2_record({{"latency", 2.0}}), flat_baseline("latency", 4.0));
  EXPECT_DOUBLE_EQ(c.absolute_delta, -2.0);
  EXPECT_DOUBLE_EQ(c.percent_delta, -0.5);
  EXPECT_FALSE(c.threshold_exceeded);
}

TEST(RollingBaseline, TakesTheMedianOfFiveBaselineRecords) {
  std::vector<NormalizedRecord> baseline;
  for (double latency : {5.0, 1.0, 40.0, 2.0, 3.0})
    baseline.push_back(v2_record({{"latency", latency}}));
  const MetricComparison c = compare_one(v2_record({{"latency", 3.0}}), baseline);
  EXPECT_EQ(c.baseline, 3.0);
  EXPECT_EQ(c.baseline_count, 5u);
  EXPECT_EQ(c.absolute_delta, 0.0);
  EXPECT_EQ(c.percent_delta, 0.0);
}

TEST(RollingBaseline, TakesTheMedianOfTheFewerRecordsThatHaveEachMetric) {
  // Four records; one of them lacks the component timing "decode".
  std::vector<NormalizedRecord> baseline = {v2_record({{"latency", 1.0}, {"decode", 0.2}}),
                                            v2_record({{"latency", 4.0}}),
                                            v2_record({{"latency", 2.0}, {"decode", 0.6}}),
                                            v2_record({{"latency", 3.0}, {"decode", 0.4}})};
  const std::vector<MetricComparison> comparisons =
      compare_with_baseline(v2_record({{"latency", 2.5}, {"decode", 0.4}}), baseline);
  ASSERT_EQ(comparisons.size(), 2u);
  EXPECT_EQ(comparisons[0].metric, "decode");
  EXPECT_EQ(comparisons[0].baseline, 0.4);
  EXPECT_EQ(comparisons[0].baseline_count, 3u);
  EXPECT_EQ(comparisons[1].metric, "latency");
  EXPECT_EQ(comparisons[1].baseline, 2.5) << "even count: the mean of the two middle values";
  EXPECT_EQ(comparisons[1].baseline_count, 4u);
}

TEST(RollingBaseline, SkipsAMetricTheCurrentRecordLacks) {
  NormalizedRecord current = v2_record({{"latency", 1.0}});
  current.regression_thresholds["decode"] = default_policy("decode");
  std::vector<NormalizedRecord> baseline = {v2_record({{"latency", 1.0}, {"decode", 9.0}})};
  const std::vector<MetricComparison> comparisons = compare_with_baseline(current, baseline);
  ASSERT_EQ(comparisons.size(), 2u);
  EXPECT_EQ(comparisons[0].metric, "decode");
  EXPECT_FALSE(comparisons[0].current.has_value());
  EXPECT_EQ(comparisons[0].baseline, 9.0);
  EXPECT_EQ(comparisons[0].absolute_delta, 0.0);
  EXPECT_FALSE(comparisons[0].threshold_exceeded);
  EXPECT_FALSE(comparisons[0].regressed);
}

TEST(RollingBaseline, SkipsAMetricNoBaselineRecordHas) {
  const std::vector<MetricComparison> comparisons = compare_with_baseline(
      v2_record({{"latency", 1.0}, {"decode", 50.0}}), flat_baseline("latency", 1.0, 3));
  ASSERT_EQ(comparisons.size(), 2u);
  EXPECT_EQ(comparisons[0].metric, "decode");
  EXPECT_EQ(comparisons[0].current, 50.0);
  EXPECT_FALSE(comparisons[0].baseline.has_value());
  EXPECT_EQ(comparisons[0].baseline_count, 0u);
  EXPECT_FALSE(comparisons[0].threshold_exceeded);
}

TEST(RollingBaseline, ExceedsButDoesNotRegressAnUngatedMetric) {
  NormalizedRecord current = v2_record({{"latency", 6.0}});
  current.regression_thresholds["latency"].gated = false;
  const MetricComparison c = compare_one(current, flat_baseline("latency", 5.0));
  EXPECT_TRUE(c.threshold_exceeded);
  EXPECT_FALSE(c.regressed);
}

TEST(RollingBaseline, GivesAnInfinitePercentDeltaWhenABaselineOfZeroGetsWorse) {
  const MetricComparison c =
      compare_one(v2_record({{"decode", 0.3}}), flat_baseline("decode", 0.0));
  EXPECT_DOUBLE_EQ(c.absolute_delta, 0.3);
  EXPECT_TRUE(std::isinf(c.percent_delta) && c.percent_delta > 0);
  EXPECT_TRUE(c.regressed) << "0.3 s is above the 0.25 s component policy";
}

TEST(RollingBaseline, GivesAZeroPercentDeltaWhenABaselineOfZeroIsMatched) {
  const MetricComparison c =
      compare_one(v2_record({{"decode", 0.0}}), flat_baseline("decode", 0.0));
  EXPECT_EQ(c.percent_delta, 0.0);
  EXPECT_FALSE(c.threshold_exceeded);
}

TEST(RollingBaseline, ComparesOnlyMetricsThatHaveAPolicy) {
  NormalizedRecord current = v2_record({{"latency", 1.0}, {"memory", 100.0}});
  current.regression_thresholds.erase("memory");
  const std::vector<MetricComparison> comparisons =
      compare_with_baseline(current, flat_baseline("latency", 1.0));
  ASSERT_EQ(comparisons.size(), 1u);
  EXPECT_EQ(comparisons[0].metric, "latency");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
