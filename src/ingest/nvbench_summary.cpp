#include "ingest/nvbench_summary.hpp"

#include <charconv>

#include "model/json_reader.hpp"

namespace perfgate::ingest {
namespace {

// Index of the datum called `name` in a summary's "data" array.
std::size_t datum_index(const JsonCursor& data, std::string_view name) {
  const std::size_t count = data.size();
  for (std::size_t i = 0; i < count; ++i) {
    const JsonCursor datum = data.item(i);
    const JsonCursor datum_name = datum.at("name");
    if (datum_name.string() == name) return i;
  }
  data.fail("has no datum named \"" + std::string(name) + "\"");
}

double parse_number_text(const JsonCursor& value) {
  const std::string& text = value.string();
  double out = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (error == std::errc::result_out_of_range) {
    value.fail("\"" + text + "\" is out of range for a 64-bit float");
  }
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    value.fail("\"" + text + "\" is not a number");
  }
  return out;
}

long long parse_integer_text(const JsonCursor& value) {
  if (value.json().is_number()) return value.integer();
  const std::string& text = value.string();
  long long out = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (error == std::errc::result_out_of_range) {
    value.fail("\"" + text + "\" is out of range for a 64-bit integer");
  }
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    value.fail("\"" + text + "\" is not an integer");
  }
  return out;
}

void expect_numeric_type(const JsonCursor& datum) {
  const auto type = datum.find("type");
  if (!type) return;
  const std::string& name = type->string();
  if (name != "float64" && name != "int64") {
    type->fail("is \"" + name + "\", but this summary must be \"float64\" or \"int64\"");
  }
}

}  // namespace

std::optional<double> summary_number(const JsonCursor& summary) {
  const JsonCursor data = summary.at("data");
  const std::size_t index = datum_index(data, "value");
  const JsonCursor datum = data.item(index);
  expect_numeric_type(datum);
  const JsonCursor value = datum.at("value");
  if (value.is_null()) return std::nullopt;
  if (value.json().is_number()) return value.number();
  if (!value.json().is_string()) {
    value.fail("expected a number (nvbench writes numbers as text), found " +
               json_type_name(value.json()));
  }
  return parse_number_text(value);
}

long long summary_integer(const JsonCursor& summary, std::string_view datum_name) {
  const JsonCursor data = summary.at("data");
  const JsonCursor datum = data.item(datum_index(data, datum_name));
  expect_numeric_type(datum);
  const JsonCursor value = datum.at("value");
  return parse_integer_text(value);
}

std::string summary_text(const JsonCursor& summary, std::string_view datum_name) {
  const JsonCursor data = summary.at("data");
  const JsonCursor datum = data.item(datum_index(data, datum_name));
  const JsonCursor value = datum.at("value");
  return value.string();
}

}  // namespace perfgate::ingest
