#include "diff/sample_coverage.hpp"

#include <algorithm>
#include <array>
#include <bit>
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
  std::vector<std::uint32_t> keys32, spare32;
  std::vector<std::uint32_t> buckets;  ///< the bucket sort's counts
  std::vector<double> padded;          ///< values between the sentinels 0 and +inf
  std::size_t total = 0;
  bool positive = false;  ///< every value is positive and finite
};

/// The bit pattern of a positive finite value as `Float` (double, or float for a widened
/// binary32), which orders such values as numbers, and back.
template <class Float, class Key>
Key key_of(double value) {
  const auto narrow = static_cast<Float>(value);
  Key key;
  std::memcpy(&key, &narrow, sizeof key);
  return key;
}
template <class Float, class Key>
double value_of(Key key) {
  Float narrow;
  std::memcpy(&narrow, &key, sizeof narrow);
  return narrow;
}

/// Sorts positive finite doubles by their bit patterns as `Float`: a least-significant-
/// digit radix sort on bytes, skipping the bytes all values share (the exponent of a
/// narrow distribution; the three low bytes of a widened float32, which the 32-bit keys
/// leave out altogether, halving what is counted and moved). Thousands of sorts of a few
/// hundred samples each made std::sort the largest cost of a diff.
template <class Float, class Key>
void radix_sort_positive(std::vector<double>& values, std::vector<Key>& keys,
                         std::vector<Key>& spare) {
  constexpr std::size_t kBytes = sizeof(Key);
  const std::size_t n = values.size();
  keys.resize(n);
  spare.resize(n);
  std::array<std::array<std::uint32_t, 256>, kBytes> histogram{};
  for (std::size_t i = 0; i < n; ++i) {
    const Key key = key_of<Float, Key>(values[i]);
    keys[i] = key;
    for (std::size_t byte = 0; byte < kBytes; ++byte) {
      ++histogram[byte][(key >> (8 * byte)) & 0xff];
    }
  }
  for (std::size_t byte = 0; byte < kBytes; ++byte) {
    auto& counts = histogram[byte];
    if (counts[(keys[0] >> (8 * byte)) & 0xff] == n) continue;  // every value has this byte
    std::uint32_t offset = 0;
    for (auto& count : counts) {
      const std::uint32_t here = count;
      count = offset;
      offset += here;
    }
    for (std::size_t i = 0; i < n; ++i) spare[counts[(keys[i] >> (8 * byte)) & 0xff]++] = keys[i];
    keys.swap(spare);
  }
  for (std::size_t i = 0; i < n; ++i) values[i] = value_of<Float, Key>(keys[i]);
}

/// The keys (bit patterns as `Float`) of positive finite `samples`, sorted, for the sample
/// sizes a state has (up to a few thousand): one counting pass spreads the keys over about
/// 2n buckets of their range, then an insertion sort fixes the order inside each bucket.
/// Timing samples spread over the buckets, so that is two passes and a few moves per
/// value, where the radix sort needs one pass per byte. A sample crowded into few buckets
/// (one far outlier stretches the range) would make the insertion sort quadratic: past a
/// budget of moves it stops, and the radix sort orders what it has reached. Returns
/// `keys` or `spare`, whichever holds the result.
template <class Float, class Key>
const std::vector<Key>& sorted_keys(std::span<const double> samples, std::vector<Key>& keys,
                                    std::vector<Key>& spare, std::vector<std::uint32_t>& buckets,
                                    std::vector<double>& scratch) {
  const std::size_t n = samples.size();
  const auto radix = [&](auto&& values) -> const std::vector<Key>& {
    scratch.assign(values.begin(), values.end());
    radix_sort_positive<Float>(scratch, keys, spare);
    return keys;  // the radix sort leaves the sorted keys there
  };
  constexpr std::size_t kLargest = 4096;
  if (n > kLargest) return radix(samples);
  keys.resize(n);
  Key low = std::numeric_limits<Key>::max();
  Key high = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Key key = key_of<Float, Key>(samples[i]);
    keys[i] = key;
    low = std::min(low, key);
    high = std::max(high, key);
  }
  if (low == high) return keys;  // one value n times: already in order
  const int bucket_bits = std::bit_width(n) + 1;
  const int range_bits = std::bit_width(static_cast<Key>(high - low));
  const int shift = std::max(0, range_bits - bucket_bits);
  buckets.assign((std::size_t{1} << bucket_bits) + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++buckets[((keys[i] - low) >> shift) + 1];
  for (std::size_t b = 1; b < buckets.size(); ++b) buckets[b] += buckets[b - 1];
  spare.resize(n);
  for (std::size_t i = 0; i < n; ++i) spare[buckets[(keys[i] - low) >> shift]++] = keys[i];
  std::size_t budget = 8 * n;
  for (std::size_t i = 1; i < n; ++i) {
    const Key key = spare[i];
    std::size_t j = i;
    for (; j > 0 && spare[j - 1] > key; --j) spare[j] = spare[j - 1];
    spare[j] = key;
    const std::size_t moved = i - j;
    if (moved > budget) {
      std::vector<double> values(n);
      for (std::size_t k = 0; k < n; ++k) values[k] = value_of<Float, Key>(spare[k]);
      return radix(values);
    }
    budget -= moved;
  }
  return spare;
}

