#include "report/change_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <tuple>

#include "model/instant.hpp"
#include "model/json.hpp"
#include "report/store_report.hpp"
#include "report/store_view.hpp"
#include "report/text_table.hpp"
#include "report/units.hpp"

namespace perfgate {
namespace {

struct Placed {
  std::int64_t instant;
  std::size_t order;  ///< position in the store's listing (newest first)
  const StoredRecord* stored;
};

std::string percent(double fraction) {
  return fmt::format("{:+.1f}%", fraction * 100);
}

/// A name as one cell of the terminal table: a pipe cannot end the cell, and a control
/// character (an escape sequence in a hostile benchmark name) cannot reach the terminal.
std::string cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if ((static_cast<unsigned char>(c) < 0x20) || c == 0x7f) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string p_text(double p) {
  return p < 1e-300 ? "<1e-300" : fmt::format("{:.2g}", p);
}

}  // namespace

std::vector<ChangeSeries> analyse_changes(const std::vector<StoredRecord>& records,
                                          const std::string& metric,
                                          const stats::ChangePointOptions& options) {
  // Cohorts in the dashboard's sense, each oldest first; at one instant the store's later
  // listing position first, as the dashboard orders them.
  std::map<std::string, std::vector<Placed>> cohorts;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const NormalizedRecord& record = records[i].record;
    if (!record.success) continue;
    const auto instant = parse_instant_us(record.timestamp);
    if (!instant) continue;
    cohorts[store_view_cohort_id(record)].push_back({*instant, i, &records[i]});
  }
  std::vector<ChangeSeries> result;
  for (auto& [cohort, placed] : cohorts) {
    std::sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) {
      return std::tie(a.instant, b.order) < std::tie(b.instant, a.order);
    });
    std::map<std::string, ChangeSeries> by_metric;
    for (const Placed& entry : placed) {
      const NormalizedRecord& record = entry.stored->record;
      for (const auto& [name, value] : record.metrics) {
        if ((!metric.empty() && name != metric) || !std::isfinite(value.value)) continue;
        ChangeSeries& series = by_metric[name];
        series.cohort = cohort;
        series.label = cohort_label(record);  // the newest record's, once all are seen
        series.metric = name;
        series.unit = value.unit;
        series.direction = value.direction;
        series.points.push_back({value.value, *normalize_utc_timestamp(record.timestamp),
                                 record.commit_sha.value_or(""), record.record_id});
      }
    }
    for (auto& [name, series] : by_metric) {
      std::vector<double> values;
      values.reserve(series.points.size());
      for (const auto& point : series.points) values.push_back(point.value);
      series.changes = stats::find_change_points(values, options);
      result.push_back(std::move(series));
    }
  }
  return result;
}

bool is_worse(Direction direction, const stats::ChangePoint& change) {
  return stats::worsens(change, direction == Direction::kLowerIsBetter);
}

std::string render_changes_text(const std::vector<ChangeSeries>& series,
                                const stats::ChangePointOptions& options,
                                const std::string& heading) {
  TextTable table;
  table.headers = {heading, "metric", "at", "commit", "before", "after", "change", "p-value"};
  table.align = {CellAlign::kLeft,  CellAlign::kLeft,  CellAlign::kLeft,  CellAlign::kLeft,
                 CellAlign::kRight, CellAlign::kRight, CellAlign::kRight, CellAlign::kRight};
  std::size_t changes = 0;
  std::size_t worse = 0;
  for (const ChangeSeries& s : series) {
    for (const auto& change : s.changes) {
      const SeriesPoint& at = s.points[change.index];
      const DisplayUnit unit = choose_display_unit(change.mean_before, s.unit);
      const bool bad = is_worse(s.direction, change);
      ++changes;
      worse += bad;
      table.rows.push_back({cell(s.label), cell(s.metric), at.timestamp,
                            cell(at.commit.substr(0, 12)), format_in(change.mean_before, unit),
                            format_in(change.mean_after, unit),
                            percent(change.relative_change()) + (bad ? " worse" : " better"),
                            p_text(change.p_value)});
    }
  }
  std::string out;
  if (!table.rows.empty()) out += render_text_table(table) + "\n";
  out += fmt::format(
      "{} series, {} change point{} ({} worse); at least {} points per segment, p-value at most "
      "{:g}\n",
      series.size(), changes, changes == 1 ? "" : "s", worse, options.min_segment,
      options.max_p_value);
  return out;
}

std::string render_changes_json(const std::vector<ChangeSeries>& series,
                                const stats::ChangePointOptions& options,
                                const std::string& source_key, const std::string& source) {
  Json list = Json::array();
  for (const ChangeSeries& s : series) {
    Json changes = Json::array();
    for (const auto& change : s.changes) {
      const SeriesPoint& at = s.points[change.index];
      changes.push_back({{"index", change.index},
                         {"timestamp", at.timestamp},
                         {"commit", at.commit.empty() ? Json(nullptr) : Json(at.commit)},
                         {"record", at.record_id},
                         {"before", change.mean_before},
                         {"after", change.mean_after},
                         {"relative_change", change.relative_change()},
                         {"worse", is_worse(s.direction, change)},
                         {"p_value", change.p_value}});
    }
    list.push_back({{"cohort", s.cohort},
                    {"label", s.label},
                    {"metric", s.metric},
                    {"unit", s.unit},
                    {"direction", to_string(s.direction)},
                    {"points", s.points.size()},
                    {"changes", changes}});
  }
  const Json document = {{"kind", "perfgate-changes"},
                         {"schema_version", 1},
                         {source_key, source},
                         {"method",
                          {{"name", "e-divisive with huber's t-test and a step-over-trend test"},
                           {"min_segment", options.min_segment},
                           {"max_p_value", options.max_p_value}}},
                         {"series", list}};
  return pretty_json(document) + "\n";
}

}  // namespace perfgate
