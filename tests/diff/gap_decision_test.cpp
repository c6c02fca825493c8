// The clear-gap branches of the decision tree, each with its exact status and reason.
#include <gtest/gtest.h>

#include "decision_fixtures.hpp"
#include "diff/state_comparison.hpp"

namespace perfgate::diff {
namespace PERFGATE_TEST_FILE {

using namespace testing;

// ---- Clear gap, confirmed in cycle space (formats with a clock) ---------------------

TEST(GapDecision, FastWhenBulkCyclesConfirmTheGap) {
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

TEST(GapDecision, SlowWhenBulkCyclesConfirmTheGapTheOtherWay) {
  FakeSamples ref(kGapCompareTimes, kOneGHz);
  FakeSamples cmp(kGapReferenceTimes, kOneGHz);
  expect_outcome(decide(gap_compare(), gap_reference(), &ref, &cmp), DiffStatus::kSlow,
                 "clear_gap_confirmed_by_bulk_cycles", Evidence::kBulkCycles);
}

TEST(GapDecision, AmbiguousWhenBulkCyclesDoNotShowTheTimingGap) {
  // At 1.2 GHz the faster compare run spent more cycles than the reference.
  FakeSamples ref(kGapReferenceTimes, kOneGHz);
  FakeSamples cmp(kGapCompareTimes, std::vector<double>(5, 1.2 * kGHz));
  expect_outcome(decide(gap_reference(1.0 * kGHz), gap_compare(1.0 * kGHz), &ref, &cmp),
                 DiffStatus::kAmbiguous, "bulk_cycle_gap_not_confirmed", Evidence::kBulkCycles);
}

TEST(GapDecision, AmbiguousWhenBulkSamplesCannotFormCycles) {
  FakeSamples ref(kGapReferenceTimes, kOneGHz);
  FakeSamples cmp(kGapCompareTimes, std::vector<double>(4, 1.0 * kGHz));
  const StateComparison result = decide(gap_reference(), gap_compare(), &ref, &cmp);
  expect_outcome(result, DiffStatus::kAmbiguous, "bulk_cycle_data_unusable", Evidence::kBulkCycles);
  EXPECT_EQ(result.reason.message,
            "the compare sample times and frequencies differ in count or hold a zero, negative "
            "or non-finite value, so the timing gap of 7.53% cannot be checked in cycles");
}

TEST(GapDecision, FastWhenMeanClockRatesConfirmTheGapWithoutBulkSamples) {
  expect_outcome(decide(gap_reference(1.0 * kGHz), gap_compare(1.0 * kGHz)), DiffStatus::kFast,
                 "clear_gap_confirmed_by_summary_cycles", Evidence::kSummaryClock);
}

TEST(GapDecision, UsesMeanClockRatesWhenSampleFrequenciesAreMissing) {
  FakeSamples ref(kGapReferenceTimes, std::nullopt);
  FakeSamples cmp(kGapCompareTimes, std::nullopt);
  expect_outcome(decide(gap_compare(1.0 * kGHz), gap_reference(1.0 * kGHz), &ref, &cmp),
                 DiffStatus::kSlow, "clear_gap_confirmed_by_summary_cycles",
                 Evidence::kSummaryClock);
}

TEST(GapDecision, AmbiguousWhenMeanClockRatesDoNotShowTheTimingGap) {
  expect_outcome(decide(gap_reference(1.0 * kGHz), gap_compare(1.2 * kGHz)), DiffStatus::kAmbiguous,
                 "summary_cycle_gap_not_confirmed", Evidence::kSummaryClock);
}

TEST(GapDecision, AmbiguousWhenAGapCannotBeCheckedForWantOfAClockRate) {
  const StateComparison result = decide(gap_reference(1.0 * kGHz), gap_compare());
  expect_outcome(result, DiffStatus::kAmbiguous, "missing_clock_rate", Evidence::kSummaries);
  EXPECT_EQ(result.reason.message,
            "the timing gap of 7.53% cannot be checked in cycles: the compare side has no mean "
            "clock rate, and bulk sample frequencies are not available on both sides");
}

TEST(GapDecision, AmbiguousWhenAClockRateIsInvalidForAGap) {
  expect_outcome(decide(gap_reference(1.0 * kGHz), gap_compare(0.0)), DiffStatus::kAmbiguous,
                 "invalid_clock_rate", Evidence::kSummaryClock);
}

// ---- Clear gap in formats without a clock -------------------------------------------

TEST(GapDecision, ClearGapAloneDecidesWhenTheFormatHasNoClock) {
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

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::diff
