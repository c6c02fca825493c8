#include <gtest/gtest.h>

#include "ingest/reader_test_support.hpp"
#include "ingest/result_file.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::ingest {
namespace PERFGATE_TEST_FILE {

using Axes = std::vector<std::pair<std::string, std::string>>;

ResultFile read_fixture() {
  return read_result_file(ingest_fixture("hyperfine_scan.json"));
}

TEST(HyperfineReader, GroupsTheCommandsOfAParameterScanUnderTheirTemplate) {
  const ResultFile file = read_fixture();
  EXPECT_EQ(file.format, ResultFormat::kHyperfine);
  ASSERT_EQ(file.states.size(), 3u);
  EXPECT_EQ(file.states[0].benchmark, "./sort --size {size} -j {threads}");
  EXPECT_EQ(file.states[0].state_key, "size=100 threads=2");
  EXPECT_EQ(file.states[0].axis_values, (Axes{{"size", "100"}, {"threads", "2"}}));
  EXPECT_EQ(file.states[1].benchmark, "./sort --size {size} -j {threads}");
  EXPECT_EQ(file.states[1].state_key, "size=1000 threads=2");
  EXPECT_EQ(file.states[2].benchmark, "sleep 0.1");
  EXPECT_EQ(file.states[2].state_key, "");
  ASSERT_EQ(file.benchmarks.size(), 2u);
  EXPECT_EQ(file.benchmarks[0].name, "./sort --size {size} -j {threads}");
  EXPECT_EQ(file.benchmarks[1].name, "sleep 0.1");
  EXPECT_TRUE(file.devices.empty());
}

TEST(HyperfineReader, TakesTheRunTimesAsSamplesAndSummarisesThem) {
  const ResultFile file = read_fixture();
  const ResultState& state = file.states[0];
  EXPECT_EQ(state.timing_name, "wall_time");
  EXPECT_EQ(state.samples, (std::vector<double>{0.01, 0.02, 0.03}));
  const TimingSummary& t = state.summary;
  EXPECT_EQ(t.sample_size, 3);
  EXPECT_EQ(t.min, 0.01);
  EXPECT_EQ(t.max, 0.03);
  EXPECT_EQ(t.median, 0.02);
  EXPECT_DOUBLE_EQ(*t.mean, 0.02);
  EXPECT_DOUBLE_EQ(*t.stdev_absolute, 0.01);
  EXPECT_DOUBLE_EQ(*t.stdev_relative, 0.5);
  EXPECT_DOUBLE_EQ(*t.q1, 0.015);
  EXPECT_DOUBLE_EQ(*t.q3, 0.025);
  EXPECT_DOUBLE_EQ(*t.iqr_absolute, 0.01);
  EXPECT_DOUBLE_EQ(*t.iqr_relative, 0.5);
  EXPECT_FALSE(state.skipped);
}

TEST(HyperfineReader, ReadsUserSystemTheirSumAsCpuTimeAndMemoryAsExtraMetrics) {
  const ResultFile file = read_fixture();
  const std::vector<ExtraMetric>& extras = file.states[0].extra_metrics;
  ASSERT_EQ(extras.size(), 4u);
  EXPECT_EQ(extras[0].name, "user");
  EXPECT_EQ(extras[0].unit, "s");
  EXPECT_EQ(extras[0].samples, std::vector<double>{0.015});
  EXPECT_EQ(extras[1].name, "system");
  EXPECT_EQ(extras[1].samples, std::vector<double>{0.004});
  EXPECT_EQ(extras[2].name, "cpu_time");
  EXPECT_EQ(extras[2].unit, "s");
  ASSERT_EQ(extras[2].samples.size(), 1u);
  EXPECT_DOUBLE_EQ(extras[2].samples[0], 0.019);
  EXPECT_EQ(extras[3].name, "memory");
  EXPECT_EQ(extras[3].unit, "MB");
  EXPECT_EQ(extras[3].samples, (std::vector<double>{1.0, 2.0, 3.0}));
}

TEST(HyperfineReader, SkipsAResultWithRunsThatExitedNonZero) {
  const ResultFile file = read_fixture();
  EXPECT_TRUE(file.states[1].skipped);
  EXPECT_EQ(file.states[1].skip_reason, "1 of 2 runs exited non-zero (exit codes 3)");
  EXPECT_TRUE(file.states[2].skipped);
  EXPECT_EQ(file.states[2].skip_reason, "1 of 2 runs exited non-zero (exit codes signal)");
}

TEST(HyperfineReader, SummarisesAResultWithoutTimesFromItsStatistics) {
  const ResultFile file = read_fixture();
  const ResultState& state = file.states[2];
  EXPECT_TRUE(state.samples.empty());
  const TimingSummary& t = state.summary;
  EXPECT_EQ(t.mean, 0.1);
  EXPECT_EQ(t.stdev_absolute, 0.002);
  EXPECT_DOUBLE_EQ(*t.stdev_relative, 0.02);
  EXPECT_EQ(t.median, 0.099);
  EXPECT_EQ(t.min, 0.098);
  EXPECT_EQ(t.max, 0.103);
  EXPECT_FALSE(t.q1.has_value());
  EXPECT_FALSE(t.sample_size.has_value());
}

TEST(HyperfineReader, SummarisesAResultWithAnEmptyTimesListFromItsStatistics) {
  const TempDir dir;
  const ResultFile file = read_result_file(dir.write("h.json", R"({"results": [
    {"command": "sleep 0.1", "times": [], "mean": 0.1, "stddev": 0.002, "median": 0.099,
     "min": 0.098, "max": 0.103}]})"));
  ASSERT_EQ(file.states.size(), 1u);
  EXPECT_TRUE(file.states[0].samples.empty());
  EXPECT_EQ(file.states[0].summary.median, 0.099);
  EXPECT_EQ(file.states[0].summary.mean, 0.1);
}

TEST(HyperfineReader, LeavesPartsOfLargerWordsOutOfTheTemplate) {
  const TempDir dir;
  const auto path = dir.write("h.json", R"({"results": [
    {"command": "sleep 0.1 && echo 1 x1", "times": [1.0], "exit_codes": [0], "parameters": {"n": "1"}}]})");
  EXPECT_EQ(read_result_file(path).states[0].benchmark, "sleep 0.1 && echo {n} x1");
}

TEST(HyperfineReader, RejectsMalformedResultsNamingTheJsonPath) {
  const TempDir dir;
  const auto times = dir.write("times.json", R"({"results": [
    {"command": "a", "times": [0.1]}, {"command": "b", "times": [0.1, "0.2"]}]})");
  EXPECT_EQ(error_message([&] { read_result_file(times); })
                .rfind(times.string() +
                           ": results[1].times[1]: expected a number, found a string. Write the "
                           "file with hyperfine --export-json FILE",
                       0),
            0u);
  const auto command = dir.write("command.json", R"({"results": [{"times": [0.1]}]})");
  EXPECT_NE(
      error_message([&] { read_result_file(command); }).find(": results[0].command: missing. "),
      std::string::npos);
  const auto exit =
      dir.write("exit.json", R"({"results": [{"command": "a", "exit_codes": [0, 1.5]}]})");
  EXPECT_NE(error_message([&] {
              read_result_file(exit);
            }).find(": results[0].exit_codes[1]: expected an integer, found a number. "),
            std::string::npos);
  const auto forced = dir.write("forced.json", R"({"benchmarks": []})");
  EXPECT_NE(error_message([&] {
              read_result_file(forced, ResultFormat::kHyperfine);
            }).find(forced.string() + ": results: missing. "),
            std::string::npos);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::ingest
