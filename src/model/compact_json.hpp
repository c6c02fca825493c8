#pragma once
// JSON text written straight into a string, without building a document first: for
// exports whose size (millions of numbers) makes a tree of JSON nodes the dominant cost.
// No insignificant whitespace; strings keep their UTF-8; a double is written in its
// shortest round-trip form (an integer value below 2^53 as that integer).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/json.hpp"

namespace perfgate {

/// What a writer does with text or numbers that JSON cannot hold.
struct JsonTextRules {
  /// true: a byte that is not well-formed UTF-8 is Error(kDataError); false: it becomes
  /// U+FFFD, as nlohmann's dump(error_handler_t::replace) does.
  bool strict_utf8 = false;
  /// true: NaN or an infinity is Error(kDataError); false: it is written as null.
  bool strict_numbers = false;
};

/// The length of the well-formed UTF-8 sequence at text[i] (1 to 4), or 0 where the bytes
/// there are not one (truncated, overlong, a surrogate, beyond U+10FFFF).
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) noexcept;

/// `text` with each byte that is not part of well-formed UTF-8 replaced by U+FFFD, as the
/// writers below replace it: for text from outside (a program's output, a file of /proc,
/// an environment variable) that goes into a fingerprint, which takes UTF-8 only.
std::string valid_utf8(std::string_view text);

/// Appends `text` as a JSON string, quoted, with the minimal escapes.
void append_json_string(std::string_view text, std::string& out, JsonTextRules rules = {});
/// Appends an integer in decimal.
void append_json_integer(std::int64_t number, std::string& out);
void append_json_integer(std::uint64_t number, std::string& out);
/// Appends `number` in its shortest round-trip form.
void append_json_number(double number, std::string& out, JsonTextRules rules = {});
/// Appends a whole value, object members in nlohmann's (sorted) order.
void append_json_value(const Json& value, std::string& out, JsonTextRules rules = {});

/// Writes one document into `out`, placing commas and colons itself. Misuse (a value where
/// a key is due, an unbalanced end) is a programming error and is not checked.
class CompactJsonWriter {
 public:
  explicit CompactJsonWriter(std::string& out) : out_(out) {}

  CompactJsonWriter& begin_object();
  CompactJsonWriter& end_object();
  CompactJsonWriter& begin_array();
  CompactJsonWriter& end_array();
  CompactJsonWriter& key(std::string_view name);

  CompactJsonWriter& value(std::string_view text);
  CompactJsonWriter& value(const char* text) { return value(std::string_view(text)); }
  CompactJsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  CompactJsonWriter& value(double number);
  CompactJsonWriter& value(std::int64_t number);
  CompactJsonWriter& value(std::uint64_t number);
  CompactJsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  CompactJsonWriter& value(bool flag);
  CompactJsonWriter& value(const Json& json);
  CompactJsonWriter& null();
  /// A value already written as JSON text (by another writer, perhaps on another thread).
  CompactJsonWriter& raw(std::string_view json_text);

 private:
  void before_value();

  std::string& out_;
  std::vector<bool> has_items_;  // one per open object or array
  bool after_key_ = false;
};

}  // namespace perfgate
