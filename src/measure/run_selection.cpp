#include "measure/run_selection.hpp"

#include <algorithm>
#include <string>

#include "model/error.hpp"
#include "model/natural_order.hpp"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> raw_records_in(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.rfind("perf_", 0) == 0 &&
        entry.path().extension() == ".json") {
      files.push_back(entry.path());
    }
  }
  // Natural order, so that perf_sort_n_3000000_… is judged and shown before perf_sort_n_10000000_….
  std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) {
    return natural_less(a.filename().string(), b.filename().string());
  });
  return files;
}

/// run-<stamp>[-N] folders that hold raw records, oldest first. The stamp is UTC and
/// fixed-width, and a suffix sorts after its bare name, so name order is time order.
std::vector<fs::path> run_folders_in(const fs::path& dir) {
  std::vector<fs::path> runs;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_directory() || entry.path().filename().string().rfind("run-", 0) != 0) continue;
    if (!raw_records_in(entry.path()).empty()) runs.push_back(entry.path());
  }
  std::sort(runs.begin(), runs.end());
  return runs;
}

}  // namespace

RawRecordSelection select_raw_records(const fs::path& results_dir, bool all) {
  if (!fs::is_directory(results_dir)) {
    throw Error(ExitCode::kNoInput, results_dir.string() +
                                        ": no such results folder. Run 'perfgate run' first, or "
                                        "pass --results-dir");
  }
  RawRecordSelection selection;
  const std::vector<fs::path> loose = raw_records_in(results_dir);
  const std::vector<fs::path> runs = run_folders_in(results_dir);
  if (all || runs.empty()) {
    selection.files = loose;
    for (const fs::path& run : runs) {
      const auto files = raw_records_in(run);
      selection.files.insert(selection.files.end(), files.begin(), files.end());
    }
    if (runs.size() == 1 && loose.empty()) selection.run_folder = runs.front();
  } else {
    selection.run_folder = runs.back();
    selection.files = raw_records_in(runs.back());
    selection.runs_left_out = runs.size() - 1;
    selection.loose_left_out = loose.size();
  }
  if (selection.files.empty()) {
    throw Error(ExitCode::kNoInput,
                results_dir.string() + ": no raw records (perf_*.json). Run 'perfgate run' first");
  }
  return selection;
}

}  // namespace perfgate
