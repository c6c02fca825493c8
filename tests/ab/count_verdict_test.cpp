#include "ab/count_verdict.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;

const Budget kOnePercent{0.01, 0};

TEST(CountVerdict, OneRoundAsksForItsConfirmation) {
  const CountVerdict v = judge_counts({1000000}, {1020000}, kOnePercent, 0.01, false);
  EXPECT_EQ(v.kind, VerdictKind::kNeedsConfirmation);
  EXPECT_EQ(v.rounds, 1u);
}

TEST(CountVerdict, ADeterministicProgramDecidesInTwoRoundsEitherWay) {
  // 2% more instructions, each side repeating its count to a handful.
  const CountVerdict slower =
      judge_counts({1000000, 1000004}, {1020000, 1020002}, kOnePercent, 0.01, false);
  EXPECT_EQ(slower.kind, VerdictKind::kRegression);
  EXPECT_TRUE(slower.deterministic);
  EXPECT_DOUBLE_EQ(slower.lower, 1020000.0 / 1000004 - 1);
  EXPECT_DOUBLE_EQ(slower.upper, 1020002.0 / 1000000 - 1);
  EXPECT_DOUBLE_EQ(slower.change, 1020001.0 / 1000002 - 1);
  ASSERT_EQ(slower.reasons.size(), 1u);
  EXPECT_THAT(slower.reasons[0], HasSubstr("instructions +2.000% (+2.000% to +2.000%) over 2 "
                                           "round(s)"));
  EXPECT_THAT(slower.reasons[0], HasSubstr("over the budget of +1.000%"));

  const CountVerdict same =
      judge_counts({1000000, 1000004}, {1000002, 1000000}, kOnePercent, 0.01, false);
  EXPECT_EQ(same.kind, VerdictKind::kPass);
  EXPECT_THAT(same.reasons[0], HasSubstr("within the budget of +1.000%"));
  // Fewer instructions are a pass too.
  EXPECT_EQ(judge_counts({1000, 1000}, {900, 900}, kOnePercent, 0.01, false).kind,
            VerdictKind::kPass);
}

TEST(CountVerdict, ABudgetWithinTheCountsOwnJitterIsInconclusive) {
  // Head 1.0% to 1.02% over: the interval holds the 1% budget; more rounds repeat it.
  const CountVerdict v = judge_counts({100000, 100010}, {101010, 101020}, kOnePercent, 0.01, false);
  EXPECT_TRUE(v.deterministic);
  EXPECT_EQ(v.kind, VerdictKind::kInconclusive);
  EXPECT_THAT(v.reasons[0], HasSubstr("lies within the counts' own jitter"));
}

TEST(CountVerdict, TheAbsolutePartRaisesTheBudgetOfASmallCount) {
  // +5% of 1000 is 50 instructions, under an absolute budget of 100.
  EXPECT_EQ(judge_counts({1000, 1000}, {1050, 1050}, Budget{0.01, 100}, 0.01, false).kind,
            VerdictKind::kPass);
}

TEST(CountVerdict, CountsThatVaryAreJudgedAsPairsUntilTheIntervalDecides) {
  // 2% spread within each side: not deterministic.
  const std::vector<double> base = {1000000, 1020000};
  const std::vector<double> head = {1010000, 1000000};
  const CountVerdict undecided = judge_counts(base, head, kOnePercent, 0.01, false);
  EXPECT_FALSE(undecided.deterministic);
  EXPECT_EQ(undecided.kind, VerdictKind::kNeedsConfirmation);
  EXPECT_THAT(undecided.reasons[0], HasSubstr("the program is not deterministic"));
  EXPECT_EQ(judge_counts(base, head, kOnePercent, 0.01, true).kind, VerdictKind::kInconclusive);

  // Thirty rounds of a head 30% over, +-1%: the interval lies above the budget.
  std::vector<double> b, h;
  for (int i = 0; i < 30; ++i) {
    b.push_back(1000000 * (1 + 0.01 * ((i % 3) - 1)));
    h.push_back(1300000 * (1 + 0.01 * (((i + 1) % 3) - 1)));
  }
  const CountVerdict slower = judge_counts(b, h, kOnePercent, 0.01, false);
  EXPECT_EQ(slower.kind, VerdictKind::kRegression);
  EXPECT_GT(slower.lower, 0.01);
  // And the same sides against each other: the interval lies below it.
  const CountVerdict same = judge_counts(b, b, kOnePercent, 0.01, false);
  EXPECT_EQ(same.kind, VerdictKind::kPass);
}

TEST(CountVerdict, ARunThatCountedNothingIsNotEvidence) {
  const CountVerdict v = judge_counts({0, 0}, {10, 10}, kOnePercent, 0.01, true);
  EXPECT_EQ(v.kind, VerdictKind::kInconclusive);
  EXPECT_THAT(v.reasons[0], HasSubstr("counted no instruction"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
