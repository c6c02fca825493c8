#include "measure/spawner_client.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

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

std::unique_ptr<SpawnerClient> SpawnerClient::start(const fs::path& program, std::string& error) {
  if (program.empty()) {
    error = "no perfgate-spawner (PERFGATE_SPAWNER is empty)";
    return nullptr;
  }
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
    error = fmt::format("cannot create its socket: {}", std::strerror(errno));
    return nullptr;
  }
  FileDescriptor ours(ends[0]);
  FileDescriptor theirs(ends[1]);
  // dup2 onto the same number would leave close-on-exec set, so never hand over fd 3 itself.
  if (theirs.get() == PERFGATE_SPAWNER_FD)
    theirs = FileDescriptor(::fcntl(ends[1], F_DUPFD_CLOEXEC, 0));

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, theirs.get(), PERFGATE_SPAWNER_FD);
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
  return std::make_unique<SpawnerClient>(std::move(ours), pid);
}

SpawnerClient::~SpawnerClient() {
  socket_.reset();
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
}

bool SpawnerClient::send_all(const void* data, std::size_t size, int passed_fd) {
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
    const ssize_t sent = ::sendmsg(socket_.get(), &message, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return false;
    passed_fd = -1;  // the descriptor travels with the first bytes only
    at += sent;
    size -= static_cast<std::size_t>(sent);
  }
  return true;
}

SpawnerClient::Started SpawnerClient::start_run(const ProcessSpec& spec, int output_fd) {
  perfgate_spawner_request request{};
  request.version = PERFGATE_SPAWNER_PROTOCOL_VERSION;
  request.type = PERFGATE_SPAWNER_RUN;
  // Header and strings go out as one message: [header][cwd\0][argv\0...][env\0...].
  std::string message(sizeof request, '\0');
  if (output_fd >= 0) request.flags |= PERFGATE_SPAWN_CAPTURE_OUTPUT;
  if (spec.kill_escapees) request.flags |= PERFGATE_SPAWN_KILL_ESCAPEES;
  if (spec.cwd) {
    request.flags |= PERFGATE_SPAWN_HAS_CWD;
    message.append(spec.cwd->native()).push_back('\0');
  }
  for (const std::string& arg : spec.argv) message.append(arg).push_back('\0');
  request.argc = static_cast<std::uint32_t>(spec.argv.size());
  if (!spec.env.empty()) {
    request.flags |= PERFGATE_SPAWN_HAS_ENV;
    const std::vector<std::string> environment = merged_environment(spec.env);
    for (const std::string& entry : environment) message.append(entry).push_back('\0');
    request.envc = static_cast<std::uint32_t>(environment.size());
  }
  request.payload_bytes = message.size() - sizeof request;
  std::memcpy(message.data(), &request, sizeof request);

  Started started;
  const auto reply = send_all(message.data(), message.size(), output_fd)
                         ? read_reply()
                         : std::optional<perfgate_spawner_reply>();
  if (!reply || reply->type != PERFGATE_SPAWNER_STARTED) {
    started.alive = false;
    return started;
  }
  started.pid = reply->pid;
  started.error = reply->error;
  return started;
}

void SpawnerClient::kill_run() {
  perfgate_spawner_request request{};
  request.version = PERFGATE_SPAWNER_PROTOCOL_VERSION;
  request.type = PERFGATE_SPAWNER_KILL;
  send_all(&request, sizeof request, -1);
}

std::optional<perfgate_spawner_reply> SpawnerClient::read_finished() {
  auto reply = read_reply();
  if (!reply || reply->type != PERFGATE_SPAWNER_FINISHED) return std::nullopt;
  return reply;
}

std::optional<perfgate_spawner_reply> SpawnerClient::read_reply() {
  perfgate_spawner_reply reply{};
  char* at = reinterpret_cast<char*>(&reply);
  std::size_t left = sizeof reply;
  while (left > 0) {
    const ssize_t length = ::read(socket_.get(), at, left);
    if (length < 0 && errno == EINTR) continue;
    if (length <= 0) return std::nullopt;
    at += length;
    left -= static_cast<std::size_t>(length);
  }
  return reply;
}

}  // namespace perfgate
