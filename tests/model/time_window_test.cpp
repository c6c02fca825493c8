#include "model/time_window.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

constexpr std::time_t kNow = 1'796'038'624;  // 2026-11-30T11:37:04Z

TEST(TimeWindow, CountsDurationsBackFromNow) {
  EXPECT_EQ(iso_utc(kNow), "2026-11-30T11:37:04Z");
  EXPECT_EQ(file_stamp_utc(kNow), "20261130T113704Z");
  EXPECT_EQ(since_to_timestamp("30d", kNow), "2026-10-31T11:37:04Z");
  EXPECT_EQ(since_to_timestamp("12h", kNow), "2026-11-29T23:37:04Z");
  EXPECT_EQ(since_to_timestamp("90m", kNow), "2026-11-30T10:07:04Z");
  EXPECT_EQ(since_to_timestamp("2w", kNow), "2026-11-16T11:37:04Z");
}

TEST(TimeWindow, AcceptsDatesAndInstants) {
  EXPECT_EQ(since_to_timestamp("2026-11-01", kNow), "2026-11-01T00:00:00Z");
  EXPECT_EQ(since_to_timestamp("2026-11-01T08:00:00Z", kNow), "2026-11-01T08:00:00Z");
}

TEST(TimeWindow, RejectsAnythingElseAsAUsageErrorNamingTheFlag) {
  try {
    since_to_timestamp("yesterday", kNow, "--since");
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kUsage);
    EXPECT_EQ(std::string(error.what()).rfind("--since: 'yesterday' is not a time window.", 0), 0u);
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
