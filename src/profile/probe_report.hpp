#pragma once
// The probe report (docs/probe-report.md) as typed values: what perfgate-probe writes to
// PERFGATE_PROBE_OUT and what `perfgate profile` and `perfgate run` read back. Times are
// microseconds, as in the file.
#include <optional>
#include <string>
#include <vector>

#include "model/json.hpp"

namespace perfgate::profile {

/// The only schema_version this perfgate reads and writes.
inline constexpr long long kProbeSchemaVersion = 1;

struct ProbeConfig {
  std::string clock;  ///< "tsc" or "steady_clock"
  std::optional<double> clock_hz;
  bool enabled = true;
  /// What switched the probe off: "PERFGATE_PROBE=0" or "set_enabled(false)" (reports
  /// from before this field say nothing).
  std::optional<std::string> disabled_by;
  bool trace = false;
};

struct ProbeTarget {
  std::string executable;
  long long pid = 0;
  std::string process_name;
};

/// One region's time within one run.
struct RegionTime {
  std::string region_id;
  long long calls = 0;
  double wall_time_us = 0;
  double self_wall_time_us = 0;
  double wall_time_fraction = 0;
};

struct ProbeRun {
  long long run_index = 0;
  long long thread_index = 0;
  double wall_time_us = 0;
  double cpu_time_us = 0;
  std::vector<RegionTime> regions;  ///< ordered by region id
  double residual_wall_time_us = 0;
  double residual_wall_time_fraction = 0;
};

/// Metadata of one region id: where it sits in the nesting and its first call site.
struct RegionInfo {
  std::string id;
  std::string name;
  std::optional<std::string> parent;
  long long depth = 0;
  std::string file;
  long long line = 0;
  std::string function;
};

struct ThreadInfo {
  long long thread_index = 0;
  std::string name;
};

/// One row of a key-averages view: a region's totals over all runs.
struct KeyAverage {
  std::string region_id;
  long long calls = 0;
  double self_wall_time_us = 0;
  double wall_time_us = 0;
  long long runs = 0;
};

struct KeyAverages {
  std::vector<KeyAverage> self_time;   ///< by self_wall_time_us, descending
  std::vector<KeyAverage> total_time;  ///< by wall_time_us, descending
};

struct TraceEvent {
  std::string region_id;
  long long thread_index = 0;
  double start_us = 0;  ///< relative to the process's first probe use
  double duration_us = 0;
};

struct ProbeTrace {
  std::vector<TraceEvent> events;
  long long dropped = 0;
};

struct ProbeWarning {
  std::string code;
  std::string message;
};

struct ProbeReport {
  std::string created_at;
  std::string perfgate_version;
  ProbeConfig config;
  ProbeTarget target;
  std::vector<ProbeRun> runs;
  std::vector<RegionInfo> regions;  ///< ordered by id
  std::vector<ThreadInfo> threads;
  KeyAverages key_averages;
  std::optional<ProbeTrace> trace;
  std::vector<ProbeWarning> warnings;
  /// Only in a merged report: the files it combines, in input order (docs/probe-report.md).
  std::vector<std::string> sources;

  /// The metadata of `id`, or nullptr when the report has no such region.
  const RegionInfo* region(const std::string& id) const;
  /// The name of thread `thread_index`, or "thread N" when the report does not name it.
  std::string thread_name(long long thread_index) const;
};

/// The report as the JSON document of docs/probe-report.md (`sources` only when non-empty).
Json to_json(const ProbeReport& report);

}  // namespace perfgate::profile
