// Two processes appending to one store at the same time lose nothing.
#include <gtest/gtest.h>

#include "store/store.hpp"
#include "store/store_backends.hpp"
#include "store/writer_process.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace {

constexpr long long kAttemptsPerWriter = 100;  // of 20 records: 2,000 records each

class StoreConcurrency : public ::testing::TestWithParam<StoreBackend> {};

TEST_P(StoreConcurrency, KeepsEveryRecordOfTwoWritersAppendingAtOnce) {
  const TempDir dir;
  const std::string url = GetParam().url(dir.path());
  // Both start on a store that does not exist yet, so creating it races too.
  WriterProcess first(url, kAttemptsPerWriter);
  WriterProcess second(url, kAttemptsPerWriter);
  EXPECT_EQ(first.wait_for_exit(), 0) << first.output();
  EXPECT_EQ(second.wait_for_exit(), 0) << second.output();

  auto store = open_store(url);
  EXPECT_EQ(store->list_attempts().size(), 200u);
  EXPECT_EQ(store->list_records({}).size(), 4000u);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, StoreConcurrency, ::testing::ValuesIn(all_store_backends()),
                         backend_name);

}  // namespace
}  // namespace perfgate
