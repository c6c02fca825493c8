#include "model/compact_json.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "model/error.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(ValidUtf8, ReplacesEachBadByteAndKeepsWellFormedSequences) {
  EXPECT_EQ(valid_utf8("plain <script> \"q\" \x1b[31m"), "plain <script> \"q\" \x1b[31m");
  EXPECT_EQ(valid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x99\x82"),
            "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x99\x82");
  EXPECT_EQ(valid_utf8("a\xFF\xFE"
                       "b"),
            "a\xEF\xBF\xBD\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(valid_utf8("cut \xE2\x82"), "cut \xEF\xBF\xBD\xEF\xBF\xBD");  // truncated at the end
  EXPECT_EQ(valid_utf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");          // overlong '/'
  EXPECT_EQ(valid_utf8(""), "");
}

TEST(CompactJsonWriter, PlacesCommasAndColonsInNestedObjectsAndArrays) {
  std::string out = "x";
  CompactJsonWriter w(out);
  w.begin_object();
  w.key("a").begin_array().value(1).value(std::uint64_t{2}).begin_object().end_object();
  w.begin_array().end_array().end_array();
  w.key("b").value(true).key("c").null().key("d").value("text");
  w.key("e").value(Json{{"z", 1}, {"y", {false}}});
  w.end_object();
  EXPECT_EQ(out, R"(x{"a":[1,2,{},[]],"b":true,"c":null,"d":"text","e":{"y":[false],"z":1}})");
}

TEST(CompactJsonWriter, WritesNumbersInTheirShortestRoundTripForm) {
  std::string out;
  CompactJsonWriter w(out);
  w.begin_array();
  for (const double v : {0.1, 3.0, -0.0, 1.5e-7, 1e21, 123456.789, 9007199254740992.0}) w.value(v);
  w.value(std::int64_t{-9007199254740993}).value(std::numeric_limits<std::uint64_t>::max());
  w.end_array();
  EXPECT_EQ(out,
            "[0.1,3,0,1.5e-07,1e+21,123456.789,9007199254740992,-9007199254740993,"
            "18446744073709551615]");
  for (const double v : {0.1, 1.5e-7, 123456.789, 2.0 / 3.0}) {
    std::string text;
    append_json_number(v, text);
    EXPECT_EQ(Json::parse(text).get<double>(), v) << text;
  }
}

TEST(CompactJsonWriter, WritesNullForNumbersJsonCannotHoldUnlessStrict) {
  for (const double v : {std::nan(""), std::numeric_limits<double>::infinity(),
                         -std::numeric_limits<double>::infinity()}) {
    std::string out;
    CompactJsonWriter(out).value(v);
    EXPECT_EQ(out, "null");
    EXPECT_THROW(append_json_number(v, out, {.strict_utf8 = false, .strict_numbers = true}), Error);
  }
}

TEST(CompactJsonWriter, EscapesQuotesBackslashesAndControlCharactersOnly) {
  std::string out;
  CompactJsonWriter(out).value(std::string("q\" b\\ s/ \b\f\n\r\t \x01 \x1f \x7f <é>"));
  EXPECT_EQ(out, "\"q\\\" b\\\\ s/ \\b\\f\\n\\r\\t \\u0001 \\u001f \x7f <\xC3\xA9>\"");
  EXPECT_EQ(Json::parse(out), "q\" b\\ s/ \b\f\n\r\t \x01 \x1f \x7f <é>");
}

TEST(CompactJsonWriter, ReplacesEachByteThatIsNotUtf8UnlessStrict) {
  // A lone lead, an overlong form, a surrogate, beyond U+10FFFF, a stray byte, a cut
  // sequence; each bad byte becomes one U+FFFD and the text around it is kept.
  const std::string bad[] = {"\xC3", "\xC0\xAF",    "\xED\xA0\x80", "\xF4\x90\x80\x80",
                             "\xFF", "\xE2\x28\xA1"};
  for (const std::string& text : bad) {
    std::string out;
    append_json_string("<" + text + ">", out);
    const std::string decoded = Json::parse(out).get<std::string>();
    EXPECT_EQ(decoded.front(), '<');
    EXPECT_EQ(decoded.back(), '>');
    EXPECT_NE(decoded.find("\xEF\xBF\xBD"), std::string::npos) << out;
    EXPECT_THROW(append_json_string(text, out, {.strict_utf8 = true}), Error);
  }
  std::string out;
  append_json_string(
      "a\xFF\xFE"
      "b",
      out);
  EXPECT_EQ(out,
            "\"a\xEF\xBF\xBD\xEF\xBF\xBD"
            "b\"");
  out.clear();
  append_json_string("\xE2\x28\xA1", out);
  EXPECT_EQ(out, "\"\xEF\xBF\xBD(\xEF\xBF\xBD\"");
}

TEST(CompactJsonWriter, MatchesNlohmannForAWholeValue) {
  const Json value = Json::parse(R"({"b":[1,2.5,"x\u0001",null,{"k":true}],"a":{},"c":-7})");
  std::string out;
  append_json_value(value, out);
  EXPECT_EQ(out, value.dump());
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
