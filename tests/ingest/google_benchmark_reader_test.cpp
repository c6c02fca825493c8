#include <gtest/gtest.h>

#include "ingest/reader_test_support.hpp"
#include "ingest/result_file.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::ingest {
namespace PERFGATE_TEST_FILE {

using Axes = std::vector<std::pair<std::string, std::string>>;

ResultFile read_fixture() {
  return read_result_file(ingest_fixture("gbench_repetitions.json"));
}

TEST(GoogleBenchmarkReader, GroupsRowsOfOneRunNameIntoOneStateInFileOrder) {
  const ResultFile file = read_fixture();
  EXPECT_EQ(file.format, ResultFormat::kGoogleBenchmark);
  ASSERT_EQ(file.states.size(), 5u);
  EXPECT_EQ(file.states[0].benchmark, "BM_Copy");
  EXPECT_EQ(file.states[0].state_key, "8");
  EXPECT_EQ(file.states[0].axis_values, (Axes{{"arg0", "8"}}));
  EXPECT_EQ(file.states[1].benchmark, "BM_Sort");
  EXPECT_EQ(file.states[1].state_key, "size:64/threads:2");
  EXPECT_EQ(file.states[1].axis_values, (Axes{{"size", "64"}, {"threads", "2"}}));
  EXPECT_EQ(file.states[2].benchmark, "BM_Fail");
  EXPECT_EQ(file.states[2].state_key, "");
  EXPECT_EQ(file.states[2].axis_values, Axes{});
  EXPECT_EQ(file.states[3].benchmark, "BM_Later");
  EXPECT_EQ(file.states[4].state_key, "4/2");
  EXPECT_EQ(file.states[4].axis_values, (Axes{{"arg0", "4"}, {"arg1", "2"}}));
  ASSERT_EQ(file.benchmarks.size(), 5u);
  EXPECT_EQ(file.benchmarks[4].name, "BM_Odd");
  EXPECT_FALSE(file.states[0].device.has_value());
  EXPECT_EQ(file.context.at("host_name"), "ci-runner");
}

TEST(GoogleBenchmarkReader, TakesEachRepetitionAsASampleInSecondsAndIgnoresItsAggregates) {
  const ResultFile file = read_fixture();
  const ResultState& state = file.states[0];
  EXPECT_EQ(state.timing_name, "real_time");
  EXPECT_EQ(state.samples, (std::vector<double>{100 * 1e-9, 110 * 1e-9, 130 * 1e-9}));
  const TimingSummary& t = state.summary;
  EXPECT_EQ(t.sample_size, 3);
  EXPECT_EQ(t.min, 100 * 1e-9);
  EXPECT_EQ(t.max, 130 * 1e-9);
  EXPECT_EQ(t.median, 110 * 1e-9);
  EXPECT_DOUBLE_EQ(*t.mean, 340e-9 / 3) << "the mean of the rows, not the aggregate's 113.33";
  EXPECT_DOUBLE_EQ(*t.stdev_absolute, 15.275252316519467e-9);
  EXPECT_DOUBLE_EQ(*t.stdev_relative, 15.275252316519467 / (340.0 / 3));
  EXPECT_DOUBLE_EQ(*t.q1, 105e-9);
  EXPECT_DOUBLE_EQ(*t.q3, 120e-9);
  EXPECT_NEAR(*t.iqr_absolute, 15e-9, 1e-20);
  EXPECT_NEAR(*t.iqr_relative, 15.0 / 110, 1e-12);
  EXPECT_FALSE(t.clock_rate_mean.has_value());
}

TEST(GoogleBenchmarkReader, ReadsCpuTimeAndCountersAsExtraMetricsPerRepetition) {
  const ResultFile file = read_fixture();
  const std::vector<ExtraMetric>& extras = file.states[0].extra_metrics;
  ASSERT_EQ(extras.size(), 3u);
  EXPECT_EQ(extras[0].name, "cpu_time");
  EXPECT_EQ(extras[0].unit, "s");
  EXPECT_EQ(extras[0].samples, (std::vector<double>{90 * 1e-9, 100 * 1e-9, 120 * 1e-9}));
  EXPECT_EQ(extras[1].name, "bytes_per_second");
  EXPECT_EQ(extras[1].unit, "B/s");
  EXPECT_EQ(extras[1].direction, Direction::kHigherIsBetter);
  EXPECT_EQ(extras[1].samples, (std::vector<double>{8.0e7, 7.0e7, 6.0e7}));
  EXPECT_EQ(extras[2].name, "hits");
  EXPECT_EQ(extras[2].unit, "");
  EXPECT_EQ(extras[2].direction, Direction::kLowerIsBetter);
  EXPECT_EQ(extras[2].samples, (std::vector<double>{4, 5, 6}));
}

TEST(GoogleBenchmarkReader, FillsTheSummaryFromAggregatesWhenTheFileHasOnlyThose) {
  const ResultFile file = read_fixture();
  const ResultState& state = file.states[1];
  EXPECT_TRUE(state.samples.empty());
  const TimingSummary& t = state.summary;
  EXPECT_EQ(t.mean, 2.5 * 1e-6);
  EXPECT_EQ(t.median, 2.25 * 1e-6);
  EXPECT_EQ(t.stdev_absolute, 0.5 * 1e-6);
  EXPECT_EQ(t.stdev_relative, 0.2) << "cv is a fraction, not a time";
  EXPECT_EQ(t.sample_size, 5);
  EXPECT_FALSE(t.min.has_value());
  EXPECT_FALSE(t.q1.has_value());
  ASSERT_EQ(state.extra_metrics.size(), 2u);
  EXPECT_EQ(state.extra_metrics[0].name, "cpu_time");
  EXPECT_EQ(state.extra_metrics[0].samples, std::vector<double>{2.0 * 1e-6});
  EXPECT_EQ(state.extra_metrics[1].name, "items_per_second");
  EXPECT_EQ(state.extra_metrics[1].unit, "items/s");
  EXPECT_EQ(state.extra_metrics[1].samples, std::vector<double>{1.5e6});
}

TEST(GoogleBenchmarkReader, MarksErrorAndSkipRowsAsSkippedStates) {
  const ResultFile file = read_fixture();
  EXPECT_TRUE(file.states[2].skipped);
  EXPECT_EQ(file.states[2].skip_reason, "could not open device");
  EXPECT_TRUE(file.states[2].samples.empty());
  EXPECT_TRUE(file.states[3].skipped);
  EXPECT_EQ(file.states[3].skip_reason, "needs AVX-512");
  EXPECT_FALSE(file.states[0].skipped);
}

TEST(GoogleBenchmarkReader, DropsNonFiniteSamplesAndComplexityRowsWithWarnings) {
  const ResultFile file = read_fixture();
  const ResultState& odd = file.states[4];
  EXPECT_EQ(odd.samples, std::vector<double>{3 * 1e-3});
  ASSERT_EQ(odd.extra_metrics.size(), 2u);
  EXPECT_EQ(odd.extra_metrics[0].samples, (std::vector<double>{2 * 1e-3, 2.5 * 1e-3}));
  EXPECT_EQ(odd.extra_metrics[1].name, "ratio");
  EXPECT_EQ(odd.extra_metrics[1].samples, std::vector<double>{0.5});
  const std::string name = ingest_fixture("gbench_repetitions.json").string();
  EXPECT_EQ(file.warnings,
            (std::vector<std::string>{
                name + ": benchmarks[11].real_time: NaN is not a measurement; sample dropped",
                name + ": benchmarks[11].ratio: Infinity is not a measurement; sample dropped",
                name + ": benchmarks[13]: the complexity row BM_Complexity_BigO is not a timing; "
                       "skipped",
                name + ": benchmarks[14]: the complexity row BM_Complexity_RMS is not a timing; "
                       "skipped"}));
}

TEST(GoogleBenchmarkReader, ReadsTheOlderLayoutWithoutRunNamesOrRunTypes) {
  const TempDir dir;
  const auto path = dir.write("old.json", R"({"context": {}, "benchmarks": [
    {"name": "BM_A", "iterations": 10, "real_time": 2, "cpu_time": 1, "time_unit": "us"},
    {"name": "BM_A", "iterations": 10, "real_time": 4, "cpu_time": 1}]})");
  const ResultFile file = read_result_file(path);
  ASSERT_EQ(file.states.size(), 1u);
  EXPECT_EQ(file.states[0].samples, (std::vector<double>{2 * 1e-6, 4 * 1e-9}))
      << "a row without time_unit is in nanoseconds";
}

