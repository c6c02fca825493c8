#pragma once
// Instructions per probe region, from the dumps the probe asks callgrind for in a counted
// run. Under Valgrind, with PERFGATE_COUNT_REGIONS=1, perfgate-probe marks every boundary
// with CALLGRIND_DUMP_STATS_AT, so each dump holds the process's instructions since the one
// before, and its trigger says which boundary it was:
//
//   perfgate-probe R <thread> <run> <warmups>          a run begins ("-": none set)
//   perfgate-probe r <thread> <run>                     it ends
//   perfgate-probe E <thread> <owner> <run> <depth> <id> a region is entered (run 0: none)
//   perfgate-probe X <thread> <id>                      it is left
//   perfgate-probe capped <marks>                       the probe stopped marking
//
// A region's count is the process's instructions between its entry and its exit (all
// threads: exact for a region whose work is on one thread at a time), added over its calls
// in measured runs, divided by the measured runs: the same "per measured iteration" as its
// time (measure/probe_components.hpp). Warmups are told apart by the probe's own rule.
#include <string>
#include <vector>

#include "count/callgrind_output.hpp"

namespace perfgate {

/// One region's count per measured run. `depth` 0 is a top-level region.
struct RegionCount {
  std::string id;
  int depth = 0;
  double instructions = 0;

  bool operator==(const RegionCount&) const = default;
};

struct RegionCounts {
  std::vector<RegionCount> regions;  ///< ordered by id; empty without measured runs
  std::size_t measured_runs = 0;
  std::vector<std::string> warnings;  ///< e.g. the marks were capped
};

/// Reads the probe's marks in `profile`'s dump triggers (other dumps only add their
/// instructions). Marks that do not parse are ignored: a program may ask callgrind for
/// dumps of its own.
RegionCounts region_counts(const CallgrindProfile& profile);

/// The processes of one run: each region's counts added (a region the parent and a forked
/// child both ran took the program the work of both), the warnings joined.
RegionCounts add_region_counts(const std::vector<RegionCounts>& processes);

}  // namespace perfgate
