#pragma once
// "Did you mean ...?" for unknown config keys: the nearest known key by edit distance.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate {

/// Levenshtein distance: single-character insertions, deletions and substitutions.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The known key nearest to `unknown`, if it is close enough to be a plausible typo:
/// distance <= max(2, length of `unknown` / 3). Ties go to the earlier known key.
std::optional<std::string> nearest_key(std::string_view unknown,
                                       const std::vector<std::string>& known);

/// The fix for an unknown key: "Did you mean 'command'?" when a key is near, otherwise
/// "Known keys: a, b, c".
std::string unknown_key_fix(std::string_view unknown, const std::vector<std::string>& known);

}  // namespace perfgate
