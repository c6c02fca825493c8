#include "stats/welch_test.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cassert>
#include <cmath>
#include <limits>

namespace perfgate::stats {

Moments moments_of(std::span<const double> values) {
  Moments m;
  m.count = values.size();
  if (values.empty()) return m;
  // Welford's update: one pass, no cancellation of large squares.
  double mean = 0;
  double squares = 0;
  std::size_t n = 0;
  for (const double value : values) {
    ++n;
    const double delta = value - mean;
    mean += delta / static_cast<double>(n);
    squares += delta * (value - mean);
  }
  m.mean = mean;
  m.variance = n > 1 ? squares / static_cast<double>(n - 1) : 0;
  return m;
}

Moments trimmed_moments_of(std::span<const double> values, double trim) {
  const std::size_t n = values.size();
  const auto g = static_cast<std::size_t>(std::floor(trim * static_cast<double>(n)));
  if (g == 0 || n < 2 * g + 2) return moments_of(values);
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t h = n - 2 * g;
  const Moments kept = moments_of(std::span<const double>(sorted).subspan(g, h));
  // Winsorised: the g lowest become the lowest kept value, the g highest the highest.
  for (std::size_t i = 0; i < g; ++i) {
    sorted[i] = sorted[g];
    sorted[n - 1 - i] = sorted[n - 1 - g];
  }
  const Moments winsorised = moments_of(sorted);
  Moments m;
  m.count = h;
  m.mean = kept.mean;
  m.variance = static_cast<double>(n - 1) * winsorised.variance / static_cast<double>(h - 1);
  return m;
}

WelchResult welch_t_test(const Moments& a, const Moments& b) {
  assert(a.count >= 2 && b.count >= 2);
  const double na = static_cast<double>(a.count);
  const double nb = static_cast<double>(b.count);
  const double va = a.variance / na;
  const double vb = b.variance / nb;
  const double se2 = va + vb;
  WelchResult result;
  if (!(se2 > 0)) {
    if (a.mean == b.mean) return result;
    result.t = b.mean > a.mean ? std::numeric_limits<double>::infinity()
                               : -std::numeric_limits<double>::infinity();
    result.degrees_of_freedom = na + nb - 2;
    result.p_value = 0;
    return result;
  }
  result.t = (b.mean - a.mean) / std::sqrt(se2);
  result.degrees_of_freedom = se2 * se2 / (va * va / (na - 1) + vb * vb / (nb - 1));
  const boost::math::students_t distribution(result.degrees_of_freedom);
  result.p_value = 2 * boost::math::cdf(boost::math::complement(distribution, std::fabs(result.t)));
  return result;
}

}  // namespace perfgate::stats
