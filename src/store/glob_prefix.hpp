#pragma once
// What an index can do for a shell glob over benchmark ids: the text every match starts
// with, so that a database store reads one range of its benchmark index instead of every
// row (`report --benchmark sort-1000` on a store of a million records).
#include <optional>
#include <string>

namespace perfgate {

struct GlobRange {
  std::string lower;                 ///< every match is >= lower (byte order)
  std::optional<std::string> upper;  ///< and < upper, when there is one
  bool exact = false;                ///< the glob has no wildcard: it matches lower alone
};

/// The range of byte strings a glob can match (fnmatch without flags: '*', '?', '[' are
/// wildcards and '\' quotes the next character).
GlobRange glob_range(const std::string& glob);

}  // namespace perfgate
