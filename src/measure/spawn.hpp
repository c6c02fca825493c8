#pragma once
#include <signal.h>
// Starting one run: posix_spawnp into a fresh process group with a clean signal state.
#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

#include "measure/executor.hpp"
#include "measure/file_descriptor.hpp"

namespace perfgate {

struct SpawnedProcess {
  pid_t pid = -1;  ///< -1 when the spawn failed; otherwise also the process group id
  /// Read end of the pipe that carries the child's stdout and stderr (non-blocking,
  /// close-on-exec); invalid when output was not captured.
  FileDescriptor output;
  std::string error;  ///< why the spawn failed, naming the program or the directory

  bool started() const { return pid > 0; }
};

/// Starts spec.argv (argv[0] looked up in PATH when it has no '/') with stdin from
/// /dev/null, in spec.cwd, with the parent's environment plus spec.env, in its own process
/// group, with an empty signal mask and every signal at its default action. stdout and
/// stderr go to a pipe when `capture_output`, else to /dev/null. Never throws for a
/// program that cannot be started: the reason is in `error`.
SpawnedProcess spawn_process(const ProcessSpec& spec, bool capture_output,
                             const sigset_t& reset_to_default);

/// The pipe that carries a run's stdout and stderr: the read end non-blocking, both ends
/// close-on-exec. Both invalid, with `error` set, when it cannot be made.
struct OutputPipe {
  FileDescriptor read_end;
  FileDescriptor write_end;
};
OutputPipe open_output_pipe(std::string& error);

/// This process's environment with `overrides` added or replacing; each entry "NAME=value".
std::vector<std::string> merged_environment(const std::map<std::string, std::string>& overrides);
/// The same entries appended to `out`, each ending with NUL, without a string of its own
/// each (a run's request to perfgate-spawner, made for every run); returns how many.
std::size_t append_merged_environment(std::string& out,
                                      const std::map<std::string, std::string>& overrides);

/// Why a spawn of `spec` failed with `error`: posix_spawn reports one errno for every step in
/// the child, and a working directory that cannot be entered is the likelier culprit when
/// one was given and it is unusable.
std::string describe_failure(const ProcessSpec& spec, int error);

/// Signals this process ignores now. exec() resets handled signals to their default by
/// itself, but ignored ones stay ignored, so only these need resetting in the child;
/// resetting every signal costs the child one sigaction call per signal on every run.
sigset_t ignored_signals();

}  // namespace perfgate
