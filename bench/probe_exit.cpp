// The smallest instrumented program: one run, one region. Built twice (probe_exit and,
// with PERFGATE_PROBE_DISABLE, probe_exit_compiled_out) so that run.sh can time what the
// probe adds to a whole program that writes its report (issue 12: under 0.5 ms). Both are
// C++ programs that load libstdc++, as every program that can use the probe does: without
// the steady_clock call the compiled-out one would link no C++ runtime at all, and loading
// it (about 3 ms here) would be counted as the probe's cost.
#include <chrono>

#include <perfgate/probe.hpp>

int main() {
  const auto started = std::chrono::steady_clock::now();
  {
    perfgate::probe::Run run;
    PERFGATE_REGION("x");
  }
  return std::chrono::steady_clock::now() < started ? 1 : 0;
}
