// The bisection search on simulated commits: each commit has a level, and a run of it is the
// level times log-normal noise, with outliers at 1.5-3x as busy machines give them.
#include "bisect/bisect_search.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>

namespace perfgate::bisect {
namespace PERFGATE_TEST_FILE {

class SimulatedCommits : public CommitSampler {
 public:
  SimulatedCommits(std::vector<double> levels, double noise, unsigned seed)
      : levels_(std::move(levels)), noise_(noise), random_(seed) {}

  std::optional<double> sample(std::size_t index) override {
    ++runs_of_[index];
    if (broken_.count(index)) return std::nullopt;
    if (runs_ == interrupt_after_) throw SearchInterrupted{};
    ++runs_;
    std::normal_distribution<double> normal(0, noise_);
    std::uniform_real_distribution<double> uniform(0, 1);
    double value = levels_[index] * std::exp(noise_ > 0 ? normal(random_) : 0.0);
    // 2% of the runs meet a busy moment: 1.5 to 3 times slower.
    if (noise_ > 0 && uniform(random_) < 0.02) value *= 1.5 + 1.5 * uniform(random_);
    if (two_speeds_) {
      if (uniform(random_) < (slow_ ? kToFast : kToSlow)) slow_ = !slow_;
      if (slow_) value *= kSlowSpeed;
    }
    return value;
  }

  /// The machine switches between two speeds, as a 30 ms program did under a busy loop on
  /// each core of a 2-core machine (measured in perfgate bisect's own log: 85% of the runs
  /// at 1.85x, the speed changing between 9% of consecutive runs, 3% noise within a speed).
  void switch_between_two_speeds() { two_speeds_ = true; }

  std::set<std::size_t> broken_;
  std::size_t interrupt_after_ = static_cast<std::size_t>(-1);
  std::map<std::size_t, int> runs_of_;

 private:
  static constexpr double kSlowSpeed = 1.85;
  static constexpr double kToSlow = 0.30;
  static constexpr double kToFast = 0.053;
  std::vector<double> levels_;
  double noise_;
  std::mt19937_64 random_;
  std::size_t runs_ = 0;
  bool two_speeds_ = false;
  bool slow_ = true;
};

/// `length` commits at level 1, and from each step's commit on, that much higher.
std::vector<double> levels(std::size_t length, const std::map<std::size_t, double>& steps) {
  std::vector<double> out(length, 30.0);
  for (const auto& [at, change] : steps) {
    for (std::size_t i = at; i < length; ++i) out[i] *= 1 + change;
  }
  return out;
}

std::size_t measured_between_ends(const SearchResult& result, std::size_t length) {
  std::size_t count = 0;
  for (const std::size_t index : result.measured) count += index != 0 && index != length - 1;
  return count;
}

TEST(BisectSearch, NamesTheOneSlowerCommitOfSixtyFourUnderNoiseAndOutliers) {
  // Issue 37's goal: 64 commits, one 5% slower; every one of ten searches names it, in at
  // most 8 measured commits on average besides the endpoints.
  std::size_t measured = 0;
  for (unsigned seed = 1; seed <= 10; ++seed) {
    SimulatedCommits commits(levels(64, {{37, 0.05}}), 0.03, seed);
    const SearchResult result = search(64, commits, {});
    ASSERT_EQ(result.answer, Answer::kCommit) << "seed " << seed;
    ASSERT_EQ(result.found.size(), 1u);
    EXPECT_EQ(result.found[0].first_changed, 37u) << "seed " << seed;
    EXPECT_EQ(result.found[0].last_unchanged, 36u);
    EXPECT_TRUE(result.found[0].confirmed);
    EXPECT_LT(result.found[0].change.lower, 0.05);
    EXPECT_GT(result.found[0].change.upper, 0.05) << "the interval holds the true change";
    EXPECT_GT(result.total.lower, 0) << "a change";
    EXPECT_GT(result.total.estimate, 0.02) << "beyond the threshold";
    measured += measured_between_ends(result, 64);
  }
  EXPECT_LE(measured, 80u);
  std::printf("measured commits besides the ends, ten searches: %zu\n", measured);
}

TEST(BisectSearch, NamesTheSlowerCommitOnAMachineThatSwitchesBetweenTwoSpeeds) {
  // The same goal under a busy loop per core: 5% more work showed as +3.5% in wall time, and
  // the runs jump between two speeds. Rounds whose runs met both speeds are pulled in to 3
  // robust SDs: slow (about 1,800 rounds a search), but never a wrong commit.
  std::size_t measured = 0;
  std::size_t rounds = 0;
  for (unsigned seed = 1; seed <= 10; ++seed) {
    SimulatedCommits commits(levels(64, {{37, 0.035}}), 0.03, seed);
    commits.switch_between_two_speeds();
    const SearchResult result = search(64, commits, {});
    ASSERT_EQ(result.answer, Answer::kCommit) << "seed " << seed;
    ASSERT_EQ(result.found.size(), 1u);
    EXPECT_EQ(result.found[0].first_changed, 37u) << "seed " << seed;
    measured += measured_between_ends(result, 64);
    for (const SearchStep& step : result.steps) rounds += step.rounds;
  }
  EXPECT_LE(measured, 80u);
  std::printf("two speeds: measured commits besides the ends %zu, rounds %zu, ten searches\n",
              measured, rounds);
}

/// Ends without noise, and a middle commit whose runs put the step's offset at `offsets`,
/// one a round, over and over.
class ReplayedMiddle : public CommitSampler {
 public:
  explicit ReplayedMiddle(std::vector<double> offsets) : offsets_(std::move(offsets)) {}
  std::optional<double> sample(std::size_t index) override {
    if (index == 0) return kLower;
    if (index == 2) return kUpper;
    const double offset = offsets_[next_++ % offsets_.size()];
    return std::exp(offset + (std::log(kLower) + std::log(kUpper)) / 2);
  }

