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
  std::vector<std::uint64_t> keys, spare;  ///< the sorts' buffers
  std::vector<std::uint32_t> keys32, spare32;
  std::vector<std::uint32_t> buckets;  ///< the bucket sort's counts
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

/// Sorts `keys` in place: a least-significant-digit radix sort on bytes, skipping the
/// bytes all keys share (the exponent of a narrow distribution; the low bytes of a
/// widened float32, which 32-bit keys leave out altogether). For samples past a few
/// thousand, where the bucket sort's counts outgrow the caches.
template <class Key>
void radix_sort_keys(std::vector<Key>& keys, std::vector<Key>& spare) {
  constexpr std::size_t kBytes = sizeof(Key);
  const std::size_t n = keys.size();
  spare.resize(n);
  std::array<std::array<std::uint32_t, 256>, kBytes> histogram{};
  for (const Key key : keys) {
    for (std::size_t byte = 0; byte < kBytes; ++byte) {
      ++histogram[byte][(key >> (8 * byte)) & 0xff];
    }
  }
  for (std::size_t byte = 0; byte < kBytes; ++byte) {
    auto& counts = histogram[byte];
    if (counts[(keys[0] >> (8 * byte)) & 0xff] == n) continue;  // every key has this byte
    std::uint32_t offset = 0;
    for (auto& count : counts) {
      const std::uint32_t here = count;
      count = offset;
      offset += here;
    }
    for (std::size_t i = 0; i < n; ++i) spare[counts[(keys[i] >> (8 * byte)) & 0xff]++] = keys[i];
    keys.swap(spare);
  }
}

/// Sorts `keys` (any unsigned integers, from `low` to `high`). For the counts a state's
/// samples have (up to a few thousand), one counting pass spreads them over about 2n
/// buckets of their range, then an insertion sort fixes the order inside each bucket.
/// Samples spread over the buckets, so that is two passes and a few moves per key, where
/// the radix sort needs one pass per byte; past a few thousand keys the radix sort takes
/// over. Keys crowded into few buckets (one far outlier stretches the range) would make
/// the insertion sort quadratic: past a budget of moves std::sort takes over. Thousands
/// of sorts of a few hundred samples each made std::sort the largest cost of a diff.
/// Returns `keys` or `spare`, whichever holds the result.
template <class Key>
std::vector<Key>& bucket_sorted(std::vector<Key>& keys, std::vector<Key>& spare,
                                std::vector<std::uint32_t>& buckets, Key low, Key high) {
  const std::size_t n = keys.size();
  if (low == high) return keys;
  constexpr std::size_t kLargest = 4096;
  if (n > kLargest) {
    radix_sort_keys(keys, spare);
    return keys;
  }
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
      std::sort(spare.begin(), spare.end());
      break;
    }
    budget -= moved;
  }
  return spare;
}

