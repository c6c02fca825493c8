#pragma once
// One metric of a judged record as both views of `perfgate compare` show it (the
// terminal table and the Markdown summary), so that the two cannot disagree.
#include <map>
#include <string>
#include <vector>

#include "model/normalized_record.hpp"

namespace perfgate {

struct ComparisonRow {
  std::string metric;
  std::string current;   ///< "1.5 s"; "not measured" when the record lacks the metric
  std::string baseline;  ///< "1 s"; "none" when there is no baseline value
  /// "+50.0% worse", "-12.0% worse", "0.0%"; "—" when not compared. Under --method stat
  /// the estimate and its interval: "+10.2% worse (95%: +8.1% to +12.4%)".
  std::string change;
  std::string threshold;  ///< "8% and 0.25 s", "… (not gated)"; "—" without a policy
  /// "REGRESSED", "INCONCLUSIVE", "exceeded (not gated)", "not gated: under the 500 ms
  /// floor", "straddles the threshold (not gated)", "ok" or "skipped".
  std::string verdict;
  bool regressed = false;
  bool exceeded = false;
  bool inconclusive = false;
  bool not_gated = false;  ///< beyond the relative threshold, held back by the floor
};

/// The change of current over baseline, relative to the baseline, with the sign of
/// current − baseline for every metric (a throughput drop is negative), followed by
/// "worse" or "better" in the metric's direction: "+50.0% worse", "-12.0% worse".
/// "0.0%" for no change, "n/a" for a zero baseline, "—" when either value is missing.
/// A comparison with an interval shows the estimated change (percent_delta) and the
/// interval, in the same sign: "+10.2% worse (95%: +8.1% to +12.4%)".
std::string format_change(const MetricComparison& comparison, Direction direction);

/// Metrics in report order: latency, throughput, memory, cpu_time, gpu_memory, then the
/// others by name; every metric any record measured or compared.
std::vector<std::string> metric_order(const std::vector<NormalizedRecord>& records);

/// Each metric's unit as the records measured it (standard metrics fall back to their
/// definition, then `baseline_units`: the units of the baseline records), for metrics a
/// record lacks but compared: "not measured vs 0.5 s", not "vs 0.5".
std::map<std::string, std::string> metric_units(
    const std::vector<NormalizedRecord>& records,
    const std::map<std::string, std::string>& baseline_units = {});

/// The row of `metric` of `record`: current, baseline and threshold in one display unit
/// chosen from the larger of current and baseline. `units` from metric_units.
ComparisonRow comparison_row(const NormalizedRecord& record, const std::string& metric,
                             const std::map<std::string, std::string>& units);

}  // namespace perfgate
