// Coverage figures against values worked out by hand. The tolerance of the default
// thresholds is log(1.005) = 0.004988 on a log scale: values within about 0.5% of each
// other cover each other.
#include "diff/sample_coverage.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "diff_fixtures.hpp"

namespace perfgate::diff {
namespace PERFGATE_TEST_FILE {

using testing::default_thresholds;

void expect_figures(const CoverageFigures& f, double sample_ref, double sample_cmp,
                    double support_ref, double support_cmp) {
  EXPECT_DOUBLE_EQ(f.sample_ref_in_cmp, sample_ref);
  EXPECT_DOUBLE_EQ(f.sample_cmp_in_ref, sample_cmp);
  EXPECT_DOUBLE_EQ(f.support_ref_in_cmp, support_ref);
  EXPECT_DOUBLE_EQ(f.support_cmp_in_ref, support_cmp);
}

TEST(UniqueValues, CountsEachDistinctValueInAscendingOrder) {
  const UniqueValues unique = unique_values(std::vector<double>{3, 1, 2, 1, 3, 3});
  EXPECT_EQ(unique.values, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(unique.counts, (std::vector<std::size_t>{2, 1, 3}));
  EXPECT_EQ(unique.total, 6u);
}

TEST(UniqueValues, OrdersWidenedFloat32AndFullDoublesAsStdSortDoes) {
  // The radix sort skips bytes all values share: float32 samples share their low three.
  std::vector<double> samples;
  std::uint64_t state = 12345;
  for (int i = 0; i < 500; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const double jitter = static_cast<double>(state >> 11) / 9007199254740992.0;
    samples.push_back(i % 2 ? static_cast<float>(1e-3 * (1 + jitter)) : 1.4e9 * (0.5 + jitter));
  }
  samples.push_back(samples[7]);
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  const UniqueValues unique = unique_values(samples);
  EXPECT_EQ(unique.values, sorted);
  EXPECT_EQ(unique.total, 501u);
  EXPECT_EQ(unique.counts[static_cast<std::size_t>(
                std::find(sorted.begin(), sorted.end(), samples[7]) - sorted.begin())],
            2u);
}

TEST(UniqueValues, SortsValuesNoSortKeyCanHoldAsNumbers) {
  // Negative, huge and zero values take std::sort: no bit-pattern key orders them, and
  // none may be converted to float32 on the way (out of its range that is undefined).
  const UniqueValues unique = unique_values(std::vector<double>{-1e300, 1.0, 0.0, -1e300, 1e300});
  EXPECT_EQ(unique.values, (std::vector<double>{-1e300, 0.0, 1.0, 1e300}));
  EXPECT_EQ(unique.counts, (std::vector<std::size_t>{2, 1, 1, 1}));
}

TEST(UniqueValues, OrdersASampleCrowdedBesideOneFarOutlier) {
  // The outlier stretches the bucket sort's range, so the other 1,000 values land in one
  // bucket in descending order: the insertion sort runs out of its budget of moves and
  // std::sort orders them instead. Doubles and float32 values alike.
  for (const bool float32 : {false, true}) {
    std::vector<double> samples;
    for (int i = 1000; i > 0; --i) {
      const double value = 1.0 + i * 1e-6;
      samples.push_back(float32 ? static_cast<float>(value) : value);
    }
    samples.push_back(1e6);
    samples.push_back(samples[10]);
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    const UniqueValues unique = unique_values(samples);
    EXPECT_EQ(unique.values, sorted) << (float32 ? "float32" : "double");
    EXPECT_EQ(unique.total, 1002u);
  }
}

TEST(SampleCoverage, ValuesNearTheLargestDoubleCoverEachOther) {
  // 1.79e308 × 1.005 overflows to +inf; the values are 0.39% apart, inside log(1.005).
  // 1.797e308 and 1.7e308 are 5.5% apart: the walk's +inf sentinel above 1.797e308 must
  // not count as near it either.
  expect_figures(sample_coverage(std::vector<double>{1.79e308}, std::vector<double>{1.797e308},
                                 default_thresholds()),
                 1, 1, 1, 1);
  expect_figures(sample_coverage(std::vector<double>{1.7e308}, std::vector<double>{1.797e308},
                                 default_thresholds()),
                 0, 0, 0, 0);
}

TEST(SupportSelection, KeepsEveryValueWhenTheFilterIsDisabled) {
  DiffThresholds t = default_thresholds();
  t.rare_support_sample_fraction = 0;
  const SupportSelection s = support_selection({1, 50, 49}, 100, t);
  EXPECT_EQ(s.filter, SupportFilter::kDisabled);
  EXPECT_EQ(s.kept, (std::vector<bool>{true, true, true}));
}

TEST(SupportSelection, KeepsEveryValueWhenAllValuesAreUnique) {
  const SupportSelection s = support_selection({1, 1, 1}, 3, default_thresholds());
  EXPECT_EQ(s.filter, SupportFilter::kAllValuesUnique);
  EXPECT_EQ(s.kept, (std::vector<bool>{true, true, true}));
}

TEST(SupportSelection, KeepsEveryValueWhenNoneIsRare) {
  // Rare means a count below max(2, ceil(0.001 × 5)) = 2.
  const SupportSelection s = support_selection({2, 3}, 5, default_thresholds());
  EXPECT_EQ(s.filter, SupportFilter::kNoRareValues);
  EXPECT_EQ(s.kept, (std::vector<bool>{true, true}));
}

TEST(SupportSelection, KeepsEveryValueWhenAllWouldBeRemoved) {
  DiffThresholds t = default_thresholds();
  t.rare_support_sample_fraction = 0.9;  // rare below ceil(0.9 × 4) = 4
  const SupportSelection s = support_selection({2, 2}, 4, t);
  EXPECT_EQ(s.filter, SupportFilter::kWouldRemoveAll);
  EXPECT_EQ(s.kept, (std::vector<bool>{true, true}));
}

TEST(SupportSelection, KeepsEveryValueWhenRareValuesHoldTooMuchOfTheSample) {
  // The two single values hold 2% of the samples; at most 1% may go.
  const SupportSelection s = support_selection({1, 1, 98}, 100, default_thresholds());
  EXPECT_EQ(s.filter, SupportFilter::kWouldRemoveTooMuch);
  EXPECT_EQ(s.kept, (std::vector<bool>{true, true, true}));
}

TEST(SupportSelection, LeavesOutRareValuesThatHoldLittleOfTheSample) {
  // One single value out of 100 samples: exactly the 1% allowed.
  const SupportSelection s = support_selection({50, 1, 49}, 100, default_thresholds());
  EXPECT_EQ(s.filter, SupportFilter::kFiltered);
  EXPECT_EQ(s.kept, (std::vector<bool>{true, false, true}));
}

TEST(SupportSelection, RaisesTheRareCountWithTheSampleSize) {
  // ceil(0.001 × 5000) = 5: counts of 3 and 4 are rare; they hold 0.14% of the samples.
  const SupportSelection s = support_selection({3, 4, 4993}, 5000, default_thresholds());
  EXPECT_EQ(s.filter, SupportFilter::kFiltered);
  EXPECT_EQ(s.kept, (std::vector<bool>{false, false, true}));
}

TEST(SampleCoverage, IsCompleteForIdenticalSamples) {
  const std::vector<double> samples = {1.0, 1.1, 1.2, 1.2};
  expect_figures(sample_coverage(samples, samples, default_thresholds()), 1, 1, 1, 1);
}

TEST(SampleCoverage, WeighsSamplesByCountAndSupportByDistinctValue) {
  // Reference 1.0 (×3) has 1.004 within 0.4%; 2.0 has nothing near. Compare 1.004 is
  // covered by 1.0; 3.0 is not. The reference's single 2.0 is rare but holds 25% of its
  // samples, more than the 1% the filter may drop, so support keeps it.
  const std::vector<double> ref = {1.0, 1.0, 1.0, 2.0};
  const std::vector<double> cmp = {1.004, 3.0};
  expect_figures(sample_coverage(ref, cmp, default_thresholds()), 0.75, 0.5, 0.5, 0.5);
}

TEST(SampleCoverage, RareSupportFilterChangesSupportCoverageOnly) {
  DiffThresholds t = default_thresholds();
  t.rare_support_max_removed_sample_fraction = 0.3;  // now the 25% may go
  const std::vector<double> ref = {1.0, 1.0, 1.0, 2.0};
  const std::vector<double> cmp = {1.004, 3.0};
  expect_figures(sample_coverage(ref, cmp, t), 0.75, 0.5, 1.0, 0.5);
}

TEST(SampleCoverage, FindsTheNearestNeighbourOnEitherSide) {
  // 1.0 is 0.40% above 0.996 and 9.5% below 1.1; 1.1 is 9.5% above 1.0.
  const std::vector<double> ref = {1.0};
  const std::vector<double> cmp = {0.996, 1.1};
  expect_figures(sample_coverage(ref, cmp, default_thresholds()), 1, 0.5, 1, 0.5);
}

TEST(SampleCoverage, MeasuresDistanceOnALogScale) {
  // 1.0 and 1.0049 are 0.4888% apart on a log scale, inside log(1.005); 1.0 and 1.0051
  // are 0.5087% apart, outside it.
  expect_figures(
      sample_coverage(std::vector<double>{1.0}, std::vector<double>{1.0049}, default_thresholds()),
      1, 1, 1, 1);
  expect_figures(
      sample_coverage(std::vector<double>{1.0}, std::vector<double>{1.0051}, default_thresholds()),
      0, 0, 0, 0);
}

/// The coverage figures by their definition, with nothing clever: every distinct value
/// against every distinct value of the other side.
CoverageFigures brute_force_coverage(const std::vector<double>& ref, const std::vector<double>& cmp,
                                     const DiffThresholds& t) {
  const double tolerance = std::log1p(t.same_center_relative);
  const auto side = [&](const std::vector<double>& from, const std::vector<double>& to) {
    const UniqueValues unique = unique_values(from);
    const UniqueValues other = unique_values(to);
    const SupportSelection support = support_selection(unique.counts, unique.total, t);
    std::size_t covered_samples = 0, kept = 0, kept_covered = 0;
    for (std::size_t i = 0; i < unique.values.size(); ++i) {
      bool covered = false;
      for (const double candidate : other.values) {
        const double low = std::min(candidate, unique.values[i]);
        const double high = std::max(candidate, unique.values[i]);
        covered = covered || std::log(high) - std::log(low) <= tolerance;
      }
      if (covered) covered_samples += unique.counts[i];
      if (support.kept[i]) {
        ++kept;
        kept_covered += covered ? 1 : 0;
      }
    }
    return std::pair{static_cast<double>(covered_samples) / static_cast<double>(unique.total),
                     static_cast<double>(kept_covered) / static_cast<double>(kept)};
  };
  const auto [sample_ref, support_ref] = side(ref, cmp);
  const auto [sample_cmp, support_cmp] = side(cmp, ref);
  return {sample_ref, sample_cmp, support_ref, support_cmp};
}

/// Uniform [0, 1) from a fixed seed: the same samples on every run.
class Uniform {
 public:
  explicit Uniform(std::uint64_t seed) : state_(seed) {}
  double operator()() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state_ >> 11) / 9007199254740992.0;
  }

