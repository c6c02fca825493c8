#include "stats/mann_whitney.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <utility>
#include <vector>

namespace perfgate::stats {
namespace {

/// P(U >= u) under the null hypothesis, from the counts of the orderings of m + n values
/// by their U: the coefficients of the Gaussian binomial [m + n choose m] in q, built as
/// the product over i = 1..m of (1 - q^(n+i)) / (1 - q^i). m is the smaller size.
double exact_survival(double u, std::size_t m, std::size_t n) {
  std::vector<double> counts(m * n + 1, 0.0);
  counts[0] = 1;
  std::size_t degree = 0;
  for (std::size_t i = 1; i <= m; ++i) {
    // times (1 - q^(n+i)), from the top down
    const std::size_t shift = n + i;
    for (std::size_t k = std::min(degree + shift, m * n); k >= shift; --k) {
      counts[k] -= counts[k - shift];
      if (k == shift) break;
    }
    degree += n;  // the quotient's degree grows by (n + i) - i
    // divided by (1 - q^i): a running sum with stride i
    for (std::size_t k = i; k <= degree; ++k) counts[k] += counts[k - i];
    // The product's terms above the quotient's degree are not part of it.
    std::fill(counts.begin() + static_cast<std::ptrdiff_t>(degree) + 1, counts.end(), 0.0);
  }
  double total = 0;
  double above = 0;
  for (std::size_t k = 0; k <= m * n; ++k) {
    total += counts[k];
    if (static_cast<double>(k) >= u) above += counts[k];
  }
  return above / total;
}

}  // namespace

MannWhitneyResult mann_whitney_u(std::span<const double> first, std::span<const double> second) {
  assert(!first.empty() && !second.empty());
  const std::size_t n1 = first.size();
  const std::size_t n2 = second.size();
  // Average ranks of the pooled values; `tie_term` sums t^3 - t over groups of t tied values.
  std::vector<std::pair<double, bool>> pooled;  // value, from the first sample
  pooled.reserve(n1 + n2);
  for (const double value : first) pooled.emplace_back(value, true);
  for (const double value : second) pooled.emplace_back(value, false);
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  double rank_sum = 0;
  double tie_term = 0;
  bool ties = false;
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double average_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    const double t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    ties |= j - i > 1;
    for (std::size_t k = i; k < j; ++k) {
      if (pooled[k].second) rank_sum += average_rank;
    }
    i = j;
  }
  MannWhitneyResult result;
  const double m = static_cast<double>(n1);
  const double n = static_cast<double>(n2);
  result.u = rank_sum - m * (m + 1) / 2;
  const double u = std::max(result.u, m * n - result.u);  // the larger: its upper tail
  if ((n1 <= 8 || n2 <= 8) && !ties) {
    result.exact = true;
    result.p_value = 2 * exact_survival(u, std::min(n1, n2), std::max(n1, n2));
  } else {
    const double total = m + n;
    const double spread = std::sqrt(m * n / 12 * ((total + 1) - tie_term / (total * (total - 1))));
    // The continuity correction, subtracted as SciPy does: the survival function is used.
    result.p_value = spread > 0 ? std::erfc((u - m * n / 2 - 0.5) / spread / std::sqrt(2.0)) : 2;
  }
  result.p_value = std::clamp(result.p_value, 0.0, 1.0);
  return result;
}

}  // namespace perfgate::stats
