#pragma once
// The narrow interface between perfgate and the processes it measures.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace perfgate {

/// What to start. argv[0] is looked up in PATH when it has no '/'.
struct ProcessSpec {
  std::vector<std::string> argv;
  std::optional<std::filesystem::path> cwd;
  /// Set (or override) in the child's environment; the parent's environment is inherited.
  std::map<std::string, std::string> env;
  std::optional<double> timeout_s;
  /// stdout and stderr of the child are appended here (opened by the executor).
  /// Absent: both go to /dev/null.
  std::optional<std::filesystem::path> log_path;
  /// At most this many bytes of the run's output are kept in the log: the first half and
  /// the last half, joined by a line saying how many bytes were dropped.
  std::size_t log_limit_bytes = 8u << 20;
  /// Written to the log before the run's output (e.g. which run this is); not bounded.
  std::string log_header;
  /// After the run, kill the processes it left outside its process group (daemons that
  /// double-forked): set for measured runs, not for hooks, whose daemons (a server that a
  /// setup hook starts for the runs) are meant to outlive them.
  bool kill_escapees = false;

  bool operator==(const ProcessSpec&) const = default;
};

enum class ProcessOutcome {
  kExited,         ///< exited by itself (any status)
  kSignaled,       ///< killed by a signal it did not get from us
  kTimedOut,       ///< we killed its process group after timeout_s
  kFailedToStart,  ///< spawn failed (missing executable, bad cwd, permission)
  kInterrupted,    ///< perfgate was interrupted (measure/interruption.hpp): we killed its
                   ///< process group, or did not start it
};

struct ProcessResult {
  ProcessOutcome outcome = ProcessOutcome::kFailedToStart;
  int exit_code = -1;             ///< valid for kExited
  int signal = 0;                 ///< valid for kSignaled and kInterrupted
  double wall_s = 0;              ///< monotonic clock, spawn to reap
  double user_s = 0;              ///< user CPU of the process tree
  double system_s = 0;            ///< system CPU of the process tree
  double peak_rss_mb = 0;         ///< peak resident set of the process tree, MiB (2^20 bytes)
  std::string error;              ///< why it failed to start (strerror and the path)
  std::size_t output_bytes = 0;   ///< bytes the child wrote to stdout+stderr
  std::size_t dropped_bytes = 0;  ///< of those, not kept in the log
  int pid = -1;          ///< the leader's pid, which is also the run's process group id; -1 if none
  double timeout_s = 0;  ///< for kTimedOut: the limit that was exceeded
  /// Under kill_escapees: processes of the run that outlived it outside its process group
  /// and were killed at its end; -1 when the kernel does not list a process's children, so
  /// that none could be looked for.
  int escapees_killed = 0;

  bool succeeded() const { return outcome == ProcessOutcome::kExited && exit_code == 0; }
  /// "exit status 3", "killed by signal 11 (SIGSEGV)", "timed out after 2 s",
  /// "could not start: ...", "interrupted by SIGTERM", or "ok".
  std::string reason() const;
  /// reason() of a run started as `/bin/sh -c ...`, whose shell turns what happened to the
  /// command into its exit status: "command not found (exit status 127 from the shell)",
  /// "command not executable (exit status 126 ...)", "killed by SIGSEGV (exit status 139
  /// from the shell)"; otherwise reason().
  std::string reason_under_shell() const;
  double cpu_s() const { return user_s + system_s; }
};

/// Runs one process to completion. Implementations never throw for a failing child:
/// every failure is described in the result.
class Executor {
 public:
  virtual ~Executor() = default;
  virtual ProcessResult run(const ProcessSpec& spec) = 0;
  /// Announces a run to come: the first call after a run() says which run follows the next
  /// one, each further call the run after the one announced before it; each holds unless a
  /// run before it fails. An executor may start an announced run as soon as the run before it
  /// ends, before perfgate has looked at that run's result. A run() with a spec other than
  /// the first announced one cancels every announced run (some may have run by then). The
  /// default ignores them.
  virtual void expect_after_next(const ProcessSpec& spec) { (void)spec; }
  /// How many runs ahead of the next run() the caller should keep announced.
  virtual std::size_t runs_to_announce() const { return 1; }
};

}  // namespace perfgate
