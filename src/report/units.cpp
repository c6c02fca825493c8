#include "report/units.hpp"

#include <fmt/format.h>

#include <cmath>
#include <utility>

namespace perfgate {

std::string format_quantity(double value, const std::string& unit) {
  const double magnitude = std::fabs(value);
  if (unit == "s") {
    if (magnitude != 0 && magnitude < 1e-6) return fmt::format("{:.4g} ns", value * 1e9);
    if (magnitude != 0 && magnitude < 1e-3) return fmt::format("{:.4g} µs", value * 1e6);
    if (magnitude != 0 && magnitude < 1) return fmt::format("{:.4g} ms", value * 1e3);
    return fmt::format("{:.4g} s", value);
  }
  if (unit == "MB") {
    if (magnitude != 0 && magnitude < 1) return fmt::format("{:.4g} KB", value * 1024);
    if (magnitude >= 1024) return fmt::format("{:.4g} GB", value / 1024);
    return fmt::format("{:.4g} MB", value);
  }
  // Large counts and rates read better with a prefix: 8.334 M records/s, not 8.334e+06.
  // Values from 10^4 up get k (so 9999 stays plain), then M, G, T.
  static constexpr std::pair<double, const char*> kPrefixes[] = {
      {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  std::string scaled = fmt::format("{:.4g}", value);
  for (const auto& [factor, prefix] : kPrefixes) {
    if (magnitude >= factor && magnitude >= 1e4) {
      scaled = fmt::format("{:.4g} {}", value / factor, prefix);
      break;
    }
  }
  if (unit.empty()) return scaled;
  return scaled + " " + unit;
}

}  // namespace perfgate
