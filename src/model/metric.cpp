#include "model/metric.hpp"

namespace perfgate {

std::string_view to_string(Direction direction) {
  return direction == Direction::kLowerIsBetter ? "lower" : "higher";
}

std::optional<Direction> parse_direction(std::string_view text) {
  if (text == "lower") return Direction::kLowerIsBetter;
  if (text == "higher") return Direction::kHigherIsBetter;
  return std::nullopt;
}

std::optional<Metric> standard_metric(std::string_view name) {
  using namespace metric_names;
  if (name == kLatency) return Metric{std::string(name), "s", Direction::kLowerIsBetter};
  if (name == kThroughput) return Metric{std::string(name), "units/s", Direction::kHigherIsBetter};
  if (name == kMemory) return Metric{std::string(name), "MB", Direction::kLowerIsBetter};
  if (name == kCpuTime) return Metric{std::string(name), "s", Direction::kLowerIsBetter};
  if (name == kGpuMemory) return Metric{std::string(name), "MB", Direction::kLowerIsBetter};
  return std::nullopt;
}

bool is_region_count(std::string_view name) {
  using count_metric_names::kRegionSuffix;
  return name.size() > kRegionSuffix.size() && name.ends_with(kRegionSuffix);
}

std::optional<Metric> count_metric(std::string_view name) {
  using namespace count_metric_names;
  if (name == kInstructions || is_region_count(name))
    return Metric{std::string(name), "instructions"};
  if (name == kL1Misses || name == kLlMisses || name == kBranchMisses)
    return Metric{std::string(name), "misses"};
  if (name == kEstimatedCycles || name == kCycles) return Metric{std::string(name), "cycles"};
  return std::nullopt;
}

}  // namespace perfgate
