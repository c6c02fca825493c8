#pragma once
// Key averages: each region's totals over the measured runs of a report (warmups left out),
// by id in two bounded views and by name in a third.
#include <cstddef>
#include <vector>

#include "profile/probe_report.hpp"

namespace perfgate::profile {

/// At most this many rows per view, as the probe library writes them.
inline constexpr std::size_t kKeyAverageRows = 20;

/// Sums each region's calls, self and inclusive wall time over the runs that are not
/// warmups, its time on other threads (dispatched rows) included, and counts the runs that
/// saw it. `self_time` is sorted by self time and `total_time` by inclusive time (both
/// descending, ties by region id); `by_name` adds up the ids of each name (the name from
/// `regions`, else the id's last step) sorted by self time, ties by name. Each view is cut
/// to kKeyAverageRows rows.
KeyAverages compute_key_averages(const std::vector<ProbeRun>& runs,
                                 const std::vector<RegionInfo>& regions);

}  // namespace perfgate::profile
