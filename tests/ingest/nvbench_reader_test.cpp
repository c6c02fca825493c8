#include <gtest/gtest.h>

#include <cmath>

#include "ingest/reader_test_support.hpp"
#include "ingest/result_file.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::ingest {
namespace PERFGATE_TEST_FILE {

ResultFile read_fixture() {
  return read_result_file(ingest_fixture("nvbench_axes.json"));
}

// A one-state nvbench document whose first state's summaries are `summaries`.
std::string document_with_summaries(const std::string& summaries) {
  return R"({"devices": [{"id": 0, "name": "GPU"}], "benchmarks": [{"name": "b", "devices": [0],
    "states": [{"name": "Device=0 N=1", "device": 0, "axis_values": [{"name": "N", "type": "int64", "value": "1"}],
    "summaries": )" +
         summaries + R"(, "is_skipped": false}]}]})";
}

std::string bulk_summary(const std::string& tag, const std::string& file, const std::string& size) {
  return R"({"tag": ")" + tag + R"(", "data": [{"name": "filename", "type": "string", "value": ")" +
         file + R"("}, {"name": "size", "type": "int64", "value": ")" + size + R"("}]})";
}

const std::string kTimesTag = "nv/json/bin:nv/cold/sample_times";
const std::string kFrequenciesTag = "nv/json/freqs-bin:nv/cold/sample_freqs";

TEST(NvbenchReader, ReadsDevicesAndBenchmarksInFileOrder) {
  const ResultFile file = read_fixture();
  EXPECT_EQ(file.format, ResultFormat::kNvbench);
  ASSERT_EQ(file.devices.size(), 2u);
  EXPECT_EQ(file.devices[0].id, 0);
  EXPECT_EQ(file.devices[0].name, "NVIDIA H100");
  EXPECT_EQ(file.devices[1].id, 1);
  EXPECT_EQ(file.devices[1].name, "NVIDIA L40S");
  ASSERT_EQ(file.benchmarks.size(), 3u);
  EXPECT_EQ(file.benchmarks[0].name, "copy_type_sweep");
  EXPECT_EQ(file.benchmarks[0].devices, (std::vector<long long>{0, 1}));
  EXPECT_EQ(file.benchmarks[1].name, "simple");
  EXPECT_EQ(file.benchmarks[2].name, "duration_sweep");
  EXPECT_EQ(file.context.at("argv").at(1), "--jsonbin");
  EXPECT_TRUE(file.warnings.empty());
}

TEST(NvbenchReader, KeysStatesByTheirNameWithoutTheDevicePrefix) {
  const ResultFile file = read_fixture();
  ASSERT_EQ(file.states.size(), 5u);
  const std::vector<std::string> keys = {"T=U8", "T=F32", "T=U8", "", "Duration=0.0001 Items=256"};
  const std::vector<long long> devices = {0, 0, 1, 0, 0};
  const std::vector<std::string> benchmarks = {"copy_type_sweep", "copy_type_sweep",
                                               "copy_type_sweep", "simple", "duration_sweep"};
  for (std::size_t i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(file.states[i].state_key, keys[i]) << i;
    EXPECT_EQ(file.states[i].device, devices[i]) << i;
    EXPECT_EQ(file.states[i].benchmark, benchmarks[i]) << i;
    EXPECT_EQ(file.states[i].timing_name, "gpu_time") << i;
  }
}

TEST(NvbenchReader, KeepsAxisValuesAsTheTextTheFileWrites) {
  const ResultFile file = read_fixture();
  using Axes = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(file.states[0].axis_values, (Axes{{"T", "U8"}}));
  EXPECT_EQ(file.states[3].axis_values, Axes{});
  EXPECT_EQ(file.states[4].axis_values, (Axes{{"Duration", "0.0001"}, {"Items", "256"}}));
}

TEST(NvbenchReader, ReadsEveryColdGpuSummaryWrittenAsText) {
  const ResultFile file = read_fixture();
  const TimingSummary& t = file.states[0].summary;
  EXPECT_EQ(t.sample_size, 1000);
  EXPECT_EQ(t.min, 0.00001);
  EXPECT_EQ(t.max, 0.000016);
  EXPECT_EQ(t.mean, 0.000011);
  EXPECT_EQ(t.stdev_absolute, 0.0000005);
  EXPECT_EQ(t.stdev_relative, 0.045454545454545456);
  EXPECT_EQ(t.q1, 0.0000105);
  EXPECT_EQ(t.median, 0.0000108);
  EXPECT_EQ(t.q3, 0.0000112);
  EXPECT_EQ(t.iqr_absolute, 0.0000007);
  EXPECT_EQ(t.iqr_relative, 0.06481481481481481);
  EXPECT_EQ(t.clock_rate_mean, 1755000000.0);
}

