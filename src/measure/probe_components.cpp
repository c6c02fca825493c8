#include "measure/probe_components.hpp"

#include <map>

namespace perfgate {

std::vector<ComponentReport> probe_components(const BenchmarkConfig& config,
                                              const profile::ProbeReport& report) {
  std::vector<ComponentReport> out;
  // Warmup runs are the probe's and the program's start-up, not what is measured; work
  // other threads did for a run (dispatched) is part of that region's time in it.
  std::map<std::string, double> total_us;
  std::size_t measured = 0;
  for (const auto& run : report.runs) {
    if (run.warmup) continue;
    ++measured;
    for (const auto& region : run.regions) total_us[region.region_id] += region.wall_time_us;
    for (const auto& row : run.dispatched) total_us[row.time.region_id] += row.time.wall_time_us;
  }
  if (measured == 0) return out;
  const double runs = static_cast<double>(measured);
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
