#include "measure/process_executor.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <optional>

#include "measure/bounded_log.hpp"
#include "measure/cgroup_memory.hpp"
#include "measure/file_descriptor.hpp"
#include "measure/interruption.hpp"
#include "measure/process_group_sampler.hpp"
#include "measure/process_tree_reaper.hpp"
#include "measure/spawn.hpp"
#include "measure/spawner_client.hpp"

namespace perfgate {

namespace {

using Clock = std::chrono::steady_clock;

/// Without a pidfd the leader's exit is noticed by polling this often.
constexpr auto kExitPollInterval = std::chrono::milliseconds(2);
/// Timeouts beyond this are treated as this (keeps the clock arithmetic finite).
constexpr double kLongestTimeoutS = 1e9;

FileDescriptor open_pidfd(pid_t pid) {
  return FileDescriptor(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
}

timespec to_timespec(Clock::duration duration) {
  const auto nanoseconds = std::max<std::int64_t>(
      0, std::chrono::duration_cast<std::chrono::nanoseconds>(duration).count());
  return timespec{static_cast<time_t>(nanoseconds / 1'000'000'000),
                  static_cast<long>(nanoseconds % 1'000'000'000)};
}

enum class PipeState { kRead, kEmpty, kClosed };

// Reads once from the non-blocking output pipe into the log.
PipeState read_available(int fd, BoundedLog& log) {
  std::array<char, 1 << 16> buffer;
  for (;;) {
    const ssize_t length = ::read(fd, buffer.data(), buffer.size());
    if (length > 0) {
      log.write(std::string_view(buffer.data(), static_cast<std::size_t>(length)));
      return PipeState::kRead;
    }
    if (length < 0 && errno == EINTR) continue;
    return length < 0 && errno == EAGAIN ? PipeState::kEmpty : PipeState::kClosed;
  }
}

}  // namespace

ProcessExecutor::ProcessExecutor(ProcessExecutorOptions options)
    : options_(std::move(options)), ignored_signals_(ignored_signals()) {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  if (!options_.use_cgroup) return;
  if (options_.cgroup_root) {
    if (cgroup_memory_usable(*options_.cgroup_root)) cgroup_parent_ = options_.cgroup_root;
  } else {
    cgroup_parent_ = detect_cgroup_memory_root();
  }
}

ProcessExecutor::~ProcessExecutor() = default;

bool ProcessExecutor::uses_spawner() {
  if (!spawner_tried_) {
    spawner_tried_ = true;
    std::string error;
    spawner_ = SpawnerClient::start(options_.spawner.value_or(locate_spawner()), error);
    if (!spawner_) stop_using_spawner(error);
  }
  return spawner_ != nullptr;
}

void ProcessExecutor::stop_using_spawner(const std::string& reason) {
  spawner_.reset();
  fmt::print(stderr,
             "perfgate: warning: perfgate-spawner is not used ({}); perfgate starts the runs "
             "itself, so each run's peak memory includes perfgate's own resident set. Install "
             "perfgate-spawner beside perfgate, or set PERFGATE_SPAWNER to its path.\n",
             reason);
}

ProcessResult ProcessExecutor::run(const ProcessSpec& spec) {
  ProcessResult result;
  if (const int signal = interruption_signal()) {
    // perfgate is stopping: nothing new starts, not even a cleanup hook.
    result.outcome = ProcessOutcome::kInterrupted;
    result.signal = signal;
    return result;
  }
  std::optional<BoundedLog> log;
  if (spec.log_path) {
    log.emplace(*spec.log_path, spec.log_limit_bytes);
    if (!spec.log_header.empty()) log->note(spec.log_header);
  }

  const auto started_at = Clock::now();
  SpawnedProcess child;
  bool via_spawner = !spec.argv.empty() && uses_spawner();
  if (via_spawner) {
    OutputPipe pipe;
    if (log) pipe = open_output_pipe(child.error);
    if (!log || pipe.read_end.valid()) {
      const auto started = spawner_->start_run(spec, log ? pipe.write_end.get() : -1);
      if (!started.alive) {
        stop_using_spawner("it stopped before starting a run");
        via_spawner = false;
      } else {
        child.pid = started.pid;
        child.output = std::move(pipe.read_end);
        if (!child.started()) child.error = describe_failure(spec, started.error);
      }
    }
  }
  if (!via_spawner && !orphan_guard_) orphan_guard_.emplace();
  // Children there before the run (a daemon a setup hook started, the guard) are not the
  // run's.
  std::optional<std::vector<pid_t>> children_before;
  if (!via_spawner && spec.kill_escapees) children_before = children_of_this_process();
  if (!via_spawner) child = spawn_process(spec, log.has_value(), ignored_signals_);
  if (!child.started()) {
    result.error = child.error;
    if (log) log->finish();
    return result;
  }
  const pid_t pid = child.pid;
  result.pid = pid;
  if (!via_spawner) orphan_guard_->watch(pid);
  // Until the leader is reaped (by us or by the spawner) an interruption kills the group.
  const LiveProcessGroup live_group(pid);

  std::optional<CgroupMemory> cgroup;
  if (cgroup_parent_) {
    cgroup.emplace(*cgroup_parent_, fmt::format("perfgate-{}-{}", ::getpid(), ++runs_started_));
    cgroup->add(pid);
  }

  const auto sample_interval = std::max(options_.sample_interval, std::chrono::milliseconds(1));
  std::optional<Clock::time_point> deadline;
  if (spec.timeout_s) {
    const std::chrono::duration<double> limit(std::min(*spec.timeout_s, kLongestTimeoutS));
    deadline = started_at + std::chrono::duration_cast<Clock::duration>(limit);
  }
  ProcessGroupSampler sampler;
  auto next_sample_at = started_at + sample_interval;
  // Started directly, the leader's exit shows on its pidfd; started by the spawner, on the
  // spawner's socket, when it reports the end of the run.
  const FileDescriptor pidfd = via_spawner ? FileDescriptor() : open_pidfd(pid);
  const int exit_fd = via_spawner ? spawner_->socket() : pidfd.get();

  // Slot 0: the output pipe (-1 once closed or never opened, which poll ignores);
  // slot 1: readable once the leader has exited.
  std::array<pollfd, 2> watched{pollfd{child.output.valid() ? child.output.get() : -1, POLLIN, 0},
                                pollfd{exit_fd, POLLIN, 0}};
  bool timed_out = false;
  bool kill_requested = false;
  TreeUsage usage;
  int leader_status = 0;
  std::optional<double> wall_s;
  Clock::time_point ended_at;
  for (;;) {
    auto now = Clock::now();
    if (now >= next_sample_at) {
      sampler.sample(pid);
      now = Clock::now();
      next_sample_at = now + sample_interval;
    }
    auto wake_at = next_sample_at;
    if (deadline && !kill_requested) wake_at = std::min(wake_at, *deadline);
    if (exit_fd < 0) wake_at = std::min(wake_at, now + kExitPollInterval);
    const timespec wait = to_timespec(wake_at - now);
    watched[0].revents = watched[1].revents = 0;
    ::ppoll(watched.data(), watched.size(), &wait, nullptr);

    if (watched[0].revents != 0 && read_available(watched[0].fd, *log) == PipeState::kClosed) {
      watched[0].fd = -1;
    }
    now = Clock::now();
    if (via_spawner) {
      if (watched[1].revents != 0) {
        ended_at = now;
        if (const auto finished = spawner_->read_finished()) {
          leader_status = finished->status;
          timed_out = finished->killed != 0;
          usage.add_microseconds(finished->user_us, finished->system_us, finished->max_rss_kib);
          wall_s = static_cast<double>(finished->wall_ns) / 1e9;
          result.escapees_killed = finished->escaped;
        } else {
          // Its children, the run's leader among them, are ours now (we are their subreaper).
          stop_using_spawner("it stopped during a run");
          timed_out = kill_requested;
          leader_status = kill_and_reap_group(pid, usage);
        }
        break;
      }
      if (((deadline && now >= *deadline) || interruption_signal() != 0) && !kill_requested) {
        spawner_->kill_run();
        kill_requested = true;
      }
      continue;
    }
    const bool exited = pidfd.valid() ? watched[1].revents != 0 : leader_exited(pid);
    if (exited || (deadline && now >= *deadline) || interruption_signal() != 0) {
      ended_at = now;
      timed_out = !exited;
      leader_status = kill_and_reap_group(pid, usage);
      orphan_guard_->watch(0);
      if (spec.kill_escapees) {
        const auto killed = children_before ? kill_escapees(*children_before) : std::nullopt;
        result.escapees_killed = killed.value_or(-1);
      }
      break;
    }
  }

  // Whatever is still in the pipe was written before the group died; a process that left
  // the group may hold the pipe open, so read only what is there instead of waiting for EOF.
  if (watched[0].fd >= 0) {
    while (read_available(watched[0].fd, *log) == PipeState::kRead) {
    }
  }

  result.wall_s = wall_s.value_or(std::chrono::duration<double>(ended_at - started_at).count());
  result.user_s = usage.user_s;
  result.system_s = usage.system_s;
  double peak_bytes = std::max(static_cast<double>(usage.max_rss_kib) * 1024.0,
                               static_cast<double>(sampler.peak_bytes()));
  if (cgroup) {
    if (const auto cgroup_peak = cgroup->peak_bytes()) {
      peak_bytes = std::max(peak_bytes, static_cast<double>(*cgroup_peak));
    }
  }
  result.peak_rss_mb = peak_bytes / (1024.0 * 1024.0);

  if (const int signal = interruption_signal()) {
    result.outcome = ProcessOutcome::kInterrupted;
    result.signal = signal;
  } else if (timed_out) {
    result.outcome = ProcessOutcome::kTimedOut;
    result.timeout_s = *spec.timeout_s;
  } else if (WIFSIGNALED(leader_status)) {
    result.outcome = ProcessOutcome::kSignaled;
    result.signal = WTERMSIG(leader_status);
  } else {
    result.outcome = ProcessOutcome::kExited;
    result.exit_code = WEXITSTATUS(leader_status);
  }
  if (log) {
    log->finish();
    result.output_bytes = log->total_bytes();
    result.dropped_bytes = log->dropped_bytes();
  }
  return result;
}

}  // namespace perfgate
