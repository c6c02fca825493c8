#pragma once
// From a probe report (PERFGATE_PROBE_OUT) to component values of one process run. Pure.
#include <vector>

#include "config/benchmark_config.hpp"
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

}  // namespace perfgate
