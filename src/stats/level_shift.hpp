#pragma once
// How much one record's level differs from its baseline records' level, with an interval
// that carries both kinds of noise a busy machine has: the spread of the runs within a
// record, and the spread between records (runs of one record share a moment of the
// machine: its load, its clock, its cache state; the next record gets another moment).
//
// The model is one-way random effects on the log of the samples. A record's level is the
// 20%-trimmed mean of its logged runs (the median below five runs): an outlier run cannot
// move it. The estimate is the current record's level minus the median of the baseline
// records' levels: a slow or fast baseline record cannot move it. Its variance is the
// baseline median's (c_K S^2 / K) plus the current level's (S^2, floored by its own runs'
// variance), where S^2 is the sample variance of records' levels: it holds the runs' noise
// and the noise between records alike. Levels outside their peers' scatter (a record that
// met a daemon or a build) are left out of S^2 by the generalized ESD test, at most a fifth
// of five or more; a history that spans two levels (a re-seed) has S^2 pooled within them.
// The interval is Student's t on the degrees of freedom S^2 was estimated with (records less
// one per level): the prediction interval of one new record against a sample of them.
// docs/compare.md gives the references and the coverage measured by simulation
// (bench/compare_coverage.cpp).
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
  /// How many records' levels the spread was estimated from (the history's, or the
  /// baseline's, less those outside their peers' scatter); the interval has this less one
  /// degrees of freedom per level the history holds.
  std::size_t spread_records = 0;
  /// The between-record standard deviation on the comparison scale (log: ~ relative).
  double between_record_sd = 0;
  double degrees_of_freedom = 0;
};

/// Estimates the change of `current` (one record's samples) over `baseline` (each baseline
/// record's samples; a record with one value is a record whose runs were not kept) with a
/// two-sided interval at `confidence` (e.g. 0.95). `history` (optional) is the cohort's
/// recent records, newest first, the baseline's among them: when it holds more records
/// than the baseline, the spread between records is estimated from its levels, pooled
/// within the levels its change points (change_points.hpp) separate. Empty records are
/// left out. With one record the spread between records cannot be estimated: only the
/// runs' spread counts. A baseline level of 0 on the value scale gives estimated = false.
LevelShift estimate_level_shift(std::span<const double> current,
                                const std::vector<std::vector<double>>& baseline, double confidence,
                                const std::vector<std::vector<double>>& history = {});

/// The same for a current record measured in parts at different moments (its first runs,
/// then a confirmation's): each part is a draw of the noise between records, so the current
/// level is the mean of the parts' levels and its variance the mean of their variances over
/// the number of parts. One part is exactly the overload above.
LevelShift estimate_level_shift(const std::vector<std::vector<double>>& current_parts,
                                const std::vector<std::vector<double>>& baseline, double confidence,
                                const std::vector<std::vector<double>>& history = {});

}  // namespace perfgate::stats
