#pragma once
// --since values: a duration back from now ("30d", "12h", "90m", "2w") or a date or
// instant ("2026-11-01", "2026-11-01T08:00:00Z"), turned into an ISO 8601 UTC instant that
// record timestamps compare with as text.
#include <ctime>
#include <string>

namespace perfgate {

/// Error(kUsage) naming `flag` for anything else.
std::string since_to_timestamp(const std::string& text, std::time_t now,
                               const std::string& flag = "--since");

/// `when` as ISO 8601 UTC with seconds: 2026-11-30T11:37:04Z.
std::string iso_utc(std::time_t when);

/// The same instant for file names, without separators: 20261130T113704Z.
std::string file_stamp_utc(std::time_t when);

}  // namespace perfgate
