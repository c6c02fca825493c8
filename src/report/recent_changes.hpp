#pragma once
// `perfgate compare --change-points`: beside the rolling-baseline status of a new record, a
// change point of its cohort's series that begins among the newest records (docs/changes.md).
// The statuses and exit codes are untouched: this only reports.
#include <string>
#include <vector>

#include "model/normalized_record.hpp"
#include "report/change_report.hpp"
#include "store/store.hpp"

namespace perfgate {

struct RecentChange {
  std::string benchmark_id;
  std::string metric;
  std::string unit;
  std::size_t records_ago = 0;  ///< 0: the change starts at the newest record
  std::string timestamp;        ///< UTC, of the first record after the change
  std::string commit;           ///< of that record; "" when it has none
  stats::ChangePoint change;
  bool worse = false;
};

/// Inclusive: a change starting at one of the newest `kRecentWindow` records is recent.
inline constexpr std::size_t kRecentWindow = 10;

/// The newest change point of each metric of `record` in the series of its cohort's
/// stored records `stored` (any order; a stored copy of `record` itself is left out) with
/// `record` appended, when it starts among the newest kRecentWindow records.
std::vector<RecentChange> recent_changes(const NormalizedRecord& record,
                                         const std::vector<StoredRecord>& stored,
                                         const stats::ChangePointOptions& options);

/// "sort latency: a change 6 records ago (2026-11-28T10:00:00Z, commit 9f1c2d3e4b5a): 10 ms
/// → 10.4 ms, +4.0% worse, p = 3.1e-06", one per line.
std::string render_recent_changes(const std::vector<RecentChange>& changes);

}  // namespace perfgate
