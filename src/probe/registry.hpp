#pragma once
// The process-wide half of the probe: call sites, region ids, finished runs and the list of
// thread states. Everything here is guarded by one mutex, taken only off the hot path: when
// a call site or region path is seen for the first time, when a thread first uses the
// probe, at run boundaries, at thread exit and when the report is written.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "probe/run_fold.hpp"

namespace perfgate::probe::detail {

inline constexpr std::uint32_t kNoRegion = 0xffffffffu;
/// Most distinct region names given at run time (131,072: a program may name 100,000
/// regions after its data and still get them all); the rest share "(other names)".
inline constexpr std::size_t kMaxDynamicNames = std::size_t{1} << 17;

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
  std::uint32_t site = 0;     // the first call site that used the id
  std::uint32_t name_id = 0;  // the same for every region of one name (Registry::name_ids)
};

struct RunRow {
  std::uint32_t region = kNoRegion;
  std::uint64_t calls = 0;
  std::uint64_t wall_ticks = 0;
  std::uint64_t self_ticks = 0;
  std::uint64_t child_calls = 0;  // calls of its direct children (the probe's cost is in self)
  std::uint64_t cpu_ns = 0;       // thread CPU time, while per-region CPU time is on
  std::uint64_t self_cpu_ns = 0;

  /// Adds another row of the same region (another call site of its id, another piece of
  /// dispatched work).
  void add(const RunRow& other) noexcept {
    calls += other.calls;
    wall_ticks += other.wall_ticks;
    self_ticks += other.self_ticks;
    child_calls += other.child_calls;
    cpu_ns += other.cpu_ns;
    self_cpu_ns += other.self_cpu_ns;
  }
};

struct RunRecord {
  std::uint32_t thread_index = 0;
  std::uint32_t number = 0;  // the thread's runs count from 1: what a RunContext names
  std::uint64_t wall_ticks = 0;
  std::uint64_t cpu_ns = 0;
  std::uint64_t top_level_ticks = 0;  // inclusive time of the run's outermost regions
  std::uint64_t top_level_calls = 0;  // their calls (the probe's cost is in the residual)
  std::vector<RunRow> rows;
  bool cpu_measured = false;           // per-region CPU time was on when it started
  std::uint64_t thread_cpu_ns = 0;     // its thread's CPU time over the run
  std::uint64_t top_level_cpu_ns = 0;  // CPU time of its outermost regions
};

/// Regions a thread entered inside an AttachedRun: work done for another thread's run.
struct DispatchedWork {
  std::uint32_t owner_thread = 0;  // the run's thread and number (RunRecord)
  std::uint32_t owner_run = 0;
  std::uint32_t thread_index = 0;  // the thread that did the work
  std::vector<RunRow> rows;
};

/// Calls of one region that did not end as a scope ends, by how they ended.
struct RegionEnds {
  std::uint64_t crossed_run = 0;   ///< opened in a run, ended after it or in another
  std::uint64_t out_of_order = 0;  ///< ended while a region opened inside it was open
  std::uint64_t other_thread = 0;  ///< ended on a thread other than the one that opened it
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
  std::map<std::string, std::uint32_t> name_ids;  // a number per distinct region name
  std::vector<std::unique_ptr<ThreadState>> threads;
  std::vector<RunRecord> runs;  // the first run_detail_cap runs; later ones are folded
  RunFold folded;
  std::size_t run_detail_cap = kRunDetailCap;  // tests lower it
  /// Work for runs not folded (in runs[], or not ended yet), by (thread, run number); one
  /// entry per worker thread, its rows merged, however many AttachedRuns it took.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<DispatchedWork>> dispatched;
  std::map<std::uint32_t, std::uint64_t> outside_run_calls;  // region -> calls
  std::map<std::uint32_t, RegionEnds> region_ends;
  std::uint64_t unmatched_ends = 0;  // ends of regions that were not open
  std::vector<TraceEvent> trace;     // a heap, shortest first, once it holds trace_cap events
  std::uint64_t trace_dropped = 0;
  std::size_t trace_cap = 0;       // kTraceEvents (set where the registry is made); tests lower it
  std::uint64_t anchor_ticks = 0;  // the first probe use: trace times start here
  std::uint64_t anchor_steady_ns = 0;
  // fork(): how often this process forked, and, in a child, the parent it came from.
  std::uint64_t forks = 0;
  std::int64_t forked_from = 0;     // 0: not a forked child
  bool parent_run_dropped = false;  // a run was open at the fork: the parent records it
  // Names given at run time (NamedRegion, the C API): beyond kMaxDynamicNames distinct
  // ones, calls share one site, counted here.
  std::uint64_t dynamic_names_over_cap = 0;

