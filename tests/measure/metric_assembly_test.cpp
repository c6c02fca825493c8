#include "measure/metric_assembly.hpp"

#include <gtest/gtest.h>

#include "model/static_thresholds.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

RunObservation run(double wall, double user, double sys, double rss) {
  RunObservation r;
  r.wall_s = wall;
  r.user_s = user;
  r.system_s = sys;
  r.peak_rss_mb = rss;
  return r;
}

TEST(MetricAssembly, BuildsLatencyCpuAndMemoryFromEachMeasuredRun) {
  BenchmarkConfig config;
  const auto out =
      assemble_metrics(config, {run(0.5, 0.2, 0.1, 30), run(1.5, 0.4, 0.2, 50)}, {{}, {}});
  EXPECT_EQ(out.metrics.at("latency").samples, (std::vector<double>{0.5, 1.5}));
  EXPECT_EQ(out.metrics.at("latency").summary.mean, 1.0);
  EXPECT_NEAR(out.metrics.at("cpu_time").samples[1], 0.6, 1e-12);
  EXPECT_EQ(out.metrics.at("memory").summary.max, 50.0);
  EXPECT_EQ(out.metrics.count("throughput"), 0u);
}

TEST(MetricAssembly, DividesUnitsPerRunByLatencyForThroughput) {
  BenchmarkConfig config;
  config.throughput = ThroughputSpec{100, "frames"};
  const auto out = assemble_metrics(config, {run(0.5, 0, 0, 1), run(2.0, 0, 0, 1)}, {{}, {}});
  EXPECT_EQ(out.metrics.at("throughput").samples, (std::vector<double>{200.0, 50.0}));
  EXPECT_EQ(out.metrics.at("throughput").metric.unit, "frames/s");
  EXPECT_EQ(out.metrics.at("throughput").metric.direction, Direction::kHigherIsBetter);
}

TEST(MetricAssembly, GatesThroughputOnUnitsPerMeanLatencyAsTheSeedDoes) {
  BenchmarkConfig config;
  config.throughput = ThroughputSpec{45, "frames"};
  const auto out = assemble_metrics(
      config, {run(28.3, 0, 0, 1), run(28.5, 0, 0, 1), run(28.4, 0, 0, 1)}, {{}, {}, {}});
  const MetricSeries& throughput = out.metrics.at("throughput");
  EXPECT_DOUBLE_EQ(throughput.summary.mean, 45 / 28.4);
  EXPECT_EQ(throughput.samples, (std::vector<double>{45 / 28.3, 45 / 28.5, 45 / 28.4}))
      << "the samples stay per-run rates for display";
  EXPECT_EQ(throughput.summary.count, 3u);
  EXPECT_EQ(throughput.summary.min, 45 / 28.5);
  EXPECT_EQ(throughput.summary.max, 45 / 28.3);
}

TEST(MetricAssembly, IsNotTheMeanOfPerRunRatesForThroughput) {
  BenchmarkConfig config;
  config.throughput = ThroughputSpec{60, "items"};
  const auto out = assemble_metrics(config, {run(1.0, 0, 0, 1), run(3.0, 0, 0, 1)}, {{}, {}});
  // Rates 60 and 20 average to 40; 60 items in a mean 2 s is 30 items/s.
  EXPECT_EQ(out.metrics.at("throughput").summary.mean, 30.0);
}

TEST(MetricAssembly, ChecksMinThroughputAgainstUnitsPerMeanLatency) {
  BenchmarkConfig config;
  config.throughput = ThroughputSpec{60, "items"};
  const auto out = assemble_metrics(config, {run(1.0, 0, 0, 1), run(3.0, 0, 0, 1)}, {{}, {}});
  const std::map<std::string, ThresholdBlock> thresholds = {
      {"default", ThresholdBlock{{{"throughput", 35.0}}}}};
  const StaticVerdict verdict = check_static_thresholds(thresholds, "cpu", out.metrics);
  ASSERT_EQ(verdict.checks.size(), 1u);
  EXPECT_EQ(verdict.checks[0].value, 30.0);
  EXPECT_TRUE(verdict.checks[0].breached) << "30 items/s is below the 35 items/s floor";
}

TEST(MetricAssembly, GivesNoThroughputValueWhenNoRunWasMeasured) {
  BenchmarkConfig config;
  config.throughput = ThroughputSpec{60, "items"};
  const auto out = assemble_metrics(config, {}, {});
  EXPECT_EQ(out.metrics.at("throughput").summary.count, 0u);
  EXPECT_EQ(out.metrics.at("throughput").summary.mean, 0.0);
}

TEST(MetricAssembly, KeepsOnlyMappedComponentsAndRenamesThem) {
  BenchmarkConfig config;
  config.component_metrics = {{"decode_time_s", "decode"}};
  const auto mapped = map_components(config, {{"decode", 0.1, "s", Direction::kLowerIsBetter},
                                              {"save", 0.3, "s", Direction::kLowerIsBetter},
                                              {"decode", 0.2, "s", Direction::kLowerIsBetter}});
  ASSERT_EQ(mapped.size(), 1u);
  EXPECT_EQ(mapped[0].metric, "decode_time_s");
  EXPECT_NEAR(mapped[0].value, 0.3, 1e-12) << "a stage reported twice in one run is summed";
}

TEST(MetricAssembly, KeepsEveryReportedNameWhenThereIsNoMapping) {
  BenchmarkConfig config;
  const auto mapped = map_components(config, {{"parse", 1, "s", Direction::kLowerIsBetter},
                                              {"hits", 7, "count", Direction::kHigherIsBetter}});
  ASSERT_EQ(mapped.size(), 2u);
  EXPECT_EQ(mapped[1].metric, "hits");
  EXPECT_EQ(mapped[1].direction, Direction::kHigherIsBetter);
}

TEST(MetricAssembly, ListsMappedComponentsThatNoRunReported) {
  BenchmarkConfig config;
  config.component_metrics = {{"decode_time_s", "decode"}, {"encode_time_s", "encode"}};
  const auto out = assemble_metrics(config, {run(1, 0, 0, 1)},
                                    {{{"decode_time_s", 0.4, "s", Direction::kLowerIsBetter}}});
  EXPECT_EQ(out.metrics.at("decode_time_s").samples, std::vector<double>{0.4});
  EXPECT_EQ(out.missing_components, std::vector<std::string>{"encode_time_s"});
}

TEST(MetricAssembly, RefusesToLetAReportedMetricReplaceAMeasuredOne) {
  BenchmarkConfig config;
  const auto out = assemble_metrics(config, {run(1, 0, 0, 1)},
                                    {{{"latency", 99, "s", Direction::kLowerIsBetter}}});
  EXPECT_EQ(out.metrics.at("latency").samples, std::vector<double>{1.0});
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_NE(out.warnings[0].find("'latency'"), std::string::npos);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
