#pragma once
// Which summary statistics stand for each side's timing (seed 002): robust ones (median,
// IQR, interval [min, q3]) when both sides have them, else classical ones (mean, stdev,
// interval mean ± stdev clipped to [min, max]). Both sides always use the same kind, so a
// median is never compared with a mean.
#include <optional>

#include "diff/state_comparison.hpp"
#include "ingest/result_file.hpp"

namespace perfgate::diff {

/// A timing interval with the center it was built around (time or cycles).
struct CenteredInterval {
  double lower = 0;
  double center = 0;
  double upper = 0;
};

/// The interval if every value is positive and finite and lower <= center <= upper;
/// ratios and logarithms of its edges are then always defined.
std::optional<CenteredInterval> centered_interval(double lower, double center, double upper);

/// One side as the decision sees it. `center` may still be missing, non-finite or
/// non-positive: the decision turns that into ????.
struct SideTiming {
  std::optional<double> center;
  std::optional<double> noise;  ///< relative dispersion as stated or derived; may be unusable
  std::optional<CenteredInterval> interval;
};

struct TimingEstimates {
  SideTiming reference;
  SideTiming compare;
  bool robust = false;  ///< medians are the centers on both sides
  /// Intervals exist on both sides or on neither.
  bool has_intervals() const { return reference.interval && compare.interval; }
};

/// Robust when both sides have a median, an IQR (relative or absolute) and min <= q1 <=
/// median <= q3, all positive; else classical when both sides have a mean, a stdev and a
/// positive interval. Otherwise the intervals are missing and only centers and noise are
/// given (medians when both sides have a median and an IQR, else means).
TimingEstimates estimate_timings(const ingest::TimingSummary& reference,
                                 const ingest::TimingSummary& compare);

/// Noise that the SAME tests can use: finite and >= 0.
bool usable_noise(const std::optional<double>& noise);

}  // namespace perfgate::diff
