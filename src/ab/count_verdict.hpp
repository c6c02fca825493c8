#pragma once
// The verdict of `perfgate ab --measure instructions` (issue 36, docs/ab.md): base and head
// counted in rounds (one counted run of each side a round, the leader alternating), judged
// on their instruction counts against the instructions budget. Pure: counts in, verdict out.
//
//  - A deterministic program (each side's counts within 0.1% of each other) needs two
//    rounds, one and one that confirms it: the change is the head's mean count over the
//    base's, and its interval runs from the smallest head over the largest base to the
//    largest head over the smallest base. REGRESSION when the interval lies above the
//    budget, PASS when it lies within it; a change within the counts' own jitter of the
//    budget is INCONCLUSIVE, since more rounds would repeat the same counts.
//  - Counts that vary more (threads, randomness, the time steer the program) are judged as
//    `--method stat` judges times: the rounds as pairs of log(head / base), their
//    anytime-valid confidence sequence at 1 - alpha, one more round until it decides or
//    max_pairs rounds ran (then INCONCLUSIVE).
#include <string>
#include <vector>

#include "ab/budget.hpp"
#include "ab/paired_verdict.hpp"

namespace perfgate {

/// Counts of one side within this fraction of each other (max / min - 1) are deterministic.
inline constexpr double kDeterministicSpread = 0.001;
/// Rounds a deterministic verdict takes: one, and its confirmation.
inline constexpr std::size_t kCountRounds = 2;
/// --budget instructions=...: +1% by default, no absolute part.
inline constexpr double kDefaultInstructionBudget = 0.01;

struct CountVerdict {
  VerdictKind kind = VerdictKind::kInconclusive;  ///< kNeedsConfirmation: one more round
  bool deterministic = false;
  std::size_t rounds = 0;
  double base_spread = 0;  ///< max / min - 1 of the base's counts
  double head_spread = 0;
  double base_mean = 0;
  double head_mean = 0;
  double change = 0;  ///< head over base - 1
  double lower = 0;   ///< the interval's ends, as changes
  double upper = 0;
  double threshold = 0;  ///< the budget as a change (the larger of its two parts)
  std::vector<std::string> reasons;
};

/// Judges the rounds so far (base[i] and head[i] from round i; equal sizes, at least one).
/// `final_look`: no round follows, so an undecided verdict is INCONCLUSIVE.
CountVerdict judge_counts(const std::vector<double>& base, const std::vector<double>& head,
                          const Budget& budget, double alpha, bool final_look);

}  // namespace perfgate
