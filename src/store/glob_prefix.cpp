#include "store/glob_prefix.hpp"

namespace perfgate {

GlobRange glob_range(const std::string& glob) {
  GlobRange range;
  std::size_t i = 0;
  for (; i < glob.size(); ++i) {
    const char c = glob[i];
    if (c == '*' || c == '?' || c == '[') break;
    if (c == '\\') {
      if (i + 1 == glob.size()) break;  // a trailing backslash: leave it to fnmatch
      range.lower += glob[++i];
      continue;
    }
    range.lower += c;
  }
  range.exact = i == glob.size();
  // The smallest string above every string that starts with the prefix: the prefix with
  // its last byte below 0xFF raised by one.
  std::string upper = range.lower;
  while (!upper.empty() && static_cast<unsigned char>(upper.back()) == 0xFF) upper.pop_back();
  if (!upper.empty()) {
    upper.back() = static_cast<char>(static_cast<unsigned char>(upper.back()) + 1);
    range.upper = upper;
  }
  return range;
}

}  // namespace perfgate
