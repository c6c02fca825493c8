// When perfgate-spawner keeps a new run on its own CPU (src/spawner/keep_rule.h): only after
// 2 of the last 4 starts the kernel's way waited, for stretches that double while such starts
// keep waiting.
#include <gtest/gtest.h>

#include <cstdint>

#include "spawner/keep_rule.h"

namespace perfgate {

namespace PERFGATE_TEST_FILE {

constexpr std::int64_t kQuickStartNs = 100'000;     // 0.1 ms: an idle machine
constexpr std::int64_t kWaitedStartNs = 3'000'000;  // 3 ms: behind a busy program's slice

// Runs the kept runs of the current stretch (each a start that waited, which a kept run's
// start does not learn from); how many there were.
int keep_through_stretch(perfgate_keep_rule& rule) {
  int kept = 0;
  while (perfgate_keep_next(&rule) != 0 && kept <= 4096) {
    perfgate_keep_learn(&rule, kWaitedStartNs, 1);
    ++kept;
  }
  return kept;
}

TEST(SpawnerKeepRule, StartsTheKernelsWayAndStaysSoWhileStartsDoNotWait) {
  perfgate_keep_rule rule = perfgate_keep_rule_start();
  for (int run = 0; run < 100; ++run) {
    EXPECT_EQ(perfgate_keep_next(&rule), 0);
    perfgate_keep_learn(&rule, kQuickStartNs, 0);
  }
  EXPECT_EQ(perfgate_keep_next(&rule), 0);
}

TEST(SpawnerKeepRule, OneStartInAWhileThatWaitsKeepsNothing) {
  perfgate_keep_rule rule = perfgate_keep_rule_start();
  for (int run = 0; run < 400; ++run) {
    perfgate_keep_learn(&rule, run % 4 == 0 ? kWaitedStartNs : kQuickStartNs, 0);
    EXPECT_EQ(perfgate_keep_next(&rule), 0) << "after start " << run;
  }
}

TEST(SpawnerKeepRule, KeepsOnceTwoOfTheLastFourStartsWaited) {
  perfgate_keep_rule rule = perfgate_keep_rule_start();
  perfgate_keep_learn(&rule, kWaitedStartNs, 0);
  perfgate_keep_learn(&rule, kQuickStartNs, 0);
  perfgate_keep_learn(&rule, kQuickStartNs, 0);
  EXPECT_EQ(perfgate_keep_next(&rule), 0);
  perfgate_keep_learn(&rule, kWaitedStartNs, 0);  // waited: 1, 0, 0, 1
  EXPECT_EQ(keep_through_stretch(rule), 16);
}

TEST(SpawnerKeepRule, AStartOfExactlyTheLimitHasNotWaited) {
  perfgate_keep_rule rule = perfgate_keep_rule_start();
  perfgate_keep_learn(&rule, PERFGATE_START_WAITED_NS + 1, 0);
  perfgate_keep_learn(&rule, PERFGATE_START_WAITED_NS, 0);
  EXPECT_EQ(perfgate_keep_next(&rule), 0);
  perfgate_keep_learn(&rule, PERFGATE_START_WAITED_NS + 1, 0);
  EXPECT_EQ(perfgate_keep_next(&rule), 1);
}

TEST(SpawnerKeepRule, KeepsTwiceAsManyRunsAfterEachStartThatWaitsUpTo1024) {
  perfgate_keep_rule rule = perfgate_keep_rule_start();
  perfgate_keep_learn(&rule, kWaitedStartNs, 0);
  for (const int stretch : {16, 32, 64, 128, 256, 512, 1024, 1024, 1024}) {
    perfgate_keep_learn(&rule, kWaitedStartNs, 0);
    EXPECT_EQ(keep_through_stretch(rule), stretch);
  }
}

TEST(SpawnerKeepRule, AStartThatDoesNotWaitSetsTheStretchBackTo16) {
  perfgate_keep_rule rule = perfgate_keep_rule_start();
  perfgate_keep_learn(&rule, kWaitedStartNs, 0);
  for (int waited = 0; waited < 4; ++waited) {
    perfgate_keep_learn(&rule, kWaitedStartNs, 0);
    keep_through_stretch(rule);
  }
  perfgate_keep_learn(&rule, kQuickStartNs, 0);
  EXPECT_EQ(perfgate_keep_next(&rule), 0);
  perfgate_keep_learn(&rule, kWaitedStartNs, 0);  // waited: 1, 1, 0, 1
  EXPECT_EQ(keep_through_stretch(rule), 16);
}

TEST(SpawnerKeepRule, HowLongAKeptRunsStartTookChangesNothingButTheCount) {
  perfgate_keep_rule rule = perfgate_keep_rule_start();
  perfgate_keep_learn(&rule, kWaitedStartNs, 0);
  perfgate_keep_learn(&rule, kWaitedStartNs, 0);
  for (int run = 0; run < 8; ++run) perfgate_keep_learn(&rule, kQuickStartNs, 1);
  EXPECT_EQ(rule.runs_to_keep, 8u);
  EXPECT_EQ(rule.stretch, 32u);
  EXPECT_EQ(rule.recent, 3u);
  EXPECT_EQ(keep_through_stretch(rule), 8);
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
