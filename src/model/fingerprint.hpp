#pragma once
// Canonical JSON and the SHA-256 fingerprints built on it (recipe, hw-, sw-, env-).
// The canonical form is documented in docs/fingerprints.md.
#include <string>
#include <string_view>

#include "model/json.hpp"

namespace perfgate {

/// The canonical text of a JSON value: object keys sorted by their UTF-8 bytes, no
/// insignificant whitespace, strings with the minimal escapes (UTF-8 kept as is),
/// integers in plain decimal, a floating-point number that holds an integer value
/// below 2^53 written as that integer, and every other number in its shortest
/// round-trip form. Non-finite numbers cannot be canonicalised: Error(kDataError).
std::string canonical_json(const Json& value);

/// Lowercase hex SHA-256 of arbitrary bytes.
std::string sha256_hex(std::string_view bytes);

/// Lowercase hex SHA-256 of a file's contents; Error(kNoInput) when it cannot be read.
std::string sha256_file(const std::string& path);

/// SHA-256 of canonical_json(value): the recipe fingerprint.
std::string fingerprint(const Json& value);

/// "<prefix>-" followed by the first 16 hex digits of fingerprint(value),
/// e.g. profile_id("hw", profile) == "hw-3f2a...".
std::string profile_id(std::string_view prefix, const Json& value);

}  // namespace perfgate
