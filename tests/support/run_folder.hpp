#pragma once
// Where `perfgate run` put its records: <results>/run-<stamp>/, one folder per run.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace perfgate::testing {

/// The newest run-* folder of `results`, or `results` itself when it has none (a folder
/// written by another runner, or one that does not exist).
inline std::filesystem::path newest_run_folder(const std::filesystem::path& results) {
  std::vector<std::filesystem::path> runs;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(results, ec)) {
    if (entry.is_directory() && entry.path().filename().string().rfind("run-", 0) == 0)
      runs.push_back(entry.path());
  }
  if (runs.empty()) return results;
  return *std::max_element(runs.begin(), runs.end());
}

}  // namespace perfgate::testing
