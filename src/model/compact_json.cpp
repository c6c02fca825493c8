#include "model/compact_json.hpp"

#include <array>
#include <charconv>
#include <cmath>

#include "model/error.hpp"

namespace perfgate {
namespace {

// Largest magnitude below which every integer is exactly representable as a double.
constexpr double kTwoTo53 = 9007199254740992.0;

template <class Integer>
void append_integer(Integer number, std::string& out) {
  std::array<char, 24> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), number);
  out.append(buffer.data(), result.ptr);
}

void append_escape(unsigned char c, std::string& out) {
  switch (c) {
    case '"':
      out += "\\\"";
      return;
    case '\\':
      out += "\\\\";
      return;
    case '\b':
      out += "\\b";
      return;
    case '\f':
      out += "\\f";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    default: {
      static constexpr char kDigits[] = "0123456789abcdef";
      out += "\\u00";
      out += kDigits[c >> 4];
      out += kDigits[c & 0x0F];
    }
  }
}

}  // namespace

void append_json_integer(std::int64_t number, std::string& out) {
  append_integer(number, out);
}

void append_json_integer(std::uint64_t number, std::string& out) {
  append_integer(number, out);
}

std::size_t utf8_sequence_length(std::string_view text, std::size_t i) noexcept {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the first continuation byte
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // UTF-16 surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // beyond U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

void append_json_string(std::string_view text, std::string& out, JsonTextRules rules) {
  out += '"';
  std::size_t plain = 0;  // start of the run of bytes copied as they are
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const std::size_t length = utf8_sequence_length(text, i);
      if (length != 0) {
        i += length;
        continue;
      }
      if (rules.strict_utf8) {
        throw Error(ExitCode::kDataError, "a JSON string is not valid UTF-8 (bad byte at offset " +
                                              std::to_string(i) +
                                              "): re-encode the value as UTF-8");
      }
      out.append(text.substr(plain, i - plain));
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      plain = ++i;
      continue;
    }
    if (c >= 0x20 && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    out.append(text.substr(plain, i - plain));
    append_escape(c, out);
    plain = ++i;
  }
  out.append(text.substr(plain));
  out += '"';
}

void append_json_number(double number, std::string& out, JsonTextRules rules) {
  if (!std::isfinite(number)) {
    if (rules.strict_numbers) {
      throw Error(ExitCode::kDataError,
                  "a JSON number is NaN or infinite, which JSON cannot hold: replace it with a "
                  "finite number or null");
    }
    out += "null";
    return;
  }
  if (number == std::trunc(number) && std::fabs(number) < kTwoTo53) {
    // 3.0 and 3 are the same number; -0.0 becomes 0 the same way.
    append_integer(static_cast<long long>(number), out);
    return;
  }
  // std::to_chars picks fixed or exponent notation, whichever is shorter (0.1, 1.5e-07).
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), number);
  out.append(buffer.data(), result.ptr);
}

void append_json_value(const Json& value, std::string& out, JsonTextRules rules) {
  switch (value.type()) {
    case Json::value_t::null:
      out += "null";
      return;
    case Json::value_t::boolean:
      out += value.get<bool>() ? "true" : "false";
      return;
    case Json::value_t::number_integer:
      append_integer(value.get<std::int64_t>(), out);
      return;
    case Json::value_t::number_unsigned:
      append_integer(value.get<std::uint64_t>(), out);
      return;
    case Json::value_t::number_float:
      append_json_number(value.get<double>(), out, rules);
      return;
    case Json::value_t::string:
      append_json_string(value.get_ref<const std::string&>(), out, rules);
      return;
    case Json::value_t::array: {
      out += '[';
      bool first = true;
      for (const Json& element : value) {
        if (!first) out += ',';
        first = false;
        append_json_value(element, out, rules);
      }
      out += ']';
      return;
    }
    case Json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, member] : value.get_ref<const Json::object_t&>()) {
        if (!first) out += ',';
        first = false;
        append_json_string(key, out, rules);
        out += ':';
        append_json_value(member, out, rules);
      }
      out += '}';
      return;
    }
    case Json::value_t::binary:
    case Json::value_t::discarded:
      break;
  }
  throw Error(ExitCode::kDataError,
              "a binary or discarded value has no JSON text: convert it to a string first");
}

void CompactJsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_items_.empty()) {
    if (has_items_.back()) out_ += ',';
    has_items_.back() = true;
  }
}

CompactJsonWriter& CompactJsonWriter::begin_object() {
  before_value();
  out_ += '{';
  has_items_.push_back(false);
  return *this;
}

CompactJsonWriter& CompactJsonWriter::end_object() {
  out_ += '}';
  has_items_.pop_back();
  return *this;
}

CompactJsonWriter& CompactJsonWriter::begin_array() {
  before_value();
  out_ += '[';
  has_items_.push_back(false);
  return *this;
}

CompactJsonWriter& CompactJsonWriter::end_array() {
  out_ += ']';
  has_items_.pop_back();
  return *this;
}

CompactJsonWriter& CompactJsonWriter::key(std::string_view name) {
  before_value();
  append_json_string(name, out_);
  out_ += ':';
  after_key_ = true;
  return *this;
}

CompactJsonWriter& CompactJsonWriter::value(std::string_view text) {
  before_value();
  append_json_string(text, out_);
  return *this;
}

CompactJsonWriter& CompactJsonWriter::value(double number) {
  before_value();
  append_json_number(number, out_);
  return *this;
}

CompactJsonWriter& CompactJsonWriter::value(std::int64_t number) {
  before_value();
  append_integer(number, out_);
  return *this;
}

CompactJsonWriter& CompactJsonWriter::value(std::uint64_t number) {
  before_value();
  append_integer(number, out_);
  return *this;
}

CompactJsonWriter& CompactJsonWriter::value(bool flag) {
  before_value();
  out_ += flag ? "true" : "false";
  return *this;
}

CompactJsonWriter& CompactJsonWriter::value(const Json& json) {
  before_value();
  append_json_value(json, out_);
  return *this;
}

CompactJsonWriter& CompactJsonWriter::null() {
  before_value();
  out_ += "null";
  return *this;
}

CompactJsonWriter& CompactJsonWriter::raw(std::string_view json_text) {
  before_value();
  out_ += json_text;
  return *this;
}

}  // namespace perfgate
