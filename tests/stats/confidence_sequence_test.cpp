#include "stats/confidence_sequence.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

namespace perfgate::stats {
namespace PERFGATE_TEST_FILE {

/// Gaussian noise from splitmix64 and Box-Muller: the same numbers on every platform.
class Noise {
 public:
  explicit Noise(std::uint64_t seed) : state_(seed) {}
  double gaussian() {
    return std::sqrt(-2 * std::log(uniform())) * std::cos(2 * std::numbers::pi * uniform());
  }

 private:
  double uniform() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (static_cast<double>(z >> 11) + 0.5) / 9007199254740992.0;
  }
  std::uint64_t state_;
};

/// The Bayes factor the sequence inverts, straight from its formula.
double bayes_factor(double t, std::size_t n, double g) {
  const double nu = static_cast<double>(n) - 1;
  const double spread = 1 + static_cast<double>(n) * g;
  return std::pow(spread, -0.5) *
         std::pow((1 + t * t / nu) / (1 + t * t / (nu * spread)), static_cast<double>(n) / 2);
}

/// Pairs of a simulated A/B run, looked at after each: the decision at the first pair where
/// the sequence decides, and that pair's number; kUndecided after `max_pairs`.
std::pair<BudgetDecision, std::size_t> run(Noise& noise, double mean, double sd, double threshold,
                                           std::size_t max_pairs) {
  std::vector<double> values;
  for (std::size_t n = 1; n <= max_pairs; ++n) {
    values.push_back(mean + sd * noise.gaussian());
    const BudgetDecision decision = decide_against_budget(values, threshold, 0.01);
    if (decision != BudgetDecision::kUndecided) return {decision, n};
  }
  return {BudgetDecision::kUndecided, max_pairs};
}

/// Uniform in (0, 1) from the same generator, for the robustness scenarios.
double uniform(Noise& noise) {
  return 0.5 * (1 + std::erf(noise.gaussian() / std::sqrt(2.0)));
}

/// Pair `n`'s log-ratio noise in the shapes real machines make (docs/ab.md lists them).
enum class Shape { kOutliers, kSlowFirstPair, kDrift, kBimodal };
double shaped_noise(Noise& noise, Shape shape, int n) {
  switch (shape) {
    case Shape::kOutliers: {  // 3% of pairs: one side 1.5x slower
      double x = 0.03 * noise.gaussian();
      if (uniform(noise) < 0.03) x += (uniform(noise) < 0.5 ? 1 : -1) * std::log(1.5);
      return x;
    }
    case Shape::kSlowFirstPair:  // the head's first measured run 40% slow
      return 0.03 * noise.gaussian() + (n == 1 ? std::log(1.4) : 0);
    case Shape::kDrift:  // the machine slows 0.2% a pair; the order alternates each pair
      return 0.03 * noise.gaussian() + (n % 2 ? 1 : -1) * 0.002 * n / 2;
    case Shape::kBimodal: {  // each run lands 8% high with odds 0.3, on either side
      const double base = uniform(noise) < 0.3 ? std::log(1.08) : 0;
      const double head = uniform(noise) < 0.3 ? std::log(1.08) : 0;
      return 0.02 * noise.gaussian() + head - base;
    }
  }
  return 0;
}

/// How often `tries` runs of a head `slower` than the base end in REGRESSION.
std::size_t regressions(Noise& noise, Shape shape, double slower, std::size_t tries) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < tries; ++i) {
    std::vector<double> values;
    for (int n = 1; n <= 60; ++n) {
      values.push_back(std::log(slower) + shaped_noise(noise, shape, n));
      const BudgetDecision decision = decide_against_budget(values, std::log(1.05), 0.01);
      if (decision == BudgetDecision::kAboveBudget) ++count;
      if (decision != BudgetDecision::kUndecided) break;
    }
  }
  return count;
}

TEST(ConfidenceSequence, NeverFlagsIdenticalCodeThroughOutliersASlowFirstPairDriftOrTwoModes) {
  Noise noise(13);
  for (const Shape shape :
       {Shape::kOutliers, Shape::kSlowFirstPair, Shape::kDrift, Shape::kBimodal}) {
    EXPECT_LE(regressions(noise, shape, 1.0, 500), 5u) << static_cast<int>(shape);
    EXPECT_LE(regressions(noise, shape, 1.03, 500), 5u) << static_cast<int>(shape);
  }
}

TEST(ConfidenceSequence, StillCatchesATenPercentSlowerHeadThroughThem) {
  Noise noise(14);
  for (const Shape shape :
       {Shape::kOutliers, Shape::kSlowFirstPair, Shape::kDrift, Shape::kBimodal}) {
    // Outliers cost the most: a wide interval needs more pairs than 60 in about 10%.
    EXPECT_GE(regressions(noise, shape, 1.10, 500), 425u) << static_cast<int>(shape);
  }
}

