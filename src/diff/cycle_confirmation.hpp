#pragma once
// Cycle space (seed 002): a GPU that ran at another clock rate takes another time for the
// same work, so a timing gap counts only if it holds in cycles too. Cycles come from the
// bulk samples (time × frequency of each sample) or, without them, from the summaries
// (the timing interval × the mean clock rate).
#include <optional>
#include <span>
#include <vector>

#include "diff/side_estimate.hpp"

namespace perfgate::diff {

/// Non-empty, and every value positive and finite.
bool usable_samples(std::span<const double> values);

/// time × frequency per sample; nullopt when the counts differ or either is not
/// usable_samples.
std::optional<std::vector<double>> bulk_cycles(std::span<const double> times,
                                               std::span<const double> frequencies);

/// The robust interval of bulk values as nvbench computes it: [min, q3] around the median,
/// each quantile the sorted value at rank round(p × (n − 1)), halves rounded up.
/// `values` must be usable_samples.
CenteredInterval sample_interval(std::span<const double> values);

/// A timing interval in cycles: every edge × `clock_rate` (Hz); nullopt when the clock
/// rate is not positive and finite.
std::optional<CenteredInterval> summary_cycles(const CenteredInterval& interval, double clock_rate);

}  // namespace perfgate::diff
