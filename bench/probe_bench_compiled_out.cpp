// The compiled-out case of probe_bench: this file is built with PERFGATE_PROBE_DISABLE, so
// PERFGATE_REGION expands to nothing and Run is an empty type.

#include <benchmark/benchmark.h>

#include "perfgate/probe.hpp"

void compiled_out_regions(benchmark::State& state) {
  perfgate::probe::Run run;
  for (auto _ : state) {
    PERFGATE_REGION("empty");
  }
}
