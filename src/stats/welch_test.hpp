#pragma once
// Welch's unequal-variances t-test of two independent samples (B. L. Welch, "The
// generalization of Student's problem when several different population variances are
// involved", Biometrika 1947): the significance test of a change point's two segments.
#include <cstddef>
#include <span>
#include <vector>

namespace perfgate::stats {

/// Count, mean and unbiased variance (n - 1) of a sample.
struct Moments {
  std::size_t count = 0;
  double mean = 0;
  double variance = 0;
};
Moments moments_of(std::span<const double> values);

/// The moments that make welch_t_test Yuen's test of trimmed means (K. K. Yuen, "The
/// two-sample trimmed t for unequal population variances", Biometrika 61, 1974): g =
/// floor(trim * n) values are cut from each end; count is h = n - 2g, mean the trimmed
/// mean, and variance (n - 1) * s_w^2 / (h - 1), where s_w^2 is the winsorised variance,
/// so that variance / count is Yuen's squared standard error d = (n - 1) s_w^2 / (h (h - 1))
/// and Welch's degrees of freedom are Yuen's. An outlier among the cut values moves
/// neither the mean nor the variance. trim = 0 gives moments_of.
Moments trimmed_moments_of(std::span<const double> values, double trim);

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
