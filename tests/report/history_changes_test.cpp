#include "report/history_changes.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/error.hpp"
#include "model/json.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;

std::string sha(int n) {
  return fmt::format("{:02x}{}", n, std::string(38, 'a'));
}

/// A history of 14 commits, each measured: latency 10 ms for 7, then 12 ms; and a memory
/// series of 3 points on the last commits.
Json history() {
  Json commits = Json::array();
  Json attempts = Json::array();
  Json commit_column = Json::array();
  Json median = Json::array();
  Json attempt_column = Json::array();
  for (int i = 0; i < 14; ++i) {
    commits.push_back({{"sha", sha(i)}, {"time", 1767225600 + i * 3600}, {"status", "measured"}});
    attempts.push_back({{"id", sha(i) + "-ci-1"}});
    commit_column.push_back(i);
    median.push_back((i >= 7 ? 12.0 : 10.0) * (i % 2 ? 1.01 : 0.99));
    attempt_column.push_back(i);
  }
  commits[3]["time"] = nullptr;  // a commit the export could not read
  Json latency = {
      {"id", "s-0123456789abcdef"},
      {"case", "sort[n=1000]"},
      {"metric", "latency"},
      {"unit", "ms"},
      {"label", "stable"},
      {"threads", 1},
      {"environment", {{"id", "bench-01"}, {"cpu", "Xeon"}}},
      {"points", {{"commit", commit_column}, {"median", median}, {"attempt", attempt_column}}}};
  Json memory = {
      {"id", "s-fedcba9876543210"},
      {"case", "sort[n=1000]"},
      {"metric", "memory"},
      {"unit", "B"},
      {"label", "diagnostic"},
      {"threads", 4},
      {"environment", {{"id", "bench-01"}, {"cpu", "Xeon"}}},
      {"points", {{"commit", {11, 12, 13}}, {"median", {5, 5, 5}}, {"attempt", {11, 12, 13}}}}};
  return {{"kind", "perfgate-history"},
          {"schema_version", 1},
          {"commits", commits},
          {"attempts", attempts},
          {"series", {latency, memory}}};
}

std::string error_of(const Json& document) {
  try {
    analyse_history_changes(document.dump(), "history.json", "", {});
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kDataError);
    return e.what();
  }
  return "no error";
}

TEST(HistoryChanges, FindsTheStepOfASeriesAtItsCommit) {
  const auto series = analyse_history_changes(history().dump(), "history.json", "", {});
  ASSERT_EQ(series.size(), 2u);
  const ChangeSeries& latency = series[0];
  EXPECT_EQ(latency.cohort, "s-0123456789abcdef");
  EXPECT_EQ(latency.label, "sort[n=1000] (stable, 1 thread, on bench-01)");
  EXPECT_EQ(latency.direction, Direction::kLowerIsBetter);
  ASSERT_EQ(latency.changes.size(), 1u);
  const SeriesPoint& at = latency.points[latency.changes[0].index];
  EXPECT_EQ(at.commit, sha(7));
  EXPECT_EQ(at.timestamp, "2026-01-01T07:00:00Z");
  EXPECT_EQ(at.record_id, sha(7) + "-ci-1");
  EXPECT_EQ(latency.points[3].timestamp, "");  // the commit's time is unknown
  EXPECT_NEAR(latency.changes[0].relative_change(), 0.2, 0.005);
  EXPECT_EQ(series[1].label, "sort[n=1000] (diagnostic, 4 threads, on bench-01)");
  EXPECT_TRUE(series[1].changes.empty());  // 3 points: too few for a change
  EXPECT_EQ(analyse_history_changes(history().dump(), "h.json", "memory", {}).size(), 1u);
  const std::string table = render_changes_text(series, {}, "series");
  EXPECT_THAT(table, HasSubstr("| series "));
  EXPECT_THAT(table, HasSubstr("| sort[n=1000] (stable, 1 thread, on bench-01) | latency | "
                               "2026-01-01T07:00:00Z | 07aaaaaaaaaa |"));
}

TEST(HistoryChanges, NamesOneCaseOnTwoMachinesApart) {
  Json document = history();
  Json second = document["series"][0];
  second["id"] = "s-1111111111111111";
  second["environment"]["id"] = "bench-02";
  Json third = second;
  third["id"] = "s-2222222222222222";  // the same machine id, another kernel
  document["series"] = {document["series"][0], second, third};
  const auto series = analyse_history_changes(document.dump(), "history.json", "", {});
  ASSERT_EQ(series.size(), 3u);
  EXPECT_EQ(series[0].label, "sort[n=1000] (stable, 1 thread, on bench-01)");
  EXPECT_EQ(series[1].label, "sort[n=1000] (stable, 1 thread, on bench-02) [s-1111111111111111]");
  EXPECT_EQ(series[2].label, "sort[n=1000] (stable, 1 thread, on bench-02) [s-2222222222222222]");
}

TEST(HistoryChanges, NamesTheFieldOfADocumentThatDoesNotHoldTogether) {
  Json document = history();
  document["series"][0]["points"]["commit"][5] = 14;
  EXPECT_THAT(error_of(document),
              HasSubstr("history.json: series[0].points[5].commit: expected an index below 14. "
                        "Export it again"));
  document = history();
  document["series"][1]["points"]["median"] = {5, 5};
  EXPECT_THAT(error_of(document),
              HasSubstr("series[1].points: the columns commit, median and attempt differ"));
  document = history();
  document["series"][0]["points"]["median"][2] = "fast";
  EXPECT_THAT(error_of(document),
              HasSubstr("series[0].points[2].median: expected a finite number"));
  document = history();
  document.erase("attempts");
  EXPECT_THAT(error_of(document), HasSubstr("history.json: attempts: missing"));
  EXPECT_THAT(error_of(Json::array()), HasSubstr("history.json: commits: missing"));
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
