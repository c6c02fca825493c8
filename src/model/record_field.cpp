#include "model/record_field.hpp"

#include <cmath>
#include <limits>

namespace perfgate {
namespace {
constexpr const char* kRootPath = "(root)";
}  // namespace

RecordField::RecordField(const Json& root, std::string source, std::string fix)
    : json_(&root), path_(kRootPath), source_(std::move(source)), fix_(std::move(fix)) {}

RecordField::RecordField(const Json& json, std::string path, const RecordField& parent)
    : json_(&json), path_(std::move(path)), source_(parent.source_), fix_(parent.fix_) {}

std::string RecordField::child_path(std::string_view key) const {
  return path_ == kRootPath ? std::string(key) : path_ + "." + std::string(key);
}

Error RecordField::error(std::string_view reason, std::string_view fix) const {
  return Error(ExitCode::kDataError, source_ + ": " + path_ + ": " + std::string(reason) + ". " +
                                         (fix.empty() ? fix_ : std::string(fix)));
}

RecordField RecordField::at(std::string_view key) const {
  if (auto member = find(key)) return *member;
  throw RecordField(*json_, child_path(key), *this).error("is missing");
}

std::optional<RecordField> RecordField::find(std::string_view key) const {
  const Json& self = object();
  const auto it = self.find(key);
  if (it == self.end()) return std::nullopt;
  return RecordField(*it, child_path(key), *this);
}

std::vector<std::pair<std::string, RecordField>> RecordField::members() const {
  std::vector<std::pair<std::string, RecordField>> result;
  for (const auto& [key, value] : object().items()) {
    result.emplace_back(key, RecordField(value, child_path(key), *this));
  }
  return result;
}

std::vector<RecordField> RecordField::items() const {
  if (!json_->is_array()) throw error("must be an array");
  std::vector<RecordField> result;
  for (std::size_t i = 0; i < json_->size(); ++i) {
    result.push_back(RecordField((*json_)[i], path_ + "[" + std::to_string(i) + "]", *this));
  }
  return result;
}

const Json& RecordField::object() const {
  if (!json_->is_object()) throw error("must be an object");
  return *json_;
}

std::string RecordField::string() const {
  if (!json_->is_string()) throw error("must be a string");
  return json_->get<std::string>();
}

std::string RecordField::non_empty_string() const {
  std::string text = string();
  if (text.empty()) throw error("must not be empty");
  return text;
}

std::optional<std::string> RecordField::string_or_null() const {
  if (json_->is_null()) return std::nullopt;
  if (!json_->is_string()) throw error("must be a string or null");
  return json_->get<std::string>();
}

long long RecordField::integer() const {
  if (json_->is_number_unsigned() &&
      json_->get<Json::number_unsigned_t>() >
          static_cast<Json::number_unsigned_t>(std::numeric_limits<long long>::max())) {
    throw error("must be an integer no larger than " +
                std::to_string(std::numeric_limits<long long>::max()));
  }
  if (!json_->is_number_integer()) throw error("must be an integer");
  return json_->get<long long>();
}

std::optional<long long> RecordField::integer_or_null() const {
  if (json_->is_null()) return std::nullopt;
  if (!json_->is_number_integer()) throw error("must be an integer or null");
  return integer();
}

double RecordField::finite_number() const {
  if (!json_->is_number() || !std::isfinite(json_->get<double>())) {
    throw error("must be a finite number");
  }
  return json_->get<double>();
}

bool RecordField::boolean() const {
  if (!json_->is_boolean()) throw error("must be true or false");
  return json_->get<bool>();
}

}  // namespace perfgate
