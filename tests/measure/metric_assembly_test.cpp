#include "measure/metric_assembly.hpp"

#include <gtest/gtest.h>

namespace perfgate {
namespace {

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

}  // namespace
}  // namespace perfgate
