#pragma once
// The static-threshold gate (SPEC §6): hand-set fail-safes per device. Pure functions.
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "config/benchmark_config.hpp"
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
