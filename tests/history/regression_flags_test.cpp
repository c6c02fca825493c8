#include "history/regression_flags.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

// Runs paired by round (a flag's re-measurement, the two commits in alternation).

/// `runs`, each times `factor`.
std::vector<double> scaled(const std::vector<double>& runs, double factor) {
  std::vector<double> out;
  for (const double run : runs) out.push_back(run * factor);
  return out;
}

/// `previous` times each ratio, round by round.
std::vector<double> times(const std::vector<double>& previous, const std::vector<double>& ratios) {
  std::vector<double> out;
  for (std::size_t k = 0; k < previous.size(); ++k) out.push_back(previous[k] * ratios[k]);
  return out;
}

// Nine rounds of a two-state machine: the runs of each commit scatter from 10 to 20 ms.
const std::vector<double> kSwinging{10, 20, 12, 18, 15, 11, 19, 13, 17};

TEST(PairedRise, ShowsARiseThatTheMadsOfTheTwoPointsDrown) {
  // Each round 40% slower. As points: median 15 -> 21 ms, MADs 3 and 4.2 ms, and a rise of
  // 6 ms is not above 3 x 7.2 ms: the rule does not flag it. Round by round it is 40%.
  EXPECT_FALSE(rises_markedly({15, 3}, {21, 4.2}, kDefault, "ms"));
  const auto pair = paired_rise(kSwinging, scaled(kSwinging, 1.4), kDefault, "ms");
  ASSERT_TRUE(pair);
  EXPECT_EQ(pair->rounds, 9u);
  EXPECT_NEAR(pair->change, 0.4, 1e-12);
  EXPECT_NEAR(pair->lower, 0.4, 1e-12);
  // The rounds' rises are 4 to 8 ms; the bound is the 2nd smallest of nine.
  EXPECT_NEAR(pair->lower_rise, 4.4, 1e-12);
  EXPECT_TRUE(pair->rises);
}

TEST(PairedRise, TheAbsoluteLimitIsOnTheRoundsDifferences) {
  // A program that sleeps 50 ms against one that exits at once, one round of which met a
  // slow moment (7 ms): at least +643% in every round, and at least 45 ms.
  RegressionFlagRule twenty_ms;
  twenty_ms.absolute_ms = 20;
  const auto pair = paired_rise({1.0, 1.2, 1.1, 7.0, 1.3}, {52, 53, 51, 52, 54}, twenty_ms, "ms");
  ASSERT_TRUE(pair);
  EXPECT_NEAR(pair->lower, 52 / 7.0 - 1, 1e-12);
  EXPECT_NEAR(pair->lower_rise, 45, 1e-12);
  EXPECT_TRUE(pair->rises);
  // 6.43 x the median previous run (1.2 ms) would be 7.7 ms: the ratio alone cannot say it.
  EXPECT_FALSE(
      paired_rise({1.0, 1.2, 1.1, 7.0, 1.3}, {12, 13, 11, 26, 14}, twenty_ms, "ms")->rises);
}

TEST(PairedRise, TheLowerBoundIsTheSignTestsOrderStatistic) {
  // Nine rounds: P(X <= 1) = 10/512 <= 5% < P(X <= 2) = 46/512, so the 2nd smallest ratio.
  const std::vector<double> one_low{1.05, 1.2, 1.2, 1.2, 1.3, 1.2, 1.15, 1.3, 1.2};
  auto pair = paired_rise(kSwinging, times(kSwinging, one_low), kDefault, "ms");
  ASSERT_TRUE(pair);
  EXPECT_NEAR(pair->change, 0.2, 1e-12);
  EXPECT_NEAR(pair->lower, 0.15, 1e-12);
  EXPECT_TRUE(pair->rises);  // one round under 10% does not matter
  const std::vector<double> two_low{1.05, 1.2, 1.2, 1.2, 1.3, 1.2, 1.08, 1.3, 1.2};
  pair = paired_rise(kSwinging, times(kSwinging, two_low), kDefault, "ms");
  EXPECT_NEAR(pair->change, 0.2, 1e-12);
  EXPECT_NEAR(pair->lower, 0.08, 1e-12);
  EXPECT_FALSE(pair->rises);  // two do: the median may be under 10%
  // Fifteen rounds: the 4th smallest (P(X <= 3) = 576/32768, P(X <= 4) = 1941/32768).
  std::vector<double> fifteen(15, 1.5);
  fifteen[0] = 0.9;
  fifteen[1] = 1.0;
  fifteen[2] = 1.05;
  fifteen[3] = 1.12;
  const std::vector<double> runs(15, 10);
  pair = paired_rise(runs, times(runs, fifteen), kDefault, "ms");
  EXPECT_EQ(pair->rounds, 15u);
  EXPECT_NEAR(pair->lower, 0.12, 1e-12);
  EXPECT_TRUE(pair->rises);
  // Five rounds: the smallest (P(X = 0) = 1/32).
  const std::vector<double> five{10, 11, 12, 13, 14};
  pair = paired_rise(five, times(five, {1.5, 1.5, 1.11, 1.5, 1.5}), kDefault, "ms");
  EXPECT_NEAR(pair->lower, 0.11, 1e-12);
  EXPECT_TRUE(pair->rises);
}

