#include "diff/cycle_confirmation.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace perfgate::diff {
namespace {

/// Nearest rank with halves rounded up, in integers so that no rounding mode matters.
std::size_t percentile_rank(std::size_t percent, std::size_t count) {
  return (percent * (count - 1) + 50) / 100;
}

}  // namespace

bool usable_samples(std::span<const double> values) {
  return !values.empty() && std::all_of(values.begin(), values.end(), [](double value) {
    return std::isfinite(value) && value > 0;
  });
}

std::optional<std::vector<double>> bulk_cycles(std::span<const double> times,
                                               std::span<const double> frequencies) {
  if (times.size() != frequencies.size() || !usable_samples(times) ||
      !usable_samples(frequencies)) {
    return std::nullopt;
  }
  std::vector<double> cycles(times.size());
  std::transform(times.begin(), times.end(), frequencies.begin(), cycles.begin(),
                 [](double time, double frequency) { return time * frequency; });
  return cycles;
}

CenteredInterval sample_interval(std::span<const double> values) {
  // Three order statistics, not a full sort: this runs for every state with bulk samples.
  std::vector<double> order(values.begin(), values.end());
  const std::size_t n = order.size();
  const auto median = order.begin() + static_cast<std::ptrdiff_t>(percentile_rank(50, n));
  const auto q3 = order.begin() + static_cast<std::ptrdiff_t>(percentile_rank(75, n));
  std::nth_element(order.begin(), q3, order.end());
  std::nth_element(order.begin(), median, q3);
  const double lowest = *std::min_element(order.begin(), median + 1);
  return {lowest, *median, *q3};
}

std::optional<CenteredInterval> summary_cycles(const CenteredInterval& interval,
                                               double clock_rate) {
  if (!std::isfinite(clock_rate) || clock_rate <= 0) return std::nullopt;
  return centered_interval(interval.lower * clock_rate, interval.center * clock_rate,
                           interval.upper * clock_rate);
}

}  // namespace perfgate::diff
