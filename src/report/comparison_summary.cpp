#include "report/comparison_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "model/visible_text.hpp"
#include "report/ansi.hpp"
#include "report/comparison_row.hpp"
#include "report/count_note.hpp"
#include "report/markdown.hpp"
#include "report/text_table.hpp"

namespace perfgate {
namespace {

using ansi::kGreen;
using ansi::kRed;
using ansi::kYellow;

constexpr const char* kThresholdHeading = "threshold (worse by)";

const char* status_color(const std::string& status) {
  if (status == kPass) return kGreen;
  if (status == kCalibrationNeeded || status == kInconclusive) return kYellow;
  return kRed;
}

/// A record does not list a metric that neither it nor its comparisons hold.
bool has_metric(const NormalizedRecord& record, const std::string& metric) {
  if (record.metrics.count(metric) != 0) return true;
  return std::any_of(record.comparisons.begin(), record.comparisons.end(),
                     [&](const MetricComparison& c) { return c.metric == metric; });
}

using Cells = std::array<std::string, 6>;

Cells cells_of(const ComparisonRow& row) {
  return {
      visible_text(row.metric), row.current, row.baseline, row.change, row.threshold, row.verdict};
}

/// Rows padded to their columns' widths, two spaces apart, indented by two.
std::string aligned(const std::vector<Cells>& rows, const std::vector<ComparisonRow>& metrics,
                    bool color, std::size_t max_width) {
  std::array<std::size_t, 6> width{};
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i)
      width[i] = std::max(width[i], terminal_width(row[i]));
  }
  std::size_t total = 1;
  for (std::size_t w : width) total += w + 2;
  // On a narrow terminal the threshold column goes first: the verdict still says whether
  // the change was too large, and the Markdown summary keeps every column.
  const bool drop_threshold = max_width != 0 && total > max_width;
  std::string out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line = " ";
    for (std::size_t i = 0; i < rows[r].size(); ++i) {
      if (drop_threshold && i == 4) continue;
      std::string cell = rows[r][i];
      const bool last = i + 1 == rows[r].size();
      if (last && r > 0 && metrics[r - 1].regressed) cell = ansi::paint(cell, kRed, color);
      if (last && r > 0 && !metrics[r - 1].regressed &&
          (metrics[r - 1].exceeded || metrics[r - 1].inconclusive || metrics[r - 1].not_gated))
        cell = ansi::paint(cell, kYellow, color);
      line += " " + cell;
      if (!last) line += std::string(width[i] - terminal_width(rows[r][i]) + 1, ' ');
    }
    out += line + "\n";
  }
  return out;
}

/// The overview cell of one metric: "1.5 s vs 1 s (+50.0% worse)", with the verdict
/// when the metric exceeded its threshold.
std::string overview_cell(const ComparisonRow& row) {
  std::string cell = row.current;
  if (row.baseline != "none") {
    cell += " vs " + row.baseline;
    if (row.current != "not measured") cell += " (" + row.change + ")";
  }
  if (row.regressed) cell += " ❌ " + row.verdict;
  if (row.inconclusive) cell += " ❔ " + row.verdict;
  if (!row.regressed && !row.inconclusive && (row.exceeded || row.not_gated))
    cell += " " + row.verdict;
  return cell;
}

/// What a pull request's reader needs first (perfgate comment shows it above the fold): the
/// records by status, worst first, then every gated metric that regressed or is
/// inconclusive, with its change (and interval) and the threshold it was held to.
std::string short_top(const std::vector<NormalizedRecord>& records,
                      const std::map<std::string, std::string>& units) {
  constexpr std::array<const char*, 6> kOrder = {kInfraError,     kRegression,        kInconclusive,
                                                 kRecipeMismatch, kCalibrationNeeded, kPass};
  std::vector<std::string> parts;
  for (const char* status : kOrder) {
    const auto count = std::count_if(records.begin(), records.end(), [&](const auto& record) {
      return record.comparison_status == status;
    });
    if (count > 0) parts.push_back(fmt::format("{} {}", count, markdown_cell(status)));
  }
  std::string out = fmt::format("{} record(s): {}.\n\n", records.size(), fmt::join(parts, ", "));
  std::string lines;
  for (const auto& record : records) {
    for (const auto& metric : metric_order({record})) {
      const ComparisonRow row = comparison_row(record, metric, units);
      if (!row.regressed && !row.inconclusive) continue;
      lines += "- **" + markdown_cell(record.benchmark_id) + "** " + markdown_cell(row.metric) +
               ": " + markdown_cell(row.change) + ", threshold " + markdown_cell(row.threshold) +
               ": **" + markdown_cell(row.verdict) + "**\n";
    }
  }
  return lines.empty() ? out : out + lines + "\n";
}

}  // namespace

/// The reason after the name and status, continued on lines indented by four when it
/// would run past `max_width`.
std::string wrapped_reason(std::size_t used, const std::string& reason, std::size_t max_width) {
  if (max_width == 0 || used + terminal_width(reason) <= max_width) return reason;
  std::string out;
  std::size_t column = used;
  bool line_start = true;
  for (std::size_t start = 0; start < reason.size();) {
    std::size_t end = reason.find(' ', start);
    if (end == std::string::npos) end = reason.size();
    const std::string word = reason.substr(start, end - start);
    if (!line_start && column + 1 + terminal_width(word) > max_width) {
      out += "\n    ";
      column = 4;
      line_start = true;
    }
    if (!line_start) {
      out += ' ';
      ++column;
    }
    out += word;
    column += terminal_width(word);
    line_start = false;
    start = end + 1;
  }
  return out;
}

