#include "report/history_freshness.hpp"

#include <gtest/gtest.h>

#include "model/error.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

constexpr std::int64_t kDayUs = 86'400'000'000;

TEST(HistoryFreshness, TheNewestAttemptIsTheNewestInstantNotTheLastText) {
  const HistoryProvenance provenance = history_provenance(
      R"({"source_sha":"abcdef0123","attempts":[{"started_at":"2026-12-01T10:00:00Z"},
      {"started_at":"2026-12-01T11:30:00+02:00"},{"started_at":"not a time"},{"id":"x"}]})");
  EXPECT_EQ(provenance.source_sha, "abcdef0123");
  EXPECT_EQ(provenance.newest_started_at, "2026-12-01T10:00:00Z");
}

TEST(HistoryFreshness, WarnsOnlyPastTheDaysGiven) {
  const HistoryProvenance provenance =
      history_provenance(R"({"attempts":[{"started_at":"1970-01-11T00:00:00Z"}]})");
  EXPECT_FALSE(staleness_warning(provenance, 3, 13 * kDayUs, "h.json"));
  EXPECT_EQ(staleness_warning(provenance, 3, 14 * kDayUs + 1, "h.json"),
            "h.json: its newest attempt started 1970-01-11T00:00:00Z, 4 days ago (more than "
            "--stale-after 3): the history has stopped growing. Check that the measuring job "
            "still runs and publishes.");
  EXPECT_EQ(staleness_warning(history_provenance(R"({"attempts":[]})"), 3, 0, "h.json"),
            "h.json: holds no attempt with a start time: nothing has been measured yet.");
}

TEST(HistoryFreshness, TheSourceMustBeTheCheckoutsOwn) {
  const HistoryProvenance provenance =
      history_provenance(R"({"source_sha":"3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f"})");
  EXPECT_NO_THROW(check_history_source(provenance, "3C4D5E6", "h.json"));
  EXPECT_NO_THROW(
      check_history_source(provenance, "3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f", "h.json"));
  try {
    check_history_source(provenance, "3c4d5e7", "h.json");
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
  }
  try {
    check_history_source(history_provenance("{}"), "3c4d5e6", "h.json");
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kDataError);
    EXPECT_NE(std::string(error.what()).find("an unknown source (no source_sha)"),
              std::string::npos);
  }
  try {
    check_history_source(provenance, "3c4d5", "h.json");
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::kUsage);
  }
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
