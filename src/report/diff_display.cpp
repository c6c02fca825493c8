#include "report/diff_display.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "model/parallel_for.hpp"
#include "model/visible_text.hpp"
#include "report/diff_format.hpp"
#include "report/markdown.hpp"
#include "report/text_table.hpp"

namespace perfgate {
namespace {

using diff::DiffRow;
using diff::DiffStatus;

const ingest::ResultState& any_side(const DiffRow& row) {
  return row.match.reference ? *row.match.reference : *row.match.compare;
}

/// Whether a comparison's change reaches `threshold` (SPEC: --threshold-diff); UNKNOWN
/// rows always show.
bool comparison_displayed(const diff::StateComparison& c, double threshold) {
  if (threshold <= 0 || c.status == DiffStatus::kUnknown) return true;
  if (!c.reference || !c.compare) return false;
  const double ref = c.reference->center;
  const double cmp = c.compare->center;
  if (!(ref > 0) || !(cmp > 0)) return false;
  return std::abs((cmp - ref) / std::min(ref, cmp)) >= threshold;
}

/// The unit a row's times are in: seconds unless the file measured something else
/// (pyperf benchmarks of bytes or counts).
std::string row_unit(const DiffRow& row) {
  const auto& name = any_side(row).timing_name;
  if (name == "byte" || name == "integer") return name == "byte" ? "B" : "";
  return "s";
}

// Each layout in two widths: the full one, and a narrow one for a terminal too narrow for
// it, which shows each side's centre without its interval bounds (and explain without the
// noise columns). The narrow one keeps every decision column: Change and Status.
std::vector<std::string> display_headers(DiffDisplay display, bool narrow) {
  switch (display) {
    case DiffDisplay::kExplain:
      if (narrow) return {"Ref", "Cmp", "Reason", "Change", "Status"};
      return {"Ref [Lo | Ce | Hi]",
              "Cmp [Lo | Ce | Hi]",
              "Ref Noise",
              "Cmp Noise",
              "Reason",
              "Change",
              "Status"};
    case DiffDisplay::kSimple:
      if (narrow) return {"Ref", "Cmp", "%C Diff", "Change", "Status"};
      return {"Ref", "Ref Span", "Cmp", "Cmp Span", "%C Diff", "Change", "Status"};
    case DiffDisplay::kIntervals:
      return {"Ref", "Cmp", "Change", "Status"};
  }
  return {};
}

std::vector<CellAlign> display_align(DiffDisplay display, bool narrow) {
  using enum CellAlign;
  switch (display) {
    case DiffDisplay::kExplain:
      if (narrow) return {kRight, kRight, kLeft, kRight, kCenter};
      return {kRight, kRight, kRight, kRight, kLeft, kRight, kCenter};
    case DiffDisplay::kSimple:
      if (narrow) return {kRight, kRight, kRight, kRight, kCenter};
      return {kRight, kRight, kRight, kRight, kRight, kRight, kCenter};
    case DiffDisplay::kIntervals:
      return {kRight, kRight, kRight, kCenter};
  }
  return {};
}

std::string center_of(const std::optional<diff::SideEstimate>& side, const std::string& unit,
                      std::optional<double> magnitude) {
  return format_diff_value(side ? std::optional(side->center) : std::nullopt, unit, magnitude);
}

/// The cells of `c`, the primary timing or a metric decided `beside` it. Both sides are written
/// in one unit, and the Change column has a figure on every row that has two centres.
std::vector<std::string> display_cells(const DiffRow& row, const diff::StateComparison& c,
                                       const DiffRenderOptions& options, bool narrow,
                                       std::optional<diff::BesideMetric> beside) {
  const std::string unit =
      beside == diff::BesideMetric::kInstructions ? kInstructionUnit : row_unit(row);
  const std::optional<double> scale = row_magnitude(c);
  const std::string status = mark_status(c.status, options.marks);
  switch (options.display) {
    case DiffDisplay::kExplain: {
      std::string reason(diff::short_reason_code(c.reason.code));
      if (narrow) {
        return {center_of(c.reference, unit, scale), center_of(c.compare, unit, scale), reason,
                format_change_cell(c), status};
      }
      return {format_explicit_interval(c.reference, unit, scale),
              format_explicit_interval(c.compare, unit, scale),
              format_fraction_percent(c.reference ? c.reference->noise : std::nullopt),
              format_fraction_percent(c.compare ? c.compare->noise : std::nullopt),
              reason,
              format_change_cell(c),
              status};
    }
    case DiffDisplay::kSimple:
      if (narrow) {
        return {center_of(c.reference, unit, scale), center_of(c.compare, unit, scale),
                format_center_change(c), format_proven_change(c), status};
      }
      return {center_of(c.reference, unit, scale),
              format_interval_span(c.reference),
              center_of(c.compare, unit, scale),
              format_interval_span(c.compare),
              format_center_change(c),
              format_proven_change(c),
              status};
    case DiffDisplay::kIntervals:
      if (narrow) {
        return {center_of(c.reference, unit, scale), center_of(c.compare, unit, scale),
                format_change_cell(c), status};
      }
      return {format_center_interval(c.reference, unit, scale),
              format_center_interval(c.compare, unit, scale), format_change_cell(c), status};
  }
  return {};
}

std::string device_text(const std::optional<ingest::ResultDevice>& device) {
  if (!device) return "(no device)";
  return "[" + std::to_string(device->id) + "] " + device->name;
}

std::string device_heading(const diff::DiffSection& section) {
  const auto& ref = section.reference_device;
  const auto& cmp = section.compare_device;
  if (ref && cmp && ref->id == cmp->id && ref->name == cmp->name) return device_text(ref);
  return device_text(ref) + " vs. " + device_text(cmp);
}

std::string escape(const std::string& text, bool markdown) {
  return markdown ? markdown_cell(text) : visible_text(text);
}

/// What the main tables compare: "real_time" for Google Benchmark, "gpu_time" for nvbench.
std::string primary_timing(const diff::DiffOutcome& outcome) {
  for (const auto& section : outcome.sections) {
    if (!section.rows.empty()) return any_side(section.rows.front()).timing_name;
  }
  return "the timing";
}

void render_summary(std::ostringstream& out, const diff::DiffOutcome& outcome,
                    const DiffRenderOptions& options) {
  const auto& counts = outcome.counts;
  out << "# Summary\n\n";
  out << "- Total matches: " << counts.total << "\n";
  out << "  - Unchanged   (SAME): " << counts.same << "\n";
  out << "  - Improvement (FAST, clear gap, compare is faster): " << counts.fast << "\n";
  out << "  - Regression  (SLOW, clear gap, compare is slower): " << counts.slow << "\n";
  out << "  - Ambiguous   (AMBG, the evidence decides neither way): " << counts.ambiguous << "\n";
  if (!counts.ambiguous_reasons.empty()) {
    std::vector<std::pair<std::string, diff::ReasonCount>> reasons(counts.ambiguous_reasons.begin(),
                                                                   counts.ambiguous_reasons.end());
    std::stable_sort(reasons.begin(), reasons.end(),
                     [](const auto& a, const auto& b) { return a.second.count > b.second.count; });
    out << "    - Reasons:\n";
    for (const auto& [code, reason] : reasons) {
      out << "      - " << code << ": " << reason.count << " ("
          << escape(reason.message, options.markdown) << ")\n";
    }
  }
  out << "  - Unknown     (????, a side is skipped or unusable): " << counts.unknown << "\n";
  // compare.py's OVERALL_GEOMEAN: one figure for the whole comparison, every match in it.
  if (const auto mean = geometric_mean_ratio(outcome)) {
    out << "- Geometric mean of Cmp / Ref (" << primary_timing(outcome)
        << "): " << format_geometric_mean(*mean) << "\n";
  }
  for (const diff::BesideMetric metric : diff::kBesideMetrics) {
    if (const auto mean = geometric_mean_ratio(outcome, metric)) {
      out << "- Geometric mean of Cmp / Ref (" << diff::beside_name(metric)
          << "): " << format_geometric_mean(*mean) << "\n";
    }
  }
  for (const diff::BesideMetric metric : diff::kBesideMetrics) {
    const diff::DiffCounts::Beside& beside = counts.beside(metric);
    if (beside.total == 0) continue;
    out << "- " << diff::beside_title(metric) << " (" << diff::beside_name(metric) << ", beside "
        << primary_timing(outcome) << "): " << beside.total << " matches; SAME " << beside.same
        << ", FAST " << beside.fast << ", SLOW " << beside.slow << ", AMBG " << beside.ambiguous
        << ", ???? " << beside.unknown << "\n";
  }
  if (counts.only_in_reference + counts.only_in_compare > 0) {
    out << "- Not matched (????, in one file only): "
        << counts.only_in_reference + counts.only_in_compare << " (reference only "
        << counts.only_in_reference << ", compare only " << counts.only_in_compare << ")\n";
  }
  if (options.display == DiffDisplay::kExplain && !counts.reasons.empty()) {
    std::string legend;
    for (const auto& [code, reason] : counts.reasons) {
      const std::string_view short_code = diff::short_reason_code(code);
      if (short_code == code) continue;
      legend += (legend.empty() ? "" : "; ") + std::string(short_code) + " = " + code;
    }
    if (!legend.empty()) out << "  - Reason legend: " << legend << "\n";
  }
  bool without_clock = false;
  std::size_t fewest_samples = 0;  // of any side of a U test; 0: no U test
  for (const auto& section : outcome.sections) {
    for (const auto& row : section.rows) {
      without_clock |= row.comparison.decided_without_clock;
      for (const auto* c : {&row.comparison, row.cpu ? &*row.cpu : nullptr,
                            row.instructions ? &*row.instructions : nullptr}) {
        if (c == nullptr || !c->u_test) continue;
        const std::size_t fewest = std::min(c->u_test->reference_count, c->u_test->compare_count);
        fewest_samples = fewest_samples == 0 ? fewest : std::min(fewest_samples, fewest);
      }
    }
  }
  if (fewest_samples > 0) {
    out << "- U test p: the two-sided Mann-Whitney U test of each state's samples, as "
           "compare.py shows it; below 0.05 the samples likely differ. It informs; the "
           "statuses come from the intervals.";
    if (fewest_samples < 9) {
      out << " Some states have " << fewest_samples
          << " samples a side: with fewer than 9 its p-value is unreliable.";
    }
    out << "\n";
  }
  if (options.display == DiffDisplay::kExplain && without_clock) {
    out << "  - Clock: these files carry no clock rate, so FAST and SLOW rest on the clear gap "
           "between the timing intervals alone (no cycle-space confirmation).\n";
  }
}

}  // namespace

bool row_displayed(const DiffRow& row, double threshold) {
  return comparison_displayed(row.comparison, threshold);
}

std::string mark_status(DiffStatus status, StatusMarks marks) {
  const std::string text(diff::to_string(status));
  const char* color = "";
  const char* emoji = "";
  switch (status) {
    case DiffStatus::kUnknown:
      color = "\x1b[33m";
      emoji = "\xF0\x9F\x9F\xA1";
      break;  // 🟡
    case DiffStatus::kAmbiguous:
      color = "\x1b[90m";
      emoji = "\xF0\x9F\xA4\xB7";
      break;  // 🤷
    case DiffStatus::kSame:
      color = "\x1b[34m";
      emoji = "\xF0\x9F\x94\xB5";
      break;  // 🔵
    case DiffStatus::kFast:
      color = "\x1b[32m";
      emoji = "\xF0\x9F\x9F\xA2";
      break;  // 🟢
    case DiffStatus::kSlow:
      color = "\x1b[31m";
      emoji = "\xF0\x9F\x94\xB4";
      break;  // 🔴
  }
  switch (marks) {
    case StatusMarks::kColor:
      return std::string(color) + text + "\x1b[0m";
    case StatusMarks::kEmoji:
      return std::string(emoji) + " " + text;
    case StatusMarks::kPlain:
      return text;
  }
  return text;
}

std::string axis_display(const ingest::ResultState& state, const std::string& axis) {
  const std::string prefix = axis + "=";
  std::size_t start = 0;
  const std::string& key = state.state_key;
  while (start < key.size()) {
    const auto end = std::min(key.find(' ', start), key.size());
    const std::string token = key.substr(start, end - start);
    if (token.starts_with(prefix)) return token.substr(prefix.size());
    start = end + 1;
  }
  for (const auto& [name, value] : state.axis_values) {
    if (name == axis) return value;
  }
  return "";
}

namespace {

/// The table of a section: the primary timing of every displayed row, or (`beside`) that
/// metric of the displayed rows that have one.
TextTable section_table(const diff::DiffSection& section, const DiffRenderOptions& options,
                        std::optional<diff::BesideMetric> beside, bool narrow) {
  TextTable table;
  for (const auto& axis : section.axis_names) {
    table.headers.push_back(escape(axis, options.markdown));
    table.align.push_back(CellAlign::kCenter);
  }
  for (auto& header : display_headers(options.display, narrow)) {
    table.headers.push_back(escape(header, options.markdown));
  }
  for (auto align : display_align(options.display, narrow)) table.align.push_back(align);
  // The rows shown, then their cells in blocks on every core: a diff of thousands of
  // states spent most of its drawing on these strings.
  std::vector<std::pair<const DiffRow*, const diff::StateComparison*>> shown;
  for (const auto& row : section.rows) {
    if (beside && !row.beside(*beside)) continue;
    const diff::StateComparison& comparison = beside ? *row.beside(*beside) : row.comparison;
    if (comparison_displayed(comparison, options.threshold)) shown.emplace_back(&row, &comparison);
  }
  table.rows.resize(shown.size());
  std::vector<std::string> u_cells(shown.size());
  parallel_for_blocks(shown.size(), 256, [&](std::size_t, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const auto& [row, comparison] = shown[i];
      std::vector<std::string>& cells = table.rows[i];
      for (const auto& axis : section.axis_names) {
        cells.push_back(escape(axis_display(any_side(*row), axis), options.markdown));
      }
      // Every cell is escaped: explain's "[lo | center | hi]" would split a Markdown row.
      for (auto& cell : display_cells(*row, *comparison, options, narrow, beside)) {
        cells.push_back(escape(cell, options.markdown));
      }
      u_cells[i] = format_u_test(comparison->u_test);
    }
  });
  const bool any_u_test = std::any_of(shown.begin(), shown.end(), [](const auto& entry) {
    return entry.second->u_test.has_value();
  });
  // The U test's column only where some row has one (formats without a clock).
  if (any_u_test) {
    table.headers.push_back("U test p");
    table.align.push_back(CellAlign::kRight);
    for (std::size_t i = 0; i < table.rows.size(); ++i) table.rows[i].push_back(u_cells[i]);
  }
  return table;
}

/// The table as text, in the narrow layout when the full one is wider than max_width
/// (then with a line that says what was left out and how to see it).
std::string fitted_table(const TextTable& table, const diff::DiffSection& section,
                         const DiffRenderOptions& options,
                         std::optional<diff::BesideMetric> beside) {
  const std::string full = render_text_table(table);
  const std::size_t width = terminal_width(full.substr(0, full.find('\n')));
  if (options.max_width == 0 || width <= options.max_width) return full;
  const std::string narrow = render_text_table(section_table(section, options, beside, true));
  const char* left_out = options.display == DiffDisplay::kExplain  ? "interval bounds and noise"
                         : options.display == DiffDisplay::kSimple ? "interval spans"
                                                                   : "interval bounds";
  // Short enough to fit the same terminal: it says what is missing and how to see it.
  return narrow + fmt::format("({} left out to fit {} columns; COLUMNS={} shows them)\n", left_out,
                              options.max_width, width);
}

}  // namespace

