// TOML -> ConfigNode with toml++. toml++ keeps a table's keys sorted by name; we put them
// back in file order using the source position of each key.
#include <algorithm>
#include <sstream>

#include <toml++/toml.h>

#include "config/config_document.hpp"
#include "model/error.hpp"

namespace perfgate {
namespace {

template <typename T>
std::string spelled(const T& value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

ConfigNode convert(const toml::node& node);

ConfigNode convert_table(const toml::table& table) {
  std::vector<std::pair<const toml::key*, const toml::node*>> entries;
  for (const auto& [key, value] : table) entries.emplace_back(&key, &value);
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    const toml::source_position& pa = a.first->source().begin;
    const toml::source_position& pb = b.first->source().begin;
    return pa.line != pb.line ? pa.line < pb.line : pa.column < pb.column;
  });
  ConfigNode result;
  result.kind = ConfigNode::Kind::kTable;
  for (const auto& [key, value] : entries) {
    result.members.emplace_back(std::string(key->str()), convert(*value));
  }
  return result;
}

ConfigNode convert(const toml::node& node) {
  ConfigNode result;
  if (const auto* table = node.as_table()) return convert_table(*table);
  if (const auto* array = node.as_array()) {
    result.kind = ConfigNode::Kind::kArray;
    for (const auto& item : *array) result.items.push_back(convert(item));
  } else if (const auto* text = node.as_string()) {
    result.kind = ConfigNode::Kind::kString;
    result.text = text->get();
  } else if (const auto* integer = node.as_integer()) {
    result.kind = ConfigNode::Kind::kInteger;
    result.integer = integer->get();
  } else if (const auto* number = node.as_floating_point()) {
    result.kind = ConfigNode::Kind::kFloat;
    result.number = number->get();
  } else if (const auto* flag = node.as_boolean()) {
    result.kind = ConfigNode::Kind::kBoolean;
    result.boolean = flag->get();
  } else if (const auto* date = node.as_date()) {
    result.kind = ConfigNode::Kind::kDateTime;
    result.text = spelled(date->get());
  } else if (const auto* time = node.as_time()) {
    result.kind = ConfigNode::Kind::kDateTime;
    result.text = spelled(time->get());
  } else if (const auto* date_time = node.as_date_time()) {
    result.kind = ConfigNode::Kind::kDateTime;
    result.text = spelled(date_time->get());
  }
  return result;
}

}  // namespace

ConfigDocument parse_toml_document(const std::filesystem::path& file, const std::string& text) {
  try {
    const toml::table table = toml::parse(text, file.string());
    return ConfigDocument{file, ConfigFormat::kToml, convert_table(table)};
  } catch (const toml::parse_error& error) {
    const toml::source_position& at = error.source().begin;
    throw Error(ExitCode::kDataError, file.string() + ":" + std::to_string(at.line) + ":" +
                                          std::to_string(at.column) + ": " +
                                          std::string(error.description()) +
                                          ". Fix the TOML syntax at that position");
  }
}

}  // namespace perfgate
