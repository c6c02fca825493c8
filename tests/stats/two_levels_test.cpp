#include "stats/two_levels.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace perfgate::stats {
namespace PERFGATE_TEST_FILE {

TEST(TwoLevels, RunsOnTwoCpusOfDifferentSpeedsAreTwoLevels) {
  // perfgate run of a CPU-bound program on a VM whose CPU 1 is ~45% slower (ms).
  const std::vector<double> runs = {9.5, 9.7,  14.6, 9.6, 9.8,  9.4, 14.3, 9.7,
                                    9.9, 14.8, 9.6,  9.5, 14.4, 9.8, 9.6};
  const auto levels = find_two_levels(runs);
  ASSERT_TRUE(levels.has_value());
  EXPECT_EQ(levels->fast_runs, 11u);
  EXPECT_EQ(levels->slow_runs, 4u);
  EXPECT_DOUBLE_EQ(levels->fast_median, 9.6);
  EXPECT_DOUBLE_EQ(levels->slow_median, (14.4 + 14.6) / 2);
}

TEST(TwoLevels, OneNoisyLevelIsOne) {
  // Normal-looking scatter of 2-3%: no jump stands out from it.
  const std::vector<double> runs = {10.0, 10.2, 9.8, 10.3, 9.9, 10.1, 9.7, 10.4, 10.0, 9.95};
  EXPECT_FALSE(find_two_levels(runs).has_value());
}

TEST(TwoLevels, RunsSpreadEvenlyAreOneLevel) {
  // Every step 20%, but the groups scatter as much as the jump between them.
  const std::vector<double> runs = {10, 12, 14.4, 17.3, 20.7, 24.9};
  EXPECT_FALSE(find_two_levels(runs).has_value());
}

TEST(TwoLevels, AFewOutliersAreNotALevel) {
  // Two slow runs of fifteen: fewer than a fifth (three).
  const std::vector<double> runs = {10.0, 10.1, 9.9,  10.0, 10.2, 9.8,  10.0, 10.1,
                                    9.9,  10.0, 10.1, 9.9,  10.0, 25.0, 31.0};
  EXPECT_FALSE(find_two_levels(runs).has_value());
  // Three of fifteen are a fifth: a level.
  std::vector<double> three = runs;
  three[0] = 24.0;
  const auto levels = find_two_levels(three);
  ASSERT_TRUE(levels.has_value());
  EXPECT_EQ(levels->slow_runs, 3u);
  EXPECT_DOUBLE_EQ(levels->slow_median, 25.0);
}

TEST(TwoLevels, AJumpUnderTenPercentIsOneLevel) {
  // Two tight groups 8% apart: a difference the user's threshold may not care about.
  const std::vector<double> runs = {10.0, 10.01, 10.02, 10.0, 10.8, 10.81, 10.82, 10.8};
  EXPECT_FALSE(find_two_levels(runs).has_value());
  // 12% apart: two levels.
  const std::vector<double> wider = {10.0, 10.01, 10.02, 10.0, 11.2, 11.21, 11.22, 11.2};
  const auto levels = find_two_levels(wider);
  ASSERT_TRUE(levels.has_value());
  EXPECT_EQ(levels->fast_runs, 4u);
  EXPECT_EQ(levels->slow_runs, 4u);
}

TEST(TwoLevels, FewerThanSixRunsOrValuesNotAllPositiveAreOneLevel) {
  EXPECT_FALSE(find_two_levels(std::vector<double>{10, 10, 15, 15, 10}).has_value());
  EXPECT_TRUE(find_two_levels(std::vector<double>{10, 10, 15, 15, 10, 15}).has_value());
  EXPECT_FALSE(find_two_levels(std::vector<double>{0, 0, 15, 15, 0, 15}).has_value());
  EXPECT_FALSE(find_two_levels(std::vector<double>{}).has_value());
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::stats
