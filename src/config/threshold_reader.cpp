// Static thresholds (SPEC §4, §6): per-device blocks of fail-safe limits.
#include <array>
#include <string_view>

#include "config/config_sections.hpp"
#include "config/error_list.hpp"
#include "model/metric.hpp"

namespace perfgate {
namespace {

struct LimitKey {
  std::string_view key;
  std::string_view metric;
};

// Fixed spellings, seed 000's aliases included. Any other max_<name> limits a component.
constexpr std::array<LimitKey, 7> kLimitKeys = {{
    {"max_latency_s", metric_names::kLatency},
    {"max_generation_time_s", metric_names::kLatency},
    {"max_memory_mb", metric_names::kMemory},
    {"max_peak_memory_mb", metric_names::kMemory},
    {"max_cpu_time_s", metric_names::kCpuTime},
    {"max_gpu_memory_mb", metric_names::kGpuMemory},
    {"min_throughput", metric_names::kThroughput},
}};

// The canonical key of a standard metric, for messages.
std::string canonical_key(std::string_view metric) {
  for (const auto& limit : kLimitKeys) {
    if (limit.metric == metric) return std::string(limit.key);
  }
  return "max_" + std::string(metric);
}

std::vector<std::string> known_limit_keys() {
  std::vector<std::string> keys;
  for (const auto& limit : kLimitKeys) keys.emplace_back(limit.key);
  keys.emplace_back("max_<component metric>");
  return keys;
}

// The metric a block key limits, or an error when the key is not a limit key.
std::string limited_metric(const ConfigValue& block, const std::string& key) {
  for (const auto& limit : kLimitKeys) {
    if (limit.key == key) return std::string(limit.metric);
  }
  const std::string_view prefix = "max_";
  if (key.size() <= prefix.size() || key.compare(0, prefix.size(), prefix) != 0) {
    throw unknown_key_error(block, key, known_limit_keys());
  }
  const std::string metric = key.substr(prefix.size());
  // max_latency or max_throughput would silently mean something else (throughput is a
  // lower bound), so standard metrics only go through their fixed spellings.
  if (standard_metric(metric)) {
    throw block.child_error(key, "unknown key '" + key + "'",
                            "Did you mean '" + canonical_key(metric) + "'?");
  }
  return metric;
}

ThresholdBlock read_block(const ConfigValue& block) {
  ThresholdBlock result;
  std::map<std::string, std::string> key_of_metric;
  // Every bad key of the block at once: an unknown one does not hide the others.
  ErrorList errors;
  for (const auto& [key, value] : block.members()) {
    // Bindings are captured by name: clang 14 (the fuzz build) cannot capture them with [&].
    errors.check([&, &key = key, &value = value] {
      const std::string metric = limited_metric(block, key);
      if (auto earlier = key_of_metric.find(metric); earlier != key_of_metric.end()) {
        throw value.error(
            "'" + key + "' and '" + earlier->second + "' both set the " + metric + " limit",
            "Keep only '" + canonical_key(metric) + "'");
      }
      key_of_metric[metric] = key;
      result.limits[metric] = value.positive_number();
    });
  }
  // A misspelled limit key is the likely cause of a missing one: report only the spelling.
  errors.throw_if_any();
  if (!result.limits.contains(std::string(metric_names::kLatency))) {
    throw block.child_error("max_latency_s", "missing required key",
                            "Add a latency limit in seconds (max_latency_s, alias "
                            "max_generation_time_s) to every thresholds block");
  }
  if (!result.limits.contains(std::string(metric_names::kMemory))) {
    throw block.child_error("max_memory_mb", "missing required key",
                            "Add a peak-memory limit in MB (max_memory_mb, alias "
                            "max_peak_memory_mb) to every thresholds block");
  }
  return result;
}

}  // namespace

std::map<std::string, ThresholdBlock> read_thresholds(const ConfigValue& value) {
  std::map<std::string, ThresholdBlock> blocks;
  ErrorList errors;
  for (const auto& [device, block] : value.members()) {
    errors.check([&, &device = device, &block = block] {
      if (device.empty()) {
        throw block.error("a thresholds key must not be empty",
                          "Name a device substring such as \"H100\", or \"default\"");
      }
      blocks[device] = read_block(block);
    });
  }
  errors.throw_if_any();
  if (!blocks.contains("default")) {
    throw value.child_error("default", "missing required block",
                            "Add a thresholds.default block; it applies on devices that match "
                            "no other key");
  }
  return blocks;
}

}  // namespace perfgate
