#pragma once
// What every file of the history pipeline shares (attempts, the ledger, plans, batches,
// baseline.json): a JSON object with a schema_version this perfgate reads, parsed with the
// fast parser, each failure reported as "<source>: <reason>. <fix>".
#include <string>
#include <string_view>

#include "model/json.hpp"
#include "model/json_reader.hpp"

namespace perfgate::history {

inline constexpr int kHistorySchemaVersion = 1;

/// The object in `text`. Error(kDataError) "<source>: not a JSON object. <damaged_fix>".
Json parse_history_object(std::string_view text, const std::string& source,
                          const std::string& damaged_fix);

/// Error(kDataError) unless schema_version is 1 .. kHistorySchemaVersion; `newer_fix` says
/// what to do about a file from a newer perfgate.
void check_history_schema(JsonObjectReader& reader, const std::string& newer_fix);

}  // namespace perfgate::history