TEST(GoogleBenchmarkReader, TakesAnAggregateRowWithoutAnAggregateNameAsOneMeasurement) {
  const TempDir dir;
  const auto path = dir.write("unnamed.json", R"({"context": {}, "benchmarks": [
    {"name": "BM_One", "run_type": "aggregate", "iterations": 1000, "real_time": 10,
     "cpu_time": 100, "time_unit": "ns"},
    {"name": "BM_One", "run_type": "aggregate", "aggregate_name": "mean", "iterations": 3,
     "real_time": 99, "time_unit": "ns"}]})");
  const ResultFile file = read_result_file(path);
  ASSERT_EQ(file.states.size(), 1u);
  EXPECT_EQ(file.states[0].samples, (std::vector<double>{10 * 1e-9}));
  EXPECT_EQ(file.states[0].summary.median, 10 * 1e-9) << "named aggregates beside it are ignored";
}

TEST(GoogleBenchmarkReader, RejectsMalformedRowsNamingTheJsonPath) {
  const TempDir dir;
  const auto unit = dir.write("unit.json", R"({"context": {}, "benchmarks": [
    {"name": "BM_A", "real_time": 2, "time_unit": "fortnights"}]})");
  EXPECT_EQ(error_message([&] { read_result_file(unit); })
                .rfind(unit.string() + ": benchmarks[0].time_unit: is \"fortnights\", but Google "
                                       "Benchmark writes ns, us, ms or s. ",
                       0),
            0u);
  const auto text = dir.write("text.json", R"({"context": {}, "benchmarks": [
    {"name": "BM_A", "real_time": 2}, {"name": "BM_A", "real_time": "2"}]})");
  EXPECT_EQ(error_message([&] { read_result_file(text); })
                .rfind(text.string() +
                           ": benchmarks[1].real_time: expected a number, found a string. Write "
                           "the file with --benchmark_out=FILE",
                       0),
            0u);
  const auto missing =
      dir.write("missing.json", R"({"context": {}, "benchmarks": [{"name": "A"}]})");
  EXPECT_NE(error_message([&] {
              read_result_file(missing);
            }).find(": benchmarks[0].real_time: missing. "),
            std::string::npos);
  const auto huge = dir.write(
      "huge.json", R"({"context": {}, "benchmarks": [{"name": "A", "real_time": 1e999}]})");
  EXPECT_NE(error_message([&] {
              read_result_file(huge);
            }).find(huge.string() + ":1:59: number overflow parsing '1e999'. "),
            std::string::npos);
  const auto rows = dir.write("rows.json", R"({"context": {}, "benchmarks": {}})");
  EXPECT_NE(error_message([&] {
              read_result_file(rows, ResultFormat::kGoogleBenchmark);
            }).find(": benchmarks: expected an array, found an object. "),
            std::string::npos);
  const auto forced = dir.write("forced.json", R"({"results": []})");
  EXPECT_NE(error_message([&] {
              read_result_file(forced, ResultFormat::kGoogleBenchmark);
            }).find(forced.string() + ": benchmarks: missing. "),
            std::string::npos);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::ingest
