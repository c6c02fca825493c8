// posix_spawn + wait4 of one program N times, nothing else: the floor of per-run cost.
// With --vfork first: vfork + execve + wait4, as perfgate-spawner starts a run (no signal
// reset in the child: the parent handles no signal), the lowest floor there is.
// With --count-slow, it also says on stderr how many runs took over 3x the median run (under
// a busy loop per core: runs the kernel started behind a busy loop's time slice).
// Usage: spawn_floor [--vfork] [--count-slow] N PROGRAM [ARGS...]; prints the total wall
// seconds.
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

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
  const auto option = [&](const char* name) {
    if (argc < 2 || std::strcmp(argv[1], name) != 0) return false;
    --argc;
    ++argv;
    return true;
  };
  const bool use_vfork = option("--vfork");
  const bool count_slow = option("--count-slow");
  const long runs = argc < 3 ? 0 : std::atol(argv[1]);
  if (runs < 1) {
    std::fprintf(stderr,
                 "usage: spawn_floor [--vfork] [--count-slow] N PROGRAM [ARGS...] (N >= 1)\n");
    return 64;
  }
  // Each run's wall costs two clock reads, as perfgate's do; reserved before the first run.
  std::vector<double> walls;
  if (count_slow) walls.reserve(static_cast<std::size_t>(runs));
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < runs; ++i) {
    const auto run_start = count_slow ? std::chrono::steady_clock::now() : start;
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
    if (count_slow) {
      walls.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count());
    }
  }
  std::printf("%.6f\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  if (count_slow) {
    std::vector<double> sorted = walls;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(sorted.size() / 2),
                     sorted.end());
    const double median = sorted[sorted.size() / 2];
    std::fprintf(stderr, "%ld\n",
                 static_cast<long>(std::count_if(walls.begin(), walls.end(),
                                                 [&](double wall) { return wall > 3 * median; })));
  }
  return 0;
}
