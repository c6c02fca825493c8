#include "measure/executor.hpp"

#include <gtest/gtest.h>

namespace perfgate {

namespace PERFGATE_TEST_FILE {

ProcessResult result_with(ProcessOutcome outcome) {
  ProcessResult result;
  result.outcome = outcome;
  return result;
}

TEST(ProcessResult, ReasonIsOkOnlyForExitStatusZero) {
  ProcessResult result = result_with(ProcessOutcome::kExited);
  result.exit_code = 0;
  EXPECT_EQ(result.reason(), "ok");
  EXPECT_TRUE(result.succeeded());
  result.exit_code = 3;
  EXPECT_EQ(result.reason(), "exit status 3");
  EXPECT_FALSE(result.succeeded());
}

TEST(ProcessResult, ReasonNamesTheSignal) {
  ProcessResult result = result_with(ProcessOutcome::kSignaled);
  result.signal = 11;
  EXPECT_EQ(result.reason(), "killed by signal 11 (SIGSEGV)");
  result.signal = 9;
  EXPECT_EQ(result.reason(), "killed by signal 9 (SIGKILL)");
}

TEST(ProcessResult, ReasonGivesOnlyTheNumberOfARealTimeSignal) {
  ProcessResult result = result_with(ProcessOutcome::kSignaled);
  result.signal = 40;
  EXPECT_EQ(result.reason(), "killed by signal 40");
}

TEST(ProcessResult, ReasonStatesTheTimeoutThatWasExceeded) {
  ProcessResult result = result_with(ProcessOutcome::kTimedOut);
  result.timeout_s = 2;
  EXPECT_EQ(result.reason(), "timed out after 2 s");
  result.timeout_s = 0.5;
  EXPECT_EQ(result.reason(), "timed out after 0.5 s");
}

TEST(ProcessResult, ReasonCarriesTheStartError) {
  ProcessResult result = result_with(ProcessOutcome::kFailedToStart);
  result.error = "nope: No such file or directory";
  EXPECT_EQ(result.reason(), "could not start: nope: No such file or directory");
  EXPECT_FALSE(result.succeeded());
}

TEST(ProcessResult, CpuIsUserPlusSystem) {
  ProcessResult result;
  result.user_s = 1.25;
  result.system_s = 0.5;
  EXPECT_EQ(result.cpu_s(), 1.75);
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