/// The distinct values of `sorted` (keys or values, ascending), each turned into its
/// value by `value_of`, with their counts.
template <class Sorted, class ValueOf>
void count_distinct(const std::vector<Sorted>& sorted, ValueOf value_of, SideScratch& side) {
  const std::size_t n = sorted.size();
  side.values.resize(n);
  side.counts.resize(n);
  std::size_t unique = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (unique == 0 || sorted[i] != sorted[i - 1]) {
      side.values[unique] = value_of(sorted[i]);
      side.counts[unique++] = 0;
    }
    ++side.counts[unique - 1];
  }
  side.values.resize(unique);
  side.counts.resize(unique);
}

void unique_into(std::span<const double> samples, SideScratch& side) {
  const std::size_t n = samples.size();
  side.total = n;
  // One pass decides the sort: positive finite values sort by their bit patterns, as
  // float32 ones (nvbench's sample times) on half as many bytes.
  bool positive = true;
  bool float32 = true;
  for (const double value : samples) {
    positive &= value > 0 && value <= std::numeric_limits<double>::max();
    // Cast only what float holds: converting a double out of its range is undefined.
    float32 &= std::abs(value) <= std::numeric_limits<float>::max() &&
               static_cast<double>(static_cast<float>(value)) == value;
  }
  side.positive = positive;
  if (positive && n > 0 && n < (std::size_t{1} << 31)) {
    if (float32) {
      count_distinct(
          sorted_keys<float>(samples, side.keys32, side.spare32, side.buckets, side.sorted),
          value_of<float, std::uint32_t>, side);
    } else {
      count_distinct(sorted_keys<double>(samples, side.keys, side.spare, side.buckets, side.sorted),
                     value_of<double, std::uint64_t>, side);
    }
    return;
  }
  side.sorted.assign(samples.begin(), samples.end());
  std::sort(side.sorted.begin(), side.sorted.end());
  count_distinct(
      side.sorted, [](double value) { return value; }, side);
}

/// Whether `low` <= `high` (positive) are within `tolerance` on a log scale, exactly as
/// log(high) - log(low) <= tolerance decides it. Their ratio settles almost every pair
/// without a logarithm: log(high / low) is that difference up to a few units in the last
/// place, far inside the 1e-9 margin; only pairs inside the margin take the logarithms.
struct LogTolerance {
  double tolerance;
  double ratio_surely_within;
  double ratio_surely_beyond;
  double largest_low_for_products;  ///< above it, low × ratio may overflow to +inf

