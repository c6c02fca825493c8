#include "gate/rolling_baseline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace perfgate {
namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  if (values.size() % 2 == 1) return values[middle];
  return (values[middle - 1] + values[middle]) / 2;
}

// A zero baseline has no relative scale: any worsening is infinitely large, so that
// only the absolute threshold can hold it back.
double percent_of(double absolute_delta, double baseline) {
  if (baseline != 0) return absolute_delta / std::fabs(baseline);
  if (absolute_delta > 0) return std::numeric_limits<double>::infinity();
  if (absolute_delta < 0) return -std::numeric_limits<double>::infinity();
  return 0;
}

}  // namespace

std::vector<MetricComparison> compare_with_baseline(const NormalizedRecord& current,
                                                    const std::vector<NormalizedRecord>& baseline) {
  std::vector<MetricComparison> comparisons;
  for (const auto& [metric, policy] : current.regression_thresholds) {
    MetricComparison comparison;
    comparison.metric = metric;
    comparison.policy = policy;

    std::vector<double> history;
    for (const NormalizedRecord& record : baseline) {
      if (auto it = record.metrics.find(metric); it != record.metrics.end()) {
        history.push_back(it->second.value);
      }
    }
    comparison.baseline_count = history.size();
    if (!history.empty()) comparison.baseline = median(history);

    const auto value = current.metrics.find(metric);
    if (value != current.metrics.end()) comparison.current = value->second.value;

    if (comparison.current && comparison.baseline) {
      comparison.absolute_delta = value->second.direction == Direction::kHigherIsBetter
                                      ? *comparison.baseline - *comparison.current
                                      : *comparison.current - *comparison.baseline;
      comparison.percent_delta = percent_of(comparison.absolute_delta, *comparison.baseline);
      comparison.threshold_exceeded = comparison.percent_delta > policy.threshold_percent &&
                                      comparison.absolute_delta > policy.threshold_absolute;
      comparison.regressed = comparison.threshold_exceeded && policy.gated;
    }
    comparisons.push_back(std::move(comparison));
  }
  return comparisons;
}

}  // namespace perfgate
