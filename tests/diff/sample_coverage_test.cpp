// Coverage figures against values worked out by hand. The tolerance of the default
// thresholds is log(1.005) = 0.004988 on a log scale: values within about 0.5% of each
// other cover each other.
#include "diff/sample_coverage.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "diff_fixtures.hpp"

namespace perfgate::diff {
namespace {

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

}  // namespace
}  // namespace perfgate::diff
