#pragma once
// Interrupting perfgate (SIGINT, SIGTERM, SIGHUP) stops what it started. Every run is in its
// own process group, so a Ctrl-C at a terminal reaches perfgate (the foreground group) but
// not the runs: perfgate itself must kill their groups. While an InterruptionScope is alive,
// the signal handler records the signal and kills (SIGKILL) every live process group; the
// executor refuses to start anything afterwards, and the command writes what it has and
// exits with interrupted_exit_code(). Shared by every command that runs programs.
#include <signal.h>
#include <sys/types.h>

#include <string>

namespace perfgate {

/// Installs the handlers for SIGINT, SIGTERM and SIGHUP; restores the previous ones when
/// destroyed. Signals that were ignored when perfgate started (nohup) stay ignored.
class InterruptionScope {
 public:
  InterruptionScope();
  ~InterruptionScope();
  InterruptionScope(const InterruptionScope&) = delete;
  InterruptionScope& operator=(const InterruptionScope&) = delete;

 private:
  struct sigaction previous_[3];
};

/// The first signal that interrupted perfgate, or 0.
int interruption_signal();

/// 128 + signal, as a shell reports it: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP.
int interrupted_exit_code(int signal);

/// "interrupted by SIGTERM".
std::string describe_interruption(int signal);

/// Records the interruption as if `signal` had arrived: kills the live groups. For tests,
/// and for the handler itself.
void interrupt(int signal);

/// Forgets an interruption (tests only: a real interruption ends the command).
void clear_interruption_for_testing();

/// Registers a run's process group as live for as long as it exists, so that an
/// interruption kills it. Register it as soon as the group exists; unregister (destroy) it
/// only after its leader was reaped, since until then the group id cannot be reused.
class LiveProcessGroup {
 public:
  explicit LiveProcessGroup(pid_t group);
  ~LiveProcessGroup();
  LiveProcessGroup(const LiveProcessGroup&) = delete;
  LiveProcessGroup& operator=(const LiveProcessGroup&) = delete;

 private:
  int slot_ = -1;  ///< -1 when the registry was full (the executor's own check still kills it)
};

}  // namespace perfgate
