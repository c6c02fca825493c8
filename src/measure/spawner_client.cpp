#include "measure/spawner_client.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "measure/spawn.hpp"

extern char** environ;

namespace perfgate {

namespace fs = std::filesystem;

fs::path locate_spawner() {
  if (const char* chosen = std::getenv("PERFGATE_SPAWNER")) return chosen;
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) return {};
  return self.parent_path() / "perfgate-spawner";
}

namespace {

// A socketpair whose far end is numbered above the spawner's two fixed descriptors, so that
// neither dup2 onto them can overwrite the other's source (and dup2 onto the same number,
// which would leave close-on-exec set, never happens).
bool socket_pair(int type, FileDescriptor& ours, FileDescriptor& theirs, std::string& error) {
  int ends[2];
  if (::socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, ends) != 0) {
    error = fmt::format("cannot create its socket: {}", std::strerror(errno));
    return false;
  }
  ours = FileDescriptor(ends[0]);
  theirs = FileDescriptor(ends[1]);
  if (theirs.get() <= PERFGATE_SPAWNER_CONTROL_FD) {
    theirs = FileDescriptor(::fcntl(ends[1], F_DUPFD_CLOEXEC, PERFGATE_SPAWNER_CONTROL_FD + 1));
    if (!theirs.valid()) {
      error = fmt::format("cannot number its socket: {}", std::strerror(errno));
      return false;
    }
  }
  return true;
}

}  // namespace

std::unique_ptr<SpawnerClient> SpawnerClient::start(const fs::path& program, std::string& error) {
  if (program.empty()) {
    error = "no perfgate-spawner (PERFGATE_SPAWNER is empty)";
    return nullptr;
  }
  FileDescriptor requests, their_requests, control, their_control;
  // Control messages are small and must never be cut: a packet socket sends each whole or
  // not at all.
  if (!socket_pair(SOCK_STREAM, requests, their_requests, error) ||
      !socket_pair(SOCK_SEQPACKET, control, their_control, error))
    return nullptr;

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, their_requests.get(), PERFGATE_SPAWNER_FD);
  posix_spawn_file_actions_adddup2(&actions, their_control.get(), PERFGATE_SPAWNER_CONTROL_FD);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  const std::string path = program.string();
  char* argv[] = {const_cast<char*>(path.c_str()), nullptr};
  pid_t pid = -1;
  const int failed = ::posix_spawn(&pid, path.c_str(), &actions, &attributes, argv, environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (failed != 0) {
    error = fmt::format("{}: {}", path, std::strerror(failed));
    return nullptr;
  }
  return std::make_unique<SpawnerClient>(std::move(requests), std::move(control), pid);
}

SpawnerClient::~SpawnerClient() {
  requests_.reset();
  control_.reset();
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
}

bool SpawnerClient::send_all(int socket, const void* data, std::size_t size, int passed_fd) {
  const char* at = static_cast<const char*>(data);
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  while (size > 0) {
    iovec part{const_cast<char*>(at), size};
    msghdr message{};
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    if (passed_fd >= 0) {
      message.msg_control = control;
      message.msg_controllen = sizeof control;
      cmsghdr* header = CMSG_FIRSTHDR(&message);
      header->cmsg_level = SOL_SOCKET;
      header->cmsg_type = SCM_RIGHTS;
      header->cmsg_len = CMSG_LEN(sizeof(int));
      std::memcpy(CMSG_DATA(header), &passed_fd, sizeof(int));
    }
    const ssize_t sent = ::sendmsg(socket, &message, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return false;
    passed_fd = -1;  // the descriptor travels with the first bytes only
    at += sent;
    size -= static_cast<std::size_t>(sent);
  }
  return true;
}

std::optional<std::uint32_t> SpawnerClient::queue_run(const ProcessSpec& spec, int output_fd,
                                                      bool after_success,
                                                      std::chrono::nanoseconds say_started_after) {
  perfgate_spawner_request request{};
  request.version = PERFGATE_SPAWNER_PROTOCOL_VERSION;
  request.type = PERFGATE_SPAWNER_RUN;
  // Header and strings go out as one message: [header][cwd\0][argv\0...][env\0...].
  std::string message(sizeof request, '\0');
  message.reserve(4096);  // a run's environment is usually a few KiB: one allocation
  if (output_fd >= 0) request.flags |= PERFGATE_SPAWN_CAPTURE_OUTPUT;
  if (spec.kill_escapees) request.flags |= PERFGATE_SPAWN_KILL_ESCAPEES;
  if (after_success) request.flags |= PERFGATE_SPAWN_AFTER_SUCCESS;
  if (spec.cwd) {
    request.flags |= PERFGATE_SPAWN_HAS_CWD;
    message.append(spec.cwd->native()).push_back('\0');
  }
  for (const std::string& arg : spec.argv) message.append(arg).push_back('\0');
  request.argc = static_cast<std::uint32_t>(spec.argv.size());
  if (!spec.env.empty()) {
    request.flags |= PERFGATE_SPAWN_HAS_ENV;
    request.envc = static_cast<std::uint32_t>(append_merged_environment(message, spec.env));
  }
  if (spec.timeout_s) {
    // Beyond about 292 years an int64 of nanoseconds overflows: such a limit is none.
    const double nanoseconds = *spec.timeout_s * 1e9;
    request.timeout_ns =
        nanoseconds >= 9.2e18 ? 0 : std::max<std::int64_t>(1, std::int64_t(nanoseconds));
  }
  request.started_after_ns = say_started_after.count();
  request.payload_bytes = message.size() - sizeof request;
  std::memcpy(message.data(), &request, sizeof request);
  if (!send_all(requests_.get(), message.data(), message.size(), output_fd)) return std::nullopt;
  return ++runs_asked_;
}

void SpawnerClient::kill_run(std::uint32_t run_id) {
  perfgate_spawner_request request{};
  request.version = PERFGATE_SPAWNER_PROTOCOL_VERSION;
  request.type = PERFGATE_SPAWNER_KILL;
  request.run_id = run_id;
  send_all(control_.get(), &request, sizeof request, -1);
}

std::optional<perfgate_spawner_reply> SpawnerClient::read_reply() {
  perfgate_spawner_reply reply{};
  char* at = reinterpret_cast<char*>(&reply);
  std::size_t left = sizeof reply;
  while (left > 0) {
    const ssize_t length = ::read(requests_.get(), at, left);
    if (length < 0 && errno == EINTR) continue;
    if (length <= 0) return std::nullopt;
    at += length;
    left -= static_cast<std::size_t>(length);
  }
  if (reply.type != PERFGATE_SPAWNER_FINISHED && reply.type != PERFGATE_SPAWNER_SKIPPED)
    return std::nullopt;
  return reply;
}

pid_t SpawnerClient::started_pid(std::uint32_t run_id) {
  // One packet per message. The spawner drops what does not fit, so this is read after
  // every run (read_started) as well as when a pid is needed.
  perfgate_spawner_reply reply{};
  while (started_run_ < run_id && ::recv(control_.get(), &reply, sizeof reply, MSG_DONTWAIT) ==
                                      static_cast<ssize_t>(sizeof reply)) {
    if (reply.type == PERFGATE_SPAWNER_STARTED && reply.run_id > started_run_) {
      started_run_ = reply.run_id;
      started_run_pid_ = reply.pid;
    }
  }
  return started_run_ == run_id ? started_run_pid_ : -1;
}

}  // namespace perfgate
