#include "stats/level_shift.hpp"

#include "stats/change_points.hpp"
#include "stats/welch_test.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <numbers>

namespace perfgate::stats {
namespace {

// 1.4826 * MAD estimates a normal standard deviation.
constexpr double kMadToSd = 1.482602218505602;
// A record of this many runs or more is summarised by its 20%-trimmed mean; fewer, by the
// median (a trimmed mean of four runs trims nothing).
constexpr std::size_t kTrimmedFrom = 5;
constexpr double kLevelTrim = 0.2;
// The fewest records on each side of a change of level in the history: a re-seed approves
// three or more.
constexpr std::size_t kSpreadMinSegment = 3;

double median_of(std::vector<double> values) {
  const std::size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  const double upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  return (*std::max_element(values.begin(), values.begin() + middle) + upper) / 2;
}

// A record's level (the trimmed mean of its values, or their median below kTrimmedFrom)
// and the sampling variance of that level.
struct RecordLevel {
  double level = 0;
  double variance = 0;  ///< 0 for a single value: its runs' spread is unknown
  std::size_t count = 0;
};

RecordLevel level_of(std::vector<double> values) {
  RecordLevel out;
  out.count = values.size();
  if (values.size() >= kTrimmedFrom) {
    // Yuen's trimmed mean and its squared standard error: as robust to a slow run as the
    // median (a fifth of the runs may be outliers on each side) and nearly as efficient as
    // the mean, so the levels of records scatter less than their medians do.
    const Moments trimmed = trimmed_moments_of(values, kLevelTrim);
    out.level = trimmed.mean;
    out.variance = trimmed.variance / static_cast<double>(trimmed.count);
    return out;
  }
  out.level = median_of(values);
  if (values.size() < 2) return out;
  for (double& value : values) value = std::fabs(value - out.level);
  const double sd = kMadToSd * median_of(std::move(values));
  out.variance = median_variance_factor(out.count) * sd * sd / static_cast<double>(out.count);
  return out;
}

// The sample variance (n - 1) of the levels; 0 for fewer than two.
double sample_variance(const std::vector<double>& values) {
  return moments_of(values).variance;
}

// The levels less those that lie outside their peers' scatter: Rosner's generalized ESD
// test (Technometrics 25(2), 1983; the NIST/SEMATECH e-Handbook, 1.3.5.17) at 0.1%, for
// up to a fifth of the records (at 1%, clean noise lost 0.4-0.7 points of coverage:
// bench/compare_coverage). One record measured while something else ran (a daemon, a
// build) would otherwise widen every interval its history takes part in, and since an
// INCONCLUSIVE record never joins the baseline, keep it from ever rolling out. Fewer than
// five levels are kept as they are: too few to tell an outlier from the scatter.
std::vector<double> without_outlying_records(std::vector<double> levels) {
  constexpr double kAlpha = 0.001;
  const std::size_t n = levels.size();
  const std::size_t most = n / 5;
  std::size_t outlying = 0;
  std::vector<double> removed_order;
  std::vector<double> remaining = levels;
  for (std::size_t i = 1; i <= most; ++i) {
    const Moments moments = moments_of(remaining);
    const double sd = std::sqrt(moments.variance);
    if (!(sd > 0)) break;
    const auto farthest =
        std::max_element(remaining.begin(), remaining.end(), [&](double a, double b) {
          return std::fabs(a - moments.mean) < std::fabs(b - moments.mean);
        });
    const double statistic = std::fabs(*farthest - moments.mean) / sd;
    const double left = static_cast<double>(n - i);  // values once this one is removed
    const double p = 1 - kAlpha / (2 * (left + 1));
    const double t = boost::math::quantile(boost::math::students_t(left - 1), p);
    const double critical = left * t / std::sqrt((left - 1 + t * t) * (left + 1));
    // The number of outliers is the largest i whose statistic exceeds its critical value:
    // a second outlier can mask the first, so every step is tested.
    if (statistic > critical) outlying = i;
    removed_order.push_back(*farthest);
    remaining.erase(farthest);
  }
  for (std::size_t i = 0; i < outlying; ++i) {
    levels.erase(std::find(levels.begin(), levels.end(), removed_order[i]));
  }
  return levels;
}

// The spread of records' levels and the degrees of freedom it was estimated on.
struct Spread {
  double variance = 0;
  double df = 0;
  std::size_t records = 0;  ///< the levels it was estimated from
};

Spread spread_of(const std::vector<double>& levels) {
  const std::vector<double> kept = without_outlying_records(levels);
  return {sample_variance(kept), kept.size() < 2 ? 0.0 : static_cast<double>(kept.size() - 1),
          kept.size()};
}

// The spread of the history's levels (oldest first) within the segments its change points
// divide it into: the variance pooled over the segments, on the records less one per
// segment. A history that spans another level (a re-seed, a change the baseline has moved
// past) then counts only the scatter about each level; a history with no change, however
// much more it scatters than a baseline measured back to back, counts all of it: records
// measured at other moments show how far the machine moves between moments.
Spread segmented_spread(const std::vector<double>& levels) {
  ChangePointOptions options;
  options.min_segment = kSpreadMinSegment;
  std::vector<std::size_t> bounds{0};
  for (const ChangePoint& change : find_change_points(levels, options))
    bounds.push_back(change.index);
  bounds.push_back(levels.size());
  Spread pooled;
  double squares = 0;
  for (std::size_t i = 0; i + 1 < bounds.size(); ++i) {
    const Spread segment =
        spread_of(std::vector<double>(levels.begin() + static_cast<std::ptrdiff_t>(bounds[i]),
                                      levels.begin() + static_cast<std::ptrdiff_t>(bounds[i + 1])));
    squares += segment.variance * segment.df;
    pooled.df += segment.df;
    pooled.records += segment.records;
  }
  if (pooled.df > 0) pooled.variance = squares / pooled.df;
  return pooled;
}

// The two-sided quantile of Student's t, or of the normal distribution when the degrees
// of freedom are beyond what changes the third digit.
double two_sided_quantile(double confidence, double degrees_of_freedom) {
  const double p = 1 - (1 - confidence) / 2;
  if (!std::isfinite(degrees_of_freedom) || degrees_of_freedom > 1e6)
    return boost::math::quantile(boost::math::normal(), p);
  return boost::math::quantile(boost::math::students_t(degrees_of_freedom), p);
}

}  // namespace

double median_variance_factor(std::size_t n) {
  // n * Var(median of n standard normals), from the exact order-statistic variances
  // (bench/compare_coverage.cpp checks them by simulation); pi / 2 beyond the table.
  static constexpr double kFactors[] = {1.0,    1.0,    1.0,    1.3463, 1.1930, 1.4339,
                                        1.2882, 1.4727, 1.3458, 1.4914, 1.3785};
  if (n < std::size(kFactors)) return kFactors[n];
  return std::numbers::pi / 2;
}

LevelShift estimate_level_shift(std::span<const double> current,
                                const std::vector<std::vector<double>>& baseline, double confidence,
                                const std::vector<std::vector<double>>& history) {
  return estimate_level_shift(std::vector<std::vector<double>>{{current.begin(), current.end()}},
                              baseline, confidence, history);
}

LevelShift estimate_level_shift(const std::vector<std::vector<double>>& current_parts,
                                const std::vector<std::vector<double>>& baseline, double confidence,
                                const std::vector<std::vector<double>>& history) {
  LevelShift shift;
  shift.confidence = confidence;
  std::vector<const std::vector<double>*> records;
  for (const auto& record : baseline) {
    if (!record.empty()) records.push_back(&record);
  }
  std::vector<const std::vector<double>*> parts;
  for (const auto& part : current_parts) {
    if (!part.empty()) parts.push_back(&part);
  }
  if (parts.empty() || records.empty()) return shift;

  bool positive = true;
  for (const auto* part : parts) {
    positive = positive && std::all_of(part->begin(), part->end(), [](double v) { return v > 0; });
  }
  for (const auto* record : records) {
    positive =
        positive && std::all_of(record->begin(), record->end(), [](double v) { return v > 0; });
  }
  const auto scaled = [&](std::span<const double> values) {
    std::vector<double> out(values.begin(), values.end());
    if (positive) {
      for (double& value : out) value = std::log(value);
    }
    return out;
  };

  // A confirmed record's parts were measured at different moments of the machine: each is
  // a draw of the between-record noise, and the current level is their mean.
  std::vector<RecordLevel> now_parts;
  double now_level = 0;
  for (const auto* part : parts) {
    now_parts.push_back(level_of(scaled(*part)));
    now_level += now_parts.back().level;
  }
  const double m = static_cast<double>(now_parts.size());
  now_level /= m;
  std::vector<double> levels;
  double within_mean = 0;
  std::size_t within_df = 0;
  for (const auto* record : records) {
    const RecordLevel level = level_of(scaled(*record));
    levels.push_back(level.level);
    within_mean += level.variance;
    within_df += level.count - 1;
  }
  const std::size_t k = levels.size();
  within_mean /= static_cast<double>(k);
  const double center = median_of(levels);

  // The spread of records' levels: of the history's records when it has more than the
  // baseline (the cohort's noise is a property of its machine, better known from more
  // records, measured at more moments), pooled within the levels its change points
  // separate, unless that leaves fewer degrees of freedom than the baseline's own; else of
  // the baseline's. The history comes newest first. A baseline of one record keeps its
  // runs' noise only, as the report says of it (report/comparison_row.cpp).
  std::vector<double> history_levels;
  for (auto record = history.rbegin(); record != history.rend(); ++record) {
    const bool loggable =
        !positive || std::all_of(record->begin(), record->end(), [](double v) { return v > 0; });
    if (!record->empty() && loggable) history_levels.push_back(level_of(scaled(*record)).level);
  }
  Spread spread_estimate = spread_of(levels);
  if (history_levels.size() > levels.size() && levels.size() >= 2) {
    const Spread from_history = segmented_spread(history_levels);
    if (from_history.df >= spread_estimate.df) spread_estimate = from_history;
  }
  const std::size_t spread_count = spread_estimate.records;

  // The variance of the difference: the baseline center's, plus the current record's
  // level's. With two or more records both come from the spread of the levels, which
  // holds every kind of noise the records met (runs, and the moments between records), on
  // the records less one per level degrees of freedom; the current level's is never taken
  // below its own runs' variance (a record measured under more load than its baseline).
  // With one baseline record only the runs' spread is known.
  const double spread = spread_estimate.variance;
  const double kd = static_cast<double>(k);
  const double between_df = spread_estimate.df;
  double variance = 0;
  double df = std::numeric_limits<double>::infinity();
  if (between_df > 0) {
    // One part: the current level's variance is floored by its runs' variance, but its
    // uncertainty is the spread's (K - 1 degrees of freedom). A spread that came out
    // small by chance must not borrow the runs' many degrees of freedom as well.
    double now_variance = 0;
    for (const RecordLevel& part : now_parts) now_variance += std::max(spread, part.variance);
    now_variance /= m * m;
    // Parts that disagree more than the spread predicts (a machine that changed between
    // them) widen the interval by what they show: the mean of two moments is only as sure
    // as the moments agree.
    if (now_parts.size() >= 2) {
      std::vector<double> part_levels;
      for (const RecordLevel& part : now_parts) part_levels.push_back(part.level);
      now_variance = std::max(now_variance, sample_variance(part_levels) / m);
    }
    variance = median_variance_factor(k) * spread / kd + now_variance;
    df = between_df;
  } else {
    // One baseline record: the two sides' level variances, independent, with
    // Welch-Satterthwaite's degrees of freedom.
    double now_variance = 0;
    std::size_t now_df = 0;
    for (const RecordLevel& part : now_parts) {
      now_variance += part.variance / (m * m);
      now_df += part.count - 1;
    }
    const double sides[2] = {within_mean, now_variance};
    const double side_dfs[2] = {static_cast<double>(within_df), static_cast<double>(now_df)};
    double denominator = 0;
    for (int i = 0; i < 2; ++i) {
      variance += sides[i];
      if (sides[i] > 0 && side_dfs[i] > 0) denominator += sides[i] * sides[i] / side_dfs[i];
    }
    if (denominator > 0) df = variance * variance / denominator;
  }
  const double half = variance > 0 ? two_sided_quantile(confidence, df) * std::sqrt(variance) : 0;
  const double difference = now_level - center;

  if (positive) {
    shift.change = std::expm1(difference);
    shift.low = std::expm1(difference - half);
    shift.high = std::expm1(difference + half);
  } else {
    if (center == 0) return shift;
    const double scale = std::fabs(center);
    shift.change = difference / scale;
    shift.low = (difference - half) / scale;
    shift.high = (difference + half) / scale;
  }
  shift.estimated = true;
  shift.log_scale = positive;
  shift.baseline_records = k;
  shift.between_record_sd = std::sqrt(std::max(0.0, spread - within_mean));
  shift.spread_records = spread_count;
  shift.degrees_of_freedom = df;
  return shift;
}

}  // namespace perfgate::stats
