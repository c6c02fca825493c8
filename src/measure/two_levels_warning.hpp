#pragma once
// The TWO_LEVELS warning of a record whose runs took two distinct levels (stats/two_levels.hpp):
// its median then follows the share of runs in each level, which moves from one record to
// the next, and a comparison of two such records can call a change that is only the share.
#include <map>
#include <optional>
#include <string>

#include "model/raw_record.hpp"

namespace perfgate {

/// "TWO_LEVELS: the runs' latency took two levels: 11 runs near 9.6 ms and 4 near 14.5 ms
/// (+51%) …", of latency, else cpu_time; nullopt when neither took two.
std::optional<std::string> two_levels_warning(const std::map<std::string, MetricSeries>& metrics);

}  // namespace perfgate
