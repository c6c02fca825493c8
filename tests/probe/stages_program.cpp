// A deterministic program of two stages for the counted runs' region counts (issue 36):
// three runs (the first the probe's implicit warmup), each a "parse" loop and a "sort" of a
// fixed pseudo-random array, their sizes read from the file named by argv[1] ("PARSE
// SORT"), so that the work changes while the command, and so the cohort, stays the same.
// Built without the sanitizers (tests/CMakeLists.txt): Valgrind runs it.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <vector>

#include "perfgate/probe.hpp"

namespace {
volatile std::uint64_t g_sink = 0;
}

int main(int argc, char** argv) {
  long parse_steps = 1000;
  long sort_size = 1000;
  if (argc > 1) std::ifstream(argv[1]) >> parse_steps >> sort_size;
  for (int run = 0; run < 3; ++run) {
    perfgate::probe::Run measured;
    {
      PERFGATE_REGION("parse");
      std::uint64_t hash = 1469598103934665603ULL;
      for (long i = 0; i < parse_steps; ++i)
        hash = (hash ^ static_cast<std::uint64_t>(i)) * 1099511628211ULL;
      g_sink = hash;
    }
    {
      PERFGATE_REGION("sort");
      std::vector<std::uint32_t> data(static_cast<std::size_t>(sort_size));
      std::uint64_t state = 88172645463325252ULL;
      for (auto& value : data) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        value = static_cast<std::uint32_t>(state >> 33);
      }
      std::sort(data.begin(), data.end());
      g_sink = data.empty() ? 0 : data[data.size() / 2];
    }
  }
  return 0;
}
