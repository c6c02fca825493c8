#include "stats/confidence_sequence.hpp"

#include <cassert>
#include <cmath>

#include "stats/welch_test.hpp"

namespace perfgate::stats {

std::optional<double> t_boundary(std::size_t n, double alpha, double g) {
  assert(n >= 2 && alpha > 0 && alpha < 1 && g > 0);
  const double nu = static_cast<double>(n) - 1;
  const double spread = 1 + static_cast<double>(n) * g;
  // BF(t) = 1/alpha  <=>  (1 + t^2/nu) = R (1 + t^2/(nu spread)), R = (sqrt(spread)/alpha)^(2/n)
  const double r =
      std::exp(2 / static_cast<double>(n) * (std::log(1 / alpha) + 0.5 * std::log(spread)));
  const double room = 1 - r / spread;
  if (!(room > 0)) return std::nullopt;  // BF stays below 1/alpha for every t
  return std::sqrt(nu * (r - 1) / room);
}

std::optional<MeanInterval> mean_confidence_sequence(std::span<const double> values, double alpha,
                                                     double g) {
  if (values.size() < 2) return std::nullopt;
  const auto boundary = t_boundary(values.size(), alpha, g);
  if (!boundary) return std::nullopt;
  const Moments m = moments_of(values);
  const double half = *boundary * std::sqrt(m.variance / static_cast<double>(m.count));
  return MeanInterval{m.mean, m.mean - half, m.mean + half};
}

BudgetDecision decide_against_budget(std::span<const double> values, double threshold, double alpha,
                                     double g) {
  const auto interval = mean_confidence_sequence(values, alpha, g);
  if (!interval) return BudgetDecision::kUndecided;
  if (interval->lower > threshold) return BudgetDecision::kAboveBudget;
  if (interval->upper < threshold) return BudgetDecision::kBelowBudget;
  return BudgetDecision::kUndecided;
}

}  // namespace perfgate::stats
