#pragma once
// The happy path of a strict reader, over simdjson's DOM: documents read by the ten
// thousand (history attempts at an export, a store's records for a dashboard) go straight
// into their structs. Anything unusual throws NotTheHappyPath, and the caller hands the
// text to its strict reader, which names every reason. So both readers agree on every
// document: the fuzzers check it.
#include <simdjson.h>

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace perfgate::fast_fields {

using simdjson::dom::element;
using simdjson::dom::element_type;

/// Thrown where the strict reader must take over; never leaves a fast reader.
struct NotTheHappyPath {};

[[noreturn]] inline void give_up() {
  throw NotTheHappyPath{};
}

inline void require(bool condition) {
  if (!condition) give_up();
}

inline std::string_view text_of(element value) {
  require(value.type() == element_type::STRING);
  return std::string_view(value);
}

inline simdjson::dom::object object_of(element value) {
  require(value.type() == element_type::OBJECT);
  return simdjson::dom::object(value);
}

inline simdjson::dom::array array_of(element value) {
  require(value.type() == element_type::ARRAY);
  return simdjson::dom::array(value);
}

inline bool boolean_of(element value) {
  require(value.type() == element_type::BOOL);
  return bool(value);
}

/// The fields of an object by name, the last of duplicates winning as in nlohmann's parser.
template <std::size_t N>
struct Fields {
  std::array<std::string_view, N> names;
  std::array<std::optional<element>, N> values{};

  /// Whether `key` is one of the names; its value is then kept.
  bool take(std::string_view key, element value) {
    for (std::size_t i = 0; i < N; ++i) {
      if (names[i] == key) {
        values[i] = value;
        return true;
      }
    }
    return false;
  }
  element operator[](std::size_t i) const {
    require(values[i].has_value());
    return *values[i];
  }
  bool has(std::size_t i) const { return values[i].has_value(); }
};

/// The named fields of `object`; other keys are ignored.
template <std::size_t N>
Fields<N> fields_of(simdjson::dom::object object, std::array<std::string_view, N> names) {
  Fields<N> fields{names};
  for (const auto field : object) fields.take(field.key, field.value);
  return fields;
}

/// The named fields of `object`, giving up on any other key (a strict reader rejects it).
template <std::size_t N>
Fields<N> exact_fields_of(simdjson::dom::object object, std::array<std::string_view, N> names) {
  Fields<N> fields{names};
  for (const auto field : object) require(fields.take(field.key, field.value));
  return fields;
}

/// The position of `name` in `names`; a name that is not there does not compile.
template <std::size_t N>
consteval std::size_t index_of(const std::array<std::string_view, N>& names,
                               std::string_view name) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == name) return i;
  }
  throw "not one of the fields";
}

}  // namespace perfgate::fast_fields
