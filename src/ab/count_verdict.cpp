#include "ab/count_verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "stats/confidence_sequence.hpp"

namespace perfgate {
namespace {

double spread_of(const std::vector<double>& counts) {
  const auto [low, high] = std::minmax_element(counts.begin(), counts.end());
  return *low > 0 ? *high / *low - 1 : 0;
}

double mean_of(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

std::string percent(double fraction) {
  return fmt::format("{:+.3f}%", fraction * 100);
}

}  // namespace

CountVerdict judge_counts(const std::vector<double>& base, const std::vector<double>& head,
                          const Budget& budget, double alpha, bool final_look) {
  CountVerdict out;
  out.rounds = std::min(base.size(), head.size());
  if (out.rounds == 0) {
    out.reasons.push_back("no counted round finished");
    return out;
  }
  out.base_spread = spread_of(base);
  out.head_spread = spread_of(head);
  out.base_mean = mean_of(base);
  out.head_mean = mean_of(head);
  out.threshold =
      std::max(budget.relative, out.base_mean > 0 ? budget.absolute / out.base_mean : 0);
  if (out.base_mean <= 0 || *std::min_element(base.begin(), base.end()) <= 0 ||
      *std::min_element(head.begin(), head.end()) <= 0) {
    out.reasons.push_back("a counted run counted no instruction: nothing to compare");
    return out;
  }
  out.change = out.head_mean / out.base_mean - 1;
  out.deterministic =
      out.base_spread <= kDeterministicSpread && out.head_spread <= kDeterministicSpread;
  if (out.rounds < kCountRounds && !final_look) {
    out.kind = VerdictKind::kNeedsConfirmation;
    out.lower = out.upper = out.change;
    return out;
  }

  if (out.deterministic) {
    out.lower =
        *std::min_element(head.begin(), head.end()) / *std::max_element(base.begin(), base.end()) -
        1;
    out.upper =
        *std::max_element(head.begin(), head.end()) / *std::min_element(base.begin(), base.end()) -
        1;
    const std::string evidence = fmt::format(
        "instructions {} ({} to {}) over {} round(s), each side's counts within {:.4f}% of "
        "each other",
        percent(out.change), percent(out.lower), percent(out.upper), out.rounds,
        std::max(out.base_spread, out.head_spread) * 100);
    if (out.lower > out.threshold) {
      out.kind = VerdictKind::kRegression;
      out.reasons.push_back(evidence +
                            fmt::format(": over the budget of {}", percent(out.threshold)));
    } else if (out.upper <= out.threshold) {
      out.kind = VerdictKind::kPass;
      out.reasons.push_back(evidence +
                            fmt::format(": within the budget of {}", percent(out.threshold)));
    } else {
      out.kind = VerdictKind::kInconclusive;
      out.reasons.push_back(evidence + fmt::format(": the budget of {} lies within the counts' own "
                                                   "jitter; more rounds would count the same",
                                                   percent(out.threshold)));
    }
    return out;
  }

  // Not deterministic: the rounds as pairs, judged like times under --method stat.
  std::vector<double> log_ratios;
  for (std::size_t i = 0; i < out.rounds; ++i) log_ratios.push_back(std::log(head[i] / base[i]));
  const double threshold = std::log1p(out.threshold);
  const auto interval = stats::mean_confidence_sequence(log_ratios, alpha);
  if (interval) {
    out.change = std::expm1(interval->estimate);
    out.lower = std::expm1(interval->lower);
    out.upper = std::expm1(interval->upper);
  } else {
    out.lower = -INFINITY;
    out.upper = INFINITY;
  }
  const std::string evidence = fmt::format(
      "instructions vary between runs (base {:.2f}%, head {:.2f}%): the program is not "
      "deterministic, so its {} round(s) are judged as pairs: {} ({} to {} at {:g}%)",
      out.base_spread * 100, out.head_spread * 100, out.rounds, percent(out.change),
      percent(out.lower), percent(out.upper), (1 - alpha) * 100);
  switch (stats::decide_against_budget(log_ratios, threshold, alpha)) {
    case stats::BudgetDecision::kAboveBudget:
      out.kind = VerdictKind::kRegression;
      out.reasons.push_back(evidence +
                            fmt::format(": over the budget of {}", percent(out.threshold)));
      break;
    case stats::BudgetDecision::kBelowBudget:
      out.kind = VerdictKind::kPass;
      out.reasons.push_back(evidence +
                            fmt::format(": within the budget of {}", percent(out.threshold)));
      break;
    case stats::BudgetDecision::kUndecided:
      out.kind = final_look ? VerdictKind::kInconclusive : VerdictKind::kNeedsConfirmation;
      out.reasons.push_back(evidence + fmt::format(": the interval holds the budget of {}{}",
                                                   percent(out.threshold),
                                                   final_look ? "; raise --max-pairs" : ""));
      break;
  }
  return out;
}

}  // namespace perfgate