 private:
  static constexpr double kLower = 30.0;
  static constexpr double kUpper = 30.9;
  std::vector<double> offsets_;
  std::size_t next_ = 0;
};

TEST(BisectSearch, FarValuesOnOneSideOfATestStepDoNotDecideIt) {
  // A test step logged on this machine (make bench, two 3% steps): the middle commit was like
  // the upper end, and its offsets sat at -0.1 or, when one run met the other speed of the
  // machine, near +0.27. Leaving the far values out decided "like the lower end" after 25
  // rounds (-7.9% [-15.3%, -0.43%]); pulled in, the step has not decided.
  ReplayedMiddle commits({-0.13,  0.094,  0.32,   -0.006, 0.054,  -0.233, 0.286, -0.147, -0.125,
                          -0.069, -0.105, -0.155, -0.046, 0.277,  -0.037, 0.001, 0.256,  0.277,
                          -0.101, -0.107, 0.24,   -0.076, -0.131, -0.091, -0.091});
  SearchRules rules;
  rules.max_rounds = 25;
  const SearchResult result = search(3, commits, rules);
  ASSERT_GE(result.steps.size(), 2u);
  EXPECT_EQ(result.steps[0].outcome, StepOutcome::kChange);
  EXPECT_EQ(result.steps[1].kind, StepKind::kLocate);
  EXPECT_EQ(result.steps[1].rounds, 25u);
  EXPECT_EQ(result.steps[1].outcome, StepOutcome::kUndecided);
}

TEST(BisectSearch, FindsASpeedupAsWellAsASlowdown) {
  SimulatedCommits commits(levels(20, {{5, -0.10}}), 0.02, 7);
  const SearchResult result = search(20, commits, {});
  ASSERT_EQ(result.answer, Answer::kCommit);
  EXPECT_EQ(result.found[0].first_changed, 5u);
  EXPECT_LT(result.total.upper, 0);
  EXPECT_LT(result.total.estimate, -0.02);
}

TEST(BisectSearch, SaysNoChangeAfterTheFirstComparisonWhenTheEndsAreAlike) {
  for (unsigned seed = 1; seed <= 10; ++seed) {
    SimulatedCommits commits(levels(64, {}), 0.01, seed);
    const SearchResult result = search(64, commits, {});
    EXPECT_EQ(result.answer, Answer::kNoChange) << "seed " << seed;
    ASSERT_EQ(result.steps.size(), 1u) << "only the endpoints are compared";
    EXPECT_EQ(result.steps[0].kind, StepKind::kCompare);
    EXPECT_EQ(result.measured, (std::set<std::size_t>{0, 63}));
  }
}

TEST(BisectSearch, IsUndecidedWhenTheNoiseHidesTheChangeWithinItsRounds) {
  SimulatedCommits commits(levels(16, {{8, 0.03}}), 0.30, 3);
  SearchRules rules;
  rules.max_rounds = 10;
  const SearchResult result = search(16, commits, rules);
  EXPECT_EQ(result.answer, Answer::kUndecided);
  ASSERT_EQ(result.steps.size(), 1u);
  EXPECT_EQ(result.steps[0].rounds, 10u);
  EXPECT_EQ(result.steps[0].outcome, StepOutcome::kUndecided);
}

TEST(BisectSearch, TwoEqualStepsAreNamedAsARangeAndNothingOutsideThem) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    SimulatedCommits commits(levels(64, {{20, 0.03}, {45, 0.03}}), 0.01, seed);
    SearchRules rules;
    rules.threshold = 0.01;
    const SearchResult result = search(64, commits, rules);
    ASSERT_TRUE(result.answer == Answer::kRange || result.answer == Answer::kCommit)
        << "seed " << seed;
    for (const FoundCommit& found : result.found) {
      EXPECT_TRUE(found.first_changed == 20 || found.first_changed == 45)
          << "seed " << seed << ": " << found.first_changed;
    }
  }
}

