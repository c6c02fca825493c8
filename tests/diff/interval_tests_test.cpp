// The interval tests the decision tree is built from: clear gap, centers, overlap, cycles.
#include <gtest/gtest.h>

#include <cmath>

#include "diff/clear_gap.hpp"
#include "diff/cycle_confirmation.hpp"
#include "diff/summary_same.hpp"
#include "diff_fixtures.hpp"

namespace perfgate::diff {
namespace PERFGATE_TEST_FILE {

TEST(ClearGap, IsFastWhenCompareLiesBelowByAtLeastTheThreshold) {
  // (2 - 1) / 1 = 100% gap.
  EXPECT_EQ(clear_gap({2, 3, 4}, {0.5, 0.8, 1}, 1.0), DiffStatus::kFast);
  EXPECT_EQ(clear_gap({2, 3, 4}, {0.5, 0.8, 1}, 1.0000001), std::nullopt);
}

TEST(ClearGap, IsSlowWhenCompareLiesAboveByAtLeastTheThreshold) {
  // (6 - 4) / 4 = 50% gap.
  EXPECT_EQ(clear_gap({2, 3, 4}, {6, 7, 8}, 0.5), DiffStatus::kSlow);
  EXPECT_EQ(clear_gap({2, 3, 4}, {6, 7, 8}, 0.51), std::nullopt);
}

TEST(ClearGap, NeedsDisjointIntervalsEvenWithAZeroThreshold) {
  EXPECT_EQ(clear_gap({2, 3, 4}, {1, 1.5, 2}, 0), std::nullopt);
  EXPECT_EQ(clear_gap({2, 3, 4}, {3, 5, 6}, 0), std::nullopt);
}

TEST(ClearGap, MeasuresTheGapRelativeToTheLowerIntervalsUpperEdge) {
  EXPECT_DOUBLE_EQ(relative_gap({2, 3, 4}, {6, 7, 8}), 0.5);
  EXPECT_DOUBLE_EQ(relative_gap({2, 3, 4}, {0.5, 0.8, 1}), 1.0);
  EXPECT_DOUBLE_EQ(relative_gap({2, 3, 4}, {3, 5, 6}), -0.25);
}

TEST(SummarySame, CenterDifferenceIsSymmetric) {
  EXPECT_DOUBLE_EQ(center_difference(1.0, 1.5), 0.5);
  EXPECT_DOUBLE_EQ(center_difference(1.5, 1.0), 0.5);
}

TEST(SummarySame, OverlapIsMeasuredAgainstTheNarrowerInterval) {
  EXPECT_DOUBLE_EQ(overlap_fraction({1, 2, 3}, {2, 2.5, 6}), 0.5);
  EXPECT_DOUBLE_EQ(overlap_fraction({2, 2.5, 6}, {1, 2, 3}), 0.5);
  EXPECT_DOUBLE_EQ(overlap_fraction({1, 2, 3}, {1.5, 2, 2.5}), 1.0);
  EXPECT_DOUBLE_EQ(overlap_fraction({1, 2, 3}, {4, 5, 6}), 0.0);
}

TEST(SummarySame, ZeroWidthIntervalsOverlapFullyOrNotAtAll) {
  EXPECT_DOUBLE_EQ(overlap_fraction({2, 2, 2}, {1, 2, 3}), 1.0);
  EXPECT_DOUBLE_EQ(overlap_fraction({1, 2, 3}, {3, 3, 3}), 1.0);
  EXPECT_DOUBLE_EQ(overlap_fraction({2, 2, 2}, {2, 2, 2}), 1.0);
  EXPECT_DOUBLE_EQ(overlap_fraction({2, 2, 2}, {2.5, 2.5, 2.5}), 0.0);
  EXPECT_DOUBLE_EQ(overlap_fraction({4, 4, 4}, {1, 2, 3}), 0.0);
}

TEST(SummarySame, ChecksCentersBeforeOverlap) {
  DiffThresholds t = testing::default_thresholds();
  t.same_center_relative = 0.1;
  t.same_overlap_fraction = 0.5;
  EXPECT_EQ(summary_same({1, 2, 3}, {1.5, 2.1, 3.5}, t), SummarySame::kSame);
  EXPECT_EQ(summary_same({1, 2, 3}, {2.9, 2.95, 10}, t), SummarySame::kCentersNotClose);
  EXPECT_EQ(summary_same({1, 2, 3}, {2.05, 2.1, 10}, t), SummarySame::kWeakOverlap);
}

TEST(CycleConfirmation, MultipliesEachSampleTimeByItsFrequency) {
  const auto cycles = bulk_cycles(std::vector<double>{2e-3, 3e-3}, std::vector<double>{1e9, 2e9});
  ASSERT_TRUE(cycles.has_value());
  EXPECT_EQ(*cycles, (std::vector<double>{2e6, 6e6}));
}

TEST(CycleConfirmation, FormsNoCyclesFromMismatchedOrInvalidSamples) {
  EXPECT_FALSE(bulk_cycles(std::vector<double>{1, 2}, std::vector<double>{1}).has_value());
  EXPECT_FALSE(bulk_cycles(std::vector<double>{1, 2}, std::vector<double>{1, 0}).has_value());
  EXPECT_FALSE(
      bulk_cycles(std::vector<double>{1, std::nan("")}, std::vector<double>{1, 1}).has_value());
  EXPECT_FALSE(bulk_cycles(std::vector<double>{}, std::vector<double>{}).has_value());
}

TEST(CycleConfirmation, SampleIntervalUsesNearestRankQuantilesRoundedHalfUp) {
  // n = 5: median rank 2, q3 rank 3.
  const CenteredInterval odd = sample_interval(std::vector<double>{5, 1, 4, 2, 3});
  EXPECT_EQ(odd.lower, 1);
  EXPECT_EQ(odd.center, 3);
  EXPECT_EQ(odd.upper, 4);
  // n = 4: median rank round(1.5) = 2, q3 rank round(2.25) = 2.
  const CenteredInterval even = sample_interval(std::vector<double>{40, 10, 30, 20});
  EXPECT_EQ(even.lower, 10);
  EXPECT_EQ(even.center, 30);
  EXPECT_EQ(even.upper, 30);
  const CenteredInterval single = sample_interval(std::vector<double>{7});
  EXPECT_EQ(single.lower, 7);
  EXPECT_EQ(single.upper, 7);
}

TEST(CycleConfirmation, ScalesSummaryIntervalsByTheMeanClockRate) {
  const auto cycles = summary_cycles({1e-3, 2e-3, 4e-3}, 1e9);
  ASSERT_TRUE(cycles.has_value());
  EXPECT_DOUBLE_EQ(cycles->lower, 1e6);
  EXPECT_DOUBLE_EQ(cycles->center, 2e6);
  EXPECT_DOUBLE_EQ(cycles->upper, 4e6);
  EXPECT_FALSE(summary_cycles({1, 2, 3}, 0).has_value());
  EXPECT_FALSE(summary_cycles({1, 2, 3}, -1e9).has_value());
  EXPECT_FALSE(summary_cycles({1, 2, 3}, std::nan("")).has_value());
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::diff
