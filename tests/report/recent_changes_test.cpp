#include "report/recent_changes.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gate/normalized_fixtures.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

/// Run `night` of the gate tests' cohort, an hour after the one before.
NormalizedRecord nightly(int night, double latency) {
  NormalizedRecord r = v2_record({{"latency", latency}, {"memory", 40.0 + night % 2}});
  r.benchmark_id = "sort";
  r.record_id = fmt::format("rec-{}", night);
  r.timestamp = fmt::format("2026-11-{:02}T{:02}:00:00Z", 1 + night / 24, night % 24);
  r.commit_sha = fmt::format("{:02}{}", night, std::string(38, 'f'));
  return r;
}

/// Runs 1..count, an hour apart, stored (newest first): 20 ms until `step_night`, 22 ms from
/// it.
std::vector<StoredRecord> stored(int count, int step_night) {
  std::vector<StoredRecord> records;
  for (int night = count; night >= 1; --night) {
    const double base = night >= step_night ? 0.022 : 0.020;
    records.push_back({nightly(night, base * (night % 2 ? 1.002 : 0.998)), "att", true});
  }
  return records;
}

TEST(RecentChanges, ReportsAStepThatBeganAmongTheNewestRecords) {
  // 25 nights stored, the step at night 20; the new record is night 26.
  const NormalizedRecord next = nightly(26, 0.022 * 0.998);
  const auto changes = recent_changes(next, stored(25, 20), {});
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].metric, "latency");
  EXPECT_EQ(changes[0].records_ago, 6u);  // nights 20..26: night 20 is 6 records before 26
  EXPECT_EQ(changes[0].timestamp, "2026-11-01T20:00:00Z");
  EXPECT_TRUE(changes[0].worse);
  EXPECT_EQ(render_recent_changes(changes).substr(0, 92),
            "sort latency: a change 6 records ago (2026-11-01T20:00:00Z, commit 20ffffffffff): "
            "20 ms → ");
}

TEST(RecentChanges, LeavesOutAnOldStepAStoredCopyOfTheRecordAndAQuietSeries) {
  // The step 16 records before the new one: history, not news.
  EXPECT_TRUE(recent_changes(nightly(41, 0.022), stored(40, 25), {}).empty());
  // The record already stored (compare run twice): it counts once, so nothing changes.
  const NormalizedRecord again = nightly(25, 0.022 * 1.002);
  EXPECT_EQ(recent_changes(again, stored(25, 20), {}).size(), 1u);
  EXPECT_EQ(recent_changes(again, stored(25, 20), {})[0].records_ago, 5u);
  // No step at all.
  EXPECT_TRUE(recent_changes(nightly(26, 0.020), stored(25, 100), {}).empty());
  EXPECT_EQ(render_recent_changes({}), "");
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
