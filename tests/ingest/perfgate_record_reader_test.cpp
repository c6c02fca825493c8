#include <gtest/gtest.h>

#include "ingest/reader_test_support.hpp"
#include "ingest/result_file.hpp"
#include "model/normalized_record.hpp"
#include "model/raw_record.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::ingest {
namespace PERFGATE_TEST_FILE {

using Axes = std::vector<std::pair<std::string, std::string>>;

MetricSeries series(const std::string& name, std::vector<double> samples) {
  MetricSeries s{*standard_metric(name), std::move(samples), {}};
  s.summary = summarize(s.samples);
  return s;
}

RawRecord raw_record() {
  RawRecord r;
  r.identity.benchmark_id = "sort[n=10,k=2]";
  r.identity.config_benchmark_id = "sort";
  r.identity.parameters = {{"n", "10"}, {"k", "2"}};
  r.perfgate_version = "0.1.0";
  r.num_measurement_runs = 3;
  r.metrics.emplace("latency", series("latency", {0.3, 0.1, 0.2}));
  r.metrics.emplace("memory", series("memory", {12.0, 14.0, 13.0}));
  r.provenance.timestamp = "2026-05-08T22:00:00Z";
  return r;
}

NormalizedRecord normalized_record() {
  NormalizedRecord r;
  r.benchmark_id = "decode[size=4k]";
  r.timestamp = "2026-05-08T22:00:00Z";
  r.metrics["latency"] = MetricValue{0.25, "s", Direction::kLowerIsBetter};
  r.metrics["throughput"] = MetricValue{40.0, "frames/s", Direction::kHigherIsBetter};
  r.comparison_status = kPass;
  return r;
}

TEST(PerfgateRecordReader, ReadsARawRecordWithItsSamples) {
  const TempDir dir;
  const ResultFile file =
      read_result_file(dir.write("perf_sort.json", pretty_json(to_json(raw_record()))));
  EXPECT_EQ(file.format, ResultFormat::kPerfgateRaw);
  ASSERT_EQ(file.states.size(), 1u);
  const ResultState& state = file.states[0];
  EXPECT_EQ(state.benchmark, "sort");
  EXPECT_EQ(state.state_key, "n=10,k=2");
  EXPECT_EQ(state.axis_values, (Axes{{"k", "2"}, {"n", "10"}}));
  EXPECT_EQ(state.timing_name, "latency");
  EXPECT_EQ(state.samples, (std::vector<double>{0.3, 0.1, 0.2}));
  EXPECT_EQ(state.summary.sample_size, 3);
  EXPECT_EQ(state.summary.min, 0.1);
  EXPECT_EQ(state.summary.median, 0.2);
  EXPECT_EQ(state.summary.max, 0.3);
  ASSERT_EQ(state.extra_metrics.size(), 1u);
  EXPECT_EQ(state.extra_metrics[0].name, "memory");
  EXPECT_EQ(state.extra_metrics[0].unit, "MB");
  EXPECT_EQ(state.extra_metrics[0].samples, (std::vector<double>{12.0, 14.0, 13.0}));
  EXPECT_FALSE(state.skipped);
  ASSERT_EQ(file.benchmarks.size(), 1u);
  EXPECT_EQ(file.benchmarks[0].name, "sort");
}

TEST(PerfgateRecordReader, MarksAFailedRawRecordAsSkippedWithItsReason) {
  RawRecord failed = raw_record();
  failed.success = false;
  failed.failure_reason = "exit status 3";
  failed.metrics.clear();
  const TempDir dir;
  const ResultState state =
      read_result_file(dir.write("perf.json", pretty_json(to_json(failed)))).states[0];
  EXPECT_TRUE(state.skipped);
  EXPECT_EQ(state.skip_reason, "exit status 3");
  EXPECT_TRUE(state.samples.empty());
  EXPECT_FALSE(state.summary.mean.has_value());
}

TEST(PerfgateRecordReader, ReadsAnArrayOfRawRecordsAndTheSeedsFlatLayout) {
  const Json seed = Json::parse(R"({"benchmark_id": "video", "device": "L40S",
    "timestamp": "2026-05-08T22:00:00+00:00", "individual_times_s": [19.0, 20.0, 21.0]})");
  const TempDir dir;
  const auto path = dir.write("many.json", pretty_json(Json::array({to_json(raw_record()), seed})));
  const ResultFile file = read_result_file(path);
  EXPECT_EQ(file.format, ResultFormat::kPerfgateRaw);
  ASSERT_EQ(file.states.size(), 2u);
  EXPECT_EQ(file.states[1].benchmark, "video");
  EXPECT_EQ(file.states[1].samples, (std::vector<double>{19.0, 20.0, 21.0}));
  EXPECT_EQ(file.benchmarks.size(), 2u);
}

