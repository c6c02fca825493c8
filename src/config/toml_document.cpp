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

// toml++ goes one level deeper on the stack for each part of a dotted key or table header
// ("[a.b.c]"), so a line of thousands of parts would crash it: such a line is refused
// before toml++ reads it. Dots between two digits are mostly numbers (1.5), so they have a
// limit of their own that keeps long arrays of floats readable; they count at all because
// a key may be made of digits (1.2.3).
constexpr std::size_t kMaxNumberDotsPerLine = 1000;

void check_key_depth(const std::filesystem::path& file, const std::string& text) {
  enum class In { kCode, kComment, kBasic, kLiteral, kMultiBasic, kMultiLiteral };
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  const auto refuse = [&](std::size_t line, std::size_t column, const std::string& reason) {
    throw Error(ExitCode::kDataError, file.string() + ":" + std::to_string(line) + ":" +
                                          std::to_string(column) + ": " + reason);
  };
  In in = In::kCode;
  std::size_t line = 1;
  std::size_t line_start = 0;
  std::size_t key_dots = 0;
  std::size_t number_dots = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
      key_dots = number_dots = 0;
      if (in == In::kComment || in == In::kBasic || in == In::kLiteral) in = In::kCode;
      continue;
    }
    switch (in) {
      case In::kComment:
        continue;
      case In::kBasic:
        if (c == '\\') {
          ++i;
        } else if (c == '"') {
          in = In::kCode;
        }
        continue;
      case In::kLiteral:
        if (c == '\'') in = In::kCode;
        continue;
      case In::kMultiBasic:
        if (c == '\\' && i + 1 < text.size() && text[i + 1] != '\n') {
          ++i;
        } else if (text.compare(i, 3, R"(""")") == 0) {
          in = In::kCode;
          i += 2;
        }
        continue;
      case In::kMultiLiteral:
        if (text.compare(i, 3, "'''") == 0) {
          in = In::kCode;
          i += 2;
        }
        continue;
      case In::kCode:
        break;
    }
    if (c == '#') {
      in = In::kComment;
    } else if (c == '"' || c == '\'') {
      const bool multi = text.compare(i, 3, std::string(3, c)) == 0;
      in = c == '"' ? (multi ? In::kMultiBasic : In::kBasic)
                    : (multi ? In::kMultiLiteral : In::kLiteral);
      if (multi) i += 2;
    } else if (c == '.') {
      const std::size_t column = i - line_start + 1;
      if (i > 0 && is_digit(text[i - 1]) && i + 1 < text.size() && is_digit(text[i + 1])) {
        if (++number_dots > kMaxNumberDotsPerLine) {
          refuse(line, column,
                 "more than " + std::to_string(kMaxNumberDotsPerLine) +
                     " numbers with a fraction on one line. Split the array over several lines");
        }
      } else if (++key_dots > kMaxConfigDepth) {
        refuse(line, column,
               "more than " + std::to_string(kMaxConfigDepth) +
                   " dotted key parts on one line. Nest the keys less deeply; no config "
                   "setting is nested that deep");
      }
    }
  }
}

}  // namespace

ConfigDocument parse_toml_document(const std::filesystem::path& file, const std::string& text) {
  check_key_depth(file, text);
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
