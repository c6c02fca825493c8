#pragma once
// `perfgate history changes` over a store: every cohort's series of each metric, oldest
// first, and the change points stats::find_change_points finds in it, as a table or JSON
// (docs/changes.md).
#include <string>
#include <vector>

#include "model/metric.hpp"
#include "stats/change_points.hpp"
#include "store/store.hpp"

namespace perfgate {

/// One point of a series: the record it came from.
struct SeriesPoint {
  double value = 0;
  std::string timestamp;  ///< UTC
  std::string commit;     ///< "" when the record has none
  std::string record_id;
};

/// A metric of a cohort over time, and its change points.
struct ChangeSeries {
  std::string cohort;  ///< store_view_cohort_id: the dashboard's cohort id
  std::string label;   ///< cohort_label of its newest record
  std::string metric;
  std::string unit;
  Direction direction = Direction::kLowerIsBetter;
  std::vector<SeriesPoint> points;  ///< oldest first
  std::vector<stats::ChangePoint> changes;
};

/// The series of `records` (successful ones with a finite value; records whose timestamp
/// is not an instant are left out), only `metric` when it is not empty, each analysed
/// with `options`. Ordered by cohort id, then metric.
std::vector<ChangeSeries> analyse_changes(const std::vector<StoredRecord>& records,
                                          const std::string& metric,
                                          const stats::ChangePointOptions& options);

/// Whether a change makes a metric of this direction worse.
bool is_worse(Direction direction, const stats::ChangePoint& change);

/// The table; `heading` names the first column ("cohort" for a store, "series" for a
/// history).
std::string render_changes_text(const std::vector<ChangeSeries>& series,
                                const stats::ChangePointOptions& options,
                                const std::string& heading = "cohort");
/// The document of docs/changes.md; `source_key` ("store" or "history") names where the
/// series came from, `source` is that store's URL or that file's path.
std::string render_changes_json(const std::vector<ChangeSeries>& series,
                                const stats::ChangePointOptions& options,
                                const std::string& source_key, const std::string& source);

}  // namespace perfgate
