#pragma once
// hyperfine --export-json output: each result is one command (one parameter combination
// of a scan), its run times the samples.
#include <filesystem>

#include "ingest/result_file.hpp"
#include "model/json.hpp"

namespace perfgate::ingest {

/// The hyperfine document `document`, read from `path`. A result's benchmark is its
/// command with each parameter value put back as "{name}", so every command of a
/// parameter scan is one benchmark; its state key is "name=value ..." (in the file's key
/// order, which hyperfine writes sorted). Error(kDataError) "<file>: <json.path>:
/// <reason>. <fix>" for a missing or mistyped field.
ResultFile read_hyperfine(const Json& document, const std::filesystem::path& path);

}  // namespace perfgate::ingest