std::string not_gated_note(const std::vector<NormalizedRecord>& records) {
  std::vector<std::string> held;
  for (const auto& record : records) {
    for (const auto& comparison : record.comparisons) {
      if (comparison.not_gated.empty()) continue;
      const auto metric = record.metrics.find(comparison.metric);
      const Direction direction =
          metric == record.metrics.end() ? Direction::kLowerIsBetter : metric->second.direction;
      held.push_back(fmt::format("{} {} {}, {}", visible_text(record.benchmark_id),
                                 visible_text(comparison.metric),
                                 format_change(comparison, direction), comparison.not_gated));
    }
  }
  if (held.empty()) return "";
  return fmt::format(
      "not gated: {} change(s) beyond the relative threshold held back by an absolute floor "
      "([policies.<metric>] threshold_absolute): {}\n",
      held.size(), fmt::join(held, "; "));
}

std::string render_comparison_table(const std::vector<NormalizedRecord>& records, bool color,
                                    std::size_t max_width,
                                    const std::map<std::string, std::string>& baseline_units) {
  const auto units = metric_units(records, baseline_units);
  std::string out;
  for (const auto& record : records) {
    const std::string status =
        ansi::paint(record.comparison_status, status_color(record.comparison_status), color);
    const std::string name = visible_text(record.benchmark_id);
    const std::size_t used = terminal_width(name) + terminal_width(record.comparison_status) + 4;
    out +=
        fmt::format("{}  {}  {}\n", name, status,
                    wrapped_reason(used, visible_text(record.comparison_status_reason), max_width));
    std::vector<Cells> rows{
        {"metric", "current", "baseline", "change", kThresholdHeading, "verdict"}};
    std::vector<ComparisonRow> metrics;
    for (const auto& metric : metric_order({record})) {
      metrics.push_back(comparison_row(record, metric, units));
      rows.push_back(cells_of(metrics.back()));
    }
    if (!metrics.empty()) out += aligned(rows, metrics, color, max_width);
    out += "\n";
  }
  return out;
}

std::string render_comparison_markdown(const std::vector<NormalizedRecord>& records,
                                       const std::string& commit, const std::string& generated_at,
                                       const std::map<std::string, std::string>& baseline_units) {
  const std::vector<std::string> metrics = metric_order(records);
  const auto units = metric_units(records, baseline_units);
  std::string out = "## perfgate comparison";
  if (!commit.empty()) out += " for `" + markdown_cell(commit.substr(0, 12)) + "`";
  out += "\n\n" + short_top(records, units) + kReportDetailsMarker;
  out += "\n\nGenerated " + markdown_cell(generated_at) +
         ". Each metric cell: current vs rolling baseline (change). A change is current − "
         "baseline, relative to the baseline, marked worse or better in the metric's "
         "direction; a metric regresses when it is worse by more than both parts of its "
         "threshold and is gated. A change with an interval (compare --method stat) is the "
         "estimated change of the typical run: REGRESSED when the whole interval is beyond the "
         "threshold, ok when it is within, INCONCLUSIVE when it straddles it.\n\n";
  out += "| benchmark | status |";
  for (const auto& metric : metrics) out += " " + markdown_cell(metric) + " |";
  out += " reason |\n|---|---|";
  for (std::size_t i = 0; i < metrics.size(); ++i) out += "---|";
  out += "---|\n";
  std::string details;
  for (const auto& record : records) {
    out += "| " + markdown_cell(record.benchmark_id) + " | **" +
           markdown_cell(record.comparison_status) + "** |";
    for (const auto& metric : metrics) {
      if (!has_metric(record, metric)) {
        out += " — |";
        continue;
      }
      const ComparisonRow row = comparison_row(record, metric, units);
      out += " " + markdown_cell(overview_cell(row)) + " |";
      details += "| " + markdown_cell(record.benchmark_id) + " |";
      for (const auto& cell : cells_of(row)) details += " " + markdown_cell(cell) + " |";
      details += "\n";
    }
    out += " " + markdown_cell(record.comparison_status_reason) + " |\n";
  }
  if (!details.empty()) {
    out += std::string("\n### Metrics\n\n| benchmark | metric | current | baseline | change | ") +
           kThresholdHeading + " | verdict |\n|---|---|---|---|---|---|---|\n" + details;
  }
  // What the measurement warned of (the probe's FORKED, a region ended out of order...).
  std::string warnings;
  for (const auto& record : records) {
    const auto found = record.quality_metadata.find("measurement_warnings");
    if (found == record.quality_metadata.end() || !found->is_array()) continue;
    for (const Json& line : *found) {
      if (line.is_string())
        warnings += "- " + markdown_cell(record.benchmark_id) + ": " +
                    markdown_cell(line.get<std::string>()) + "\n";
    }
  }
  if (!warnings.empty()) out += "\n### Warnings\n\n" + warnings;
  if (const std::string held = not_gated_note(records); !held.empty())
    out += "\n### Not gated\n\n" + markdown_cell(held.substr(0, held.size() - 1)) + "\n";
  if (any_count_metric(records)) out += "\n" + count_proxy_note();
  return out;
}

}  // namespace perfgate
