#pragma once
// Key averages: each region's totals over every run of a report, in two bounded views.
#include <cstddef>
#include <vector>

#include "profile/probe_report.hpp"

namespace perfgate::profile {

/// At most this many rows per view, as the probe library writes them.
inline constexpr std::size_t kKeyAverageRows = 20;

/// Sums each region's calls, self and inclusive wall time over `runs` and counts the runs
/// that saw it; `self_time` is sorted by self time, `total_time` by inclusive time (both
/// descending, ties by region id), each cut to kKeyAverageRows rows.
KeyAverages compute_key_averages(const std::vector<ProbeRun>& runs);

}  // namespace perfgate::profile