  std::map<std::tuple<std::string, std::string, int>, std::uint32_t> dynamic_sites;
  std::optional<std::uint32_t> overflow_site;       // "(other names)"
  std::size_t dynamic_name_cap = kMaxDynamicNames;  // tests lower it

  /// The region `name` directly inside `parent` (kNoRegion: at the top), made on first use.
  std::uint32_t region_for(std::uint32_t parent, std::uint32_t site);
  /// Keeps a run that ended (the caller holds the mutex): in runs[] up to the cap, else
  /// folded with the work handed out for it; `state` is its thread.
  void keep_run(RunRecord run, ThreadState& state);
  /// Keeps a trace event (the caller holds the mutex): past trace_cap events, the shortest
  /// one kept makes way for a longer one, so a long program keeps its slowest calls.
  void keep_trace(const TraceEvent& event);
  /// Keeps work an AttachedRun did (the caller holds the mutex).
  void keep_dispatched(DispatchedWork work);
  /// The site of a name (and location) given at run time; the caller holds the mutex.
  std::uint32_t dynamic_site_for(const std::string& name, const std::string& file, int line,
                                 const std::string& function);
};

/// The registry, made on first use (reading PERFGATE_PROBE, PERFGATE_PROBE_TRACE, choosing
/// the clock and arranging the report at exit). Never destroyed, so that threads and
/// exit handlers that run late still find it.
Registry& registry();

/// What regions record beyond wall time, as bits of one word so that entering a region
/// tests them all with one load: trace events (set_trace, PERFGATE_PROBE_TRACE=1),
/// per-region CPU time (set_cpu_time, PERFGATE_PROBE_CPU=1) and callgrind marks.
inline constexpr unsigned kRecordTrace = 1;
inline constexpr unsigned kRecordCpu = 2;
/// Region boundaries marked for callgrind in a counted run (probe/count_marks.hpp).
inline constexpr unsigned kRecordCount = 4;
extern std::atomic<unsigned> g_region_extras;
inline bool recording(unsigned extra) noexcept {
  return (g_region_extras.load(std::memory_order_relaxed) & extra) != 0;
}
inline void set_recording(unsigned extra, bool on) noexcept {
  if (on) {
    g_region_extras.fetch_or(extra);
  } else {
    g_region_extras.fetch_and(~extra);
  }
}
/// Runs of each thread that are warmups (set_warmup_runs, PERFGATE_PROBE_WARMUP_RUNS), or
/// kWarmupRunsUnset: then a thread's first run is its (implicit) warmup when runs follow it.
extern std::atomic<unsigned> g_warmup_runs;
inline constexpr unsigned kWarmupRunsUnset = ~0u;
/// The warmups of a thread that has ended `runs` runs: exactly the count set (at most
/// `runs`), or, when none is set, the first run if another follows it.
inline std::uint64_t warmups_of_thread(std::uint64_t runs) {
  const unsigned set = g_warmup_runs.load();
  if (set == kWarmupRunsUnset) return runs > 1 ? 1 : 0;
  return std::min<std::uint64_t>(runs, set);
}
/// Whether a thread's run `number` (from 1) is a warmup when it must be decided as the run
/// ends, before it is known whether more follow (a run folded past the detail cap).
inline bool is_warmup_before_the_end(std::uint64_t number) {
  const unsigned set = g_warmup_runs.load();
  return number <= (set == kWarmupRunsUnset ? 1u : set);
}
/// PERFGATE_PROBE_WARMUP_RUNS as given (cut to 63 bytes) when it is not a count: the
/// report says so. A plain array: the registry may be made before any constructor runs.
extern char g_warmup_runs_refused[64];
/// PERFGATE_PROBE=0 was set when the program started (the report says so).
extern bool g_disabled_by_environment;

/// Trace events a thread buffers before it hands them over, and the most the report keeps.
inline constexpr std::size_t kThreadTraceEvents = 1u << 16;
inline constexpr std::size_t kTraceEvents = 1u << 20;

/// Where a report goes: `path`, or in a forked child `path` with ".<pid>" before its
/// extension (probe.json -> probe.4242.json), so parent and child never overwrite each other.
std::string report_path_for_this_process(const std::string& path);

}  // namespace perfgate::probe::detail
