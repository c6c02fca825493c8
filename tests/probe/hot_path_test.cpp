// The common entry and end, on an injected clock (every wall reading advances 1 µs): a
// level that remembers the child it entered last, and the calls the common end must
// leave to the general one (recursive, traced, timed in CPU time, outside any run). Each
// figure is what the general path gives.

#include "perfgate/probe.h"
#include "probe/probe_fixture.hpp"

namespace perfgate::probe::testing {
namespace PERFGATE_TEST_FILE {

class ProbeHotPath : public FakeClockTest {};

TEST_F(ProbeHotPath, CountsChildrenThatTakeTurnsUnderOneParentEachInItsOwnRow) {
  {
    probe::Run run;
    for (int i = 0; i < 3; ++i) {
      PERFGATE_REGION("frame");  // 8 readings per iteration: frame 7 µs, each child 1 µs
      { PERFGATE_REGION("a"); }
      { PERFGATE_REGION("b"); }
      { PERFGATE_REGION("a"); }
    }
  }
  const Json run = report()["runs"][0];
  // Two call sites of one name under one parent are one row.
  ASSERT_EQ(run["regions"].size(), 3u);
  const Json frame = run_row(run, "frame");
  EXPECT_EQ(frame["calls"], 3);
  EXPECT_EQ(frame["wall_time_us"], 21.0);
  EXPECT_EQ(frame["self_wall_time_us"], 12.0);
  const Json a = run_row(run, "frame/a");
  EXPECT_EQ(a["calls"], 6);
  EXPECT_EQ(a["wall_time_us"], 6.0);
  const Json b = run_row(run, "frame/b");
  EXPECT_EQ(b["calls"], 3);
  EXPECT_EQ(b["wall_time_us"], 3.0);
  // 1 µs from each reading between two frames to the next: the run's start, two gaps
  // between iterations, the run's end.
  EXPECT_EQ(run["residual"]["wall_time_us"], 4.0);
}

TEST_F(ProbeHotPath, KeepsOneNameAtTwoLevelsApart) {
  {
    probe::Run run;
    for (int i = 0; i < 2; ++i) {
      { PERFGATE_REGION("x"); }
      {
        PERFGATE_REGION("y");
        { PERFGATE_REGION("x"); }
      }
    }
  }
  const Json run = report()["runs"][0];
  EXPECT_EQ(run_row(run, "x")["calls"], 2);
  EXPECT_EQ(run_row(run, "y")["calls"], 2);
  EXPECT_EQ(run_row(run, "y/x")["calls"], 2);
  EXPECT_EQ(run_row(run, "y")["wall_time_us"], 6.0);       // 3 µs per call
  EXPECT_EQ(run_row(run, "y")["self_wall_time_us"], 4.0);  // less its x, 1 µs each
}

TEST_F(ProbeHotPath, EndsTheCApisRegionsInALoopLikeTheCppOnes) {
  {
    probe::Run run;
    for (int i = 0; i < 4; ++i) {
      perfgate_probe_region_begin("c");
      perfgate_probe_region_end();
    }
  }
  const Json row = run_row(report()["runs"][0], "c");
  EXPECT_EQ(row["calls"], 4);
  EXPECT_EQ(row["wall_time_us"], 4.0);
}

TEST_F(ProbeHotPath, TracesACallOnlyWhenTracingIsOnAtBothItsEnds) {
  {
    probe::Run run;
    {
      PERFGATE_REGION("begun_untraced");
      set_trace(true);
    }
    { PERFGATE_REGION("traced"); }
    {
      PERFGATE_REGION("ended_untraced");
      set_trace(false);
    }
  }
  const Json doc = report();
  ASSERT_EQ(doc["trace"]["events"].size(), 1u);
  const Json run = doc["runs"][0];
  // All three are counted whatever their trace.
  EXPECT_EQ(run_row(run, "begun_untraced")["calls"], 1);
  EXPECT_EQ(run_row(run, "traced")["calls"], 1);
  EXPECT_EQ(run_row(run, "ended_untraced")["calls"], 1);
}

TEST_F(ProbeHotPath, LeavesARegionEnteredBeforeItsRunToTheGeneralEnd) {
  // Entered outside any run, the call never counts in the run that opens inside it, and
  // what is entered inside the run sits at the run's top level.
  {
    PERFGATE_REGION("outer");  // 1 µs
    probe::Run run;            // 2 µs
    for (int i = 0; i < 2; ++i) {
      PERFGATE_REGION("inner");  // 3 -> 4, 5 -> 6
    }
  }  // run end 7 µs, outer's end 8 µs
  const Json doc = report();
  const Json run = doc["runs"][0];
  ASSERT_EQ(run["regions"].size(), 1u);
  EXPECT_EQ(run_row(run, "inner")["calls"], 2);
  EXPECT_EQ(run_row(run, "inner")["wall_time_us"], 2.0);
  EXPECT_EQ(run["timing"]["wall_time_us"], 5.0);
  EXPECT_EQ(run["residual"]["wall_time_us"], 3.0);
  EXPECT_EQ(doc["regions"].size(), 2u);  // outer is known, counted outside any run
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::probe::testing
