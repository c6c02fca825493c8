#pragma once
// One tree for a parsed JSON or TOML config, so every validation rule is written once
// for both formats. Tables keep their keys in file order (parameter axes depend on it).
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/json.hpp"

namespace perfgate {

enum class ConfigFormat { kJson, kToml };

/// Deepest nesting of tables and arrays a config may have. Configs are a few levels deep;
/// the limit keeps a hostile file from exhausting the stack of the code that walks the
/// tree (or, in TOML, of the TOML library itself).
inline constexpr std::size_t kMaxConfigDepth = 128;

struct ConfigNode {
  enum class Kind { kTable, kArray, kString, kInteger, kFloat, kBoolean, kNull, kDateTime };

  // User-provided: with the implicit constructor clang 14 (the fuzz build) instantiates
  // std::pair<std::string, ConfigNode> below before ConfigNode is complete, and fails.
  ConfigNode() {}

  Kind kind = Kind::kNull;
  std::string text;  ///< kString, or a kDateTime in its TOML spelling
  long long integer = 0;
  double number = 0;  ///< kFloat; may be nan or inf (TOML allows them)
  bool boolean = false;
  std::vector<std::pair<std::string, ConfigNode>> members;  ///< kTable, in file order
  std::vector<ConfigNode> items;                            ///< kArray

  /// The member named `key` of a table, or nullptr.
  const ConfigNode* find(std::string_view key) const;
  /// The value as JSON (dates become strings); used to carry free-form metadata through.
  Json to_json() const;
};

struct ConfigDocument {
  std::filesystem::path file;
  ConfigFormat format = ConfigFormat::kJson;
  ConfigNode root;
};

/// "a string", "an integer", ... ; tables are called objects in JSON files.
std::string describe_kind(ConfigNode::Kind kind, ConfigFormat format);

/// Reads and parses `file`, choosing the format by extension (.json or .toml).
/// Error(kNoInput) when the file cannot be read; Error(kDataError) for an unsupported
/// extension or a syntax error ("<file>:<line>:<column>: <reason>").
ConfigDocument read_config_document(const std::filesystem::path& file);

/// Parses JSON text. Duplicate keys in an object are an error (JSON parsers usually keep
/// the last one silently, which hides copy-paste mistakes), as is nesting deeper than
/// kMaxConfigDepth ("<file>: <key.path>: nesting deeper than 128 levels. ...").
ConfigDocument parse_json_document(const std::filesystem::path& file, const std::string& text);

/// Parses TOML text; table members are ordered by where their keys appear in the file.
/// A line with more than kMaxConfigDepth key parts ("a.b.c", counted outside strings and
/// comments) is an error ("<file>:<line>:<column>: ..."), since toml++ nests them on the
/// stack.
ConfigDocument parse_toml_document(const std::filesystem::path& file, const std::string& text);

}  // namespace perfgate
