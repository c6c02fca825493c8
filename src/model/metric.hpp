#pragma once
// Metrics: a named quantity with a unit and a direction (SPEC §1).
#include <optional>
#include <string>
#include <string_view>

namespace perfgate {

enum class Direction { kLowerIsBetter, kHigherIsBetter };

std::string_view to_string(Direction direction);  // "lower" or "higher"
std::optional<Direction> parse_direction(std::string_view text);

struct Metric {
  std::string name;
  std::string unit;
  Direction direction = Direction::kLowerIsBetter;
};

/// Rolling-baseline policy of one metric (SPEC §6). threshold_percent is a fraction.
struct MetricPolicy {
  double threshold_percent = 0;
  double threshold_absolute = 0;
  bool gated = true;

  bool operator==(const MetricPolicy&) const = default;
};

/// Names of the metrics every measured benchmark can produce.
namespace metric_names {
inline constexpr std::string_view kLatency = "latency";        // s, wall time per run
inline constexpr std::string_view kThroughput = "throughput";  // units/s
inline constexpr std::string_view kMemory = "memory";          // MB, peak RSS of the tree
inline constexpr std::string_view kCpuTime = "cpu_time";       // s, user + system of the tree
inline constexpr std::string_view kGpuMemory = "gpu_memory";   // MB
}  // namespace metric_names

/// The built-in definition of a standard metric, or nullopt for component metrics.
std::optional<Metric> standard_metric(std::string_view name);

}  // namespace perfgate
