#pragma once
// Whether one side's samples of one metric are too spread out to trust (SPEC §7).
//
// A side is noisy when the range of its samples (max - min) exceeds noise_limit times their
// median. Reading of the seed, written down here because the seed leaves it open:
//  - The limit applies to every judged metric (duration, CPU and RSS), each on its own,
//    since the seed says "range exceeds 30% of median on either revision" without naming
//    a metric.
//  - The range is judged against the median alone, as the seed states, even when it is
//    smaller than the metric's absolute budget: a command whose CPU time is a few
//    milliseconds can then come out INCONCLUSIVE on CPU noise alone. Raise --noise-limit
//    for such scenarios.
//  - When asked to discard (after five pairs), the sample farthest from the side's median
//    is removed before the range is measured; of two equally far, the larger goes, since a
//    runner hiccup makes a sample slower, not faster.
#include <cstddef>
#include <optional>
#include <span>

namespace perfgate {

/// The median of `samples` (the mean of the middle two for an even count); 0 when empty.
double median_of(std::span<const double> samples);

struct SideNoise {
  double median = 0;                     ///< of the samples the range was measured on
  double range = 0;                      ///< max - min of those samples
  std::optional<std::size_t> discarded;  ///< index of the sample left out, when one was
  bool noisy = false;

  /// range / median; 0 when the range is 0, infinity when only the median is 0.
  double relative_range() const;
};

/// Measures the spread of one side.
SideNoise measure_noise(std::span<const double> samples, double noise_limit, bool discard_extreme);

}  // namespace perfgate
