#pragma once
// An anytime-valid confidence sequence for the mean of a Gaussian sample with unknown
// variance, for decisions made after every new value (`perfgate ab --method stat` looks
// after every pair). It inverts the scale-invariant Bayes factor of the one-sample t-test
// with a normal prior N(0, g) on the standardised effect (mu - mu0) / sigma and the
// right-Haar prior on sigma, which is a test martingale in the filtration of the
// scale-invariant statistics, so Ville's inequality bounds the chance that it ever exceeds
// 1/alpha under the null (V. Pérez-Ortiz, T. Lardy, R. de Heide and P. Grünwald,
// "E-Statistics, Group Invariance and Anytime-Valid Testing", Annals of Statistics 52(4),
// 2024; H. Wang and A. Ramdas, "Anytime-valid t-tests and confidence sequences for Gaussian
// means with unknown variance", arXiv 2310.03722, whose Gaussian-mixture variant of Lai's
// 1976 construction it is). With t the t-statistic of n values (nu = n - 1),
//   BF_n = (1 + n g)^(-1/2) * ((1 + t^2/nu) / (1 + t^2 / (nu (1 + n g))))^(n/2),
// and the sequence is every mu0 with BF_n(mu0) < 1/alpha: mean ± t*_n s / sqrt(n), where
// BF_n(t*_n) = 1/alpha. It holds the true mean at every n at once with probability at
// least 1 - alpha, however the looks are used to stop. Pure functions.
#include <cstddef>
#include <optional>
#include <span>

namespace perfgate::stats {

/// The prior variance of the standardised effect: 1, a unit-information prior. It puts the
/// test's power on effects of about one standard deviation of a pair's log-ratio.
inline constexpr double kEffectPriorVariance = 1.0;

/// t*_n for n values at level alpha; nullopt while no finite t reaches 1/alpha (the
/// sequence is still the whole line: too few values). n >= 2, 0 < alpha < 1.
std::optional<double> t_boundary(std::size_t n, double alpha, double g = kEffectPriorVariance);

struct MeanInterval {
  double estimate = 0;  ///< the sample mean
  double lower = 0;
  double upper = 0;
};

/// The confidence sequence's interval after `values`; nullopt below 2 values or while it
/// is unbounded. A sample of identical values gives the point itself.
std::optional<MeanInterval> mean_confidence_sequence(std::span<const double> values, double alpha,
                                                     double g = kEffectPriorVariance);

enum class BudgetDecision {
  kAboveBudget,  ///< the whole interval lies above the threshold: a regression
  kBelowBudget,  ///< the whole interval lies below it: within budget
  kUndecided,    ///< the interval holds the threshold: measure more
};

/// Where the sequence's interval after `values` lies against `threshold`.
BudgetDecision decide_against_budget(std::span<const double> values, double threshold, double alpha,
                                     double g = kEffectPriorVariance);

}  // namespace perfgate::stats
