#pragma once
// The rolling baseline (SPEC §6): per metric, the median of the last five eligible records
// of the cohort, and the comparison of a record with it. Pure functions.
#include <cstddef>
#include <vector>

#include "model/cohort_history.hpp"
#include "model/normalized_record.hpp"

namespace perfgate {

/// Compares every metric of `current` that has a policy with the median of the baseline
/// records that have that metric. Metrics missing (or null) on the current record, or on
/// every baseline record, are reported with current/baseline unset and never exceed.
/// Deltas are taken in the worse direction (for throughput a drop is worse). A metric
/// exceeds its policy when percent_delta > threshold_percent AND absolute_delta >
/// threshold_absolute; it regresses when it exceeds and is gated. Sorted by metric name.
/// percent_delta = absolute_delta / |baseline|; with a baseline of 0 it is +infinity when
/// the current value is worse, -infinity when better and 0 when equal, never NaN.
/// The median of an even count is the mean of the two middle values. Pass at most
/// kRollingBaselineSize records: all given are used.
///
/// With CompareMethod::kStat the deltas are instead the estimated change of the typical
/// run (stats/level_shift.hpp: the current record's samples against each baseline record's
/// samples, the spread between records from `history` when it holds more records than the
/// baseline; a record without samples counts as one run at its value), with its interval
/// at kStatConfidence. The metric exceeds when the whole interval is worse than both
/// parts of the policy; it is inconclusive (when gated) when the interval straddles them.
/// current and baseline stay the record's value and the baseline median, for display.
///
/// Either way, a change whose relative part is beyond the policy while an absolute floor
/// holds it back gets not_gated = "under the <floor> floor".
std::vector<MetricComparison> compare_with_baseline(
    const NormalizedRecord& current, const std::vector<NormalizedRecord>& baseline,
    CompareMethod method = CompareMethod::kSeed, const std::vector<NormalizedRecord>& history = {});

/// The confidence of --method stat's intervals.
inline constexpr double kStatConfidence = 0.95;

}  // namespace perfgate
