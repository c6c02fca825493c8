// posix_spawn + wait4 of one program N times, nothing else: the floor of per-run cost.
// Usage: spawn_floor N PROGRAM [ARGS...]; prints the total wall seconds.
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

extern char** environ;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: spawn_floor N PROGRAM [ARGS...]\n");
    return 64;
  }
  const long runs = std::atol(argv[1]);
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < runs; ++i) {
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[2], nullptr, nullptr, argv + 2, environ) != 0) return 1;
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
  }
  std::printf("%.6f\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return 0;
}
