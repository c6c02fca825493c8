#include "history/regression_flags.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace perfgate::history {
namespace PERFGATE_TEST_FILE {

const RegressionFlagRule kDefault{};  // 10%, 0.1 ms, 3 x the sum of the MADs

using Flags = std::vector<bool>;

TEST(RegressionFlags, FlagsOnlyWhenPercentAbsoluteAndMadRulesAllHold) {
  // A rise of 2 ms over 10 ms: 20% > 10%, 2 > 0.1 ms, 2 > 3 x (0.1 + 0.1).
  EXPECT_EQ(regression_flags({{10, 0.1}, {12, 0.1}}, kDefault, "ms"), (Flags{false, true}));
}

TEST(RegressionFlags, DoesNotFlagARiseBelowThePercentRuleAlone) {
  // 5 ms over 100 ms is 5%, though far above 0.1 ms and the zero MADs.
  EXPECT_EQ(regression_flags({{100, 0}, {105, 0}}, kDefault, "ms"), (Flags{false, false}));
}

TEST(RegressionFlags, DoesNotFlagARiseBelowTheAbsoluteRuleAlone) {
  // 0.09 ms over 0.5 ms is 18%, with zero MADs, but not more than 0.1 ms.
  EXPECT_EQ(regression_flags({{0.5, 0}, {0.59, 0}}, kDefault, "ms"), (Flags{false, false}));
}

TEST(RegressionFlags, DoesNotFlagARiseWithinThreeTimesTheSumOfTheMadsAlone) {
  // 2 ms over 10 ms is 20% and above 0.1 ms, but 3 x (0.5 + 0.2) = 2.1 ms.
  EXPECT_EQ(regression_flags({{10, 0.5}, {12, 0.2}}, kDefault, "ms"), (Flags{false, false}));
}

TEST(RegressionFlags, DoesNotFlagARiseOfExactlyTenPercent) {
  EXPECT_EQ(regression_flags({{10, 0}, {11, 0}}, kDefault, "ms"), (Flags{false, false}));
  EXPECT_EQ(regression_flags({{10, 0}, {11.001, 0}}, kDefault, "ms"), (Flags{false, true}));
}

TEST(RegressionFlags, DoesNotFlagARiseOfExactlyTheAbsoluteOrTheMadBound) {
  RegressionFlagRule one_ms;
  one_ms.absolute_ms = 1;
  EXPECT_EQ(regression_flags({{2, 0}, {3, 0}}, one_ms, "ms"), (Flags{false, false}));
  // 3 x (0.25 + 0.25) = 1.5, exactly the rise.
  EXPECT_EQ(regression_flags({{10, 0.25}, {11.5, 0.25}}, kDefault, "ms"), (Flags{false, false}));
  EXPECT_EQ(regression_flags({{10, 0.25}, {11.75, 0.25}}, kDefault, "ms"), (Flags{false, true}));
}

TEST(RegressionFlags, NeverFlagsTheFirstPointOrAFall) {
  EXPECT_EQ(regression_flags({{10, 0}}, kDefault, "ms"), (Flags{false}));
  EXPECT_EQ(regression_flags({{20, 0}, {10, 0}}, kDefault, "ms"), (Flags{false, false}));
  EXPECT_EQ(regression_flags({}, kDefault, "ms"), Flags{});
}

TEST(RegressionFlags, ComparesEachPointWithThePointBeforeIt) {
  // 12 over 10 is 20%; 13 over 12 is 8.3%, although 13 over 10 would be 30%.
  EXPECT_EQ(regression_flags({{10, 0}, {12, 0}, {13, 0}}, kDefault, "ms"),
            (Flags{false, true, false}));
}

TEST(RegressionFlags, ConvertsTheAbsoluteThresholdToTheSeriesUnit) {
  // 0.1 ms is 0.0001 s, 100 us and 100,000 ns; each pair rises by 18% or 22%.
  EXPECT_EQ(regression_flags({{0.0005, 0}, {0.00059, 0}}, kDefault, "s"), (Flags{false, false}));
  EXPECT_EQ(regression_flags({{0.0005, 0}, {0.00061, 0}}, kDefault, "s"), (Flags{false, true}));
  EXPECT_EQ(regression_flags({{500, 0}, {590, 0}}, kDefault, "us"), (Flags{false, false}));
  EXPECT_EQ(regression_flags({{500, 0}, {610, 0}}, kDefault, "us"), (Flags{false, true}));
  EXPECT_EQ(regression_flags({{500, 0}, {610, 0}}, kDefault, "µs"), (Flags{false, true}));
  EXPECT_EQ(regression_flags({{500000, 0}, {590000, 0}}, kDefault, "ns"), (Flags{false, false}));
  EXPECT_EQ(regression_flags({{500000, 0}, {610000, 0}}, kDefault, "ns"), (Flags{false, true}));
}

TEST(RegressionFlags, NeverFlagsAMetricThatIsNotATimeOrACountOfWork) {
  EXPECT_EQ(regression_flags({{1000, 0}, {5000, 0}}, kDefault, "B"), (Flags{false, false}));
  EXPECT_EQ(regression_flags({{1000, 0}, {5000, 0}}, kDefault, ""), (Flags{false, false}));
  EXPECT_EQ(regression_flags({{1000, 0}, {5000, 0}}, kDefault, "misses"), (Flags{false, false}));
}

TEST(RegressionFlags, FlagsACountOfWorkByPercentAndMadWithNoAbsoluteFloor) {
  // A deterministic count: identical points never flag, 10.1% more does, exactly 10% not.
  EXPECT_EQ(
      regression_flags({{1000, 0}, {1000, 0}, {1101, 0}, {1211.1, 0}}, kDefault, "instructions"),
      (Flags{false, false, true, false}));
  EXPECT_EQ(regression_flags({{100, 0}, {120, 0}}, kDefault, "cycles"), (Flags{false, true}));
  // A count that varies: a rise within 3 x the sum of the MADs is noise.
  EXPECT_EQ(regression_flags({{1000, 40}, {1200, 40}}, kDefault, "instructions"),
            (Flags{false, false}));
  EXPECT_EQ(regression_flags({{1000, 30}, {1200, 30}}, kDefault, "instructions"),
            (Flags{false, true}));
}

TEST(RegressionFlags, FollowsAConfiguredRule) {
  RegressionFlagRule rule;
  rule.percent = 50;
  rule.absolute_ms = 2;
  rule.mad_factor = 1;
  EXPECT_EQ(regression_flags({{10, 1}, {14, 1}}, rule, "ms"), (Flags{false, false}));  // 40%
  EXPECT_EQ(regression_flags({{4, 0}, {6.5, 0}}, rule, "ms"), (Flags{false, true}));
  EXPECT_EQ(regression_flags({{3, 0}, {4.9, 0}}, rule, "ms"), (Flags{false, false}));  // 1.9 ms
  EXPECT_EQ(regression_flags({{10, 2}, {16, 2}}, rule, "ms"), (Flags{false, true}));
  EXPECT_EQ(regression_flags({{10, 3}, {16, 3}}, rule, "ms"), (Flags{false, false}));  // 6 = 1 x 6
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate::history
