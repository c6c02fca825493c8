#pragma once
// A value of a config document together with its key path, so every check can say
// "<file>: <key.path>: <reason>. <fix>" without threading the location by hand.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/config_document.hpp"
#include "config/error_list.hpp"
#include "model/error.hpp"

namespace perfgate {

class ConfigValue {
 public:
  ConfigValue(const ConfigDocument& document, const ConfigNode& node, std::string path)
      : document_(&document), node_(&node), path_(std::move(path)) {}

  const ConfigDocument& document() const { return *document_; }
  const ConfigNode& node() const { return *node_; }
  ConfigNode::Kind kind() const { return node_->kind; }
  /// e.g. "run_config.num_measurement_runs" or "command[2]"; empty for the document root.
  const std::string& path() const { return path_; }
  std::string child_path(std::string_view key) const;

  /// "<file>: <path>: <reason>. <fix>" (the path part is left out for the root).
  Error error(std::string_view reason, std::string_view fix,
              ExitCode code = ExitCode::kDataError) const;
  /// The same for `key` inside this table, whether or not the key is present.
  Error child_error(std::string_view key, std::string_view reason, std::string_view fix,
                    ExitCode code = ExitCode::kDataError) const;

  // Typed reads. A wrong type is an error naming the expected and the found type.
  std::string string() const;
  std::string non_empty_string() const;
  long long integer() const;
  int int_at_least(int minimum) const;
  /// An integer in [minimum, maximum]; the error names the bound that was crossed.
  int int_between(int minimum, int maximum) const;
  double finite_number() const;  ///< an integer or a float that is neither nan nor inf
  double positive_number() const;
  bool boolean() const;
  std::vector<ConfigValue> items() const;                            ///< of an array
  std::vector<std::string> non_empty_string_list() const;            ///< non-empty array of them
  std::vector<std::pair<std::string, ConfigValue>> members() const;  ///< of a table

  /// The wrong-type error: "expected <expected>, found <kind>".
  Error type_error(std::string_view expected) const;

 private:
  void expect(ConfigNode::Kind kind, std::string_view expected) const;

  const ConfigDocument* document_;
  const ConfigNode* node_;
  std::string path_;
};

/// A table whose keys must all be known; unknown keys are errors with a suggestion.
class ConfigTable {
 public:
  /// Throws when `value` is not a table or holds a key outside `known_keys`.
  ConfigTable(const ConfigValue& value, std::vector<std::string> known_keys);
  /// Throws only when `value` is not a table; each key outside `known_keys` is added to
  /// `errors` instead, so that the table's other keys are still read and their errors
  /// reported in the same pass.
  ConfigTable(const ConfigValue& value, std::vector<std::string> known_keys, ErrorList& errors);

  std::optional<ConfigValue> get(std::string_view key) const;
  /// The value under `key` or under its `alias`; setting both is an error.
  std::optional<ConfigValue> get(std::string_view key, std::string_view alias) const;
  /// Throws "missing required key" with `fix` when absent.
  ConfigValue require(std::string_view key, std::string_view fix) const;

 private:
  ConfigValue value_;
};

/// The error for `key` that is not among `known_keys` in `table`.
Error unknown_key_error(const ConfigValue& table, const std::string& key,
                        const std::vector<std::string>& known_keys);

}  // namespace perfgate
