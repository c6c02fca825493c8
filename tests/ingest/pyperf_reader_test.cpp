#include <gtest/gtest.h>
#include <zlib.h>

#include <stdexcept>

#include "ingest/reader_test_support.hpp"
#include "ingest/result_file.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::ingest {
namespace PERFGATE_TEST_FILE {

const char* const kSuite = R"({
  "version": "1.0",
  "metadata": {"python_version": "3.11.4", "unit": "second", "loops": 8},
  "benchmarks": [
    {"metadata": {"name": "json_dumps"},
     "runs": [
       {"metadata": {"calibrate_loops": 8}, "warmups": [[1, 0.5], [2, 0.3]]},
       {"metadata": {"date": "2026-05-08"}, "warmups": [[8, 0.011]], "values": [0.010, 0.012, 0.011]},
       {"warmups": [[8, 0.011]], "values": [0.013, 0.009]},
       {"metadata": {"recalibrate_loops": 16}, "values": [0.5]}
     ]},
    {"metadata": {"name": "alloc_size", "unit": "byte"},
     "runs": [{"values": [1024, 2048]}]}
  ]
})";

// `text` compressed as a gzip file, as pyperf writes *.json.gz.
std::string gzip(const std::string& text) {
  z_stream stream{};
  if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    throw std::runtime_error("deflateInit2 failed");
  }
  std::string out(deflateBound(&stream, text.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int status = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  if (status != Z_STREAM_END) throw std::runtime_error("deflate failed");
  return out;
}

void expect_suite(const ResultFile& file) {
  EXPECT_EQ(file.format, ResultFormat::kPyperf);
  ASSERT_EQ(file.states.size(), 2u);
  const ResultState& dumps = file.states[0];
  EXPECT_EQ(dumps.benchmark, "json_dumps");
  EXPECT_EQ(dumps.state_key, "");
  EXPECT_EQ(dumps.timing_name, "wall_time");
  EXPECT_EQ(dumps.samples, (std::vector<double>{0.010, 0.012, 0.011, 0.013, 0.009}))
      << "calibration runs and warmups are left out";
  EXPECT_EQ(dumps.summary.sample_size, 5);
  EXPECT_EQ(dumps.summary.min, 0.009);
  EXPECT_EQ(dumps.summary.max, 0.013);
  EXPECT_EQ(dumps.summary.median, 0.011);
  EXPECT_DOUBLE_EQ(*dumps.summary.mean, 0.011);
  EXPECT_EQ(dumps.summary.q1, 0.010);
  EXPECT_EQ(dumps.summary.q3, 0.012);
  const ResultState& alloc = file.states[1];
  EXPECT_EQ(alloc.benchmark, "alloc_size");
  EXPECT_EQ(alloc.timing_name, "byte");
  EXPECT_EQ(alloc.samples, (std::vector<double>{1024, 2048}));
  ASSERT_EQ(file.benchmarks.size(), 2u);
  EXPECT_EQ(file.benchmarks[1].name, "alloc_size");
  EXPECT_EQ(file.context.at("python_version"), "3.11.4");
}

TEST(PyperfReader, ReadsTheValuesOfMeasuredRunsWithInheritedMetadata) {
  const TempDir dir;
  expect_suite(read_result_file(dir.write("suite.json", kSuite)));
}

TEST(PyperfReader, ReadsAGzippedFileWhateverItsName) {
  const TempDir dir;
  expect_suite(read_result_file(dir.write("suite.json.gz", gzip(kSuite))));
  expect_suite(read_result_file(dir.write("suite.data", gzip(kSuite))));
}

TEST(PyperfReader, TakesTheNameFromTheSuiteWhenTheBenchmarkHasNone) {
  const TempDir dir;
  const auto path = dir.write("one.json", R"({"version": "1.0", "metadata": {"name": "startup"},
    "benchmarks": [{"runs": [{"values": [0.5]}]}]})");
  EXPECT_EQ(read_result_file(path).states[0].benchmark, "startup");
}

TEST(PyperfReader, RejectsCorruptGzipData) {
  const TempDir dir;
  std::string data = gzip(kSuite);
  const auto truncated = dir.write("cut.json.gz", data.substr(0, data.size() / 2));
  EXPECT_EQ(error_message([&] { read_result_file(truncated); }),
            truncated.string() +
                ": gzip data is truncated (the compressed stream does not end). Compress the "
                "result file again (gzip FILE), or pass the uncompressed file");
  data[12] = static_cast<char>(data[12] ^ 0xff);
  data[13] = static_cast<char>(data[13] ^ 0xff);
  const auto corrupt = dir.write("bad.json.gz", data);
  EXPECT_NE(error_message([&] { read_result_file(corrupt); }).find(": gzip data is corrupt ("),
            std::string::npos);
  const auto trailing = dir.write("trail.json.gz", gzip(kSuite) + "garbage");
  EXPECT_NE(error_message([&] {
              read_result_file(trailing);
            }).find(": gzip data has trailing bytes after the compressed stream"),
            std::string::npos);
}

TEST(PyperfReader, ReadsConcatenatedGzipMembers) {
  const std::string text = kSuite;
  const TempDir dir;
  const auto path = dir.write("two.json.gz", gzip(text.substr(0, 40)) + gzip(text.substr(40)));
  expect_suite(read_result_file(path));
}

TEST(PyperfReader, RejectsMalformedDocumentsNamingTheJsonPath) {
  const TempDir dir;
  const auto value = dir.write("value.json", R"({"benchmarks": [{"metadata": {"name": "a"},
    "runs": [{"values": [0.1, "fast"]}]}]})");
  EXPECT_EQ(error_message([&] { read_result_file(value); })
                .rfind(value.string() +
                           ": benchmarks[0].runs[0].values[1]: expected a number, found a string. "
                           "Write the file with pyperf",
                       0),
            0u);
  const auto name = dir.write("name.json", R"({"benchmarks": [{"metadata": {}, "runs": []}]})");
  EXPECT_NE(error_message([&] {
              read_result_file(name);
            }).find(": benchmarks[0].metadata.name: missing. "),
            std::string::npos);
  const auto runs =
      dir.write("runs.json", R"({"benchmarks": [{"metadata": {"name": "a"}, "runs": 3}]})");
  EXPECT_NE(error_message([&] {
              read_result_file(runs, ResultFormat::kPyperf);
            }).find(": benchmarks[0].runs: expected an array, found an integer. "),
            std::string::npos);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::ingest
