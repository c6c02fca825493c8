#pragma once
// The summary form of SAME (seed 002): the centers are close and the intervals overlap
// strongly. The decision also applies it to intervals scaled to cycles.
#include "diff/diff_config.hpp"
#include "diff/side_estimate.hpp"

namespace perfgate::diff {

/// |reference - compare| / min(reference, compare): symmetric, so swapping the files
/// gives the same value. Both centers must be positive.
double center_difference(double reference, double compare);

/// The length of the intersection over the length of the narrower interval (0 when they
/// are disjoint). A zero-width interval counts as fully overlapped (1) when it lies
/// inside the other one and not at all (0) otherwise.
double overlap_fraction(const CenteredInterval& reference, const CenteredInterval& compare);

enum class SummarySame { kSame, kCentersNotClose, kWeakOverlap };

/// Centers first (center_difference <= same.center_relative), then the overlap
/// (overlap_fraction >= same.overlap_fraction).
SummarySame summary_same(const CenteredInterval& reference, const CenteredInterval& compare,
                         const DiffThresholds& thresholds);

}  // namespace perfgate::diff
