#include "ab/run_checks.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using ::testing::ElementsAre;

ProcessResult exited(int status) {
  ProcessResult result;
  result.outcome = ProcessOutcome::kExited;
  result.exit_code = status;
  result.wall_s = 0.1;
  result.peak_rss_mb = 1;
  return result;
}

TEST(RunChecks, ExpectOutputMatchesOneLineAsGrepDoes) {
  const std::string output = "starting\nresult: 42\r\ndone\n";
  EXPECT_TRUE(matches_some_line(output, "^result: 42$"));
  EXPECT_TRUE(matches_some_line(output, "^done$"));
  EXPECT_FALSE(matches_some_line(output, "^starting$\\n^result"));
  EXPECT_FALSE(matches_some_line(output, "^42"));
  EXPECT_TRUE(matches_some_line("", "^$"));
  EXPECT_THAT(failed_run_checks(exited(0), output, {0, {"^result: 42$"}}), ElementsAre());
  EXPECT_THAT(failed_run_checks(exited(0), output, {0, {"^result: 43$"}}),
              ElementsAre("output does not match expect_output '^result: 43$'"));
}

TEST(RunChecks, AMissingCommandUnderTheShellSaysNotFound) {
  EXPECT_THAT(failed_run_checks(exited(127), "", {0, {}, true}),
              ElementsAre("command not found (exit status 127 from the shell), expected 0"));
  EXPECT_THAT(failed_run_checks(exited(127), "", {0, {}, false}),
              ElementsAre("exit status 127, expected 0"));
}

TEST(RunChecks, ACrashUnderTheShellNamesItsSignal) {
  EXPECT_THAT(failed_run_checks(exited(139), "", {0, {}, true}),
              ElementsAre("killed by SIGSEGV (exit status 139 from the shell), expected 0"));
  EXPECT_THAT(failed_run_checks(exited(0), "", {3, {}, true}),
              ElementsAre("exit status 0, expected 3"));
}

TEST(RunChecks, ATimedOutRunSaysItsLimit) {
  ProcessResult result;
  result.outcome = ProcessOutcome::kTimedOut;
  result.timeout_s = 60;
  EXPECT_THAT(failed_run_checks(result, "", {}), ElementsAre("timed out after 60 s"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
