#include "profile/key_averages.hpp"

#include <gtest/gtest.h>

namespace perfgate::profile {
namespace PERFGATE_TEST_FILE {

TEST(KeyAverages, KeepsTheTwentyLargestRowsPerViewAndBreaksTiesById) {
  ProbeRun run;
  // 25 regions r00..r24: self time grows with the index, inclusive time falls with it,
  // and r00/r01 tie on both.
  for (int i = 0; i < 25; ++i) {
    const std::string id = (i < 10 ? "r0" : "r") + std::to_string(i);
    const double self = i < 2 ? 1.0 : i;
    const double total = i < 2 ? 100.0 : 100.0 - i;
    run.regions.push_back({id, 1, total, self, 0});
  }
  const KeyAverages averages = compute_key_averages({run, run}, {});
  ASSERT_EQ(averages.self_time.size(), kKeyAverageRows);
  ASSERT_EQ(averages.total_time.size(), kKeyAverageRows);
  EXPECT_EQ(averages.self_time.front().region_id, "r24");
  EXPECT_EQ(averages.self_time.front().self_wall_time_us, 48.0);
  EXPECT_EQ(averages.self_time.front().calls, 2);
  EXPECT_EQ(averages.self_time.front().runs, 2);
  EXPECT_EQ(averages.self_time.back().region_id, "r05");
  EXPECT_EQ(averages.total_time[0].region_id, "r00");
  EXPECT_EQ(averages.total_time[1].region_id, "r01");
  EXPECT_EQ(averages.total_time.back().region_id, "r19");
}

TEST(KeyAverages, CountsOnlyTheRunsThatSawARegion) {
  ProbeRun first;
  first.regions = {{"a", 2, 10.0, 4.0, 0.1}, {"b", 1, 5.0, 5.0, 0.05}};
  ProbeRun second;
  second.regions = {{"a", 3, 20.0, 6.0, 0.2}};
  const KeyAverages averages = compute_key_averages({first, second}, {});
  ASSERT_EQ(averages.total_time.size(), 2u);
  EXPECT_EQ(averages.total_time[0].region_id, "a");
  EXPECT_EQ(averages.total_time[0].calls, 5);
  EXPECT_EQ(averages.total_time[0].wall_time_us, 30.0);
  EXPECT_EQ(averages.total_time[0].self_wall_time_us, 10.0);
  EXPECT_EQ(averages.total_time[0].runs, 2);
  EXPECT_EQ(averages.total_time[1].runs, 1);
}

TEST(KeyAverages, LeavesWarmupsOutAndCountsTimeOnOtherThreads) {
  ProbeRun warmup;
  warmup.warmup = true;
  warmup.regions = {{"a", 9, 900.0, 900.0, 0.9}};
  ProbeRun measured;
  measured.regions = {{"a", 1, 10.0, 4.0, 0.1}};
  measured.dispatched = {{3, {"a/task", 2, 6.0, 6.0, 0.06}}};
  const KeyAverages averages = compute_key_averages({warmup, measured}, {});
  ASSERT_EQ(averages.total_time.size(), 2u);
  EXPECT_EQ(averages.total_time[0].region_id, "a");
  EXPECT_EQ(averages.total_time[0].calls, 1);
  EXPECT_EQ(averages.total_time[0].runs, 1);
  EXPECT_EQ(averages.total_time[1].region_id, "a/task");
  EXPECT_EQ(averages.total_time[1].calls, 2);
}

TEST(KeyAverages, AddsUpEveryIdOfANameInTheByNameView) {
  ProbeRun first;
  first.regions = {{"image", 1, 10.0, 4.0, 0},
                   {"image/decode", 2, 6.0, 6.0, 0},
                   {"audio", 1, 5.0, 2.0, 0},
                   {"audio/decode", 1, 3.0, 3.0, 0}};
  ProbeRun second;
  second.regions = {{"audio", 1, 5.0, 2.0, 0}, {"audio/decode", 1, 3.0, 3.0, 0}};
  const std::vector<RegionInfo> regions = {{"audio", "audio", std::nullopt, 0, "", 0, ""},
                                           {"audio/decode", "decode", "audio", 1, "", 0, ""},
                                           {"image", "image", std::nullopt, 0, "", 0, ""},
                                           {"image/decode", "decode", "image", 1, "", 0, ""}};
  const KeyAverages averages = compute_key_averages({first, second}, regions);
  ASSERT_EQ(averages.by_name.size(), 3u);
  EXPECT_EQ(averages.by_name[0].name, "decode");
  EXPECT_EQ(averages.by_name[0].calls, 4);
  EXPECT_EQ(averages.by_name[0].self_wall_time_us, 12.0);
  EXPECT_EQ(averages.by_name[0].wall_time_us, 12.0);
  EXPECT_EQ(averages.by_name[0].runs, 2);  // a run counts once for both of its ids
  EXPECT_EQ(averages.by_name[0].ids, 2);
  EXPECT_EQ(averages.by_name[1].name, "audio");  // 4 µs of self time, before image's 4: ties
  EXPECT_EQ(averages.by_name[2].name, "image");  // go in name order
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::profile
