#include "measure/metrics_file.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {

namespace PERFGATE_TEST_FILE {

// The message of the Error that reading a metrics file made of `line` throws.
std::string error_for(const TempDir& dir, const std::string& line) {
  const auto path = dir.write("metrics.jsonl", "\n" + line + "\n");
  try {
    read_metrics_file(path);
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    const std::string prefix = path.string() + ":2: ";
    const std::string message = error.what();
    EXPECT_EQ(message.substr(0, prefix.size()), prefix);
    return message.substr(prefix.size());
  }
  ADD_FAILURE() << "no error for " << line;
  return "";
}

TEST(MetricsFile, ReadsEveryLineInFileOrder) {
  const TempDir dir;
  const auto path = dir.write(
      "metrics.jsonl", R"({"name": "decode", "value": 1.5, "unit": "s"})"
                       "\n\n   \n"
                       R"({"name": "frames", "value": 120, "direction": "higher"})"
                       "\n"
                       R"({"value": -2e-3, "name": "skew", "unit": "", "direction": "lower"})");
  const std::vector<ReportedMetric> expected{
      {"decode", 1.5, "s", std::nullopt},
      {"frames", 120, std::nullopt, Direction::kHigherIsBetter},
      {"skew", -0.002, "", Direction::kLowerIsBetter},
  };
  EXPECT_EQ(read_metrics_file(path), expected);
}

TEST(MetricsFile, AMissingFileMeansNothingWasReported) {
  const TempDir dir;
  EXPECT_TRUE(read_metrics_file(dir / "metrics.jsonl").empty());
}

TEST(MetricsFile, RejectsALineThatIsNotJson) {
  const TempDir dir;
  EXPECT_EQ(error_for(dir, R"({"name": "decode", value: 1})"),
            R"(not valid JSON at column 20. Write one JSON object per line, e.g. )"
            R"({"name": "decode", "value": 1.5, "unit": "s"})");
}

TEST(MetricsFile, RejectsALineThatIsNotAnObject) {
  const TempDir dir;
  EXPECT_EQ(error_for(dir, R"(["decode", 1.5])"),
            R"(expected a JSON object, found array. Write one JSON object per line, e.g. )"
            R"({"name": "decode", "value": 1.5, "unit": "s"})");
}

TEST(MetricsFile, RejectsAnUnknownKey) {
  const TempDir dir;
  EXPECT_EQ(error_for(dir, R"({"name": "decode", "value": 1.5, "units": "s"})"),
            R"(unknown key "units". Use only the keys name, value, unit and direction)");
}

TEST(MetricsFile, RejectsAMissingEmptyOrNonStringName) {
  const TempDir dir;
  const std::string expected =
      R"("name" must be a non-empty string. Name the metric, e.g. "name": "decode")";
  EXPECT_EQ(error_for(dir, R"({"value": 1.5})"), expected);
  EXPECT_EQ(error_for(dir, R"({"name": "", "value": 1.5})"), expected);
  EXPECT_EQ(error_for(dir, R"({"name": 7, "value": 1.5})"), expected);
}

TEST(MetricsFile, RejectsAMissingOrNonNumericValue) {
  const TempDir dir;
  const std::string expected =
      R"("value" of "decode" must be a number. Report the measured number, e.g. "value": 1.5)";
  EXPECT_EQ(error_for(dir, R"({"name": "decode"})"), expected);
  EXPECT_EQ(error_for(dir, R"({"name": "decode", "value": "1.5"})"), expected);
  EXPECT_EQ(error_for(dir, R"({"name": "decode", "value": null})"), expected);
}

TEST(MetricsFile, RejectsANumberTooLargeToBeFinite) {
  const TempDir dir;
  EXPECT_EQ(error_for(dir, R"({"name": "decode", "value": 1e999})"),
            "a number is out of range. Write finite numbers only");
}

TEST(MetricsFile, RejectsAUnitThatIsNotAString) {
  const TempDir dir;
  EXPECT_EQ(error_for(dir, R"({"name": "decode", "value": 1.5, "unit": 1})"),
            R"("unit" of "decode" must be a string. Write the unit as text, e.g. "unit": "s", )"
            R"(or leave it out)");
}

TEST(MetricsFile, RejectsAnUnknownDirection) {
  const TempDir dir;
  const std::string fix = ". Say which way is better, or leave it out";
  EXPECT_EQ(error_for(dir, R"({"name": "decode", "value": 1.5, "direction": "up"})"),
            R"("direction" of "decode" must be "lower" or "higher", found "up")" + fix);
  EXPECT_EQ(error_for(dir, R"({"name": "decode", "value": 1.5, "direction": true})"),
            R"("direction" of "decode" must be "lower" or "higher", found true)" + fix);
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
