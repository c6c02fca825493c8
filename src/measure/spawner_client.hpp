#pragma once
// perfgate's end of perfgate-spawner (src/spawner/): the small process that starts the
// measured runs, so that their peak memory does not include perfgate's own resident set
// (docs/measurement.md, "Peak memory").
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "measure/executor.hpp"
#include "measure/file_descriptor.hpp"
#include "spawner/protocol.h"

namespace perfgate {

/// Where perfgate-spawner is: $PERFGATE_SPAWNER when set (an empty value means none), else
/// beside the running executable (/proc/self/exe), which is where the build and
/// `cmake --install` put it.
std::filesystem::path locate_spawner();

class SpawnerClient {
 public:
  /// Starts `program` with its ends of the request and control socketpairs on descriptors
  /// PERFGATE_SPAWNER_FD and PERFGATE_SPAWNER_CONTROL_FD, in a process group of its own (a
  /// Ctrl-C for perfgate does not reach it; it ends when perfgate's ends of the sockets
  /// close). nullptr with `error` set when it cannot be started.
  static std::unique_ptr<SpawnerClient> start(const std::filesystem::path& program,
                                              std::string& error);
  SpawnerClient(FileDescriptor requests, FileDescriptor control, pid_t pid)
      : requests_(std::move(requests)), control_(std::move(control)), pid_(pid) {}
  SpawnerClient(const SpawnerClient&) = delete;
  SpawnerClient& operator=(const SpawnerClient&) = delete;
  /// Closes the sockets, on which the spawner exits, and reaps it.
  ~SpawnerClient();

  /// Asks for one run of `spec` with stdout and stderr on `output_fd` (-1: /dev/null), its
  /// timeout kept by the spawner. Returns at once with the run's number; the spawner starts
  /// it when the runs asked for before it are over. With `after_success` it is skipped
  /// unless the run before it exits with status 0. The spawner says the run's pid (see
  /// started_pid) once it has lasted `say_started_after` (zero: as it starts). nullopt when
  /// the spawner is gone.
  std::optional<std::uint32_t> queue_run(const ProcessSpec& spec, int output_fd, bool after_success,
                                         std::chrono::nanoseconds say_started_after);
  /// Readable when a run has finished or was skipped (or the spawner is gone).
  int socket() const { return requests_.get(); }
  /// Readable when the spawner said a run's pid (see started_pid).
  int control_socket() const { return control_.get(); }
  /// Kills run `run_id` if it is in progress, and skips it and every run queued before it
  /// that has not started.
  void kill_run(std::uint32_t run_id);
  /// The next FINISHED or SKIPPED reply, in the order the runs were asked for; blocks until
  /// it comes. nullopt when the spawner is gone.
  std::optional<perfgate_spawner_reply> read_reply();
  /// The pid of run `run_id` once the spawner has said it (read without blocking); -1 until
  /// then, and for a run that ended before it was said.
  pid_t started_pid(std::uint32_t run_id);
  pid_t pid() const { return pid_; }

 private:
  bool send_all(int socket, const void* data, std::size_t size, int passed_fd);

  FileDescriptor requests_;
  FileDescriptor control_;
  pid_t pid_;
  std::uint32_t runs_asked_ = 0;
  /// The newest run the control socket said started, and its pid.
  std::uint32_t started_run_ = 0;
  pid_t started_run_pid_ = -1;
};

}  // namespace perfgate
