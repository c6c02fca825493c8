#include "probe/json_writer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "model/json.hpp"

namespace perfgate::probe::detail {
namespace PERFGATE_TEST_FILE {

TEST(ProbeJsonWriter, EscapesQuotesBackslashesAndControlCharacters) {
  JsonWriter w;
  w.begin_array().value(std::string_view("a\"b\\c\n\t\x01 é")).end_array();
  EXPECT_EQ(w.finish(), "[\n  \"a\\\"b\\\\c\\n\\t\\u0001 é\"\n]\n");
}

TEST(ProbeJsonWriter, WritesTheShortestNumberThatReadsBackExactly) {
  JsonWriter w;
  const double third = 1.0 / 3.0;
  w.begin_array().value(third).value(50011.0).value(0.1).end_array();
  const Json parsed = Json::parse(w.finish());
  EXPECT_EQ(parsed[0].get<double>(), third);
  EXPECT_EQ(parsed[1].dump(), "50011");
  EXPECT_EQ(parsed[2].dump(), "0.1");
}

TEST(ProbeJsonWriter, WritesNonFiniteNumbersAsNull) {
  JsonWriter w;
  w.begin_array().value(std::numeric_limits<double>::infinity()).value(std::nan("")).end_array();
  EXPECT_EQ(w.finish(), "[\n  null,\n  null\n]\n");
}

TEST(ProbeJsonWriter, IndentsNestedObjectsAndKeepsEmptyOnesOnOneLine) {
  JsonWriter w;
  w.begin_object();
  w.key("a").begin_object().key("b").value(1).end_object();
  w.key("list").begin_array().end_array();
  w.key("flag").value(true);
  w.key("none").null();
  w.end_object();
  EXPECT_EQ(w.finish(),
            "{\n  \"a\": {\n    \"b\": 1\n  },\n  \"list\": [],\n  \"flag\": true,\n"
            "  \"none\": null\n}\n");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::probe::detail