std::string render_diff(const diff::DiffOutcome& outcome, const DiffRenderOptions& options) {
  std::ostringstream out;
  std::string last_benchmark;
  bool first = true;
  for (const auto& section : outcome.sections) {
    const TextTable table = section_table(section, options, std::nullopt, false);
    std::vector<std::pair<diff::BesideMetric, TextTable>> beside_tables;
    for (const diff::BesideMetric metric : diff::kBesideMetrics) {
      TextTable beside = section_table(section, options, metric, false);
      if (!beside.rows.empty()) beside_tables.emplace_back(metric, std::move(beside));
    }
    if (table.rows.empty() && beside_tables.empty()) continue;
    if (first || section.benchmark != last_benchmark) {
      out << "# " << escape(section.benchmark, options.markdown) << "\n\n";
    }
    first = false;
    last_benchmark = section.benchmark;
    if (section.reference_device || section.compare_device) {
      out << "## " << escape(device_heading(section), options.markdown) << "\n\n";
    }
    if (!table.rows.empty()) out << fitted_table(table, section, options, std::nullopt) << "\n";
    // compare.py's second column set: the CPU time of each repetition, decided alike; and a
    // perfgate record's instruction counts.
    for (const auto& [metric, beside] : beside_tables) {
      out << "### " << diff::beside_title(metric) << " (" << diff::beside_name(metric) << ")\n\n"
          << fitted_table(beside, section, options, metric) << "\n";
    }
  }
  render_summary(out, outcome, options);
  return out.str();
}

}  // namespace perfgate
