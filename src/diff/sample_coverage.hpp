#pragma once
// The bulk SAME test (seed 002): how much of each run's samples has a close neighbour in
// the other run, on a log scale, in both directions. Sample-weight coverage counts every
// sample; support coverage counts each distinct value once, so a few frequent values
// cannot hide a tail that the other run never reached.
#include <cstddef>
#include <span>
#include <vector>

#include "diff/diff_config.hpp"
#include "diff/state_comparison.hpp"

namespace perfgate::diff {

/// The distinct values of a sample, ascending, with how often each occurs.
struct UniqueValues {
  std::vector<double> values;
  std::vector<std::size_t> counts;
  std::size_t total = 0;
};
UniqueValues unique_values(std::span<const double> samples);

/// Why support coverage uses the values it uses.
enum class SupportFilter {
  kDisabled,            ///< a rare_support threshold is 0
  kAllValuesUnique,     ///< every value occurs once: nothing is rarer than the rest
  kNoRareValues,        ///< every value occurs often enough
  kWouldRemoveAll,      ///< every value is rare
  kWouldRemoveTooMuch,  ///< the rare values hold more than max_removed_sample_fraction
  kFiltered,            ///< the rare values are left out
};

struct SupportSelection {
  std::vector<bool> kept;  ///< per unique value
  SupportFilter filter = SupportFilter::kDisabled;
};

/// A value is rare when its count is below max(2, ceil(sample_fraction * total)). Rare
/// values leave support coverage only when that removes some but not all values and at
/// most max_removed_sample_fraction of the samples; otherwise every value is kept.
SupportSelection support_selection(const std::vector<std::size_t>& counts, std::size_t total,
                                   const DiffThresholds& thresholds);

/// Coverage in both directions: a unique value is covered when the nearest unique value
/// of the other run is within log(1 + same.center_relative) of it on a log scale. Both
/// spans must be non-empty and hold positive finite values. O(n log n): sorting, then one
/// merge-like pass per direction.
CoverageFigures sample_coverage(std::span<const double> reference, std::span<const double> compare,
                                const DiffThresholds& thresholds);

/// Every figure reaches its threshold (bulk.sample_coverage, bulk.support_coverage).
bool coverage_supports_same(const CoverageFigures& figures, const DiffThresholds& thresholds);

/// How far the worst figure falls short of its threshold (0 when none does): the
/// severity of a coverage mismatch.
double coverage_shortfall(const CoverageFigures& figures, const DiffThresholds& thresholds);

}  // namespace perfgate::diff
