#include "diff/summary_same.hpp"

#include <algorithm>
#include <cmath>

namespace perfgate::diff {

double center_difference(double reference, double compare) {
  return std::abs(reference - compare) / std::min(reference, compare);
}

double overlap_fraction(const CenteredInterval& reference, const CenteredInterval& compare) {
  const double lower = std::max(reference.lower, compare.lower);
  const double upper = std::min(reference.upper, compare.upper);
  if (upper < lower) return 0;
  const double narrower =
      std::min(reference.upper - reference.lower, compare.upper - compare.lower);
  if (narrower > 0) return (upper - lower) / narrower;
  // A zero-width interval that intersects the other one lies inside it.
  return 1;
}

SummarySame summary_same(const CenteredInterval& reference, const CenteredInterval& compare,
                         const DiffThresholds& thresholds) {
  if (center_difference(reference.center, compare.center) > thresholds.same_center_relative) {
    return SummarySame::kCentersNotClose;
  }
  if (overlap_fraction(reference, compare) < thresholds.same_overlap_fraction) {
    return SummarySame::kWeakOverlap;
  }
  return SummarySame::kSame;
}

}  // namespace perfgate::diff
