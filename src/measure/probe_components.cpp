#include "measure/probe_components.hpp"

#include <map>

namespace perfgate {

std::vector<ComponentReport> probe_components(const BenchmarkConfig& config,
                                              const profile::ProbeReport& report) {
  std::vector<ComponentReport> out;
  if (report.runs.empty()) return out;
  std::map<std::string, double> total_us;
  for (const auto& run : report.runs) {
    for (const auto& region : run.regions) total_us[region.region_id] += region.wall_time_us;
  }
  const double runs = static_cast<double>(report.runs.size());
  // regions[] is ordered by id, which gives the metrics a stable order from run to run.
  for (const auto& region : report.regions) {
    const auto total = total_us.find(region.id);
    if (total == total_us.end()) continue;
    if (config.component_metrics.empty() && region.depth != 0) continue;
    out.push_back({region.id, total->second / runs / 1e6, "s", Direction::kLowerIsBetter});
  }
  return out;
}

}  // namespace perfgate
