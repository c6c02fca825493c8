#include "history/regression_flags.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "ab/noise_limit.hpp"

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

std::optional<PairedRise> paired_rise(const std::vector<double>& previous,
                                      const std::vector<double>& current,
                                      const RegressionFlagRule& rule, const std::string& unit) {
  const std::optional<double> absolute = absolute_threshold(rule.absolute_ms, unit);
  const std::size_t n = previous.size();
  if (!absolute || current.size() != n || n < kMinPairedRounds) return std::nullopt;
  std::vector<double> ratios, rises;
  ratios.reserve(n);
  rises.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    if (!(previous[k] > 0 && current[k] > 0 && std::isfinite(previous[k]) &&
          std::isfinite(current[k]))) {
      return std::nullopt;
    }
    ratios.push_back(current[k] / previous[k]);
    rises.push_back(current[k] - previous[k]);
  }
  std::sort(ratios.begin(), ratios.end());
  std::sort(rises.begin(), rises.end());
  // P(Binomial(n, 1/2) <= j), summed until it passes 5%: the bound is the (j + 1)-th smallest
  // value for the last j it did not pass. The terms' logarithms, since 0.5^n is 0 in a double
  // beyond about 1,074 runs.
  double log_term = -static_cast<double>(n) * std::log(2.0);  // log P(X = 0)
  double below = std::exp(log_term);
  std::size_t k = 0;  // index of the bound in the sorted values
  while (k + 1 < n) {
    log_term += std::log(static_cast<double>(n - k) / static_cast<double>(k + 1));  // X = k + 1
    const double term = std::exp(log_term);
    if (below + term > 0.05) break;
    below += term;
    ++k;
  }
  PairedRise pair;
  pair.rounds = n;
  pair.change = median_of(ratios) - 1;
  pair.lower = ratios[k] - 1;
  pair.lower_rise = rises[k];
  pair.rises = pair.lower * 100 > rule.percent && pair.lower_rise > *absolute;
  return pair;
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
