#include "ingest/result_file.hpp"

#include <gtest/gtest.h>

#include "ingest/reader_test_support.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::ingest {
namespace PERFGATE_TEST_FILE {

TEST(ResultFormatName, RoundTripsEveryFormatSpelling) {
  for (const char* name :
       {"nvbench", "gbench", "hyperfine", "pyperf", "perfgate-raw", "perfgate-normalized"}) {
    const auto format = parse_result_format(name);
    ASSERT_TRUE(format.has_value()) << name;
    EXPECT_EQ(to_string(*format), name);
  }
  EXPECT_FALSE(parse_result_format("google-benchmark").has_value());
}

TEST(ResultFormatName, OnlyNvbenchCarriesAClock) {
  EXPECT_TRUE(format_has_clock(ResultFormat::kNvbench));
  EXPECT_FALSE(format_has_clock(ResultFormat::kGoogleBenchmark));
  EXPECT_FALSE(format_has_clock(ResultFormat::kHyperfine));
  EXPECT_FALSE(format_has_clock(ResultFormat::kPyperf));
  EXPECT_FALSE(format_has_clock(ResultFormat::kPerfgateRaw));
}

TEST(ResultFormatDetection, RecognisesEachFormatByItsKeys) {
  EXPECT_EQ(detect_result_format(Json::parse(R"({"devices": [], "benchmarks": []})")),
            ResultFormat::kNvbench);
  EXPECT_EQ(detect_result_format(Json::parse(R"({"context": {}, "benchmarks": []})")),
            ResultFormat::kGoogleBenchmark);
  EXPECT_EQ(detect_result_format(Json::parse(R"({"results": []})")), ResultFormat::kHyperfine);
  EXPECT_EQ(detect_result_format(Json::parse(R"({"benchmarks": [{"runs": []}]})")),
            ResultFormat::kPyperf);
  EXPECT_EQ(
      detect_result_format(Json::parse(R"({"version": "1.0", "metadata": {}, "benchmarks": []})")),
      ResultFormat::kPyperf);
  EXPECT_EQ(detect_result_format(Json::parse(
                R"({"result_schema_version": 1, "perfgate_version": "0.1", "metrics": {}})")),
            ResultFormat::kPerfgateRaw);
  EXPECT_EQ(detect_result_format(Json::parse(R"({"avg_generation_time_s": 1.0})")),
            ResultFormat::kPerfgateRaw);
  EXPECT_EQ(detect_result_format(Json::parse(R"({"result_schema_version": 3, "metrics": {}})")),
            ResultFormat::kPerfgateNormalized);
  EXPECT_EQ(detect_result_format(Json::parse(R"({"model_id": "m", "latency": 1.0})")),
            ResultFormat::kPerfgateNormalized);
  EXPECT_EQ(detect_result_format(Json::parse(R"([{"result_schema_version": 3, "metrics": {}}])")),
            ResultFormat::kPerfgateNormalized);
}

TEST(ResultFormatDetection, KnowsNothingOfOtherDocuments) {
  EXPECT_FALSE(detect_result_format(Json::parse(R"({"benchmarks": []})")).has_value());
  EXPECT_FALSE(detect_result_format(Json::parse(R"([])")).has_value());
  EXPECT_FALSE(detect_result_format(Json::parse(R"([1, 2])")).has_value());
  EXPECT_FALSE(detect_result_format(Json::parse(R"("text")")).has_value());
}

TEST(ReadResultFile, SaysWhatItFoundAndHowToNameTheFormatForAnUnknownDocument) {
  const TempDir dir;
  const auto path = dir.write("x.json", R"({"zeta": 1, "alpha": [2]})");
  EXPECT_EQ(error_message([&] { read_result_file(path); }),
            path.string() +
                ": not a result file perfgate can read: the top level has the keys alpha, zeta "
                "(expected nvbench, Google Benchmark, hyperfine, pyperf JSON or a perfgate "
                "record). Pass --format-in to say which");
}

TEST(ReadResultFile, ReadsAMappedFileOfAnotherFormatAndReportsAMappedMistake) {
  const TempDir dir;
  std::string hyperfine = R"({"results": [{"command": "a", "mean": 1.5, "times": [1.5]}]})";
  hyperfine.resize(std::size_t{1} << 20, '\n');
  const ResultFile file = read_result_file(dir.write("h.json", hyperfine), std::nullopt);
  EXPECT_EQ(file.format, ResultFormat::kHyperfine);
  ASSERT_EQ(file.states.size(), 1u);
  EXPECT_EQ(file.states[0].benchmark, "a");

  std::string broken = R"({"results": [)";
  broken.resize(std::size_t{1} << 21, ' ');
  const auto path = dir.write("b.json", broken);
  const std::string message = error_message([&] { read_result_file(path, std::nullopt); });
  // The same error as a file that is read: where in the mapped text the JSON broke off.
  EXPECT_EQ(message.rfind(path.string() + ":1:2097153: syntax error while parsing value", 0), 0u)
      << message;
}

TEST(ReadResultFile, ReportsAMissingFileAsNoInput) {
  const TempDir dir;
  EXPECT_EQ(error_message([&] { read_result_file(dir / "none.json"); }, ExitCode::kNoInput),
            (dir / "none.json").string() +
                ": cannot read: No such file or directory. Check the path and its permissions");
}

TEST(ReadResultFile, ReportsAFolderAsNoInput) {
  const TempDir dir;
  EXPECT_NE(error_message([&] { read_result_file(dir.path()); }, ExitCode::kNoInput)
                .find(": cannot read: it is a folder"),
            std::string::npos);
}

TEST(ReadResultFile, ReportsAnEmptyFileAsMalformed) {
  const TempDir dir;
  const auto path = dir.write("empty.json", "");
  EXPECT_EQ(error_message([&] {
              read_result_file(path);
            }).rfind(path.string() + ": the file is empty", 0),
            0u);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::ingest
