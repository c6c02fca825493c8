// Spins on the CPU until MS milliseconds of wall time have passed (default 20; fractions
// allowed, e.g. 30.9 for a head 3% slower than 30): a workload whose true duration is
// known, to see how close each tool's figure comes to it.
#include <chrono>
#include <cstdlib>

int main(int argc, char** argv) {
  const auto budget = std::chrono::duration<double, std::milli>(argc > 1 ? std::atof(argv[1]) : 20);
  const auto start = std::chrono::steady_clock::now();
  volatile unsigned long sink = 0;
  while (std::chrono::steady_clock::now() - start < budget) {
    for (int i = 0; i < 1000; ++i) sink = sink + static_cast<unsigned long>(i);
  }
  return 0;
}
