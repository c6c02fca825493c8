#include "diff/sample_coverage.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace perfgate::diff {
namespace {

/// One side's distinct values and counts, in buffers a thread reuses from pair to pair:
/// a diff decides thousands of pairs, and allocating for each cost more than deciding.
struct SideScratch {
  std::vector<double> sorted;
  std::vector<double> values;
  std::vector<std::size_t> counts;
  std::vector<char> kept;
  std::vector<char> covered;
  std::vector<std::uint64_t> keys, spare;  ///< the radix sort's buffers
  std::size_t total = 0;
};

/// Sorts positive finite doubles by their bit patterns, which order them as numbers: a
/// least-significant-digit radix sort on bytes, skipping the bytes all values share (the
/// three low ones of a float32 sample widened to double, the exponent of a narrow
/// distribution). Thousands of sorts of a few hundred samples each made std::sort the
/// largest cost of a diff.
void radix_sort_positive(std::vector<double>& values, std::vector<std::uint64_t>& keys,
                         std::vector<std::uint64_t>& spare) {
  const std::size_t n = values.size();
  keys.resize(n);
  spare.resize(n);
  std::array<std::array<std::uint32_t, 256>, 8> histogram{};
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t key;
    std::memcpy(&key, &values[i], sizeof key);
    keys[i] = key;
    for (std::size_t byte = 0; byte < 8; ++byte) ++histogram[byte][(key >> (8 * byte)) & 0xff];
  }
  for (std::size_t byte = 0; byte < 8; ++byte) {
    auto& counts = histogram[byte];
    const std::uint32_t first = counts[(keys[0] >> (8 * byte)) & 0xff];
    if (first == n) continue;  // every value has this byte: nothing to order
    std::uint32_t offset = 0;
    for (auto& count : counts) {
      const std::uint32_t here = count;
      count = offset;
      offset += here;
    }
    for (std::size_t i = 0; i < n; ++i) spare[counts[(keys[i] >> (8 * byte)) & 0xff]++] = keys[i];
    keys.swap(spare);
  }
  for (std::size_t i = 0; i < n; ++i) std::memcpy(&values[i], &keys[i], sizeof keys[i]);
}

void unique_into(std::span<const double> samples, SideScratch& side) {
  side.sorted.assign(samples.begin(), samples.end());
  const bool positive = std::all_of(side.sorted.begin(), side.sorted.end(),
                                    [](double value) { return value > 0 && std::isfinite(value); });
  if (positive && !side.sorted.empty() && side.sorted.size() < (1u << 31)) {
    radix_sort_positive(side.sorted, side.keys, side.spare);
  } else {
    std::sort(side.sorted.begin(), side.sorted.end());
  }
  const std::size_t n = side.sorted.size();
  side.values.resize(n);
  side.counts.resize(n);
  side.total = n;
  std::size_t unique = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double value = side.sorted[i];
    if (unique == 0 || side.values[unique - 1] != value) {
      side.values[unique] = value;
      side.counts[unique++] = 0;
    }
    ++side.counts[unique - 1];
  }
  side.values.resize(unique);
  side.counts.resize(unique);
}

/// Whether `low` <= `high` (positive) are within `tolerance` on a log scale, exactly as
/// log(high) - log(low) <= tolerance decides it. Their ratio settles almost every pair
/// without a logarithm: log(high / low) is that difference up to a few units in the last
/// place, far inside the 1e-9 margin; only pairs inside the margin take the logarithms.
struct LogTolerance {
  double tolerance;
  double ratio_surely_within;
  double ratio_surely_beyond;

  explicit LogTolerance(double relative)
      : tolerance(std::log1p(relative)),
        ratio_surely_within((1 + relative) * (1 - 1e-9)),
        ratio_surely_beyond((1 + relative) * (1 + 1e-9)) {}

