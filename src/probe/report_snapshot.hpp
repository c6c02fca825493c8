#pragma once
// What a report is made from: a copy of the registry taken under its lock, after the
// calling thread has handed over its own data, plus the warnings that only the thread
// states can tell (open runs and regions, threads still running at exit).

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "probe/registry.hpp"
#include "probe/report_writer.hpp"

namespace perfgate::probe::detail {

struct Warning {
  std::string code;
  std::string message;
};

struct Snapshot {
  std::vector<Site> sites;
  std::vector<RegionInfo> regions;
  std::vector<RunRecord> runs;
  std::map<std::uint32_t, std::uint64_t> outside_run_calls;
  std::map<std::uint32_t, RegionEnds> region_ends;
  std::uint64_t unmatched_ends = 0;
  std::vector<TraceEvent> trace;
  std::uint64_t trace_dropped = 0;
  std::uint64_t anchor_ticks = 0;
  std::uint64_t anchor_steady_ns = 0;
  std::vector<std::pair<std::uint32_t, std::string>> threads;
  std::vector<Warning> warnings;  // about threads: open runs and regions, lost data
  std::uint64_t forks = 0;
  std::int64_t forked_from = 0;
  bool parent_run_dropped = false;
  std::uint64_t dynamic_names_over_cap = 0;
  std::size_t dynamic_name_cap = 0;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<DispatchedWork>> dispatched{};
  RunFold folded{};
  std::map<std::uint32_t, std::uint32_t> ended_runs{};  // thread index -> its runs that ended
};

Snapshot take_snapshot(ReportMoment moment);

}  // namespace perfgate::probe::detail
