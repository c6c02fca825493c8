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
  /// Per-region CPU time was on when the report was written (older reports: none).
  std::optional<bool> cpu_time{};
  /// The probe's measured cost per region call (reports from before this field: none).
  std::optional<double> region_cost_ns{};
  /// Runs of each thread marked as warmups besides the implicit one (older reports: none).
  std::optional<long long> warmup_runs{};
};

struct ProbeTarget {
  std::string executable;
  long long pid = 0;
  std::string process_name;
};

/// One merged input's program (ProbeReport::targets), with the file it came from.
struct MergedTarget {
  std::string source;
  ProbeTarget target;
};

/// One region's time within one run.
struct RegionTime {
  std::string region_id;
  long long calls = 0;
  double wall_time_us = 0;
  double self_wall_time_us = 0;
  double wall_time_fraction = 0;
  /// With per-region CPU time on (config.cpu_time): its thread's CPU time, and the share
  /// of the run thread's CPU time (not for dispatched rows).
  std::optional<double> cpu_time_us{};
  std::optional<double> self_cpu_time_us{};
  std::optional<double> cpu_time_fraction{};
};

/// A region's time on another thread, for this run (RunContext and AttachedRun).
struct DispatchedTime {
  long long thread_index = 0;
  RegionTime time;
};

/// The probe's own time within a run (reports from before this field: none).
struct ProbeCost {
  long long region_calls = 0;
  double cost_us = 0;
  double cost_fraction = 0;
};

struct ProbeRun {
  long long run_index = 0;
  long long thread_index = 0;
  /// Kept, but left out of the key averages and the summary across runs.
  bool warmup = false;
  double wall_time_us = 0;
  double cpu_time_us = 0;
  std::vector<RegionTime> regions;  ///< ordered by region id
  double residual_wall_time_us = 0;
  double residual_wall_time_fraction = 0;
  /// With per-region CPU time on: the run thread's CPU time and its part outside every
  /// top-level region.
  std::optional<double> thread_cpu_time_us{};
  std::optional<double> residual_cpu_time_us{};
  std::optional<double> residual_cpu_time_fraction{};
  /// Beside the run's own tree, not part of its 100%: ordered by thread, then region id.
  std::vector<DispatchedTime> dispatched{};
  std::optional<ProbeCost> probe{};
};

/// Every measured run summed up by the library, the runs it folded past its detail cap
/// included (reports from before it: none).
struct SummaryRow {
  std::string region_id;
  long long runs = 0;  ///< measured runs that entered it
  double calls = 0;    ///< means per measured run, a run without it counting zero
  double wall_time_us = 0;
  double self_wall_time_us = 0;
  double wall_time_fraction = 0;  ///< of the measured runs' total wall time
  double median_us = 0;           ///< its wall time per run: median, 90th percentile, largest
  double p90_us = 0;
  double max_us = 0;
};

struct ProbeSummary {
  long long runs = 0;
  long long measured_runs = 0;
  long long listed_runs = 0;  ///< runs[] has the first this many
  std::string quantiles;      ///< "exact" or "histogram" (within 4.5%)
  double wall_mean_us = 0;
  double wall_min_us = 0;
  double wall_median_us = 0;
  double wall_p90_us = 0;
  double wall_max_us = 0;
  double cpu_mean_us = 0;
  double residual_wall_time_us = 0;
  double residual_wall_time_fraction = 0;
  std::vector<SummaryRow> regions;
  std::vector<SummaryRow> dispatched;
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
  /// In a merged report: the index in `targets` of the program the thread belongs to.
  std::optional<long long> target{};
};

/// One row of a key-averages view: a region's totals over all runs.
struct KeyAverage {
  std::string region_id;
  long long calls = 0;
  double self_wall_time_us = 0;
  double wall_time_us = 0;
  long long runs = 0;
};

/// One row of the by-name view: every id of one name (all its callers) together.
struct NameAverage {
  std::string name;
  long long calls = 0;
  double self_wall_time_us = 0;
  double wall_time_us = 0;
  long long runs = 0;
  long long ids = 0;
};

struct KeyAverages {
  std::vector<KeyAverage> self_time;   ///< by self_wall_time_us, descending
  std::vector<KeyAverage> total_time;  ///< by wall_time_us, descending
  std::vector<NameAverage> by_name{};  ///< by self_wall_time_us, descending
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
  std::optional<ProbeSummary> summary{};
  std::vector<RegionInfo> regions;  ///< ordered by id
  std::vector<ThreadInfo> threads;
  KeyAverages key_averages;
  std::optional<ProbeTrace> trace;
  std::vector<ProbeWarning> warnings;
  /// Only in a merged report: the files it combines, in input order (docs/probe-report.md).
  std::vector<std::string> sources;
  /// Only in a merged report: each input's program, in input order; threads[].target
  /// points here.
  std::vector<MergedTarget> targets{};

  /// The metadata of `id`, or nullptr when the report has no such region.
  const RegionInfo* region(const std::string& id) const;
  /// The name of thread `thread_index`, or "thread N" when the report does not name it;
  /// in a merged report followed by its program and pid: "main (app, pid 42)".
  std::string thread_name(long long thread_index) const;
  /// The program of thread `thread_index`: its merged input's target, else `target`.
  const ProbeTarget& thread_target(long long thread_index) const;
};

/// The report as the JSON document of docs/probe-report.md, keys in the order the probe
/// library writes them (`sources` and `targets` only when non-empty).
nlohmann::ordered_json to_json(const ProbeReport& report);

}  // namespace perfgate::profile
