#pragma once
// Which raw records `compare` judges. `perfgate run` writes each run into its own folder
// (<results>/run-<stamp>/), so by default only the newest run is compared and an old
// record is never judged by accident. Records written straight into the results folder (the
// seed's layout, or another runner's) carry no run, so they are compared together; --all
// compares every record of every run, as the seed's flow does.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <vector>

namespace perfgate {

struct RawRecordSelection {
  std::vector<std::filesystem::path> files;         ///< perf_*.json to compare, sorted
  std::optional<std::filesystem::path> run_folder;  ///< the run compared, when one was chosen
  std::size_t runs_left_out = 0;                    ///< older run folders not compared
  std::size_t loose_left_out = 0;  ///< perf_*.json directly in the results folder left out
};

/// The raw records of `results_dir` to compare: the newest run-* folder's, or with `all`
/// those of every run folder and of the folder itself; without run folders, the folder's
/// own. Error(kNoInput) when the folder does not exist or holds no raw record.
RawRecordSelection select_raw_records(const std::filesystem::path& results_dir, bool all);

}  // namespace perfgate
