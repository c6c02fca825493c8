// The smallest instrumented program: one run, one region. Built twice (probe_exit and,
// with PERFGATE_PROBE_DISABLE, probe_exit_compiled_out) so that run.sh can time what the
// probe adds to a whole program that writes its report (issue 12: under 0.5 ms).
#include <perfgate/probe.hpp>

int main() {
  perfgate::probe::Run run;
  PERFGATE_REGION("x");
}
