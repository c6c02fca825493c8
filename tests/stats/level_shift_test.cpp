#include "stats/level_shift.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

namespace perfgate::stats {
namespace PERFGATE_TEST_FILE {

TEST(MedianVarianceFactor, IsOneForOneAndTwoValuesAndHalfPiForMany) {
  EXPECT_EQ(median_variance_factor(1), 1.0);
  EXPECT_EQ(median_variance_factor(2), 1.0);
  EXPECT_EQ(median_variance_factor(3), 1.3463);
  EXPECT_EQ(median_variance_factor(5), 1.4339);
  EXPECT_EQ(median_variance_factor(1000), std::numbers::pi / 2);
}

// The table is n * Var(median of n standard normals): checked here by simulation to
// within 1%, so a mistyped entry cannot hide.
TEST(MedianVarianceFactor, AgreesWithSimulatedMedians) {
  std::mt19937_64 generator(11);
  std::normal_distribution<double> normal;
  for (std::size_t n = 3; n <= 10; ++n) {
    double sum = 0;
    double squares = 0;
    constexpr int kTrials = 200000;
    std::vector<double> values(n);
    for (int t = 0; t < kTrials; ++t) {
      for (double& v : values) v = normal(generator);
      std::sort(values.begin(), values.end());
      const double median = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
      sum += median;
      squares += median * median;
    }
    const double variance = squares / kTrials - (sum / kTrials) * (sum / kTrials);
    EXPECT_NEAR(variance * static_cast<double>(n), median_variance_factor(n), 0.02) << n;
  }
}

TEST(LevelShift, IdenticalRunsGiveTheExactRatioWithAZeroWidthInterval) {
  const std::vector<double> current = {1.2, 1.2, 1.2};
  const LevelShift shift = estimate_level_shift(current, {{1.0, 1.0, 1.0}, {1.0, 1.0}}, 0.95);
  ASSERT_TRUE(shift.estimated);
  EXPECT_TRUE(shift.log_scale);
  EXPECT_NEAR(shift.change, 0.2, 1e-12);
  EXPECT_NEAR(shift.low, 0.2, 1e-12);
  EXPECT_NEAR(shift.high, 0.2, 1e-12);
  EXPECT_EQ(shift.baseline_records, 2u);
  EXPECT_EQ(shift.between_record_sd, 0.0);
}

TEST(LevelShift, AnOutlierRunMovesNeitherTheEstimateNorTheInterval) {
  // One run of five 50 times slower: the median and the MAD ignore it.
  const std::vector<double> current = {1.0, 1.0, 50.0, 1.0, 1.0};
  const LevelShift shift = estimate_level_shift(
      current, std::vector<std::vector<double>>(5, {1.0, 1.0, 1.0, 1.0, 1.0}), 0.95);
  EXPECT_EQ(shift.change, 0.0);
  EXPECT_EQ(shift.low, 0.0);
  EXPECT_EQ(shift.high, 0.0);
}

TEST(LevelShift, ASlowRecordAmongFewerThanFiveWidensTheIntervalButDoesNotMoveTheEstimate) {
  // Three records at 1.0 and one at 3.0: the center is the median record, 1.0. Four levels
  // are too few to call one an outlier, so it enters the spread.
  std::vector<std::vector<double>> baseline(3, {1.0, 1.0, 1.0});
  baseline.push_back({3.0, 3.0, 3.0});
  const std::vector<double> current = {1.0, 1.0, 1.0};
  const LevelShift shift = estimate_level_shift(current, baseline, 0.95);
  EXPECT_EQ(shift.change, 0.0);
  EXPECT_LT(shift.low, -0.5);
  EXPECT_GT(shift.high, 0.5);
  // The spread of log(1) x3 and log(3): sample SD of the four levels.
  const double mean = std::log(3.0) / 4;
  const double sd = std::sqrt((3 * mean * mean + std::pow(std::log(3.0) - mean, 2)) / 3);
  EXPECT_NEAR(shift.between_record_sd, sd, 1e-12);
  EXPECT_EQ(shift.spread_records, 4u);
  // Only the between-record part has a variance: t with K - 1 = 3 degrees of freedom.
  EXPECT_NEAR(shift.degrees_of_freedom, 3.0, 1e-9);
  const double half = 3.1824463052842638 * sd * std::sqrt(1 + median_variance_factor(4) / 4);
  EXPECT_NEAR(shift.high, std::expm1(half), 1e-9);
  EXPECT_NEAR(shift.low, std::expm1(-half), 1e-9);
}

// The levels' spread as the interval uses it: the sample variance of their logs.
double log_spread(const std::vector<double>& levels) {
  double mean = 0;
  for (double level : levels) mean += std::log(level) / static_cast<double>(levels.size());
  double spread = 0;
  for (double level : levels) spread += std::pow(std::log(level) - mean, 2);
  return spread / static_cast<double>(levels.size() - 1);
}

TEST(LevelShift, ARecordOutsideItsPeersScatterIsLeftOutOfTheSpread) {
  // Ten records (one value each: runs not kept) scattered by about 1%, and one of them
  // measured while something else ran, 20% slower. With it the interval of a 10% slower
  // record would be about +/-17% wide and the gate could never decide; it is left out
  // (generalized ESD at 0.1%), and the spread is the other nine's.
  const std::vector<double> peers = {1.0, 1.01, 0.99, 1.02, 0.98, 1.005, 0.995, 1.015, 0.985};
  std::vector<std::vector<double>> history;
  for (double level : peers) history.push_back({level});
  history.push_back({1.2});
  const std::vector<std::vector<double>> baseline(history.end() - 5, history.end());
  const std::vector<double> current = {1.1};
  const LevelShift shift = estimate_level_shift(current, baseline, 0.95, history);
  EXPECT_EQ(shift.spread_records, 9u);
  EXPECT_EQ(shift.degrees_of_freedom, 8.0);
  // The center is still the median of the baseline's five, the slow one among them.
  const double center = std::log(1.005);
  EXPECT_NEAR(shift.change, std::expm1(std::log(1.1) - center), 1e-12);
  // t(0.975, 8) = 2.3060041352041662.
  const double spread = log_spread(peers);
  const double half =
      2.3060041352041662 * std::sqrt(median_variance_factor(5) * spread / 5 + spread);
  EXPECT_NEAR(shift.low, std::expm1(std::log(1.1) - center - half), 1e-9);
  EXPECT_NEAR(shift.high, std::expm1(std::log(1.1) - center + half), 1e-9);
  EXPECT_GT(shift.low, 0.05);  // decided: a 5% threshold is exceeded
}

TEST(LevelShift, TwoOutlyingRecordsDoNotHideEachOther) {
  // Two slow records among ten: tested one at a time, the first would be masked by the
  // second (the two widen the spread it is measured against); the generalized ESD tests
  // both steps and leaves both out. A fifth of the records at most: two of ten.
  const std::vector<double> peers = {1.0, 1.01, 0.99, 1.02, 0.98, 1.005, 0.995, 1.015};
  std::vector<std::vector<double>> history;
  for (double level : peers) history.push_back({level});
  history.push_back({1.2});
  history.push_back({1.25});
  const std::vector<std::vector<double>> baseline(history.begin(), history.begin() + 5);
  const LevelShift shift = estimate_level_shift(std::vector<double>{1.0}, baseline, 0.95, history);
  EXPECT_EQ(shift.spread_records, 8u);
  EXPECT_NEAR(shift.between_record_sd, std::sqrt(log_spread(peers)), 1e-12);
  // Three slow records of ten are more than a fifth: none is an outlier. Being the oldest
  // three (the history comes newest first), they are a level of their own, and the spread
  // is pooled within the two levels: all ten records, 10 - 2 degrees of freedom.
  history[7] = {1.22};
  const std::vector<std::vector<double>> newest(history.end() - 5, history.end());
  const LevelShift three = estimate_level_shift(std::vector<double>{1.0}, newest, 0.95, history);
  EXPECT_EQ(three.spread_records, 10u);
  EXPECT_EQ(three.degrees_of_freedom, 8.0);
  const std::vector<double> slow = {1.22, 1.2, 1.25};
  const std::vector<double> rest(peers.begin(), peers.begin() + 7);
  EXPECT_NEAR(three.between_record_sd, std::sqrt((log_spread(rest) * 6 + log_spread(slow) * 2) / 8),
              1e-12);
}

TEST(LevelShift, ARecordAtTheEdgeOfOrdinaryScatterStaysInTheSpread) {
  // Ten records of a normal-looking scatter whose farthest is 2 SDs out: not an outlier.
  const std::vector<double> levels = {1.0,   1.01,  0.99,  1.02,  0.98,
                                      1.005, 0.995, 1.015, 0.985, 1.04};
  std::vector<std::vector<double>> history;
  for (double level : levels) history.push_back({level});
  const std::vector<std::vector<double>> baseline(history.end() - 5, history.end());
  const LevelShift shift = estimate_level_shift(std::vector<double>{1.0}, baseline, 0.95, history);
  EXPECT_EQ(shift.spread_records, 10u);
  EXPECT_NEAR(shift.between_record_sd, std::sqrt(log_spread(levels)), 1e-12);
}

TEST(LevelShift, WithoutSpreadBetweenRecordsTheRunsSpreadFloorsTheInterval) {
  // Every record the same runs: no spread between the levels, so the current record's own
  // median variance is the floor; the degrees of freedom stay the baseline's K - 1.
  const std::vector<double> runs = {0.9, 1.0, 1.1, 1.0, 0.95, 1.05, 1.0};
  const LevelShift shift =
      estimate_level_shift(runs, std::vector<std::vector<double>>(5, runs), 0.95);
  EXPECT_NEAR(shift.change, 0.0, 1e-12);
  EXPECT_EQ(shift.between_record_sd, 0.0);
  EXPECT_EQ(shift.degrees_of_freedom, 4.0);
  EXPECT_LT(shift.low, 0.0);
  EXPECT_GT(shift.high, 0.0);
  EXPECT_LT(shift.high, 0.1);
}

TEST(LevelShift, AHistoryOfMoreRecordsEstimatesTheSpreadOnMoreDegreesOfFreedom) {
  // The baseline's two records nearly agree; the cohort's four older ones show how much
  // records move.
  const std::vector<std::vector<double>> baseline = {{1.0}, {1.01}};
  std::vector<std::vector<double>> history = baseline;
  for (double level : {1.02, 0.98, 1.01, 0.99}) history.push_back({level});
  const std::vector<double> current = {1.05};
  const LevelShift shift = estimate_level_shift(current, baseline, 0.95, history);
  EXPECT_EQ(shift.spread_records, 6u);
  EXPECT_EQ(shift.degrees_of_freedom, 5.0);
  const double center = (std::log(1.0) + std::log(1.01)) / 2;  // the median of two
  EXPECT_NEAR(shift.change, std::expm1(std::log(1.05) - center), 1e-12);
  double mean = 0;
  std::vector<double> logs;
  for (const auto& record : history) logs.push_back(std::log(record[0]));
  for (double v : logs) mean += v / 6;
  double spread = 0;
  for (double v : logs) spread += (v - mean) * (v - mean) / 5;
  // t(0.975, 5) = 2.5705818366147395; the baseline's median of 2 is their mean (c = 1).
  const double half = 2.5705818366147395 * std::sqrt(spread / 2 + spread);
  EXPECT_NEAR(shift.low, std::expm1(std::log(1.05) - center - half), 1e-9);
  EXPECT_NEAR(shift.high, std::expm1(std::log(1.05) - center + half), 1e-9);
  // Without the history the spread is the two records'.
  EXPECT_EQ(estimate_level_shift(current, baseline, 0.95).spread_records, 2u);
}

TEST(LevelShift, AHistoryOfAnotherLevelCountsOnlyTheScatterAboutEachLevel) {
  // A re-seed: the five baseline records are at the new level, 0.6 s, with a 1% spread;
  // the older records of the history (newest first: after the baseline's) are at the old
  // one, 0.1 s. Their spread about one mean would make every interval span both levels.
  // The change point between them divides the history, and the spread is pooled within
  // the two levels: nine records, two levels, seven degrees of freedom.
  const std::vector<double> new_level = {0.6, 0.606, 0.594, 0.603, 0.597};
  const std::vector<double> old_level = {0.1, 0.101, 0.099, 0.1};
  std::vector<std::vector<double>> baseline;
  for (double level : new_level) baseline.push_back({level});
  std::vector<std::vector<double>> history = baseline;
  for (double level : old_level) history.push_back({level});
  const std::vector<double> current = {0.6};
  const LevelShift shift = estimate_level_shift(current, baseline, 0.95, history);
  EXPECT_EQ(shift.spread_records, 9u);
  EXPECT_EQ(shift.degrees_of_freedom, 7.0);
  const double spread = (log_spread(new_level) * 4 + log_spread(old_level) * 3) / 7;
  EXPECT_NEAR(shift.between_record_sd, std::sqrt(spread), 1e-12);
  // The median of the five is 0.6 itself; t(0.975, 7) = 2.3646242515927849.
  const double half =
      2.3646242515927849 * std::sqrt(median_variance_factor(5) * spread / 5 + spread);
  EXPECT_NEAR(shift.change, 0.0, 1e-12);
  EXPECT_NEAR(shift.low, std::expm1(-half), 1e-9);
  EXPECT_NEAR(shift.high, std::expm1(half), 1e-9);
  EXPECT_GT(shift.low, -0.05);
  EXPECT_LT(shift.high, 0.05);
}

TEST(LevelShift, AReseedOfThreeRecordsIsJudgedAgainstTheNewLevel) {
  // A re-seed approved three records at the new level, 0.6 s; the baseline's five are
  // those three and two at the old level, 0.1 s, and the history holds three more of the
  // old. The median of the five is the lowest new record; the spread is pooled within the
  // two levels (eight records, six degrees of freedom), so a record at the new level passes.
  const std::vector<double> new_level = {0.6, 0.606, 0.594};
  const std::vector<double> old_level = {0.1, 0.101, 0.099, 0.1, 0.1005};
  std::vector<std::vector<double>> history;
  for (double level : new_level) history.push_back({level});
  for (double level : old_level) history.push_back({level});
  const std::vector<std::vector<double>> baseline(history.begin(), history.begin() + 5);
  const LevelShift shift = estimate_level_shift(std::vector<double>{0.6}, baseline, 0.95, history);
  EXPECT_EQ(shift.spread_records, 8u);
  EXPECT_EQ(shift.degrees_of_freedom, 6.0);
  const double spread = (log_spread(new_level) * 2 + log_spread(old_level) * 4) / 6;
  // t(0.975, 6) = 2.4469118511449794.
  const double half =
      2.4469118511449794 * std::sqrt(median_variance_factor(5) * spread / 5 + spread);
  const double difference = std::log(0.6) - std::log(0.594);
  EXPECT_NEAR(shift.change, 0.6 / 0.594 - 1, 1e-12);
  EXPECT_NEAR(shift.low, std::expm1(difference - half), 1e-9);
  EXPECT_NEAR(shift.high, std::expm1(difference + half), 1e-9);
  EXPECT_GT(shift.low, -0.05);
  EXPECT_LT(shift.high, 0.05);
}

TEST(LevelShift, AHistoryFromOtherMomentsWidensABaselineMeasuredBackToBack) {
  // The baseline's five records were measured back to back and agree within 0.1%; the ten
  // older records of the history, each from another night, scatter by about 2.5% about the
  // same level. The machine moves that much between moments, and the current record comes
  // from another moment: its interval takes the whole history's spread (fifteen records,
  // no change of level). Taken from the five alone, the interval would be +/-0.3% wide, and
  // a record 6% slower, which the history's own scatter reaches, a REGRESSION at 5%.
  const std::vector<double> back_to_back = {1.0, 1.001, 0.999, 1.0005, 0.9995};
  const std::vector<double> nights = {1.03,  0.97, 1.02, 0.98,  1.025,
                                      0.975, 1.01, 0.99, 1.035, 0.965};
  std::vector<std::vector<double>> baseline;
  for (double level : back_to_back) baseline.push_back({level});
  std::vector<std::vector<double>> history = baseline;
  for (double level : nights) history.push_back({level});
  std::vector<double> all = back_to_back;
  all.insert(all.end(), nights.begin(), nights.end());
  const std::vector<double> current = {1.06};
  const LevelShift shift = estimate_level_shift(current, baseline, 0.95, history);
  EXPECT_EQ(shift.spread_records, 15u);
  EXPECT_EQ(shift.degrees_of_freedom, 14.0);
  const double spread = log_spread(all);
  EXPECT_NEAR(shift.between_record_sd, std::sqrt(spread), 1e-12);
  // t(0.975, 14) = 2.1447866879178035; the baseline's median is 1.0.
  const double half =
      2.1447866879178035 * std::sqrt(median_variance_factor(5) * spread / 5 + spread);
  EXPECT_NEAR(shift.change, 0.06, 1e-12);
  EXPECT_NEAR(shift.low, std::expm1(std::log(1.06) - half), 1e-9);
  EXPECT_NEAR(shift.high, std::expm1(std::log(1.06) + half), 1e-9);
  EXPECT_LT(shift.low, 0.05);  // not a REGRESSION at 5%
  // The baseline alone: the five's spread, and a narrow interval.
  const LevelShift alone = estimate_level_shift(current, baseline, 0.95);
  EXPECT_EQ(alone.spread_records, 5u);
  EXPECT_GT(alone.low, 0.05);
}

TEST(LevelShift, OneBaselineRecordKeepsItsRunsNoiseWhateverTheHistory) {
  // The report says of a one-record baseline "runs' noise only": a history beside it (a
  // metric only the newest record of five measured, beside older records that did) does
  // not change its interval.
  const std::vector<std::vector<double>> baseline = {{1.0, 1.02, 0.98, 1.01, 0.99}};
  std::vector<std::vector<double>> history = baseline;
  for (double level : {1.1, 0.9, 1.05, 0.95}) history.push_back({level});
  const std::vector<double> current = {1.04, 1.06, 1.05, 1.03, 1.07};
  const LevelShift with = estimate_level_shift(current, baseline, 0.95, history);
  const LevelShift without = estimate_level_shift(current, baseline, 0.95);
  EXPECT_EQ(with.spread_records, 1u);
  EXPECT_EQ(with.low, without.low);
  EXPECT_EQ(with.high, without.high);
  EXPECT_EQ(with.degrees_of_freedom, without.degrees_of_freedom);
}

TEST(LevelShift, ValuesThatAreNotAllPositiveAreComparedOnTheirOwnScale) {
  const std::vector<double> current = {-1.0};
  const LevelShift shift = estimate_level_shift(current, {{-2.0}}, 0.95);
  ASSERT_TRUE(shift.estimated);
  EXPECT_FALSE(shift.log_scale);
  EXPECT_EQ(shift.change, 0.5);  // (-1 - -2) / |-2|
}

TEST(LevelShift, ABaselineLevelOfZeroOrNoValuesIsNotEstimated) {
  const std::vector<double> current = {1.0};
  EXPECT_FALSE(estimate_level_shift(current, {{0.0}}, 0.95).estimated);
  EXPECT_FALSE(estimate_level_shift(current, {}, 0.95).estimated);
  EXPECT_FALSE(estimate_level_shift(current, {{}}, 0.95).estimated);
  EXPECT_FALSE(estimate_level_shift(std::vector<double>{}, {{1.0}}, 0.95).estimated);
}

// Coverage of the 95% interval when nothing changed, on a machine whose records move by
// 3% from one to the next and whose runs spread by 2% with 2% outliers at 1.5-3x: the
// true change 0 must lie inside in 93-97% of 4,000 tries. (bench/compare_coverage.cpp
// measures more settings.)
TEST(LevelShift, The95PercentIntervalCoversNoChangeIn95PercentOfNoisyTries) {
  std::mt19937_64 generator(2026);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform;
  const auto record = [&](std::size_t runs) {
    const double level = 0.03 * normal(generator);
    std::vector<double> values;
    for (std::size_t i = 0; i < runs; ++i) {
      double value = std::exp(level + 0.02 * normal(generator));
      if (uniform(generator) < 0.02) value *= 1.5 + 1.5 * uniform(generator);
      values.push_back(value);
    }
    return values;
  };
  int covered = 0;
  constexpr int kTries = 4000;
  for (int t = 0; t < kTries; ++t) {
    std::vector<std::vector<double>> baseline;
    for (int k = 0; k < 5; ++k) baseline.push_back(record(10));
    const LevelShift shift = estimate_level_shift(record(10), baseline, 0.95);
    if (shift.low <= 0 && 0 <= shift.high) ++covered;
  }
  EXPECT_GE(covered, kTries * 93 / 100);
  EXPECT_LE(covered, kTries * 97 / 100);
}

TEST(LevelShiftInParts, OnePartIsExactlyTheRecordAsOne) {
  const std::vector<double> runs = {1.1, 1.2, 1.15, 1.3, 1.12};
  const std::vector<std::vector<double>> baseline = {
      {1.0, 1.02, 0.99}, {1.05, 1.04, 1.06}, {0.97, 0.98, 0.99}, {1.0, 1.01, 1.0}, {1.03, 1.02}};
  const LevelShift whole = estimate_level_shift(runs, baseline, 0.95);
  const LevelShift parts =
      estimate_level_shift(std::vector<std::vector<double>>{runs}, baseline, 0.95);
  EXPECT_EQ(parts.change, whole.change);
  EXPECT_EQ(parts.low, whole.low);
  EXPECT_EQ(parts.high, whole.high);
}

TEST(LevelShiftInParts, TwoAgreeingPartsHalveTheCurrentLevelsVariance) {
  // Baseline levels log(1), log(1.02), ... : spread S^2; each part is one more draw of it.
  const std::vector<std::vector<double>> baseline = {{1.0}, {1.02}, {0.98}, {1.01}, {0.99}};
  const LevelShift one = estimate_level_shift(std::vector<double>{1.2}, baseline, 0.95);
  const LevelShift two =
      estimate_level_shift(std::vector<std::vector<double>>{{1.2}, {1.2}}, baseline, 0.95);
  EXPECT_NEAR(two.change, 0.2, 1e-12);
  double mean = 0;
  for (const auto& record : baseline) mean += std::log(record[0]) / 5;
  double spread = 0;
  for (const auto& record : baseline) spread += std::pow(std::log(record[0]) - mean, 2) / 4;
  const double t = 2.7764451051977987;  // 97.5% of Student's t on 4 degrees of freedom
  const double center = std::log(1.0);  // the median record's level
  EXPECT_NEAR(one.high,
              std::expm1(std::log(1.2) - center +
                         t * std::sqrt(median_variance_factor(5) * spread / 5 + spread)),
              1e-12);
  EXPECT_NEAR(two.high,
              std::expm1(std::log(1.2) - center +
                         t * std::sqrt(median_variance_factor(5) * spread / 5 + spread / 2)),
              1e-12);
}

TEST(LevelShiftInParts, PartsThatDisagreeWidenTheIntervalByTheirOwnSpread) {
  // A first part 60% slower than a confirmation at the baseline's level: their mean is
  // 26% slower, but two moments that far apart cannot say so with confidence.
  const std::vector<std::vector<double>> baseline = {
      {1.0, 1.0}, {1.01, 1.01}, {0.99, 0.99}, {1.0, 1.0}, {1.0, 1.0}};
  const LevelShift shift = estimate_level_shift(
      std::vector<std::vector<double>>{{1.6, 1.6, 1.6}, {1.0, 1.0, 1.0}}, baseline, 0.95);
  EXPECT_NEAR(shift.change, std::expm1(std::log(1.6) / 2), 1e-12);
  EXPECT_LT(shift.low, 0.0);
  EXPECT_GT(shift.high, 0.6);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::stats
