#include "model/indented_json.hpp"

#include <array>
#include <cmath>

#include "model/compact_json.hpp"
#include "model/json.hpp"

namespace perfgate {

void append_nlohmann_string(std::string_view text, std::string& out) {
  // Well-formed UTF-8 (nearly every string) is escaped here, as nlohmann escapes it. A
  // malformed sequence is left to nlohmann itself: it replaces a truncated sequence with
  // one U+FFFD where a byte-by-byte rule would write several.
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      out += Json(std::string(text)).dump(-1, ' ', false, Json::error_handler_t::replace);
      return;
    }
    i += length;
  }
  append_json_string(text, out);
}

void IndentedJsonWriter::new_line(std::size_t depth) {
  out_ += '\n';
  out_.append(2 * depth, ' ');
}

void IndentedJsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (has_items_.empty()) return;
  if (has_items_.back()) out_ += ',';
  has_items_.back() = true;
  new_line(has_items_.size());
}

IndentedJsonWriter& IndentedJsonWriter::begin_object() {
  before_value();
  out_ += '{';
  has_items_.push_back(false);
  return *this;
}

IndentedJsonWriter& IndentedJsonWriter::end_object() {
  const bool had_items = has_items_.back();
  has_items_.pop_back();
  if (had_items) new_line(has_items_.size());
  out_ += '}';
  return *this;
}

IndentedJsonWriter& IndentedJsonWriter::begin_array() {
  before_value();
  out_ += '[';
  has_items_.push_back(false);
  return *this;
}

IndentedJsonWriter& IndentedJsonWriter::end_array() {
  const bool had_items = has_items_.back();
  has_items_.pop_back();
  if (had_items) new_line(has_items_.size());
  out_ += ']';
  return *this;
}

IndentedJsonWriter& IndentedJsonWriter::key(std::string_view name) {
  before_value();
  append_nlohmann_string(name, out_);
  out_ += ": ";
  after_key_ = true;
  return *this;
}

IndentedJsonWriter& IndentedJsonWriter::value(std::string_view text) {
  before_value();
  append_nlohmann_string(text, out_);
  return *this;
}

IndentedJsonWriter& IndentedJsonWriter::value(double number) {
  before_value();
  if (!std::isfinite(number)) {
    out_ += "null";
    return *this;
  }
  // nlohmann's own conversion (Grisu2, "2.0" for whole numbers), into a buffer of the size
  // its serializer uses.
  std::array<char, 64> buffer{};
  const char* const end =
      nlohmann::detail::to_chars(buffer.data(), buffer.data() + buffer.size(), number);
  out_.append(buffer.data(), static_cast<std::size_t>(end - buffer.data()));
  return *this;
}

IndentedJsonWriter& IndentedJsonWriter::value(std::int64_t number) {
  before_value();
  append_json_integer(number, out_);
  return *this;
}

IndentedJsonWriter& IndentedJsonWriter::value(std::uint64_t number) {
  before_value();
  append_json_integer(number, out_);
  return *this;
}

IndentedJsonWriter& IndentedJsonWriter::value(bool flag) {
  before_value();
  out_ += flag ? "true" : "false";
  return *this;
}

IndentedJsonWriter& IndentedJsonWriter::null() {
  before_value();
  out_ += "null";
  return *this;
}

IndentedJsonWriter& IndentedJsonWriter::json(const Json& value) {
  switch (value.type()) {
    case Json::value_t::object:
      begin_object();
      for (const auto& [name, member] : value.items()) key(name).json(member);
      return end_object();
    case Json::value_t::array:
      begin_array();
      for (const Json& element : value) json(element);
      return end_array();
    case Json::value_t::string:
      return this->value(value.get_ref<const std::string&>());
    case Json::value_t::boolean:
      return this->value(value.get<bool>());
    case Json::value_t::number_integer:
      return this->value(value.get<std::int64_t>());
    case Json::value_t::number_unsigned:
      return this->value(value.get<std::uint64_t>());
    case Json::value_t::number_float:
      return this->value(value.get<double>());
    case Json::value_t::null:
      return null();
    case Json::value_t::binary:
    case Json::value_t::discarded:
      break;
  }
  // Neither kind is ever in perfgate's documents; should one be, nlohmann writes it (on
  // one line) rather than this writer inventing a layout.
  before_value();
  out_ += value.dump(-1, ' ', false, Json::error_handler_t::replace);
  return *this;
}

}  // namespace perfgate
