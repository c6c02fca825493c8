#include "bisect/bisect_search.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <random>

#include "stats/confidence_sequence.hpp"
#include "stats/summary.hpp"

namespace perfgate::bisect {
namespace {

/// Counts of one commit within this fraction of each other are a deterministic program's.
constexpr double kDeterministicSpread = 0.001;
/// A middle within this share of the range from its midpoint is like neither end (counts).
constexpr double kBetweenMargin = 0.05;
/// A middle whose interval lies within this share of half the ends' gap around the
/// midpoint is like neither end, before max_rounds (times).
constexpr double kBetweenInterval = 0.25;

/// Values beyond this many robust standard deviations from the median are pulled in to it.
constexpr double kClipDeviations = 3.0;
/// The clipping starts once a step has this many values: fewer give no stable median.
constexpr std::size_t kClipFrom = 5;

/// The values with those far from their median pulled in to median +- kClipDeviations
/// robust standard deviations (1.4826 MAD): a run that met a busy moment of the machine
/// (1.5-3x slower) would otherwise widen the interval until no step decides. A Huber-type
/// winsorisation: it leaves Gaussian noise almost untouched (P. J. Huber, Robust Statistics,
/// 1981). Far values are pulled in, never left out: a test step's offset mixes three
/// commits' runs, and on a machine that switches between two speeds its far values lie
/// mostly on one side (a middle run alone at the other speed moves it twice as far as an
/// end's); leaving them out once decided a step wrongly in 25 rounds where pulling them in
/// stayed undecided (docs/bisect.md, bench/bisect_far_values.py).
std::vector<double> clipped(std::vector<double> values) {
  if (values.size() < kClipFrom) return values;
  const Summary summary = summarize(values);
  const double spread = 1.4826 * summary.mad;
  if (!(spread > 0)) return values;
  for (double& value : values) {
    value = std::clamp(value, summary.median - kClipDeviations * spread,
                       summary.median + kClipDeviations * spread);
  }
  return values;
}

Change change_of(double log_estimate, double log_lower, double log_upper) {
  return {std::expm1(log_estimate), std::expm1(log_lower), std::expm1(log_upper), true};
}

class Search {
 public:
  Search(std::size_t length, CommitSampler& sampler, const SearchRules& rules,
         const std::function<void(const SearchStep&)>& on_step)
      : length_(length),
        sampler_(sampler),
        rules_(rules),
        on_step_(on_step),
        threshold_(std::log1p(rules.threshold)) {}

  SearchResult run() {
    const SearchStep first = compare(0, length_ - 1);
    result_.total = first.change;
    if (first.outcome == StepOutcome::kNoChange) {
      result_.answer = Answer::kNoChange;
    } else if (first.outcome == StepOutcome::kChange) {
      find(0, length_ - 1, std::log1p(first.change.estimate));
      result_.answer = answer();
    } else {
      result_.answer = Answer::kUndecided;
    }
    return std::move(result_);
  }

 private:
  /// One run of `index`, kept; nullopt (and the commit skipped) when it cannot be measured.
  std::optional<double> take(std::size_t index) {
    if (result_.skipped.count(index)) return std::nullopt;
    const std::optional<double> value = sampler_.sample(index);
    ++result_.runs;
    result_.measured.insert(index);
    if (!value || !(*value > 0) || !std::isfinite(*value)) {
      result_.skipped.insert(index);
      return std::nullopt;
    }
    samples_[index].push_back(std::log(*value));
    return std::log(*value);
  }

  /// Whether every count of `index` so far is within kDeterministicSpread of the others.
  bool deterministic(std::size_t index) const {
    const auto it = samples_.find(index);
    if (it == samples_.end() || it->second.empty()) return false;
    const auto [low, high] = std::minmax_element(it->second.begin(), it->second.end());
    return *high - *low <= std::log1p(kDeterministicSpread);
  }

  double mean_log(std::size_t index) const {
    const std::vector<double>& values = samples_.at(index);
    return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  }

  void report(SearchStep& step) {
    result_.steps.push_back(step);
    if (on_step_) on_step_(step);
  }

