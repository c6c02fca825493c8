#pragma once
// Reading raw records (perf_*.json) for judging: compare's run folder, and the
// confirmations compare --confirm wrote beside them.
#include <filesystem>
#include <vector>

#include "gate/batch_comparison.hpp"

namespace perfgate {

/// The raw records (perf_*.json) chosen by select_raw_records. A file that is not a raw
/// record perfgate can read is kept with the reason, so that it becomes one INFRA_ERROR
/// among the verdicts of the others instead of hiding them. Seed-layout records are
/// converted to perfgate's layout here, before anything is judged.
std::vector<RawInput> read_raw_records(const std::vector<std::filesystem::path>& files);

}  // namespace perfgate
