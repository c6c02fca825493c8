#pragma once
// Welch's unequal-variances t-test of two independent samples (B. L. Welch, "The
// generalization of Student's problem when several different population variances are
// involved", Biometrika 1947): the significance test of a change point's two segments.
#include <cstddef>
#include <span>

namespace perfgate::stats {

/// Count, mean and unbiased variance (n - 1) of a sample.
struct Moments {
  std::size_t count = 0;
  double mean = 0;
  double variance = 0;
};
Moments moments_of(std::span<const double> values);

struct WelchResult {
  double t = 0;                   ///< (mean_b - mean_a) / standard error
  double degrees_of_freedom = 0;  ///< Welch-Satterthwaite
  double p_value = 1;             ///< two-sided
};

/// The test of "both samples have the same mean". Each sample needs two values. When both
/// variances are 0 the standard error is 0: different means give p = 0 (t = ±inf), equal
/// ones p = 1.
WelchResult welch_t_test(const Moments& a, const Moments& b);

}  // namespace perfgate::stats
