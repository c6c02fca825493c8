#pragma once
// --format-in of `diff` and `import`: the result format every input file is read as.
#include <optional>
#include <string>
#include <vector>

#include "ingest/result_file.hpp"

namespace perfgate {

/// nullopt for "" (recognise the format from each file's content); Error(kUsage) naming
/// the accepted spellings for anything unknown.
std::optional<ingest::ResultFormat> parse_format_in_flag(const std::string& text);

/// The names --format-in takes, for completion.
std::vector<std::string> format_in_values();

}  // namespace perfgate
