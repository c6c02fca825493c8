#include "report/units.hpp"

#include <fmt/format.h>

#include <cmath>

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
  if (unit.empty()) return fmt::format("{:.4g}", value);
  return fmt::format("{:.4g} {}", value, unit);
}

}  // namespace perfgate
