#pragma once
// Starts the real perfgate binary in the background, in its own process group, so a test
// can send it a signal (as a terminal or a CI runner would) and then check what it left.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/prepared_exec.hpp"
#include "support/temp_dir.hpp"

namespace perfgate::testing {

class BackgroundPerfgate {
 public:
  /// stdout and stderr go to `cwd`/perfgate.out and perfgate.err; with `stdout_pipe`,
  /// stdout goes to a pipe this object reads from until close_stdout_pipe() (as `| tee`).
  BackgroundPerfgate(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                     const std::map<std::string, std::string>& env = {}, bool stdout_pipe = false) {
    int pipe_ends[2] = {-1, -1};
    if (stdout_pipe && ::pipe(pipe_ends) != 0) return;
    const PreparedExec perfgate(args, env);
    pid_ = ::fork();
    if (pid_ == 0) {
      ::setpgid(0, 0);  // a signal to perfgate reaches perfgate only, as in a CI runner
      if (::chdir(cwd.c_str()) != 0) ::_exit(126);
      const int out =
          stdout_pipe ? pipe_ends[1] : ::open("perfgate.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err = ::open("perfgate.err", O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int in = ::open("/dev/null", O_RDONLY);
      ::dup2(in, 0);
      ::dup2(out, 1);
      ::dup2(err, 2);
      if (stdout_pipe) ::close(pipe_ends[0]);
      perfgate.exec();
    }
    if (stdout_pipe) {
      ::close(pipe_ends[1]);
      stdout_reader_ = pipe_ends[0];
    }
  }

  /// Closes the reading end of the stdout pipe, as a `tee` that a Ctrl-C ended does: every
  /// later write of perfgate's to stdout meets a closed pipe.
  void close_stdout_pipe() {
    if (stdout_reader_ >= 0) ::close(stdout_reader_);
    stdout_reader_ = -1;
  }
  ~BackgroundPerfgate() {
    close_stdout_pipe();
    if (pid_ > 0 && !reaped_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }

  void signal(int number) const { ::kill(pid_, number); }

  /// The exit status when it has ended (128 + N when killed by signal N), without waiting.
  std::optional<int> try_wait() {
    if (reaped_) return std::nullopt;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) != pid_) return std::nullopt;
    reaped_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  /// The exit status (128 + N when killed by signal N).
  int wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    reaped_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
  int stdout_reader_ = -1;
};

/// Waits (up to 20 s) until `file` holds a line; returns it as a pid, or -1.
inline pid_t wait_for_pid_file(const std::filesystem::path& file) {
  for (int attempt = 0; attempt < 2000; ++attempt) {
    std::error_code ec;
    if (std::filesystem::exists(file, ec)) {
      const std::string text = read_text_file(file);
      if (!text.empty() && text.back() == '\n') return static_cast<pid_t>(std::stol(text));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

/// Whether `pid` has ended (gone, or a zombie) within 5 s: a killed process is reaped by its parent
/// or, once orphaned, by init, so allow it a moment.
inline bool process_gone(pid_t pid) {
  for (int attempt = 0; attempt < 500; ++attempt) {
    if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
    // A zombie has ended: only its exit status waits for a parent (this test process, once
    // it is a subreaper, never reaps what it did not start) to collect it.
    const std::string stat = read_text_file("/proc/" + std::to_string(pid) + "/stat");
    const auto name_end = stat.rfind(')');
    if (name_end != std::string::npos && stat.compare(name_end, 3, ") Z") == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace perfgate::testing
