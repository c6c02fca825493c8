// perfgate-probe with many distinct region names: COUNT siblings named at run time through
// the C API inside one run, each called once, then the report written. Prints the seconds
// the calls took and the seconds the report took (issue 12: 100,000 names in under 1 s;
// they took 24 s while siblings were a list).
//   probe_names COUNT REPORT.json

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "perfgate/probe.h"
#include "perfgate/probe.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: probe_names COUNT REPORT.json\n");
    return 2;
  }
  const long count = std::strtol(argv[1], nullptr, 10);
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  perfgate_probe_run_begin();
  perfgate_probe_region_begin("parent");
  char name[32];
  for (long i = 0; i < count; ++i) {
    std::snprintf(name, sizeof name, "name-%ld", i);
    perfgate_probe_region_begin(name);
    perfgate_probe_region_end();
  }
  perfgate_probe_region_end();
  perfgate_probe_run_end();
  const auto calls_done = clock::now();
  if (!perfgate::probe::flush(argv[2])) return 1;
  const auto written = clock::now();
  std::printf("%.6f %.6f\n", std::chrono::duration<double>(calls_done - start).count(),
              std::chrono::duration<double>(written - calls_done).count());
  return 0;
}
