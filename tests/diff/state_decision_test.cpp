// One test per branch of the decision tree, with the exact status and reason each gives.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "diff/state_comparison.hpp"
#include "diff_fixtures.hpp"

namespace perfgate::diff {
namespace {

using namespace testing;
using ingest::TimingSummary;

constexpr double kMs = 1e-3;
constexpr double kGHz = 1e9;

// Compare lies wholly 7.53% below reference: a clear gap (FAST) before cycles are checked.
TimingSummary gap_reference(std::optional<double> clock = std::nullopt) {
  return robust_summary(1.00 * kMs, 1.01 * kMs, 1.02 * kMs, 1.03 * kMs, 0.02, clock);
}
TimingSummary gap_compare(std::optional<double> clock = std::nullopt) {
  return robust_summary(0.90 * kMs, 0.91 * kMs, 0.92 * kMs, 0.93 * kMs, 0.02, clock);
}
const std::vector<double> kGapReferenceTimes = scaled({1.00, 1.01, 1.02, 1.03, 1.04}, kMs);
const std::vector<double> kGapCompareTimes = scaled({0.90, 0.91, 0.92, 0.93, 0.94}, kMs);

// Overlapping intervals whose centers differ by 0.05% and overlap 87.5%: SAME material.
TimingSummary same_reference(std::optional<double> clock = std::nullopt, double noise = 0.003) {
  return robust_summary(1.000 * kMs, 1.001 * kMs, 1.002 * kMs, 1.004 * kMs, noise, clock);
}
TimingSummary same_compare(std::optional<double> clock = std::nullopt) {
  return robust_summary(1.0005 * kMs, 1.0015 * kMs, 1.0025 * kMs, 1.0045 * kMs, 0.003, clock);
}
const std::vector<double> kSameReferenceTimes = scaled({1.000, 1.001, 1.002, 1.003, 1.004}, kMs);
const std::vector<double> kSameCompareTimes = scaled({1.0005, 1.0015, 1.0025, 1.0035, 1.0045}, kMs);
const std::vector<double> kOneGHz(5, 1.0 * kGHz);
const std::vector<double> kOnePointOneGHz(5, 1.1 * kGHz);

StateComparison decide(const TimingSummary& ref, const TimingSummary& cmp,
                       LazySamples* ref_samples = nullptr, LazySamples* cmp_samples = nullptr,
                       bool has_clock = true) {
  return compare_states(ref, cmp, ref_samples, cmp_samples, has_clock, default_thresholds());
}

void expect_outcome(const StateComparison& result, DiffStatus status, std::string_view code,
                    Evidence evidence) {
  EXPECT_EQ(to_string(result.status), to_string(status)) << result.reason.message;
  EXPECT_EQ(result.reason.code, code) << result.reason.message;
  EXPECT_EQ(to_string(result.evidence), to_string(evidence));
  EXPECT_FALSE(result.reason.message.empty());
}

// ---- ????: nothing to compare -------------------------------------------------------

TEST(StateDecision, IsUnknownWhenASideHasNoTimingSummaries) {
  TimingSummary empty;
  empty.clock_rate_mean = 1.0 * kGHz;
  const StateComparison result = decide(empty, same_compare());
  expect_outcome(result, DiffStatus::kUnknown, "timing_summaries_missing", Evidence::kNone);
  EXPECT_EQ(result.reason.message, "the reference side has no timing summaries");
  EXPECT_EQ(decide(empty, empty).reason.message,
            "the reference and compare side has no timing summaries");
}

TEST(StateDecision, IsUnknownWhenACenterIsMissing) {
  TimingSummary only_noise;
  only_noise.stdev_relative = 0.1;
  const StateComparison result = decide(same_reference(), only_noise);
  expect_outcome(result, DiffStatus::kUnknown, "timing_center_missing", Evidence::kNone);
  EXPECT_EQ(result.reason.message, "the compare side has no timing center");
}

TEST(StateDecision, IsUnknownWhenACenterIsNotFinite) {
  const StateComparison result =
      decide(classical_summary(std::numeric_limits<double>::infinity(), 1e-5),
             classical_summary(1e-3, 1e-5));
  expect_outcome(result, DiffStatus::kUnknown, "timing_center_nonfinite", Evidence::kNone);
  EXPECT_EQ(result.reason.message,
            "the timing center of the reference side is not finite (inf and 0.001)");
  ASSERT_TRUE(result.reference.has_value());
  EXPECT_TRUE(std::isinf(result.reference->center));
  EXPECT_FALSE(result.difference.has_value());
}

TEST(StateDecision, IsUnknownWhenACenterIsNotPositive) {
  const StateComparison result = decide(classical_summary(1e-3, 1e-5), classical_summary(0, 1e-5));
  expect_outcome(result, DiffStatus::kUnknown, "timing_center_nonpositive", Evidence::kNone);
  EXPECT_EQ(result.reason.message,
            "the timing center of the compare side is not positive (0.001 and 0)");
}

TEST(StateDecision, UnknownStateKeepsTheReasonItIsGiven) {
  const StateComparison result =
      unknown_state({"only_in_reference", "the compare file has no such state", 0});
  EXPECT_EQ(result.status, DiffStatus::kUnknown);
  EXPECT_EQ(result.reason.code, "only_in_reference");
  EXPECT_EQ(result.reason.message, "the compare file has no such state");
  EXPECT_EQ(result.evidence, Evidence::kNone);
  EXPECT_FALSE(result.reference.has_value());
}

// ---- Clear gap, confirmed in cycle space (formats with a clock) ---------------------

TEST(StateDecision, FastWhenBulkCyclesConfirmTheGap) {
  FakeSamples ref(kGapReferenceTimes, kOneGHz);
  FakeSamples cmp(kGapCompareTimes, kOneGHz);
  const StateComparison result = decide(gap_reference(), gap_compare(), &ref, &cmp);
  expect_outcome(result, DiffStatus::kFast, "clear_gap_confirmed_by_bulk_cycles",
                 Evidence::kBulkCycles);
  EXPECT_EQ(result.reason.message,
            "the timing gap of 7.53% holds in cycles: bulk cycle intervals [1e+06, 1.03e+06] and "
            "[9e+05, 9.3e+05] are 7.53% apart (needs 0.50%)");
  EXPECT_FALSE(result.decided_without_clock);
  EXPECT_EQ(ref.times_calls + ref.frequency_calls + cmp.times_calls + cmp.frequency_calls, 4);
}

TEST(StateDecision, SlowWhenBulkCyclesConfirmTheGapTheOtherWay) {
  FakeSamples ref(kGapCompareTimes, kOneGHz);
  FakeSamples cmp(kGapReferenceTimes, kOneGHz);
  expect_outcome(decide(gap_compare(), gap_reference(), &ref, &cmp), DiffStatus::kSlow,
                 "clear_gap_confirmed_by_bulk_cycles", Evidence::kBulkCycles);
}

TEST(StateDecision, AmbiguousWhenBulkCyclesDoNotShowTheTimingGap) {
  // At 1.2 GHz the faster compare run spent more cycles than the reference.
  FakeSamples ref(kGapReferenceTimes, kOneGHz);
  FakeSamples cmp(kGapCompareTimes, std::vector<double>(5, 1.2 * kGHz));
  expect_outcome(decide(gap_reference(1.0 * kGHz), gap_compare(1.0 * kGHz), &ref, &cmp),
                 DiffStatus::kAmbiguous, "bulk_cycle_gap_not_confirmed", Evidence::kBulkCycles);
}

TEST(StateDecision, AmbiguousWhenBulkSamplesCannotFormCycles) {
  FakeSamples ref(kGapReferenceTimes, kOneGHz);
  FakeSamples cmp(kGapCompareTimes, std::vector<double>(4, 1.0 * kGHz));
  const StateComparison result = decide(gap_reference(), gap_compare(), &ref, &cmp);
  expect_outcome(result, DiffStatus::kAmbiguous, "bulk_cycle_data_unusable", Evidence::kBulkCycles);
  EXPECT_EQ(result.reason.message,
            "the compare sample times and frequencies differ in count or hold a zero, negative "
            "or non-finite value, so the timing gap of 7.53% cannot be checked in cycles");
}

TEST(StateDecision, FastWhenMeanClockRatesConfirmTheGapWithoutBulkSamples) {
  expect_outcome(decide(gap_reference(1.0 * kGHz), gap_compare(1.0 * kGHz)), DiffStatus::kFast,
                 "clear_gap_confirmed_by_summary_cycles", Evidence::kSummaryClock);
}

TEST(StateDecision, UsesMeanClockRatesWhenSampleFrequenciesAreMissing) {
  FakeSamples ref(kGapReferenceTimes, std::nullopt);
  FakeSamples cmp(kGapCompareTimes, std::nullopt);
  expect_outcome(decide(gap_compare(1.0 * kGHz), gap_reference(1.0 * kGHz), &ref, &cmp),
                 DiffStatus::kSlow, "clear_gap_confirmed_by_summary_cycles",
                 Evidence::kSummaryClock);
}

TEST(StateDecision, AmbiguousWhenMeanClockRatesDoNotShowTheTimingGap) {
  expect_outcome(decide(gap_reference(1.0 * kGHz), gap_compare(1.2 * kGHz)), DiffStatus::kAmbiguous,
                 "summary_cycle_gap_not_confirmed", Evidence::kSummaryClock);
}

TEST(StateDecision, AmbiguousWhenAGapCannotBeCheckedForWantOfAClockRate) {
  const StateComparison result = decide(gap_reference(1.0 * kGHz), gap_compare());
  expect_outcome(result, DiffStatus::kAmbiguous, "missing_clock_rate", Evidence::kSummaries);
  EXPECT_EQ(result.reason.message,
            "the timing gap of 7.53% cannot be checked in cycles: the compare side has neither "
            "bulk sample frequencies nor a mean clock rate");
}

TEST(StateDecision, AmbiguousWhenAClockRateIsInvalidForAGap) {
  expect_outcome(decide(gap_reference(1.0 * kGHz), gap_compare(0.0)), DiffStatus::kAmbiguous,
                 "invalid_clock_rate", Evidence::kSummaryClock);
}

// ---- Clear gap in formats without a clock -------------------------------------------

TEST(StateDecision, ClearGapAloneDecidesWhenTheFormatHasNoClock) {
  FakeSamples ref(kGapReferenceTimes, std::nullopt);
  FakeSamples cmp(kGapCompareTimes, std::nullopt);
  const StateComparison result = decide(gap_reference(), gap_compare(), &ref, &cmp, false);
  expect_outcome(result, DiffStatus::kFast, "clear_gap_without_clock", Evidence::kSummaries);
  EXPECT_TRUE(result.decided_without_clock);
  EXPECT_EQ(result.reason.message,
            "compare interval [0.0009, 0.00093] lies 7.53% below reference interval [0.001, "
            "0.00103] (needs 0.50%); the format has no clock, so the timing gap alone decides");
  EXPECT_EQ(ref.times_calls + cmp.times_calls, 0);

  const StateComparison slow = decide(gap_compare(), gap_reference(), nullptr, nullptr, false);
  expect_outcome(slow, DiffStatus::kSlow, "clear_gap_without_clock", Evidence::kSummaries);
  EXPECT_TRUE(slow.decided_without_clock);
}

// ---- SAME tests on summaries ---------------------------------------------------------

TEST(StateDecision, AmbiguousWhenNoiseIsUnavailable) {
  const StateComparison result = decide(same_reference(std::nullopt, -0.01), same_compare());
  expect_outcome(result, DiffStatus::kAmbiguous, "noise_unavailable", Evidence::kSummaries);
  EXPECT_EQ(result.reason.message,
            "the relative dispersion of the reference side is missing, negative or non-finite");
}

TEST(StateDecision, AmbiguousWhenNoIntervalsCanBeFormed) {
  TimingSummary ref;
  ref.median = 1.0 * kMs;
  ref.iqr_relative = 0.01;
  TimingSummary cmp = ref;
  cmp.median = 1.1 * kMs;
  const StateComparison result = decide(ref, cmp);
  expect_outcome(result, DiffStatus::kAmbiguous, "missing_interval", Evidence::kNone);
  EXPECT_TRUE(result.robust);
  EXPECT_FALSE(result.reference->interval.has_value());
  EXPECT_DOUBLE_EQ(*result.relative_difference, (1.1 * kMs - 1.0 * kMs) / (1.0 * kMs));
}

TEST(StateDecision, AmbiguousWhenCentersAreNotClose) {
  FakeSamples ref(kSameReferenceTimes, kOneGHz);
  FakeSamples cmp(kSameCompareTimes, kOneGHz);
  const TimingSummary far =
      robust_summary(1.003 * kMs, 1.006 * kMs, 1.008 * kMs, 1.010 * kMs, 0.003);
  const StateComparison result = decide(same_reference(), far, &ref, &cmp);
  expect_outcome(result, DiffStatus::kAmbiguous, "centers_not_close", Evidence::kSummaries);
  EXPECT_EQ(result.reason.message,
            "the intervals have no clear gap, but the centers differ by 0.60% (SAME needs <= "
            "0.50%)");
  EXPECT_DOUBLE_EQ(result.reason.severity, (1.008 * kMs - 1.002 * kMs) / (1.002 * kMs) - 0.005);
  EXPECT_EQ(ref.times_calls + ref.frequency_calls + cmp.times_calls + cmp.frequency_calls, 0);
}

TEST(StateDecision, AmbiguousWhenIntervalsOverlapWeakly) {
  const TimingSummary ref =
      robust_summary(0.990 * kMs, 0.995 * kMs, 1.000 * kMs, 1.001 * kMs, 0.003);
  const TimingSummary cmp =
      robust_summary(0.9995 * kMs, 0.9998 * kMs, 1.0002 * kMs, 1.012 * kMs, 0.003);
  const StateComparison result = decide(ref, cmp);
  expect_outcome(result, DiffStatus::kAmbiguous, "weak_interval_overlap", Evidence::kSummaries);
  EXPECT_EQ(result.reason.message,
            "the intervals overlap 13.64% of the narrower one (SAME needs >= 50.00%)");
  EXPECT_DOUBLE_EQ(result.reason.severity,
                   0.5 - (1.001 * kMs - 0.9995 * kMs) / (1.001 * kMs - 0.990 * kMs));
}

TEST(StateDecision, AmbiguousWhenNoiseIsAboveTheCeilingAndNoSamplesExist) {
  const StateComparison result = decide(same_reference(1.0 * kGHz, 0.03), same_compare(1.0 * kGHz));
  expect_outcome(result, DiffStatus::kAmbiguous, "noise_too_high", Evidence::kSummaries);
  EXPECT_DOUBLE_EQ(result.reason.severity, 0.03 - 0.02);
}

TEST(StateDecision, SameWithoutClockRatesWhenTheSummariesAgree) {
  expect_outcome(decide(same_reference(), same_compare()), DiffStatus::kSame,
                 "same_without_clock_rate", Evidence::kSummaries);
}

TEST(StateDecision, SameConfirmedByMeanClockRates) {
  const StateComparison result = decide(same_reference(1.0 * kGHz), same_compare(1.0 * kGHz));
  expect_outcome(result, DiffStatus::kSame, "same_confirmed_by_cycles", Evidence::kSummaryClock);
  EXPECT_EQ(result.reason.message,
            "the centers differ by 0.05% (<= 0.50%), the intervals overlap 87.50% (>= 50.00%) and "
            "the relative dispersion is 0.30% (<= 2.00%); in cycles the centers differ by 0.05% "
            "(needs <= 0.50%) and the intervals overlap 87.50% (needs >= 50.00%)");
}

TEST(StateDecision, AmbiguousWhenMeanClockRatesDoNotConfirmSame) {
  expect_outcome(decide(same_reference(1.0 * kGHz), same_compare(1.1 * kGHz)),
                 DiffStatus::kAmbiguous, "cycle_same_not_confirmed", Evidence::kSummaryClock);
}

TEST(StateDecision, AmbiguousWhenAClockRateIsInvalidForSame) {
  expect_outcome(decide(same_reference(1.0 * kGHz), same_compare(-1.0)), DiffStatus::kAmbiguous,
                 "invalid_clock_rate", Evidence::kSummaryClock);
}

TEST(StateDecision, SameBySummariesAloneWhenTheFormatHasNoClock) {
  const StateComparison result = decide(same_reference(), same_compare(), nullptr, nullptr, false);
  expect_outcome(result, DiffStatus::kSame, "same_summary", Evidence::kSummaries);
  EXPECT_FALSE(result.decided_without_clock);
}

// ---- SAME tests on bulk samples -----------------------------------------------------

TEST(StateDecision, SameWhenBulkTimesAndCyclesCoverEachOther) {
  FakeSamples ref(kSameReferenceTimes, kOneGHz);
  FakeSamples cmp(kSameCompareTimes, kOneGHz);
  const StateComparison result = decide(same_reference(), same_compare(), &ref, &cmp);
  expect_outcome(result, DiffStatus::kSame, "bulk_same", Evidence::kBulkCycles);
  ASSERT_TRUE(result.time_coverage.has_value());
  ASSERT_TRUE(result.cycle_coverage.has_value());
  EXPECT_EQ(result.time_coverage->sample_cmp_in_ref, 1.0);
  EXPECT_EQ(result.cycle_coverage->support_ref_in_cmp, 1.0);
  EXPECT_EQ(ref.times_calls, 1);
  EXPECT_EQ(ref.frequency_calls, 1);
  EXPECT_EQ(cmp.times_calls, 1);
  EXPECT_EQ(cmp.frequency_calls, 1);
}

TEST(StateDecision, BulkSamplesDecideEvenWhenNoiseIsAboveTheCeiling) {
  FakeSamples ref(kSameReferenceTimes, kOneGHz);
  FakeSamples cmp(kSameCompareTimes, kOneGHz);
  expect_outcome(decide(same_reference(std::nullopt, 0.05), same_compare(), &ref, &cmp),
                 DiffStatus::kSame, "bulk_same", Evidence::kBulkCycles);
}

TEST(StateDecision, AmbiguousWhenBulkTimesDoNotCoverEachOther) {
  FakeSamples ref(kSameReferenceTimes, kOneGHz);
  FakeSamples cmp(scaled({1.0005, 1.0015, 1.0025, 1.0035, 1.2}, kMs), kOneGHz);
  const StateComparison result = decide(same_reference(), same_compare(), &ref, &cmp);
  expect_outcome(result, DiffStatus::kAmbiguous, "bulk_time_support_mismatch",
                 Evidence::kBulkTimes);
  EXPECT_EQ(result.reason.message,
            "sample times do not cover each other: samples covered 100.00% of reference, 80.00% "
            "of compare (needs 97.00%); distinct values 100.00% and 80.00% (needs 80.00%)");
  EXPECT_DOUBLE_EQ(result.reason.severity, 0.97 - 0.8);
  EXPECT_FALSE(result.cycle_coverage.has_value());
  EXPECT_EQ(cmp.frequency_calls, 0);
}

TEST(StateDecision, AmbiguousWhenBulkTimesAreUnusable) {
  FakeSamples ref(scaled({1.0, 0.0, 1.002}, kMs), kOneGHz);
  FakeSamples cmp(kSameCompareTimes, kOneGHz);
  const StateComparison result = decide(same_reference(), same_compare(), &ref, &cmp);
  expect_outcome(result, DiffStatus::kAmbiguous, "bulk_time_data_unusable", Evidence::kBulkTimes);
  EXPECT_EQ(result.reason.message,
            "the reference sample times are empty or hold a zero, negative or non-finite value");
}

TEST(StateDecision, SameByBulkTimesWhenFrequenciesAndClockRatesAreMissing) {
  FakeSamples ref(kSameReferenceTimes, std::nullopt);
  FakeSamples cmp(kSameCompareTimes, std::nullopt);
  expect_outcome(decide(same_reference(), same_compare(), &ref, &cmp), DiffStatus::kSame,
                 "bulk_time_same_without_cycles", Evidence::kBulkTimes);
}

TEST(StateDecision, SameByBulkTimesConfirmedByMeanClockRates) {
  FakeSamples ref(kSameReferenceTimes, std::nullopt);
  FakeSamples cmp(kSameCompareTimes, std::nullopt);
  expect_outcome(decide(same_reference(1.0 * kGHz), same_compare(1.0 * kGHz), &ref, &cmp),
                 DiffStatus::kSame, "bulk_time_same_confirmed_by_summary_cycles",
                 Evidence::kBulkTimes);
}

TEST(StateDecision, AmbiguousWhenMeanClockRatesContradictSameBulkTimes) {
  FakeSamples ref(kSameReferenceTimes, std::nullopt);
  FakeSamples cmp(kSameCompareTimes, std::nullopt);
  expect_outcome(decide(same_reference(1.0 * kGHz), same_compare(1.1 * kGHz), &ref, &cmp),
                 DiffStatus::kAmbiguous, "cycle_same_not_confirmed", Evidence::kSummaryClock);
}

TEST(StateDecision, AmbiguousWhenBulkFrequenciesAreUnusableForSame) {
  FakeSamples ref(kSameReferenceTimes, kOneGHz);
  FakeSamples cmp(kSameCompareTimes, std::vector<double>{1e9, 1e9, std::nan(""), 1e9, 1e9});
  expect_outcome(decide(same_reference(), same_compare(), &ref, &cmp), DiffStatus::kAmbiguous,
                 "bulk_cycle_data_unusable", Evidence::kBulkCycles);
}

TEST(StateDecision, AmbiguousWhenBulkCyclesDoNotCoverEachOther) {
  FakeSamples ref(kSameReferenceTimes, kOneGHz);
  FakeSamples cmp(kSameCompareTimes, kOnePointOneGHz);
  const StateComparison result = decide(same_reference(), same_compare(), &ref, &cmp);
  expect_outcome(result, DiffStatus::kAmbiguous, "bulk_cycle_support_mismatch",
                 Evidence::kBulkCycles);
  EXPECT_DOUBLE_EQ(result.reason.severity, 0.97);
  EXPECT_EQ(result.time_coverage->sample_ref_in_cmp, 1.0);
  EXPECT_EQ(result.cycle_coverage->sample_ref_in_cmp, 0.0);
}

TEST(StateDecision, SameByBulkTimesAloneWhenTheFormatHasNoClock) {
  FakeSamples ref(kSameReferenceTimes, kOneGHz);
  FakeSamples cmp(kSameCompareTimes, kOnePointOneGHz);
  const StateComparison result = decide(same_reference(), same_compare(), &ref, &cmp, false);
  expect_outcome(result, DiffStatus::kSame, "bulk_time_same", Evidence::kBulkTimes);
  EXPECT_EQ(ref.frequency_calls + cmp.frequency_calls, 0);
  EXPECT_FALSE(result.cycle_coverage.has_value());
}

TEST(StateDecision, AmbiguousWhenBulkTimesDoNotCoverEachOtherWithoutAClock) {
  FakeSamples ref(kSameReferenceTimes, std::nullopt);
  FakeSamples cmp(scaled({1.0005, 1.0015, 1.0025, 1.0035, 1.2}, kMs), std::nullopt);
  expect_outcome(decide(same_reference(), same_compare(), &ref, &cmp, false),
                 DiffStatus::kAmbiguous, "bulk_time_support_mismatch", Evidence::kBulkTimes);
}

TEST(StateDecision, FallsBackToSummariesWhenOnlyOneSideHasSampleTimes) {
  FakeSamples ref(kSameReferenceTimes, kOneGHz);
  FakeSamples cmp(std::nullopt, std::nullopt);
  expect_outcome(decide(same_reference(), same_compare(), &ref, &cmp), DiffStatus::kSame,
                 "same_without_clock_rate", Evidence::kSummaries);
}

// ---- What the comparison reports besides the status ---------------------------------

TEST(StateDecision, ReportsTheEstimatesAndTheDifferenceOfTheCenters) {
  const StateComparison result = decide(gap_reference(1.0 * kGHz), gap_compare(1.0 * kGHz));
  EXPECT_TRUE(result.robust);
  ASSERT_TRUE(result.reference && result.compare);
  EXPECT_EQ(result.reference->center, 1.02 * kMs);
  EXPECT_EQ(result.reference->noise, 0.02);
  EXPECT_EQ(result.reference->interval->lower, 1.00 * kMs);
  EXPECT_EQ(result.reference->interval->upper, 1.03 * kMs);
  EXPECT_EQ(result.compare->center, 0.92 * kMs);
  EXPECT_DOUBLE_EQ(*result.difference, 0.92 * kMs - 1.02 * kMs);
  EXPECT_DOUBLE_EQ(*result.relative_difference, (0.92 * kMs - 1.02 * kMs) / (1.02 * kMs));
}

TEST(StateDecision, UsesClassicalSummariesWhenOneSideLacksRobustOnes) {
  TimingSummary ref = same_reference();
  ref.q1.reset();
  const StateComparison result = decide(ref, same_compare());
  EXPECT_FALSE(result.robust);
  EXPECT_EQ(result.reference->center, 1.002 * kMs * 1.5);
  EXPECT_EQ(result.compare->center, 1.0025 * kMs * 1.5);
}

}  // namespace
}  // namespace perfgate::diff
