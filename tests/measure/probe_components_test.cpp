#include "measure/probe_components.hpp"

#include <gtest/gtest.h>

#include "profile/probe_report_reader.hpp"
#include "support/probe_report_fixture.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

profile::ProbeReport fixture() {
  return profile::read_probe_report(perfgate::testing::probe_report_json(), "fixture");
}

std::vector<std::pair<std::string, double>> values(const std::vector<ComponentReport>& reports) {
  std::vector<std::pair<std::string, double>> out;
  for (const auto& report : reports) {
    EXPECT_EQ(report.unit, "s");
    EXPECT_EQ(report.direction, Direction::kLowerIsBetter);
    out.emplace_back(report.metric, report.value);
  }
  return out;
}

TEST(ProbeComponents, GivesEveryTopLevelRegionItsMeanTimePerRunWhenNothingIsMapped) {
  BenchmarkConfig config;
  // frame: (50 ms + 100 ms) / 2 runs; render: (30 ms + 80 ms) / 2; frame/decode is nested.
  EXPECT_EQ(values(probe_components(config, fixture())),
            (std::vector<std::pair<std::string, double>>{{"frame", 0.075}, {"render", 0.055}}));
}

TEST(ProbeComponents, OffersNestedRegionsToTheMappingWhenTheConfigMapsComponents) {
  BenchmarkConfig config;
  config.component_metrics = {{"decode_s", "frame/decode"}};
  const auto offered = probe_components(config, fixture());
  EXPECT_EQ(values(offered), (std::vector<std::pair<std::string, double>>{
                                 {"frame", 0.075}, {"frame/decode", 0.045}, {"render", 0.055}}));
  const auto mapped = map_components(config, offered);
  ASSERT_EQ(mapped.size(), 1u);
  EXPECT_EQ(mapped[0].metric, "decode_s");
  EXPECT_EQ(mapped[0].value, 0.045);
}

TEST(ProbeComponents, CountsARegionMissingFromARunAsZeroInThatRun) {
  profile::ProbeReport report = fixture();
  report.runs[1].regions.pop_back();  // render did not run in run 1
  EXPECT_EQ(values(probe_components(BenchmarkConfig{}, report)),
            (std::vector<std::pair<std::string, double>>{{"frame", 0.075}, {"render", 0.015}}));
}

TEST(ProbeComponents, GivesNothingForAReportWithoutRuns) {
  profile::ProbeReport report = fixture();
  report.runs.clear();
  EXPECT_TRUE(probe_components(BenchmarkConfig{}, report).empty());
}

TEST(ProbeComponents, LeavesWarmupRunsOutAndCountsTimeOtherThreadsSpentForARun) {
  profile::ProbeReport report = fixture();
  report.runs[0].warmup = true;  // run 0 (frame 50 ms) is a warmup: only run 1 counts
  report.runs[1].dispatched = {{2, {"frame", 2, 10000.0, 10000.0, 0.05}}};
  EXPECT_EQ(values(probe_components(BenchmarkConfig{}, report)),
            (std::vector<std::pair<std::string, double>>{{"frame", 0.11}, {"render", 0.08}}));
  report.runs[1].warmup = true;  // nothing measured: no values
  EXPECT_TRUE(probe_components(BenchmarkConfig{}, report).empty());
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