/// The keys (bit patterns as `Float`) of positive finite `samples`, sorted. Returns
/// `keys` or `spare`, whichever holds the result.
template <class Float, class Key>
const std::vector<Key>& sorted_keys(std::span<const double> samples, std::vector<Key>& keys,
                                    std::vector<Key>& spare, std::vector<std::uint32_t>& buckets) {
  const std::size_t n = samples.size();
  keys.resize(n);
  Key low = std::numeric_limits<Key>::max();
  Key high = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Key key = key_of<Float, Key>(samples[i]);
    keys[i] = key;
    low = std::min(low, key);
    high = std::max(high, key);
  }
  return bucket_sorted(keys, spare, buckets, low, high);
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
      count_distinct(sorted_keys<float>(samples, side.keys32, side.spare32, side.buckets),
                     value_of<float, std::uint32_t>, side);
    } else {
      count_distinct(sorted_keys<double>(samples, side.keys, side.spare, side.buckets),
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

/// One side's part of a joint walk: what its samples and distinct values add up to.
struct SideTally {
  std::size_t total = 0;             ///< samples
  std::size_t covered_samples = 0;   ///< samples whose value the other side covers
  std::size_t distinct = 0;          ///< distinct values
  std::size_t distinct_covered = 0;  ///< ... of them covered
  std::size_t rare = 0;              ///< distinct values seen fewer than rare_below times
  std::size_t rare_covered = 0;      ///< ... of them covered
  std::size_t rare_samples = 0;      ///< samples of the rare values
  /// max(2, ceil(rare_support_sample_fraction × total)), at most total + 1 (every count is
  /// below that already)
  std::size_t rare_below = 0;
};

/// What a joint walk reuses from pair to pair, per thread.
template <class Key>
struct JointScratch {
  std::vector<Key> keys, spare;
  std::vector<std::uint32_t> buckets;
  std::vector<std::size_t> last_slot;  ///< per distinct value: its last slot in the sort
  std::vector<double> below;  ///< per distinct value: the other side's nearest value under it
  std::vector<char> near;     ///< per distinct value: whether the other side covers it
};

/// Coverage of two positive finite samples in one sort of both. Each value's key (its bit
/// pattern as `Float`, which orders positive values as numbers) is shifted left and
/// tagged with its side in the low bit, so one sorted list holds both sides, equal values
/// of the reference just before those of the compare side. Runs of equal tagged keys are
/// one side's distinct value and its count. A value's nearest candidates on the other
/// side are the last other-side value before it and the first after it: one pass forward
/// finds the first, one pass back the second, and the tallies per side follow. Two sorts
/// of a few hundred values and a merge of the two were most of a diff's CPU.
template <class Float, class Key>
void joint_walk(std::span<const double> reference, std::span<const double> compare,
                const LogTolerance& tolerance, JointScratch<Key>& scratch,
                std::array<SideTally, 2>& tally) {
  const std::size_t n = reference.size() + compare.size();
  auto& keys = scratch.keys;
  keys.resize(n);
  Key low = std::numeric_limits<Key>::max();
  Key high = 0;
  std::size_t at = 0;
  for (const auto& [samples, side] : {std::pair{reference, Key{0}}, std::pair{compare, Key{1}}}) {
    for (const double value : samples) {
      const Key key = static_cast<Key>(key_of<Float, Key>(value) << 1) | side;
      keys[at++] = key;
      low = std::min(low, key);
      high = std::max(high, key);
    }
  }
  std::vector<Key>& sorted = bucket_sorted(keys, scratch.spare, scratch.buckets, low, high);

  // Distinct values, in place: slot i's key moves to the index of its distinct value,
  // and the last slot of each is noted, which gives the counts. Every step writes, none
  // branches: quantized timings repeat a value here and there, and a branch on whether
  // this one repeats would mispredict.
  auto& last_slot = scratch.last_slot;
  last_slot.resize(n);
  std::size_t distinct = 0;      // distinct values so far
  Key previous = sorted[0] ^ 1;  // unlike the first key
  for (std::size_t i = 0; i < n; ++i) {
    const Key key = sorted[i];
    distinct += key != previous;
    sorted[distinct - 1] = key;
    last_slot[distinct - 1] = i;
    previous = key;
  }

  // Forward: each value's nearest other-side value below it (0, never near, at first).
  // Selects by masks on the bit patterns: the compiler turns a ternary on doubles into a
  // branch, and the sides interleave at random.
  const auto bits = [](double value) { return std::bit_cast<std::uint64_t>(value); };
  const auto pick = [](std::uint64_t mask, std::uint64_t if_set, std::uint64_t if_clear) {
    return (if_set & mask) | (if_clear & ~mask);
  };
  const auto value_bits = [&](std::size_t i) { return bits(value_of<Float, Key>(sorted[i] >> 1)); };
  auto& below = scratch.below;
  below.resize(distinct);
  std::uint64_t last_ref = bits(0.0);
  std::uint64_t last_cmp = bits(0.0);
  for (std::size_t i = 0; i < distinct; ++i) {
    const std::uint64_t compare_side = std::uint64_t{0} - (sorted[i] & 1);  // all ones or 0
    const std::uint64_t value = value_bits(i);
    below[i] = std::bit_cast<double>(pick(compare_side, last_ref, last_cmp));
    last_ref = pick(compare_side, last_ref, value);
    last_cmp = pick(compare_side, value, last_cmp);
  }

  // Back: the nearest other-side value above (+inf, never near, at first), and whether
  // either is near. Products, not ratios (a division's latency on every step); their
  // rounding is far inside the 1e-9 margin. Pairs inside the margin, and values so large
  // that a product may overflow, take the logarithms.
  auto& near = scratch.near;
  near.resize(distinct);
  const double surely_within = tolerance.ratio_surely_within;
  const double surely_beyond = tolerance.ratio_surely_beyond;
  const double largest_low = tolerance.largest_low_for_products;
  std::uint64_t next_ref = bits(std::numeric_limits<double>::infinity());
  std::uint64_t next_cmp = next_ref;
  for (std::size_t i = distinct; i-- > 0;) {
    const std::uint64_t compare_side = std::uint64_t{0} - (sorted[i] & 1);
    const std::uint64_t value_pattern = value_bits(i);
    const double value = std::bit_cast<double>(value_pattern);
    const double above = std::bit_cast<double>(pick(compare_side, next_ref, next_cmp));
    const double under = below[i];
    next_ref = pick(compare_side, next_ref, value_pattern);
    next_cmp = pick(compare_side, value_pattern, next_cmp);
    const bool near_below = value <= under * surely_within;
    const bool near_above = above <= value * surely_within;
    bool is_near = near_below | near_above;
    const bool unsure = (!near_below & (value < under * surely_beyond)) |
                        (!near_above & (above < value * surely_beyond)) | (value > largest_low);
    if (__builtin_expect(unsure, 0)) {
      is_near = tolerance.within(under, value) | tolerance.within(value, above);
    }
    near[i] = static_cast<char>(is_near);
  }

  // The tallies, summed over both sides and over the compare side (the reference's are
  // the difference). Without repeated values every sample is a distinct value of its own
  // and the rare-value filter never applies: only the covered ones are counted.
  std::size_t covered = 0;
  std::size_t covered_compare = 0;
  std::size_t compare_distinct = 0;
  for (std::size_t i = 0; i < distinct; ++i) {
    const auto is_near = static_cast<std::size_t>(near[i]);
    const std::size_t compare_bit = sorted[i] & 1;
    covered += is_near;
    covered_compare += is_near & compare_bit;
    compare_distinct += compare_bit;
  }
  tally[0].distinct = distinct - compare_distinct;
  tally[1].distinct = compare_distinct;
  tally[0].distinct_covered = covered - covered_compare;
  tally[1].distinct_covered = covered_compare;
  if (distinct == n) {
    for (SideTally& side : tally) side.covered_samples = side.distinct_covered;
    return;
  }
  for (std::size_t i = 0; i < distinct; ++i) {
    const std::size_t count = last_slot[i] - (i == 0 ? std::size_t{0} - 1 : last_slot[i - 1]);
    SideTally& side = tally[sorted[i] & 1];
    const auto is_near = static_cast<std::size_t>(near[i]);
    side.covered_samples += is_near * count;
    const std::size_t rare = count < side.rare_below ? 1 : 0;
    side.rare += rare;
    side.rare_covered += rare & is_near;
    side.rare_samples += rare * count;
  }
}

/// Sample and support coverage of one side from its tallies, with the rare-value filter
/// of select_support.
std::pair<double, double> tallied_coverage(const SideTally& side, const DiffThresholds& t) {
  std::size_t kept = side.distinct;
  std::size_t kept_covered = side.distinct_covered;
  const bool filter_on = t.rare_support_sample_fraction > 0 &&
                         t.rare_support_max_removed_sample_fraction > 0 &&
                         side.distinct != side.total;  // not every value unique
  if (filter_on && side.rare != 0 && side.rare != side.distinct &&
      static_cast<double>(side.rare_samples) / static_cast<double>(side.total) <=
          t.rare_support_max_removed_sample_fraction) {
    kept -= side.rare;
    kept_covered -= side.rare_covered;
  }
  return {static_cast<double>(side.covered_samples) / static_cast<double>(side.total),
          static_cast<double>(kept_covered) / static_cast<double>(kept)};
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
  const LogTolerance tolerance(thresholds.same_center_relative);
  // One pass decides the walk: positive finite values sort by their bit patterns, as
  // float32 ones (nvbench's sample times) on half as many bytes.
  bool positive = true;
  bool float32 = true;
  for (const auto samples : {reference, compare}) {
    for (const double value : samples) {
      positive &= value > 0 && value <= std::numeric_limits<double>::max();
      // Cast only what float holds: converting a double out of its range is undefined.
      float32 &= value <= std::numeric_limits<float>::max() &&
                 static_cast<double>(static_cast<float>(value)) == value;
    }
  }
  const std::size_t total = reference.size() + compare.size();
  if (positive && !reference.empty() && !compare.empty() && total < (std::size_t{1} << 31)) {
    std::array<SideTally, 2> tally;
    for (const auto& [side, samples] : {std::pair{0, reference}, std::pair{1, compare}}) {
      tally[side].total = samples.size();
      const double rare_below = std::max(2.0, std::ceil(thresholds.rare_support_sample_fraction *
                                                        static_cast<double>(samples.size())));
      // Every count is at most the total: a larger bound says the same and fits size_t.
      tally[side].rare_below = rare_below > static_cast<double>(samples.size())
                                   ? samples.size() + 1
                                   : static_cast<std::size_t>(rare_below);
    }
    if (float32) {
      thread_local JointScratch<std::uint32_t> scratch;
      joint_walk<float>(reference, compare, tolerance, scratch, tally);
    } else {
      thread_local JointScratch<std::uint64_t> scratch;
      joint_walk<double>(reference, compare, tolerance, scratch, tally);
    }
    const auto [sample_ref, support_ref] = tallied_coverage(tally[0], thresholds);
    const auto [sample_cmp, support_cmp] = tallied_coverage(tally[1], thresholds);
    return {sample_ref, sample_cmp, support_ref, support_cmp};
  }
  // An empty side, or zero, negative or non-finite values (the decision tree passes
  // none of these; the function still answers, NaN for an empty side): distinct values by
  // std::sort, then one pass per direction.
  thread_local SideScratch ref;
  thread_local SideScratch cmp;
  unique_into(reference, ref);
  unique_into(compare, cmp);
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
