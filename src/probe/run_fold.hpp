#pragma once
// Runs beyond the report's detail cap, folded into totals and distributions as they end:
// a program that runs a million times gets a report, and a probe memory, of the size of
// its regions, not of its runs. Everything here is guarded by the registry mutex.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace perfgate::probe::detail {

struct RunRecord;
struct RunRow;
struct DispatchedWork;
struct RegionInfo;

/// Runs kept in runs[] in detail, per process; later ones are folded (docs/probe-report.md).
inline constexpr std::size_t kRunDetailCap = 1000;

/// Values bucketed by an eighth of an octave: a quantile read from it is within 4.5% of the
/// true one, and it holds one counter per bucket the values reach, however many there are.
class LogHistogram {
 public:
  void add(double value);
  /// Adds `n` zeros (runs that did not enter a region).
  void add_zeros(std::uint64_t n);
  /// The value at quantile `q` (0: smallest, 1: largest), as its bucket's midpoint; the
  /// smallest and largest are exact. 0 when empty.
  double quantile(double q) const;
  std::uint64_t count() const { return count_; }

 private:
  std::map<int, std::uint64_t> buckets_;  // floor(8 log2 value) -> count
  std::uint64_t zeros_ = 0;
  std::uint64_t count_ = 0;
  double min_ = 0;
  double max_ = 0;
};

/// One region's time over folded runs: totals, and its wall time per run (0 in a run that
/// did not enter it) as a distribution.
struct RegionFold {
  std::uint64_t calls = 0;
  std::uint64_t wall_ticks = 0;
  std::uint64_t self_ticks = 0;
  std::uint64_t child_calls = 0;
  std::uint64_t runs = 0;           // folded measured runs that entered it
  LogHistogram per_run_wall_ticks;  // over the runs that entered it; the rest are zeros
};

struct RunFold {
  std::uint64_t runs = 0;     // measured runs folded
  std::uint64_t warmups = 0;  // warmup runs beyond the cap: counted, not folded
  std::uint64_t wall_ticks = 0;
  std::uint64_t cpu_ns = 0;
  std::uint64_t top_level_ticks = 0;
  LogHistogram run_wall_ticks;
  std::map<std::uint32_t, RegionFold> regions;     // the runs' own rows, by region index
  std::map<std::uint32_t, RegionFold> dispatched;  // other threads' rows for them
  std::vector<std::uint64_t> name_runs;  // by RegionInfo::name_id: folded runs that entered it

  /// Adds one measured run, its own rows and the work other threads did for it; `regions`
  /// is the registry's region table (for the names).
  void add(const RunRecord& run, const std::vector<DispatchedWork>& work,
           const std::vector<RegionInfo>& regions);
  /// Adds work that arrived after its run was folded: its time, not a run.
  void add_late(const DispatchedWork& work);
};

}  // namespace perfgate::probe::detail
