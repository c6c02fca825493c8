#include "gate/rolling_baseline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "report/units.hpp"
#include "stats/level_shift.hpp"

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

// A record's runs as the estimator takes them: its samples, or its value as one run when
// it kept none (records stored before samples were, imports without them).
std::vector<double> runs_of(const MetricValue& metric) {
  return metric.samples.empty() ? std::vector<double>{metric.value} : metric.samples;
}

// The current record's runs in the parts they were measured in: a record confirmed by
// `compare --confirm` holds its first runs and the confirmation's, taken at two moments of
// the machine (quality_metadata.confirmation.first_samples says where the second begins).
std::vector<std::vector<double>> measured_parts(const NormalizedRecord& record,
                                                const std::string& metric,
                                                const MetricValue& value) {
  std::vector<double> runs = runs_of(value);
  const Json& quality = record.quality_metadata;
  const auto confirmation = quality.find("confirmation");
  if (confirmation == quality.end() || !confirmation->is_object()) return {runs};
  const auto first = confirmation->find("first_samples");
  if (first == confirmation->end() || !first->is_object()) return {runs};
  const auto count = first->find(metric);
  if (count == first->end() || !count->is_number_unsigned()) return {runs};
  const std::size_t split = count->get<std::size_t>();
  if (split == 0 || split >= runs.size()) return {runs};
  const auto middle = runs.begin() + static_cast<std::ptrdiff_t>(split);
  return {std::vector<double>(runs.begin(), middle), std::vector<double>(middle, runs.end())};
}

// "under the 500 ms floor": the absolute part of the policy in the metric's unit.
std::string floor_note(const MetricPolicy& policy, const std::string& unit) {
  return "under the " + format_quantity(policy.threshold_absolute, unit) + " floor";
}

// The stat method's deltas, interval and decision for one metric.
void judge_by_interval(MetricComparison& comparison, const MetricValue& now,
                       const std::vector<std::vector<double>>& now_parts,
                       const std::vector<std::vector<double>>& baseline,
                       const std::vector<std::vector<double>>& history) {
  const stats::LevelShift shift =
      stats::estimate_level_shift(now_parts, baseline, kStatConfidence, history);
  if (!shift.estimated) return;  // a baseline level of 0: no relative change to estimate
  comparison.not_gated.clear();  // the seed rule's note; the interval decides here
  const bool higher_better = now.direction == Direction::kHigherIsBetter;
  // In the worse direction, like the seed's deltas: a throughput drop is positive.
  const double worse = higher_better ? -shift.change : shift.change;
  const double worse_low = higher_better ? -shift.high : shift.low;
  const double worse_high = higher_better ? -shift.low : shift.high;
  const double scale = std::fabs(*comparison.baseline);
  comparison.percent_delta = worse;
  comparison.absolute_delta = worse * scale;
  comparison.interval = ChangeInterval{worse_low, worse_high, kStatConfidence};
  const MetricPolicy& policy = comparison.policy;
  const bool beyond =
      worse_low > policy.threshold_percent && worse_low * scale > policy.threshold_absolute;
  const bool within =
      worse_high <= policy.threshold_percent || worse_high * scale <= policy.threshold_absolute;
  comparison.threshold_exceeded = beyond;
  comparison.regressed = beyond && policy.gated;
  comparison.inconclusive = !beyond && !within && policy.gated;
  if (worse_low > policy.threshold_percent && !beyond)
    comparison.not_gated = floor_note(policy, now.unit);
}

}  // namespace

std::vector<MetricComparison> compare_with_baseline(const NormalizedRecord& current,
                                                    const std::vector<NormalizedRecord>& baseline,
                                                    CompareMethod method,
                                                    const std::vector<NormalizedRecord>& history) {
  std::vector<MetricComparison> comparisons;
  for (const auto& [metric, policy] : current.regression_thresholds) {
    MetricComparison comparison;
    comparison.metric = metric;
    comparison.policy = policy;

    comparison.method = method;
    std::vector<double> values;  // the baseline records' values of the metric
    std::vector<std::vector<double>> baseline_runs;
    for (const NormalizedRecord& record : baseline) {
      if (auto it = record.metrics.find(metric); it != record.metrics.end()) {
        values.push_back(it->second.value);
        baseline_runs.push_back(runs_of(it->second));
      }
    }
    std::vector<std::vector<double>> spread_runs;
    for (const NormalizedRecord& record : history) {
      if (auto it = record.metrics.find(metric); it != record.metrics.end())
        spread_runs.push_back(runs_of(it->second));
    }
    comparison.baseline_count = values.size();
    if (!values.empty()) comparison.baseline = median(values);

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
      if (comparison.percent_delta > policy.threshold_percent && !comparison.threshold_exceeded)
        comparison.not_gated = floor_note(policy, value->second.unit);
      if (method == CompareMethod::kStat)
        judge_by_interval(comparison, value->second, measured_parts(current, metric, value->second),
                          baseline_runs, spread_runs);
    }
    comparisons.push_back(std::move(comparison));
  }
  return comparisons;
}

}  // namespace perfgate
