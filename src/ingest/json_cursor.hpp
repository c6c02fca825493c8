#pragma once
// A position inside a parsed result file: the value, and how to name it
// ("benchmarks[2].states[5].summaries[3].data[0].value") when it is malformed. The path
// is assembled only when an error is raised, so walking a document of 10,000 states costs
// no string building. A child refers to its parent, so children are made from named
// cursors only (the rvalue overloads are deleted): a child of a temporary would dangle.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "model/json.hpp"

namespace perfgate::ingest {

/// The file a document came from, and the fix that ends its error messages when a
/// check has no better one.
struct JsonSource {
  std::string name;
  std::string fix;
};

class JsonCursor {
 public:
  /// The top level of a document; `source` must outlive every cursor into it.
  JsonCursor(const Json& root, const JsonSource& source);

  const Json& json() const { return *json_; }
  bool is_null() const { return json_->is_null(); }
  /// The JSON path, "(top level)" for the document itself.
  std::string path() const;
  /// Error(kDataError) "<file>: <path>: <reason>. <fix>" (the source's fix by default).
  [[noreturn]] void fail(std::string_view reason, std::string_view fix = {}) const;

  /// The member `key` of this object (which may be null); "missing" when absent.
  JsonCursor at(std::string_view key) const&;
  JsonCursor at(std::string_view key) const&& = delete;
  /// The member `key`, or nullopt when it is absent or null.
  std::optional<JsonCursor> find(std::string_view key) const&;
  std::optional<JsonCursor> find(std::string_view key) const&& = delete;
  /// Item `index` of this array (index < size()).
  JsonCursor item(std::size_t index) const&;
  JsonCursor item(std::size_t index) const&& = delete;
  /// The number of items of this array.
  std::size_t size() const;

  // Typed reads; a wrong type fails with "expected <kind>, found <kind>".
  void expect_object() const;
  void expect_array() const;
  const std::string& string() const;
  bool boolean() const;
  long long integer() const;
  /// Any JSON number, including the NaN and infinities of the tolerant parser.
  double number() const;

 private:
  JsonCursor(const Json& json, const JsonCursor& parent, std::string_view key, std::size_t index);
  void append_path(std::string& out) const;

  const Json* json_;
  const JsonSource* source_;
  const JsonCursor* parent_ = nullptr;
  std::string_view key_;  ///< empty for an array item
  std::size_t index_ = 0;
};

}  // namespace perfgate::ingest
