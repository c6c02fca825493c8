// `parameters`: the axes whose cartesian product becomes a config's states.
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

#include "config/config_sections.hpp"

namespace perfgate {
namespace {

// Axis names appear inside {placeholders} and state names, so they stay identifier-like.
bool is_axis_name(const std::string& name) {
  if (name.empty()) return false;
  const auto head = static_cast<unsigned char>(name.front());
  if (std::isalpha(head) == 0 && head != '_') return false;
  return std::all_of(name.begin(), name.end(),
                     [](unsigned char c) { return std::isalnum(c) != 0 || c == '_'; });
}

// Shortest text that reads back to the same double, so 0.1 stays "0.1".
std::string shortest_text(double value) {
  std::array<char, 64> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), result.ptr);
}

std::string value_text(const ConfigValue& value) {
  switch (value.kind()) {
    case ConfigNode::Kind::kString:
      return value.string();
    case ConfigNode::Kind::kInteger:
      return std::to_string(value.integer());
    case ConfigNode::Kind::kFloat:
      return shortest_text(value.finite_number());
    default:
      throw value.type_error("a string, an integer or a number");
  }
}

}  // namespace

std::vector<std::pair<std::string, std::vector<std::string>>> read_parameters(
    const ConfigValue& value) {
  std::vector<std::pair<std::string, std::vector<std::string>>> axes;
  for (const auto& [axis, list] : value.members()) {
    if (!is_axis_name(axis)) {
      throw list.error("invalid axis name '" + axis + "'",
                       "Use letters, digits and '_', starting with a letter or '_'");
    }
    const std::vector<ConfigValue> items = list.items();
    if (items.empty()) {
      throw list.error("must not be an empty array", "List at least one value, or remove the axis");
    }
    std::vector<std::string> values;
    for (const auto& item : items) {
      std::string text = value_text(item);
      if (std::find(values.begin(), values.end(), text) != values.end()) {
        throw item.error("duplicate value '" + text + "'",
                         "List each value once; duplicates would measure the same state twice");
      }
      values.push_back(std::move(text));
    }
    axes.emplace_back(axis, std::move(values));
  }
  std::size_t states = 1;
  for (const auto& [axis, values] : axes) {
    states *=
        values.size();  // each factor is bounded by the file's size: no overflow before the check
    if (states > kMaxStatesPerConfig) {
      throw value.error(
          "the axes expand to more than " + std::to_string(kMaxStatesPerConfig) + " states",
          "Use fewer values, or split the axes over several configs");
    }
  }
  return axes;
}

}  // namespace perfgate
