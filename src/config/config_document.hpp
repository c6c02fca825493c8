#pragma once
// One tree for a parsed JSON or TOML config, so every validation rule is written once
// for both formats. Tables keep their keys in file order (parameter axes depend on it).
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/json.hpp"

namespace perfgate {

enum class ConfigFormat { kJson, kToml };

struct ConfigNode {
  enum class Kind { kTable, kArray, kString, kInteger, kFloat, kBoolean, kNull, kDateTime };

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
/// the last one silently, which hides copy-paste mistakes).
ConfigDocument parse_json_document(const std::filesystem::path& file, const std::string& text);

/// Parses TOML text; table members are ordered by where their keys appear in the file.
ConfigDocument parse_toml_document(const std::filesystem::path& file, const std::string& text);

}  // namespace perfgate
