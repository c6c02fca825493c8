#include "measure/orphan_guard.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace perfgate {
namespace {

// The guard's whole life, in the forked child of a process that may have threads: only
// async-signal-safe calls. It keeps nothing of perfgate's open (a store's lock, a run's
// output pipe) but its end of the pipe, ignores the signals a terminal or CI runner sends
// to perfgate's process group (perfgate ends its runs itself then), and reads group ids
// until the pipe closes.
[[noreturn]] void guard(int read_end, int open_max) {
  constexpr int kPipe = 3;
  if (read_end != kPipe && ::dup2(read_end, kPipe) < 0) ::_exit(70);
  ::close(STDIN_FILENO);
  ::close(STDOUT_FILENO);
  if (::syscall(SYS_close_range, kPipe + 1, ~0U, 0) != 0) {
    for (int fd = kPipe + 1; fd < open_max; ++fd) ::close(fd);
  }
  struct sigaction ignore = {};
  ignore.sa_handler = SIG_IGN;
  for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) {
    ::sigaction(signal, &ignore, nullptr);
  }
  pid_t group = 0;
  for (;;) {
    pid_t next = 0;
    const ssize_t got = ::read(kPipe, &next, sizeof next);
    if (got == sizeof next) {
      group = next;
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    break;  // perfgate closed the pipe: it exited or died
  }
  if (group > 0) ::kill(-group, SIGKILL);
  ::_exit(0);
}

}  // namespace

OrphanGuard::OrphanGuard() {
  // A socket rather than a pipe: a write to a guard that is gone fails with EPIPE instead
  // of raising SIGPIPE in perfgate (MSG_NOSIGNAL).
  int ends[2] = {-1, -1};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) return;
  FileDescriptor read_end(ends[0]);
  FileDescriptor write_end(ends[1]);
  // Computed before the fork: sysconf is not async-signal-safe.
  rlimit limit{};
  const int open_max = ::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY
                           ? static_cast<int>(std::min<rlim_t>(limit.rlim_cur, 1 << 16))
                           : 1024;
  const pid_t pid = ::fork();
  if (pid < 0) return;
  if (pid == 0) guard(read_end.get(), open_max);
  pid_ = pid;
  pipe_ = std::move(write_end);
}

OrphanGuard::~OrphanGuard() {
  if (pid_ <= 0) return;
  pipe_ = FileDescriptor();
  while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
  }
}

void OrphanGuard::watch(pid_t group) {
  if (pid_ <= 0) return;
  // One small write is atomic; a guard that is gone (killed by someone) costs nothing.
  while (::send(pipe_.get(), &group, sizeof group, MSG_NOSIGNAL) < 0 && errno == EINTR) {
  }
}

}  // namespace perfgate
