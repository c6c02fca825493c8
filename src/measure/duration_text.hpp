#pragma once
// A time limit as people write it on a command line: "90s", "2m", "1h", "500ms", or a bare
// number of seconds. Used by --timeout of `ab` and `run`.
#include <string>
#include <string_view>

namespace perfgate {

/// Seconds in `text`; throws std::invalid_argument saying how to write it when it is not a
/// positive duration.
double parse_duration_text(std::string_view text);

/// "90 s", "2.5 s", "600 s": a limit as the report states it.
std::string describe_duration(double seconds);

}  // namespace perfgate
