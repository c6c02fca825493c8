#include "diff/side_estimate.hpp"

#include <algorithm>
#include <cmath>

namespace perfgate::diff {
namespace {

using ingest::TimingSummary;

bool positive_finite(const std::optional<double>& value) {
  return value && std::isfinite(*value) && *value > 0;
}

/// The stated relative dispersion, else absolute / center when both make sense.
std::optional<double> relative_dispersion(const std::optional<double>& relative,
                                          const std::optional<double>& absolute,
                                          const std::optional<double>& center) {
  if (relative) return relative;
  // `!(x >= 0)` also rejects nan.
  if (!absolute || !(*absolute >= 0) || !positive_finite(center)) return std::nullopt;
  return *absolute / *center;
}

bool has_robust_estimate(const TimingSummary& s) {
  return s.median && (s.iqr_relative || s.iqr_absolute);
}

SideTiming robust_estimate(const TimingSummary& s) {
  return {s.median, relative_dispersion(s.iqr_relative, s.iqr_absolute, s.median), std::nullopt};
}

SideTiming classical_estimate(const TimingSummary& s) {
  return {s.mean, relative_dispersion(s.stdev_relative, s.stdev_absolute, s.mean), std::nullopt};
}

std::optional<SideTiming> robust_side(const TimingSummary& s) {
  if (!has_robust_estimate(s)) return std::nullopt;
  if (!positive_finite(s.min) || !positive_finite(s.q1) || !positive_finite(s.median) ||
      !positive_finite(s.q3) || *s.min > *s.q1 || *s.q1 > *s.median || *s.median > *s.q3) {
    return std::nullopt;
  }
  SideTiming side = robust_estimate(s);
  side.interval = centered_interval(*s.min, *s.median, *s.q3);
  return side;
}

/// The absolute stdev as stated, else derived from the relative one.
std::optional<double> absolute_stdev(const TimingSummary& s) {
  if (s.stdev_absolute) return s.stdev_absolute;
  if (s.stdev_relative && std::isfinite(*s.stdev_relative) && *s.stdev_relative >= 0 &&
      positive_finite(s.mean)) {
    return *s.stdev_relative * *s.mean;
  }
  return std::nullopt;
}

std::optional<SideTiming> classical_side(const TimingSummary& s) {
  const std::optional<double> stdev = absolute_stdev(s);
  if (!positive_finite(s.mean) || !stdev || !std::isfinite(*stdev) || *stdev < 0) {
    return std::nullopt;
  }
  // The floor keeps the lower edge positive when the stdev exceeds the mean, so ratios
  // and logarithms of the edges stay defined.
  double lower = std::max(*s.mean - *stdev, *s.mean * 0.001);
  double upper = *s.mean + *stdev;
  if (positive_finite(s.min)) lower = std::max(lower, *s.min);
  if (positive_finite(s.max)) upper = std::min(upper, *s.max);
  std::optional<CenteredInterval> interval = centered_interval(lower, *s.mean, upper);
  if (!interval) return std::nullopt;
  SideTiming side = classical_estimate(s);
  side.interval = interval;
  return side;
}

}  // namespace

std::optional<CenteredInterval> centered_interval(double lower, double center, double upper) {
  const bool valid = std::isfinite(lower) && std::isfinite(center) && std::isfinite(upper) &&
                     lower > 0 && lower <= center && center <= upper;
  if (!valid) return std::nullopt;
  return CenteredInterval{lower, center, upper};
}

TimingEstimates estimate_timings(const TimingSummary& reference, const TimingSummary& compare) {
  const std::optional<SideTiming> robust_ref = robust_side(reference);
  const std::optional<SideTiming> robust_cmp = robust_side(compare);
  if (robust_ref && robust_cmp) return {*robust_ref, *robust_cmp, true};

  const std::optional<SideTiming> classical_ref = classical_side(reference);
  const std::optional<SideTiming> classical_cmp = classical_side(compare);
  if (classical_ref && classical_cmp) return {*classical_ref, *classical_cmp, false};

  if (has_robust_estimate(reference) && has_robust_estimate(compare)) {
    return {robust_estimate(reference), robust_estimate(compare), true};
  }
  return {classical_estimate(reference), classical_estimate(compare), false};
}

bool usable_noise(const std::optional<double>& noise) {
  return noise && std::isfinite(*noise) && *noise >= 0;
}

}  // namespace perfgate::diff
