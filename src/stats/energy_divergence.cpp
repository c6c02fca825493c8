#include "stats/energy_divergence.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace perfgate::stats {
namespace {

/// Counts and sums of the values added so far, by rank (Fenwick trees), so that the sum of
/// distances from a new value to all of them is two prefix queries.
class RankedSums {
 public:
  explicit RankedSums(std::size_t ranks) : count_(ranks + 1, 0), sum_(ranks + 1, 0.0) {}

  /// Sum of |value - v| over the values added, `value` having rank `rank`.
  double distance_sum(std::size_t rank, double value) const {
    std::size_t below_count = 0;
    double below_sum = 0;
    for (std::size_t i = rank; i > 0; i -= i & (~i + 1)) {  // ranks < rank
      below_count += count_[i];
      below_sum += sum_[i];
    }
    const std::size_t above_count = total_count_ - below_count;  // equal values add 0
    const double above_sum = total_sum_ - below_sum;
    return (value * static_cast<double>(below_count) - below_sum) +
           (above_sum - value * static_cast<double>(above_count));
  }

  void add(std::size_t rank, double value) {
    for (std::size_t i = rank + 1; i < count_.size(); i += i & (~i + 1)) {
      ++count_[i];
      sum_[i] += value;
    }
    ++total_count_;
    total_sum_ += value;
  }

 private:
  std::vector<std::size_t> count_;
  std::vector<double> sum_;
  std::size_t total_count_ = 0;
  double total_sum_ = 0;
};

/// Each value's rank among the distinct values.
std::vector<std::size_t> ranks_of(std::span<const double> values, std::size_t& distinct) {
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  distinct = sorted.size();
  std::vector<std::size_t> ranks(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    ranks[i] = static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), values[i]) -
                                        sorted.begin());
  }
  return ranks;
}

double pairs(std::size_t n) {
  return static_cast<double>(n) * static_cast<double>(n - 1) / 2;
}

}  // namespace

std::vector<double> energy_split_statistics(std::span<const double> values) {
  const std::size_t m = values.size();
  if (m < 2) return {};
  std::size_t distinct = 0;
  const std::vector<std::size_t> ranks = ranks_of(values, distinct);
  // within_left[t]: sum of |z_i - z_k| over pairs of the first t values;
  // within_right[t]: the same over pairs of values t .. m - 1.
  std::vector<double> within_left(m + 1, 0.0);
  std::vector<double> within_right(m + 1, 0.0);
  RankedSums left(distinct);
  for (std::size_t t = 0; t < m; ++t) {
    within_left[t + 1] = within_left[t] + left.distance_sum(ranks[t], values[t]);
    left.add(ranks[t], values[t]);
  }
  RankedSums right(distinct);
  for (std::size_t t = m; t-- > 0;) {
    within_right[t] = within_right[t + 1] + right.distance_sum(ranks[t], values[t]);
    right.add(ranks[t], values[t]);
  }
  const double total = within_left[m];
  std::vector<double> q(m - 1);
  for (std::size_t t = 1; t < m; ++t) {
    const std::size_t u = m - t;
    const double cross = total - within_left[t] - within_right[t];
    double e = 2 * cross / (static_cast<double>(t) * static_cast<double>(u));
    if (t >= 2) e -= within_left[t] / pairs(t);
    if (u >= 2) e -= within_right[t] / pairs(u);
    q[t - 1] = static_cast<double>(t) * static_cast<double>(u) / static_cast<double>(m) * e;
  }
  return q;
}

}  // namespace perfgate::stats
