#include "model/indented_json.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "model/json.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

std::string nlohmann_dump(const Json& json) {
  return json.dump(2, ' ', false, Json::error_handler_t::replace);
}

TEST(IndentedJsonWriter, LaysOutNestedContainersAsNlohmannDumpsThem) {
  std::string out;
  IndentedJsonWriter w(out);
  w.begin_object();
  w.key("a").begin_array().value(1).value(std::uint64_t{2}).begin_object().end_object();
  w.begin_array().end_array().begin_array().value(false).end_array().end_array();
  w.key("b").value(true).key("c").null().key("d").value("text");
  w.key("e").begin_object().key("y").begin_object().key("z").value(-3).end_object().end_object();
  w.end_object();
  const Json same = {{"a", {1, 2, Json::object(), Json::array(), {false}}},
                     {"b", true},
                     {"c", nullptr},
                     {"d", "text"},
                     {"e", {{"y", {{"z", -3}}}}}};
  EXPECT_EQ(out, nlohmann_dump(same));
  EXPECT_EQ(out,
            "{\n  \"a\": [\n    1,\n    2,\n    {},\n    [],\n    [\n      false\n    ]\n  ],\n"
            "  \"b\": true,\n  \"c\": null,\n  \"d\": \"text\",\n  \"e\": {\n    \"y\": {\n"
            "      \"z\": -3\n    }\n  }\n}");
}

TEST(IndentedJsonWriter, WritesAWholeJsonValueAtItsDepthAsNlohmannDumpsIt) {
  const Json nested = {{"z", {1, -2, 3u, 0.5, nullptr, "q\"uote"}},
                       {"a", Json::object()},
                       {"m", {{"k", Json::array()}, {"b", false}}}};
  std::string out;
  IndentedJsonWriter w(out);
  w.begin_object().key("first").value(1).key("inner").json(nested).end_object();
  EXPECT_EQ(out, nlohmann_dump({{"first", 1}, {"inner", nested}}));
  std::string alone;
  IndentedJsonWriter(alone).json(nested);
  EXPECT_EQ(alone, nlohmann_dump(nested));
  std::string array;
  IndentedJsonWriter(array).begin_array().json(Json::array()).json(nested["z"]).end_array();
  EXPECT_EQ(array, nlohmann_dump({Json::array(), nested["z"]}));
}

TEST(IndentedJsonWriter, WritesEmptyTopLevelContainersOnOneLine) {
  std::string object;
  IndentedJsonWriter(object).begin_object().end_object();
  EXPECT_EQ(object, "{}");
  std::string array;
  IndentedJsonWriter(array).begin_array().end_array();
  EXPECT_EQ(array, "[]");
}

TEST(IndentedJsonWriter, WritesNumbersExactlyAsNlohmann) {
  const std::vector<double> doubles = {0.0,
                                       -0.0,
                                       2.0,
                                       0.1,
                                       1e-05,
                                       1.5e-07,
                                       123456789012345680000.0,
                                       1e15,
                                       1e16,
                                       -2.5e-300,
                                       0.004516040912130847,
                                       std::numeric_limits<double>::max(),
                                       std::numeric_limits<double>::denorm_min(),
                                       std::numeric_limits<double>::quiet_NaN(),
                                       std::numeric_limits<double>::infinity(),
                                       -std::numeric_limits<double>::infinity()};
  std::string out;
  IndentedJsonWriter w(out);
  Json expected = Json::array();
  w.begin_array();
  for (const double value : doubles) {
    w.value(value);
    expected.push_back(value);
  }
  w.value(std::numeric_limits<std::int64_t>::min())
      .value(std::numeric_limits<std::uint64_t>::max());
  expected.push_back(std::numeric_limits<std::int64_t>::min());
  expected.push_back(std::numeric_limits<std::uint64_t>::max());
  w.end_array();
  EXPECT_EQ(out, nlohmann_dump(expected));
  EXPECT_NE(out.find("\n  2.0,\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\n  null,\n  null,\n  null,\n"), std::string::npos) << out;
}

TEST(IndentedJsonWriter, EscapesAndReplacesStringsExactlyAsNlohmann) {
  const std::vector<std::string> texts = {
      "plain",
      "quote \" backslash \\ slash /",
      std::string("controls \b\f\n\r\t \x01\x1f \x7f end"),
      std::string("nul \0 inside", 12),
      "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x94\xB4",  // two-, three- and four-byte sequences
      "truncated \xE2\x82 then text",               // one U+FFFD for the whole sequence
      "lone continuation \x80\xBF",
      "invalid lead \xFF\xFE",
      "overlong \xC0\xAF and surrogate \xED\xA0\x80",
      "ends mid-sequence \xF0\x9F\x94",
      "",
  };
  for (const auto& text : texts) {
    std::string out;
    IndentedJsonWriter w(out);
    w.begin_object().key(text).value(text).end_object();
    EXPECT_EQ(out, nlohmann_dump(Json{{text, text}})) << text;
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
