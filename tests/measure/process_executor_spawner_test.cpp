// Runs started through perfgate-spawner: peak memory without perfgate's own floor, the
// spawner's lifetime, and the fallback when it is missing. None of these time anything.
#include <gtest/gtest.h>
#include <sched.h>
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

#include "measure/interruption.hpp"
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
// program's name), zombies included: their pids, a zombie's negated.
std::vector<pid_t> spawner_processes() {
  std::vector<pid_t> found;
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
    if (name == "perfgate-spawne" && parent == ::getpid()) {
      const auto pid = static_cast<pid_t>(std::stol(text.substr(0, open)));
      found.push_back(state == 'Z' ? -pid : pid);
    }
  }
  return found;
}

int spawner_children() {
  return static_cast<int>(spawner_processes().size());
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

// Three runs of /bin/true through `executor`; one spawner started them all.
void run_three_through_one_spawner(ProcessExecutor& executor) {
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(executor.run(spec_for({"/bin/true"})).succeeded());
  EXPECT_EQ(spawner_children(), 1);
}

// What perfgate says once when the spawner at `path` cannot be started.
std::string missing_spawner_warning(const std::filesystem::path& path) {
  return "perfgate: warning: perfgate-spawner is not used (" + path.string() +
         ": No such file or directory); perfgate starts the runs itself, so each run's peak "
         "memory includes perfgate's own resident set. Install perfgate-spawner beside "
         "perfgate, or set PERFGATE_SPAWNER to its path.\n";
}

TEST(ProcessExecutorSpawner, KeepsOneSpawnerForAllRunsAndStopsItWithTheExecutor) {
  {
    ProcessExecutor executor;
    EXPECT_EQ(spawner_children(), 0);
    run_three_through_one_spawner(executor);
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
  EXPECT_EQ(warnings, missing_spawner_warning(dir / "no-such-spawner"));
}

// `perfgate run` starts the spawner while it describes the host, before the executor exists.
TEST(ProcessExecutorSpawner, UsesTheSpawnerStartedAheadForAllRuns) {
  {
    auto started = start_spawner_ahead();
    ProcessExecutor executor;
    executor.adopt_spawner(std::move(started));
    EXPECT_EQ(spawner_children(), 1);
    run_three_through_one_spawner(executor);
    EXPECT_TRUE(executor.uses_spawner());
  }
  EXPECT_EQ(spawner_children(), 0);
}

TEST(ProcessExecutorSpawner, WarnsWhenTheSpawnerStartedAheadCouldNotStartAndRunsItself) {
  const TempDir dir;
  ProcessExecutorOptions options;
  options.spawner = dir / "no-such-spawner";
  auto started = start_spawner_ahead(options);
  ProcessExecutor executor(options);
  ::testing::internal::CaptureStderr();
  executor.adopt_spawner(std::move(started));
  const std::string warning = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(warning, missing_spawner_warning(dir / "no-such-spawner"));
  const ProcessResult result = executor.run(spec_for({"/bin/true"}));
  EXPECT_TRUE(result.succeeded()) << result.reason();
  EXPECT_FALSE(executor.uses_spawner());
  EXPECT_EQ(spawner_children(), 0);
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

ProcessSpec child_spec(std::vector<std::string> args) {
  args.insert(args.begin(), PERFGATE_TEST_CHILD);
  return spec_for(std::move(args));
}

// A run that leaves a file behind when it runs at all (the test child's metrics mode).
ProcessSpec marking_spec(const std::filesystem::path& marker) {
  ProcessSpec spec = child_spec({"metrics"});
  spec.env["PERFGATE_METRICS_OUT"] = marker.string();
  return spec;
}

TEST(ProcessExecutorQueue, RunsTheAnnouncedRunAndLogsEachRunsOutputUnderItsHeader) {
  const TempDir dir;
  ProcessSpec first = child_spec({"lines", "1"});
  first.log_path = dir / "runs.log";
  first.log_header = "==> first\n";
  ProcessSpec second = child_spec({"lines", "2"});
  second.log_path = dir / "runs.log";
  second.log_header = "==> second\n";
  ProcessExecutor executor;
  ASSERT_TRUE(executor.uses_spawner());
  executor.expect_after_next(second);
  const ProcessResult a = executor.run(first);
  const ProcessResult b = executor.run(second);
  EXPECT_TRUE(a.succeeded()) << a.reason();
  EXPECT_TRUE(b.succeeded()) << b.reason();
  EXPECT_NE(a.pid, b.pid);
  EXPECT_GT(b.wall_s, 0);
  EXPECT_EQ(b.output_bytes, 14u);
  EXPECT_EQ(read_text_file(dir / "runs.log"), "==> first\nline 1\n==> second\nline 1\nline 2\n");
}

// After a short quiet run perfgate sleeps through the next queued run instead of waiting
// on the spawner's socket: a run that then writes more than its pipe holds waits for
// perfgate to wake and read, and nothing of its output is lost.
TEST(ProcessExecutorQueue, ALoudRunAfterQuietOnesKeepsAllItsOutput) {
  const TempDir dir;
  std::vector<ProcessSpec> runs;
  for (int i = 0; i < 4; ++i) runs.push_back(child_spec({"exit", "0"}));
  runs.push_back(child_spec({"output", "3000000"}));
  runs.push_back(child_spec({"exit", "0"}));
  for (std::size_t i = 0; i < runs.size(); ++i) {
    runs[i].log_path = dir / "runs.log";
    runs[i].log_header = "==> run " + std::to_string(i) + "\n";
    runs[i].log_limit_bytes = 4000000;
  }
  ProcessExecutor executor;
  ASSERT_TRUE(executor.uses_spawner());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (i + 1 < runs.size()) executor.expect_after_next(runs[i + 1]);
    const ProcessResult result = executor.run(runs[i]);
    EXPECT_TRUE(result.succeeded()) << i << ": " << result.reason();
    EXPECT_EQ(result.output_bytes, i == 4 ? 3000000u : 0u) << i;
  }
  const std::string log = read_text_file(dir / "runs.log");
  EXPECT_EQ(log.size(), 3000000u + 6 * std::string("==> run 0\n").size());
  EXPECT_EQ(log.find("==> run 5\n"), log.size() - std::string("==> run 5\n").size());
}

// Short quiet runs are queued up to queue_depth deep: each still runs once, in order, with
// its own output under its own header, and its own result.
TEST(ProcessExecutorQueue, RunsADeepQueueInOrderWithEachRunsOutputUnderItsHeader) {
  const TempDir dir;
  std::vector<ProcessSpec> runs;
  std::string expected_log;
  for (int i = 0; i < 40; ++i) {
    ProcessSpec run = child_spec({"lines", std::to_string(i % 3)});
    run.env["PERFGATE_METRICS_OUT"] = (dir / ("marker-" + std::to_string(i))).string();
    run.log_path = dir / "runs.log";
    run.log_header = "==> run " + std::to_string(i) + "\n";
    expected_log += run.log_header;
    for (int line = 1; line <= i % 3; ++line) expected_log += "line " + std::to_string(line) + "\n";
    runs.push_back(run);
  }
  ProcessExecutorOptions options;
  options.queue_depth = 8;
  // Runs shorter than half the sampler's interval count as short, under a sanitizer too.
  options.sample_interval = std::chrono::milliseconds(1000);
  ProcessExecutor executor(options);
  ASSERT_TRUE(executor.uses_spawner());
  ASSERT_EQ(executor.runs_to_announce(), 7u);
  std::size_t announced = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (; announced < std::min(runs.size(), i + 1 + 7); ++announced) {
      if (announced > i) executor.expect_after_next(runs[announced]);
    }
    const ProcessResult result = executor.run(runs[i]);
    EXPECT_TRUE(result.succeeded()) << i << ": " << result.reason();
    EXPECT_EQ(result.output_bytes, (i % 3) * 7u) << i;
  }
  EXPECT_EQ(read_text_file(dir / "runs.log"), expected_log);
}

// A run that fails with runs queued behind it: none of them starts, and a run asked for
// next (a cleanup) runs at once.
TEST(ProcessExecutorQueue, StartsNoneOfADeepQueueAfterARunThatFailed) {
  const TempDir dir;
  ProcessExecutorOptions options;
  options.queue_depth = 8;
  // Runs shorter than half the sampler's interval count as short, under a sanitizer too.
  options.sample_interval = std::chrono::milliseconds(1000);
  ProcessExecutor executor(options);
  ASSERT_TRUE(executor.uses_spawner());
  // Short quiet runs first, so that the queue is deep when the failing one comes.
  std::vector<ProcessSpec> runs;
  for (int i = 0; i < 30; ++i) runs.push_back(marking_spec(dir / ("marker-" + std::to_string(i))));
  runs[12] = child_spec({"exit", "3"});
  std::size_t announced = 0;
  for (std::size_t i = 0; i <= 12; ++i) {
    for (; announced < std::min(runs.size(), i + 1 + 7); ++announced) {
      if (announced > i) executor.expect_after_next(runs[announced]);
    }
    const ProcessResult result = executor.run(runs[i]);
    EXPECT_EQ(result.exit_code, i == 12 ? 3 : 0) << i;
  }
  EXPECT_TRUE(executor.run(child_spec({"exit", "0"})).succeeded());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (i == 12) continue;
    EXPECT_EQ(std::filesystem::exists(dir / ("marker-" + std::to_string(i))), i < 12) << i;
  }
  EXPECT_TRUE(executor.uses_spawner());
}

