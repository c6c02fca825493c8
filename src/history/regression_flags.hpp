#pragma once
// Regression flags of a compatibility series (seed 003): diagnostic marks on the points
// whose median rose markedly over the previous point's. A heuristic, not a confidence
// interval, and never a merge gate. Pure function: values in, values out.
#include <string>
#include <vector>

#include "config/history_config.hpp"

namespace perfgate::history {

/// One point of a series: a commit's median and MAD of one metric, in the series' unit.
struct SeriesPoint {
  double median = 0;
  double mad = 0;
};

/// Whether each point is flagged, in the order given (the series' commit order). Point i > 0
/// is flagged when its rise d = median[i] - median[i-1] is, all three at once:
/// - more than rule.percent of the previous median (compared as d * 100 > percent *
///   median[i-1], so a rise of exactly 10% is not flagged);
/// - more than rule.absolute_ms, converted to `unit` ("s": / 1000, "ms": as is,
///   "us" or "µs": * 1000, "ns": * 1e6);
/// - more than rule.mad_factor * (mad[i] + mad[i-1]).
/// All three comparisons are strict. Point 0 is never flagged. The rule is for timings and
/// for counts of work (unit "instructions" or "cycles", issue 36), which have no absolute
/// part; with any other unit (bytes, misses, ""), no point is flagged.
std::vector<bool> regression_flags(const std::vector<SeriesPoint>& points,
                                   const RegressionFlagRule& rule, const std::string& unit);

/// Whether `point` is flagged against `previous` by that rule.
bool rises_markedly(const SeriesPoint& previous, const SeriesPoint& point,
                    const RegressionFlagRule& rule, const std::string& unit);

}  // namespace perfgate::history
