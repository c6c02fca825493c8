#pragma once
// A small JSON emitter, so that the probe depends on no JSON library: objects, arrays,
// strings escaped as RFC 8259 requires, and numbers written in their shortest form that
// reads back to the same double. Output is indented by two spaces per level.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate::probe::detail {

/// The length of the well-formed UTF-8 sequence at `i` (1 to 4), or 0 where the bytes
/// there are not one (a stray continuation byte, an overlong form, a surrogate, a code
/// point beyond U+10FFFF, a sequence cut short).
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) noexcept;
bool utf8_valid(std::string_view text) noexcept;

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  /// The key of the next value inside an object.
  JsonWriter& key(std::string_view name);

  /// A string; a byte that is not part of well-formed UTF-8 is written as the four
  /// characters \xNN (in JSON: "\\xNN"), so the document stays valid whatever a name holds.
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  /// Non-finite numbers have no JSON form and are written as null.
  JsonWriter& value(double number);
  JsonWriter& value(std::uint64_t number);
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(bool flag);
  JsonWriter& null();

  /// Room for a document of `bytes`, so that it is not grown in many steps (each one more
  /// heap block, and pages for a short program to fault in).
  void reserve(std::size_t bytes) { out_.reserve(bytes); }

  /// The document, ending with a newline.
  std::string finish();

 private:
  void before_value();
  void close(char bracket);
  void newline();

  std::string out_;
  std::vector<bool> has_items_;  // one per open object or array
  bool after_key_ = false;
};

}  // namespace perfgate::probe::detail
