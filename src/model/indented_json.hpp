#pragma once
// JSON text written straight into a string in exactly the layout of nlohmann's
// dump(2, ' ', false, error_handler_t::replace): two-space indents, "key": value, {} and []
// for empty containers, doubles as nlohmann writes them (2.0, 1e-05), invalid UTF-8
// replaced by U+FFFD as nlohmann replaces it. For documents whose tree of JSON nodes cost
// more to build than everything else (a diff of thousands of states: 70 ms of nodes for
// 20 ms of text). The caller writes object members in nlohmann's order (sorted by key);
// a document written here and one dumped by nlohmann from the same values are the same
// bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/json.hpp"

namespace perfgate {

class IndentedJsonWriter {
 public:
  explicit IndentedJsonWriter(std::string& out) : out_(out) {}

  IndentedJsonWriter& begin_object();
  IndentedJsonWriter& end_object();
  IndentedJsonWriter& begin_array();
  IndentedJsonWriter& end_array();
  IndentedJsonWriter& key(std::string_view name);

  IndentedJsonWriter& value(std::string_view text);
  IndentedJsonWriter& value(const char* text) { return value(std::string_view(text)); }
  IndentedJsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  /// NaN and infinities as null, as nlohmann writes them.
  IndentedJsonWriter& value(double number);
  IndentedJsonWriter& value(std::int64_t number);
  IndentedJsonWriter& value(std::uint64_t number);
  IndentedJsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  IndentedJsonWriter& value(bool flag);
  IndentedJsonWriter& null();
  /// A whole JSON value and everything in it, as nlohmann would dump it at this depth: for
  /// the small parts of a document that is mostly written member by member.
  IndentedJsonWriter& json(const Json& value);

 private:
  void before_value();
  void new_line(std::size_t depth);

  std::string& out_;
  std::vector<bool> has_items_;  // one per open object or array
  bool after_key_ = false;
};

/// Appends `text` as nlohmann's dump(error_handler_t::replace) writes a string.
void append_nlohmann_string(std::string_view text, std::string& out);

}  // namespace perfgate
