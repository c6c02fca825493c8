#pragma once
// pyperf JSON (python -m pyperf ... -o FILE, plain or .json.gz): every benchmark of the
// suite is one state, the values of its measured runs the samples.
#include <filesystem>

#include "ingest/result_file.hpp"
#include "model/json.hpp"

namespace perfgate::ingest {

/// The pyperf document `document`, read from `path`. Metadata is inherited suite ->
/// benchmark -> run (name, unit, calibration markers); warmups and calibration runs are
/// left out. Values in unit "second" are timings in seconds ("wall_time"); values in any
/// other unit are kept as they are, the unit naming the timing. Error(kDataError)
/// "<file>: <json.path>: <reason>. <fix>" for a missing or mistyped field.
ResultFile read_pyperf(const Json& document, const std::filesystem::path& path);

}  // namespace perfgate::ingest
