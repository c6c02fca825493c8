#pragma once
// Was the machine busier when a record was measured than when its baseline was? A busy
// loop on every core makes the same program slower, and the runs under it agree with each
// other, so an interval alone calls it a regression (issue 34). The records keep the load
// around their runs (measure/machine_state.hpp); this compares them. Pure.
#include <optional>
#include <string>
#include <vector>

#include "model/normalized_record.hpp"

namespace perfgate {

/// The load the machine carried besides a record's runs.
struct BackgroundLoad {
  double load = 0;  ///< runnable tasks, as /proc/loadavg counts them (1-minute average)
  int cores = 0;
};

/// A record's background load from quality_metadata.machine_state: per measured part (the
/// first runs, and a `compare --confirm` confirmation's), the smaller of the 1-minute load
/// before and after its runs, since the larger one also counts the runs themselves; the
/// busiest part. nullopt when no part says both its load and its cores.
std::optional<BackgroundLoad> background_load(const NormalizedRecord& record);

/// A record's CPU pressure: per measured part, the share of the time in which some task
/// waited for a CPU (machine_state.cpu_pressure_percent); the busiest part. nullopt when
/// no part says it (a kernel without pressure stall information, an older record).
std::optional<double> cpu_pressure(const NormalizedRecord& record);

/// A change in a metric of this unit can come from the machine's load: times ("s", "ms",
/// "us", "ns", …) and rates ("items/s"); counts and bytes cannot.
bool load_sensitive_unit(const std::string& unit);

/// Why `current`'s changes may be the machine's. Where both sides say their CPU pressure:
/// some task waited for a CPU at least a quarter of the time of its runs, and at least 20
/// points more than in the busiest baseline record ("measured while tasks waited for a CPU 97% of
/// the time, its baseline 3% at most"). Else by the load average: more runnable tasks than
/// cores, and at least one more than the busiest baseline record ("measured at load 3.9 on
/// 2 core(s), its baseline at load 0.4 at most"; the 1-minute average lags a load that
/// just began) — where both sides say their pressure, only when the record's runs met a
/// busy machine (pressure at least 25%): both sides busy, the pressure cannot rank them.
/// "" when they do not differ so, or a side says neither.
std::string busier_than_baseline(const NormalizedRecord& current,
                                 const std::vector<NormalizedRecord>& baseline);

/// A busy machine under a record's runs, and how much slower it could have made them.
struct BusyMachine {
  std::string description;  ///< "tasks waited for a CPU 57% of the time"
  /// The largest slowdown (a ratio, >= 1) the load alone can explain: runs that met tasks
  /// waiting for a CPU a share p of their time waited at most that long themselves, so they
  /// took at most 1 / (1 - p) times as long as on an idle machine; by the load average, L
  /// runnable tasks on C cores leave each at least C / L of a CPU. Infinity at p = 100%.
  double explainable_slowdown = 1;
};

/// Whether the machine was busy for every part of a record's measurement (its first runs,
/// and a `compare --confirm` confirmation's): by the CPU pressure where a part says it, at
/// least 25%; else by the load average, more runnable tasks than cores. The least busy
/// part, which bounds what the load can explain. nullopt when a part was idle or unsaid.
std::optional<BusyMachine> busy_machine(const NormalizedRecord& record);

}  // namespace perfgate
