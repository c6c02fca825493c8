#pragma once
// The outcome of the static-threshold gate (SPEC §6) for one record.
#include <map>
#include <string>
#include <vector>

#include "model/json.hpp"

namespace perfgate {

/// Limits of one `thresholds` block: metric name -> limit. Keys are metric names after
/// alias resolution: "latency" (from max_latency_s / max_generation_time_s), "memory"
/// (max_memory_mb / max_peak_memory_mb), "cpu_time" (max_cpu_time_s), "gpu_memory"
/// (max_gpu_memory_mb), "throughput" (min_throughput, a lower bound), and any
/// component metric from max_<name>.
struct ThresholdBlock {
  std::map<std::string, double> limits;

  bool operator==(const ThresholdBlock&) const = default;
};

struct ThresholdCheck {
  std::string metric;
  std::string statistic;  ///< which summary was compared: "mean" or "max"
  double value = 0;
  double limit = 0;
  bool lower_bound = false;  ///< true for min_* limits (throughput)
  bool breached = false;
};

struct StaticVerdict {
  /// The thresholds block that applied ("default", a device substring) or "" if none.
  std::string selected_block;
  std::vector<ThresholdCheck> checks;
  /// Limits of the selected block whose metric was not measured (skipped, not a breach).
  std::vector<std::string> unmeasured;

  bool breached() const;
  Json to_json() const;
};

}  // namespace perfgate
