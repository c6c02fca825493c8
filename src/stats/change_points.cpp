#include "stats/change_points.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <map>
#include <numbers>
#include <optional>
#include <stdexcept>

#include "stats/energy_divergence.hpp"
#include "stats/welch_test.hpp"

namespace perfgate::stats {
namespace {

/// The best division of values[begin, end): where Q̂ is largest, with min_segment values
/// on each side (the first such split on ties), and its test.
struct Candidate {
  std::size_t index = 0;
  double q = 0;
  double p_value = 1;
};

// 1.4826 MAD estimates a normal standard deviation; sqrt(pi / 2) times the mean absolute
// deviation does too.
constexpr double kNormalFromMad = 1.482602218505602;
constexpr double kNormalFromMeanDeviation = 1.2533141373155003;
/// Values further than this many noise SDs from their side's level (the segment test), their
/// fitted value (the trend test) or their side's median (the relocation) are outliers: they
/// count as if they were this far.
constexpr double kOutlierSds = 3;
/// A side between a change point's final neighbours with more than this share of its values
/// beyond kOutlierSds is a mixture of levels, not one level with outliers (the segment test).
constexpr double kMostOutliers = 0.25;
/// How far from where E-divisive put it a change point may move when it is relocated.
constexpr std::size_t kRelocationWindow = 20;
/// Huber's iteration stops when no fitted value moves more than this share of c, or after
/// this many rounds.
constexpr double kHuberTolerance = 1e-6;
constexpr int kHuberIterations = 50;
/// A residual sum of squares below this share of the total is rounding: an exact fit.
constexpr double kRounding = 1e-20;

double middle_of(std::vector<double> values) {
  const auto middle = static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  const double upper = values[static_cast<std::size_t>(middle)];
  if (values.size() % 2 == 1) return upper;
  return (*std::max_element(values.begin(), values.begin() + middle) + upper) / 2;
}

double median_in(std::span<const double> values) {
  return middle_of(std::vector<double>(values.begin(), values.end()));
}

/// The noise SD of values[begin, end) from their first differences d: 1.4826 median|d| /
/// sqrt(2), or, where more than half the differences are 0 (ties), sqrt(pi / 2) mean|d| /
/// sqrt(2). A step moves one difference and a slow drift moves all by as little as it moves
/// per point, so neither inflates it, as they inflate the SD of the values themselves; an
/// outlier moves two differences.
double noise_sd(std::span<const double> values, std::size_t begin, std::size_t end) {
  std::vector<double> differences;
  double sum = 0;
  for (std::size_t i = begin + 1; i < end; ++i) {
    differences.push_back(std::fabs(values[i] - values[i - 1]));
    sum += differences.back();
  }
  if (differences.empty()) return 0;
  const double median = middle_of(differences);
  const double sd = median > 0
                        ? kNormalFromMad * median
                        : kNormalFromMeanDeviation * sum / static_cast<double>(differences.size());
  return sd / std::numbers::sqrt2;
}

/// Least squares of y on (1, i, [i >= split]): the step's coefficient and what its t-test
/// needs, and the fitted values. The step's coefficient and standard error come from the
/// residuals of y and of the step indicator after each is regressed on (1, i)
/// (Frisch-Waugh-Lovell).
struct StepOverLine {
  double step = 0;     ///< the coefficient of [i >= split]
  double step_ss = 0;  ///< the indicator's sum of squares after the line
  double rss = 0;      ///< the residual sum of squares
  double total = 0;    ///< the sum of squares of y about its mean
  std::vector<double> fitted;
};

StepOverLine fit_step_over_line(const std::vector<double>& y, std::size_t split) {
  const std::size_t n = y.size();
  const double nn = static_cast<double>(n);
  const double centre = (nn - 1) / 2;
  const double step_mean = static_cast<double>(n - split) / nn;
  double y_mean = 0;
  for (const double value : y) y_mean += value / nn;
  double xx = 0, xy = 0, xs = 0;
  StepOverLine fit;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = static_cast<double>(i) - centre;
    xx += x * x;
    xy += x * (y[i] - y_mean);
    xs += x * ((i < split ? 0.0 : 1.0) - step_mean);
    fit.total += (y[i] - y_mean) * (y[i] - y_mean);
  }
  const auto step_residual = [&](std::size_t i) {
    return (i < split ? 0.0 : 1.0) - step_mean - xs / xx * (static_cast<double>(i) - centre);
  };
  const auto y_residual = [&](std::size_t i) {
    return y[i] - y_mean - xy / xx * (static_cast<double>(i) - centre);
  };
  double sy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    fit.step_ss += step_residual(i) * step_residual(i);
    sy += step_residual(i) * y_residual(i);
  }
  fit.step = sy / fit.step_ss;
  fit.fitted.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double r = y_residual(i) - fit.step * step_residual(i);
    fit.rss += r * r;
    fit.fitted[i] = y[i] - r;
  }
  return fit;
}

