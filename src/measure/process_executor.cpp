#include "measure/process_executor.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <optional>
#include <utility>

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

/// How a run ended, from the spawner or from perfgate's own reaping.
struct RunEnd {
  int leader_status = 0;
  bool timed_out = false;
  TreeUsage usage;
  double wall_s = 0;
};

// The result of a run that started: what is left of its output, its measures, its outcome.
ProcessResult finish_run(const ProcessSpec& spec, std::optional<BoundedLog>& log,
                         ProcessResult result, int output_fd, const RunEnd& end,
                         const ProcessGroupSampler& sampler, std::optional<CgroupMemory>& cgroup) {
  // Whatever is still in the pipe was written before the group died; a process that left
  // the group may hold the pipe open, so read only what is there instead of waiting for EOF.
  if (output_fd >= 0) {
    while (read_available(output_fd, *log) == PipeState::kRead) {
    }
  }

  result.wall_s = end.wall_s;
  result.user_s = end.usage.user_s;
  result.system_s = end.usage.system_s;
  double peak_bytes = std::max(static_cast<double>(end.usage.max_rss_kib) * 1024.0,
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
  } else if (end.timed_out) {
    result.outcome = ProcessOutcome::kTimedOut;
    result.timeout_s = *spec.timeout_s;
  } else if (WIFSIGNALED(end.leader_status)) {
    result.outcome = ProcessOutcome::kSignaled;
    result.signal = WTERMSIG(end.leader_status);
  } else {
    result.outcome = ProcessOutcome::kExited;
    result.exit_code = WEXITSTATUS(end.leader_status);
  }
  if (log) {
    log->finish();
    result.output_bytes = log->total_bytes();
    result.dropped_bytes = log->dropped_bytes();
  }
  return result;
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

namespace {

SpawnerStart start_spawner(const ProcessExecutorOptions& options) {
  SpawnerStart start;
  start.client = SpawnerClient::start(options.spawner.value_or(locate_spawner()), start.error);
  return start;
}

}  // namespace

std::future<SpawnerStart> start_spawner_ahead(const ProcessExecutorOptions& options) {
  return std::async(std::launch::async, [options] { return start_spawner(options); });
}

bool ProcessExecutor::uses_spawner() {
  if (!spawner_tried_) take_spawner(start_spawner(options_));
  return spawner_ != nullptr;
}

void ProcessExecutor::adopt_spawner(std::future<SpawnerStart> started) {
  if (!spawner_tried_ && started.valid()) take_spawner(started.get());
}

void ProcessExecutor::take_spawner(SpawnerStart start) {
  spawner_tried_ = true;
  spawner_ = std::move(start.client);
  if (!spawner_) stop_using_spawner(start.error);
}

void ProcessExecutor::stop_using_spawner(const std::string& reason) {
  spawner_.reset();
  fmt::print(stderr,
             "perfgate: warning: perfgate-spawner is not used ({}); perfgate starts the runs "
             "itself, so each run's peak memory includes perfgate's own resident set. Install "
             "perfgate-spawner beside perfgate, or set PERFGATE_SPAWNER to its path.\n",
             reason);
}

std::chrono::milliseconds ProcessExecutor::sample_interval() const {
  return std::max(options_.sample_interval, std::chrono::milliseconds(1));
}

void ProcessExecutor::start_cgroup(std::optional<CgroupMemory>& cgroup, pid_t pid) {
  cgroup.emplace(*cgroup_parent_, fmt::format("perfgate-{}-{}", ::getpid(), ++runs_started_));
  cgroup->add(pid);
}

void ProcessExecutor::expect_after_next(const ProcessSpec& spec) {
  expected_.push_back(spec);
  ++announced_since_run_;
}

std::size_t ProcessExecutor::runs_to_announce() const {
  return std::max<std::size_t>(options_.queue_depth, 2) - 1;
}

void ProcessExecutor::cancel_queued() {
  if (queued_.empty()) return;
  const std::uint32_t newest = queued_.back().id;
  // Announced all the same: a later run() may still ask for them, in this order.
  for (auto run = queued_.rbegin(); run != queued_.rend(); ++run) {
    expected_.push_front(std::move(run->spec));
  }
  queued_.clear();
  if (!spawner_) return;
  // Each may be waiting, running or over: a KILL for the newest skips or ends each, and the
  // replies say which. Their output (if they ran) belongs to no run perfgate reports, so it
  // is not logged.
  spawner_->kill_run(newest);
  for (;;) {
    const auto reply = spawner_->read_reply();
    if (!reply) {
      stop_using_spawner("it stopped while a queued run was cancelled");
      return;
    }
    if (reply->run_id >= newest) return;
  }
}

std::optional<std::uint32_t> ProcessExecutor::ask_spawner(const ProcessSpec& spec,
                                                          bool after_success,
                                                          FileDescriptor& read_end,
                                                          std::string& error) {
  OutputPipe pipe;
  if (spec.log_path) {
    pipe = open_output_pipe(error);
    if (!pipe.read_end.valid()) return std::nullopt;
    // A queued run's output is read only once perfgate has handled the runs before it: a
    // larger pipe (1 MiB, the unprivileged limit; best effort) keeps a talkative program
    // from blocking on it meanwhile.
    if (after_success) ::fcntl(pipe.write_end.get(), F_SETPIPE_SZ, 1 << 20);
  }
  // The pid is needed at once to move the run into its cgroup, else only by the sampler:
  // a run over before the sampler's first look never says it.
  const auto say_started_after = cgroup_parent_ ? std::chrono::nanoseconds(0)
                                                : std::chrono::nanoseconds(sample_interval()) / 2;
  const auto queued =
      spawner_->queue_run(spec, pipe.write_end.get(), after_success, say_started_after);
  read_end = std::move(pipe.read_end);
  return queued;
}

void ProcessExecutor::queue_announced() {
  // Not with per-run cgroups: perfgate moves each run into its cgroup itself, as soon as it
  // starts.
  if (cgroup_parent_) {
    expected_.clear();
    return;
  }
  const std::size_t behind = shortest_short_quiet_run() ? runs_to_announce() : 1;
  while (spawner_ && !expected_.empty() && queued_.size() < behind) {
    FileDescriptor output;
    std::string error;
    const auto id = ask_spawner(expected_.front(), true, output, error);
    if (!id) return;  // asked for in its own run() call, which says what went wrong
    queued_.push_back(QueuedRun{std::move(expected_.front()), *id, std::move(output)});
    expected_.pop_front();
  }
}

ProcessResult ProcessExecutor::run(const ProcessSpec& spec) {
  const std::size_t announced_for_this_run = std::exchange(announced_since_run_, 0);
  ProcessResult result;
  if (const int signal = interruption_signal()) {
    // perfgate is stopping: nothing new starts, not even a cleanup hook.
    cancel_queued();
    expected_.clear();
    result.outcome = ProcessOutcome::kInterrupted;
    result.signal = signal;
    return result;
  }
  std::optional<BoundedLog> log;
  if (spec.log_path) {
    // The runs of a benchmark share its worker log: it stays open from one to the next.
    // Compared as text (not component by component, as path's == does): once per run.
    if (!worker_log_ || worker_log_->first.native() != spec.log_path->native()) {
      worker_log_.reset();
      worker_log_.emplace(*spec.log_path, BoundedLog::open_for_append(*spec.log_path));
    }
    log.emplace(*spec.log_path, worker_log_->second.get(), spec.log_limit_bytes);
    if (!spec.log_header.empty()) log->note(spec.log_header);
  }
  if (!spec.argv.empty() && uses_spawner()) {
    result = run_with_spawner(spec, log, announced_for_this_run);
    if (spawner_) return result;
    // The spawner stopped before it started this run: start it here.
    if (result.outcome != ProcessOutcome::kFailedToStart || !result.error.empty()) return result;
  }
  cancel_queued();
  expected_.clear();
  return run_directly(spec, log);
}

ProcessResult ProcessExecutor::run_with_spawner(const ProcessSpec& spec,
                                                std::optional<BoundedLog>& log,
                                                std::size_t fresh_announcements) {
  ProcessResult result;
  const auto started_at = Clock::now();
  const auto sample_interval = this->sample_interval();
  // The run's number and the read end of its output pipe.
  std::optional<std::uint32_t> id;
  FileDescriptor output;
  const auto ask = [&](const ProcessSpec& run_spec) {
    id = ask_spawner(run_spec, false, output, result.error);
    if (!id && result.error.empty()) stop_using_spawner("it stopped before starting a run");
    return id.has_value();
  };
  bool started_when_the_last_ended = false;
  if (!queued_.empty() && queued_.front().spec == spec) {
    id = queued_.front().id;
    output = std::move(queued_.front().output);
    queued_.pop_front();
    started_when_the_last_ended = true;
  } else {
    cancel_queued();
    if (!spawner_) return result;
    // Runs announced before the last run() were to follow it, this one first: asked for, the
    // ones after it still hold; another run drops them. Runs announced since follow this one.
    const std::size_t earlier = expected_.size() - std::min(expected_.size(), fresh_announcements);
    if (earlier > 0 && expected_.front() == spec) {
      expected_.pop_front();
    } else {
      expected_.erase(expected_.begin(), expected_.begin() + static_cast<std::ptrdiff_t>(earlier));
    }
    if (!ask(spec)) return result;
  }
  queue_announced();

  std::optional<CgroupMemory> cgroup;
  ProcessGroupSampler sampler;
  auto next_sample_at = Clock::now() + sample_interval;
  if (started_when_the_last_ended && !cgroup_parent_) sleep_through_short_runs(next_sample_at);
  // Slot 0: the output pipe (-1 once closed or never opened, which poll ignores); slot 1:
  // the request socket, readable when the run is over; slot 2: the control socket, watched
  // only while a per-run cgroup waits for the run's pid.
  std::array<pollfd, 3> watched{pollfd{output.valid() ? output.get() : -1, POLLIN, 0},
                                pollfd{spawner_->socket(), POLLIN, 0}, pollfd{-1, POLLIN, 0}};
  pid_t pid = -1;
  bool kill_requested = false;
  std::optional<perfgate_spawner_reply> finished;
  for (;;) {
    // The pid is read when it is needed: at once for a cgroup, else at the sampler's turn.
    auto now = Clock::now();
    if (pid < 0 && (cgroup_parent_ || now >= next_sample_at)) pid = spawner_->started_pid(*id);
    if (pid > 0 && cgroup_parent_ && !cgroup) start_cgroup(cgroup, pid);
    watched[2].fd = cgroup_parent_ && pid < 0 ? spawner_->control_socket() : -1;
    if (now >= next_sample_at) {
      if (pid > 0) sampler.sample(pid);
      now = Clock::now();
      next_sample_at = now + sample_interval;
    }
    if (interruption_signal() != 0 && !kill_requested) {
      // One KILL for the newest run asked for ends this one and skips the queued ones (whose
      // replies come after this one's, and are passed over).
      spawner_->kill_run(queued_.empty() ? *id : queued_.back().id);
      queued_.clear();
      expected_.clear();
      kill_requested = true;
    }
    const timespec wait = to_timespec(next_sample_at - now);
    for (pollfd& slot : watched) slot.revents = 0;
    ::ppoll(watched.data(), watched.size(), &wait, nullptr);

    if (watched[0].revents != 0 && read_available(watched[0].fd, *log) == PipeState::kClosed) {
      watched[0].fd = -1;
    }
    if (watched[1].revents == 0) continue;
    const auto reply = spawner_->read_reply();
    // The reply of a run cancelled when perfgate was interrupted.
    if (reply && reply->run_id < *id) continue;
    if (!reply || reply->run_id != *id) {
      // Its children, the run's leader among them, are ours now (we are their subreaper).
      if (pid < 0) pid = spawner_->started_pid(*id);
      queued_.clear();
      expected_.clear();
      stop_using_spawner("it stopped during a run");
      if (pid < 0) {
        // Its pid was not said (yet): a child of ours now can only be that run.
        const auto orphans = children_of_this_process();
        if (!orphans || orphans->empty()) return result;  // nothing ran: run() starts it
        pid = orphans->front();
      }
      RunEnd end;
      end.wall_s = std::chrono::duration<double>(Clock::now() - started_at).count();
      end.leader_status = kill_and_reap_group(pid, end.usage);
      result.pid = pid;
      return finish_run(spec, log, result, watched[0].fd, end, sampler, cgroup);
    }
    if (reply->type == PERFGATE_SPAWNER_SKIPPED) {
      if (kill_requested) {
        result.outcome = ProcessOutcome::kInterrupted;
        result.signal = interruption_signal();
        if (log) log->finish();
        return result;
      }
      // Queued behind a run that failed, yet asked for all the same: ask again, after the
      // runs queued behind it (which the spawner would skip first) are dropped.
      cancel_queued();
      if (!spawner_ || !ask(spec)) return result;
      watched[0].fd = output.valid() ? output.get() : -1;
      continue;
    }
    finished = reply;
    // Runs that followed one another in the spawner, this one among them, make the window.
    if (!started_when_the_last_ended) recent_count_ = 0;
    recent_walls_[recent_count_++ % kRecentRuns] = std::chrono::nanoseconds(reply->wall_ns);
    last_finished_ =
        FinishedRun{Clock::time_point(std::chrono::nanoseconds(reply->ended_at_ns)), 0};
    break;
  }
  // A run that lasted long enough to be announced: read it now, so that announcements
  // never pile up.
  if (pid < 0 && (cgroup_parent_ ||
                  finished->wall_ns >= std::chrono::nanoseconds(sample_interval).count() / 2))
    spawner_->started_pid(*id);
  if (finished->pid < 0) {
    result.error = describe_failure(spec, finished->error);
    if (log) log->finish();
    return result;
  }
  result.pid = finished->pid;
  result.escapees_killed = finished->escaped;
  RunEnd end;
  end.leader_status = finished->status;
  end.timed_out = finished->timed_out != 0;
  end.usage.add_microseconds(finished->user_us, finished->system_us, finished->max_rss_kib);
  end.wall_s = static_cast<double>(finished->wall_ns) / 1e9;
  result = finish_run(spec, log, result, watched[0].fd, end, sampler, cgroup);
  if (last_finished_) last_finished_->output_bytes = result.output_bytes;
  return result;
}

std::optional<std::chrono::nanoseconds> ProcessExecutor::shortest_short_quiet_run() const {
  if (!last_finished_ || last_finished_->output_bytes > kQuietRunBytes || recent_count_ == 0)
    return std::nullopt;
  const auto recent = std::min(recent_count_, kRecentRuns);
  const auto shortest = *std::min_element(recent_walls_.begin(), recent_walls_.begin() + recent);
  if (!(shortest < std::chrono::nanoseconds(sample_interval()) / 2)) return std::nullopt;
  return shortest;
}

void ProcessExecutor::sleep_through_short_runs(Clock::time_point next_sample_at) {
  // A run queued behind another started when that one ended (the spawner says when, on the
  // clock steady_clock reads), and likely lasts about as long as the runs before it. perfgate
  // sleeps through most of it instead of waiting on the spawner's socket: a reply sent to a
  // process that waits there must wake it on another CPU, which cost the spawner 18 µs (an
  // interprocessor interrupt, more in a virtual machine) just after it started the next run
  // on its own CPU. Asleep, perfgate finds the reply when it wakes, and the send costs the
  // spawner what a copy does. Only after a run that wrote little: a run's output waits in
  // its pipe meanwhile (1 MiB).
  //
  // With more runs queued behind this one than half the queue's depth, it sleeps through
  // those beyond the half too, and then handles their replies one after another without
  // waiting: it is woken once per half queue instead of once per run, and the spawner still
  // has half a queue of runs when it wakes. Each run's end is estimated as the shortest of
  // the recent runs, 10% more, and the time the spawner takes to reap a run and start the
  // next: woken early, perfgate waits on the socket as before.
  //
  // On a busy machine a sleeper wakes late (a busy loop per core: by 0.25 ms at the median,
  // 3 ms at the 99th percentile, beside 0.07 ms idle). It keeps how late its last 8 sleeps
  // ended and sleeps only while their median is under a quarter of how long the runs still
  // queued when it wakes should last, trying again every 16th run.
  const auto short_run = shortest_short_quiet_run();
  if (!short_run) return;
  const std::chrono::nanoseconds shortest = *short_run;
  // At least one run stays queued when perfgate wakes, however shallow the queue.
  const std::size_t keep = std::max<std::size_t>(runs_to_announce() / 2, 1);
  const std::size_t through = queued_.size() > keep ? queued_.size() - keep : 0;
  const std::size_t left_queued = queued_.size() - through;
  const auto kept = std::min(lateness_count_, kKeptLateness);
  if (kept >= kKeptLateness / 2) {
    std::array<std::chrono::nanoseconds, kKeptLateness> sorted = lateness_;
    std::nth_element(sorted.begin(), sorted.begin() + kept / 2, sorted.begin() + kept);
    const auto spare = shortest * static_cast<long>(std::max<std::size_t>(left_queued, 1));
    if (sorted[kept / 2] > spare / 4 && ++sleeps_skipped_ % 16 != 0) return;
  }
  constexpr std::chrono::microseconds kReapAndStart{100};
  const auto per_run = shortest + shortest / 10 + kReapAndStart;
  // This run should be over already: its reply is likely there, and so are those of the
  // runs perfgate slept through.
  if (Clock::now() >= last_finished_->ended_at + per_run) return;
  // Not past the sampler's next look, which a run longer than those before it needs: as many
  // runs as end before it.
  const auto before_next_sample =
      (next_sample_at - last_finished_->ended_at - std::chrono::nanoseconds(1)) / per_run;
  const auto runs = std::min<std::int64_t>(static_cast<std::int64_t>(1 + through),
                                           static_cast<std::int64_t>(before_next_sample));
  const auto wake_at = last_finished_->ended_at + per_run * runs;
  if (runs < 1 || wake_at <= Clock::now() || interruption_signal() != 0) return;
  const timespec until = to_timespec(wake_at.time_since_epoch());
  // A signal ends the sleep early (EINTR); the loop after it sees the interruption.
  ::clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr);
  const auto late = std::max(Clock::duration::zero(), Clock::now() - wake_at);
  lateness_[lateness_count_++ % kKeptLateness] =
      std::chrono::duration_cast<std::chrono::nanoseconds>(late);
}

