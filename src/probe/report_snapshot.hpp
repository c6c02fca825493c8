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
  std::vector<TraceEvent> trace;
  std::uint64_t trace_dropped = 0;
  std::uint64_t anchor_ticks = 0;
  std::uint64_t anchor_steady_ns = 0;
  std::vector<std::pair<std::uint32_t, std::string>> threads;
  std::vector<Warning> warnings;  // about threads: open runs and regions, lost data
};

Snapshot take_snapshot(ReportMoment moment);

}  // namespace perfgate::probe::detail
