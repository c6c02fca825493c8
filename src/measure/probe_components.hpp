#pragma once
// From a probe report (PERFGATE_PROBE_OUT) to component values of one process run. Pure.
#include <filesystem>
#include <string>
#include <vector>

#include "config/benchmark_config.hpp"
#include "count/region_counts.hpp"
#include "measure/metric_assembly.hpp"
#include "profile/probe_report.hpp"

namespace perfgate {

/// One value per region, named by region id, in seconds (lower is better): the region's
/// inclusive wall time (its dispatched time on other threads included) summed over the
/// report's measured runs, divided by their number, so the time the region takes per
/// measured iteration; warmup runs are left out. When the config maps component
/// metrics, every region seen in a run is offered (map_components keeps the mapped ones);
/// without a mapping only top-level regions (depth 0) are. A report without measured runs gives
/// none.
std::vector<ComponentReport> probe_components(const BenchmarkConfig& config,
                                              const profile::ProbeReport& report);

/// The probe regions' instruction counts of one counted run as count metrics named
/// "<component>.instructions": the regions probe_components would offer (every region
/// when the config maps component metrics, else the top-level ones), mapped by the
/// config's component_metrics like their times, in instructions per measured run.
std::vector<ComponentReport> region_count_components(const BenchmarkConfig& config,
                                                     const RegionCounts& counts);

/// The reports one run left at `report` (PERFGATE_PROBE_OUT): that file when it exists,
/// then those its forked children wrote beside it, named with their pids
/// (probe-0.json -> probe-0.4242.json), in name order.
std::vector<std::filesystem::path> probe_reports_of_run(const std::filesystem::path& report);

/// Adds `more` to `into`, a metric both name summed: a region the parent and a forked
/// child both ran took the program the time of both.
void add_components(std::vector<ComponentReport>& into, const std::vector<ComponentReport>& more);

/// A probe warning as a record's warning line: "probe: FORKED: the program forked ...",
/// with "(in a forked child's report)" when it came from one.
std::string probe_warning_line(const profile::ProbeWarning& warning, bool from_child);

}  // namespace perfgate
