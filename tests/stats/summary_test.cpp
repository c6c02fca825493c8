#include "stats/summary.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace perfgate {

TEST(Summary, DescribesASkewedSampleWithRobustAndClassicalStatistics) {
  const std::vector<double> samples{1, 2, 3, 4, 100};
  const Summary s = summarize(samples);
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.mean, 22.0);
  EXPECT_DOUBLE_EQ(s.median, 3.0);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 100.0);
  EXPECT_DOUBLE_EQ(s.q1, 2.0);
  EXPECT_DOUBLE_EQ(s.q3, 4.0);
  EXPECT_DOUBLE_EQ(s.iqr, 2.0);
  EXPECT_DOUBLE_EQ(s.mad, 1.0);
  // Squared deviations from 22: 441 + 400 + 361 + 324 + 6084 = 7610, over n - 1 = 4.
  EXPECT_DOUBLE_EQ(s.stdev, std::sqrt(1902.5));
}

TEST(Summary, GivesEveryStatisticOfOneSampleAsThatSampleWithZeroSpread) {
  const std::vector<double> samples{0.25};
  const Summary s = summarize(samples);
  EXPECT_EQ(s.count, 1u);
  EXPECT_EQ(s.mean, 0.25);
  EXPECT_EQ(s.median, 0.25);
  EXPECT_EQ(s.min, 0.25);
  EXPECT_EQ(s.max, 0.25);
  EXPECT_EQ(s.q1, 0.25);
  EXPECT_EQ(s.q3, 0.25);
  EXPECT_EQ(s.iqr, 0.0);
  EXPECT_EQ(s.mad, 0.0);
  EXPECT_EQ(s.stdev, 0.0);
}

TEST(Summary, InterpolatesQuartilesBetweenTwoSamples) {
  const std::vector<double> samples{10, 20};
  const Summary s = summarize(samples);
  EXPECT_DOUBLE_EQ(s.mean, 15.0);
  EXPECT_DOUBLE_EQ(s.median, 15.0);
  EXPECT_DOUBLE_EQ(s.q1, 12.5);
  EXPECT_DOUBLE_EQ(s.q3, 17.5);
  EXPECT_DOUBLE_EQ(s.iqr, 5.0);
  EXPECT_DOUBLE_EQ(s.mad, 5.0);
  EXPECT_DOUBLE_EQ(s.stdev, std::sqrt(50.0));
}

TEST(Summary, TakesTheMidpointOfTheTwoMiddleValuesAsTheMedianOfAnEvenCount) {
  const std::vector<double> samples{1, 2, 4, 8};
  const Summary s = summarize(samples);
  EXPECT_DOUBLE_EQ(s.median, 3.0);
  // Type 7: q1 at position 0.75 (between 1 and 2), q3 at position 2.25 (between 4 and 8).
  EXPECT_DOUBLE_EQ(s.q1, 1.75);
  EXPECT_DOUBLE_EQ(s.q3, 5.0);
  // Deviations from 3 are {2, 1, 1, 5}: their median is 1.5.
  EXPECT_DOUBLE_EQ(s.mad, 1.5);
}

TEST(Summary, DoesNotDependOnTheOrderOfTheSamples) {
  const std::vector<double> unsorted{100, 3, 1, 4, 2};
  const Summary s = summarize(unsorted);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 100.0);
  EXPECT_DOUBLE_EQ(s.median, 3.0);
  EXPECT_DOUBLE_EQ(s.q1, 2.0);
  EXPECT_DOUBLE_EQ(s.q3, 4.0);
  EXPECT_DOUBLE_EQ(s.mad, 1.0);
  EXPECT_EQ(unsorted.front(), 100.0) << "the input must not be reordered";
}

TEST(Summary, GivesAllZerosForNoSamples) {
  const Summary s = summarize({});
  EXPECT_EQ(s.count, 0u);
  EXPECT_EQ(s.mean, 0.0);
  EXPECT_EQ(s.median, 0.0);
  EXPECT_EQ(s.min, 0.0);
  EXPECT_EQ(s.max, 0.0);
  EXPECT_EQ(s.stdev, 0.0);
  EXPECT_EQ(s.mad, 0.0);
  EXPECT_EQ(s.q1, 0.0);
  EXPECT_EQ(s.q3, 0.0);
  EXPECT_EQ(s.iqr, 0.0);
}

TEST(QuantileSorted, ReturnsTheExtremesAtZeroAndOne) {
  const std::vector<double> sorted{1, 5, 9};
  EXPECT_EQ(quantile_sorted(sorted, 0.0), 1.0);
  EXPECT_EQ(quantile_sorted(sorted, 1.0), 9.0);
  EXPECT_DOUBLE_EQ(quantile_sorted(sorted, 0.9), 8.2);
}

}  // namespace perfgate
