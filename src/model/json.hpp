#pragma once
// perfgate's JSON value: nlohmann::json, whose objects keep keys sorted, so every
// document we write has a deterministic key order.
#include <nlohmann/json.hpp>

#include <string>

namespace perfgate {
using Json = nlohmann::json;

/// Indented JSON for files and terminals, ending in a newline. Text that is not valid
/// UTF-8 (a file name or a command line can hold any bytes) is written with U+FFFD in
/// place of the bad bytes instead of failing the whole document.
inline std::string pretty_json(const Json& value) {
  return value.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}
/// The same for a document whose keys keep the order they were written in (another
/// program's format, reproduced as that program writes it).
inline std::string pretty_json(const nlohmann::ordered_json& value) {
  return value.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}
}  // namespace perfgate
