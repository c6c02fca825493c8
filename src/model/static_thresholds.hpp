#pragma once
// The static-threshold checks (SPEC §6): hand-set fail-safes per device, applied by `run`
// to what it measured and by the seed raw-record reader to what it reads. Pure functions
// over values, so measuring, ingesting and judging all share them.
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "model/raw_record.hpp"
#include "model/static_verdict.hpp"

namespace perfgate {

/// The thresholds key that applies to `device`: among the keys other than "default" that
/// are substrings of the device name, the longest (ties: the first in key order); else
/// "default". nullopt when `thresholds` is empty.
std::optional<std::string> select_threshold_block(
    const std::map<std::string, ThresholdBlock>& thresholds, std::string_view device);

/// Which summary statistic a limit is compared with: peaks ("memory", "gpu_memory") use
/// the largest sample, everything else the mean.
std::string_view threshold_statistic(std::string_view metric);

/// Checks every limit of the selected block against the measured metrics. A value above a
/// max limit (below a min limit for throughput) is a breach. Limits whose metric was not
/// measured are listed as unmeasured and skipped.
StaticVerdict check_static_thresholds(const std::map<std::string, ThresholdBlock>& thresholds,
                                      std::string_view device,
                                      const std::map<std::string, MetricSeries>& metrics);

}  // namespace perfgate
