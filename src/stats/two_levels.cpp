#include "stats/two_levels.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace perfgate::stats {
namespace {

constexpr std::size_t kFewestRuns = 6;
constexpr double kLeastRatio = 1.10;  // the slow group's median over the fast group's
constexpr double kGapOverScatter = 6.0;

// The median of sorted[begin, end).
double median_in(const std::vector<double>& sorted, std::size_t begin, std::size_t end) {
  const std::size_t n = end - begin;
  const std::size_t middle = begin + n / 2;
  return n % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// The median absolute deviation of sorted[begin, end) from its median.
double mad_in(const std::vector<double>& sorted, std::size_t begin, std::size_t end) {
  const double center = median_in(sorted, begin, end);
  std::vector<double> deviations;
  for (std::size_t i = begin; i < end; ++i) deviations.push_back(std::fabs(sorted[i] - center));
  std::sort(deviations.begin(), deviations.end());
  return median_in(deviations, 0, deviations.size());
}

}  // namespace

std::optional<TwoLevels> find_two_levels(std::span<const double> samples) {
  const std::size_t n = samples.size();
  if (n < kFewestRuns) return std::nullopt;
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  if (!(sorted.front() > 0) || !std::isfinite(sorted.back())) return std::nullopt;
  const std::size_t fewest = std::max<std::size_t>(3, (n + 4) / 5);
  // The split with the largest jump relative to the values around it: sorted[split] is the
  // fastest of the slow group.
  std::size_t best = 0;
  double best_ratio = 1;
  for (std::size_t split = fewest; split + fewest <= n; ++split) {
    const double ratio = sorted[split] / sorted[split - 1];
    if (ratio > best_ratio) {
      best_ratio = ratio;
      best = split;
    }
  }
  if (best == 0) return std::nullopt;
  TwoLevels levels{best, n - best, median_in(sorted, 0, best), median_in(sorted, best, n)};
  if (levels.slow_median < kLeastRatio * levels.fast_median) return std::nullopt;
  const double gap = sorted[best] - sorted[best - 1];
  const double scatter = std::max(mad_in(sorted, 0, best), mad_in(sorted, best, n));
  if (!(gap > kGapOverScatter * scatter)) return std::nullopt;
  return levels;
}

}  // namespace perfgate::stats
