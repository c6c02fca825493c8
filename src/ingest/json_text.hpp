#pragma once
// Parsing the JSON text of a result file. Google Benchmark writes NaN, Infinity and
// -Infinity as bare tokens, which strict JSON (and nlohmann) rejects; they are accepted
// here outside strings and become the double values they name. Nesting deeper than
// kMaxJsonDepth is refused, so a hostile file cannot exhaust the stack of code that
// walks the document.
#include <cstddef>
#include <string>
#include <string_view>

#include "model/json.hpp"

namespace perfgate::ingest {

inline constexpr std::size_t kMaxJsonDepth = 512;

/// The document in `text`. Error(kDataError) "<source>:<line>:<column>: <reason>. <fix>"
/// for an empty text, a syntax error or nesting deeper than kMaxJsonDepth.
Json parse_result_json(std::string_view text, const std::string& source);

}  // namespace perfgate::ingest
