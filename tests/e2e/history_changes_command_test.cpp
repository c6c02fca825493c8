// End-to-end: `perfgate history changes` through the real binary, on a real SQLite store.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "gate/normalized_fixtures.hpp"
#include "model/json.hpp"
#include "store/store.hpp"
#include "support/cli_runner.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;
using testing::run_perfgate;

/// A project folder whose SQLite store holds 24 nightly records of one cohort: latency
/// 20 ms for 12 nights, then 23 ms (a 15% slowdown), with a little alternation.
struct Project {
  TempDir dir;
  std::string url = "sqlite:" + (dir / "perf.db").string();
  Project() {
    auto store = open_store(url);
    for (int night = 1; night <= 24; ++night) {
      Attempt attempt;
      attempt.created_at = fmt::format("2026-11-{:02}T02:00:00Z", night);
      attempt.run_source = "scheduled_main";
      const double latency = (night > 12 ? 0.023 : 0.020) * (night % 2 ? 1.005 : 0.995);
      NormalizedRecord r = v2_record({{"latency", latency}});
      r.benchmark_id = "sort";
      r.timestamp = attempt.created_at;
      r.commit_sha = fmt::format("{:02x}{}", night, std::string(38, 'e'));
      attempt.records.push_back(r);
      assign_attempt_id(attempt);
      store->append(attempt);
    }
  }
  testing::CliResult perfgate(const std::vector<std::string>& args) {
    return run_perfgate(args, dir.path(), {{"PERFGATE_STORE", url}});
  }
};

TEST(HistoryChangesCommand, ReportsTheNightTheSeriesChanged) {
  Project p;
  const auto result = p.perfgate({"history", "changes"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("| latency | 2026-11-13T02:00:00Z | 0deeeeeeeeee |"));
  EXPECT_THAT(result.out, HasSubstr("|  20 ms | 23 ms | +15.0% worse |"));
  EXPECT_THAT(result.out, HasSubstr("1 series, 1 change point (1 worse)"));

  const auto json = p.perfgate({"history", "changes", "--json", "--metric", "latency"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const Json document = Json::parse(json.out);
  EXPECT_EQ(document["series"][0]["points"], 24);
  EXPECT_EQ(document["series"][0]["changes"][0]["index"], 12);
  EXPECT_EQ(document["series"][0]["changes"][0]["commit"], "0d" + std::string(38, 'e'));

  // Too few points on each side for the step: none found, and that is not an error.
  const auto strict = p.perfgate({"history", "changes", "--min-segment", "13"});
  EXPECT_EQ(strict.exit_code, 0);
  EXPECT_THAT(strict.out, HasSubstr("1 series, 0 change points"));
}

TEST(HistoryChangesCommand, RefusesBadFlagsAndAStoreThatDoesNotExist) {
  Project p;
  auto result = p.perfgate({"history", "changes", "--p-value", "5"});
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err,
              HasSubstr("perfgate: error: --p-value 5: a p-value lies between 0 and 1"));
  result = p.perfgate({"history", "changes", "--min-segment", "1"});
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("--min-segment 1: a change needs at least 2 points"));
  result = p.perfgate({"history", "changes", "--store", "sqlite:" + (p.dir / "typo.db").string()});
  EXPECT_EQ(result.exit_code, 66);
  EXPECT_FALSE(std::filesystem::exists(p.dir / "typo.db"));
  // Without a store, the other source of series is named.
  EXPECT_THAT(result.err, HasSubstr("does not exist. Pass --store (or set PERFGATE_STORE) to the "
                                    "store that 'perfgate compare --upload' wrote. Or analyse a "
                                    "history export instead: perfgate history changes --history "
                                    "site/history.json"));
}

TEST(HistoryChangesCommand, AnalysesTheSeriesOfAHistoryExport) {
  Project p;
  // One series of 12 commits, 5 ms then 6 ms from the seventh; memory is "higher is worse".
  std::string commits, attempts, columns_commit, columns_median;
  for (int i = 0; i < 12; ++i) {
    const std::string sha = fmt::format("{:02x}{}", i, std::string(38, 'b'));
    commits += fmt::format(R"({}{{"sha":"{}","time":{},"status":"measured"}})", i ? "," : "", sha,
                           1767225600 + i * 60);
    attempts += fmt::format(R"({}{{"id":"{}-r-1"}})", i ? "," : "", sha);
    columns_commit += fmt::format("{}{}", i ? "," : "", i);
    columns_median += fmt::format("{}{}", i ? "," : "", (i >= 6 ? 6.0 : 5.0) + (i % 2) * 0.01);
  }
  p.dir.write(
      "history.json",
      fmt::format(
          R"({{"kind":"perfgate-history","schema_version":1,"commits":[{}],)"
          R"("attempts":[{}],"series":[{{"id":"s-1","case":"sort","metric":)"
          R"("latency","unit":"ms","label":"stable","threads":2,"environment":{{"id":"m1"}},"points":)"
          R"({{"commit":[{}],"median":[{}],"attempt":[{}]}}}}]}})",
          commits, attempts, columns_commit, columns_median, columns_commit) +
          "\n");
  const auto result = p.perfgate({"history", "changes", "--history", "history.json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("| series "));
  EXPECT_THAT(result.out,
              HasSubstr("| sort (stable, 2 threads, on m1) | latency | 2026-01-01T00:06:00Z | "
                        "06bbbbbbbbbb |"));
  EXPECT_THAT(result.out, HasSubstr("1 series, 1 change point (1 worse)"));
  const auto json = p.perfgate({"history", "changes", "--history", "history.json", "--json"});
  EXPECT_EQ(Json::parse(json.out)["history"], "history.json");

  const auto both =
      p.perfgate({"history", "changes", "--history", "history.json", "--since", "30d"});
  EXPECT_EQ(both.exit_code, 64);
  EXPECT_THAT(both.err, HasSubstr("Pass --history or those, not both"));
  const auto missing = p.perfgate({"history", "changes", "--history", "nope.json"});
  EXPECT_EQ(missing.exit_code, 66);
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
