#include "config/config_value.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "config/key_suggestion.hpp"

namespace perfgate {

std::string ConfigValue::child_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

Error ConfigValue::error(std::string_view reason, std::string_view fix, ExitCode code) const {
  std::string message = document_->file.string() + ": ";
  if (!path_.empty()) message += path_ + ": ";
  message += std::string(reason) + ". " + std::string(fix);
  return Error(code, message);
}

Error ConfigValue::child_error(std::string_view key, std::string_view reason, std::string_view fix,
                               ExitCode code) const {
  return ConfigValue(*document_, *node_, child_path(key)).error(reason, fix, code);
}

Error ConfigValue::type_error(std::string_view expected) const {
  const std::string found = describe_kind(kind(), document_->format);
  const bool scalar_found = kind() == ConfigNode::Kind::kInteger ||
                            kind() == ConfigNode::Kind::kFloat ||
                            kind() == ConfigNode::Kind::kBoolean;
  std::string fix = "Write " + std::string(expected) + " here";
  if (expected == "a string" && scalar_found) {
    fix = "Quote it";
  } else if (kind() == ConfigNode::Kind::kString &&
             (expected == "an integer" || expected == "a number")) {
    fix = "Write the number without quotes";
  } else if (kind() == ConfigNode::Kind::kFloat && expected == "an integer") {
    fix = "Write a whole number without a decimal point";
  }
  return error("expected " + std::string(expected) + ", found " + found, fix);
}

void ConfigValue::expect(ConfigNode::Kind kind, std::string_view expected) const {
  if (this->kind() != kind) throw type_error(expected);
}

std::string ConfigValue::string() const {
  expect(ConfigNode::Kind::kString, "a string");
  return node_->text;
}

std::string ConfigValue::non_empty_string() const {
  std::string text = string();
  if (text.empty()) throw error("must not be empty", "Write a non-empty string");
  return text;
}

long long ConfigValue::integer() const {
  expect(ConfigNode::Kind::kInteger, "an integer");
  return node_->integer;
}

int ConfigValue::int_at_least(int minimum) const {
  const long long value = integer();
  if (value < minimum) {
    throw error("must be at least " + std::to_string(minimum) + ", found " + std::to_string(value),
                "Set it to " + std::to_string(minimum) + " or more");
  }
  if (value > std::numeric_limits<int>::max()) {
    throw error("must be at most " + std::to_string(std::numeric_limits<int>::max()) + ", found " +
                    std::to_string(value),
                "Set a smaller value");
  }
  return static_cast<int>(value);
}

int ConfigValue::int_between(int minimum, int maximum) const {
  const int value = int_at_least(minimum);
  if (value > maximum) {
    throw error("must be at most " + std::to_string(maximum) + ", found " + std::to_string(value),
                "Set a smaller value");
  }
  return value;
}

double ConfigValue::finite_number() const {
  if (kind() == ConfigNode::Kind::kInteger) return static_cast<double>(node_->integer);
  expect(ConfigNode::Kind::kFloat, "a number");
  const double value = node_->number;
  if (!std::isfinite(value)) {
    const std::string found = std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf";
    throw error("must be a finite number, found " + found,
                "Write an ordinary number instead of nan or inf");
  }
  return value;
}

double ConfigValue::positive_number() const {
  const double value = finite_number();
  if (value <= 0) {
    throw error("must be greater than 0", "Set a positive value");
  }
  return value;
}

bool ConfigValue::boolean() const {
  expect(ConfigNode::Kind::kBoolean, "a boolean");
  return node_->boolean;
}

std::vector<ConfigValue> ConfigValue::items() const {
  expect(ConfigNode::Kind::kArray, "an array");
  std::vector<ConfigValue> result;
  for (std::size_t i = 0; i < node_->items.size(); ++i) {
    result.emplace_back(*document_, node_->items[i], path_ + "[" + std::to_string(i) + "]");
  }
  return result;
}

std::vector<std::string> ConfigValue::non_empty_string_list() const {
  const std::vector<ConfigValue> list = items();
  if (list.empty()) throw error("must not be an empty array", "List at least one string");
  std::vector<std::string> result;
  for (const auto& item : list) result.push_back(item.non_empty_string());
  return result;
}

std::vector<std::pair<std::string, ConfigValue>> ConfigValue::members() const {
  expect(ConfigNode::Kind::kTable, describe_kind(ConfigNode::Kind::kTable, document_->format));
  std::vector<std::pair<std::string, ConfigValue>> result;
  for (const auto& [key, node] : node_->members) {
    result.emplace_back(key, ConfigValue(*document_, node, child_path(key)));
  }
  return result;
}

Error unknown_key_error(const ConfigValue& table, const std::string& key,
                        const std::vector<std::string>& known_keys) {
  return table.child_error(key, "unknown key '" + key + "'", unknown_key_fix(key, known_keys));
}

ConfigTable::ConfigTable(const ConfigValue& value, std::vector<std::string> known_keys)
    : value_(value) {
  for (const auto& [key, member] : value.members()) {
    if (std::find(known_keys.begin(), known_keys.end(), key) == known_keys.end()) {
      throw unknown_key_error(value, key, known_keys);
    }
  }
}

ConfigTable::ConfigTable(const ConfigValue& value, std::vector<std::string> known_keys,
                         ErrorList& errors)
    : value_(value) {
  for (const auto& [key, member] : value.members()) {
    if (std::find(known_keys.begin(), known_keys.end(), key) == known_keys.end()) {
      errors.add(unknown_key_error(value, key, known_keys));
    }
  }
}

std::optional<ConfigValue> ConfigTable::get(std::string_view key) const {
  const ConfigNode* node = value_.node().find(key);
  if (node == nullptr) return std::nullopt;
  return ConfigValue(value_.document(), *node, value_.child_path(key));
}

std::optional<ConfigValue> ConfigTable::get(std::string_view key, std::string_view alias) const {
  std::optional<ConfigValue> canonical = get(key);
  std::optional<ConfigValue> aliased = get(alias);
  if (canonical && aliased) {
    throw aliased->error(
        "'" + std::string(alias) + "' is an alias of '" + std::string(key) + "', which is also set",
        "Keep only '" + std::string(key) + "'");
  }
  return canonical ? canonical : aliased;
}

ConfigValue ConfigTable::require(std::string_view key, std::string_view fix) const {
  std::optional<ConfigValue> found = get(key);
  if (!found) throw value_.child_error(key, "missing required key", fix);
  return *found;
}

}  // namespace perfgate
