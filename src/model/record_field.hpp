#pragma once
// A value of a JSON record file together with its JSON path, so every check of a record
// read from disk can say "<file>: <json.path>: <reason>. <fix>" and never crash on a
// wrong type: nlohmann's own accessors throw type errors that name neither.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/error.hpp"
#include "model/json.hpp"

namespace perfgate {

class RecordField {
 public:
  /// The root of the document `source` (a file name); `fix` ends every error message.
  RecordField(const Json& root, std::string source, std::string fix);

  /// e.g. "metrics.latency.samples[2]"; "(root)" for the document itself.
  const std::string& path() const { return path_; }
  const Json& json() const { return *json_; }
  bool is_null() const { return json_->is_null(); }

  /// Error(kDataError) "<source>: <path>: <reason>. <fix>", with the document's fix
  /// unless `fix` is given.
  Error error(std::string_view reason, std::string_view fix = {}) const;

  /// The member `key` of this object; "is missing" when absent, "must be an object"
  /// when this is not one.
  RecordField at(std::string_view key) const;
  /// The member `key`, or nullopt when it is absent.
  std::optional<RecordField> find(std::string_view key) const;
  /// Members of an object, in key order.
  std::vector<std::pair<std::string, RecordField>> members() const;
  /// Items of an array.
  std::vector<RecordField> items() const;

  // Typed reads; a wrong type is "must be <a kind>".
  const Json& object() const;
  std::string string() const;
  std::string non_empty_string() const;
  std::optional<std::string> string_or_null() const;
  long long integer() const;
  std::optional<long long> integer_or_null() const;
  double finite_number() const;  ///< null (how JSON writes nan and inf) is not one
  bool boolean() const;

 private:
  RecordField(const Json& json, std::string path, const RecordField& parent);
  std::string child_path(std::string_view key) const;

  const Json* json_;
  std::string path_;
  std::string source_;
  std::string fix_;
};

}  // namespace perfgate