ProcessResult ProcessExecutor::run_directly(const ProcessSpec& spec,
                                            std::optional<BoundedLog>& log) {
  ProcessResult result;
  const auto started_at = Clock::now();
  if (!orphan_guard_) orphan_guard_.emplace();
  // Children there before the run (a daemon a setup hook started, the guard) are not the
  // run's.
  std::optional<std::vector<pid_t>> children_before;
  if (spec.kill_escapees) children_before = children_of_this_process();
  SpawnedProcess child = spawn_process(spec, log.has_value(), ignored_signals_);
  if (!child.started()) {
    result.error = child.error;
    if (log) log->finish();
    return result;
  }
  const pid_t pid = child.pid;
  result.pid = pid;
  orphan_guard_->watch(pid);
  // Until the leader is reaped an interruption kills the group.
  const LiveProcessGroup live_group(pid);

  std::optional<CgroupMemory> cgroup;
  if (cgroup_parent_) start_cgroup(cgroup, pid);

  const auto sample_interval = this->sample_interval();
  std::optional<Clock::time_point> deadline;
  if (spec.timeout_s) {
    const std::chrono::duration<double> limit(std::min(*spec.timeout_s, kLongestTimeoutS));
    deadline = started_at + std::chrono::duration_cast<Clock::duration>(limit);
  }
  ProcessGroupSampler sampler;
  auto next_sample_at = started_at + sample_interval;
  // The leader's exit shows on its pidfd; without one, it is polled for.
  const FileDescriptor pidfd = open_pidfd(pid);

  // Slot 0: the output pipe (-1 once closed or never opened, which poll ignores);
  // slot 1: readable once the leader has exited.
  std::array<pollfd, 2> watched{pollfd{child.output.valid() ? child.output.get() : -1, POLLIN, 0},
                                pollfd{pidfd.get(), POLLIN, 0}};
  RunEnd end;
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
    now = Clock::now();
    const bool exited = pidfd.valid() ? watched[1].revents != 0 : leader_exited(pid);
    if (exited || (deadline && now >= *deadline) || interruption_signal() != 0) {
      end.wall_s = std::chrono::duration<double>(now - started_at).count();
      end.timed_out = !exited && interruption_signal() == 0;
      end.leader_status = kill_and_reap_group(pid, end.usage);
      orphan_guard_->watch(0);
      if (spec.kill_escapees) {
        const auto killed = children_before ? kill_escapees(*children_before) : std::nullopt;
        result.escapees_killed = killed.value_or(-1);
      }
      break;
    }
  }
  return finish_run(spec, log, result, watched[0].fd, end, sampler, cgroup);
}

}  // namespace perfgate
