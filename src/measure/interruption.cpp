#include "measure/interruption.hpp"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <cstring>

namespace perfgate {
namespace {

constexpr std::array<int, 3> kInterruptingSignals = {SIGINT, SIGTERM, SIGHUP};

// Lock-free atomics are async-signal-safe; a mutex or a std::vector would not be.
std::atomic<int> interrupted_by{0};
/// Live process group ids; 0 marks a free slot. More runs than this at once never happen
/// (perfgate runs one at a time), so a full registry is only a safety net.
std::array<std::atomic<pid_t>, 64> live_groups{};

static_assert(std::atomic<int>::is_always_lock_free && std::atomic<pid_t>::is_always_lock_free);

void kill_live_groups() {
  for (auto& slot : live_groups) {
    const pid_t group = slot.load();
    if (group > 0) ::kill(-group, SIGKILL);
  }
}

extern "C" void on_interrupting_signal(int signal) {
  const int saved_errno = errno;
  interrupt(signal);
  errno = saved_errno;
}

}  // namespace

InterruptionScope::InterruptionScope() {
  for (std::size_t i = 0; i < kInterruptingSignals.size(); ++i) {
    struct sigaction action {};
    action.sa_handler = on_interrupting_signal;
    sigemptyset(&action.sa_mask);
    // Blocking calls resume (they handle EINTR anyway); ppoll, the executor's wait, never
    // resumes, so the executor sees the interruption at once.
    action.sa_flags = SA_RESTART;
    ::sigaction(kInterruptingSignals[i], nullptr, &previous_[i]);
    if (previous_[i].sa_handler == SIG_IGN) continue;  // nohup: keep ignoring it
    ::sigaction(kInterruptingSignals[i], &action, nullptr);
  }
}

InterruptionScope::~InterruptionScope() {
  for (std::size_t i = 0; i < kInterruptingSignals.size(); ++i) {
    ::sigaction(kInterruptingSignals[i], &previous_[i], nullptr);
  }
}

int interruption_signal() {
  return interrupted_by.load();
}

int interrupted_exit_code(int signal) {
  return 128 + signal;
}

std::string describe_interruption(int signal) {
  const char* abbreviation = sigabbrev_np(signal);
  return abbreviation == nullptr ? fmt::format("interrupted by signal {}", signal)
                                 : fmt::format("interrupted by SIG{}", abbreviation);
}

void interrupt(int signal) {
  int none = 0;
  interrupted_by.compare_exchange_strong(none, signal);
  kill_live_groups();
}

void clear_interruption_for_testing() {
  interrupted_by.store(0);
}

LiveProcessGroup::LiveProcessGroup(pid_t group) {
  for (std::size_t i = 0; i < live_groups.size(); ++i) {
    pid_t free = 0;
    if (live_groups[i].compare_exchange_strong(free, group)) {
      slot_ = static_cast<int>(i);
      break;
    }
  }
  // An interruption that came before the group was registered has not killed it.
  if (interruption_signal() != 0) ::kill(-group, SIGKILL);
}

LiveProcessGroup::~LiveProcessGroup() {
  if (slot_ >= 0) live_groups[static_cast<std::size_t>(slot_)].store(0);
}

}  // namespace perfgate
