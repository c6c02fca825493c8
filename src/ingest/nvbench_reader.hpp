#pragma once
// nvbench --json output (SPEC §8): devices, benchmarks and their states, with the cold
// GPU timing summaries, the clock rate and the --jsonbin sample files of each state.
#include <filesystem>

#include "ingest/result_file.hpp"
#include "model/json.hpp"

namespace perfgate::ingest {

/// The nvbench document `document`, read from `path` (which names it in errors and
/// anchors the bulk files). Numbers may be written as text (nvbench's way) or as JSON
/// numbers. Bulk files are located, never opened. Error(kDataError) "<file>: <json.path>:
/// <reason>. <fix>" for a missing or mistyped field.
ResultFile read_nvbench(const Json& document, const std::filesystem::path& path);

}  // namespace perfgate::ingest
