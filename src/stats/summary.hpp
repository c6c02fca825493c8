#pragma once
// Descriptive summary of a sample set. Pure functions: values in, values out.
#include <cstddef>
#include <span>

namespace perfgate {

struct Summary {
  std::size_t count = 0;
  double mean = 0;
  double median = 0;
  double min = 0;
  double max = 0;
  double stdev = 0;  ///< sample standard deviation (n-1); 0 for fewer than two samples
  double mad = 0;    ///< median absolute deviation from the median, unscaled
  double q1 = 0;     ///< first quartile, linear interpolation between order statistics (type 7)
  double q3 = 0;     ///< third quartile, same rule
  double iqr = 0;    ///< q3 - q1
};

/// Summarises `samples`. An empty span gives a Summary with count 0 and every field 0.
/// Non-finite samples are the caller's bug: asserted against.
Summary summarize(std::span<const double> samples);

/// Quantile p in [0, 1] of already sorted values, linear interpolation (R type 7).
double quantile_sorted(std::span<const double> sorted, double p);

}  // namespace perfgate
