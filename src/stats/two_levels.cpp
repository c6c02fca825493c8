#include "stats/two_levels.hpp"

#include "stats/summary.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace perfgate::stats {
namespace {

constexpr std::size_t kFewestRuns = 6;
constexpr double kLeastRatio = 1.10;  // the slow group's median over the fast group's
constexpr double kGapOverScatter = 6.0;

}  // namespace

std::optional<TwoLevels> find_two_levels(std::span<const double> samples) {
  const std::size_t n = samples.size();
  if (n < kFewestRuns) return std::nullopt;
  std::vector<double> sorted(samples.begin(), samples.end());
  if (!std::all_of(sorted.begin(), sorted.end(), [](double v) { return std::isfinite(v); }))
    return std::nullopt;
  std::sort(sorted.begin(), sorted.end());
  if (!(sorted.front() > 0)) return std::nullopt;
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
  const std::span<const double> all(sorted);
  const Summary fast = summarize(all.first(best));
  const Summary slow = summarize(all.subspan(best));
  if (slow.median < kLeastRatio * fast.median) return std::nullopt;
  const double gap = sorted[best] - sorted[best - 1];
  if (!(gap > kGapOverScatter * std::max(fast.mad, slow.mad))) return std::nullopt;
  return TwoLevels{best, n - best, fast.median, slow.median};
}

}  // namespace perfgate::stats