/// Whether values[begin, end) step at `split` beyond a linear trend: the two-sided p-value of
/// c in y = a + b i + c [i >= split], by the t-test of a regression coefficient (n - 3
/// degrees of freedom), fitted by Huber's M-estimator with c = kOutlierSds `noise` SDs: least
/// squares of pseudo-observations, each value pulled to within c of its fitted value, until
/// the fit stands still (from the sides' medians), so an outlier weighs as one value c away
/// (Huber, "Robust Statistics", 1981, 7.8). An exact fit gives p = 0 for a step and 1 for
/// none.
double step_over_trend_p(std::span<const double> values, std::size_t begin, std::size_t split,
                         std::size_t end, double noise) {
  const std::vector<double> y(values.begin() + static_cast<std::ptrdiff_t>(begin),
                              values.begin() + static_cast<std::ptrdiff_t>(end));
  const std::size_t n = y.size();
  const std::size_t k = split - begin;
  const double clip = kOutlierSds * noise;
  std::vector<double> fitted(n, median_in(values.subspan(begin, k)));
  std::fill(fitted.begin() + static_cast<std::ptrdiff_t>(k), fitted.end(),
            median_in(values.subspan(split, end - split)));
  std::vector<double> pseudo = y;
  StepOverLine fit;
  for (int iteration = 0; iteration < kHuberIterations; ++iteration) {
    for (std::size_t i = 0; i < n && clip > 0; ++i) {
      pseudo[i] = fitted[i] + std::clamp(y[i] - fitted[i], -clip, clip);
    }
    fit = fit_step_over_line(pseudo, k);
    double moved = 0;
    for (std::size_t i = 0; i < n; ++i)
      moved = std::max(moved, std::fabs(fit.fitted[i] - fitted[i]));
    fitted = fit.fitted;
    if (!(moved > kHuberTolerance * clip)) break;
  }
  if (!(fit.total > 0)) return 1;  // constant
  // Residuals at rounding level: an exact fit, with a step or without one.
  if (!(fit.rss > kRounding * fit.total)) {
    return fit.step * fit.step * fit.step_ss > kRounding * fit.total ? 0 : 1;
  }
  const double degrees_of_freedom = static_cast<double>(n) - 3;
  const double t = fit.step / std::sqrt(fit.rss / degrees_of_freedom / fit.step_ss);
  const boost::math::students_t distribution(degrees_of_freedom);
  return 2 * boost::math::cdf(boost::math::complement(distribution, std::fabs(t)));
}

/// A side's level by Huber's M-estimator of location with clip c (Huber, 1981, 3.2 and
/// 6.7): the value mu where the residuals, each clamped to [-c, c], sum to 0, found by moving
/// mu by their mean from the side's median until it stands still; its variance E[psi^2] /
/// (E[psi'])^2 / n, with psi the clamped residual and E[psi'] the share of values within c
/// of mu (at least a half). So an outlier weighs as one value c away, however many there
/// are. With `whole_level`, a side with more than kMostOutliers of its values beyond c is
/// not a level with outliers but a mixture, and has its plain moments.
Moments huber_moments(std::span<const double> side, double clip, bool whole_level) {
  const double n = static_cast<double>(side.size());
  double mu = median_in(side);
  double psi_squares = 0, within = 0;
  for (int iteration = 0; iteration < kHuberIterations; ++iteration) {
    double sum = 0;
    psi_squares = 0;
    within = 0;
    for (const double y : side) {
      const double psi = std::clamp(y - mu, -clip, clip);
      sum += psi;
      psi_squares += psi * psi;
      if (std::fabs(y - mu) <= clip) within += 1;
    }
    mu += sum / n;
    if (!(std::fabs(sum / n) > kHuberTolerance * clip)) break;
  }
  if (whole_level && 1 - within / n > kMostOutliers) return moments_of(side);
  const double share = std::max(within / n, 0.5);
  Moments m;
  m.count = side.size();
  m.mean = mu;
  m.variance = psi_squares / (n - 1) / (share * share);
  return m;
}

