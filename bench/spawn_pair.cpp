// Two programs started in turn, N times each (A B, B A, A B, ...), each run timed on its own:
// what B costs beyond A when the machine's speed drifts between seconds, as it does on a
// shared VM. Runs in blocks, one program after the other, take that drift for a difference.
// Prints one line: A's median run (ms), B's median run (ms), the median of the N paired
// differences B - A (ms), the page faults per run of A and of B (wait4's minor and major
// faults, averaged), and the median paired difference of the runs' CPU time (user +
// system, ms). Idle the two differences agree to a few µs (a short program's cost is CPU
// work); with a busy loop on each core most runs also wait out a busy loop's time slice
// (about 3 ms here) before they get a CPU, and which of a pair's runs waited moves its wall
// difference by that much, while the CPU time keeps the work the program itself does.
// Usage: spawn_pair N PROGRAM_A PROGRAM_B (each run with no arguments, in this environment)
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern char** environ;

namespace {

struct Run {
  double ms = 0;
  double cpu_ms = 0;
  long faults = 0;
};

double ms_of(const timeval& time) {
  return time.tv_sec * 1e3 + time.tv_usec / 1e3;
}

/// One run of `program`; false when it could not be started or did not exit 0.
bool run_once(const char* program, Run& run) {
  char* argv[] = {const_cast<char*>(program), nullptr};
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  if (posix_spawn(&pid, program, nullptr, nullptr, argv, environ) != 0) return false;
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) != pid) return false;
  run.ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  run.cpu_ms = ms_of(usage.ru_utime) + ms_of(usage.ru_stime);
  run.faults = usage.ru_minflt + usage.ru_majflt;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long pairs = argc == 4 ? std::atol(argv[1]) : 0;
  if (pairs < 1) {
    std::fprintf(stderr, "usage: spawn_pair N PROGRAM_A PROGRAM_B (N >= 1)\n");
    return 64;
  }
  std::vector<double> a_ms, b_ms, differences, cpu_differences;
  long a_faults = 0, b_faults = 0;
  for (long i = 0; i < pairs; ++i) {
    // Every other pair starts B first (A B, B A, A B, ...), so that neither program always
    // follows the other: where a run lands can depend on what ran just before it.
    Run a, b;
    const bool b_first = i % 2 == 1;
    const bool ran = b_first ? run_once(argv[3], b) && run_once(argv[2], a)
                             : run_once(argv[2], a) && run_once(argv[3], b);
    if (!ran) {
      std::fprintf(stderr, "spawn_pair: a run of %s or %s failed\n", argv[2], argv[3]);
      return 1;
    }
    a_ms.push_back(a.ms);
    b_ms.push_back(b.ms);
    differences.push_back(b.ms - a.ms);
    cpu_differences.push_back(b.cpu_ms - a.cpu_ms);
    a_faults += a.faults;
    b_faults += b.faults;
  }
  std::printf("%.4f %.4f %.4f %.1f %.1f %.4f\n", median(a_ms), median(b_ms), median(differences),
              static_cast<double>(a_faults) / pairs, static_cast<double>(b_faults) / pairs,
              median(cpu_differences));
  return 0;
}
