#pragma once
// The process-wide half of the probe: call sites, region ids, finished runs and the list of
// thread states. Everything here is guarded by one mutex, taken only off the hot path: when
// a call site or region path is seen for the first time, when a thread first uses the
// probe, at run boundaries, at thread exit and when the report is written.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace perfgate::probe::detail {

inline constexpr std::uint32_t kNoRegion = 0xffffffffu;

struct Site {
  std::string name;
  std::string file;
  int line = 0;
  std::string function;
};

struct RegionInfo {
  std::string id;  // the path: enclosing names and its own, joined by '/'
  std::string name;
  std::uint32_t parent = kNoRegion;
  int depth = 0;
  std::uint32_t site = 0;  // the first call site that used the id
};

struct RunRow {
  std::uint32_t region = kNoRegion;
  std::uint64_t calls = 0;
  std::uint64_t wall_ticks = 0;
  std::uint64_t self_ticks = 0;
};

struct RunRecord {
  std::uint32_t thread_index = 0;
  std::uint64_t wall_ticks = 0;
  std::uint64_t cpu_ns = 0;
  std::uint64_t top_level_ticks = 0;  // inclusive time of the run's outermost regions
  std::vector<RunRow> rows;
};

struct TraceEvent {
  std::uint32_t region = kNoRegion;
  std::uint32_t thread_index = 0;
  std::uint64_t start_ticks = 0;
  std::uint64_t end_ticks = 0;
};

class ThreadState;

struct Registry {
  std::mutex mutex;
  std::vector<Site> sites;
  std::vector<RegionInfo> regions;
  std::map<std::pair<std::uint32_t, std::string>, std::uint32_t> region_by_path;
  std::vector<std::unique_ptr<ThreadState>> threads;
  std::vector<RunRecord> runs;
  std::map<std::uint32_t, std::uint64_t> outside_run_calls;  // region -> calls
  std::vector<TraceEvent> trace;
  std::uint64_t trace_dropped = 0;
  std::uint64_t anchor_ticks = 0;  // the first probe use: trace times start here
  std::uint64_t anchor_steady_ns = 0;

  /// The region `name` directly inside `parent` (kNoRegion: at the top), made on first use.
  std::uint32_t region_for(std::uint32_t parent, std::uint32_t site);
};

/// The registry, made on first use (reading PERFGATE_PROBE, PERFGATE_PROBE_TRACE, choosing
/// the clock and arranging the report at exit). Never destroyed, so that threads and
/// exit handlers that run late still find it.
Registry& registry();

extern std::atomic<bool> g_trace;

/// Most trace events kept per thread between two hand-overs, and in the whole report.
inline constexpr std::size_t kThreadTraceEvents = 1u << 16;
inline constexpr std::size_t kTraceEvents = 1u << 20;

}  // namespace perfgate::probe::detail
