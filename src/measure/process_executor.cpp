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
#include <thread>

#include "measure/bounded_log.hpp"
#include "measure/cgroup_memory.hpp"
#include "measure/file_descriptor.hpp"
#include "measure/process_group_sampler.hpp"
#include "measure/spawn.hpp"

namespace perfgate {

namespace {

using Clock = std::chrono::steady_clock;

/// Without a pidfd the leader's exit is noticed by polling this often.
constexpr auto kExitPollInterval = std::chrono::milliseconds(2);
/// How long to keep reaping a killed process group whose members are not yet our
/// children (their dying parents have not been reaped) before giving up on them.
constexpr auto kGroupReapLimit = std::chrono::seconds(5);
/// Timeouts beyond this are treated as this (keeps the clock arithmetic finite).
constexpr double kLongestTimeoutS = 1e9;

double seconds_of(const timeval& time) {
  return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) / 1e6;
}

// CPU time and the largest single-process resident set of everything reaped for one run.
struct TreeUsage {
  double user_s = 0;
  double system_s = 0;
  long max_rss_kib = 0;

  void add(const rusage& usage) {
    user_s += seconds_of(usage.ru_utime);
    system_s += seconds_of(usage.ru_stime);
    max_rss_kib = std::max(max_rss_kib, usage.ru_maxrss);
  }
};

FileDescriptor open_pidfd(pid_t pid) {
  return FileDescriptor(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
}

// Without a pidfd: whether the leader has exited, leaving it a zombie so that its pid (and so the
// process group id) stays reserved until we reap it.
bool leader_exited(pid_t pid) {
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == pid;
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

// Kills what is left of the run's process group and reaps all of it, the zombie leader
// included; returns the leader's wait status. Members that are not yet our children (their parents
// are dying) become ours as orphans, because we are a child subreaper.
int kill_and_reap_group(pid_t leader, TreeUsage& usage) {
  std::optional<int> leader_status;
  const auto give_up_at = Clock::now() + kGroupReapLimit;
  while (::kill(-leader, SIGKILL) == 0) {
    int status = 0;
    rusage reaped_usage{};
    const pid_t reaped = ::wait4(-leader, &status, 0, &reaped_usage);
    if (reaped > 0) {
      usage.add(reaped_usage);
      if (reaped == leader) leader_status = status;
      continue;
    }
    if (errno == EINTR) continue;
    if (Clock::now() >= give_up_at) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  // The group can refuse signals (a set-user-ID member) yet the leader must still be reaped.
  while (!leader_status) {
    int status = 0;
    rusage reaped_usage{};
    if (::wait4(leader, &status, 0, &reaped_usage) == leader) {
      usage.add(reaped_usage);
      leader_status = status;
    } else if (errno != EINTR) {
      leader_status = 0;
    }
  }
  return *leader_status;
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

ProcessResult ProcessExecutor::run(const ProcessSpec& spec) {
  ProcessResult result;
  std::optional<BoundedLog> log;
  if (spec.log_path) {
    log.emplace(*spec.log_path, spec.log_limit_bytes);
    if (!spec.log_header.empty()) log->note(spec.log_header);
  }

  const auto started_at = Clock::now();
  SpawnedProcess child = spawn_process(spec, log.has_value(), ignored_signals_);
  if (!child.started()) {
    result.error = child.error;
    if (log) log->finish();
    return result;
  }
  const pid_t pid = child.pid;
  result.pid = pid;

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
  const FileDescriptor pidfd = open_pidfd(pid);

  // Slot 0: the output pipe (-1 once closed or never opened, which poll ignores);
  // slot 1: the pidfd, readable once the leader has exited.
  std::array<pollfd, 2> watched{pollfd{child.output.valid() ? child.output.get() : -1, POLLIN, 0},
                                pollfd{pidfd.get(), POLLIN, 0}};
  bool timed_out = false;
  Clock::time_point ended_at;
  for (;;) {
    auto now = Clock::now();
    if (now >= next_sample_at) {
      sampler.sample(pid);
      now = Clock::now();
      next_sample_at = now + sample_interval;
    }
    auto wake_at = next_sample_at;
    if (deadline) wake_at = std::min(wake_at, *deadline);
    if (!pidfd.valid()) wake_at = std::min(wake_at, now + kExitPollInterval);
    const timespec wait = to_timespec(wake_at - now);
    watched[0].revents = watched[1].revents = 0;
    ::ppoll(watched.data(), watched.size(), &wait, nullptr);

    if (watched[0].revents != 0 && read_available(watched[0].fd, *log) == PipeState::kClosed) {
      watched[0].fd = -1;
    }
    const bool exited = pidfd.valid() ? watched[1].revents != 0 : leader_exited(pid);
    now = Clock::now();
    if (exited || (deadline && now >= *deadline)) {
      ended_at = now;
      timed_out = !exited;
      break;
    }
  }

  TreeUsage usage;
  const int leader_status = kill_and_reap_group(pid, usage);
  // Whatever is still in the pipe was written before the group died; a process that left
  // the group may hold the pipe open, so read only what is there instead of waiting for EOF.
  if (watched[0].fd >= 0) {
    while (read_available(watched[0].fd, *log) == PipeState::kRead) {
    }
  }

  result.wall_s = std::chrono::duration<double>(ended_at - started_at).count();
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

  if (timed_out) {
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
