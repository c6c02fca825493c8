// Per-region CPU time on an injected clock: every wall reading advances 1 µs and every CPU
// reading (process or thread) 0.4 µs, so each region's CPU time and the CPU residual are
// exact, and the run's top level plus its CPU residual is its thread's whole CPU time.

#include "probe/probe_fixture.hpp"

namespace perfgate::probe::testing {
namespace PERFGATE_TEST_FILE {

class ProbeCpuTime : public FakeClockTest {};

void nested() {
  PERFGATE_REGION("a");
  PERFGATE_REGION("b");
}

TEST_F(ProbeCpuTime, GivesEachRegionItsThreadsCpuTimeAndTheRunACpuResidual) {
  set_cpu_time(true);
  {
    probe::Run run;  // thread CPU 0.4 µs at its start, 3.2 µs at its end
    nested();        // a: CPU 1.2 -> 2.4 µs, b: 1.6 -> 2.0 µs
  }
  const Json doc = report();
  EXPECT_EQ(doc["config"]["cpu_time"], true);
  const Json& run = doc["runs"][0];
  EXPECT_DOUBLE_EQ(run["timing"]["thread_cpu_time_us"].get<double>(), 2.8);
  const Json a = run_row(run, "a");
  const Json b = run_row(run, "a/b");
  EXPECT_DOUBLE_EQ(a["cpu_time_us"].get<double>(), 1.2);
  EXPECT_DOUBLE_EQ(a["self_cpu_time_us"].get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(b["cpu_time_us"].get<double>(), 0.4);
  EXPECT_DOUBLE_EQ(b["self_cpu_time_us"].get<double>(), 0.4);
  EXPECT_DOUBLE_EQ(a["cpu_time_fraction"].get<double>(), 1.2 / 2.8);
  EXPECT_DOUBLE_EQ(run["residual"]["cpu_time_us"].get<double>(), 1.6);
  EXPECT_DOUBLE_EQ(
      a["cpu_time_fraction"].get<double>() + run["residual"]["cpu_time_fraction"].get<double>(),
      1.0);
}

TEST_F(ProbeCpuTime, LeavesCpuFieldsOutOfRunsStartedWhileItIsOff) {
  {
    probe::Run run;
    nested();
  }
  const Json doc = report();
  EXPECT_EQ(doc["config"]["cpu_time"], false);
  const Json& run = doc["runs"][0];
  EXPECT_FALSE(run["timing"].contains("thread_cpu_time_us"));
  EXPECT_FALSE(run_row(run, "a").contains("cpu_time_us"));
  EXPECT_FALSE(run["residual"].contains("cpu_time_us"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::probe::testing
