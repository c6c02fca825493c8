// compare_states before and after the decision tree: states it cannot compare (????) and
// what it reports besides the status.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "decision_fixtures.hpp"
#include "diff/state_comparison.hpp"

namespace perfgate::diff {
namespace PERFGATE_TEST_FILE {

using namespace testing;

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

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::diff
