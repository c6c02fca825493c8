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
std::vector<MetricComparison> compare_with_baseline(const NormalizedRecord& current,
                                                    const std::vector<NormalizedRecord>& baseline);

}  // namespace perfgate