/// The two-sided p-value of the segment test of values[begin, end) split at `split`: Welch's
/// t of the two sides' levels (their Huber M-estimates with c = kOutlierSds noise SDs of the
/// whole segment, their trimmed means or their means, by options.test); `noise` is
/// noise_sd(values, begin, end). `final`: the test between a change point's final
/// neighbours, where each side should be one level.
double test_sides(std::span<const double> values, std::size_t begin, std::size_t split,
                  std::size_t end, const ChangePointOptions& options, double noise, bool final) {
  const auto before = values.subspan(begin, split - begin);
  const auto after = values.subspan(split, end - split);
  switch (options.test) {
    case SegmentTest::kHuber: {
      const double clip = kOutlierSds * noise;
      if (!(clip > 0)) break;  // no noise (ties): the plain means decide
      return welch_t_test(huber_moments(before, clip, final), huber_moments(after, clip, final))
          .p_value;
    }
    case SegmentTest::kTrimmed:
      return welch_t_test(trimmed_moments_of(before, kSegmentTrim),
                          trimmed_moments_of(after, kSegmentTrim))
          .p_value;
    case SegmentTest::kWelch:
      break;
  }
  return welch_t_test(moments_of(before), moments_of(after)).p_value;
}

std::optional<Candidate> best_split(std::span<const double> values, std::size_t begin,
                                    std::size_t end, const ChangePointOptions& options) {
  const std::size_t m = end - begin;
  if (m < 2 * options.min_segment) return std::nullopt;
  const std::vector<double> q = energy_split_statistics(values.subspan(begin, m));
  std::size_t best = options.min_segment;
  for (std::size_t t = options.min_segment; t <= m - options.min_segment; ++t) {
    if (q[t - 1] > q[best - 1]) best = t;
  }
  Candidate candidate{begin + best, q[best - 1], 1};
  candidate.p_value =
      test_sides(values, begin, candidate.index, end, options, noise_sd(values, begin, end), false);
  return candidate;
}

/// The final test of a change point between its neighbours: the segment test, and a step
/// over a linear trend; the larger p-value of the two.
double final_p(std::span<const double> values, std::size_t left, std::size_t split,
               std::size_t right, const ChangePointOptions& options) {
  // Both tests clip at the same noise SD: one pass over the two segments for it.
  const double noise = noise_sd(values, left, right);
  return std::max(test_sides(values, left, split, right, options, noise, true),
                  step_over_trend_p(values, left, split, right, noise));
}

/// Drops the change point of `points` (inside [begin, end)) whose final test fails worst,
/// while one fails.
void drop_failing(std::span<const double> values, std::size_t begin, std::size_t end,
                  std::vector<std::size_t>& points, const ChangePointOptions& options) {
  for (;;) {
    std::optional<std::size_t> weakest;
    double weakest_p = options.max_p_value;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::size_t left = i == 0 ? begin : points[i - 1];
      const std::size_t right = i + 1 == points.size() ? end : points[i + 1];
      const double p = final_p(values, left, points[i], right, options);
      if (p > weakest_p) {
        weakest = i;
        weakest_p = p;
      }
    }
    if (!weakest) break;
    points.erase(points.begin() + static_cast<std::ptrdiff_t>(*weakest));
  }
}

