#include "ab/noise_limit.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(NoiseLimit, MedianOfAnOddAndAnEvenCount) {
  EXPECT_DOUBLE_EQ(median_of(std::vector<double>{3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median_of(std::vector<double>{4, 1, 2, 3}), 2.5);
  EXPECT_DOUBLE_EQ(median_of(std::vector<double>{}), 0);
}

TEST(NoiseLimit, ASideIsNoisyWhenItsRangeExceedsTheLimitTimesItsMedian) {
  const std::vector<double> within{10, 11, 13};  // range 3 = 27% of 11
  const std::vector<double> beyond{10, 11, 14};  // range 4 = 36% of 11
  EXPECT_FALSE(measure_noise(within, 0.30, false).noisy);
  const SideNoise noise = measure_noise(beyond, 0.30, false);
  EXPECT_TRUE(noise.noisy);
  EXPECT_DOUBLE_EQ(noise.range, 4);
  EXPECT_DOUBLE_EQ(noise.median, 11);
  EXPECT_FALSE(noise.discarded.has_value());
}

TEST(NoiseLimit, JudgesTheRangeRelativeToTheMedianWhateverItsAbsoluteSize) {
  // As the seed states it: a 2 ms spread around 2 ms is noise, even though it is small.
  const std::vector<double> tiny{0.001, 0.002, 0.003};  // range 0.002 = 100% of the median
  EXPECT_TRUE(measure_noise(tiny, 0.30, false).noisy);
}

TEST(NoiseLimit, DiscardingRemovesTheSampleFarthestFromTheMedian) {
  const std::vector<double> samples{10, 10.5, 30, 11, 10.2};
  EXPECT_TRUE(measure_noise(samples, 0.30, false).noisy);
  const SideNoise noise = measure_noise(samples, 0.30, true);
  EXPECT_FALSE(noise.noisy);
  EXPECT_EQ(noise.discarded, 2u);
  EXPECT_DOUBLE_EQ(noise.range, 1.0);
  EXPECT_DOUBLE_EQ(noise.median, 10.35);
}

TEST(NoiseLimit, DiscardingALowOutlierWorksTheSameWay) {
  const std::vector<double> samples{10, 1, 10.5, 11, 10.2};
  const SideNoise noise = measure_noise(samples, 0.30, true);
  EXPECT_EQ(noise.discarded, 1u);
  EXPECT_FALSE(noise.noisy);
}

TEST(NoiseLimit, OfTwoEquallyExtremeSamplesTheLargerIsDiscarded) {
  const std::vector<double> samples{1, 5, 5, 5, 9};
  EXPECT_EQ(measure_noise(samples, 0.30, true).discarded, 4u);
}

TEST(NoiseLimit, DiscardingOneSampleDoesNotHideTwoOutliers) {
  const std::vector<double> samples{10, 30, 10.5, 29, 10.2};
  EXPECT_TRUE(measure_noise(samples, 0.30, true).noisy);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
