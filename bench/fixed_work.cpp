// Does a fixed amount of CPU work: N million rounds of a dependent multiply-add (default
// 30). Unlike busy_loop, which spins until a wall time has passed, its duration grows
// when the machine is busy, as a real benchmark's does: the workload of compare's A/A
// check (compare_verdicts.sh), which finds the N that makes a run 10% slower than N = 30.
// `@FILE` reads N from a file, so that a benchmark's command (its recipe) stays the same
// while N changes.
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

int main(int argc, char** argv) {
  double millions = 30;
  if (argc > 1 && argv[1][0] == '@') {
    std::ifstream(argv[1] + 1) >> millions;
  } else if (argc > 1) {
    millions = std::atof(argv[1]);
  }
  const auto rounds = static_cast<std::uint64_t>(millions * 1e6);
  volatile std::uint64_t sink = 0;
  std::uint64_t x = 88172645463325252ULL;
  for (std::uint64_t i = 0; i < rounds; ++i)
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
  sink = x;
  (void)sink;
  return 0;
}
