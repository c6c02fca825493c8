#include "ab/sequential_verdict.hpp"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "stats/confidence_sequence.hpp"

namespace perfgate {
namespace {

std::string signed_percent(double fraction) {
  return fmt::format("{:+.1f}%", fraction * 100);
}

/// "latency +10.4% [+7.9%, +12.8%] (budget +5%)".
std::string change_text(const MetricEvidence& evidence) {
  const auto& c = *evidence.change;
  return fmt::format("{} {} [{}, {}] (budget {})", metric_key(evidence.metric),
                     signed_percent(c.estimate), signed_percent(c.lower), signed_percent(c.upper),
                     signed_percent(c.threshold));
}

}  // namespace

double log_ratio_threshold(const Budget& budget, double base_level) {
  double threshold = std::log1p(budget.relative);
  if (budget.absolute > 0 && base_level > 0) {
    threshold = std::max(threshold, std::log1p(budget.absolute / base_level));
  }
  return threshold;
}

PairedVerdict judge_sequential(const PairedRuns& runs, const VerdictRules& rules, bool final_look) {
  const std::size_t pairs = runs.pair_count();
  const int confidence = static_cast<int>(std::lround((1 - rules.alpha) * 100));
  PairedVerdict verdict;
  std::vector<std::string> above, undecided, unjudged;
  bool all_below = true;
  for (const AbMetric metric : kAbMetrics) {
    const PairedSamples& samples = runs[metric];
    MetricEvidence evidence = weigh_metric(metric, samples, rules, false);
    std::vector<double> log_ratios;
    double sum = 0;
    bool positive = true;
    for (std::size_t i = 0; i < pairs && positive; ++i) {
      positive = samples.base[i] > 0 && samples.head[i] > 0;
      if (positive) log_ratios.push_back(std::log(samples.head[i] / samples.base[i]));
      if (positive) sum += log_ratios.back();
    }
    if (!positive) {
      // A CPU time of 0 (a program that sleeps) has no ratio: the budget's absolute part
      // already makes such a metric immaterial, so it does not hold the verdict back.
      unjudged.push_back(fmt::format("{} has a zero sample and is not judged", metric_key(metric)));
      verdict.metrics.push_back(std::move(evidence));
      continue;
    }
    const double threshold = log_ratio_threshold(evidence.budget, evidence.base_median);
    const auto interval = stats::mean_confidence_sequence(log_ratios, rules.alpha);
    const double mean = sum / static_cast<double>(log_ratios.size());
    MetricEvidence::Change change;
    change.estimate = std::expm1(mean);
    change.threshold = std::expm1(threshold);
    change.lower = interval ? std::expm1(interval->lower) : -1;
    change.upper = interval ? std::expm1(interval->upper) : HUGE_VAL;
    evidence.change = change;
    const stats::BudgetDecision decision =
        stats::decide_against_budget(log_ratios, threshold, rules.alpha);
    if (decision == stats::BudgetDecision::kAboveBudget) above.push_back(change_text(evidence));
    if (decision != stats::BudgetDecision::kBelowBudget) {
      all_below = false;
      if (decision == stats::BudgetDecision::kUndecided) undecided.push_back(change_text(evidence));
    }
    verdict.metrics.push_back(std::move(evidence));
  }
  const std::string after = fmt::format("after {} pair{}", pairs, pairs == 1 ? "" : "s");
  if (!above.empty()) {
    verdict.kind = VerdictKind::kRegression;
    for (const auto& text : above) {
      verdict.reasons.push_back(
          fmt::format("{} {}: over budget with {}% confidence", text, after, confidence));
    }
  } else if (all_below) {
    verdict.kind = VerdictKind::kPass;
    std::string within;
    for (const auto& evidence : verdict.metrics) {
      if (evidence.change) within += (within.empty() ? "" : "; ") + change_text(evidence);
    }
    verdict.reasons.push_back(fmt::format(
        "every metric is within budget with {}% confidence {}: {}", confidence, after, within));
  } else {
    verdict.kind = final_look ? VerdictKind::kInconclusive : VerdictKind::kNeedsConfirmation;
    for (const auto& text : undecided) {
      verdict.reasons.push_back(
          fmt::format("{} {}: the {}% interval still holds the budget", text, after, confidence));
    }
  }
  for (auto& text : unjudged) verdict.reasons.push_back(std::move(text));
  return verdict;
}

}  // namespace perfgate
