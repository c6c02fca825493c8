#include "report/comparison_row.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "report/units.hpp"

namespace perfgate {
namespace {

const MetricComparison* find_comparison(const NormalizedRecord& record, const std::string& metric) {
  for (const auto& comparison : record.comparisons) {
    if (comparison.metric == metric) return &comparison;
  }
  return nullptr;
}

const MetricPolicy* find_policy(const NormalizedRecord& record, const MetricComparison* comparison,
                                const std::string& metric) {
  if (comparison != nullptr) return &comparison->policy;
  const auto it = record.regression_thresholds.find(metric);
  return it == record.regression_thresholds.end() ? nullptr : &it->second;
}

/// A policy's threshold_percent (a fraction) as a percentage: 0.08 -> "8%".
std::string row_percent(double fraction) {
  return fmt::format("{:.3g}%", fraction * 100);
}

}  // namespace

namespace {

std::string percent_text(double percent) {
  if (!std::isfinite(percent)) return percent > 0 ? "+inf%" : "-inf%";
  const std::string text = fmt::format("{:+.1f}%", percent);
  return text == "+0.0%" || text == "-0.0%" ? "0.0%" : text;
}

}  // namespace

std::string format_change(const MetricComparison& comparison, Direction direction) {
  if (!comparison.current || !comparison.baseline) return "—";
  if (*comparison.baseline == 0) return "n/a";
  // Deltas are kept in the worse direction; shown, a change has the sign of current − baseline.
  const double sign = direction == Direction::kHigherIsBetter ? -1.0 : 1.0;
  const double change = comparison.interval ? sign * comparison.percent_delta * 100.0
                                            : (*comparison.current - *comparison.baseline) /
                                                  std::fabs(*comparison.baseline) * 100.0;
  const std::string text = percent_text(change);
  const bool worse = direction == Direction::kLowerIsBetter ? change > 0 : change < 0;
  std::string out = text == "0.0%" ? text : text + (worse ? " worse" : " better");
  if (comparison.interval) {
    const double a = sign * comparison.interval->low * 100.0;
    const double b = sign * comparison.interval->high * 100.0;
    out +=
        fmt::format(" ({:g}%: {} to {}{})", comparison.interval->confidence * 100,
                    percent_text(std::min(a, b)), percent_text(std::max(a, b)),
                    // One record cannot show how records scatter: say so beside it.
                    comparison.baseline_count == 1 ? "; 1 baseline record: runs' noise only" : "");
  }
  return out;
}

std::vector<std::string> metric_order(const std::vector<NormalizedRecord>& records) {
  const std::vector<std::string> standard{"latency", "throughput", "memory", "cpu_time",
                                          "gpu_memory"};
  std::set<std::string> present;
  for (const auto& record : records) {
    for (const auto& [name, value] : record.metrics) present.insert(name);
    for (const auto& comparison : record.comparisons) present.insert(comparison.metric);
  }
  std::vector<std::string> order;
  for (const auto& name : standard) {
    if (present.erase(name) != 0) order.push_back(name);
  }
  order.insert(order.end(), present.begin(), present.end());  // the others, by name
  return order;
}

std::map<std::string, std::string> metric_units(
    const std::vector<NormalizedRecord>& records,
    const std::map<std::string, std::string>& baseline_units) {
  std::map<std::string, std::string> units;
  for (const auto& record : records) {
    for (const auto& [name, value] : record.metrics) units.emplace(name, value.unit);
    for (const auto& comparison : record.comparisons) {
      if (auto standard = standard_metric(comparison.metric))
        units.emplace(comparison.metric, standard->unit);
    }
  }
  for (const auto& [name, unit] : baseline_units) units.emplace(name, unit);
  return units;
}

ComparisonRow comparison_row(const NormalizedRecord& record, const std::string& metric,
                             const std::map<std::string, std::string>& units) {
  const auto value = record.metrics.find(metric);
  const MetricComparison* comparison = find_comparison(record, metric);
  const std::optional<double> current =
      value != record.metrics.end() ? std::optional<double>(value->second.value) : std::nullopt;
  // A plain value and a flag rather than a copied optional: GCC 12 at -O3 warns that a
  // copied std::optional<double> "may be used uninitialized" (a false positive).
  const bool has_baseline = comparison != nullptr && comparison->baseline.has_value();
  const double baseline_value = has_baseline ? *comparison->baseline : 0.0;
  const auto unit_it = units.find(metric);
  const std::string unit = value != record.metrics.end() ? value->second.unit
                           : unit_it != units.end()      ? unit_it->second
                                                         : "";
  const DisplayUnit display = choose_display_unit(
      std::max(std::fabs(current.value_or(0)), std::fabs(baseline_value)), unit);

  ComparisonRow row;
  row.metric = metric;
  row.current = current ? format_in(*current, display) : "not measured";
  row.baseline = has_baseline ? format_in(baseline_value, display) : "none";
  row.change =
      comparison != nullptr && current ? format_change(*comparison, value->second.direction) : "—";
  if (const MetricPolicy* policy = find_policy(record, comparison, metric)) {
    // The limit is a quantity of its own, often far from the row's values (0.05 records/s
    // beside 2 M records/s): in the row's unit it would read "0.00000005 M records/s".
    row.threshold = row_percent(policy->threshold_percent) + " and " +
                    format_quantity(policy->threshold_absolute, unit) +
                    (policy->gated ? "" : " (not gated)");
  } else {
    row.threshold = "—";
  }
  row.regressed = comparison != nullptr && comparison->regressed;
  row.exceeded = comparison != nullptr && comparison->threshold_exceeded;
  row.inconclusive = comparison != nullptr && comparison->inconclusive;
  row.not_gated = comparison != nullptr && !comparison->not_gated.empty();
  // An ungated metric whose interval straddles its threshold is not "ok" either.
  const bool straddles = comparison != nullptr && comparison->interval &&
                         !comparison->policy.gated && !row.exceeded &&
                         comparison->interval->high > comparison->policy.threshold_percent &&
                         comparison->interval->high * std::fabs(baseline_value) >
                             comparison->policy.threshold_absolute;
  row.verdict = row.regressed             ? "REGRESSED"
                : row.inconclusive        ? "INCONCLUSIVE"
                : row.exceeded            ? "exceeded (not gated)"
                : row.not_gated           ? "not gated: " + comparison->not_gated
                : straddles               ? "straddles the threshold (not gated)"
                : current && has_baseline ? "ok"
                                          : "skipped";
  return row;
}

}  // namespace perfgate
