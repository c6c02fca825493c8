#include "history/regression_flags.hpp"

#include <optional>

namespace perfgate::history {
namespace {

/// rule.absolute_ms in `unit`; 0 for a count of work (instructions, cycles: issue 36);
/// nullopt when the unit is neither.
std::optional<double> absolute_threshold(double absolute_ms, const std::string& unit) {
  // A count has no absolute noise floor to stand in for: a deterministic program repeats
  // it exactly, and a program that does not has MADs that the third rule weighs.
  if (unit == "instructions" || unit == "cycles") return 0.0;
  if (unit == "s") return absolute_ms / 1000;
  if (unit == "ms") return absolute_ms;
  if (unit == "us" || unit == "µs") return absolute_ms * 1000;
  if (unit == "ns") return absolute_ms * 1e6;
  return std::nullopt;
}

}  // namespace

bool rises_markedly(const SeriesPoint& previous, const SeriesPoint& point,
                    const RegressionFlagRule& rule, const std::string& unit) {
  const std::optional<double> absolute = absolute_threshold(rule.absolute_ms, unit);
  if (!absolute) return false;
  const double rise = point.median - previous.median;
  return rise * 100 > rule.percent * previous.median && rise > *absolute &&
         rise > rule.mad_factor * (point.mad + previous.mad);
}

std::vector<bool> regression_flags(const std::vector<SeriesPoint>& points,
                                   const RegressionFlagRule& rule, const std::string& unit) {
  std::vector<bool> flags(points.size(), false);
  for (std::size_t i = 1; i < points.size(); ++i) {
    flags[i] = rises_markedly(points[i - 1], points[i], rule, unit);
  }
  return flags;
}

}  // namespace perfgate::history
