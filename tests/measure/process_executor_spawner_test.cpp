// Runs started through perfgate-spawner: peak memory without perfgate's own floor, the
// spawner's lifetime, and the fallback when it is missing. None of these time anything.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "measure/process_executor.hpp"
#include "support/temp_dir.hpp"

extern char** environ;

namespace perfgate {

namespace PERFGATE_TEST_FILE {

ProcessSpec spec_for(std::vector<std::string> argv) {
  ProcessSpec spec;
  spec.argv = std::move(argv);
  return spec;
}

// Children of this process running perfgate-spawner (the kernel keeps 15 characters of a
// program's name), zombies included.
int spawner_children() {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream stat(entry.path() / "stat");
    std::string text;
    if (!std::getline(stat, text)) continue;
    const auto close = text.rfind(')');
    const auto open = text.find('(');
    if (close == std::string::npos || open == std::string::npos) continue;
    const std::string name = text.substr(open + 1, close - open - 1);
    int parent = 0;
    char state = 0;
    std::istringstream(text.substr(close + 1)) >> state >> parent;
    if (name == "perfgate-spawne" && parent == ::getpid()) ++count;
  }
  return count;
}

bool process_group_is_gone(pid_t group) {
  return ::kill(-group, 0) == -1 && errno == ESRCH;
}

bool wait_until_gone(pid_t group) {
  for (int i = 0; i < 1000 && !process_group_is_gone(group); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return process_group_is_gone(group);
}

TEST(ProcessExecutorSpawner, PeakMemoryOfTrueIsBelowTwoMegabytes) {
  ProcessExecutor executor;
  const ProcessResult result = executor.run(spec_for({"/bin/true"}));
  ASSERT_TRUE(result.succeeded()) << result.reason();
  EXPECT_TRUE(executor.uses_spawner());
  EXPECT_GT(result.peak_rss_mb, 0.0);
  EXPECT_LT(result.peak_rss_mb, 2.0);
}

TEST(ProcessExecutorSpawner, ProgramTouchingSixMegabytesReadsSixToEight) {
  const ProcessResult result = ProcessExecutor().run(spec_for({PERFGATE_MEMORY_CHILD, "6"}));
  ASSERT_TRUE(result.succeeded()) << result.reason();
  EXPECT_GE(result.peak_rss_mb, 6.0);
  EXPECT_LE(result.peak_rss_mb, 8.0);
}

TEST(ProcessExecutorSpawner, SixMegabytesMoreReadsAsSixMegabytesMore) {
  ProcessExecutor executor;
  const double small = executor.run(spec_for({PERFGATE_MEMORY_CHILD, "1"})).peak_rss_mb;
  const double large = executor.run(spec_for({PERFGATE_MEMORY_CHILD, "7"})).peak_rss_mb;
  EXPECT_NEAR(large - small, 6.0, 0.5);
}

TEST(ProcessExecutorSpawner, KeepsOneSpawnerForAllRunsAndStopsItWithTheExecutor) {
  {
    ProcessExecutor executor;
    EXPECT_EQ(spawner_children(), 0);
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(executor.run(spec_for({"/bin/true"})).succeeded());
    EXPECT_EQ(spawner_children(), 1);
  }
  EXPECT_EQ(spawner_children(), 0);
}

TEST(ProcessExecutorSpawner, StartsRunsItselfAndWarnsOnceWhenTheSpawnerIsMissing) {
  const TempDir dir;
  ProcessExecutorOptions options;
  options.spawner = dir / "no-such-spawner";
  ProcessExecutor executor(options);
  ::testing::internal::CaptureStderr();
  const ProcessResult first = executor.run(spec_for({"/bin/true"}));
  const ProcessResult second = executor.run(spec_for({"/bin/true"}));
  const std::string warnings = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(first.succeeded()) << first.reason();
  EXPECT_TRUE(second.succeeded()) << second.reason();
  EXPECT_FALSE(executor.uses_spawner());
  const std::string expected =
      "perfgate: warning: perfgate-spawner is not used (" + (dir / "no-such-spawner").string() +
      ": No such file or directory); perfgate starts the runs itself, so each run's peak "
      "memory includes perfgate's own resident set. Install perfgate-spawner beside perfgate, "
      "or set PERFGATE_SPAWNER to its path.\n";
  EXPECT_EQ(warnings, expected);
}

TEST(ProcessExecutorSpawner, FindsTheSpawnerNamedByTheEnvironment) {
  ::setenv("PERFGATE_SPAWNER", PERFGATE_SPAWNER_PROGRAM, 1);
  const std::filesystem::path located = locate_spawner();
  ::unsetenv("PERFGATE_SPAWNER");
  EXPECT_EQ(located, std::filesystem::path(PERFGATE_SPAWNER_PROGRAM));
}

TEST(ProcessExecutorSpawner, LooksForTheSpawnerBesideTheRunningProgram) {
  ::unsetenv("PERFGATE_SPAWNER");
  EXPECT_EQ(locate_spawner(),
            std::filesystem::read_symlink("/proc/self/exe").parent_path() / "perfgate-spawner");
}

TEST(ProcessExecutorSpawner, KillsTheRunWhenPerfgateIsKilled) {
  const TempDir dir;
  dir.write("hang.toml", std::string(R"(benchmark_id = "hang"
command = [")") + PERFGATE_TEST_CHILD +
                             R"(", "hang", ")" + (dir / "pids").string() + R"("]
[run_config]
num_warmup_runs = 0
num_measurement_runs = 1
timeout_s = 600
)");
  std::vector<std::string> args{PERFGATE_BINARY,
                                "run",
                                (dir / "hang.toml").string(),
                                "--results-dir",
                                (dir / "results").string(),
                                "--no-progress"};
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t perfgate = -1;
  ASSERT_EQ(::posix_spawn(&perfgate, PERFGATE_BINARY, nullptr, nullptr, argv.data(), environ), 0);
  pid_t leader = 0;
  for (int i = 0; i < 3000 && leader == 0; ++i) {
    std::ifstream(dir / "pids") >> leader;
    if (leader == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_GT(leader, 0);
  ::kill(perfgate, SIGKILL);
  int status = 0;
  ::waitpid(perfgate, &status, 0);
  EXPECT_TRUE(wait_until_gone(leader)) << "the run's process group outlived perfgate";
  // The orphaned spawner comes to this process when it is a subreaper: reap it once it exits.
  for (int i = 0; i < 500 && spawner_children() > 0; ++i) {
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
