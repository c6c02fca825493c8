// Work handed to other threads: a RunContext taken inside a run and an AttachedRun on the
// worker put the worker's regions in that run's `dispatched` rows, nested under the region
// open when the context was taken, and in the key averages; the run's own 100% is unchanged.

#include <thread>
#include <vector>

#include "probe/probe_fixture.hpp"

namespace perfgate::probe::testing {
namespace PERFGATE_TEST_FILE {

class ProbeRunContext : public ProbeTest {};

TEST_F(ProbeRunContext, IsEmptyOutsideARun) {
  EXPECT_FALSE(RunContext::current());
  probe::Run run;
  EXPECT_TRUE(RunContext::current());
}

TEST_F(ProbeRunContext, PutsAWorkersRegionsUnderTheDispatchingRegionOfTheDispatchingRun) {
  {
    probe::Run run;
    PERFGATE_REGION("parallel_for");
    const RunContext context = RunContext::current();
    std::vector<std::thread> workers;
    for (int t = 0; t < 3; ++t) {
      workers.emplace_back([context] {
        AttachedRun attached(context);
        for (int i = 0; i < 2; ++i) {
          PERFGATE_REGION("task");
          PERFGATE_REGION("kernel");
        }
      });
    }
    for (std::thread& worker : workers) worker.join();
  }
  const Json doc = report();
  ASSERT_EQ(doc["runs"].size(), 1u);
  const Json& run = doc["runs"][0];
  // The run's own tree: parallel_for alone, and with the residual it makes the whole run.
  ASSERT_EQ(run["regions"].size(), 1u);
  EXPECT_DOUBLE_EQ(run["regions"][0]["wall_time_fraction"].get<double>() +
                       run["residual"]["wall_time_fraction"].get<double>(),
                   1.0);
  // Beside it, each worker's rows under parallel_for.
  const Json& dispatched = run["dispatched"];
  ASSERT_EQ(dispatched.size(), 6u);
  for (std::size_t i = 0; i < dispatched.size(); i += 2) {
    EXPECT_EQ(dispatched[i]["region_id"], "parallel_for/task");
    EXPECT_EQ(dispatched[i]["calls"], 2);
    EXPECT_EQ(dispatched[i + 1]["region_id"], "parallel_for/task/kernel");
    EXPECT_EQ(dispatched[i + 1]["calls"], 2);
    EXPECT_EQ(dispatched[i]["thread_index"], dispatched[i + 1]["thread_index"]);
    EXPECT_NE(dispatched[i]["thread_index"], 0);
  }
  const Json* task = nullptr;
  for (const Json& region : doc["regions"]) {
    if (region["id"] == "parallel_for/task") task = &region;
  }
  ASSERT_NE(task, nullptr);
  EXPECT_EQ((*task)["parent"], "parallel_for");
  EXPECT_EQ((*task)["depth"], 1);
  for (const Json& row : doc["key_averages"]["total_time"]) {
    if (row["region_id"] == "parallel_for/task") {
      EXPECT_EQ(row["calls"], 6);
      EXPECT_EQ(row["runs"], 1);
    }
  }
  EXPECT_EQ(warning_codes(doc), std::vector<std::string>{});
}

TEST_F(ProbeRunContext, AttributesWorkThatEndsAfterItsRunAndWorkForARunAtTheTopLevel) {
  RunContext context;
  {
    probe::Run run;
    context = RunContext::current();  // no region open: the work is at the run's top level
  }
  std::thread([context] {
    AttachedRun attached(context);
    PERFGATE_REGION("late");
  }).join();
  const Json doc = report();
  ASSERT_EQ(doc["runs"][0]["dispatched"].size(), 1u);
  EXPECT_EQ(doc["runs"][0]["dispatched"][0]["region_id"], "late");
  EXPECT_EQ(doc["runs"][0]["regions"].size(), 0u);
  EXPECT_EQ(warning_codes(doc), std::vector<std::string>{});
}

TEST_F(ProbeRunContext, ChangesNothingOnAThreadWithARunOfItsOwnOrForAnEmptyContext) {
  RunContext outer;
  {
    probe::Run run;
    outer = RunContext::current();
  }
  {
    probe::Run run;  // this thread's second run: its regions stay in it
    AttachedRun attached(outer);
    PERFGATE_REGION("own");
  }
  std::thread([] {
    AttachedRun attached{RunContext{}};
    PERFGATE_REGION("nowhere");
  }).join();
  const Json doc = report();
  ASSERT_EQ(doc["runs"].size(), 2u);
  EXPECT_EQ(doc["runs"][0]["dispatched"].size(), 0u);
  EXPECT_EQ(doc["runs"][1]["regions"][0]["region_id"], "own");
  EXPECT_EQ(warning_codes(doc), std::vector<std::string>{"REGION_OUTSIDE_RUN"});
}

TEST_F(ProbeRunContext, HandsOnTheRunFromAWorkerToTheWorkItDispatches) {
  {
    probe::Run run;
    PERFGATE_REGION("stage");
    const RunContext context = RunContext::current();
    std::thread([context] {
      AttachedRun attached(context);
      PERFGATE_REGION("fan_out");
      const RunContext nested = RunContext::current();
      std::thread([nested] {
        AttachedRun inner(nested);
        PERFGATE_REGION("leaf");
      }).join();
    }).join();
  }
  const Json doc = report();
  const Json& dispatched = doc["runs"][0]["dispatched"];
  ASSERT_EQ(dispatched.size(), 2u);
  EXPECT_EQ(dispatched[0]["region_id"], "stage/fan_out");
  EXPECT_EQ(dispatched[1]["region_id"], "stage/fan_out/leaf");
}

TEST_F(ProbeRunContext, WarnsAboutWorkForARunThatIsNotInTheReport) {
  probe::Run run;  // still open when the report is written
  const RunContext context = RunContext::current();
  std::thread([context] {
    AttachedRun attached(context);
    PERFGATE_REGION("orphan");
  }).join();
  const Json doc = report();
  EXPECT_EQ(doc["runs"].size(), 0u);
  ASSERT_EQ(warning_codes(doc),
            (std::vector<std::string>{"RUN_OPEN_AT_EXIT", "DISPATCHED_WITHOUT_RUN"}));
  EXPECT_EQ(doc["warnings"][1]["message"],
            "work on 1 thread(s) with 1 region call(s) was done in an AttachedRun for a run that "
            "is not in the report (still open when it was written, or its process's parent's); "
            "it is in no run");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::probe::testing
