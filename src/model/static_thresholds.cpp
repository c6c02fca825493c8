#include "model/static_thresholds.hpp"

#include "model/metric.hpp"

namespace perfgate {

std::optional<std::string> select_threshold_block(
    const std::map<std::string, ThresholdBlock>& thresholds, std::string_view device) {
  if (thresholds.empty()) return std::nullopt;
  std::optional<std::string> best;
  for (const auto& [key, block] : thresholds) {
    if (key == "default" || device.find(key) == std::string_view::npos) continue;
    if (!best || key.size() > best->size()) best = key;
  }
  return best ? best : std::optional<std::string>("default");
}

std::string_view threshold_statistic(std::string_view metric) {
  if (metric == metric_names::kMemory || metric == metric_names::kGpuMemory) return "max";
  return "mean";
}

StaticVerdict check_static_thresholds(const std::map<std::string, ThresholdBlock>& thresholds,
                                      std::string_view device,
                                      const std::map<std::string, MetricSeries>& metrics) {
  StaticVerdict verdict;
  const std::optional<std::string> key = select_threshold_block(thresholds, device);
  if (!key) return verdict;
  verdict.selected_block = *key;
  for (const auto& [metric, limit] : thresholds.at(*key).limits) {
    const auto series = metrics.find(metric);
    if (series == metrics.end() || series->second.summary.count == 0) {
      verdict.unmeasured.push_back(metric);
      continue;
    }
    ThresholdCheck check;
    check.metric = metric;
    check.statistic = std::string(threshold_statistic(metric));
    check.value =
        check.statistic == "max" ? series->second.summary.max : series->second.summary.mean;
    check.limit = limit;
    check.lower_bound = metric == metric_names::kThroughput;
    check.breached = check.lower_bound ? check.value < limit : check.value > limit;
    verdict.checks.push_back(check);
  }
  return verdict;
}

}  // namespace perfgate
