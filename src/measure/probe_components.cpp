#include "measure/probe_components.hpp"

#include <algorithm>
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

std::vector<ComponentReport> region_count_components(const BenchmarkConfig& config,
                                                     const RegionCounts& counts) {
  std::vector<ComponentReport> regions;
  for (const auto& region : counts.regions) {
    if (config.component_metrics.empty() && region.depth != 0) continue;
    regions.push_back({region.id, region.instructions, "instructions", Direction::kLowerIsBetter});
  }
  std::vector<ComponentReport> out = map_components(config, regions);
  for (auto& component : out) component.metric += count_metric_names::kRegionSuffix;
  return out;
}

std::vector<std::filesystem::path> probe_reports_of_run(const std::filesystem::path& report) {
  std::vector<std::filesystem::path> reports;
  std::error_code error;
  if (std::filesystem::exists(report, error)) reports.push_back(report);
  const std::string stem = report.stem().string() + ".";
  std::vector<std::filesystem::path> children;
  for (std::filesystem::directory_iterator it(report.parent_path(), error), end;
       !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= stem.size() + 5 || name.compare(0, stem.size(), stem) != 0 ||
        !name.ends_with(".json")) {
      continue;
    }
    const std::string pid = name.substr(stem.size(), name.size() - stem.size() - 5);
    if (std::all_of(pid.begin(), pid.end(), [](char c) { return c >= '0' && c <= '9'; }))
      children.push_back(it->path());
  }
  std::sort(children.begin(), children.end());
  reports.insert(reports.end(), children.begin(), children.end());
  return reports;
}

void add_components(std::vector<ComponentReport>& into, const std::vector<ComponentReport>& more) {
  for (const ComponentReport& component : more) {
    const auto same = std::find_if(into.begin(), into.end(), [&](const ComponentReport& known) {
      return known.metric == component.metric;
    });
    if (same != into.end()) {
      same->value += component.value;
    } else {
      into.push_back(component);
    }
  }
}

std::string probe_warning_line(const profile::ProbeWarning& warning, bool from_child) {
  return "probe: " + warning.code + ": " + warning.message +
         (from_child ? " (in a forked child's report)" : "");
}

}  // namespace perfgate
