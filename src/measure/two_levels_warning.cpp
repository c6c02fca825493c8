#include "measure/two_levels_warning.hpp"

#include <fmt/format.h>

#include "report/units.hpp"
#include "stats/two_levels.hpp"

namespace perfgate {

std::optional<std::string> two_levels_warning(const std::map<std::string, MetricSeries>& metrics) {
  for (const char* name : {"latency", "cpu_time"}) {
    const auto series = metrics.find(name);
    if (series == metrics.end()) continue;
    const auto levels = stats::find_two_levels(series->second.samples);
    if (!levels) continue;
    const std::string& unit = series->second.metric.unit;
    return fmt::format(
        "TWO_LEVELS: the runs' {} took two levels: {} run(s) near {} and {} near {} ({:+.0f}%). "
        "The record's median follows the share of runs in each, which can change from one "
        "record to the next: on a virtual machine whose CPUs run at different speeds, pin "
        "perfgate with 'taskset -c N' (docs/measurement.md, \"A machine whose CPUs "
        "differ\"), or compare two builds with 'perfgate ab'",
        name, levels->fast_runs, format_quantity(levels->fast_median, unit), levels->slow_runs,
        format_quantity(levels->slow_median, unit),
        (levels->slow_median / levels->fast_median - 1) * 100);
  }
  return std::nullopt;
}

}  // namespace perfgate
