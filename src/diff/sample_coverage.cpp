#include "diff/sample_coverage.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace perfgate::diff {
namespace {

/// For each value of `from` (ascending logs), whether `to` (ascending logs) has a value
/// within `tolerance`. One pass: the nearest candidates of a value are the last `to`
/// below it and the first at or above it, and both only move forward.
std::vector<bool> covered_by(const std::vector<double>& from, const std::vector<double>& to,
                             double tolerance) {
  std::vector<bool> covered(from.size(), false);
  std::size_t next = 0;  // first index of `to` with to[next] >= from[i]
  for (std::size_t i = 0; i < from.size(); ++i) {
    while (next < to.size() && to[next] < from[i]) ++next;
    double nearest = std::numeric_limits<double>::infinity();
    if (next < to.size()) nearest = to[next] - from[i];
    if (next > 0) nearest = std::min(nearest, from[i] - to[next - 1]);
    covered[i] = nearest <= tolerance;
  }
  return covered;
}

std::vector<double> logs(const std::vector<double>& values) {
  std::vector<double> result(values.size());
  std::transform(values.begin(), values.end(), result.begin(),
                 [](double value) { return std::log(value); });
  return result;
}

struct Coverage {
  double samples = 0;
  double support = 0;
};

Coverage coverage_of(const UniqueValues& side, const std::vector<bool>& covered,
                     const DiffThresholds& thresholds) {
  const SupportSelection selection = support_selection(side.counts, side.total, thresholds);
  std::size_t covered_samples = 0;
  std::size_t kept = 0;
  std::size_t kept_covered = 0;
  for (std::size_t i = 0; i < covered.size(); ++i) {
    if (covered[i]) covered_samples += side.counts[i];
    if (selection.kept[i]) {
      ++kept;
      if (covered[i]) ++kept_covered;
    }
  }
  return {static_cast<double>(covered_samples) / static_cast<double>(side.total),
          static_cast<double>(kept_covered) / static_cast<double>(kept)};
}

}  // namespace

UniqueValues unique_values(std::span<const double> samples) {
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  UniqueValues unique;
  unique.total = sorted.size();
  for (const double value : sorted) {
    if (unique.values.empty() || unique.values.back() != value) {
      unique.values.push_back(value);
      unique.counts.push_back(0);
    }
    ++unique.counts.back();
  }
  return unique;
}

SupportSelection support_selection(const std::vector<std::size_t>& counts, std::size_t total,
                                   const DiffThresholds& thresholds) {
  SupportSelection selection{std::vector<bool>(counts.size(), true), SupportFilter::kDisabled};
  if (counts.empty() || total == 0 || thresholds.rare_support_sample_fraction <= 0 ||
      thresholds.rare_support_max_removed_sample_fraction <= 0) {
    return selection;
  }
  if (std::all_of(counts.begin(), counts.end(), [](std::size_t count) { return count == 1; })) {
    selection.filter = SupportFilter::kAllValuesUnique;
    return selection;
  }
  const double rare_below = std::max(
      2.0, std::ceil(thresholds.rare_support_sample_fraction * static_cast<double>(total)));
  std::size_t removed = 0;
  std::size_t rare = 0;
  for (const std::size_t count : counts) {
    if (static_cast<double>(count) < rare_below) {
      removed += count;
      ++rare;
    }
  }
  if (rare == 0) {
    selection.filter = SupportFilter::kNoRareValues;
    return selection;
  }
  if (rare == counts.size()) {
    selection.filter = SupportFilter::kWouldRemoveAll;
    return selection;
  }
  if (static_cast<double>(removed) / static_cast<double>(total) >
      thresholds.rare_support_max_removed_sample_fraction) {
    selection.filter = SupportFilter::kWouldRemoveTooMuch;
    return selection;
  }
  for (std::size_t i = 0; i < counts.size(); ++i) {
    selection.kept[i] = static_cast<double>(counts[i]) >= rare_below;
  }
  selection.filter = SupportFilter::kFiltered;
  return selection;
}

CoverageFigures sample_coverage(std::span<const double> reference, std::span<const double> compare,
                                const DiffThresholds& thresholds) {
  const UniqueValues ref = unique_values(reference);
  const UniqueValues cmp = unique_values(compare);
  const std::vector<double> ref_logs = logs(ref.values);
  const std::vector<double> cmp_logs = logs(cmp.values);
  const double tolerance = std::log1p(thresholds.same_center_relative);
  const Coverage ref_in_cmp =
      coverage_of(ref, covered_by(ref_logs, cmp_logs, tolerance), thresholds);
  const Coverage cmp_in_ref =
      coverage_of(cmp, covered_by(cmp_logs, ref_logs, tolerance), thresholds);
  return {ref_in_cmp.samples, cmp_in_ref.samples, ref_in_cmp.support, cmp_in_ref.support};
}

bool coverage_supports_same(const CoverageFigures& figures, const DiffThresholds& thresholds) {
  return figures.sample_ref_in_cmp >= thresholds.bulk_sample_coverage &&
         figures.sample_cmp_in_ref >= thresholds.bulk_sample_coverage &&
         figures.support_ref_in_cmp >= thresholds.bulk_support_coverage &&
         figures.support_cmp_in_ref >= thresholds.bulk_support_coverage;
}

double coverage_shortfall(const CoverageFigures& figures, const DiffThresholds& thresholds) {
  return std::max({thresholds.bulk_sample_coverage - figures.sample_ref_in_cmp,
                   thresholds.bulk_sample_coverage - figures.sample_cmp_in_ref,
                   thresholds.bulk_support_coverage - figures.support_ref_in_cmp,
                   thresholds.bulk_support_coverage - figures.support_cmp_in_ref, 0.0});
}

}  // namespace perfgate::diff