 private:
  std::uint64_t state_;
};

/// sample_coverage gives exactly the brute-force figures for this pair.
void expect_brute_force_figures(const std::vector<double>& ref, const std::vector<double>& cmp,
                                const DiffThresholds& t, int trial) {
  const CoverageFigures fast = sample_coverage(ref, cmp, t);
  const CoverageFigures slow = brute_force_coverage(ref, cmp, t);
  ASSERT_EQ(fast.sample_ref_in_cmp, slow.sample_ref_in_cmp) << "trial " << trial;
  ASSERT_EQ(fast.sample_cmp_in_ref, slow.sample_cmp_in_ref) << "trial " << trial;
  ASSERT_EQ(fast.support_ref_in_cmp, slow.support_ref_in_cmp) << "trial " << trial;
  ASSERT_EQ(fast.support_cmp_in_ref, slow.support_cmp_in_ref) << "trial " << trial;
}

TEST(SampleCoverage, AgreesWithEveryPairCheckedOneByOne) {
  // Random samples of float32 times (the sort on 32-bit keys), of full doubles (cycles:
  // times × frequencies) and of few distinct values (ties and repeats), side by side
  // with centers 0 to 2% apart, so that the merged walk meets every interleaving.
  Uniform next(987654321);
  const DiffThresholds t = default_thresholds();
  for (int trial = 0; trial < 300; ++trial) {
    const int kind = trial % 3;
    const double shift = 1.0 + 0.02 * next();
    const auto sample = [&](double center, std::size_t n) {
      std::vector<double> values;
      for (std::size_t i = 0; i < n; ++i) {
        double value = center * (1.0 + 0.03 * (next() - 0.5));
        if (kind == 0) value = static_cast<float>(value);
        if (kind == 2) value = center * (1.0 + 0.002 * std::floor(next() * 8));
        values.push_back(value);
      }
      return values;
    };
    const std::vector<double> ref = sample(1e-3, 1 + trial % 400);
    const std::vector<double> cmp = sample(1e-3 * shift, 1 + (trial * 7) % 400);
    ASSERT_NO_FATAL_FAILURE(expect_brute_force_figures(ref, cmp, t, trial));
  }
}

TEST(SampleCoverage, AgreesWithEveryPairCheckedOneByOneWhereRareValuesAreLeftOut) {
  // Repeated values with a few singletons (the rare-value filter leaves them out of
  // support coverage), and sides of different kinds (float32 against full doubles), so
  // that the joint sort meets equal values on both sides and the filter on each.
  Uniform next(123456789);
  const DiffThresholds t = default_thresholds();
  std::size_t filtered = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const double shift = 1.0 + 0.01 * next();
    const auto sample = [&](double center, std::size_t n, bool float32) {
      std::vector<double> values;
      double twice = 0;
      for (std::size_t i = 0; i < n; ++i) {
        // Most values from a few levels; in every 200, one anywhere (rare, and few enough
        // to leave out) and one twice (just not rare).
        const auto anywhere = [&] { return center * (1.0 + 0.03 * (next() - 0.5)); };
        double value = center * (1.0 + 0.004 * std::floor(next() * 6));
        if (i % 200 == 7) value = anywhere();
        if (i % 200 == 11) twice = value = anywhere();
        if (i % 200 == 12) value = twice;
        if (float32) value = static_cast<float>(value);
        values.push_back(value);
      }
      return values;
    };
    const std::vector<double> ref = sample(1e-3, 200 + trial % 300, trial % 2 == 0);
    const std::vector<double> cmp = sample(1e-3 * shift, 200 + (trial * 7) % 300, trial % 3 == 0);
    const UniqueValues unique = unique_values(ref);
    filtered +=
        support_selection(unique.counts, unique.total, t).filter == SupportFilter::kFiltered;
    ASSERT_NO_FATAL_FAILURE(expect_brute_force_figures(ref, cmp, t, trial));
  }
  EXPECT_GT(filtered, 100u);  // the filter was really exercised
}

