#include "count/region_counts.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;

/// A process whose dumps are `marks` ("" for a dump of the program's own), the k-th
/// holding costs[k] instructions, then the dump at exit.
CallgrindProfile dumps(const std::vector<std::pair<std::string, std::uint64_t>>& marks) {
  CallgrindProfile profile;
  profile.events = {"Ir"};
  for (const auto& [mark, cost] : marks) {
    profile.parts.push_back(CallgrindPart{
        mark.empty() ? "Client Request: my own dump" : "Client Request: perfgate-probe " + mark,
        {{"Ir", cost}}});
  }
  profile.parts.push_back(CallgrindPart{"Program termination", {{"Ir", 7}}});
  return profile;
}

TEST(RegionCounts, CountsMeasuredRunsOnlyByTheWarmupsTheProbeSet) {
  // Two warmups set: runs 1 and 2 are left out, run 3 is measured, run 4 never ended.
  const auto counts = region_counts(dumps({
      {"R 0 1 2", 1},
      {"E 0 0 1 0 step", 1},
      {"X 0 step", 1000},
      {"r 0 1", 1},
      {"R 0 2 2", 1},
      {"E 0 0 2 0 step", 1},
      {"X 0 step", 1000},
      {"r 0 2", 1},
      {"R 0 3 2", 1},
      {"E 0 0 3 0 step", 1},
      {"X 0 step", 40},
      {"r 0 3", 1},
      {"R 0 4 2", 1},
      {"E 0 0 4 0 step", 1},
      {"X 0 step", 1000},
  }));
  EXPECT_EQ(counts.measured_runs, 1u);
  EXPECT_EQ(counts.regions, (std::vector<RegionCount>{{"step", 0, 40}}));
  EXPECT_TRUE(counts.warnings.empty());
}

TEST(RegionCounts, LeavesOutCallsOutsideRunsAndCountsTheOuterCallOfOutOfOrderEnds) {
  const auto counts = region_counts(dumps({
      {"E 0 0 0 0 setup", 1},
      {"X 0 setup", 500},  // outside any run
      {"R 0 1 0", 1},
      {"E 0 0 1 0 outer", 1},
      {"E 0 0 1 1 outer/inner", 10},
      {"", 20},                // the program's own dump: its instructions only
      {"X 0 outer", 30},       // inner still open: ended out of order, not counted
      {"X 0 outer/inner", 4},  // no longer open: ignored
      {"nonsense 1 2", 5},
      {"E x 0 1 0 bad", 5},
      {"X", 5},  // marks that do not parse
      {"r 0 1", 1},
  }));
  EXPECT_EQ(counts.measured_runs, 1u);
  EXPECT_EQ(counts.regions, (std::vector<RegionCount>{{"outer", 0, 10 + 20 + 30}}));
}

TEST(RegionCounts, CountsWorkAnotherThreadDidForARunInThatRun) {
  // Thread 1 works for run 1 of thread 0 (an AttachedRun): its region counts there.
  const auto counts = region_counts(dumps({
      {"R 0 1 0", 1},
      {"E 0 0 1 0 frame", 1},
      {"E 1 0 1 1 frame/task", 2},
      {"X 1 frame/task", 300},
      {"X 0 frame", 5},
      {"r 0 1", 1},
  }));
  EXPECT_EQ(counts.regions, (std::vector<RegionCount>{{"frame", 0, 307}, {"frame/task", 1, 300}}));
}

TEST(RegionCounts, AveragesOverTheMeasuredRunsOfEveryThreadWithTheImplicitWarmup) {
  // No warmups set: a thread's first run is its warmup when more follow, so thread 0's run
  // 1 is left out and thread 1's only run is measured.
  const auto counts = region_counts(dumps({
      {"R 0 1 -", 1},
      {"E 0 0 1 0 a", 1},
      {"X 0 a", 999},
      {"r 0 1", 1},
      {"R 0 2 -", 1},
      {"E 0 0 2 0 a", 1},
      {"X 0 a", 100},
      {"r 0 2", 1},
      {"R 1 1 -", 1},
      {"E 1 1 1 0 a", 1},
      {"X 1 a", 200},
      {"r 1 1", 1},
  }));
  EXPECT_EQ(counts.measured_runs, 2u);
  EXPECT_EQ(counts.regions, (std::vector<RegionCount>{{"a", 0, 150}}));
}

TEST(RegionCounts, GivesNothingWithoutMeasuredRunsAndSaysWhenTheMarksWereCapped) {
  EXPECT_TRUE(region_counts(dumps({{"E 0 0 0 0 a", 1}, {"X 0 a", 9}})).regions.empty());
  const auto capped = region_counts(dumps({
      {"R 0 1 0", 1},
      {"E 0 0 1 0 a", 1},
      {"X 0 a", 9},
      {"r 0 1", 1},
      {"R 0 2 0", 1},
      {"E 0 0 2 0 a", 1},
      {"capped 50000", 1},
  }));
  EXPECT_EQ(capped.regions, (std::vector<RegionCount>{{"a", 0, 9}}));
  ASSERT_EQ(capped.warnings.size(), 1u);
  EXPECT_THAT(capped.warnings[0],
              HasSubstr("REGION_COUNTS_CAPPED: the probe stopped marking region boundaries for "
                        "callgrind after 50000 marks"));
  EXPECT_THAT(capped.warnings[0], HasSubstr("of the 1 measured run(s) that ended before"));
}

TEST(RegionCounts, AddsTheProcessesOfARun) {
  const RegionCounts parent{{{"a", 0, 10}, {"b", 0, 5}}, 2, {}};
  const RegionCounts child{{{"a", 0, 3}}, 1, {"w"}};
  const RegionCounts sum = add_region_counts({parent, child});
  EXPECT_EQ(sum.regions, (std::vector<RegionCount>{{"a", 0, 13}, {"b", 0, 5}}));
  EXPECT_EQ(sum.measured_runs, 3u);
  EXPECT_EQ(sum.warnings, std::vector<std::string>{"w"});
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
