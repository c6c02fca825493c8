#pragma once
// Timing summaries and sample sources for the comparator's tests.
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "diff/diff_config.hpp"
#include "diff/state_comparison.hpp"
#include "ingest/result_file.hpp"

namespace perfgate::diff::testing {

inline DiffThresholds default_thresholds() {
  return *preset_thresholds("default");
}

/// Robust summaries (what nvbench writes): min, q1, median, q3, relative IQR; the mean
/// and stdev too, so that the robust choice is visible.
inline ingest::TimingSummary robust_summary(double min, double q1, double median, double q3,
                                            double iqr_relative,
                                            std::optional<double> clock_rate = std::nullopt) {
  ingest::TimingSummary s;
  s.min = min;
  s.q1 = q1;
  s.median = median;
  s.q3 = q3;
  s.iqr_relative = iqr_relative;
  s.mean = median * 1.5;
  s.stdev_absolute = median * 0.5;
  s.clock_rate_mean = clock_rate;
  return s;
}

/// Classical summaries only: mean and absolute stdev, optionally min and max.
inline ingest::TimingSummary classical_summary(double mean, double stdev,
                                               std::optional<double> min = std::nullopt,
                                               std::optional<double> max = std::nullopt) {
  ingest::TimingSummary s;
  s.mean = mean;
  s.stdev_absolute = stdev;
  s.min = min;
  s.max = max;
  return s;
}

/// Samples given by the test, counting how often the comparator asks for them.
class FakeSamples : public LazySamples {
 public:
  FakeSamples(std::optional<std::vector<double>> times,
              std::optional<std::vector<double>> frequencies)
      : times_(std::move(times)), frequencies_(std::move(frequencies)) {}

  std::optional<std::span<const double>> times() override {
    ++times_calls;
    if (!times_) return std::nullopt;
    return std::span<const double>(*times_);
  }
  std::optional<std::span<const double>> frequencies() override {
    ++frequency_calls;
    if (!frequencies_) return std::nullopt;
    return std::span<const double>(*frequencies_);
  }

  int times_calls = 0;
  int frequency_calls = 0;

 private:
  std::optional<std::vector<double>> times_;
  std::optional<std::vector<double>> frequencies_;
};

/// `values` scaled by `factor`, e.g. milliseconds to seconds.
inline std::vector<double> scaled(std::vector<double> values, double factor) {
  for (double& value : values) value *= factor;
  return values;
}

}  // namespace perfgate::diff::testing
