#pragma once
// From run observations to metric series: which samples each metric gets. Pure.
#include <map>
#include <string>
#include <vector>

#include "config/benchmark_config.hpp"
#include "model/raw_record.hpp"

namespace perfgate {

/// A metric a program reported through PERFGATE_METRICS_OUT, after component mapping.
struct ComponentReport {
  std::string metric;
  double value = 0;
  std::string unit;
  Direction direction = Direction::kLowerIsBetter;
};

struct AssembledMetrics {
  std::map<std::string, MetricSeries> metrics;
  std::vector<std::string> missing_components;
  std::vector<std::string> warnings;
};

/// Builds latency, cpu_time, memory (whenever run_config.measure holds "time"), throughput
/// (when the config declares it too) and one series per component metric from the
/// measured (non-warmup, ok) runs.
/// `components[i]` holds what measured run i reported, already mapped to metric names.
AssembledMetrics assemble_metrics(const BenchmarkConfig& config,
                                  const std::vector<RunObservation>& measured_runs,
                                  const std::vector<std::vector<ComponentReport>>& components);

/// Adds one series per count metric (count_metric: instructions, l1_misses, ...) from the
/// counted runs, `counts` holding each metric's value per run. Where the instruction
/// counts differ by more than 0.1% between runs, a COUNTS_VARY warning says the program is
/// not deterministic and the counts are judged by their spread, like a time.
void add_count_metrics(AssembledMetrics& assembled,
                       const std::map<std::string, std::vector<double>>& counts);

/// Throughput of the measured runs: one sample per run, units_per_run / wall_s, for display;
/// summary.mean, the value the static and rolling gates read, is units_per_run divided by
/// the mean latency of those runs (the harmonic mean of the samples, not their arithmetic
/// mean). The other summary fields describe the samples. Runs with wall_s <= 0 give no sample.
MetricSeries throughput_series(double units_per_run, const std::string& unit,
                               const std::vector<RunObservation>& measured_runs);

/// Applies the config's component_metrics mapping to names a program reported: with a
/// mapping, only mapped names are kept (renamed to their metric); without one, every name
/// is kept as is. Values reported twice in one run under one name are summed (a stage
/// that ran twice took the sum of both times).
std::vector<ComponentReport> map_components(const BenchmarkConfig& config,
                                            const std::vector<ComponentReport>& reported);

}  // namespace perfgate
