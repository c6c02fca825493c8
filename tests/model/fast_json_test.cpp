#include "model/fast_json.hpp"

#include <gtest/gtest.h>

#include <string>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(FastJson, GivesTheSameDocumentAsTheStrictParser) {
  const std::string text = R"({"a": [1, -2, 3.5, 1e-3, 18446744073709551615, true, false, null],
    "s": "ünïcode \"quoted\" \\ \n", "o": {"nested": {"x": []}}, "empty": {}})";
  EXPECT_EQ(parse_json_fast(text), Json::parse(text));
}

TEST(FastJson, KeepsTheLastOfDuplicateKeysAsTheStrictParserDoes) {
  EXPECT_EQ(parse_json_fast(R"({"k": 1, "k": 2})"), Json({{"k", 2}}));
}

TEST(FastJson, RefusesWhatIsNotJson) {
  EXPECT_EQ(parse_json_fast(""), std::nullopt);
  EXPECT_EQ(parse_json_fast("{\"a\": "), std::nullopt);
  EXPECT_EQ(parse_json_fast("[1e400]"), std::nullopt) << "beyond a double";
  EXPECT_EQ(parse_json_fast("{\"a\": NaN}"), std::nullopt);
  EXPECT_EQ(parse_json_fast("\"\xff\xfe\""), std::nullopt) << "not UTF-8";
  EXPECT_EQ(parse_json_fast(std::string(5000, '[') + std::string(5000, ']')), std::nullopt)
      << "deeper than 1,024 levels";
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