TEST(NvbenchReader, ReadsCpuTimeBatchTimeBandwidthAndItemRateAsExtraMetrics) {
  const ResultFile file = read_fixture();
  const std::vector<ExtraMetric>& extras = file.states[0].extra_metrics;
  ASSERT_EQ(extras.size(), 4u);
  EXPECT_EQ(extras[0].name, "cpu_time");
  EXPECT_EQ(extras[0].unit, "s");
  EXPECT_EQ(extras[0].direction, Direction::kLowerIsBetter);
  EXPECT_EQ(extras[0].samples, std::vector<double>{0.0000125});
  EXPECT_EQ(extras[1].name, "batch_gpu_time");
  EXPECT_EQ(extras[1].samples, std::vector<double>{0.0000102});
  EXPECT_EQ(extras[2].name, "global_bandwidth");
  EXPECT_EQ(extras[2].unit, "B/s");
  EXPECT_EQ(extras[2].direction, Direction::kHigherIsBetter);
  EXPECT_EQ(extras[2].samples, std::vector<double>{2.5e12});
  EXPECT_EQ(extras[3].name, "item_rate");
  EXPECT_EQ(extras[3].direction, Direction::kHigherIsBetter);
  EXPECT_EQ(extras[3].samples, std::vector<double>{1.25e12});
}

TEST(NvbenchReader, AcceptsJsonNumbersLegacyIrSummariesAndNullNoise) {
  const ResultFile file = read_fixture();
  const ResultState& state = file.states[1];
  const TimingSummary& t = state.summary;
  EXPECT_EQ(t.sample_size, 500);
  EXPECT_EQ(t.mean, 0.00002);
  ASSERT_TRUE(t.stdev_relative.has_value());
  EXPECT_TRUE(std::isinf(*t.stdev_relative)) << "nvbench writes unbounded noise as null";
  EXPECT_EQ(t.iqr_absolute, 0.000001);
  EXPECT_EQ(t.iqr_relative, 0.05);
  EXPECT_FALSE(t.min.has_value());
  EXPECT_FALSE(t.median.has_value());
  EXPECT_FALSE(t.clock_rate_mean.has_value());
  EXPECT_TRUE(state.extra_metrics.empty());
  EXPECT_FALSE(state.bulk_times.has_value());
}

TEST(NvbenchReader, MarksSkippedStatesWithTheirReasonAndNoSummary) {
  const ResultFile file = read_fixture();
  const ResultState& state = file.states[2];
  EXPECT_TRUE(state.skipped);
  EXPECT_EQ(state.skip_reason, "Not enough shared memory.");
  EXPECT_FALSE(state.summary.mean.has_value());
  EXPECT_FALSE(state.summary.sample_size.has_value());
  EXPECT_FALSE(read_fixture().states[0].skipped);
}

TEST(NvbenchReader, NamesBulkFilesWithoutOpeningThem) {
  const ResultFile file = read_fixture();
  const ResultState& state = file.states[0];
  ASSERT_TRUE(state.bulk_times.has_value());
  EXPECT_EQ(state.bulk_times->written_name, "result.json-bin/0.bin");
  EXPECT_EQ(state.bulk_times->path, ingest_fixture("result.json-bin/0.bin"));
  EXPECT_EQ(state.bulk_times->count, 1000u);
  ASSERT_TRUE(state.bulk_frequencies.has_value());
  EXPECT_EQ(state.bulk_frequencies->written_name, "result.json-freqs-bin/0.bin");
  EXPECT_EQ(state.bulk_frequencies->count, 1000u);
}

TEST(NvbenchReader, DropsBulkFilesWhoseCountsDisagreeWithAWarning) {
  const TempDir dir;
  const auto path = dir.write(
      "r.json", document_with_summaries("[" + bulk_summary(kTimesTag, "r.json-bin/0.bin", "10") +
                                        ", " + bulk_summary(kFrequenciesTag, "f.bin", "12") + "]"));
  const ResultFile file = read_result_file(path);
  EXPECT_FALSE(file.states[0].bulk_times.has_value());
  EXPECT_FALSE(file.states[0].bulk_frequencies.has_value());
  ASSERT_EQ(file.warnings.size(), 1u);
  EXPECT_EQ(file.warnings[0], path.string() +
                                  ": benchmarks[0].states[0].summaries: the sample times hold 10 "
                                  "values but the sample frequencies 12; the state falls back to "
                                  "its summaries");
}

TEST(NvbenchReader, WarnsAboutANegativeBulkSizeAndFallsBackToSummaries) {
  const TempDir dir;
  const auto path = dir.write(
      "r.json", document_with_summaries("[" + bulk_summary(kTimesTag, "t.bin", "-4") + "]"));
  const ResultFile file = read_result_file(path);
  EXPECT_FALSE(file.states[0].bulk_times.has_value());
  ASSERT_EQ(file.warnings.size(), 1u);
  EXPECT_EQ(file.warnings[0], path.string() +
                                  ": benchmarks[0].states[0].summaries[0]: the bulk file t.bin "
                                  "states a negative size (-4); the state falls back to its "
                                  "summaries");
}