TEST(SampleCoverage, AgreesWithANearestNeighbourSearchForSamplesOfThousands) {
  // Past 4,096 values the sort is a radix sort: checked against each distinct value's
  // neighbours found by binary search (the brute force would take minutes here).
  Uniform next(55555);
  const DiffThresholds t = default_thresholds();
  const double tolerance = std::log1p(t.same_center_relative);
  for (const bool float32 : {true, false}) {
    const auto sample = [&](double center, std::size_t n) {
      std::vector<double> values;
      for (std::size_t i = 0; i < n; ++i) {
        const double value = center * (1.0 + 0.05 * (next() - 0.5));
        values.push_back(float32 ? static_cast<float>(value) : value);
      }
      return values;
    };
    const std::vector<double> ref = sample(1e-3, 6000);
    const std::vector<double> cmp = sample(1.02e-3, 5000);
    const auto covered_share = [&](const std::vector<double>& from, const std::vector<double>& to) {
      const UniqueValues mine = unique_values(from);
      const UniqueValues other = unique_values(to);
      std::size_t covered = 0;
      for (std::size_t i = 0; i < mine.values.size(); ++i) {
        const double value = mine.values[i];
        const auto above = std::lower_bound(other.values.begin(), other.values.end(), value);
        const bool near_above =
            above != other.values.end() && std::log(*above) - std::log(value) <= tolerance;
        const bool near_below = above != other.values.begin() &&
                                std::log(value) - std::log(*std::prev(above)) <= tolerance;
        if (near_above || near_below) covered += mine.counts[i];
      }
      return static_cast<double>(covered) / static_cast<double>(mine.total);
    };
    const CoverageFigures f = sample_coverage(ref, cmp, t);
    EXPECT_EQ(f.sample_ref_in_cmp, covered_share(ref, cmp)) << float32;
    EXPECT_EQ(f.sample_cmp_in_ref, covered_share(cmp, ref)) << float32;
    EXPECT_GT(f.sample_ref_in_cmp, 0.5);  // centers 2% apart on a 5% spread: partly covered
    EXPECT_LT(f.sample_ref_in_cmp, 1.0);
  }
}