/// Where a step between `left` and `right` fits best, within kRelocationWindow of `split`:
/// the split whose two medians leave the least truncated squared error, min(r^2, c^2) with
/// c = kOutlierSds noise SDs (so an outlier costs no more than c^2, and a value on the wrong
/// side of a step costs the step's square); `split` itself on ties.
std::size_t relocated(std::span<const double> values, std::size_t left, std::size_t split,
                      std::size_t right, std::size_t min_segment) {
  const double clip = kOutlierSds * noise_sd(values, left, right);
  const auto cost = [&](std::size_t at) {
    const double before = median_in(values.subspan(left, at - left));
    const double after = median_in(values.subspan(at, right - at));
    double sum = 0;
    for (std::size_t i = left; i < right; ++i) {
      const double r = std::fabs(values[i] - (i < at ? before : after));
      sum += clip > 0 ? std::min(r, clip) * std::min(r, clip) : r * r;
    }
    return sum;
  };
  const std::size_t first =
      std::max(left + min_segment, split - std::min(split, kRelocationWindow));
  const std::size_t last = std::min(right - min_segment, split + kRelocationWindow);
  std::size_t best = split;
  double best_cost = cost(split);
  for (std::size_t at = first; at <= last; ++at) {
    const double c = cost(at);
    if (c < best_cost) {
      best = at;
      best_cost = c;
    }
  }
  return best;
}

/// Divides values[begin, end), whose ends are fixed, into significant segments; returns the
/// change points strictly inside, in order.
std::vector<std::size_t> divide(std::span<const double> values, std::size_t begin, std::size_t end,
                                const ChangePointOptions& options) {
  std::vector<std::size_t> points;  // sorted
  // The candidate of each segment, by its first index, until the segment is divided.
  std::map<std::size_t, std::optional<Candidate>> candidates;
  candidates[begin] = best_split(values, begin, end, options);
  for (;;) {
    const Candidate* chosen = nullptr;
    for (const auto& [first, candidate] : candidates) {
      if (!candidate || candidate->p_value > options.max_p_value) continue;
      if (chosen == nullptr || candidate->p_value < chosen->p_value ||
          (candidate->p_value == chosen->p_value && candidate->q > chosen->q)) {
        chosen = &*candidate;
      }
    }
    if (chosen == nullptr) break;
    const std::size_t split = chosen->index;
    const auto next = std::upper_bound(points.begin(), points.end(), split);
    const std::size_t segment_first = next == points.begin() ? begin : *std::prev(next);
    const std::size_t last = next == points.end() ? end : *next;
    points.insert(next, split);
    candidates[segment_first] = best_split(values, segment_first, split, options);
    candidates[split] = best_split(values, split, last, options);
  }
  // Each change point against the segments beside it, now that all are known: a point
  // found early, inside a long segment, may not hold between its final neighbours, nor
  // beat a linear trend through them. Then each is moved to where the step between its
  // neighbours fits best, and tested again there.
  drop_failing(values, begin, end, points, options);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::size_t left = i == 0 ? begin : points[i - 1];
    const std::size_t right = i + 1 == points.size() ? end : points[i + 1];
    points[i] = relocated(values, left, points[i], right, options.min_segment);
  }
  drop_failing(values, begin, end, points, options);
  return points;
}

std::vector<ChangePoint> describe(std::span<const double> values,
                                  const std::vector<std::size_t>& points,
                                  const ChangePointOptions& options) {
  std::vector<ChangePoint> described;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::size_t left = i == 0 ? 0 : points[i - 1];
    const std::size_t right = i + 1 == points.size() ? values.size() : points[i + 1];
    const Moments before = moments_of(values.subspan(left, points[i] - left));
    const Moments after = moments_of(values.subspan(points[i], right - points[i]));
    described.push_back(
        {points[i], before.mean, after.mean, final_p(values, left, points[i], right, options)});
  }
  return described;
}

void check(const ChangePointOptions& options) {
  if (options.min_segment < 2) {
    throw std::invalid_argument("a change point needs at least 2 points on each side");
  }
}

}  // namespace

std::vector<ChangePoint> find_change_points(std::span<const double> values,
                                            const ChangePointOptions& options) {
  check(options);
  return describe(values, divide(values, 0, values.size(), options), options);
}

void ChangePointSeries::append(double value) {
  check(options_);
  values_.push_back(value);
  // The tail from the second-to-last change point: the last one and everything after it
  // may change with the new point.
  const std::size_t keep = points_.size() >= 2 ? points_.size() - 1 : 0;
  const std::size_t tail = keep == 0 ? 0 : points_[keep - 1].index;
  std::vector<std::size_t> indices;
  for (std::size_t i = 0; i < keep; ++i) indices.push_back(points_[i].index);
  for (const std::size_t index : divide(values_, tail, values_.size(), options_)) {
    indices.push_back(index);
  }
  points_ = describe(values_, indices, options_);
}

}  // namespace perfgate::stats