TEST(PairedRise, TheBoundHoldsForThousandsOfRounds) {
  // 2,000 rounds, half 5% slower and half 50%: the median ratio is between the two, and its
  // bound (about the 963rd smallest) is among the 5% ones. 0.5^2000 is 0 in a double: the
  // sum of the binomial terms must not stay at 0 and walk the bound up to the largest ratio.
  std::vector<double> ratios(2000, 1.5);
  std::fill(ratios.begin(), ratios.begin() + 1000, 1.05);
  const std::vector<double> runs(2000, 10);
  const auto pair = paired_rise(runs, times(runs, ratios), kDefault, "ms");
  ASSERT_TRUE(pair);
  EXPECT_EQ(pair->rounds, 2000u);
  EXPECT_NEAR(pair->change, 0.275, 1e-12);
  EXPECT_NEAR(pair->lower, 0.05, 1e-12);
  EXPECT_FALSE(pair->rises);
}

TEST(PairedRise, DoesNotRiseWhenMostRoundsAgree) {
  // The same program, one round met a slow moment on one side only.
  std::vector<double> current = kSwinging;
  current[4] *= 1.5;
  const auto pair = paired_rise(kSwinging, current, kDefault, "ms");
  ASSERT_TRUE(pair);
  EXPECT_NEAR(pair->change, 0, 1e-12);
  EXPECT_FALSE(pair->rises);
}

TEST(PairedRise, KeepsThePercentAndAbsoluteLimits) {
  // 8% every round: under 10%.
  const auto small = paired_rise(kSwinging, scaled(kSwinging, 1.08), kDefault, "ms");
  ASSERT_TRUE(small);
  EXPECT_NEAR(small->change, 0.08, 1e-12);
  EXPECT_FALSE(small->rises);
  // 40% of a 0.15 ms median is 0.06 ms: not above 0.1 ms. In seconds the same.
  const std::vector<double> short_runs = scaled(kSwinging, 0.01);
  EXPECT_FALSE(paired_rise(short_runs, scaled(short_runs, 1.4), kDefault, "ms")->rises);
  EXPECT_FALSE(
      paired_rise(scaled(short_runs, 1e-3), scaled(short_runs, 1.4e-3), kDefault, "s")->rises);
  EXPECT_TRUE(
      paired_rise(scaled(kSwinging, 1e-3), scaled(kSwinging, 1.4e-3), kDefault, "s")->rises);
  // A count of work has no absolute limit.
  EXPECT_TRUE(paired_rise(short_runs, scaled(short_runs, 1.4), kDefault, "instructions")->rises);
}

TEST(PairedRise, PairsOnlyRunsThatCanBePaired) {
  const std::vector<double> five{10, 11, 12, 13, 14};
  EXPECT_TRUE(paired_rise(five, scaled(five, 2), kDefault, "ms"));
  // Fewer than five rounds, or counts that differ.
  EXPECT_FALSE(paired_rise({10, 11, 12, 13}, {20, 22, 24, 26}, kDefault, "ms"));
  EXPECT_FALSE(paired_rise(five, {20, 22, 24, 26, 28, 30}, kDefault, "ms"));
  // A value that is not positive, or not finite.
  EXPECT_FALSE(paired_rise(five, {20, 22, 0, 26, 28}, kDefault, "ms"));
  EXPECT_FALSE(paired_rise({10, 11, -12, 13, 14}, scaled(five, 2), kDefault, "ms"));
  EXPECT_FALSE(paired_rise(five, {20, 22, std::nan(""), 26, 28}, kDefault, "ms"));
  // A unit the rule never flags.
  EXPECT_FALSE(paired_rise(five, scaled(five, 2), kDefault, "MB"));
}
}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate::history
