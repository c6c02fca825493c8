#pragma once
// Human-readable quantities for terminal and Markdown output.
#include <string>

namespace perfgate {

/// Formats `value` in `unit` with 4 significant digits, scaling seconds (ns, µs, ms, s)
/// and megabytes (KB, MB, GB); other units are printed as given ("12.5 frames/s").
std::string format_quantity(double value, const std::string& unit);

}  // namespace perfgate
