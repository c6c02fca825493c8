#pragma once
// The data of one nvbench summary: {"tag": ..., "data": [{"name", "type", "value"}]}.
// nvbench writes numbers as text ("value": "0.0010034") to keep every digit; JSON numbers
// are accepted as well. Every failure names the datum's JSON path.
#include <optional>
#include <string>
#include <string_view>

#include "ingest/json_cursor.hpp"

namespace perfgate::ingest {

/// The "value" datum of a numeric summary (type float64 or int64); nullopt when null.
/// Text that is not a number, or out of a double's range, is Error(kDataError).
std::optional<double> summary_number(const JsonCursor& summary);
/// The integer datum `datum` (a sample size, a bulk file's size), written as text or not.
long long summary_integer(const JsonCursor& summary, std::string_view datum);
/// The string datum `datum` (a bulk file's name).
std::string summary_text(const JsonCursor& summary, std::string_view datum);

}  // namespace perfgate::ingest
