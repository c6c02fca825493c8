#include "stats/summary.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>
#include <vector>

namespace perfgate {

double quantile_sorted(std::span<const double> sorted, double p) {
  assert(!sorted.empty());
  assert(p >= 0.0 && p <= 1.0);
  assert(std::is_sorted(sorted.begin(), sorted.end()));
  // R type 7: the quantile sits at position h = (n - 1) p between order statistics.
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const auto lower = static_cast<std::size_t>(std::floor(h));
  if (lower + 1 >= sorted.size()) return sorted.back();
  const double fraction = h - static_cast<double>(lower);
  return sorted[lower] + fraction * (sorted[lower + 1] - sorted[lower]);
}

Summary summarize(std::span<const double> samples) {
  Summary summary;
  if (samples.empty()) return summary;
  assert(std::all_of(samples.begin(), samples.end(), [](double v) { return std::isfinite(v); }));

  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  const auto n = static_cast<double>(sorted.size());

  summary.count = sorted.size();
  summary.min = sorted.front();
  summary.max = sorted.back();
  summary.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / n;
  summary.median = quantile_sorted(sorted, 0.5);
  summary.q1 = quantile_sorted(sorted, 0.25);
  summary.q3 = quantile_sorted(sorted, 0.75);
  summary.iqr = summary.q3 - summary.q1;

  if (sorted.size() >= 2) {
    // Two passes (mean first, then squared deviations) keep the variance exact for
    // samples that sit far from zero, where the one-pass sum-of-squares form cancels.
    double squares = 0;
    for (double v : sorted) squares += (v - summary.mean) * (v - summary.mean);
    summary.stdev = std::sqrt(squares / (n - 1));
  }

  std::vector<double> deviations;
  deviations.reserve(sorted.size());
  for (double v : sorted) deviations.push_back(std::fabs(v - summary.median));
  std::sort(deviations.begin(), deviations.end());
  summary.mad = quantile_sorted(deviations, 0.5);
  return summary;
}

}  // namespace perfgate
