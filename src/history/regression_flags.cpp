#include "history/regression_flags.hpp"

#include <optional>

namespace perfgate::history {
namespace {

/// rule.absolute_ms in `unit`; nullopt when the unit is not a time.
std::optional<double> absolute_threshold(double absolute_ms, const std::string& unit) {
  if (unit == "s") return absolute_ms / 1000;
  if (unit == "ms") return absolute_ms;
  if (unit == "us" || unit == "µs") return absolute_ms * 1000;
  if (unit == "ns") return absolute_ms * 1e6;
  return std::nullopt;
}

}  // namespace

std::vector<bool> regression_flags(const std::vector<SeriesPoint>& points,
                                   const RegressionFlagRule& rule, const std::string& unit) {
  std::vector<bool> flags(points.size(), false);
  const std::optional<double> absolute = absolute_threshold(rule.absolute_ms, unit);
  if (!absolute) return flags;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const SeriesPoint& previous = points[i - 1];
    const SeriesPoint& point = points[i];
    const double rise = point.median - previous.median;
    flags[i] = rise * 100 > rule.percent * previous.median && rise > *absolute &&
               rise > rule.mad_factor * (point.mad + previous.mad);
  }
  return flags;
}

}  // namespace perfgate::history
