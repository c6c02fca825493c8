#include "ingest/json_text.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "ingest/reader_test_support.hpp"

namespace perfgate::ingest {
namespace PERFGATE_TEST_FILE {

TEST(ResultJsonText, ParsesBareNonFiniteTokensOutsideStrings) {
  const Json json = parse_result_json(
      R"({"a": NaN, "b": Infinity, "c": -Infinity, "d": [1, NaN], "e": "NaN Infinity", "f": -2})",
      "x.json");
  EXPECT_TRUE(std::isnan(json.at("a").get<double>()));
  EXPECT_EQ(json.at("b").get<double>(), INFINITY);
  EXPECT_EQ(json.at("c").get<double>(), -INFINITY);
  EXPECT_TRUE(std::isnan(json.at("d").at(1).get<double>()));
  EXPECT_EQ(json.at("e"), "NaN Infinity") << "text inside strings stays as it is";
  EXPECT_EQ(json.at("f"), -2);
}

TEST(ResultJsonText, ReportsASyntaxErrorAtItsLineAndColumn) {
  const std::string message =
      error_message([] { parse_result_json("{\n  \"a\": 1,\n  \"b\": tru\n}", "r.json"); });
  EXPECT_EQ(message.rfind("r.json:3:", 0), 0u) << message;
  EXPECT_NE(message.find("syntax error"), std::string::npos) << message;
}

TEST(ResultJsonText, ReportsPositionsOfTheOriginalTextAfterRewritingTokens) {
  const std::string message =
      error_message([] { parse_result_json("[NaN, NaN,\n NaN, }", "r.json"); });
  EXPECT_EQ(message.rfind("r.json:2:7: ", 0), 0u) << message;
}

TEST(ResultJsonText, RejectsAnEmptyFile) {
  EXPECT_EQ(error_message([] {
              parse_result_json(" \n", "r.json");
            }).rfind("r.json: the file is empty. ", 0),
            0u);
}

TEST(ResultJsonText, RejectsATruncatedFile) {
  const std::string message =
      error_message([] { parse_result_json(R"({"benchmarks": [{"name": "a")", "r.json"); });
  EXPECT_EQ(message.rfind("r.json:1:", 0), 0u) << message;
  EXPECT_NE(message.find("finished writing the file"), std::string::npos) << message;
}

TEST(ResultJsonText, RefusesNestingDeeperThanTheLimitWithoutCrashing) {
  const std::string deep(100000, '[');
  const std::string message = error_message([&] { parse_result_json(deep, "deep.json"); });
  EXPECT_EQ(message.rfind("deep.json:1:513: nesting deeper than 512 levels", 0), 0u) << message;
  const std::string allowed = std::string(512, '[') + std::string(512, ']');
  EXPECT_TRUE(parse_result_json(allowed, "ok.json").is_array());
}

TEST(ResultJsonText, ReportsANumberBeyondADoubleAtItsPosition) {
  EXPECT_EQ(error_message([] { parse_result_json("{\"a\": 1,\n \"b\": -1e999}", "r.json"); }),
            "r.json:2:7: number overflow parsing '-1e999'. Check that the tool finished writing "
            "the file (a crashed run leaves it cut short) and that it is the tool's JSON output");
}

TEST(ResultJsonText, DoesNotTakeWordsThatStartLikeTokensForThem) {
  EXPECT_NE(error_message([] { parse_result_json("[NaNa]", "r.json"); }).find("r.json:1:"),
            std::string::npos);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::ingest
