// The real executor's accounting of a process tree: peak memory and CPU time. These
// check what is counted, never how fast anything runs.
#include <gtest/gtest.h>

#include "measure/process_executor.hpp"

namespace perfgate {

namespace PERFGATE_TEST_FILE {

ProcessResult run_child(std::vector<std::string> args) {
  ProcessSpec spec;
  spec.argv = {PERFGATE_TEST_CHILD};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  const ProcessResult result = ProcessExecutor().run(spec);
  EXPECT_TRUE(result.succeeded()) << result.reason();
  return result;
}

TEST(ProcessExecutorUsage, CountsThePeakMemoryOfAGrandchild) {
  const ProcessResult result = run_child({"tree", "alloc", "200", "300"});
  EXPECT_GE(result.peak_rss_mb, 200);
}

TEST(ProcessExecutorUsage, AddsUpChildrenThatHoldMemoryAtTheSameTime) {
  const ProcessResult result = run_child({"concurrent", "2", "120", "1000"});
  EXPECT_GE(result.peak_rss_mb, 240);
}

TEST(ProcessExecutorUsage, CountsTheCpuTimeOfAGrandchild) {
  const ProcessResult result = run_child({"tree", "spin", "300"});
  EXPECT_GE(result.cpu_s(), 0.25);
}

TEST(ProcessExecutorUsage, CountsTheCpuTimeOfAnOrphanedGrandchild) {
  const ProcessResult result = run_child({"orphan", "spin", "300"});
  EXPECT_GE(result.cpu_s(), 0.25);
}

TEST(ProcessExecutorUsage, CountsTheCpuTimeOfTheLeaderItself) {
  const ProcessResult result = run_child({"spin", "300"});
  EXPECT_GE(result.cpu_s(), 0.25);
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
