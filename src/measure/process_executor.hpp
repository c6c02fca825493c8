#pragma once
// The real executor: runs started by perfgate-spawner (or posix_spawn), one process group per run,
// timeouts that kill the whole group, CPU and peak memory of the whole process tree.
#include <signal.h>

#include <array>
#include <chrono>
#include <deque>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "measure/bounded_log.hpp"
#include "measure/cgroup_memory.hpp"
#include "measure/executor.hpp"
#include "measure/file_descriptor.hpp"
#include "measure/orphan_guard.hpp"
#include "measure/spawner_client.hpp"

namespace perfgate {

struct ProcessExecutorOptions {
  /// How often the /proc sampler sums the RSS of the process group while a run lasts.
  std::chrono::milliseconds sample_interval{10};
  /// cgroup v2 mount to create a per-run cgroup under (for memory.peak). nullopt: detect
  /// (/sys/fs/cgroup when it is cgroup2 with the memory controller and writable).
  std::optional<std::filesystem::path> cgroup_root;
  bool use_cgroup = true;
  /// The perfgate-spawner program that starts the runs, so that their peak memory does not
  /// include perfgate's own resident set. nullopt: locate_spawner(). When it is empty or
  /// cannot be started, perfgate starts the runs itself and warns once on stderr.
  std::optional<std::filesystem::path> spawner;
  /// How many runs perfgate keeps asked of the spawner, the one in progress included, when
  /// the runs are short and quiet (1: none ahead). Each waits with its own output pipe.
  std::size_t queue_depth = 16;
};

/// perfgate-spawner started before the executor that will use it, or why it could not be.
struct SpawnerStart {
  std::unique_ptr<SpawnerClient> client;
  std::string error;  ///< when `client` is null
};

/// Starts the spawner that `options` names (locate_spawner() when none) on a second thread.
/// `perfgate run` starts it so while it describes the host: a process start waits for a CPU
/// like any other (a few ms behind a busy loop), and this one need not wait after the others.
std::future<SpawnerStart> start_spawner_ahead(const ProcessExecutorOptions& options = {});

/// Starts each run through perfgate-spawner, started at the first run and kept until the
/// executor is destroyed. Makes the calling process a child subreaper (PR_SET_CHILD_SUBREAPER), so
/// that descendants orphaned during a run are re-parented to it and can be reaped and counted.
///
/// Runs announced with expect_after_next() are queued with the spawner while the run before
/// them is in progress, so that the spawner starts each the moment the one before it ends:
/// perfgate's own work between two runs (and waking perfgate at all) is then off the runs'
/// critical path. One run is queued ahead; up to queue_depth - 1 while the runs are short and
/// quiet, so that perfgate can sleep through several of them and handle them together.
class ProcessExecutor final : public Executor {
 public:
  explicit ProcessExecutor(ProcessExecutorOptions options = {});
  /// Throws Error(kIoError) only for perfgate's own I/O: a worker log that cannot be opened
  /// or written.
  ProcessResult run(const ProcessSpec& spec) override;
  void expect_after_next(const ProcessSpec& spec) override;
  std::size_t runs_to_announce() const override;
  ~ProcessExecutor() override;

  /// Whether runs are started by perfgate-spawner; starts it on first use.
  bool uses_spawner();
  /// Uses the spawner start_spawner_ahead() started (waiting for its start to finish) instead
  /// of starting one at the first run; warns now, as the first run would, when it could not
  /// be started. Does nothing once the executor has a spawner or has tried to start one.
  void adopt_spawner(std::future<SpawnerStart> started);