TEST(SampleCoverage, AnswersNaNForAnEmptySideWithoutReadingIt) {
  const CoverageFigures f =
      sample_coverage(std::vector<double>{}, std::vector<double>{1.0, 2.0}, default_thresholds());
  EXPECT_TRUE(std::isnan(f.sample_ref_in_cmp));
  EXPECT_DOUBLE_EQ(f.sample_cmp_in_ref, 0.0);
  const CoverageFigures none =
      sample_coverage(std::vector<double>{}, std::vector<double>{}, default_thresholds());
  EXPECT_TRUE(std::isnan(none.sample_ref_in_cmp));
  EXPECT_TRUE(std::isnan(none.support_cmp_in_ref));
}

TEST(SampleCoverage, CountsAValueOnBothSidesOnceForEach) {
  // 2.0 is on both sides: each side covers it; the reference's lone 1.0 and the compare
  // side's lone 4.0 have nothing near.
  expect_figures(sample_coverage(std::vector<double>{1.0, 2.0, 2.0, 2.0},
                                 std::vector<double>{2.0, 4.0}, default_thresholds()),
                 0.75, 0.5, 0.5, 0.5);
}

TEST(SampleCoverage, SupportsSameOnlyWhenEveryFigureReachesItsThreshold) {
  const DiffThresholds t = default_thresholds();
  EXPECT_TRUE(coverage_supports_same({0.97, 0.97, 0.8, 0.8}, t));
  EXPECT_FALSE(coverage_supports_same({0.97, 0.969, 0.8, 0.8}, t));
  EXPECT_FALSE(coverage_supports_same({0.97, 0.97, 0.8, 0.799}, t));
}

TEST(SampleCoverage, ShortfallIsTheLargestDeficit) {
  const DiffThresholds t = default_thresholds();
  EXPECT_DOUBLE_EQ(coverage_shortfall({0.75, 0.5, 0.5, 0.5}, t), 0.97 - 0.5);
  EXPECT_DOUBLE_EQ(coverage_shortfall({1, 1, 0.5, 1}, t), 0.8 - 0.5);
  EXPECT_EQ(coverage_shortfall({1, 1, 1, 1}, t), 0.0);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::diff