  bool within(double low, double high) const {
    const double ratio = high / low;
    if (ratio <= ratio_surely_within) return true;
    if (ratio >= ratio_surely_beyond) return false;
    return std::log(high) - std::log(low) <= tolerance;
  }
};

/// For each value of `from` (ascending), whether `to` (ascending) has a value within the
/// tolerance. One pass: the nearest candidates of a value are the last `to` below it and
/// the first at or above it, and both only move forward.
void covered_by(const std::vector<double>& from, const std::vector<double>& to,
                const LogTolerance& tolerance, std::vector<char>& covered) {
  covered.assign(from.size(), 0);
  std::size_t next = 0;  // first index of `to` with to[next] >= from[i]
  for (std::size_t i = 0; i < from.size(); ++i) {
    while (next < to.size() && to[next] < from[i]) ++next;
    covered[i] = (next < to.size() && tolerance.within(from[i], to[next])) ||
                 (next > 0 && tolerance.within(to[next - 1], from[i]));
  }
}

SupportFilter select_support(const std::vector<std::size_t>& counts, std::size_t total,
                             const DiffThresholds& thresholds, std::vector<char>& kept) {
  kept.assign(counts.size(), 1);
  if (counts.empty() || total == 0 || thresholds.rare_support_sample_fraction <= 0 ||
      thresholds.rare_support_max_removed_sample_fraction <= 0) {
    return SupportFilter::kDisabled;
  }
  if (std::all_of(counts.begin(), counts.end(), [](std::size_t count) { return count == 1; })) {
    return SupportFilter::kAllValuesUnique;
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
  if (rare == 0) return SupportFilter::kNoRareValues;
  if (rare == counts.size()) return SupportFilter::kWouldRemoveAll;
  if (static_cast<double>(removed) / static_cast<double>(total) >
      thresholds.rare_support_max_removed_sample_fraction) {
    return SupportFilter::kWouldRemoveTooMuch;
  }
  for (std::size_t i = 0; i < counts.size(); ++i) {
    kept[i] = static_cast<double>(counts[i]) >= rare_below;
  }
  return SupportFilter::kFiltered;
}

struct Coverage {
  double samples = 0;
  double support = 0;
};

Coverage coverage_of(SideScratch& side, const DiffThresholds& thresholds) {
  select_support(side.counts, side.total, thresholds, side.kept);
  std::size_t covered_samples = 0;
  std::size_t kept = 0;
  std::size_t kept_covered = 0;
  for (std::size_t i = 0; i < side.covered.size(); ++i) {
    if (side.covered[i]) covered_samples += side.counts[i];
    if (side.kept[i]) {
      ++kept;
      if (side.covered[i]) ++kept_covered;
    }
  }
  return {static_cast<double>(covered_samples) / static_cast<double>(side.total),
          static_cast<double>(kept_covered) / static_cast<double>(kept)};
}

}  // namespace

UniqueValues unique_values(std::span<const double> samples) {
  SideScratch side;
  unique_into(samples, side);
  return {std::move(side.values), std::move(side.counts), side.total};
}

SupportSelection support_selection(const std::vector<std::size_t>& counts, std::size_t total,
                                   const DiffThresholds& thresholds) {
  std::vector<char> kept;
  const SupportFilter filter = select_support(counts, total, thresholds, kept);
  return {std::vector<bool>(kept.begin(), kept.end()), filter};
}

CoverageFigures sample_coverage(std::span<const double> reference, std::span<const double> compare,
                                const DiffThresholds& thresholds) {
  thread_local SideScratch ref;
  thread_local SideScratch cmp;
  unique_into(reference, ref);
  unique_into(compare, cmp);
  const LogTolerance tolerance(thresholds.same_center_relative);
  covered_by(ref.values, cmp.values, tolerance, ref.covered);
  covered_by(cmp.values, ref.values, tolerance, cmp.covered);
  const Coverage ref_in_cmp = coverage_of(ref, thresholds);
  const Coverage cmp_in_ref = coverage_of(cmp, thresholds);
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
