// Recursion on an injected clock (every wall reading advances 1 µs): a region entered inside
// an open region of the same name is counted in it, so a recursion of any depth is one row,
// its wall time is the outermost call's and its self time is every call's own.

#include <string>

#include "probe/probe_fixture.hpp"

namespace perfgate::probe::testing {
namespace PERFGATE_TEST_FILE {

class ProbeRecursion : public FakeClockTest {};

void walk(int depth) {
  PERFGATE_REGION("walk");
  if (depth > 1) walk(depth - 1);
}

void odd(int depth);
void even(int depth) {
  PERFGATE_REGION("even");
  if (depth > 1) odd(depth - 1);
}
void odd(int depth) {
  PERFGATE_REGION("odd");
  if (depth > 1) even(depth - 1);
}

TEST_F(ProbeRecursion, CountsThreeNestedCallsOfOneNameAsOneRowWithTheOutermostWallTime) {
  {
    probe::Run run;  // run start: 1 µs
    walk(3);         // enters at 2, 3, 4; ends at 5, 6, 7
  }                  // run end: 8 µs
  const Json doc = report();
  ASSERT_EQ(doc["regions"].size(), 1u);
  EXPECT_EQ(doc["regions"][0]["id"], "walk");
  const Json& run = doc["runs"][0];
  ASSERT_EQ(run["regions"].size(), 1u);
  const Json row = run_row(run, "walk");
  EXPECT_EQ(row["calls"], 3);
  EXPECT_EQ(row["wall_time_us"], 5.0);       // 2 -> 7: the outermost call
  EXPECT_EQ(row["self_wall_time_us"], 5.0);  // 1 + 2 + 2: each call less the one inside
  EXPECT_EQ(run["residual"]["wall_time_us"], 2.0);
  EXPECT_DOUBLE_EQ(
      row["wall_time_fraction"].get<double>() + run["residual"]["wall_time_fraction"].get<double>(),
      1.0);
}

TEST_F(ProbeRecursion, KeepsTheReportLinearInDepth) {
  {
    probe::Run run;
    walk(5000);
  }
  const Json doc = report();
  ASSERT_EQ(doc["regions"].size(), 1u);
  EXPECT_EQ(doc["regions"][0]["depth"], 0);
  EXPECT_EQ(run_row(doc["runs"][0], "walk")["calls"], 5000);
  EXPECT_LT(doc.dump().size(), 4000u);
}

TEST_F(ProbeRecursion, FoldsMutualRecursionIntoTheFirstPathOfEachName) {
  {
    probe::Run run;
    even(6);  // even, odd, even, odd, even, odd
  }
  const Json doc = report();
  ASSERT_EQ(doc["regions"].size(), 2u);
  EXPECT_EQ(doc["regions"][0]["id"], "even");
  EXPECT_EQ(doc["regions"][1]["id"], "even/odd");
  const Json& run = doc["runs"][0];
  // Entered at 2..7, ended at 8..13: even's outermost call is 2 -> 13, odd's 3 -> 12.
  EXPECT_EQ(run_row(run, "even")["calls"], 3);
  EXPECT_EQ(run_row(run, "even")["wall_time_us"], 11.0);
  EXPECT_EQ(run_row(run, "even/odd")["calls"], 3);
  EXPECT_EQ(run_row(run, "even/odd")["wall_time_us"], 9.0);
  // Self times: each call's own 2 µs (1 µs for the innermost), 11 µs in all.
  EXPECT_EQ(run_row(run, "even")["self_wall_time_us"].get<double>() +
                run_row(run, "even/odd")["self_wall_time_us"].get<double>(),
            11.0);
  EXPECT_EQ(run_row(run, "even")["self_wall_time_us"], 6.0);
  EXPECT_EQ(run_row(run, "even/odd")["self_wall_time_us"], 5.0);
}

TEST_F(ProbeRecursion, GroupsKeyAveragesByNameAcrossCallers) {
  // "decode" under two callers: two ids, one name.
  for (int i = 0; i < 2; ++i) {
    probe::Run run;
    {
      PERFGATE_REGION("image");
      PERFGATE_REGION("decode");
    }
    {
      PERFGATE_REGION("audio");
      PERFGATE_REGION("decode");
    }
  }
  const Json doc = report();
  const Json& by_name = doc["key_averages"]["by_name"];
  ASSERT_EQ(by_name.size(), 3u);
  // Run 0 is the implicit warmup: one measured run. Each call of decode is 1 µs.
  const auto row = [&](const std::string& name) {
    for (const Json& r : by_name) {
      if (r["name"] == name) return r;
    }
    return Json();
  };
  EXPECT_EQ(row("decode")["calls"], 2);
  EXPECT_EQ(row("decode")["ids"], 2);
  EXPECT_EQ(row("decode")["runs"], 1);
  EXPECT_EQ(row("decode")["wall_time_us"], 2.0);
  EXPECT_EQ(row("decode")["self_wall_time_us"], 2.0);
  EXPECT_EQ(row("image")["calls"], 1);
  EXPECT_EQ(row("image")["ids"], 1);
  EXPECT_EQ(row("image")["self_wall_time_us"], 2.0);  // 3 µs less decode's 1
  // Ties by self time go in name order: audio, decode, image all have 2 µs of self time.
  EXPECT_EQ(by_name[0]["name"], "audio");
  EXPECT_EQ(by_name[1]["name"], "decode");
  EXPECT_EQ(by_name[2]["name"], "image");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::probe::testing
