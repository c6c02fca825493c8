#include "config/config_document.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

std::vector<std::string> keys(const ConfigNode& table) {
  std::vector<std::string> result;
  for (const auto& [key, value] : table.members) result.push_back(key);
  return result;
}

std::string error_of(const std::string& file, const std::string& text) {
  try {
    if (file.ends_with(".json")) {
      parse_json_document(file, text);
    } else {
      parse_toml_document(file, text);
    }
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

TEST(ConfigDocument, KeepsJsonKeysInFileOrder) {
  const ConfigDocument doc = parse_json_document("a.json", R"({"z": 1, "a": {"y": 2, "b": 3}})");
  EXPECT_EQ(keys(doc.root), (std::vector<std::string>{"z", "a"}));
  EXPECT_EQ(keys(doc.root.members[1].second), (std::vector<std::string>{"y", "b"}));
}

TEST(ConfigDocument, KeepsTomlKeysInFileOrderAcrossTablesAndDottedKeys) {
  const ConfigDocument doc = parse_toml_document("a.toml", R"(
zeta = 1
alpha.inner = 2
[mid]
b = 1
a = 2
[first]
x = 1
)");
  EXPECT_EQ(keys(doc.root), (std::vector<std::string>{"zeta", "alpha", "mid", "first"}));
  EXPECT_EQ(keys(*doc.root.find("mid")), (std::vector<std::string>{"b", "a"}));
}

TEST(ConfigDocument, ReadsEveryJsonKind) {
  const ConfigDocument doc = parse_json_document(
      "a.json", R"({"s": "x", "i": -3, "u": 18446744073709551615, "f": 0.5, "b": true,
                    "n": null, "a": [1]})");
  const ConfigNode& root = doc.root;
  EXPECT_EQ(root.find("s")->kind, ConfigNode::Kind::kString);
  EXPECT_EQ(root.find("i")->integer, -3);
  // Beyond long long, a number keeps its magnitude as a float.
  EXPECT_EQ(root.find("u")->kind, ConfigNode::Kind::kFloat);
  EXPECT_EQ(root.find("f")->number, 0.5);
  EXPECT_TRUE(root.find("b")->boolean);
  EXPECT_EQ(root.find("n")->kind, ConfigNode::Kind::kNull);
  EXPECT_EQ(root.find("a")->items.size(), 1u);
  EXPECT_EQ(root.find("missing"), nullptr);
}

TEST(ConfigDocument, CarriesTomlDatesAsTextIntoJson) {
  const ConfigDocument doc =
      parse_toml_document("a.toml", "day = 2024-05-01\nlist = [1, 2.5, \"x\", false]\n");
  EXPECT_EQ(doc.root.find("day")->kind, ConfigNode::Kind::kDateTime);
  EXPECT_EQ(doc.root.to_json(), (Json{{"day", "2024-05-01"}, {"list", {1, 2.5, "x", false}}}));
}

TEST(ConfigDocument, RejectsADuplicateJsonKeyInsideAnArrayWithItsPath) {
  EXPECT_EQ(error_of("a.json", R"({"list": [{"x": 1}, {"x": 1, "x": 2}]})"),
            "a.json: list[1].x: duplicate key 'x'. Keep only one of the two entries");
}

TEST(ConfigDocument, ReportsJsonSyntaxErrorsWithLineAndColumn) {
  EXPECT_EQ(error_of("a.json", "{\n  \"a\": tru\n}"),
            "a.json:2:10: syntax error while parsing value - invalid literal. Fix the JSON "
            "syntax at that position");
  EXPECT_EQ(error_of("a.json", "{\"a\": [1,\n}"),
            "a.json:2:1: syntax error while parsing value - unexpected '}'; expected '[', '{', "
            "or a literal. Fix the JSON syntax at that position");
}

TEST(ConfigDocument, ReportsTomlSyntaxErrorsWithLineAndColumn) {
  EXPECT_EQ(error_of("a.toml", "a = 1\nb = \n"),
            "a.toml:2:5: Error while parsing key-value pair: expected value, saw '\\n'. Fix the "
            "TOML syntax at that position");
}

std::string repeated(const std::string& text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

// Found by fuzzing (fuzz/corpus/benchmark_config_json/deep_nesting.json): a 400 kB file of
// nested arrays took gigabytes, one key path per level, and its tree would have been
// destroyed recursively.
TEST(ConfigDocument, RefusesJsonNestedDeeperThan128LevelsNamingThePath) {
  // The top-level object and "q" are two levels; 126 more arrays make 128.
  EXPECT_EQ(error_of("a.json", "{\"q\": " + repeated("[", 127) + repeated("]", 127) + "}"), "");
  EXPECT_EQ(error_of("a.json", "{\"q\": " + repeated("[", 128) + repeated("]", 128) + "}"),
            "a.json: q" + repeated("[0]", 127) +
                ": nesting deeper than 128 levels. Flatten the value; no config setting is "
                "nested that deep");
}

// Found by fuzzing (fuzz/corpus/benchmark_config_toml/deep_table_header.toml): toml++
// overflowed the stack on a table header of thousands of parts.
TEST(ConfigDocument, RefusesATomlLineWithMoreThan128DottedKeyParts) {
  EXPECT_EQ(error_of("a.toml", "[a" + repeated(".a", 128) + "]\nx = 1\n"), "");
  EXPECT_EQ(error_of("a.toml", "x = 1\n[a" + repeated(".a", 129) + "]\n"),
            "a.toml:2:259: more than 128 dotted key parts on one line. Nest the keys less "
            "deeply; no config setting is nested that deep");
  EXPECT_EQ(error_of("a.toml", "a" + repeated(".a", 129) + " = 1\n"),
            "a.toml:1:258: more than 128 dotted key parts on one line. Nest the keys less "
            "deeply; no config setting is nested that deep");
}

TEST(ConfigDocument, CountsNoDotsInTomlStringsCommentsOrNumbersAsKeyParts) {
  const std::string dots = repeated(".", 300);
  EXPECT_EQ(
      error_of("a.toml", "a = \"" + dots + "\" # " + dots + "\nb = '" + dots + "'\nc = \"\"\"\n" +
                             dots + "\n\"\"\"\nd = [" + repeated("1.5, ", 999) + "1.5]\n"),
      "");
  EXPECT_EQ(error_of("a.toml", "d = [" + repeated("1.5, ", 1000) + "1.5]\n"),
            "a.toml:1:5007: more than 1000 numbers with a fraction on one line. Split the "
            "array over several lines");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