TEST(PerfgateRecordReader, ReadsANormalisedRecordAsItsLatencyValue) {
  const TempDir dir;
  const ResultFile file =
      read_result_file(dir.write("n.json", pretty_json(to_json(normalized_record()))));
  EXPECT_EQ(file.format, ResultFormat::kPerfgateNormalized);
  ASSERT_EQ(file.states.size(), 1u);
  const ResultState& state = file.states[0];
  EXPECT_EQ(state.benchmark, "decode");
  EXPECT_EQ(state.state_key, "size=4k");
  EXPECT_EQ(state.axis_values, (Axes{{"size", "4k"}}));
  EXPECT_EQ(state.summary.mean, 0.25);
  EXPECT_FALSE(state.summary.median.has_value());
  EXPECT_TRUE(state.samples.empty());
  ASSERT_EQ(state.extra_metrics.size(), 1u);
  EXPECT_EQ(state.extra_metrics[0].name, "throughput");
  EXPECT_EQ(state.extra_metrics[0].direction, Direction::kHigherIsBetter);
  EXPECT_EQ(state.extra_metrics[0].samples, std::vector<double>{40.0});
  ASSERT_EQ(file.warnings.size(), 1u);
  EXPECT_NE(file.warnings[0].find("n.json: normalised records keep one value per metric"),
            std::string::npos)
      << file.warnings[0];
}

TEST(PerfgateRecordReader, ReadsTheSeedsLegacyNormalisedLayout) {
  const TempDir dir;
  const auto path = dir.write(
      "legacy.json",
      R"([{"model_id": "video", "timestamp": "2026-05-08T22:00:00Z", "latency": 2.5, "memory": 900.0}])");
  const ResultFile file = read_result_file(path);
  EXPECT_EQ(file.format, ResultFormat::kPerfgateNormalized);
  EXPECT_EQ(file.states[0].benchmark, "video");
  EXPECT_EQ(file.states[0].summary.mean, 2.5);
}

TEST(PerfgateRecordReader, RejectsMalformedRecordsNamingTheField) {
  Json raw = to_json(raw_record());
  raw["metrics"]["latency"]["samples"][1] = "slow";
  const TempDir dir;
  const auto path = dir.write("bad.json", pretty_json(raw));
  EXPECT_NE(error_message([&] {
              read_result_file(path);
            }).find(path.string() + ": metrics.latency.samples[1]: "),
            std::string::npos);
  Json normalized = to_json(normalized_record());
  normalized["metrics"]["latency"]["value"] = "fast";
  const auto list =
      dir.write("list.json", pretty_json(Json::array({to_json(normalized_record()), normalized})));
  EXPECT_NE(error_message([&] {
              read_result_file(list);
            }).find(list.string() + ": [1].metrics.latency.value: "),
            std::string::npos);
  const auto forced = dir.write("forced.json", R"({"results": []})");
  EXPECT_NE(error_message([&] {
              read_result_file(forced, ResultFormat::kPerfgateRaw);
            }).find(forced.string() + ": result_schema_version: "),
            std::string::npos);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::ingest
