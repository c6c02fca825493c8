// Two processes appending to one store at the same time lose nothing.
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "store/store.hpp"
#include "store/store_backends.hpp"
#include "store/writer_process.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

constexpr int kWriters = 8;
constexpr long long kAttemptsPerWriter = 25;  // of 20 records: 500 records each

class StoreConcurrency : public ::testing::TestWithParam<StoreBackend> {};

TEST_P(StoreConcurrency, KeepsEveryRecordOfEightWritersAppendingAtOnce) {
  const TempDir dir;
  const std::string url = GetParam().url(dir.path());
  // All start on a store that does not exist yet, so creating it races too.
  std::vector<std::unique_ptr<WriterProcess>> writers;
  for (int i = 0; i < kWriters; ++i) {
    writers.push_back(std::make_unique<WriterProcess>(url, kAttemptsPerWriter));
  }
  for (auto& writer : writers) EXPECT_EQ(writer->wait_for_exit(), 0) << writer->output();

  auto store = open_store(url);
  EXPECT_EQ(store->list_attempts().size(), 200u);
  EXPECT_EQ(store->list_records({}).size(), 4000u);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, StoreConcurrency, ::testing::ValuesIn(all_store_backends()),
                         backend_name);

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
