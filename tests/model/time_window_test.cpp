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

std::string refusal(const std::string& text) {
  try {
    since_to_timestamp(text, kNow, "--since");
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kUsage);
    return error.what();
  }
  return "accepted";
}

TEST(TimeWindow, RefusesADateOrTimeTheCalendarDoesNotHave) {
  EXPECT_EQ(refusal("2026-13-45"),
            "--since: '2026-13-45' is not a day of the calendar. Give a real date, such as "
            "2026-11-01");
  EXPECT_EQ(refusal("2026-02-29").substr(0, 45), "--since: '2026-02-29' is not a day of the cal");
  EXPECT_EQ(refusal("2026-04-31T00:00:00Z").substr(0, 30), "--since: '2026-04-31T00:00:00Z");
  EXPECT_EQ(refusal("2026-11-01T24:00:00Z"),
            "--since: '2026-11-01T24:00:00Z' is not a time of day. Hours go from 00 to 23, "
            "minutes and seconds from 00 to 59");
  EXPECT_EQ(refusal("2026-00-10").substr(0, 40), "--since: '2026-00-10' is not a day of th");
  EXPECT_EQ(since_to_timestamp("2028-02-29", kNow), "2028-02-29T00:00:00Z");  // a leap year
  EXPECT_EQ(since_to_timestamp("2000-02-29", kNow), "2000-02-29T00:00:00Z");
}

TEST(TimeWindow, ShowsControlCharactersOfARefusedWindowVisibly) {
  const std::string message = refusal(std::string("x\0y\x1b[31m", 8));
  EXPECT_EQ(message.substr(0, 30), "--since: 'x\\x00y\\x1b[31m' is n");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
