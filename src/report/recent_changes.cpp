#include "report/recent_changes.hpp"

#include <fmt/format.h>

#include "report/units.hpp"

namespace perfgate {

std::vector<RecentChange> recent_changes(const NormalizedRecord& record,
                                         const std::vector<StoredRecord>& stored,
                                         const stats::ChangePointOptions& options) {
  // The new record first: a store lists newest first, and at one instant the record
  // listed first is the newer.
  std::vector<StoredRecord> series_records;
  series_records.push_back({record, "", false});
  for (const StoredRecord& entry : stored) {
    if (entry.record.record_id != record.record_id) series_records.push_back(entry);
  }
  std::vector<RecentChange> recent;
  for (const ChangeSeries& series : analyse_changes(series_records, "", options)) {
    if (!record.metrics.count(series.metric) || series.changes.empty()) continue;
    const stats::ChangePoint& last = series.changes.back();
    const std::size_t ago = series.points.size() - 1 - last.index;
    if (ago >= kRecentWindow) continue;
    const SeriesPoint& at = series.points[last.index];
    recent.push_back({record.benchmark_id, series.metric, series.unit, ago, at.timestamp, at.commit,
                      last, is_worse(series.direction, last)});
  }
  return recent;
}

std::string render_recent_changes(const std::vector<RecentChange>& changes) {
  std::string out;
  for (const RecentChange& c : changes) {
    const DisplayUnit unit = choose_display_unit(c.change.mean_before, c.unit);
    const std::string when = c.records_ago == 0 ? "at the newest record"
                                                : fmt::format("{} record{} ago", c.records_ago,
                                                              c.records_ago == 1 ? "" : "s");
    out += fmt::format(
        "{} {}: a change {} ({}{}): {} → {}, {:+.1f}% {}, p = {:.2g}\n", c.benchmark_id, c.metric,
        when, c.timestamp, c.commit.empty() ? "" : ", commit " + c.commit.substr(0, 12),
        format_in(c.change.mean_before, unit), format_in(c.change.mean_after, unit),
        c.change.relative_change() * 100, c.worse ? "worse" : "better", c.change.p_value);
  }
  return out;
}

}  // namespace perfgate
