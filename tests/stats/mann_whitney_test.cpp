#include "stats/mann_whitney.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace perfgate::stats {

// Expected values: scipy.stats.mannwhitneyu(x, y, alternative="two-sided") of SciPy 1.10.1,
// the call Google Benchmark's compare.py makes.
TEST(MannWhitney, MatchesSciPyOnSmallSamplesWithTheExactDistribution) {
  const auto r = mann_whitney_u(std::vector<double>{1.1, 2.3, 0.7, 3.5, 2.2},
                                std::vector<double>{4.1, 3.9, 5.2, 4.8, 6.0, 3.6});
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.u, 0);
  EXPECT_NEAR(r.p_value, 0.004329004329004329, 1e-15);
  const auto interleaved =
      mann_whitney_u(std::vector<double>{1, 2, 3, 4}, std::vector<double>{1.5, 2.5, 3.5, 4.5});
  EXPECT_TRUE(interleaved.exact);
  EXPECT_EQ(interleaved.u, 6);
  EXPECT_NEAR(interleaved.p_value, 0.6857142857142857, 1e-15);
}

TEST(MannWhitney, UsesTheExactDistributionWhenOnlyTheSmallerSampleIsSmall) {
  std::vector<double> twenty;
  for (int i = 0; i < 20; ++i) twenty.push_back(0.05 * i + 0.012);
  const auto three = mann_whitney_u(std::vector<double>{0.31, 0.77, 1.93}, twenty);
  EXPECT_TRUE(three.exact);
  EXPECT_EQ(three.u, 42);
  EXPECT_NEAR(three.p_value, 0.3094297007340485, 1e-14);
  std::vector<double> eight, thirty;
  for (int i = 0; i < 8; ++i) eight.push_back(1.0 + 0.013 * i * i);
  for (int i = 0; i < 30; ++i) thirty.push_back(1.05037 + 0.011 * i);
  const auto r = mann_whitney_u(eight, thirty);
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.u, 108);
  EXPECT_NEAR(r.p_value, 0.6862514439664147, 1e-13);
}

TEST(MannWhitney, MatchesSciPyWithTiesAndLargerSamplesByTheNormalApproximation) {
  const auto r =
      mann_whitney_u(std::vector<double>{10.0, 10.2, 10.1, 9.9, 10.3, 10.0, 10.2, 10.1, 10.0},
                     std::vector<double>{10.4, 10.5, 10.3, 10.6, 10.4, 10.2, 10.5, 10.7, 10.4});
  EXPECT_FALSE(r.exact);
  EXPECT_EQ(r.u, 2.5);
  EXPECT_NEAR(r.p_value, 0.0008460819985054576, 1e-15);
  std::vector<double> halves;
  for (int i = 0; i < 20; ++i) halves.push_back(i / 2.0);
  const auto tied = mann_whitney_u(std::vector<double>{3, 1, 2}, halves);  // ties: asymptotic
  EXPECT_FALSE(tied.exact);
  EXPECT_EQ(tied.u, 13.5);
  EXPECT_NEAR(tied.p_value, 0.14382970250719432, 1e-14);
}

TEST(MannWhitney, GivesOneForIdenticalConstantSamples) {
  const auto r = mann_whitney_u(std::vector<double>{5, 5, 5}, std::vector<double>{5, 5, 5});
  EXPECT_EQ(r.u, 4.5);
  EXPECT_EQ(r.p_value, 1);
}

}  // namespace perfgate::stats