TEST(ConfidenceSequence, TheBoundaryIsWhereTheBayesFactorReachesOneOverAlpha) {
  // Values from scipy.optimize.brentq on the same formula (SciPy 1.10.1).
  EXPECT_NEAR(*t_boundary(14, 0.01), 4.548207240033575, 1e-9);
  EXPECT_NEAR(*t_boundary(60, 0.01), 3.869585978561561, 1e-9);
  EXPECT_NEAR(*t_boundary(10, 0.05), 3.8697867393713223, 1e-9);
  EXPECT_NEAR(bayes_factor(*t_boundary(25, 0.001), 25, 1), 1000, 1e-6);
  // Below 6 values no t reaches 100: the factor's limit is (1 + n)^((n - 1)/2), 36 at n = 5.
  EXPECT_FALSE(t_boundary(5, 0.01).has_value());
  EXPECT_TRUE(t_boundary(6, 0.01).has_value());
  EXPECT_FALSE(mean_confidence_sequence(std::vector<double>{1.0}, 0.01).has_value());
}

TEST(ConfidenceSequence, GivesTheMeanWithItsHalfWidth) {
  const std::vector<double> values = {0.10, 0.12, 0.08, 0.11, 0.09, 0.10, 0.12, 0.08};
  const auto interval = mean_confidence_sequence(values, 0.01);
  ASSERT_TRUE(interval.has_value());
  EXPECT_NEAR(interval->estimate, 0.1, 1e-15);
  // Deviations 0, ±0.02 (four), ±0.01 (two): s^2 = 1.8e-3 / 7; half width t* s / sqrt(8).
  const double half = *t_boundary(8, 0.01) * std::sqrt((4 * 4e-4 + 2 * 1e-4) / 7 / 8);
  EXPECT_NEAR(interval->upper - interval->estimate, half, 1e-12);
  EXPECT_NEAR(interval->estimate - interval->lower, half, 1e-12);
  const auto point = mean_confidence_sequence(std::vector<double>(10, 0.2), 0.01);
  ASSERT_TRUE(point.has_value());
  EXPECT_EQ(point->lower, 0.2);
  EXPECT_EQ(point->upper, 0.2);
}

TEST(ConfidenceSequence, HoldsTheTrueMeanAtEveryLookInAtLeastNinetyNinePercentOfRuns) {
  // 2,000 runs of 60 values each, looked at after every value from the second: the
  // sequence must miss the true mean at some look in at most alpha = 1% of runs.
  Noise noise(11);
  std::size_t missed = 0;
  const std::size_t runs = 2000;
  for (std::size_t r = 0; r < runs; ++r) {
    std::vector<double> values;
    bool miss = false;
    for (std::size_t n = 1; n <= 60; ++n) {
      values.push_back(0.05 + 0.03 * noise.gaussian());
      const auto interval = mean_confidence_sequence(values, 0.01);
      if (interval && (interval->lower > 0.05 || interval->upper < 0.05)) miss = true;
    }
    missed += miss;
  }
  EXPECT_LE(missed, runs / 100) << missed << " of " << runs << " runs missed the mean";
}

TEST(ConfidenceSequence, DecidesAgainstABudgetWithItsErrorRate) {
  // The goals in log-ratio terms, on Gaussian pairs with a spread of 3% per pair:
  // budget 5% (threshold log 1.05), at most 60 pairs, alpha 1%.
  const double threshold = std::log(1.05);
  Noise noise(12);
  const std::size_t tries = 400;
  std::size_t false_regressions = 0;
  std::size_t regressions = 0;
  std::vector<std::size_t> pairs_to_regression;
  std::size_t small_regressions = 0;
  for (std::size_t i = 0; i < tries; ++i) {
    // Identical code: the head is as fast as the base.
    false_regressions += run(noise, 0, 0.03, threshold, 60).first == BudgetDecision::kAboveBudget;
    // Head 10% slower.
    const auto [decision, pairs] = run(noise, std::log(1.10), 0.03, threshold, 60);
    if (decision == BudgetDecision::kAboveBudget) {
      ++regressions;
      pairs_to_regression.push_back(pairs);
    }
    // Head 3% slower, within the 5% budget.
    small_regressions +=
        run(noise, std::log(1.03), 0.03, threshold, 60).first == BudgetDecision::kAboveBudget;
  }
  EXPECT_LE(false_regressions, tries / 100);
  EXPECT_LE(small_regressions, tries / 100);
  EXPECT_GE(regressions, tries * 95 / 100);
  std::nth_element(pairs_to_regression.begin(),
                   pairs_to_regression.begin() + pairs_to_regression.size() / 2,
                   pairs_to_regression.end());
  EXPECT_LE(pairs_to_regression[pairs_to_regression.size() / 2], 20u);
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate::stats
