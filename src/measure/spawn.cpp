#include "measure/spawn.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <string_view>
#include <vector>

extern char** environ;

namespace perfgate {

namespace {

// posix_spawnattr_t with the settings every run gets: its own process group, and no
// blocked or ignored signals inherited from perfgate (a child must die of SIGPIPE as it
// would from a shell).
class SpawnAttributes {
 public:
  explicit SpawnAttributes(const sigset_t& reset_to_default) {
    posix_spawnattr_init(&attr_);
    posix_spawnattr_setflags(
        &attr_, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&attr_, 0);
    sigset_t signals;
    sigemptyset(&signals);
    posix_spawnattr_setsigmask(&attr_, &signals);
    posix_spawnattr_setsigdefault(&attr_, &reset_to_default);
  }
  SpawnAttributes(const SpawnAttributes&) = delete;
  SpawnAttributes& operator=(const SpawnAttributes&) = delete;
  ~SpawnAttributes() { posix_spawnattr_destroy(&attr_); }
  const posix_spawnattr_t* get() const { return &attr_; }

 private:
  posix_spawnattr_t attr_;
};

class SpawnFileActions {
 public:
  SpawnFileActions() { posix_spawn_file_actions_init(&actions_); }
  SpawnFileActions(const SpawnFileActions&) = delete;
  SpawnFileActions& operator=(const SpawnFileActions&) = delete;
  ~SpawnFileActions() { posix_spawn_file_actions_destroy(&actions_); }
  posix_spawn_file_actions_t* get() { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

// Whether `overrides` names the variable `entry` ("NAME=value") sets. A run's overrides are
// a handful, so a scan beats building a std::string key for every variable of every run.
bool overridden(std::string_view entry, const std::map<std::string, std::string>& overrides) {
  const std::string_view name = entry.substr(0, entry.find('='));
  for (const auto& [key, value] : overrides) {
    if (key == name) return true;
  }
  return false;
}

}  // namespace

std::size_t append_merged_environment(std::string& out,
                                      const std::map<std::string, std::string>& overrides) {
  std::size_t count = 0;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    if (overridden(*entry, overrides)) continue;
    out.append(*entry).push_back('\0');
    ++count;
  }
  for (const auto& [name, value] : overrides) {
    out.append(name).append(1, '=').append(value).push_back('\0');
    ++count;
  }
  return count;
}

std::vector<std::string> merged_environment(const std::map<std::string, std::string>& overrides) {
  // One merge rule, append_merged_environment's; each entry ends with its NUL there.
  std::string entries;
  std::vector<std::string> merged(append_merged_environment(entries, overrides));
  std::size_t start = 0;
  for (std::string& entry : merged) {
    const std::size_t end = entries.find('\0', start);
    entry.assign(entries, start, end - start);
    start = end + 1;
  }
  return merged;
}

std::string describe_failure(const ProcessSpec& spec, int error) {
  if (spec.cwd) {
    struct stat info {};
    const std::string cwd = spec.cwd->string();
    if (::stat(cwd.c_str(), &info) != 0) {
      return fmt::format("cannot change directory to {}: {}", cwd, std::strerror(errno));
    }
    if (!S_ISDIR(info.st_mode)) {
      return fmt::format("cannot change directory to {}: {}", cwd, std::strerror(ENOTDIR));
    }
    if (::access(cwd.c_str(), X_OK) != 0) {
      return fmt::format("cannot change directory to {}: {}", cwd, std::strerror(errno));
    }
  }
  return fmt::format("{}: {}", spec.argv.front(), std::strerror(error));
}

OutputPipe open_output_pipe(std::string& error) {
  OutputPipe pipe;
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) {
    error = fmt::format("cannot create the output pipe: {}", std::strerror(errno));
    return pipe;
  }
  pipe.read_end = FileDescriptor(ends[0]);
  pipe.write_end = FileDescriptor(ends[1]);
  // Only our end is non-blocking: the flag lives on the open file description, and the
  // child's writes must block as they would on any pipe.
  // A new pipe's read end has no other status flag to keep (one system call less per run).
  ::fcntl(ends[0], F_SETFL, O_NONBLOCK);
  return pipe;
}

sigset_t ignored_signals() {
  sigset_t ignored;
  sigemptyset(&ignored);
  for (int signal = 1; signal < NSIG; ++signal) {
    struct sigaction action {};
    if (signal != SIGKILL && signal != SIGSTOP && ::sigaction(signal, nullptr, &action) == 0 &&
        action.sa_handler == SIG_IGN) {
      sigaddset(&ignored, signal);
    }
  }
  return ignored;
}

SpawnedProcess spawn_process(const ProcessSpec& spec, bool capture_output,
                             const sigset_t& reset_to_default) {
  SpawnedProcess spawned;
  if (spec.argv.empty()) {
    spawned.error = "no command given (argv is empty)";
    return spawned;
  }

  SpawnFileActions actions;
  if (spec.cwd) posix_spawn_file_actions_addchdir_np(actions.get(), spec.cwd->c_str());
  posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  FileDescriptor write_end;
  if (capture_output) {
    OutputPipe pipe = open_output_pipe(spawned.error);
    if (!pipe.read_end.valid()) return spawned;
    spawned.output = std::move(pipe.read_end);
    write_end = std::move(pipe.write_end);
    posix_spawn_file_actions_adddup2(actions.get(), write_end.get(), STDOUT_FILENO);
  } else {
    posix_spawn_file_actions_addopen(actions.get(), STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  }
  posix_spawn_file_actions_adddup2(actions.get(), STDOUT_FILENO, STDERR_FILENO);

  std::vector<char*> argv;
  argv.reserve(spec.argv.size() + 1);
  for (const std::string& arg : spec.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);

  std::vector<std::string> environment;
  std::vector<char*> envp;
  char** child_environment = environ;
  if (!spec.env.empty()) {
    environment = merged_environment(spec.env);
    envp.reserve(environment.size() + 1);
    for (std::string& entry : environment) envp.push_back(entry.data());
    envp.push_back(nullptr);
    child_environment = envp.data();
  }

  const SpawnAttributes attributes(reset_to_default);
  pid_t pid = -1;
  const int error = ::posix_spawnp(&pid, argv.front(), actions.get(), attributes.get(), argv.data(),
                                   child_environment);
  if (error != 0) {
    spawned.output.reset();
    spawned.error = describe_failure(spec, error);
    return spawned;
  }
  spawned.pid = pid;
  return spawned;
}

}  // namespace perfgate