TEST(ProcessExecutorQueue, NeverStartsTheAnnouncedRunAfterARunThatFailed) {
  const TempDir dir;
  ProcessExecutor executor;
  ASSERT_TRUE(executor.uses_spawner());
  executor.expect_after_next(marking_spec(dir / "marker"));
  const ProcessResult failed = executor.run(child_spec({"exit", "3"}));
  EXPECT_EQ(failed.exit_code, 3);
  // The runner asks for the cleanup instead: the announced run is dropped, never run.
  const ProcessResult next = executor.run(child_spec({"exit", "0"}));
  EXPECT_TRUE(next.succeeded()) << next.reason();
  EXPECT_FALSE(std::filesystem::exists(dir / "marker"));
  // Asked for after all, it runs.
  EXPECT_TRUE(executor.run(marking_spec(dir / "marker")).succeeded());
  EXPECT_TRUE(std::filesystem::exists(dir / "marker"));
}

TEST(ProcessExecutorQueue, ARunSkippedAfterAFailureStillRunsWhenAskedFor) {
  const TempDir dir;
  ProcessExecutor executor;
  ASSERT_TRUE(executor.uses_spawner());
  const ProcessSpec second = marking_spec(dir / "second");
  const ProcessSpec third = marking_spec(dir / "third");
  executor.expect_after_next(second);
  EXPECT_EQ(executor.run(child_spec({"exit", "3"})).exit_code, 3);
  // The spawner skipped the second run, and skips the third queued behind it; asked for,
  // the second runs, and the third waits for its own call.
  executor.expect_after_next(third);
  const ProcessResult result = executor.run(second);
  EXPECT_TRUE(result.succeeded()) << result.reason();
  EXPECT_TRUE(std::filesystem::exists(dir / "second"));
  EXPECT_FALSE(std::filesystem::exists(dir / "third"));
  EXPECT_TRUE(executor.run(third).succeeded());
  EXPECT_TRUE(std::filesystem::exists(dir / "third"));
  EXPECT_TRUE(executor.uses_spawner());
}