TEST(NvbenchReader, FindsBulkFilesBesideTheJsonThenInTheFolderAbove) {
  const TempDir dir;
  const auto path = dir.write(
      "out/r.json", document_with_summaries("[" + bulk_summary(kTimesTag, "out/0.bin", "1") + ", " +
                                            bulk_summary(kFrequenciesTag, "f.bin", "1") + "]"));
  dir.write("out/0.bin", "abcd");  // only reachable from the folder above
  dir.write("out/f.bin", "abcd");  // beside the JSON
  dir.write("f.bin", "abcd");      // also above, but beside wins
  const ResultFile file = read_result_file(path);
  EXPECT_EQ(file.states[0].bulk_times->path, dir.path() / "out/0.bin");
  EXPECT_EQ(file.states[0].bulk_frequencies->path, dir.path() / "out/f.bin");
}

TEST(NvbenchReader, FindsBulkFilesOfAMovedResultFolderByTheirSidecarName) {
  const TempDir dir;
  const auto path = dir.write(
      "moved/r.json", document_with_summaries(
                          "[" + bulk_summary(kTimesTag, "/old/place/r.json-bin/0.bin", "1") + ", " +
                          bulk_summary(kFrequenciesTag, "old/r.json-freqs-bin/0.bin", "1") + "]"));
  dir.write("moved/r.json-freqs-bin/0.bin", "abcd");
  const ResultFile file = read_result_file(path);
  EXPECT_EQ(file.states[0].bulk_times->path, "/old/place/r.json-bin/0.bin")
      << "an absolute name is used as it is";
  EXPECT_EQ(file.states[0].bulk_frequencies->path, dir.path() / "moved/r.json-freqs-bin/0.bin");
}

TEST(NvbenchReader, RejectsASummaryValueThatIsNotANumberNamingItsJsonPath) {
  const TempDir dir;
  const auto path = dir.write(
      "r.json",
      document_with_summaries(
          R"([{"tag": "nv/cold/time/gpu/mean", "data": [{"name": "value", "type": "float64", "value": "0.1"}]},
              {"tag": "nv/cold/time/gpu/median", "data": [{"name": "value", "type": "float64", "value": "fast"}]}])"));
  const std::string message = error_message([&] { read_result_file(path); });
  EXPECT_EQ(message.rfind(path.string() + ": benchmarks[0].states[0].summaries[1].data[0].value: "
                                          "\"fast\" is not a number. ",
                          0),
            0u)
      << message;
}

TEST(NvbenchReader, RejectsHostileValuesWithoutCrashing) {
  const TempDir dir;
  const auto huge = dir.write(
      "huge.json",
      document_with_summaries(
          R"([{"tag": "nv/cold/time/gpu/mean", "data": [{"name": "value", "type": "float64", "value": "1e999"}]}])"));
  EXPECT_NE(error_message([&] {
              read_result_file(huge);
            }).find("summaries[0].data[0].value: \"1e999\" is out of range for a 64-bit float"),
            std::string::npos);
  const auto size = dir.write(
      "size.json", document_with_summaries(
                       "[" + bulk_summary(kTimesTag, "t.bin", "99999999999999999999") + "]"));
  EXPECT_NE(error_message([&] {
              read_result_file(size);
            }).find("summaries[0].data[1].value: \"99999999999999999999\" is out of range"),
            std::string::npos);
  const auto type = dir.write(
      "type.json",
      document_with_summaries(
          R"([{"tag": "nv/cold/time/gpu/mean", "data": [{"name": "value", "type": "string", "value": "1"}]}])"));
  EXPECT_NE(error_message([&] {
              read_result_file(type);
            }).find("summaries[0].data[0].type: is \"string\", but this summary must be"),
            std::string::npos);
  const auto negative = dir.write(
      "negative.json",
      document_with_summaries(
          R"([{"tag": "nv/cold/sample_size", "data": [{"name": "value", "type": "int64", "value": "-3"}]}])"));
  EXPECT_NE(error_message([&] {
              read_result_file(negative);
            }).find("summaries[0]: the sample size is negative (-3)"),
            std::string::npos);
  const auto datum =
      dir.write("datum.json",
                document_with_summaries(
                    R"([{"tag": "nv/cold/time/gpu/q1", "data": [{"name": "v", "value": "1"}]}])"));
  EXPECT_NE(error_message([&] {
              read_result_file(datum);
            }).find("summaries[0].data: has no datum named \"value\". "),
            std::string::npos);
  const auto flag = dir.write(
      "flag.json",
      document_with_summaries(
          R"([{"tag": "nv/cold/time/gpu/q1", "data": [{"name": "value", "value": true}]}])"));
  EXPECT_NE(error_message([&] { read_result_file(flag); })
                .find("summaries[0].data[0].value: expected a number (nvbench writes numbers as "
                      "text), found a boolean. "),
            std::string::npos);
  const auto object = dir.write("object.json", document_with_summaries(R"({"tag": 1})"));
  EXPECT_NE(error_message([&] {
              read_result_file(object);
            }).find("benchmarks[0].states[0].summaries: expected an array, found an object"),
            std::string::npos);
}

TEST(NvbenchReader, NamesTheMissingKeyWhenTheFormatIsForced) {
  const TempDir dir;
  const auto path = dir.write("r.json", R"({"benchmarks": []})");
  const std::string message =
      error_message([&] { read_result_file(path, ResultFormat::kNvbench); });
  EXPECT_EQ(message.rfind(path.string() + ": devices: missing. ", 0), 0u) << message;
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::ingest
