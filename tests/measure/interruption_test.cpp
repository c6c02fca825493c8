#include "measure/interruption.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "measure/process_executor.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

// A test that leaves perfgate interrupted would break every later test: clear it always.
class Interruption : public ::testing::Test {
 protected:
  void TearDown() override { clear_interruption_for_testing(); }
};

// A child in its own process group that sleeps until killed.
pid_t sleeping_group_leader() {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    ::pause();
    ::_exit(0);
  }
  ::setpgid(pid, pid);  // both sides, so the group exists whichever runs first
  return pid;
}

TEST_F(Interruption, KillsEveryLiveProcessGroup) {
  const pid_t leader = sleeping_group_leader();
  {
    const LiveProcessGroup live(leader);
    interrupt(SIGTERM);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(leader, &status, 0), leader);
  clear_interruption_for_testing();
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
}

TEST_F(Interruption, KillsAGroupRegisteredAfterTheSignalArrived) {
  interrupt(SIGINT);
  const pid_t leader = sleeping_group_leader();
  { const LiveProcessGroup live(leader); }
  int status = 0;
  ASSERT_EQ(::waitpid(leader, &status, 0), leader);
  clear_interruption_for_testing();
  EXPECT_TRUE(WIFSIGNALED(status));
}

TEST_F(Interruption, RemembersTheFirstSignal) {
  interrupt(SIGHUP);
  interrupt(SIGTERM);
  EXPECT_EQ(interruption_signal(), SIGHUP);
  clear_interruption_for_testing();
  EXPECT_EQ(interruption_signal(), 0);
}

TEST_F(Interruption, ExitCodeIs128PlusTheSignalAsAShellReportsIt) {
  EXPECT_EQ(interrupted_exit_code(SIGINT), 130);
  EXPECT_EQ(interrupted_exit_code(SIGTERM), 143);
  EXPECT_EQ(interrupted_exit_code(SIGHUP), 129);
  EXPECT_EQ(describe_interruption(SIGTERM), "interrupted by SIGTERM");
}

TEST_F(Interruption, AScopeRoutesTheSignalToTheFlagAndRestoresTheOldHandler) {
  struct sigaction before {};
  ::sigaction(SIGHUP, nullptr, &before);
  {
    const InterruptionScope scope;
    ::raise(SIGHUP);  // would end the test binary without the scope's handler
    EXPECT_EQ(interruption_signal(), SIGHUP);
  }
  clear_interruption_for_testing();
  struct sigaction after {};
  ::sigaction(SIGHUP, nullptr, &after);
  EXPECT_EQ(after.sa_handler, before.sa_handler);
}

TEST_F(Interruption, LeavesTheExecutorStartingNothing) {
  interrupt(SIGTERM);
  ProcessExecutor executor;
  ProcessSpec spec;
  spec.argv = {"/bin/true"};
  const ProcessResult result = executor.run(spec);
  clear_interruption_for_testing();
  EXPECT_EQ(result.outcome, ProcessOutcome::kInterrupted);
  EXPECT_EQ(result.pid, -1);
  EXPECT_EQ(result.reason(), "interrupted by SIGTERM");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
