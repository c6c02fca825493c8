// posix_spawn + wait4 of one program N times, nothing else: the floor of per-run cost.
// With --vfork first: vfork + execve + wait4, as perfgate-spawner starts a run (no signal
// reset in the child: the parent handles no signal), the lowest floor there is.
// Usage: spawn_floor [--vfork] N PROGRAM [ARGS...]; prints the total wall seconds.
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace {

pid_t start_with_vfork(char** argv) {
  const pid_t pid = vfork();
  if (pid == 0) {
    execve(argv[0], argv, environ);
    _exit(127);
  }
  return pid;
}

}  // namespace

int main(int argc, char** argv) {
  const bool use_vfork = argc > 1 && std::strcmp(argv[1], "--vfork") == 0;
  if (use_vfork) {
    --argc;
    ++argv;
  }
  if (argc < 3) {
    std::fprintf(stderr, "usage: spawn_floor [--vfork] N PROGRAM [ARGS...]\n");
    return 64;
  }
  const long runs = std::atol(argv[1]);
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < runs; ++i) {
    pid_t pid = 0;
    if (use_vfork) {
      pid = start_with_vfork(argv + 2);
      if (pid < 0) return 1;
    } else if (posix_spawn(&pid, argv[2], nullptr, nullptr, argv + 2, environ) != 0) {
      return 1;
    }
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
  }
  std::printf("%.6f\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return 0;
}
