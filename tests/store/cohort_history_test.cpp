#include "store/cohort_history.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store/store_fixtures.hpp"
#include "support/memory_store.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::ElementsAre;

std::vector<double> latencies(const std::vector<NormalizedRecord>& records) {
  std::vector<double> values;
  for (const auto& r : records) values.push_back(r.metrics.at("latency").value);
  return values;
}

NormalizedRecord measured(const std::string& timestamp, double latency, const std::string& raw) {
  NormalizedRecord r = test_record("sieve", timestamp, latency);
  r.raw_record_sha256 = raw;
  return r;
}

/// Five measurements on 1–5 January with latencies 1–5.
std::vector<NormalizedRecord> five_days() {
  std::vector<NormalizedRecord> records;
  for (int i = 0; i < 5; ++i) {
    records.push_back(measured("2026-01-0" + std::to_string(i + 1) + "T00:00:00Z", 1.0 + i,
                               "raw-" + std::to_string(i)));
  }
  return records;
}

TEST(CohortHistory, ABatchIsNeverPartOfItsOwnBaseline) {
  MemoryStore store;
  std::vector<NormalizedRecord> stored = five_days();
  // The batch under judgement was uploaded once already (compare --upload pass).
  const NormalizedRecord batch = measured("2026-01-09T00:00:00Z", 9.0, "raw-batch");
  stored.push_back(batch);
  store.append(test_attempt("2026-01-10T00:00:00Z", stored));

  const CohortHistories histories = fetch_cohort_histories(store, {batch}, {"scheduled_main"});
  ASSERT_EQ(histories.size(), 1u);
  EXPECT_THAT(latencies(histories.at(test_cohort()).baseline), ElementsAre(5, 4, 3, 2, 1));
}

TEST(CohortHistory, AskedForAHistoryKeepsTheNewestRecordsAndTheBaselineAmongThem) {
  MemoryStore store;
  std::vector<NormalizedRecord> stored;
  for (int day = 1; day <= 9; ++day) {
    stored.push_back(measured("2026-01-0" + std::to_string(day) + "T00:00:00Z", day,
                              "raw-" + std::to_string(day)));
  }
  store.append(test_attempt("2026-01-10T00:00:00Z", stored));
  const NormalizedRecord batch = measured("2026-01-10T00:00:00Z", 10.0, "raw-batch");

  const CohortHistory asked =
      fetch_cohort_histories(store, {batch}, {"scheduled_main"}, 7).at(test_cohort());
  EXPECT_THAT(latencies(asked.history), ElementsAre(9, 8, 7, 6, 5, 4, 3));
  EXPECT_THAT(latencies(asked.baseline), ElementsAre(9, 8, 7, 6, 5));
  const CohortHistory plain =
      fetch_cohort_histories(store, {batch}, {"scheduled_main"}).at(test_cohort());
  EXPECT_TRUE(plain.history.empty());
  EXPECT_THAT(latencies(plain.baseline), ElementsAre(9, 8, 7, 6, 5));
}

TEST(CohortHistory, RecordsWithNoMeasuredMetricTakeNoBaselineSlot) {
  MemoryStore store;
  std::vector<NormalizedRecord> stored = five_days();
  NormalizedRecord empty = measured("2026-01-08T00:00:00Z", 0, "raw-empty");
  empty.metrics.clear();
  stored.push_back(empty);
  store.append(test_attempt("2026-01-10T00:00:00Z", stored));

  const NormalizedRecord batch = measured("2026-01-09T00:00:00Z", 9.0, "raw-batch");
  const CohortHistories histories = fetch_cohort_histories(store, {batch}, {"scheduled_main"});
  EXPECT_THAT(latencies(histories.at(test_cohort()).baseline), ElementsAre(5, 4, 3, 2, 1));
}

TEST(CohortHistory, TheBaselineIsTheNewestFiveInstants) {
  MemoryStore store;
  std::vector<NormalizedRecord> stored;
  // Newest by instant: 13:00Z (written +09:00 as 22:00) is older than 14:00Z.
  stored.push_back(measured("2026-05-08T22:00:00+09:00", 1, "raw-1"));
  for (int i = 0; i < 5; ++i)
    stored.push_back(measured("2026-05-08T14:0" + std::to_string(i) + ":00Z", 10 + i,
                              "raw-late-" + std::to_string(i)));
  store.append(test_attempt("2026-05-09T00:00:00Z", stored));
  const NormalizedRecord batch = measured("2026-05-09T00:00:00Z", 9.0, "raw-batch");
  const CohortHistories histories = fetch_cohort_histories(store, {batch}, {"scheduled_main"});
  EXPECT_THAT(latencies(histories.at(test_cohort()).baseline), ElementsAre(14, 13, 12, 11, 10));
}

TEST(CohortHistory, ListsOtherTrustedRecipesOnlyForACohortWithoutBaseline) {
  MemoryStore store;
  NormalizedRecord other = measured("2026-01-01T00:00:00Z", 1, "raw-other");
  other.recipe_fingerprint = "recipe-2";
  store.append(test_attempt("2026-01-02T00:00:00Z", {other}));
  const NormalizedRecord batch = measured("2026-01-03T00:00:00Z", 1, "raw-batch");
  const CohortHistories histories = fetch_cohort_histories(store, {batch}, {"scheduled_main"});
  EXPECT_TRUE(histories.at(test_cohort()).baseline.empty());
  EXPECT_THAT(histories.at(test_cohort()).other_trusted_recipes, ElementsAre("recipe-2"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
