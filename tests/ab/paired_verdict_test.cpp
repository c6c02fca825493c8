#include "ab/paired_verdict.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::ElementsAre;

constexpr double kMiB = 1024.0 * 1024.0;

// Durations as given; CPU and RSS identical on both sides, so only duration decides.
PairedRuns durations(std::vector<double> base, std::vector<double> head) {
  PairedRuns runs;
  const std::size_t n = base.size();
  runs[AbMetric::kDuration] = {std::move(base), std::move(head)};
  runs[AbMetric::kCpu] = {std::vector<double>(n, 2.0), std::vector<double>(n, 2.0)};
  runs[AbMetric::kRss] = {std::vector<double>(n, 100 * kMiB), std::vector<double>(n, 100 * kMiB)};
  return runs;
}

const VerdictRules kDefaults{};

TEST(PairedVerdict, ThreeOfThreePairsOverBudgetIsARegressionWithoutConfirmation) {
  const PairedVerdict verdict = judge_pairs(durations({10, 10, 10}, {14, 13, 15}), kDefaults);
  EXPECT_EQ(verdict.kind, VerdictKind::kRegression);
  EXPECT_THAT(verdict.reasons,
              ElementsAre("latency over budget (+25% and 1 s) in 3 of 3 pairs: base median 10 s, "
                          "head median 14 s (+40.0%)"));
  EXPECT_THAT(verdict.metrics[0].pair_over_budget, ElementsAre(true, true, true));
}

TEST(PairedVerdict, TwoOfThreePairsOverBudgetAsksForConfirmationPairs) {
  const PairedVerdict verdict = judge_pairs(durations({10, 10, 10}, {14, 14, 10}), kDefaults);
  EXPECT_EQ(verdict.kind, VerdictKind::kNeedsConfirmation);
  EXPECT_EQ(verdict.metrics[0].pairs_over_budget, 2u);
  EXPECT_THAT(verdict.reasons,
              ElementsAre("latency head median 14 s is over budget (+25% and 1 s) against base "
                          "median 10 s (+40.0%), but only 2 of 3 pairs were over budget"));
}

TEST(PairedVerdict, FourOfFivePairsOverBudgetIsARegression) {
  const PairedVerdict verdict =
      judge_pairs(durations({10, 10, 10, 10, 10}, {14, 14, 10, 14, 14}), kDefaults);
  EXPECT_EQ(verdict.kind, VerdictKind::kRegression);
  EXPECT_THAT(verdict.reasons,
              ElementsAre("latency over budget (+25% and 1 s) in 4 of 5 pairs: base median 10 s, "
                          "head median 14 s (+40.0%)"));
}

TEST(PairedVerdict, ThreeOfFivePairsOverBudgetIsNotARegressionButAnUnreproducedMedian) {
  const PairedVerdict verdict =
      judge_pairs(durations({10, 10, 10, 10, 10}, {14, 14, 10, 14, 10}), kDefaults);
  EXPECT_EQ(verdict.kind, VerdictKind::kInconclusive);
  EXPECT_EQ(verdict.metrics[0].pairs_over_budget, 3u);
  EXPECT_THAT(verdict.reasons,
              ElementsAre("latency head median 14 s is over budget (+25% and 1 s) against base "
                          "median 10 s (+40.0%), but only 3 of 5 pairs were over budget"));
}

TEST(PairedVerdict, ConsistentPairedEvidenceIsARegressionEvenWhenBothSidesAreNoisy) {
  const PairedVerdict verdict =
      judge_pairs(durations({10, 20, 10, 20, 10}, {14, 26, 14, 26, 10}), kDefaults);
  EXPECT_EQ(verdict.kind, VerdictKind::kRegression);
  EXPECT_TRUE(verdict.metrics[0].base_noise.noisy);
}

TEST(PairedVerdict, ThreeCleanPairsPassWithoutConfirmation) {
  const PairedVerdict verdict =
      judge_pairs(durations({10, 10.5, 10.2}, {10.3, 10.1, 10.4}), kDefaults);
  EXPECT_EQ(verdict.kind, VerdictKind::kPass);
  EXPECT_THAT(verdict.reasons,
              ElementsAre("every metric's head median is within budget and both sides are within "
                          "the noise limit after 3 pairs"));
}

