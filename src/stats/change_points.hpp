#pragma once
// Change points of a series in the E-divisive family (docs/changes.md): the energy
// statistic (energy_divergence.hpp) says where a segment divides best, and a t-test of the
// two sides says whether that division is significant, as Apache Otava (formerly Hunter)
// tests its candidates; by default a t-test of the sides' Huber M-estimates, which outliers
// do not defeat, rather than Otava's Welch test. Segments are divided, most significant candidate
// first, until no candidate is significant. Then every change point is tested again against the
// segments beside it, by that test and by a test of a step over a linear trend through both
// segments (a slow drift is not a change), and the weakest is dropped while one fails; each
// survivor is moved, within 20 points, to the split where a step between its neighbours
// fits best with outliers' weight bounded, and tested again there. Deterministic: no
// permutations, no random numbers. Pure functions: values in, values out.
#include <cstddef>
#include <span>
#include <vector>

namespace perfgate::stats {

/// The test of a candidate's two segments.
enum class SegmentTest {
  /// Welch's t of the sides' Huber M-estimates of location, outliers clipped at 3 noise SDs
  /// (the noise from the segment's first differences): outliers (runs that hit a busy
  /// moment) cannot hide a change, however many a short side holds.
  kHuber,
  /// Yuen's test of 10%-trimmed means (welch_test.hpp): as robust while outliers are fewer
  /// than a tenth of a side (the default from issue 34, part 3, until the Huber test).
  kTrimmed,
  kWelch,  ///< Welch's t-test of the plain means, as Apache Otava tests (before issue 34)
};

struct ChangePointOptions {
  std::size_t min_segment = 5;  ///< points on each side of a change point, at least 2
  double max_p_value = 0.001;   ///< a change point's two-sided p-values are at most this
  SegmentTest test = SegmentTest::kHuber;
};

/// The share of each end that SegmentTest::kTrimmed cuts.
inline constexpr double kSegmentTrim = 0.1;

struct ChangePoint {
  std::size_t index = 0;   ///< the first point after the change
  double mean_before = 0;  ///< mean of the segment that ends at the change
  double mean_after = 0;   ///< mean of the segment that starts at it
  /// The larger p-value of the options' SegmentTest of those two segments and of the test
  /// of a step over a linear trend through them.
  double p_value = 1;
  double relative_change() const { return mean_after / mean_before - 1; }
};

/// Whether a change makes a metric worse: a rise when lower is better, a fall otherwise.
inline bool worsens(const ChangePoint& change, bool lower_is_better) {
  const bool rose = change.mean_after > change.mean_before;
  return lower_is_better ? rose : !rose;
}

/// The change points of `values`, in order. Fewer than 2 * min_segment values have none.
std::vector<ChangePoint> find_change_points(std::span<const double> values,
                                            const ChangePointOptions& options);

/// The same for a series that grows: append() re-examines only the points after the
/// second-to-last change point (the last one may move or vanish with new points; those
/// before it keep their segments on both sides). So an appended point costs the analysis
/// of the tail, not of the whole series. On a series with changes this gives what
/// find_change_points() gives on the whole series except where a new point would move an
/// earlier change, which the tests bound.
class ChangePointSeries {
 public:
  explicit ChangePointSeries(ChangePointOptions options) : options_(options) {}

  void append(double value);
  const std::vector<double>& values() const { return values_; }
  const std::vector<ChangePoint>& change_points() const { return points_; }

 private:
  ChangePointOptions options_;
  std::vector<double> values_;
  std::vector<ChangePoint> points_;
};

}  // namespace perfgate::stats
