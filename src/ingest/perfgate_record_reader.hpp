#pragma once
// perfgate's own records as result files: raw records (perf_*.json, also in the seed's
// flat layout) with their samples, and normalised records with one value per metric.
#include <filesystem>

#include "ingest/result_file.hpp"
#include "model/json.hpp"

namespace perfgate::ingest {

/// The record (or JSON array of records) `document`, read from `path` as `format`
/// (kPerfgateRaw or kPerfgateNormalized). Each record is one state: benchmark = the
/// config's benchmark id, state key = the parameter part of the state's id
/// ("sort[n=10,k=2]" -> "n=10,k=2"), axes = its parameters, primary timing = "latency".
/// Raw records give samples; normalised records only the latency value (summary mean).
/// A failed record is a skipped state. Records are validated as `perfgate compare` does:
/// Error(kDataError) "<file>: <json.path>: <reason>. <fix>".
ResultFile read_perfgate_records(const Json& document, const std::filesystem::path& path,
                                 ResultFormat format);

}  // namespace perfgate::ingest
