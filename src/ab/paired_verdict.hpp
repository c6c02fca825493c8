#pragma once
// The verdict of one A/B scenario from its measured pairs (SPEC §7). Pure: samples in,
// verdict out.
//
// How the rules are read (the seed's table and the paragraph after it):
//  - A pair is over budget on a metric when head - base exceeds both the relative and the
//    absolute budget (Budget::exceeded_by).
//  - After three pairs: a metric over budget in all three pairs is a REGRESSION at once.
//    The table names "every measured pair" as a rule of its own; if three of three had
//    to wait for confirmation it could never decide anything that four of five does not.
//  - After three pairs, the scenario is conclusively clean, and PASSes without
//    confirmation, when for every metric the head's median is within budget of the base's
//    median and both sides are within the noise limit (nothing discarded).
//  - Anything else runs both confirmation pairs, and the verdict comes from all five:
//    REGRESSION when some metric is over budget in at least four of five pairs; PASS when
//    every metric's head median (of all five) is within budget of the base median and both
//    sides are within the noise limit after discarding one extreme sample per side;
//    otherwise INCONCLUSIVE (a noisy side, or a median over budget the pairs do not
//    reproduce).
//  - The noise limit is applied per metric, see noise_limit.hpp.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "ab/budget.hpp"
#include "ab/noise_limit.hpp"

namespace perfgate {

inline constexpr std::size_t kInitialPairs = 3;
inline constexpr std::size_t kConfirmationPairs = 2;
inline constexpr std::size_t kAllPairs = kInitialPairs + kConfirmationPairs;

/// How pairs become a verdict: the 3-pair protocol (3 + 2 pairs and a count rule), or the
/// statistical rule (sequential_verdict.hpp) that looks after every pair with a known error rate.
enum class AbMethod { kPairs, kStat };

inline constexpr double kDefaultAlpha = 0.01;
inline constexpr std::size_t kDefaultMaxPairs = 60;

struct VerdictRules {
  Budgets budgets = Budgets::defaults();
  double noise_limit = kDefaultNoiseLimit;  ///< fraction of the median, 0.30 for 30%
  AbMethod method = AbMethod::kPairs;
  double alpha = kDefaultAlpha;              ///< --method stat: the error rate
  std::size_t max_pairs = kDefaultMaxPairs;  ///< --method stat: then INCONCLUSIVE

  bool operator==(const VerdictRules&) const = default;
};

/// One metric's samples: element i of base and head come from measured pair i.
struct PairedSamples {
  std::vector<double> base;
  std::vector<double> head;
};

/// Every judged metric's samples, indexed by AbMetric; all hold the same number of pairs.
struct PairedRuns {
  std::array<PairedSamples, 3> by_metric;

  PairedSamples& operator[](AbMetric metric) { return by_metric[static_cast<std::size_t>(metric)]; }
  const PairedSamples& operator[](AbMetric metric) const {
    return by_metric[static_cast<std::size_t>(metric)];
  }
  std::size_t pair_count() const { return by_metric[0].base.size(); }
};

/// What the pairs say about one metric.
struct MetricEvidence {
  AbMetric metric = AbMetric::kDuration;
  Budget budget;
  std::vector<bool> pair_over_budget;  ///< per measured pair
  std::size_t pairs_over_budget = 0;
  double base_median = 0;
  double head_median = 0;
  bool median_over_budget = false;
  SideNoise base_noise;
  SideNoise head_noise;
  /// --method stat: the head's change over the base (head / base - 1 of the pairs' mean
  /// log-ratio) with its interval at 1 - alpha, and the budget it is judged against, all as
  /// fractions; unset when a sample is zero or negative (no log-ratio).
  struct Change {
    double estimate = 0;
    double lower = 0;
    double upper = 0;
    double threshold = 0;
  };
  std::optional<Change> change;
};

enum class VerdictKind {
  kPass,
  kRegression,
  kInconclusive,
  kNeedsConfirmation,  ///< after three pairs that settle nothing: measure two more
};

/// "PASS", "REGRESSION", "INCONCLUSIVE", "NEEDS_CONFIRMATION".
std::string_view verdict_name(VerdictKind kind);

struct PairedVerdict {
  VerdictKind kind = VerdictKind::kInconclusive;
  std::vector<MetricEvidence> metrics;  ///< in kAbMetrics order
  /// Why, one sentence each: the metrics that regressed, were noisy or over budget; or
  /// why the scenario passed.
  std::vector<std::string> reasons;
};

/// Judges kInitialPairs or kAllPairs measured pairs; any other count is a caller's bug
/// (asserted against).
PairedVerdict judge_pairs(const PairedRuns& runs, const VerdictRules& rules);

/// The evidence of one metric; `discard_extreme` is set once all five pairs ran.
MetricEvidence weigh_metric(AbMetric metric, const PairedSamples& samples,
                            const VerdictRules& rules, bool discard_extreme);

}  // namespace perfgate
