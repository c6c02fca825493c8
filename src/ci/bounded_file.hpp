#pragma once
// A file perfgate reads whole but only up to a bound: what CI hands `perfgate comment` (the
// report, GitHub's event file) is read before it is checked, and must not make it hold an
// unbounded file.
#include <cstddef>
#include <optional>
#include <string>

namespace perfgate {

/// The file's bytes, at most `limit + 1` of them (more than `limit` means it is too large);
/// nullopt when it cannot be opened.
std::optional<std::string> read_at_most(const std::string& path, std::size_t limit);

}  // namespace perfgate
