#include "measure/two_levels_warning.hpp"

#include <gtest/gtest.h>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

MetricSeries series(const std::string& name, std::vector<double> samples) {
  MetricSeries out;
  out.metric = Metric{name, "s", Direction::kLowerIsBetter};
  out.samples = std::move(samples);
  return out;
}

TEST(TwoLevelsWarning, NamesTheMetricTheCountsAndBothLevels) {
  std::map<std::string, MetricSeries> metrics;
  metrics["latency"] = series(
      "latency", {0.0096, 0.0095, 0.0145, 0.0097, 0.0096, 0.0146, 0.0095, 0.0144, 0.0096, 0.0097});
  metrics["cpu_time"] = series("cpu_time", {0.009, 0.009, 0.009, 0.009, 0.009, 0.009});
  const auto warning = two_levels_warning(metrics);
  ASSERT_TRUE(warning.has_value());
  EXPECT_EQ(warning->substr(0, warning->find(" The record")),
            "TWO_LEVELS: the runs' latency took two levels: 7 run(s) near 9.6 ms and 3 near "
            "14.5 ms (+51%).");
}

TEST(TwoLevelsWarning, TakesCpuTimeWhenLatencyIsOneLevelAndNothingWhenNeitherIsTwo) {
  std::map<std::string, MetricSeries> metrics;
  metrics["latency"] = series("latency", {0.02, 0.0201, 0.0199, 0.02, 0.0202, 0.0198});
  metrics["cpu_time"] = series("cpu_time", {0.01, 0.01, 0.02, 0.01, 0.02, 0.02});
  const auto warning = two_levels_warning(metrics);
  ASSERT_TRUE(warning.has_value());
  EXPECT_EQ(warning->substr(0, warning->find(" The record")),
            "TWO_LEVELS: the runs' cpu_time took two levels: 3 run(s) near 10 ms and 3 near 20 "
            "ms (+100%).");
  metrics["cpu_time"] = metrics["latency"];
  EXPECT_FALSE(two_levels_warning(metrics).has_value());
  EXPECT_FALSE(two_levels_warning({}).has_value());
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
