#include "report/change_report.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "gate/normalized_fixtures.hpp"
#include "model/json.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::HasSubstr;

/// A record of the gate tests' cohort on day `day` of November, with its latency and
/// throughput.
StoredRecord record(int day, double latency, bool success = true) {
  NormalizedRecord r = v2_record({{"latency", latency}});
  r.record_id = "rec-" + std::to_string(day);
  r.timestamp = fmt::format("2026-11-{:02}T10:00:00+01:00", day);
  r.commit_sha = fmt::format("{:02}{}", day, std::string(38, 'c'));
  r.success = success;
  r.metrics["throughput"] = {1.0 / latency, "ops/s", Direction::kHigherIsBetter};
  return {r, "attempt", true};
}

/// Twenty days: 10 ms with a little alternation, then 12 ms from day 11; listed newest
/// first, as a store lists them; a failed run of 50 ms on day 21 is left out.
std::vector<StoredRecord> stepped_store() {
  std::vector<StoredRecord> records;
  records.push_back(record(21, 0.050, false));
  for (int day = 20; day >= 1; --day) {
    const double base = day >= 11 ? 0.012 : 0.010;
    records.push_back(record(day, base * (day % 2 ? 1.01 : 0.99)));
  }
  return records;
}

TEST(ChangeReport, FindsTheStepOfEachMetricWithTheRecordThatStartsIt) {
  const auto series =
      analyse_changes(stepped_store(), "", {.min_segment = 5, .max_p_value = 0.001});
  ASSERT_EQ(series.size(), 2u);
  const ChangeSeries& latency = series[0];
  EXPECT_EQ(latency.metric, "latency");
  EXPECT_EQ(latency.cohort,
            "primes-sieve/single-thread/v1/aaaaaaaaaaaa/hw-0123456789ab/sw-0123456789ab");
  ASSERT_EQ(latency.points.size(), 20u);  // the failed run is not a point
  EXPECT_EQ(latency.points.front().timestamp, "2026-11-01T09:00:00Z");
  ASSERT_EQ(latency.changes.size(), 1u);
  EXPECT_EQ(latency.changes[0].index, 10u);
  EXPECT_EQ(latency.points[10].record_id, "rec-11");
  EXPECT_DOUBLE_EQ(latency.changes[0].mean_before, 0.010);
  EXPECT_DOUBLE_EQ(latency.changes[0].mean_after, 0.012);
  EXPECT_TRUE(is_worse(latency.direction, latency.changes[0]));
  const ChangeSeries& throughput = series[1];
  ASSERT_EQ(throughput.changes.size(), 1u);
  EXPECT_TRUE(is_worse(throughput.direction, throughput.changes[0]));  // fewer ops/s is worse

  EXPECT_EQ(analyse_changes(stepped_store(), "latency", {}).size(), 1u);
  EXPECT_TRUE(analyse_changes(stepped_store(), "latency", {.min_segment = 11, .max_p_value = 0.001})
                  .front()
                  .changes.empty());
}

TEST(ChangeReport, PrintsATableAndJsonWithTheChangesFigures) {
  const stats::ChangePointOptions options{.min_segment = 5, .max_p_value = 0.001};
  const auto series = analyse_changes(stepped_store(), "latency", options);
  const std::string text = render_changes_text(series, options);
  EXPECT_THAT(text,
              HasSubstr("| primes-sieve/single-thread/v1 (recipe aaaaaaaaaaaa, hw-0123456789ab, "
                        "sw-0123456789ab) | latency | "
                        "2026-11-11T09:00:00Z | 11cccccccccc |  10 ms | 12 ms | +20.0% "
                        "worse |"));
  EXPECT_THAT(text, HasSubstr("1 series, 1 change point (1 worse); at least 5 points per "
                              "segment, p-value at most 0.001\n"));
  const Json json = Json::parse(render_changes_json(series, options, "store", "sqlite:perf.db"));
  EXPECT_EQ(json["kind"], "perfgate-changes");
  EXPECT_EQ(json["store"], "sqlite:perf.db");
  EXPECT_EQ(json["method"]["min_segment"], 5);
  const Json& change = json["series"][0]["changes"][0];
  EXPECT_EQ(change["index"], 10);
  EXPECT_EQ(change["record"], "rec-11");
  EXPECT_EQ(change["commit"], "11" + std::string(38, 'c'));
  EXPECT_NEAR(change["relative_change"].get<double>(), 0.2, 1e-12);
  EXPECT_EQ(change["worse"], true);
  EXPECT_LT(change["p_value"].get<double>(), 1e-10);
  EXPECT_EQ(render_changes_text({}, options),
            "0 series, 0 change points (0 worse); at least 5 points per segment, p-value at "
            "most 0.001\n");
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
