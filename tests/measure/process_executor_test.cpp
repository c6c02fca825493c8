// The real executor against real processes: outcomes, timeouts, start failures and what
// reaches the child.
#include "measure/process_executor.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>

#include "measure/metrics_file.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {

namespace PERFGATE_TEST_FILE {

ProcessSpec spec_for(std::vector<std::string> argv) {
  ProcessSpec spec;
  spec.argv = std::move(argv);
  return spec;
}

ProcessSpec child_spec(std::vector<std::string> args) {
  args.insert(args.begin(), PERFGATE_TEST_CHILD);
  return spec_for(std::move(args));
}

// Runs the test child with `args` and returns what it printed.
std::string output_of(const TempDir& dir, ProcessSpec spec) {
  spec.log_path = dir / "child.log";
  const ProcessResult result = ProcessExecutor().run(spec);
  EXPECT_TRUE(result.succeeded()) << result.reason();
  return read_text_file(dir / "child.log");
}

bool process_group_is_gone(int pgid) {
  return ::kill(-pgid, 0) == -1 && errno == ESRCH;
}

TEST(ProcessExecutor, ReportsASuccessfulExit) {
  const ProcessResult result = ProcessExecutor().run(child_spec({"exit", "0"}));
  EXPECT_EQ(result.outcome, ProcessOutcome::kExited);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.reason(), "ok");
  EXPECT_GT(result.wall_s, 0);
  EXPECT_GT(result.pid, 0);
  EXPECT_GT(result.peak_rss_mb, 0);
  EXPECT_TRUE(process_group_is_gone(result.pid));
}

TEST(ProcessExecutor, ReportsANonZeroExitStatus) {
  const ProcessResult result = ProcessExecutor().run(child_spec({"exit", "3"}));
  EXPECT_EQ(result.outcome, ProcessOutcome::kExited);
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_EQ(result.reason(), "exit status 3");
}

TEST(ProcessExecutor, ReportsACrashBySignal) {
  const ProcessResult result = ProcessExecutor().run(child_spec({"segv"}));
  EXPECT_EQ(result.outcome, ProcessOutcome::kSignaled);
  EXPECT_EQ(result.signal, SIGSEGV);
  EXPECT_EQ(result.reason(), "killed by signal 11 (SIGSEGV)");
}

TEST(ProcessExecutor, KillsTheWholeProcessGroupOnTimeout) {
  const TempDir dir;
  const auto pidfile = dir / "pids";
  ProcessSpec spec = child_spec({"hang", pidfile.string()});
  spec.timeout_s = 0.5;
  const ProcessResult result = ProcessExecutor().run(spec);
  EXPECT_EQ(result.outcome, ProcessOutcome::kTimedOut);
  EXPECT_EQ(result.reason(), "timed out after 0.5 s");
  // No bound on wall_s: the timer starts before the clock that measures the run, so on a
  // loaded machine the run's wall time may read a few ms under the limit (0.497 s seen).

  int leader = 0;
  int grandchild = 0;
  std::ifstream(pidfile) >> leader >> grandchild;
  ASSERT_EQ(leader, result.pid) << "the child did not write its pid file in time";
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(process_group_is_gone(result.pid));
  EXPECT_EQ(::kill(grandchild, 0), -1);
  EXPECT_EQ(errno, ESRCH);
}

TEST(ProcessExecutor, DoesNotWaitForABackgroundProcessThatHoldsTheOutput) {
  const TempDir dir;
  ProcessSpec spec = child_spec({"detach", "sleep", "1000"});
  spec.log_path = dir / "child.log";
  const ProcessResult result = ProcessExecutor().run(spec);
  EXPECT_TRUE(result.succeeded()) << result.reason();
  EXPECT_TRUE(process_group_is_gone(result.pid));
}

TEST(ProcessExecutor, DoesNotWaitForAProcessThatLeftTheGroupAndHoldsTheOutput) {
  const TempDir dir;
  ProcessSpec spec = child_spec({"escape", "sleep", "1000"});
  spec.log_path = dir / "child.log";
  const ProcessResult result = ProcessExecutor().run(spec);
  EXPECT_TRUE(result.succeeded()) << result.reason();
  // The escaped process is beyond the executor's reach: the test cleans it up. It is
  // our child, re-parented to us as the subreaper.
  int escaped = 0;
  std::ifstream(dir / "child.log") >> escaped;
  ASSERT_GT(escaped, 0);
  EXPECT_EQ(::kill(escaped, 0), 0);
  ::kill(escaped, SIGKILL);
  EXPECT_EQ(::waitpid(escaped, nullptr, 0), escaped);
}

TEST(ProcessExecutor, FailsToStartAProgramThatIsNotInPath) {
  const ProcessResult result = ProcessExecutor().run(spec_for({"perfgate-no-such-program"}));
  EXPECT_EQ(result.outcome, ProcessOutcome::kFailedToStart);
  EXPECT_EQ(result.reason(),
            "could not start: perfgate-no-such-program: No such file or directory");
  EXPECT_FALSE(result.succeeded());
}

