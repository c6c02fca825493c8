#include "diff/side_estimate.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "diff_fixtures.hpp"

namespace perfgate::diff {
namespace PERFGATE_TEST_FILE {

using ingest::TimingSummary;
using testing::classical_summary;
using testing::robust_summary;

void expect_interval(const std::optional<CenteredInterval>& interval, double lower, double center,
                     double upper) {
  ASSERT_TRUE(interval.has_value());
  EXPECT_DOUBLE_EQ(interval->lower, lower);
  EXPECT_DOUBLE_EQ(interval->center, center);
  EXPECT_DOUBLE_EQ(interval->upper, upper);
}

TEST(SideEstimate, UsesMedianIqrAndMinToQ3WhenBothSidesHaveRobustSummaries) {
  const TimingEstimates e =
      estimate_timings(robust_summary(1, 2, 3, 5, 0.4), robust_summary(2, 3, 4, 6, 0.25));
  EXPECT_TRUE(e.robust);
  EXPECT_EQ(e.reference.center, 3);
  EXPECT_EQ(e.reference.noise, 0.4);
  expect_interval(e.reference.interval, 1, 3, 5);
  expect_interval(e.compare.interval, 2, 4, 6);
}

TEST(SideEstimate, DerivesTheRelativeIqrFromTheAbsoluteOne) {
  TimingSummary ref = robust_summary(1, 2, 4, 5, 0);
  ref.iqr_relative.reset();
  ref.iqr_absolute = 3;
  const TimingEstimates e = estimate_timings(ref, robust_summary(1, 2, 4, 5, 0.1));
  EXPECT_TRUE(e.robust);
  EXPECT_EQ(e.reference.noise, 0.75);
}

TEST(SideEstimate, FallsBackToClassicalOnBothSidesWhenOneSideLacksAQuartile) {
  TimingSummary ref = robust_summary(1, 2, 3, 5, 0.4);
  ref.q3.reset();
  ref.mean = 4;
  ref.stdev_absolute = 1;
  ref.max = 4.5;
  const TimingEstimates e = estimate_timings(ref, classical_summary(10, 2, 9, 20));
  EXPECT_FALSE(e.robust);
  EXPECT_EQ(e.reference.center, 4);
  EXPECT_EQ(e.reference.noise, 0.25);
  // mean ± stdev = [3, 5], clipped to max 4.5; min 1 is below and changes nothing.
  expect_interval(e.reference.interval, 3, 4, 4.5);
  // mean ± stdev = [8, 12], raised to min 9.
  expect_interval(e.compare.interval, 9, 10, 12);
  EXPECT_EQ(e.compare.noise, 0.2);
}

TEST(SideEstimate, FallsBackToClassicalWhenQuartilesAreOutOfOrder) {
  const TimingEstimates e =
      estimate_timings(robust_summary(1, 3, 2, 5, 0.4), robust_summary(1, 2, 3, 5, 0.4));
  EXPECT_FALSE(e.robust);
  EXPECT_EQ(e.reference.center, 3);  // the fixture's mean: 1.5 × median
}

TEST(SideEstimate, DerivesTheAbsoluteStdevFromTheRelativeOne) {
  TimingSummary ref;
  ref.mean = 10;
  ref.stdev_relative = 0.1;
  const TimingEstimates e = estimate_timings(ref, classical_summary(10, 1));
  EXPECT_EQ(e.reference.noise, 0.1);
  expect_interval(e.reference.interval, 9, 10, 11);
}

TEST(SideEstimate, KeepsTheLowerEdgeAboveAThousandthOfTheMean) {
  const TimingEstimates e = estimate_timings(classical_summary(2, 5), classical_summary(2, 1));
  expect_interval(e.reference.interval, 0.002, 2, 7);
  EXPECT_EQ(e.reference.noise, 2.5);
}

TEST(SideEstimate, HasNoIntervalsWhenNeitherKindFitsBothSides) {
  TimingSummary ref;
  ref.median = 2;
  ref.iqr_relative = 0.1;
  const TimingEstimates robust = estimate_timings(ref, ref);
  EXPECT_TRUE(robust.robust);
  EXPECT_EQ(robust.reference.center, 2);
  EXPECT_FALSE(robust.has_intervals());

  const TimingEstimates classical = estimate_timings(ref, classical_summary(3, 1));
  EXPECT_FALSE(classical.robust);
  EXPECT_FALSE(classical.reference.center.has_value());
  EXPECT_EQ(classical.compare.center, 3);
  EXPECT_FALSE(classical.has_intervals());
}

TEST(SideEstimate, HasNoNoiseWhenTheAbsoluteDispersionIsNegative) {
  TimingSummary ref = classical_summary(2, -1);
  const TimingEstimates e = estimate_timings(ref, ref);
  EXPECT_FALSE(e.reference.noise.has_value());
  EXPECT_FALSE(usable_noise(e.reference.noise));
}

TEST(SideEstimate, OnlyFiniteNonNegativeNoiseIsUsable) {
  EXPECT_TRUE(usable_noise(0.0));
  EXPECT_TRUE(usable_noise(0.3));
  EXPECT_FALSE(usable_noise(std::nullopt));
  EXPECT_FALSE(usable_noise(-0.1));
  EXPECT_FALSE(usable_noise(std::numeric_limits<double>::infinity()));
}

TEST(SideEstimate, FormsIntervalsOnlyFromPositiveFiniteOrderedEdges) {
  expect_interval(centered_interval(1, 1, 1), 1, 1, 1);
  EXPECT_FALSE(centered_interval(0, 1, 2).has_value());
  EXPECT_FALSE(centered_interval(1, 3, 2).has_value());
  EXPECT_FALSE(centered_interval(1, 2, std::numeric_limits<double>::infinity()).has_value());
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::diff
