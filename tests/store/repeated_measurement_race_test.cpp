// Writers that store one measurement at the same moment store it once (issue 33, 6): the
// check before the append cannot see a writer that appends in between, so the append's
// transaction decides, on every backend.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <barrier>
#include <set>
#include <thread>

#include "cli/judged_records.hpp"
#include "store/store.hpp"
#include "store/store_backends.hpp"
#include "store/store_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

constexpr int kRounds = 100;
constexpr int kWritersPerRound = 3;
constexpr int kRecordsPerRound = 4;

/// Round `round`'s records as writer `writer` converts them: the same raw digests for every
/// writer, but its own timestamp (an import in another second), so its own record ids.
std::vector<NormalizedRecord> round_records(int round, int writer) {
  std::vector<NormalizedRecord> records;
  for (int k = 0; k < kRecordsPerRound; ++k) {
    NormalizedRecord r = test_record("bench-" + std::to_string(k),
                                     "2026-01-01T00:00:0" + std::to_string(writer) + "Z");
    r.raw_record_sha256 = "round-" + std::to_string(round) + "-state-" + std::to_string(k);
    records.push_back(std::move(r));
  }
  return records;
}

class RepeatedMeasurementRace : public ::testing::TestWithParam<StoreBackend> {};

TEST_P(RepeatedMeasurementRace, StoresEachMeasurementOnceWhenWritersRaceAHundredTimes) {
  const TempDir dir;
  const std::string url = GetParam().url(dir.path());
  open_store(url);  // created before the writers start
  std::barrier start(kWritersPerRound);
  std::vector<std::string> failures(kWritersPerRound);
  std::vector<std::thread> writers;
  for (int writer = 0; writer < kWritersPerRound; ++writer) {
    writers.emplace_back([&, writer] {
      try {
        const auto store = open_store(url);
        for (int round = 0; round < kRounds; ++round) {
          std::vector<NormalizedRecord> records = round_records(round, writer);
          start.arrive_and_wait();
          store_judged_records(*store, records, std::vector<bool>(records.size(), true),
                               {UploadPolicy::kAlways, "always"},
                               "2026-01-01T00:00:0" + std::to_string(writer) + "Z");
        }
      } catch (const std::exception& e) {
        failures[static_cast<std::size_t>(writer)] = e.what();
        start.arrive_and_drop();
      }
    });
  }
  for (auto& writer : writers) writer.join();
  for (const auto& failure : failures) EXPECT_EQ(failure, "");

  const auto records = open_store(url)->list_records({});
  std::multiset<std::string> digests;
  for (const auto& stored : records) digests.insert(stored.record.raw_record_sha256);
  EXPECT_EQ(records.size(), static_cast<std::size_t>(kRounds * kRecordsPerRound));
  EXPECT_EQ(std::set<std::string>(digests.begin(), digests.end()).size(), records.size());
}

INSTANTIATE_TEST_SUITE_P(AllBackends, RepeatedMeasurementRace,
                         ::testing::ValuesIn(all_store_backends()), backend_name);

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
