#include "measure/process_tree_reaper.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <optional>
#include <thread>

#include "measure/proc_children.hpp"

namespace perfgate {

namespace {

using Clock = std::chrono::steady_clock;

/// How long to keep reaping a killed process group whose members are not yet our
/// children (their dying parents have not been reaped) before giving up on them.
constexpr auto kGroupReapLimit = std::chrono::seconds(5);

double seconds_of(const timeval& time) {
  return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) / 1e6;
}

}  // namespace

void TreeUsage::add(const rusage& usage) {
  user_s += seconds_of(usage.ru_utime);
  system_s += seconds_of(usage.ru_stime);
  max_rss_kib = std::max(max_rss_kib, usage.ru_maxrss);
}

void TreeUsage::add_microseconds(long user_us, long system_us, long max_rss) {
  user_s += static_cast<double>(user_us) / 1e6;
  system_s += static_cast<double>(system_us) / 1e6;
  max_rss_kib = std::max(max_rss_kib, max_rss);
}

bool leader_exited(pid_t leader) {
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(leader), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == leader;
}

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

std::optional<std::vector<pid_t>> children_of_this_process() {
  std::vector<pid_t> children;
  if (!append_proc_children("/proc", "self", /*every_thread=*/true, children)) {
    return std::nullopt;
  }
  return children;
}

std::optional<int> kill_escapees(const std::vector<pid_t>& before) {
  int killed = 0;
  const auto give_up_at = Clock::now() + std::chrono::seconds(1);
  for (;;) {
    const auto now = children_of_this_process();
    if (!now) return std::nullopt;
    int found = 0;
    for (const pid_t pid : *now) {
      if (std::find(before.begin(), before.end(), pid) != before.end()) continue;
      ++found;
      // One that has already exited is reaped, not counted.
      if (::waitpid(pid, nullptr, WNOHANG) == pid) continue;
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      ++killed;
    }
    if (found == 0 || Clock::now() >= give_up_at) return killed;
  }
}

}  // namespace perfgate