TEST(PairedVerdict, ANoisySideAfterThreePairsAsksForConfirmationPairs) {
  const PairedVerdict verdict = judge_pairs(durations({10, 10, 10}, {10, 14.5, 10}), kDefaults);
  EXPECT_EQ(verdict.kind, VerdictKind::kNeedsConfirmation);
  EXPECT_THAT(verdict.reasons,
              ElementsAre("latency is noisy on the head side: range 4.5 s is 45% of its median "
                          "10 s (limit 30%)"));
}

TEST(PairedVerdict, OneSlowSampleIsDiscardedOnceFivePairsRanSoTheCandidatePasses) {
  const PairedVerdict verdict =
      judge_pairs(durations({10, 10, 10, 10, 10}, {10, 14.5, 10, 10.2, 10.1}), kDefaults);
  EXPECT_EQ(verdict.kind, VerdictKind::kPass);
  EXPECT_EQ(verdict.metrics[0].head_noise.discarded, 1u);
  EXPECT_THAT(
      verdict.reasons,
      ElementsAre("every metric's head median is within budget and both sides are within "
                  "the noise limit after discarding the most extreme sample, over 5 pairs"));
}

TEST(PairedVerdict, ANoisyHeadAfterTheDiscardIsInconclusive) {
  const PairedVerdict verdict =
      judge_pairs(durations({10, 10, 10, 10, 10}, {10, 14, 10, 14, 10}), kDefaults);
  EXPECT_EQ(verdict.kind, VerdictKind::kInconclusive);
  EXPECT_THAT(verdict.reasons,
              ElementsAre("latency is noisy on the head side: range 4 s is 40% of its median "
                          "10 s (limit 30%, after discarding the most extreme sample)"));
}

TEST(PairedVerdict, ANoisyBaseIsInconclusiveToo) {
  const PairedVerdict verdict =
      judge_pairs(durations({10, 6, 10, 6, 10}, {10, 10, 10, 10, 10}), kDefaults);
  EXPECT_EQ(verdict.kind, VerdictKind::kInconclusive);
  EXPECT_THAT(verdict.reasons,
              ElementsAre("latency is noisy on the base side: range 4 s is 40% of its median "
                          "10 s (limit 30%, after discarding the most extreme sample)"));
}

TEST(PairedVerdict, ARelativeExcessAloneIsWithinBudget) {
  const PairedVerdict verdict = judge_pairs(durations({0.1, 0.1, 0.1}, {0.5, 0.5, 0.5}), kDefaults);
  EXPECT_EQ(verdict.kind, VerdictKind::kPass);
  EXPECT_EQ(verdict.metrics[0].pairs_over_budget, 0u);
}

TEST(PairedVerdict, AnAbsoluteExcessAloneIsWithinBudget) {
  const PairedVerdict verdict = judge_pairs(durations({100, 100, 100}, {110, 110, 110}), kDefaults);
  EXPECT_EQ(verdict.kind, VerdictKind::kPass);
  EXPECT_EQ(verdict.metrics[0].pairs_over_budget, 0u);
}

TEST(PairedVerdict, EachMetricIsJudgedOnItsOwn) {
  PairedRuns runs = durations({1, 1, 1}, {1, 1, 1});
  runs[AbMetric::kRss].head = {200 * kMiB, 200 * kMiB, 200 * kMiB};
  const PairedVerdict verdict = judge_pairs(runs, kDefaults);
  EXPECT_EQ(verdict.kind, VerdictKind::kRegression);
  EXPECT_THAT(
      verdict.reasons,
      ElementsAre("memory over budget (+20% and 32 MB) in 3 of 3 pairs: base median 100 MB, "
                  "head median 200 MB (+100.0%)"));
  EXPECT_EQ(verdict.metrics[0].pairs_over_budget, 0u);
  EXPECT_EQ(verdict.metrics[2].pairs_over_budget, 3u);
}

TEST(PairedVerdict, TheNoiseLimitComesFromTheRules) {
  VerdictRules strict;
  strict.noise_limit = 0.05;
  strict.budgets[AbMetric::kDuration] = {0.25, 0.0};
  const PairedRuns runs = durations({10, 10.6, 10}, {10, 10, 10});
  EXPECT_EQ(judge_pairs(runs, kDefaults).kind, VerdictKind::kPass);
  EXPECT_EQ(judge_pairs(runs, strict).kind, VerdictKind::kNeedsConfirmation);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
