#pragma once
// How much one record's level differs from its baseline records' level, with an interval
// that carries both kinds of noise a busy machine has: the spread of the runs within a
// record, and the spread between records (runs of one record share a moment of the
// machine: its load, its clock, its cache state; the next record gets another moment).
//
// The model is one-way random effects on the log of the samples: a record's level is the
// median of its logged samples (an outlier run cannot move it), and records' levels
// scatter around the true level with a between-record variance tau^2. The estimate is the
// current record's level minus the median of the baseline records' levels (a slow or fast
// baseline record cannot move it). Its variance adds the current record's own record
// effect (tau^2, it is one record too), its median's sampling variance, and the variance
// of the baseline median; tau^2 is estimated by the method of moments from the baseline
// levels, less their own sampling variance (never below 0). The interval is Student's t
// with Welch-Satterthwaite degrees of freedom: with a quiet machine the within-record
// parts dominate and it is nearly normal; with a noisy one the between-record part
// dominates and it has K - 1 degrees of freedom. docs/compare.md gives the references
// and the coverage measured by simulation (bench/compare_coverage.cpp).
#include <cstddef>
#include <span>
#include <vector>

namespace perfgate::stats {

/// The factor c such that the variance of the median of n independent normal values is
/// c * sigma^2 / n: 1 for n = 1 and 2, 1.346 for 3, ... and pi / 2 for large n.
double median_variance_factor(std::size_t n);

struct LevelShift {
  /// True when both sides have values; false leaves every other field 0.
  bool estimated = false;
  /// Whether the levels were compared on the log scale (every value > 0); otherwise on
  /// the values themselves, relative to the baseline level.
  bool log_scale = false;
  /// The relative change of the current level over the baseline level: +0.10 = 10% higher.
  double change = 0;
  double low = 0;   ///< the interval's lower end, as a relative change
  double high = 0;  ///< the interval's upper end, as a relative change
  double confidence = 0;
  std::size_t baseline_records = 0;
  /// The between-record standard deviation on the comparison scale (log: ~ relative).
  double between_record_sd = 0;
  double degrees_of_freedom = 0;
};

/// Estimates the change of `current` (one record's samples) over `baseline` (each baseline
/// record's samples; a record with one value is a record whose runs were not kept) with a
/// two-sided interval at `confidence` (e.g. 0.95). Empty records are left out. With one
/// baseline record the between-record spread cannot be estimated and counts as 0. A
/// baseline level of 0 on the value scale gives estimated = false.
LevelShift estimate_level_shift(std::span<const double> current,
                                const std::vector<std::vector<double>>& baseline,
                                double confidence);

}  // namespace perfgate::stats
