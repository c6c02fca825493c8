#pragma once
// Typed, path-aware reading of one JSON object of a file perfgate wrote (records,
// attempts, store files). Every failure is Error(kDataError) in the form
// "<source>: <json.path>: <reason>. <fix>", so a user can find and repair the field.
#include <optional>
#include <set>
#include <string>

#include "model/json.hpp"

namespace perfgate {

class JsonObjectReader {
 public:
  /// `path` is where the object sits in the document ("" for the top level, e.g.
  /// "records[2]"). Error when `object` is not a JSON object.
  JsonObjectReader(const Json& object, std::string source, std::string path);

  bool has(const std::string& key) const;
  /// The member, marked as read; Error when missing.
  const Json& member(const std::string& key);

  std::string string(const std::string& key);
  /// Absent or null -> nullopt.
  std::optional<std::string> optional_string(const std::string& key);
  long long integer(const std::string& key);
  std::optional<long long> optional_integer(const std::string& key);
  double number(const std::string& key);
  std::optional<double> optional_number(const std::string& key);
  bool boolean(const std::string& key);
  std::optional<bool> optional_boolean(const std::string& key);
  /// The member, which must be a JSON object / array.
  const Json& object(const std::string& key);
  const Json& array(const std::string& key);
  /// Absent or null -> nullptr.
  const Json* optional_object(const std::string& key);

  /// Error naming the first member that no accessor read.
  void reject_unknown_keys() const;
  /// The members that no accessor read, as an object (legacy layouts keep them).
  Json unread_members() const;

  /// "path.key", or "key" at the top level.
  std::string path_of(const std::string& key) const;
  const std::string& source() const { return source_; }
  /// The whole object, for callers that walk its keys.
  const Json& json() const { return object_; }

  /// Error(kDataError) "<source>: <path>: <reason>. <fix>".
  [[noreturn]] void fail(const std::string& path, const std::string& reason,
                         const std::string& fix) const;

 private:
  void mark_read(const std::string& key);
  /// Marks the key as read; true when it is missing or null.
  bool absent_or_null(const std::string& key);
  const Json& typed(const std::string& key, bool (Json::*is_type)() const noexcept,
                    const char* expected);

  const Json& object_;
  std::string source_;
  std::string path_;
  std::set<std::string> read_;
};

/// The JSON type of a value in words ("a string", "null", …), for messages.
std::string json_type_name(const Json& value);

}  // namespace perfgate
