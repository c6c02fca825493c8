// perfgate-probe in a long program: COUNT runs, each with a region and a nested one, then
// the report written. Prints the seconds the runs took and the seconds the report took;
// bench/run.sh adds its size and what `perfgate profile` takes to read it (issue 12: a
// million runs give a report of at most 20 MB, shown in under 2 s and 500 MB).
//   probe_runs COUNT REPORT.json

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "perfgate/probe.hpp"

namespace {
volatile unsigned g_sink = 0;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: probe_runs COUNT REPORT.json\n");
    return 2;
  }
  const long count = std::strtol(argv[1], nullptr, 10);
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  for (long i = 0; i < count; ++i) {
    perfgate::probe::Run run;
    PERFGATE_REGION("frame");
    {
      PERFGATE_REGION("decode");
      g_sink = g_sink + static_cast<unsigned>(i);
    }
    PERFGATE_REGION("render");
  }
  const auto runs_done = clock::now();
  if (!perfgate::probe::flush(argv[2])) return 1;
  const auto written = clock::now();
  std::printf("%.6f %.6f\n", std::chrono::duration<double>(runs_done - start).count(),
              std::chrono::duration<double>(written - runs_done).count());
  return 0;
}
