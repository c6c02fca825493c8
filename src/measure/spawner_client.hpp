#pragma once
// perfgate's end of perfgate-spawner (src/spawner/): the small process that starts the
// measured runs, so that their peak memory does not include perfgate's own resident set
// (docs/measurement.md, "Peak memory").
#include <sys/types.h>

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
  /// Starts `program` with its end of a socketpair on descriptor PERFGATE_SPAWNER_FD, in a
  /// process group of its own (a Ctrl-C for perfgate does not reach it; it ends when perfgate's
  /// end of the socket closes). nullptr with `error` set when it cannot be started.
  static std::unique_ptr<SpawnerClient> start(const std::filesystem::path& program,
                                              std::string& error);
  SpawnerClient(FileDescriptor socket, pid_t pid) : socket_(std::move(socket)), pid_(pid) {}
  SpawnerClient(const SpawnerClient&) = delete;
  SpawnerClient& operator=(const SpawnerClient&) = delete;
  /// Closes the socket, on which the spawner exits, and reaps it.
  ~SpawnerClient();

  struct Started {
    pid_t pid = -1;     ///< the run's leader and process group; -1 when it did not start
    int error = 0;      ///< posix_spawn's errno when it did not start
    bool alive = true;  ///< false: the spawner is gone and nothing was started
  };
  /// Asks for one run of `spec` with stdout and stderr on `output_fd` (-1: /dev/null);
  /// blocks until the spawner says whether it started.
  Started start_run(const ProcessSpec& spec, int output_fd);
  /// Readable once the run has finished (or the spawner is gone).
  int socket() const { return socket_.get(); }
  /// The run's timeout passed: the spawner kills its process group.
  void kill_run();
  /// The end of the run, once socket() is readable; nullopt when the spawner is gone.
  std::optional<perfgate_spawner_reply> read_finished();
  pid_t pid() const { return pid_; }

 private:
  bool send_all(const void* data, std::size_t size, int passed_fd);
  std::optional<perfgate_spawner_reply> read_reply();

  FileDescriptor socket_;
  pid_t pid_;
};

}  // namespace perfgate
