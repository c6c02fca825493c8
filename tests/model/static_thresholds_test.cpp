#include "model/static_thresholds.hpp"

#include <gtest/gtest.h>

#include "stats/summary.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

MetricSeries series(const std::string& name, std::vector<double> samples) {
  MetricSeries s{
      standard_metric(name).value_or(Metric{name, "s", Direction::kLowerIsBetter}), samples, {}};
  s.summary = summarize(s.samples);
  return s;
}

std::map<std::string, ThresholdBlock> blocks() {
  return {{"default", {{{"latency", 10.0}, {"memory", 1000.0}}}},
          {"L40", {{{"latency", 3.0}, {"memory", 500.0}}}},
          {"L40S", {{{"latency", 2.0}, {"memory", 400.0}, {"decode", 0.5}}}}};
}

TEST(StaticThresholds, SelectsTheLongestKeyContainedInTheDeviceName) {
  EXPECT_EQ(select_threshold_block(blocks(), "NVIDIA L40S"), "L40S");
  EXPECT_EQ(select_threshold_block(blocks(), "NVIDIA L40"), "L40");
}

TEST(StaticThresholds, FallsBackToDefaultWhenNoKeyMatches) {
  EXPECT_EQ(select_threshold_block(blocks(), "AMD EPYC 7B13"), "default");
}

TEST(StaticThresholds, SelectsNothingWhenTheConfigHasNoThresholds) {
  EXPECT_FALSE(select_threshold_block({}, "NVIDIA L40S").has_value());
}

TEST(StaticThresholds, ComparesTheMeanOfTimesAndTheLargestSampleOfMemory) {
  const std::map<std::string, MetricSeries> metrics{
      {"latency", series("latency", {1.0, 2.0, 3.0})},
      {"memory", series("memory", {390.0, 410.0, 395.0})}};
  const StaticVerdict verdict = check_static_thresholds(blocks(), "NVIDIA L40S", metrics);
  EXPECT_EQ(verdict.selected_block, "L40S");
  ASSERT_EQ(verdict.checks.size(), 2u);
  EXPECT_EQ(verdict.checks[0].metric, "latency");
  EXPECT_EQ(verdict.checks[0].value, 2.0);
  EXPECT_FALSE(verdict.checks[0].breached) << "a mean equal to the limit is not above it";
  EXPECT_EQ(verdict.checks[1].metric, "memory");
  EXPECT_EQ(verdict.checks[1].statistic, "max");
  EXPECT_EQ(verdict.checks[1].value, 410.0);
  EXPECT_TRUE(verdict.checks[1].breached);
  EXPECT_TRUE(verdict.breached());
}

TEST(StaticThresholds, SkipsLimitsOfMetricsThatWereNotMeasured) {
  const std::map<std::string, MetricSeries> metrics{{"latency", series("latency", {1.0})},
                                                    {"memory", series("memory", {10.0})}};
  const StaticVerdict verdict = check_static_thresholds(blocks(), "NVIDIA L40S", metrics);
  EXPECT_EQ(verdict.unmeasured, std::vector<std::string>{"decode"});
  EXPECT_FALSE(verdict.breached());
}

TEST(StaticThresholds, TreatsAThroughputLimitAsALowerBound) {
  const std::map<std::string, ThresholdBlock> thresholds{
      {"default", {{{"latency", 10.0}, {"memory", 100.0}, {"throughput", 50.0}}}}};
  const std::map<std::string, MetricSeries> metrics{
      {"throughput", series("throughput", {40.0, 45.0})}};
  const StaticVerdict verdict = check_static_thresholds(thresholds, "cpu", metrics);
  ASSERT_EQ(verdict.checks.size(), 1u);
  EXPECT_TRUE(verdict.checks[0].lower_bound);
  EXPECT_TRUE(verdict.checks[0].breached);
  EXPECT_EQ(verdict.to_json()["checks"][0]["kind"], "min");
  EXPECT_EQ(verdict.to_json()["status"], "REGRESSION");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