TEST(ProcessExecutor, FailsToStartAFileThatIsNotExecutable) {
  const TempDir dir;
  const auto script = dir.write("script.sh", "#!/bin/sh\nexit 0\n");
  ::chmod(script.c_str(), 0644);
  const ProcessResult result = ProcessExecutor().run(spec_for({script.string()}));
  EXPECT_EQ(result.outcome, ProcessOutcome::kFailedToStart);
  EXPECT_EQ(result.error, script.string() + ": Permission denied");
}

TEST(ProcessExecutor, FailsToStartInAMissingWorkingDirectory) {
  const TempDir dir;
  ProcessSpec spec = child_spec({"exit", "0"});
  spec.cwd = dir / "missing";
  const ProcessResult result = ProcessExecutor().run(spec);
  EXPECT_EQ(result.outcome, ProcessOutcome::kFailedToStart);
  EXPECT_EQ(result.error,
            "cannot change directory to " + spec.cwd->string() + ": No such file or directory");
}

TEST(ProcessExecutor, FailsToStartAnEmptyCommand) {
  const ProcessResult result = ProcessExecutor().run({});
  EXPECT_EQ(result.reason(), "could not start: no command given (argv is empty)");
}

TEST(ProcessExecutor, PassesEnvironmentOverridesAndKeepsTheRest) {
  const TempDir dir;
  ::setenv("PERFGATE_TEST_INHERITED", "from the parent", 1);
  ::setenv("PERFGATE_TEST_OVERRIDDEN", "from the parent", 1);
  ProcessSpec spec = child_spec({"env", "PERFGATE_TEST_OVERRIDDEN"});
  spec.env = {{"PERFGATE_TEST_OVERRIDDEN", "from the spec"}};
  EXPECT_EQ(output_of(dir, spec), "from the spec\n");
  std::filesystem::remove(dir / "child.log");
  spec.argv.back() = "PERFGATE_TEST_INHERITED";
  EXPECT_EQ(output_of(dir, spec), "from the parent\n");
}

TEST(ProcessExecutor, RunsInTheGivenWorkingDirectory) {
  const TempDir dir;
  ProcessSpec spec = child_spec({"cwd"});
  spec.cwd = dir.path();
  EXPECT_EQ(output_of(dir, spec), std::filesystem::canonical(dir.path()).string() + "\n");
}

TEST(ProcessExecutor, GivesTheChildDevNullAsStandardInput) {
  const TempDir dir;
  EXPECT_EQ(output_of(dir, child_spec({"stdin"})), "/dev/null\n");
}

TEST(ProcessExecutor, StartsTheChildWithDefaultSignalsAndAnEmptyMask) {
  const TempDir dir;
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  struct sigaction previous {};
  ::sigaction(SIGPIPE, &ignore, &previous);
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  ::sigprocmask(SIG_BLOCK, &usr1, nullptr);
  const std::string output = output_of(dir, child_spec({"signals"}));
  ::sigprocmask(SIG_UNBLOCK, &usr1, nullptr);
  ::sigaction(SIGPIPE, &previous, nullptr);
  EXPECT_EQ(output, "SIGPIPE default, SIGUSR1 unblocked\n");
}

TEST(ProcessExecutor, LetsTheChildReportMetricsThroughTheMetricsFile) {
  const TempDir dir;
  ProcessSpec spec = child_spec({"metrics"});
  spec.env = {{"PERFGATE_METRICS_OUT", (dir / "metrics.jsonl").string()}};
  ASSERT_TRUE(ProcessExecutor().run(spec).succeeded());
  const std::vector<ReportedMetric> expected{
      {"decode", 1.5, "s", std::nullopt},
      {"frames", 120, std::nullopt, Direction::kHigherIsBetter},
  };
  EXPECT_EQ(read_metrics_file(dir / "metrics.jsonl"), expected);
}

TEST(ProcessExecutor, IgnoresACgroupFolderItCannotMoveTheChildInto) {
  const TempDir cgroup;
  cgroup.write("cgroup.controllers", "cpu memory\n");
  cgroup.write("cgroup.subtree_control", "memory\n");
  ProcessExecutorOptions options;
  options.cgroup_root = cgroup.path();
  ProcessExecutor executor(options);
  const ProcessResult result = executor.run(child_spec({"exit", "0"}));
  EXPECT_TRUE(result.succeeded()) << result.reason();
  // Nothing but what the test made (and TempDir's .git marker): no per-run cgroup left.
  for (const auto& entry : std::filesystem::directory_iterator(cgroup.path())) {
    const std::string name = entry.path().filename().string();
    EXPECT_TRUE(name == "cgroup.controllers" || name == "cgroup.subtree_control" || name == ".git")
        << name;
  }
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
