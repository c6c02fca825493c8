#pragma once
// Google Benchmark JSON (--benchmark_out=FILE --benchmark_out_format=json): every
// repetition of a benchmark instance is a sample of one state.
#include <filesystem>

#include "ingest/result_file.hpp"
#include "model/json.hpp"

namespace perfgate::ingest {

/// The Google Benchmark document `document`, read from `path`. Rows of one run_name are
/// one state: its iteration rows are samples (real_time in seconds, cpu_time and counters
/// as extra metrics); its aggregate rows give the summary only when it has no iteration
/// rows. Complexity (BigO/RMS) rows and non-finite samples are dropped with a warning.
/// Error(kDataError) "<file>: <json.path>: <reason>. <fix>" for a missing or mistyped field.
ResultFile read_google_benchmark(const Json& document, const std::filesystem::path& path);

}  // namespace perfgate::ingest
