// A writer killed with SIGKILL at a random moment, again and again on the same store,
// must never leave half an attempt or a damaged database behind.
#include <chrono>
#include <random>
#include <thread>

#include <gtest/gtest.h>

#include "store/sqlite_connection.hpp"
#include "store/store.hpp"
#include "store/store_backends.hpp"
#include "store/store_fixtures.hpp"
#include "store/writer_process.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

constexpr int kKills = 50;
constexpr std::size_t kRecordsPerAttempt = 20;  // what perfgate_store_writer appends

class StoreCrash : public ::testing::TestWithParam<StoreBackend> {};

TEST_P(StoreCrash, KeepsEveryStoredAttemptWholeWhenItsWriterIsKilledAtRandomMoments) {
  const TempDir dir;
  const std::string url = GetParam().url(dir.path());
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("random seed " + std::to_string(seed));
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> delay_us(0, 30'000);

  for (int i = 0; i < kKills; ++i) {
    WriterProcess writer(url, 0);
    ASSERT_TRUE(writer.wait_until_ready()) << "kill " << i << ": " << writer.output();
    std::this_thread::sleep_for(std::chrono::microseconds(delay_us(random)));
    writer.kill_now();
  }

  auto store = open_store(url);
  const auto attempts = store->list_attempts();
  // Each writer had stored its first attempt before it said "ready".
  EXPECT_GE(attempts.size(), static_cast<std::size_t>(kKills));
  for (const auto& attempt : attempts) {
    EXPECT_EQ(attempt.record_count, kRecordsPerAttempt) << attempt.attempt_id;
  }
  EXPECT_EQ(store->list_records({}).size(), attempts.size() * kRecordsPerAttempt);
  if (GetParam().sqlite) {
    SqliteConnection db(url.substr(std::string("sqlite:").size()));
    SqliteStatement check = db.prepare("PRAGMA integrity_check");
    ASSERT_TRUE(check.step());
    EXPECT_EQ(check.text(0), "ok");
  }
  // Nothing a killed writer held (locks, half-written files) blocks the next one.
  EXPECT_EQ(store->append(test_attempt("2026-02-01T00:00:00Z",
                                       {test_record("after", "2026-02-01T00:00:00Z")})),
            AppendOutcome::kAppended);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, StoreCrash, ::testing::ValuesIn(all_store_backends()),
                         backend_name);

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