  /// Step 1 (and 3, 5): is `upper` beyond the threshold from `lower`?
  SearchStep compare(std::size_t lower, std::size_t upper) {
    SearchStep step{StepKind::kCompare, lower, upper, upper, StepOutcome::kUndecided, {}, 0};
    std::vector<double> ratios;
    std::vector<double> lows;
    std::vector<double> highs;
    for (std::size_t round = 0; round < rules_.max_rounds; ++round) {
      // Alternating which goes first, so that a machine that drifts favours neither.
      const bool lower_first = round % 2 == 0;
      const std::optional<double> a = lower_first ? take(lower) : take(upper);
      const std::optional<double> b = lower_first ? take(upper) : take(lower);
      if (!a || !b) {
        step.outcome = StepOutcome::kSkipped;
        break;
      }
      const double low = lower_first ? *a : *b;
      const double high = lower_first ? *b : *a;
      lows.push_back(low);
      highs.push_back(high);
      ratios.push_back(high - low);
      step.rounds = round + 1;
      if (rules_.counts && ratios.size() >= 2 && spread(lows) <= std::log1p(kDeterministicSpread) &&
          spread(highs) <= std::log1p(kDeterministicSpread)) {
        // A deterministic program: the interval runs from the smallest upper count over the
        // largest lower one to the largest over the smallest, and more rounds repeat it.
        const double lo = *std::min_element(highs.begin(), highs.end()) -
                          *std::max_element(lows.begin(), lows.end());
        const double hi = *std::max_element(highs.begin(), highs.end()) -
                          *std::min_element(lows.begin(), lows.end());
        const double mean =
            std::accumulate(ratios.begin(), ratios.end(), 0.0) / static_cast<double>(ratios.size());
        step.change = change_of(mean, lo, hi);
        step.outcome = classify_change(mean, lo, hi);
        break;  // undecided too: more rounds would repeat the same counts
      }
      const auto interval = stats::mean_confidence_sequence(clipped(ratios), rules_.alpha);
      if (!interval) continue;
      step.change = change_of(interval->estimate, interval->lower, interval->upper);
      step.outcome = classify_change(interval->estimate, interval->lower, interval->upper);
      if (step.outcome != StepOutcome::kUndecided) break;
    }
    report(step);
    return step;
  }

  static double spread(const std::vector<double>& logs) {
    const auto [low, high] = std::minmax_element(logs.begin(), logs.end());
    return *high - *low;
  }

  /// A change: the estimate lies beyond the threshold and the whole interval beyond half of
  /// it (a bisection looks for where the level moved: how far past the threshold the whole
  /// interval lies is not its question, but an interval that only just excludes 0 is too
  /// often a busy machine's drift between two commits of one level). No change: the
  /// interval lies within the threshold both ways.
  StepOutcome classify_change(double estimate, double lower, double upper) const {
    const double half = threshold_ / 2;
    if ((lower > half && estimate > threshold_) || (upper < -half && estimate < -threshold_))
      return StepOutcome::kChange;
    if (lower > -threshold_ && upper < threshold_) return StepOutcome::kNoChange;
    return StepOutcome::kUndecided;
  }

  /// Step 2: is `middle` like `lower` or like `upper`? `gap` is log(upper / lower) as the
  /// comparison that set up the range measured it.
  SearchStep locate(std::size_t lower, std::size_t middle, std::size_t upper, double gap) {
    SearchStep step{StepKind::kLocate, lower, middle, upper, StepOutcome::kUndecided, {}, 0};
    const double sign = gap >= 0 ? 1.0 : -1.0;
    if (rules_.counts && deterministic(lower) && deterministic(upper)) {
      // The ends' counts are exact: one run of the middle says where it lies.
      const std::optional<double> value = take(middle);
      step.rounds = 1;
      if (!value) {
        step.outcome = StepOutcome::kSkipped;
      } else {
        const double low = mean_log(lower);
        const double high = mean_log(upper);
        const double position = (*value - low) / (high - low);
        const double x = *value - (low + high) / 2;
        step.change = change_of(x, x, x);
        step.outcome = position < 0.5 - kBetweenMargin   ? StepOutcome::kLikeLower
                       : position > 0.5 + kBetweenMargin ? StepOutcome::kLikeUpper
                                                         : StepOutcome::kBetween;
      }
      report(step);
      return step;
    }
    std::vector<double> offsets;
    std::array<std::size_t, 3> order = {lower, middle, upper};
    // Seeded by the step's number: the same order every time, so a resumed search replays
    // the same requests.
    std::mt19937 shuffle(static_cast<unsigned>(result_.steps.size()) + 1);
    for (std::size_t round = 0; round < rules_.max_rounds; ++round) {
      std::shuffle(order.begin(), order.end(), shuffle);
      std::map<std::size_t, double> values;
      bool failed = false;
      for (const std::size_t index : order) {
        const std::optional<double> value = take(index);
        if (!value) {
          failed = true;
          break;
        }
        values[index] = *value;
      }
      if (failed) {
        step.outcome = StepOutcome::kSkipped;
        break;
      }
      offsets.push_back(values[middle] - (values[lower] + values[upper]) / 2);
      step.rounds = round + 1;
      const auto interval = stats::mean_confidence_sequence(clipped(offsets), rules_.alpha);
      if (!interval) continue;
      step.change = change_of(interval->estimate, interval->lower, interval->upper);
      const double low = sign * (sign > 0 ? interval->lower : interval->upper);
      const double high = sign * (sign > 0 ? interval->upper : interval->lower);
      const double half_gap = std::abs(gap) / 2;
      if (low > 0) {
        step.outcome = StepOutcome::kLikeUpper;
      } else if (high < 0) {
        step.outcome = StepOutcome::kLikeLower;
      } else if (low > -kBetweenInterval * half_gap && high < kBetweenInterval * half_gap) {
        step.outcome = StepOutcome::kBetween;
      }
      if (step.outcome != StepOutcome::kUndecided) break;
    }
    report(step);
    return step;
  }

