#pragma once
// Parsing large numbers of JSON documents fast: simdjson's DOM parser, whose SIMD kernels
// are chosen at run time for the CPU, and a conversion into perfgate's Json, so that the
// readers that validate documents field by field (the history archive's attempts, read by
// the ten thousand at an export) can convert only what they keep.
#include <optional>
#include <string_view>

#include "model/json.hpp"

namespace simdjson::dom {
class element;
}

namespace perfgate {

/// The document in `text`, or nullopt when it is not valid JSON (including a number beyond
/// a double, and nesting deeper than 1,024 levels). Duplicate keys keep the last value, as
/// nlohmann's parser does. Safe to call from several threads at once.
std::optional<Json> parse_json_fast(std::string_view text);

/// A parsed element as perfgate's Json, duplicate keys keeping the last value.
Json json_of(const simdjson::dom::element& element);

}  // namespace perfgate
