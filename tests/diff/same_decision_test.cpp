// The SAME branches of the decision tree (summaries, then bulk samples), each with its
// exact status and reason.
#include <gtest/gtest.h>

#include "decision_fixtures.hpp"
#include "diff/state_comparison.hpp"

namespace perfgate::diff {
namespace PERFGATE_TEST_FILE {

using namespace testing;

// ---- SAME tests on summaries ---------------------------------------------------------

TEST(SameDecision, AmbiguousWhenNoiseIsUnavailable) {
  const StateComparison result = decide(same_reference(std::nullopt, -0.01), same_compare());
  expect_outcome(result, DiffStatus::kAmbiguous, "noise_unavailable", Evidence::kSummaries);
  EXPECT_EQ(result.reason.message,
            "the relative dispersion of the reference side is missing, negative or non-finite");
}

TEST(SameDecision, AmbiguousWhenNoIntervalsCanBeFormed) {
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

TEST(SameDecision, AmbiguousWhenCentersAreNotClose) {
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

TEST(SameDecision, AmbiguousWhenIntervalsOverlapWeakly) {
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

TEST(SameDecision, AmbiguousWhenNoiseIsAboveTheCeilingAndNoSamplesExist) {
  const StateComparison result = decide(same_reference(1.0 * kGHz, 0.03), same_compare(1.0 * kGHz));
  expect_outcome(result, DiffStatus::kAmbiguous, "noise_too_high", Evidence::kSummaries);
  EXPECT_DOUBLE_EQ(result.reason.severity, 0.03 - 0.02);
}

TEST(SameDecision, SameWithoutClockRatesWhenTheSummariesAgree) {
  expect_outcome(decide(same_reference(), same_compare()), DiffStatus::kSame,
                 "same_without_clock_rate", Evidence::kSummaries);
}

TEST(SameDecision, SameConfirmedByMeanClockRates) {
  const StateComparison result = decide(same_reference(1.0 * kGHz), same_compare(1.0 * kGHz));
  expect_outcome(result, DiffStatus::kSame, "same_confirmed_by_cycles", Evidence::kSummaryClock);
  EXPECT_EQ(result.reason.message,
            "the centers differ by 0.05% (<= 0.50%), the intervals overlap 87.50% (>= 50.00%) and "
            "the relative dispersion is 0.30% (<= 2.00%); in cycles the centers differ by 0.05% "
            "(needs <= 0.50%) and the intervals overlap 87.50% (needs >= 50.00%)");
}

TEST(SameDecision, AmbiguousWhenMeanClockRatesDoNotConfirmSame) {
  expect_outcome(decide(same_reference(1.0 * kGHz), same_compare(1.1 * kGHz)),
                 DiffStatus::kAmbiguous, "cycle_same_not_confirmed", Evidence::kSummaryClock);
}

TEST(SameDecision, AmbiguousWhenAClockRateIsInvalidForSame) {
  expect_outcome(decide(same_reference(1.0 * kGHz), same_compare(-1.0)), DiffStatus::kAmbiguous,
                 "invalid_clock_rate", Evidence::kSummaryClock);
}

TEST(SameDecision, SameBySummariesAloneWhenTheFormatHasNoClock) {
  const StateComparison result = decide(same_reference(), same_compare(), nullptr, nullptr, false);
  expect_outcome(result, DiffStatus::kSame, "same_summary", Evidence::kSummaries);
  EXPECT_FALSE(result.decided_without_clock);
}

// ---- SAME tests on bulk samples -----------------------------------------------------

TEST(SameDecision, SameWhenBulkTimesAndCyclesCoverEachOther) {
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

TEST(SameDecision, BulkSamplesDecideEvenWhenNoiseIsAboveTheCeiling) {
  FakeSamples ref(kSameReferenceTimes, kOneGHz);
  FakeSamples cmp(kSameCompareTimes, kOneGHz);
  expect_outcome(decide(same_reference(std::nullopt, 0.05), same_compare(), &ref, &cmp),
                 DiffStatus::kSame, "bulk_same", Evidence::kBulkCycles);
}

TEST(SameDecision, AmbiguousWhenBulkTimesDoNotCoverEachOther) {
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

TEST(SameDecision, AmbiguousWhenBulkTimesAreUnusable) {
  FakeSamples ref(scaled({1.0, 0.0, 1.002}, kMs), kOneGHz);
  FakeSamples cmp(kSameCompareTimes, kOneGHz);
  const StateComparison result = decide(same_reference(), same_compare(), &ref, &cmp);
  expect_outcome(result, DiffStatus::kAmbiguous, "bulk_time_data_unusable", Evidence::kBulkTimes);
  EXPECT_EQ(result.reason.message,
            "the reference sample times are empty or hold a zero, negative or non-finite value");
}

TEST(SameDecision, SameByBulkTimesWhenFrequenciesAndClockRatesAreMissing) {
  FakeSamples ref(kSameReferenceTimes, std::nullopt);
  FakeSamples cmp(kSameCompareTimes, std::nullopt);
  expect_outcome(decide(same_reference(), same_compare(), &ref, &cmp), DiffStatus::kSame,
                 "bulk_time_same_without_cycles", Evidence::kBulkTimes);
}

TEST(SameDecision, SameByBulkTimesConfirmedByMeanClockRates) {
  FakeSamples ref(kSameReferenceTimes, std::nullopt);
  FakeSamples cmp(kSameCompareTimes, std::nullopt);
  expect_outcome(decide(same_reference(1.0 * kGHz), same_compare(1.0 * kGHz), &ref, &cmp),
                 DiffStatus::kSame, "bulk_time_same_confirmed_by_summary_cycles",
                 Evidence::kBulkTimes);
}

TEST(SameDecision, AmbiguousWhenMeanClockRatesContradictSameBulkTimes) {
  FakeSamples ref(kSameReferenceTimes, std::nullopt);
  FakeSamples cmp(kSameCompareTimes, std::nullopt);
  expect_outcome(decide(same_reference(1.0 * kGHz), same_compare(1.1 * kGHz), &ref, &cmp),
                 DiffStatus::kAmbiguous, "cycle_same_not_confirmed", Evidence::kSummaryClock);
}

TEST(SameDecision, AmbiguousWhenBulkFrequenciesAreUnusableForSame) {
  FakeSamples ref(kSameReferenceTimes, kOneGHz);
  FakeSamples cmp(kSameCompareTimes, std::vector<double>{1e9, 1e9, std::nan(""), 1e9, 1e9});
  expect_outcome(decide(same_reference(), same_compare(), &ref, &cmp), DiffStatus::kAmbiguous,
                 "bulk_cycle_data_unusable", Evidence::kBulkCycles);
}

TEST(SameDecision, AmbiguousWhenBulkCyclesDoNotCoverEachOther) {
  FakeSamples ref(kSameReferenceTimes, kOneGHz);
  FakeSamples cmp(kSameCompareTimes, kOnePointOneGHz);
  const StateComparison result = decide(same_reference(), same_compare(), &ref, &cmp);
  expect_outcome(result, DiffStatus::kAmbiguous, "bulk_cycle_support_mismatch",
                 Evidence::kBulkCycles);
  EXPECT_DOUBLE_EQ(result.reason.severity, 0.97);
  EXPECT_EQ(result.time_coverage->sample_ref_in_cmp, 1.0);
  EXPECT_EQ(result.cycle_coverage->sample_ref_in_cmp, 0.0);
}

TEST(SameDecision, SameByBulkTimesAloneWhenTheFormatHasNoClock) {
  FakeSamples ref(kSameReferenceTimes, kOneGHz);
  FakeSamples cmp(kSameCompareTimes, kOnePointOneGHz);
  const StateComparison result = decide(same_reference(), same_compare(), &ref, &cmp, false);
  expect_outcome(result, DiffStatus::kSame, "bulk_time_same", Evidence::kBulkTimes);
  EXPECT_EQ(ref.frequency_calls + cmp.frequency_calls, 0);
  EXPECT_FALSE(result.cycle_coverage.has_value());
}

TEST(SameDecision, AmbiguousWhenBulkTimesDoNotCoverEachOtherWithoutAClock) {
  FakeSamples ref(kSameReferenceTimes, std::nullopt);
  FakeSamples cmp(scaled({1.0005, 1.0015, 1.0025, 1.0035, 1.2}, kMs), std::nullopt);
  expect_outcome(decide(same_reference(), same_compare(), &ref, &cmp, false),
                 DiffStatus::kAmbiguous, "bulk_time_support_mismatch", Evidence::kBulkTimes);
}

TEST(SameDecision, FallsBackToSummariesWhenOnlyOneSideHasSampleTimes) {
  FakeSamples ref(kSameReferenceTimes, kOneGHz);
  FakeSamples cmp(std::nullopt, std::nullopt);
  expect_outcome(decide(same_reference(), same_compare(), &ref, &cmp), DiffStatus::kSame,
                 "same_without_clock_rate", Evidence::kSummaries);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::diff
