#include "stats/change_points.hpp"

#include <algorithm>
#include <map>
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

Moments segment_moments(std::span<const double> segment, const ChangePointOptions& options) {
  return options.test == SegmentTest::kTrimmed ? trimmed_moments_of(segment, kSegmentTrim)
                                               : moments_of(segment);
}

double test_sides(std::span<const double> values, std::size_t begin, std::size_t split,
                  std::size_t end, const ChangePointOptions& options) {
  return welch_t_test(segment_moments(values.subspan(begin, split - begin), options),
                      segment_moments(values.subspan(split, end - split), options))
      .p_value;
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
  candidate.p_value = test_sides(values, begin, candidate.index, end, options);
  return candidate;
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
  // found early, inside a long segment, may not hold between its final neighbours.
  for (;;) {
    std::optional<std::size_t> weakest;
    double weakest_p = options.max_p_value;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::size_t left = i == 0 ? begin : points[i - 1];
      const std::size_t right = i + 1 == points.size() ? end : points[i + 1];
      const double p = test_sides(values, left, points[i], right, options);
      if (p > weakest_p) {
        weakest = i;
        weakest_p = p;
      }
    }
    if (!weakest) break;
    points.erase(points.begin() + static_cast<std::ptrdiff_t>(*weakest));
  }
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
        {points[i], before.mean, after.mean, test_sides(values, left, points[i], right, options)});
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
