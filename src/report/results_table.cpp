#include "report/results_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "model/visible_text.hpp"
#include "report/ansi.hpp"
#include "report/text_table.hpp"
#include "report/units.hpp"

namespace perfgate {
namespace {

using ansi::kBold;
using ansi::kGreen;
using ansi::kRed;
using ansi::kYellow;

std::string paint(const std::string& text, const char* color, const TableStyle& style) {
  return ansi::paint(text, color, style.color);
}

const char* outcome_color(const std::string& status) {
  if (status == "PASS") return kGreen;
  if (status == "SKIPPED") return kYellow;
  return kRed;
}

using Row = std::array<std::string, 6>;

Row metric_row(const std::string& name, const MetricSeries& series, const StaticVerdict& verdict) {
  const Summary& s = series.summary;
  // One display unit for the whole row, so that its figures compare at a glance.
  const DisplayUnit unit = choose_display_unit(
      std::max({std::fabs(s.mean), std::fabs(s.min), std::fabs(s.max)}), series.metric.unit);
  Row row{visible_text(name),
          format_in(s.mean, unit) + " ± " + format_in(s.stdev, unit),
          format_in(s.median, unit),
          format_in(s.min, unit) + " … " + format_in(s.max, unit),
          "—",
          "—"};
  for (const auto& check : verdict.checks) {
    if (check.metric != name) continue;
    row[4] = std::string(check.lower_bound ? "≥ " : "≤ ") + format_in(check.limit, unit) +
             (check.statistic == "max" ? " (max)" : "");
    row[5] = check.breached ? "BREACH" : "ok";
  }
  return row;
}

/// The columns to show: all six, or without median and then min … max when the table
/// would be wider than the terminal.
std::vector<std::size_t> fitting_columns(const std::array<std::size_t, 6>& width,
                                         std::size_t max_width) {
  std::vector<std::size_t> shown{0, 1, 2, 3, 4, 5};
  const auto total = [&] {
    std::size_t sum = 2;
    for (std::size_t i : shown) sum += width[i] + 2;
    return sum - 2;
  };
  for (std::size_t drop : {std::size_t{2}, std::size_t{3}}) {
    if (max_width == 0 || total() <= max_width) break;
    shown.erase(std::find(shown.begin(), shown.end(), drop));
  }
  return shown;
}

void render_rows(std::string& out, const std::vector<Row>& rows, const TableStyle& style) {
  std::array<std::size_t, 6> width{};
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i)
      width[i] = std::max(width[i], terminal_width(row[i]));
  }
  const std::vector<std::size_t> shown = fitting_columns(width, style.max_width);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line = "  ";
    for (std::size_t k = 0; k < shown.size(); ++k) {
      const std::size_t i = shown[k];
      std::string cell = rows[r][i];
      const std::size_t pad = width[i] - terminal_width(cell);
      if (r > 0 && i == 5 && cell == "BREACH") cell = paint(cell, kRed, style);
      if (r > 0 && i == 5 && cell == "ok") cell = paint(cell, kGreen, style);
      line += cell;
      if (k + 1 < shown.size()) line += std::string(pad + 2, ' ');
    }
    out += line + "\n";
  }
}

}  // namespace

std::string BenchmarkOutcome::status() const {
  if (kind == Kind::kSkipped) return "SKIPPED";
  if (!record.success) return "FAILED";
  return record.static_verdict.breached() ? "REGRESSION" : "PASS";
}

std::string render_outcome_block(const BenchmarkOutcome& outcome, const TableStyle& style) {
  std::string out;
  const std::string status = outcome.status();
  std::string header = paint(visible_text(outcome.name), kBold, style) + "  " +
                       paint(status, outcome_color(status), style);
  if (status == "SKIPPED") return header + "  " + visible_text(outcome.skip_reason) + "\n\n";
  const RawRecord& record = outcome.record;
  if (status == "FAILED") header += "  " + visible_text(record.failure_reason, true);
  const std::size_t measured = static_cast<std::size_t>(
      std::count_if(record.runs.begin(), record.runs.end(),
                    [](const RunObservation& r) { return !r.warmup && r.ok; }));
  header += fmt::format("  ({} of {} measured runs", measured, record.num_measurement_runs);
  if (!record.static_verdict.selected_block.empty()) {
    header += ", thresholds: " + record.static_verdict.selected_block;
  }
  out += header + ")\n";
  std::vector<Row> rows{{"metric", "mean ± stdev", "median", "min … max", "threshold", "verdict"}};
  // Standard metrics first in a fixed order, then component metrics by name.
  const std::array<const char*, 5> standard{"latency", "throughput", "cpu_time", "memory",
                                            "gpu_memory"};
  for (const char* name : standard) {
    const auto it = record.metrics.find(name);
    if (it != record.metrics.end() && it->second.summary.count > 0) {
      rows.push_back(metric_row(name, it->second, record.static_verdict));
    }
  }
  for (const auto& [name, series] : record.metrics) {
    const bool is_standard = std::find(standard.begin(), standard.end(), name) != standard.end();
    if (!is_standard && series.summary.count > 0)
      rows.push_back(metric_row(name, series, record.static_verdict));
  }
  if (rows.size() > 1) render_rows(out, rows, style);
  for (const auto& metric : record.static_verdict.unmeasured) {
    out += "  note: threshold for '" + visible_text(metric) +
           "' skipped: the metric was not measured\n";
  }
  for (const auto& metric : record.missing_components) {
    out += "  note: component metric '" + visible_text(metric) + "' was not reported by any run\n";
  }
  for (const auto& warning : record.warnings) out += "  warning: " + visible_text(warning) + "\n";
  if (!outcome.record_path.empty()) out += "  record: " + outcome.record_path + "\n";
  return out + "\n";
}

std::string render_run_totals(const std::vector<BenchmarkOutcome>& outcomes) {
  int passed = 0, regressed = 0, failed = 0, skipped = 0;
  for (const auto& outcome : outcomes) {
    const std::string status = outcome.status();
    if (status == "SKIPPED")
      ++skipped;
    else if (status == "FAILED")
      ++failed;
    else if (status == "REGRESSION")
      ++regressed;
    else
      ++passed;
  }
  return fmt::format("{} benchmark{}: {} passed, {} regressed, {} failed, {} skipped\n",
                     outcomes.size(), outcomes.size() == 1 ? "" : "s", passed, regressed, failed,
                     skipped);
}

std::string render_results_table(const std::vector<BenchmarkOutcome>& outcomes,
                                 const TableStyle& style) {
  std::string out;
  for (const auto& outcome : outcomes) out += render_outcome_block(outcome, style);
  return out + render_run_totals(outcomes);
}

}  // namespace perfgate
