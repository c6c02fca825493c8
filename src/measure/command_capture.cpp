#include "measure/command_capture.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

#include "measure/file_descriptor.hpp"

extern char** environ;

namespace perfgate {
namespace {

constexpr std::size_t kMaxKept = 1u << 20;

struct Pipe {
  FileDescriptor read, write;
  bool open() {
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0) return false;
    read = FileDescriptor(ends[0]);
    write = FileDescriptor(ends[1]);
    return true;
  }
};

// Reads what is available; returns false at end of file. Keeps reading past the limit
// (dropping the rest) so the child never blocks on a full pipe.
bool drain(int fd, std::string& kept) {
  char buffer[4096];
  const ssize_t got = ::read(fd, buffer, sizeof buffer);
  if (got < 0) return errno == EINTR || errno == EAGAIN;
  if (got == 0) return false;
  if (kept.size() < kMaxKept) kept.append(buffer, static_cast<std::size_t>(got));
  return true;
}

}  // namespace

CommandOutput capture_command(const std::vector<std::string>& argv,
                              const std::filesystem::path& cwd, double timeout_s) {
  CommandOutput output;
  Pipe out, err;
  if (argv.empty() || !out.open() || !err.open()) return output;

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.write.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err.write.get(), STDERR_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attributes, 0);  // its own group, so a timeout kills it all
  // perfgate ignores SIGPIPE (src/cli/main.cpp); the helper gets the default back.
  sigset_t reset_to_default;
  sigemptyset(&reset_to_default);
  sigaddset(&reset_to_default, SIGPIPE);
  posix_spawnattr_setsigdefault(&attributes, &reset_to_default);

  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int failed =
      ::posix_spawnp(&pid, args.front(), &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  out.write.reset();
  err.write.reset();
  if (failed != 0) return output;
  output.started = true;

  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(timeout_s));
  bool out_open = true, err_open = true, timed_out = false;
  while (out_open || err_open) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      ::kill(-pid, SIGKILL);
      break;
    }
    pollfd fds[2] = {{out_open ? out.read.get() : -1, POLLIN, 0},
                     {err_open ? err.read.get() : -1, POLLIN, 0}};
    if (::poll(fds, 2, static_cast<int>(left.count())) < 0 && errno != EINTR) break;
    if (out_open && fds[0].revents != 0) out_open = drain(out.read.get(), output.out);
    if (err_open && fds[1].revents != 0) err_open = drain(err.read.get(), output.err);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  output.exit_status = !timed_out && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return output;
}

std::optional<std::string> version_line(std::vector<std::string> program, double timeout_s) {
  if (program.empty()) return std::nullopt;
  program.emplace_back("--version");
  const CommandOutput output = capture_command(program, {}, timeout_s);
  if (output.exit_status != 0) return std::nullopt;
  return output.out.substr(0, output.out.find('\n'));
}

}  // namespace perfgate
