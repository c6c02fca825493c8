#pragma once
// Whether a path lies in a folder, by their absolute, normalised components: "/a/b" holds
// "/a/b" and "/a/b/c", not "/a/bc".
#include <algorithm>
#include <filesystem>

namespace perfgate {

inline bool path_within(const std::filesystem::path& path, const std::filesystem::path& folder) {
  const std::filesystem::path inside = std::filesystem::absolute(path).lexically_normal();
  const std::filesystem::path outer = std::filesystem::absolute(folder).lexically_normal();
  auto end = outer.end();
  if (outer.filename().empty() && outer.has_relative_path()) --end;  // "a/b/" as "a/b"
  return std::mismatch(outer.begin(), end, inside.begin(), inside.end()).first == end;
}

}  // namespace perfgate
