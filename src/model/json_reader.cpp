#include "model/json_reader.hpp"

#include <climits>

#include "model/error.hpp"

namespace perfgate {

std::string json_type_name(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      return "an integer";
    case Json::value_t::number_float:
      return "a number";
    case Json::value_t::string:
      return "a string";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::object:
      return "an object";
    case Json::value_t::binary:
    case Json::value_t::discarded:
      break;
  }
  return "binary data";
}

JsonObjectReader::JsonObjectReader(const Json& object, std::string source, std::string path)
    : object_(object), source_(std::move(source)), path_(std::move(path)) {
  if (!object_.is_object()) {
    fail(path_.empty() ? "(top level)" : path_,
         "expected an object, found " + json_type_name(object_), "Write it as a JSON object {…}");
  }
}

bool JsonObjectReader::has(const std::string& key) const {
  return object_.contains(key);
}

std::string JsonObjectReader::path_of(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

void JsonObjectReader::fail(const std::string& path, const std::string& reason,
                            const std::string& fix) const {
  throw Error(ExitCode::kDataError, source_ + ": " + path + ": " + reason + ". " + fix);
}

const Json& JsonObjectReader::member(const std::string& key) {
  const auto found = object_.find(key);
  if (found == object_.end()) {
    fail(path_of(key), "missing",
         "Add the field; every file perfgate writes in this layout carries it");
  }
  read_.insert(key);
  return *found;
}

void JsonObjectReader::mark_read(const std::string& key) {
  read_.insert(key);
}

bool JsonObjectReader::absent_or_null(const std::string& key) {
  mark_read(key);
  return !has(key) || object_.at(key).is_null();
}

const Json& JsonObjectReader::typed(const std::string& key, bool (Json::*is_type)() const noexcept,
                                    const char* expected) {
  const Json& value = member(key);
  if (!(value.*is_type)()) {
    fail(path_of(key), std::string("expected ") + expected + ", found " + json_type_name(value),
         std::string("Write it as ") + expected);
  }
  return value;
}

std::string JsonObjectReader::string(const std::string& key) {
  return typed(key, &Json::is_string, "a string").get<std::string>();
}

std::optional<std::string> JsonObjectReader::optional_string(const std::string& key) {
  if (absent_or_null(key)) return std::nullopt;
  return string(key);
}

long long JsonObjectReader::integer(const std::string& key) {
  const Json& value = typed(key, &Json::is_number_integer, "an integer");
  if (value.is_number_unsigned() &&
      value.get<unsigned long long>() > static_cast<unsigned long long>(LLONG_MAX)) {
    fail(path_of(key), "integer " + value.dump() + " is too large", "Use a value below 2^63");
  }
  return value.get<long long>();
}

std::optional<long long> JsonObjectReader::optional_integer(const std::string& key) {
  if (absent_or_null(key)) return std::nullopt;
  return integer(key);
}

double JsonObjectReader::number(const std::string& key) {
  return typed(key, &Json::is_number, "a number").get<double>();
}

std::optional<double> JsonObjectReader::optional_number(const std::string& key) {
  if (absent_or_null(key)) return std::nullopt;
  return number(key);
}

bool JsonObjectReader::boolean(const std::string& key) {
  return typed(key, &Json::is_boolean, "true or false").get<bool>();
}

std::optional<bool> JsonObjectReader::optional_boolean(const std::string& key) {
  if (absent_or_null(key)) return std::nullopt;
  return boolean(key);
}

const Json& JsonObjectReader::object(const std::string& key) {
  return typed(key, &Json::is_object, "an object");
}

const Json& JsonObjectReader::array(const std::string& key) {
  return typed(key, &Json::is_array, "an array");
}

const Json* JsonObjectReader::optional_object(const std::string& key) {
  if (absent_or_null(key)) return nullptr;
  return &object(key);
}

void JsonObjectReader::reject_unknown_keys() const {
  for (const auto& [key, value] : object_.items()) {
    if (!read_.contains(key)) {
      fail(path_of(key), "unknown field",
           "Remove it; this layout has a fixed set of fields (see docs/store.md)");
    }
  }
}

Json JsonObjectReader::unread_members() const {
  Json unread = Json::object();
  for (const auto& [key, value] : object_.items()) {
    if (!read_.contains(key)) unread[key] = value;
  }
  return unread;
}

}  // namespace perfgate
