// A long program on an injected clock (every wall reading advances 1 µs): past the detail
// cap runs are folded into the summary and the key averages, so the report keeps its size;
// past the trace cap the longest events are kept.

#include <string>

#include "probe/probe_fixture.hpp"

namespace perfgate::probe::testing {
namespace PERFGATE_TEST_FILE {

class ProbeLongProgram : public FakeClockTest {};

/// A run of 1 + 2k µs (one reading at its start, two per call, one at its end): `step`
/// entered k times, each call 1 µs.
void run_with_steps(int k) {
  probe::Run run;
  for (int i = 0; i < k; ++i) {
    PERFGATE_REGION("step");
  }
}

Json summary_row(const Json& doc, const std::string& id) {
  for (const Json& row : doc["summary"]["regions"]) {
    if (row["region_id"] == id) return row;
  }
  return nullptr;
}

TEST_F(ProbeLongProgram, SummarisesTheListedRunsExactlyWhileNoneIsFolded) {
  for (int k = 1; k <= 5; ++k) run_with_steps(k);  // run 1 (k = 1) is the implicit warmup
  const Json doc = report();
  const Json& summary = doc["summary"];
  EXPECT_EQ(summary["runs"], 5);
  EXPECT_EQ(summary["measured_runs"], 4);
  EXPECT_EQ(summary["listed_runs"], 5);
  EXPECT_EQ(summary["quantiles"], "exact");
  // Measured runs of 5, 7, 9 and 11 µs.
  EXPECT_EQ(summary["wall_time_us"]["mean"], 8.0);
  EXPECT_EQ(summary["wall_time_us"]["min"], 5.0);
  EXPECT_EQ(summary["wall_time_us"]["median"], 7.0);  // the 2nd of 4
  EXPECT_EQ(summary["wall_time_us"]["max"], 11.0);
  const Json step = summary_row(doc, "step");
  EXPECT_EQ(step["runs"], 4);
  EXPECT_EQ(step["calls"], 3.5);  // 2 + 3 + 4 + 5 over 4 runs
  EXPECT_EQ(step["wall_time_us"], 3.5);
  EXPECT_DOUBLE_EQ(step["wall_time_fraction"].get<double>(), 14.0 / 32.0);
  EXPECT_EQ(step["per_run_wall_time_us"]["median"], 3.0);
  EXPECT_EQ(step["per_run_wall_time_us"]["max"], 5.0);
  EXPECT_EQ(summary["residual"]["wall_time_us"], 4.5);  // 3, 4, 5, 6
}

TEST_F(ProbeLongProgram, FoldsRunsPastTheCapIntoTheSummaryAndTheKeyAverages) {
  detail::set_run_detail_cap_for_testing(3);
  for (int i = 0; i < 10; ++i) run_with_steps(2);  // every run: 5 µs, step 2 µs
  const Json doc = report();
  EXPECT_EQ(doc["runs"].size(), 3u);
  const Json& summary = doc["summary"];
  EXPECT_EQ(summary["runs"], 10);
  EXPECT_EQ(summary["measured_runs"], 9);
  EXPECT_EQ(summary["listed_runs"], 3);
  EXPECT_EQ(summary["quantiles"], "histogram");
  EXPECT_EQ(summary["wall_time_us"]["mean"], 5.0);
  EXPECT_EQ(summary["wall_time_us"]["min"], 5.0);  // exact, as is the maximum
  EXPECT_EQ(summary["wall_time_us"]["max"], 5.0);
  EXPECT_EQ(summary["wall_time_us"]["median"], 5.0);  // clamped into [min, max]
  const Json step = summary_row(doc, "step");
  EXPECT_EQ(step["runs"], 9);
  EXPECT_EQ(step["calls"], 2.0);
  EXPECT_EQ(step["wall_time_us"], 2.0);
  const Json& total = doc["key_averages"]["total_time"][0];
  EXPECT_EQ(total["region_id"], "step");
  EXPECT_EQ(total["calls"], 18);
  EXPECT_EQ(total["runs"], 9);
  EXPECT_EQ(doc["key_averages"]["by_name"][0]["runs"], 9);
  EXPECT_EQ(warning_codes(doc), std::vector<std::string>{"RUNS_FOLDED"});
  EXPECT_EQ(doc["warnings"][0]["message"],
            "7 run(s) after the first 3 are not listed in runs[]: they are in summary and "
            "key_averages (0 of them warmups, left out)");
}

TEST_F(ProbeLongProgram, ReadsQuantilesOfFoldedRunsWithinTheHistogramsResolution) {
  detail::set_run_detail_cap_for_testing(1);
  for (int k = 1; k <= 201; ++k) run_with_steps(k);  // runs 2..201 measured: 5 .. 403 µs
  const Json doc = report();
  const Json& wall = doc["summary"]["wall_time_us"];
  EXPECT_EQ(wall["min"], 5.0);
  EXPECT_EQ(wall["max"], 403.0);
  // The true median of 5, 7, ..., 403 (200 values) is the 100th: 203 µs.
  EXPECT_NEAR(wall["median"].get<double>(), 203.0, 203.0 * 0.045);
  EXPECT_NEAR(wall["p90"].get<double>(), 363.0, 363.0 * 0.045);  // the 180th
}

TEST_F(ProbeLongProgram, KeepsTheLongestTraceEventsPastTheCap) {
  set_trace(true);
  detail::set_trace_cap_for_testing(100);
  for (int i = 0; i < 150; ++i) {
    PERFGATE_REGION("short");  // 1 µs
  }
  for (int i = 0; i < 5; ++i) {
    PERFGATE_REGION("long");  // 7 µs: three short calls inside
    for (int j = 0; j < 3; ++j) {
      PERFGATE_REGION("short");
    }
  }
  const Json doc = report();
  EXPECT_EQ(doc["trace"]["events"].size(), 100u);
  EXPECT_EQ(doc["trace"]["dropped"], 70);  // 150 + 5 × 4 events, 100 kept
  int longs = 0;
  for (const Json& event : doc["trace"]["events"]) {
    if (event["region_id"] == "long") {
      ++longs;
      EXPECT_EQ(event["duration_us"], 7.0);
    }
  }
  EXPECT_EQ(longs, 5);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::probe::testing