TEST(ProcessExecutorQueue, KillsTheAnnouncedRunWhenAnotherRunIsAskedFor) {
  const TempDir dir;
  ProcessExecutor executor;
  ASSERT_TRUE(executor.uses_spawner());
  executor.expect_after_next(child_spec({"hang", (dir / "pids").string()}));
  EXPECT_TRUE(executor.run(child_spec({"exit", "0"})).succeeded());
  // The spawner starts the announced run the moment the first ends.
  pid_t leader = 0;
  for (int i = 0; i < 3000 && leader == 0; ++i) {
    std::ifstream(dir / "pids") >> leader;
    if (leader == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_GT(leader, 0);
  const ProcessResult other = executor.run(child_spec({"exit", "4"}));
  EXPECT_EQ(other.exit_code, 4);
  EXPECT_TRUE(process_group_is_gone(leader)) << "the cancelled run's group outlived it";
}

TEST(ProcessExecutorQueue, AnInterruptionEndsTheRunAndStartsNoAnnouncedOne) {
  const TempDir dir;
  ProcessExecutor executor;
  ASSERT_TRUE(executor.uses_spawner());
  executor.expect_after_next(marking_spec(dir / "marker"));
  std::thread interrupter([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    interrupt(SIGTERM);
  });
  const ProcessResult result = executor.run(child_spec({"sleep", "30"}));
  interrupter.join();
  EXPECT_EQ(result.outcome, ProcessOutcome::kInterrupted);
  EXPECT_EQ(result.signal, SIGTERM);
  EXPECT_EQ(executor.run(child_spec({"exit", "0"})).outcome, ProcessOutcome::kInterrupted);
  clear_interruption_for_testing();
  EXPECT_TRUE(executor.run(child_spec({"exit", "0"})).succeeded());
  EXPECT_FALSE(std::filesystem::exists(dir / "marker"));
}

TEST(ProcessExecutorQueue, TheSpawnerKeepsTheTimeoutOfAQueuedRun) {
  const TempDir dir;
  ProcessExecutor executor;
  ASSERT_TRUE(executor.uses_spawner());
  ProcessSpec slow = child_spec({"sleep", "30"});
  slow.timeout_s = 0.3;
  executor.expect_after_next(slow);
  EXPECT_TRUE(executor.run(child_spec({"exit", "0"})).succeeded());
  const ProcessResult result = executor.run(slow);
  EXPECT_EQ(result.outcome, ProcessOutcome::kTimedOut);
  EXPECT_EQ(result.timeout_s, 0.3);
  EXPECT_TRUE(process_group_is_gone(result.pid));
}

// The spawner starts runs with vfork and execve, looking a name up as posix_spawnp does:
// on its own PATH (perfgate's), past a folder whose file may not be run, and without a
// shell for a file that is not a program.
TEST(ProcessExecutorSpawner, LooksProgramsUpOnPathAsPosixSpawnpDoes) {
  const TempDir dir;
  const auto refused = dir.write("refused/prog", "#!/bin/sh\nexit 0\n");
  ::chmod(refused.c_str(), 0644);
  const auto runs = dir.write("runs/prog", "#!/bin/sh\nexit 3\n");
  ::chmod(runs.c_str(), 0755);
  const auto text = dir.write("text/plain", "exit 0\n");
  ::chmod(text.c_str(), 0755);
  const std::string saved_path = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "";
  const auto run_with_path = [&](const std::string& path, const std::string& program) {
    ::setenv("PATH", path.c_str(), 1);
    ProcessExecutor executor;  // its spawner starts with this PATH
    EXPECT_TRUE(executor.uses_spawner());
    ProcessResult result = executor.run(spec_for({program}));
    ::setenv("PATH", saved_path.c_str(), 1);
    return result;
  };
  const std::string refused_folder = (dir / "refused").string();
  const std::string runs_folder = (dir / "runs").string();
  const ProcessResult found = run_with_path(refused_folder + "::" + runs_folder, "prog");
  EXPECT_EQ(found.outcome, ProcessOutcome::kExited) << found.reason();
  EXPECT_EQ(found.exit_code, 3);
  const ProcessResult denied = run_with_path("/nonexistent:" + refused_folder, "prog");
  EXPECT_EQ(denied.outcome, ProcessOutcome::kFailedToStart);
  EXPECT_EQ(denied.error, "prog: Permission denied");
  const ProcessResult missing = run_with_path(runs_folder, "perfgate-no-such-program");
  EXPECT_EQ(missing.error, "perfgate-no-such-program: No such file or directory");
  const ProcessResult not_a_program = run_with_path(saved_path, text.string());
  EXPECT_EQ(not_a_program.outcome, ProcessOutcome::kFailedToStart);
  EXPECT_EQ(not_a_program.error, text.string() + ": Exec format error");
}

// The pid of this process's child running perfgate-spawner, or 0.
pid_t spawner_child() {
  for (const pid_t pid : spawner_processes())
    if (pid > 0) return pid;
  return 0;
}

// The "Cpus_allowed_list:" line of a process's (or this thread's) status, with its newline.
std::string cpus_line(const std::string& status_path) {
  std::ifstream status(status_path);
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Cpus_allowed_list:", 0) == 0) return line + "\n";
  }
  return "";
}

// A PATH that makes every start the kernel's way wait longer than the spawner's keep rule
// allows (src/spawner/keep_rule.h): 4,000 folders that do not exist before `path`'s, each a
// failed execve of about 1 µs as the spawner looks a program up (4-8 ms in all here), so
// that it keeps runs on its own CPU. Checked once by hand: with the child's own restore
// removed, the test below fails with runs allowed only CPU 0 or 1.
std::string path_of_missing_folders_then(const std::string& path) {
  std::string padded;
  for (int folder = 0; folder < 4000; ++folder)
    padded += "/perfgate-missing/" + std::to_string(folder) + ":";
  return padded + path;
}

// Runs `grep` (looked up on that PATH) `runs` times through one spawner; what each run read
// as its own allowed CPUs, and the spawner's afterwards.
std::pair<std::string, std::string> allowed_cpus_of_runs(int runs) {
  const TempDir dir;
  const std::string saved_path = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "";
  ::setenv("PATH", path_of_missing_folders_then(saved_path).c_str(), 1);
  ProcessExecutor executor;
  const bool spawner = executor.uses_spawner();  // it starts with this PATH
  ::setenv("PATH", saved_path.c_str(), 1);
  EXPECT_TRUE(spawner);
  ProcessSpec spec = spec_for({"grep", "Cpus_allowed_list", "/proc/self/status"});
  spec.log_path = dir / "cpus.log";
  for (int run = 0; run < runs; ++run) {
    const ProcessResult result = executor.run(spec);
    EXPECT_TRUE(result.succeeded()) << result.reason();
  }
  return {read_text_file(dir / "cpus.log"),
          cpus_line("/proc/" + std::to_string(spawner_child()) + "/status")};
}

std::string times(int count, const std::string& text) {
  std::string repeated;
  for (int i = 0; i < count; ++i) repeated += text;
  return repeated;
}

// The spawner keeps a run on its own CPU while it is created, and the run gets every CPU
// back before it execs: the program never runs on fewer CPUs than perfgate may use.
TEST(ProcessExecutorSpawner, EveryRunMayUseAllOfPerfgatesCpusAfterStartsThatWaited) {
  const std::string own = cpus_line("/proc/thread-self/status");
  ASSERT_FALSE(own.empty());
  const auto [runs, spawner] = allowed_cpus_of_runs(40);
  EXPECT_EQ(runs, times(40, own));
  EXPECT_EQ(spawner, own);
}

// Started from one CPU (taskset -c N perfgate run ...), the runs stay on it.
TEST(ProcessExecutorSpawner, RunsOfAPerfgateAllowedOneCpuAreAllowedOnlyThatOne) {
  cpu_set_t saved;
  ASSERT_EQ(::sched_getaffinity(0, sizeof saved, &saved), 0);
  int first = 0;
  while (first < CPU_SETSIZE && !CPU_ISSET(first, &saved)) ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(::sched_setaffinity(0, sizeof one, &one), 0);
  const auto [runs, spawner] = allowed_cpus_of_runs(20);
  ::sched_setaffinity(0, sizeof saved, &saved);
  const std::string expected = "Cpus_allowed_list:\t" + std::to_string(first) + "\n";
  EXPECT_EQ(runs, times(20, expected));
  EXPECT_EQ(spawner, expected);
}

TEST(ProcessExecutorSpawner, EndsTheRunItselfWhenTheSpawnerDiesDuringIt) {
  const TempDir dir;
  ProcessExecutor executor;
  ASSERT_TRUE(executor.uses_spawner());
  std::thread killer([&] {
    for (int i = 0; i < 3000 && !std::filesystem::exists(dir / "pids"); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (const pid_t spawner = spawner_child()) ::kill(spawner, SIGKILL);
  });
  const ProcessResult result = executor.run(child_spec({"hang", (dir / "pids").string()}));
  killer.join();
  pid_t leader = 0;
  std::ifstream(dir / "pids") >> leader;
  ASSERT_GT(leader, 0);
  // The run's leader came to this process (a subreaper), which killed its group.
  EXPECT_EQ(result.pid, leader);
  EXPECT_EQ(result.outcome, ProcessOutcome::kSignaled);
  EXPECT_EQ(result.signal, SIGKILL);
  EXPECT_TRUE(process_group_is_gone(leader));
  EXPECT_FALSE(executor.uses_spawner());
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