  explicit LogTolerance(double relative)
      : tolerance(std::log1p(relative)),
        ratio_surely_within((1 + relative) * (1 - 1e-9)),
        ratio_surely_beyond((1 + relative) * (1 + 1e-9)),
        largest_low_for_products(std::numeric_limits<double>::max() / ratio_surely_beyond) {}

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

/// covered_by() in both directions at once, for positive values: one walk through the
/// two ascending lists merged, where each value's nearest candidates on the other side are
/// the last value taken from it and the next one. Every step is a few conditional moves,
/// so the interleaving of the two lists costs no mispredicted branches; the sentinels 0
/// and +inf at both ends are never within any tolerance of a positive value.
void cover_each_other(const std::vector<double>& a, const std::vector<double>& b,
                      const LogTolerance& tolerance, std::vector<double>& pa,
                      std::vector<double>& pb, std::vector<char>& covered_a,
                      std::vector<char>& covered_b) {
  const auto pad = [](const std::vector<double>& values, std::vector<double>& padded) {
    padded.resize(values.size() + 2);
    padded.front() = 0.0;
    std::copy(values.begin(), values.end(), padded.begin() + 1);
    padded.back() = std::numeric_limits<double>::infinity();
  };
  pad(a, pa);
  pad(b, pb);
  covered_a.assign(a.size(), 0);
  covered_b.assign(b.size(), 0);
  // Products, not the ratio: a division's latency sat on every step's critical path. The
  // product's rounding (a unit in the last place) is far inside the 1e-9 margin; the
  // sentinel 0 gives 0 (never near). A product that overflows to +inf would call the
  // sentinel +inf near, so values that large take the logarithms.
  //
  // Without branches: where the two runs agree (the case that matters: SAME) their values
  // interleave at random, and a mispredicted branch per step, on which list the next value
  // comes from, cost more than the step. Each step writes a slot on both sides, the side
  // not taken into a spare slot at its end. Only a pair inside the 1e-9 margin (or values
  // near the largest double) branches, to the logarithms.
  covered_a.push_back(0);
  covered_b.push_back(0);
  const double* const values_a = pa.data();
  const double* const values_b = pb.data();
  char* const slots_a = covered_a.data();
  char* const slots_b = covered_b.data();
  const std::size_t spare_a = a.size();
  const std::size_t spare_b = b.size();
  const double surely_within = tolerance.ratio_surely_within;
  const double surely_beyond = tolerance.ratio_surely_beyond;
  const double largest_low = tolerance.largest_low_for_products;
  const auto bits = [](double value) { return std::bit_cast<std::uint64_t>(value); };
  std::size_t i = 1;  // next of a, in values_a
  std::size_t j = 1;  // next of b, in values_b
  for (std::size_t step = a.size() + b.size(); step > 0; --step) {
    const double next_a = values_a[i];
    const double next_b = values_b[j];
    const bool take_a = next_a <= next_b;  // ties: either side covers the other
    const std::size_t take_a_mask = std::size_t{0} - take_a;
    const double value = std::min(next_a, next_b);
    const double above = std::max(next_a, next_b);
    const double below = std::bit_cast<double>((bits(values_b[j - 1]) & take_a_mask) |
                                               (bits(values_a[i - 1]) & ~take_a_mask));
    const bool near_below = value <= below * surely_within;
    const bool near_above = above <= value * surely_within;
    char near = static_cast<char>(near_below | near_above);
    // below <= value, so value alone says whether a product may overflow.
    const bool unsure = (!near_below & (value < below * surely_beyond)) |
                        (!near_above & (above < value * surely_beyond)) | (value > largest_low);
    if (__builtin_expect(unsure, 0)) {
      near = static_cast<char>(tolerance.within(below, value) | tolerance.within(value, above));
    }
    slots_a[((i - 1) & take_a_mask) | (spare_a & ~take_a_mask)] = near;
    slots_b[(spare_b & take_a_mask) | ((j - 1) & ~take_a_mask)] = near;
    i += take_a;
    j += !take_a;
  }
  covered_a.pop_back();
  covered_b.pop_back();
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
  if (ref.positive && cmp.positive) {
    cover_each_other(ref.values, cmp.values, tolerance, ref.padded, cmp.padded, ref.covered,
                     cmp.covered);
  } else {
    covered_by(ref.values, cmp.values, tolerance, ref.covered);
    covered_by(cmp.values, ref.values, tolerance, cmp.covered);
  }
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