 private:
  /// The spawner this executor uses from now on, or (with a warning) none.
  void take_spawner(SpawnerStart start);
  void stop_using_spawner(const std::string& reason);
  /// `fresh_announcements`: how many of expected_ (the last ones) were announced since the
  /// run() before this one; they follow this run.
  ProcessResult run_with_spawner(const ProcessSpec& spec, std::optional<BoundedLog>& log,
                                 std::size_t fresh_announcements);
  ProcessResult run_directly(const ProcessSpec& spec, std::optional<BoundedLog>& log);
  /// Kills the queued runs, if any, and reads their replies; their specs go back to the
  /// front of the announced ones.
  void cancel_queued();
  /// Asks the spawner for a run of `spec` with an output pipe when it has a log (its read end
  /// in `read_end`). nullopt with `error` set when the pipe cannot be made, with `error`
  /// empty when the spawner is gone.
  std::optional<std::uint32_t> ask_spawner(const ProcessSpec& spec, bool after_success,
                                           FileDescriptor& read_end, std::string& error);
  /// Queues announced runs behind the one in progress, as many as the recent runs allow.
  void queue_announced();
  std::chrono::milliseconds sample_interval() const;
  /// Before waiting for a run that the spawner started as the last one ended: sleeps until
  /// about when it should end, or when more of the runs queued behind it should have ended,
  /// if the runs are short and quiet (the .cpp says why).
  void sleep_through_short_runs(std::chrono::steady_clock::time_point next_sample_at);
  /// The shortest of the recent runs when they were short and quiet enough to queue deep
  /// and sleep through; nullopt otherwise.
  std::optional<std::chrono::nanoseconds> shortest_short_quiet_run() const;
  /// A run that wrote more than this may fill its pipe while perfgate sleeps.
  static constexpr std::size_t kQuietRunBytes = 64 * 1024;
  /// Makes the run's cgroup under cgroup_parent_ and moves `pid` into it.
  void start_cgroup(std::optional<CgroupMemory>& cgroup, pid_t pid);

  ProcessExecutorOptions options_;
  /// Read once: signal dispositions are set at start-up and rarely change afterwards.
  sigset_t ignored_signals_;
  /// Where per-run cgroups are made, resolved once; nullopt when not used.
  std::optional<std::filesystem::path> cgroup_parent_;
  unsigned long runs_started_ = 0;  ///< numbers the per-run cgroups
  std::unique_ptr<SpawnerClient> spawner_;
  bool spawner_tried_ = false;
  /// What expect_after_next() announced and is not queued yet, in order.
  std::deque<ProcessSpec> expected_;
  /// How many of expected_ (the last ones) were announced since the last run() call.
  std::size_t announced_since_run_ = 0;
  /// Runs asked of the spawner ahead of their run() calls, in order (announced before the
  /// ones in expected_).
  struct QueuedRun {
    ProcessSpec spec;
    std::uint32_t id = 0;
    FileDescriptor output;  ///< the read end of its output pipe, when it has a log
  };
  std::deque<QueuedRun> queued_;
  /// The last run the spawner finished: when it ended (when the run queued behind it
  /// started) and how much it wrote; and the shortest of the last kRecentRuns runs that
  /// followed one another in the spawner. A queued run is waited for with a sleep first
  /// (sleep_through_a_short_run).
  struct FinishedRun {
    std::chrono::steady_clock::time_point ended_at;
    std::size_t output_bytes = 0;
  };
  std::optional<FinishedRun> last_finished_;
  static constexpr std::size_t kRecentRuns = 8;
  std::array<std::chrono::nanoseconds, kRecentRuns> recent_walls_{};
  std::size_t recent_count_ = 0;
  /// How late perfgate's last sleeps through a run ended, and how many sleeps it skipped
  /// because they ended too late.
  static constexpr std::size_t kKeptLateness = 8;
  std::array<std::chrono::nanoseconds, kKeptLateness> lateness_{};
  std::size_t lateness_count_ = 0;
  std::size_t sleeps_skipped_ = 0;
  /// The worker log the last run wrote to, kept open for the next.
  std::optional<std::pair<std::filesystem::path, FileDescriptor>> worker_log_;
  /// Kills the run in progress if perfgate dies; only for runs started without the spawner.
  std::optional<OrphanGuard> orphan_guard_;
};

}  // namespace perfgate