TEST(BisectSearch, OfTwoUnequalStepsFindsTheLargerOrBoth) {
  SimulatedCommits commits(levels(64, {{10, 0.02}, {50, 0.06}}), 0.01, 11);
  SearchRules rules;
  rules.threshold = 0.01;
  const SearchResult result = search(64, commits, rules);
  ASSERT_FALSE(result.found.empty());
  std::set<std::size_t> named;
  for (const FoundCommit& found : result.found) named.insert(found.first_changed);
  EXPECT_TRUE(named.count(50)) << "the larger step";
  for (const std::size_t index : named) EXPECT_TRUE(index == 10 || index == 50) << index;
}

TEST(BisectSearch, SkipsCommitsThatCannotBeMeasuredAndStillNamesTheCulprit) {
  SimulatedCommits commits(levels(64, {{37, 0.05}}), 0.02, 5);
  commits.broken_ = {31, 32, 40};  // 31 or 32 is the first middle taken
  const SearchResult result = search(64, commits, {});
  ASSERT_EQ(result.answer, Answer::kCommit);
  EXPECT_EQ(result.found[0].first_changed, 37u);
  EXPECT_TRUE(result.found[0].skipped_between.empty());
  EXPECT_TRUE(result.skipped.count(31) || result.skipped.count(32));
  for (const std::size_t index : result.skipped) EXPECT_TRUE(commits.broken_.count(index));
  for (const std::size_t index : commits.broken_) {
    EXPECT_LE(commits.runs_of_[index], 1) << "a broken commit is tried once";
  }
}

TEST(BisectSearch, ACulpritBehindSkippedCommitsIsARangeThatNamesThem) {
  SimulatedCommits commits(levels(16, {{9, 0.10}}), 0.01, 2);
  commits.broken_ = {7, 8};
  const SearchResult result = search(16, commits, {});
  ASSERT_EQ(result.answer, Answer::kRange);
  ASSERT_EQ(result.found.size(), 1u);
  EXPECT_EQ(result.found[0].last_unchanged, 6u);
  EXPECT_EQ(result.found[0].first_changed, 9u);
  EXPECT_EQ(result.found[0].skipped_between, (std::vector<std::size_t>{7, 8}));
}

TEST(BisectSearch, DeterministicCountsTakeOneRunOfEachMiddleCommit) {
  // --measure instructions: a 1% change in a program whose counts repeat exactly.
  SimulatedCommits commits(levels(64, {{23, 0.01}}), 0.0, 1);
  SearchRules rules;
  rules.counts = true;
  rules.threshold = 0.005;
  const SearchResult result = search(64, commits, rules);
  ASSERT_EQ(result.answer, Answer::kCommit);
  EXPECT_EQ(result.found[0].first_changed, 23u);
  EXPECT_NEAR(result.found[0].change.estimate, 0.01, 1e-12);
  for (const SearchStep& step : result.steps) {
    EXPECT_EQ(step.rounds, step.kind == StepKind::kLocate ? 1u : 2u);
  }
  EXPECT_EQ(result.steps.size(), 1u + 6u + 1u) << "compare, six halvings of 64, confirm";
  for (const auto& [index, runs] : commits.runs_of_) {
    if (index != 0 && index != 63 && index != 22 && index != 23) {
      EXPECT_EQ(runs, 1) << index;
    }
  }
}

TEST(BisectSearch, AnInterruptionEndsTheSearch) {
  SimulatedCommits commits(levels(64, {{37, 0.05}}), 0.03, 1);
  commits.interrupt_after_ = 25;
  EXPECT_THROW(search(64, commits, {}), SearchInterrupted);
}

TEST(BisectSearch, TellsEachStepAsItEnds) {
  SimulatedCommits commits(levels(8, {{4, 0.2}}), 0.01, 1);
  std::vector<SearchStep> heard;
  const SearchResult result =
      search(8, commits, {}, [&](const SearchStep& step) { heard.push_back(step); });
  ASSERT_EQ(heard.size(), result.steps.size());
  EXPECT_EQ(heard.front().kind, StepKind::kCompare);
  EXPECT_EQ(heard.front().lower, 0u);
  EXPECT_EQ(heard.front().upper, 7u);
  EXPECT_EQ(heard[1].kind, StepKind::kLocate);
  EXPECT_EQ(heard[1].middle, 3u) << "the middle of 0..7, the lower on a tie";
  EXPECT_EQ(heard[1].outcome, StepOutcome::kLikeLower);
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate::bisect