  /// The measurable commits strictly between `lower` and `upper`, nearest the middle first.
  std::optional<std::size_t> middle_of(std::size_t lower, std::size_t upper) const {
    const double centre = (static_cast<double>(lower) + static_cast<double>(upper)) / 2;
    std::optional<std::size_t> best;
    for (std::size_t i = lower + 1; i < upper; ++i) {
      if (result_.skipped.count(i)) continue;
      if (!best ||
          std::abs(static_cast<double>(i) - centre) < std::abs(static_cast<double>(*best) - centre))
        best = i;
    }
    return best;
  }

  /// The change lies between `lower` (like the good end) and `upper` (like the bad end),
  /// `gap` = log(upper / lower) as measured.
  void find(std::size_t lower, std::size_t upper, double gap) {
    while (true) {
      const std::optional<std::size_t> middle = middle_of(lower, upper);
      if (!middle) {
        found(lower, upper, false);
        return;
      }
      const SearchStep step = locate(lower, *middle, upper, gap);
      switch (step.outcome) {
        case StepOutcome::kSkipped:
          // The middle could not be measured (now skipped), or an end failed: an end that
          // measured before and fails now makes the range unresolved.
          if (result_.skipped.count(lower) || result_.skipped.count(upper)) {
            found(lower, upper, true);
            return;
          }
          continue;
        case StepOutcome::kLikeLower:
          lower = *middle;
          continue;
        case StepOutcome::kLikeUpper:
          upper = *middle;
          continue;
        default:
          break;
      }
      // Like neither end: each half is compared on its own and searched if it changed.
      const SearchStep left = compare(lower, *middle);
      const SearchStep right = compare(*middle, upper);
      const bool left_changed = left.outcome == StepOutcome::kChange;
      const bool right_changed = right.outcome == StepOutcome::kChange;
      if (left_changed) find(lower, *middle, std::log1p(left.change.estimate));
      if (right_changed) find(*middle, upper, std::log1p(right.change.estimate));
      if (!left_changed && !right_changed) found(lower, upper, true);
      return;
    }
  }

  /// Step 5: the commit found, compared with the last commit like the good end.
  void found(std::size_t lower, std::size_t upper, bool unresolved) {
    FoundCommit commit;
    commit.first_changed = upper;
    commit.last_unchanged = lower;
    commit.unresolved = unresolved;
    for (std::size_t i = lower + 1; i < upper; ++i) {
      if (result_.skipped.count(i)) commit.skipped_between.push_back(i);
    }
    if (!unresolved) {
      const SearchStep step = compare(lower, upper);
      commit.change = step.change;
      commit.confirmed = step.outcome == StepOutcome::kChange;
    }
    result_.found.push_back(std::move(commit));
  }

  Answer answer() const {
    const bool all_unresolved =
        std::all_of(result_.found.begin(), result_.found.end(),
                    [](const FoundCommit& commit) { return commit.unresolved; });
    if (result_.found.empty() || all_unresolved) return Answer::kUndecided;
    if (result_.found.size() == 1 && result_.found[0].confirmed &&
        result_.found[0].skipped_between.empty())
      return Answer::kCommit;
    return Answer::kRange;
  }

  std::size_t length_;
  CommitSampler& sampler_;
  SearchRules rules_;
  std::function<void(const SearchStep&)> on_step_;
  double threshold_;
  std::map<std::size_t, std::vector<double>> samples_;  ///< log values per commit
  SearchResult result_;
};

}  // namespace

SearchResult search(std::size_t length, CommitSampler& sampler, const SearchRules& rules,
                    const std::function<void(const SearchStep&)>& on_step) {
  return Search(length, sampler, rules, on_step).run();
}

}  // namespace perfgate::bisect
