#include "ingest/json_cursor.hpp"

#include <climits>

#include "model/error.hpp"
#include "model/json_reader.hpp"

namespace perfgate::ingest {

JsonCursor::JsonCursor(const Json& root, const JsonSource& source)
    : json_(&root), source_(&source) {}

JsonCursor::JsonCursor(const Json& json, const JsonCursor& parent, std::string_view key,
                       std::size_t index)
    : json_(&json), source_(parent.source_), parent_(&parent), key_(key), index_(index) {}

void JsonCursor::append_path(std::string& out) const {
  if (parent_ == nullptr) return;
  parent_->append_path(out);
  if (key_.empty()) {
    out += '[';
    out += std::to_string(index_);
    out += ']';
    return;
  }
  if (!out.empty()) out += '.';
  out += key_;
}

std::string JsonCursor::path() const {
  std::string out;
  append_path(out);
  return out.empty() ? "(top level)" : out;
}

void JsonCursor::fail(std::string_view reason, std::string_view fix) const {
  std::string message = source_->name + ": " + path() + ": ";
  message += reason;
  message += ". ";
  message += fix.empty() ? std::string_view(source_->fix) : fix;
  throw Error(ExitCode::kDataError, message);
}

void JsonCursor::expect_object() const {
  if (!json_->is_object()) fail("expected an object, found " + json_type_name(*json_));
}

void JsonCursor::expect_array() const {
  if (!json_->is_array()) fail("expected an array, found " + json_type_name(*json_));
}

JsonCursor JsonCursor::at(std::string_view key) const& {
  expect_object();
  const auto found = json_->find(key);
  if (found == json_->end()) {
    JsonCursor missing(*json_, *this, key, 0);
    missing.fail("missing");
  }
  return JsonCursor(*found, *this, key, 0);
}

std::optional<JsonCursor> JsonCursor::find(std::string_view key) const& {
  expect_object();
  const auto found = json_->find(key);
  if (found == json_->end() || found->is_null()) return std::nullopt;
  return JsonCursor(*found, *this, key, 0);
}

JsonCursor JsonCursor::item(std::size_t index) const& {
  expect_array();
  return JsonCursor((*json_)[index], *this, {}, index);
}

std::size_t JsonCursor::size() const {
  expect_array();
  return json_->size();
}

const std::string& JsonCursor::string() const {
  if (!json_->is_string()) fail("expected a string, found " + json_type_name(*json_));
  return json_->get_ref<const std::string&>();
}

bool JsonCursor::boolean() const {
  if (!json_->is_boolean()) fail("expected true or false, found " + json_type_name(*json_));
  return json_->get<bool>();
}

long long JsonCursor::integer() const {
  if (!json_->is_number_integer()) fail("expected an integer, found " + json_type_name(*json_));
  if (json_->is_number_unsigned() &&
      json_->get<unsigned long long>() > static_cast<unsigned long long>(LLONG_MAX)) {
    fail("integer " + json_->dump() + " is too large");
  }
  return json_->get<long long>();
}

double JsonCursor::number() const {
  if (!json_->is_number()) fail("expected a number, found " + json_type_name(*json_));
  return json_->get<double>();
}

}  // namespace perfgate::ingest
