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

/// The count metrics (issue 36, src/count/): work counted instead of timed, so that a
/// busy machine does not move them. Valgrind's callgrind gives instructions and, from its
/// cache simulation, L1 and last-level misses and an estimated cycle count; hardware
/// counters give instructions, cycles and branch misses.
namespace count_metric_names {
inline constexpr std::string_view kInstructions = "instructions";
inline constexpr std::string_view kL1Misses = "l1_misses";
inline constexpr std::string_view kLlMisses = "ll_misses";
inline constexpr std::string_view kEstimatedCycles = "estimated_cycles";
inline constexpr std::string_view kCycles = "cycles";
inline constexpr std::string_view kBranchMisses = "branch_misses";
/// A probe region's instructions: "<component metric>.instructions" (decode.instructions).
inline constexpr std::string_view kRegionSuffix = ".instructions";
}  // namespace count_metric_names

/// Whether `name` is a region's instruction count: something before ".instructions".
bool is_region_count(std::string_view name);

/// The built-in definition of a standard metric, or nullopt for component metrics.
std::optional<Metric> standard_metric(std::string_view name);

/// The metric a counted figure is recorded as (unit "instructions", "misses" or "cycles",
/// lower is better), or nullopt for a name that is not one of count_metric_names or a
/// region's count (is_region_count).
std::optional<Metric> count_metric(std::string_view name);

}  // namespace perfgate
