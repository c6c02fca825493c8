#pragma once
// One perfgate_store_writer child process (tests/support/store_writer.cpp), for the
// store's crash-safety and concurrency tests.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

#include "measure/spawn.hpp"

namespace perfgate {

class WriterProcess {
 public:
  /// Starts a writer that appends `attempts` attempts (0 = until killed) to `url`.
  WriterProcess(const std::string& url, long long attempts) {
    ProcessSpec spec;
    spec.argv = {PERFGATE_STORE_WRITER, url, std::to_string(attempts)};
    process_ = spawn_process(spec, /*capture_output=*/true, ignored_signals());
    if (!process_.started()) throw std::runtime_error(process_.error);
  }
  WriterProcess(const WriterProcess&) = delete;
  WriterProcess& operator=(const WriterProcess&) = delete;
  ~WriterProcess() {
    if (running_) kill_now();
  }

  /// Waits until the writer has stored its first attempt; false when it exited first or
  /// took more than a minute.
  bool wait_until_ready() {
    while (output_.find("ready\n") == std::string::npos) {
      if (!read_some(60'000)) return false;
    }
    return true;
  }

  /// SIGKILL: the writer dies wherever it is, in the middle of a write or not.
  void kill_now() {
    ::kill(process_.pid, SIGKILL);
    reap();
  }

  /// Waits for the writer to finish; its exit status, or 128 + the signal that ended it.
  int wait_for_exit() {
    while (read_some(120'000)) {
    }
    return reap();
  }

  /// Everything the writer printed so far (its errors, when it failed).
  const std::string& output() const { return output_; }

 private:
  // Reads what is available within `timeout_ms`; false at end of output or on timeout.
  bool read_some(int timeout_ms) {
    pollfd ready{process_.output.get(), POLLIN, 0};
    if (::poll(&ready, 1, timeout_ms) <= 0) return false;
    char buffer[4096];
    const ssize_t n = ::read(process_.output.get(), buffer, sizeof buffer);
    if (n <= 0) return false;
    output_.append(buffer, static_cast<std::size_t>(n));
    return true;
  }

  int reap() {
    int status = 0;
    ::waitpid(process_.pid, &status, 0);
    running_ = false;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  SpawnedProcess process_;
  bool running_ = true;
  std::string output_;
};

}  // namespace perfgate
