#pragma once
// An archive snapshot held in memory, for tests of what reads an archive: path -> bytes.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "history/archive.hpp"

namespace perfgate::testing {

class MemorySnapshot final : public history::ArchiveSnapshot {
 public:
  std::map<std::string, std::string> files;
  std::optional<std::string> read(const std::string& path) const override {
    const auto found = files.find(path);
    if (found == files.end()) return std::nullopt;
    return found->second;
  }
  /// The names directly in `folder` (files or folders), sorted.
  std::vector<std::string> list(const std::string& folder) const override {
    std::vector<std::string> names;
    for (const auto& [path, bytes] : files) {
      if (path.rfind(folder + "/", 0) != 0) continue;
      const std::string rest = path.substr(folder.size() + 1);
      const std::string name = rest.substr(0, rest.find('/'));
      if (names.empty() || names.back() != name) names.push_back(name);
    }
    return names;
  }
};

}  // namespace perfgate::testing
