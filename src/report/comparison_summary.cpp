#include "report/comparison_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/ansi.hpp"
#include "report/markdown.hpp"
#include "report/units.hpp"

namespace perfgate {
namespace {

using ansi::kGreen;
using ansi::kRed;
using ansi::kYellow;

const char* status_color(const std::string& status) {
  if (status == kPass) return kGreen;
  if (status == kCalibrationNeeded) return kYellow;
  return kRed;
}

std::string unit_of(const NormalizedRecord& record, const std::string& metric) {
  const auto it = record.metrics.find(metric);
  return it == record.metrics.end() ? "" : it->second.unit;
}

/// Metrics in report order: the standard ones first, then components by name.
std::vector<std::string> metric_order(const std::vector<NormalizedRecord>& records) {
  const std::vector<std::string> standard{"latency", "throughput", "memory", "cpu_time",
                                          "gpu_memory"};
  std::vector<std::string> order;
  for (const auto& name : standard) {
    for (const auto& record : records) {
      if (record.metrics.count(name) != 0) {
        order.push_back(name);
        break;
      }
    }
  }
  std::vector<std::string> components;
  for (const auto& record : records) {
    for (const auto& [name, value] : record.metrics) {
      if (std::find(standard.begin(), standard.end(), name) == standard.end() &&
          std::find(components.begin(), components.end(), name) == components.end()) {
        components.push_back(name);
      }
    }
  }
  std::sort(components.begin(), components.end());
  order.insert(order.end(), components.begin(), components.end());
  return order;
}

const MetricComparison* find_comparison(const NormalizedRecord& record, const std::string& metric) {
  for (const auto& comparison : record.comparisons) {
    if (comparison.metric == metric) return &comparison;
  }
  return nullptr;
}

}  // namespace

std::string format_change(const MetricComparison& comparison) {
  if (!comparison.current || !comparison.baseline || *comparison.baseline == 0) return "n/a";
  const double change = (*comparison.current - *comparison.baseline) / *comparison.baseline * 100.0;
  return fmt::format("{:+.1f}%", change);
}

std::string render_comparison_table(const std::vector<NormalizedRecord>& records, bool color) {
  std::string out;
  for (const auto& record : records) {
    const std::string status =
        ansi::paint(record.comparison_status, status_color(record.comparison_status), color);
    out +=
        fmt::format("{}  {}  {}\n", record.benchmark_id, status, record.comparison_status_reason);
    for (const auto& metric : metric_order({record})) {
      const MetricComparison* comparison = find_comparison(record, metric);
      const std::string unit = unit_of(record, metric);
      const double current = record.metrics.at(metric).value;
      if (comparison == nullptr || !comparison->baseline) {
        out += fmt::format("  {:<18} {:>14}\n", metric, format_quantity(current, unit));
        continue;
      }
      std::string verdict = comparison->regressed            ? "REGRESSED"
                            : comparison->threshold_exceeded ? "exceeded (not gated)"
                                                             : "ok";
      if (comparison->regressed) verdict = ansi::paint(verdict, kRed, color);
      out += fmt::format(
          "  {:<18} {:>14}  vs {:>14}  {:>8}  {}\n", metric, format_quantity(current, unit),
          format_quantity(*comparison->baseline, unit), format_change(*comparison), verdict);
    }
    out += "\n";
  }
  return out;
}

std::string render_comparison_markdown(const std::vector<NormalizedRecord>& records,
                                       const std::string& commit, const std::string& generated_at) {
  const std::vector<std::string> metrics = metric_order(records);
  std::string out = "## perfgate comparison";
  if (!commit.empty()) out += " for `" + markdown_cell(commit.substr(0, 12)) + "`";
  out += "\n\nGenerated " + markdown_cell(generated_at) +
         ". Each metric cell: current vs rolling baseline (change).\n\n";
  out += "| benchmark | status |";
  for (const auto& metric : metrics) out += " " + markdown_cell(metric) + " |";
  out += " reason |\n|---|---|";
  for (std::size_t i = 0; i < metrics.size(); ++i) out += "---|";
  out += "---|\n";
  for (const auto& record : records) {
    out += "| " + markdown_cell(record.benchmark_id) + " | **" +
           markdown_cell(record.comparison_status) + "** |";
    for (const auto& metric : metrics) {
      const auto value = record.metrics.find(metric);
      if (value == record.metrics.end()) {
        out += " — |";
        continue;
      }
      std::string cell = format_quantity(value->second.value, value->second.unit);
      const MetricComparison* comparison = find_comparison(record, metric);
      if (comparison != nullptr && comparison->baseline) {
        cell += " vs " + format_quantity(*comparison->baseline, value->second.unit) + " (" +
                format_change(*comparison) + ")";
        if (comparison->regressed) cell += " ❌";
      }
      out += " " + markdown_cell(cell) + " |";
    }
    out += " " + markdown_cell(record.comparison_status_reason) + " |\n";
  }
  return out;
}

}  // namespace perfgate
