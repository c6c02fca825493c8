#include "ab/paired_verdict.hpp"

#include <fmt/format.h>

#include <cassert>
#include <cmath>

namespace perfgate {
namespace {

// The change with enough digits to differ visibly from the relative budget beside it.
std::string percent_change(double base, double head, double budget) {
  if (base == 0) return head == 0 ? "+0%" : "new";
  const double change = (head - base) / base;
  return (change < 0 ? "-" : "+") + percent_beside(std::abs(change), budget, 1) + "%";
}

std::string regression_reason(const MetricEvidence& evidence) {
  return fmt::format(
      "{} over budget ({}) in {} of {} pairs: base median {}, head median {} ({})",
      metric_key(evidence.metric), describe_budget(evidence.metric, evidence.budget),
      evidence.pairs_over_budget, evidence.pair_over_budget.size(),
      format_metric_value(evidence.metric, evidence.base_median),
      format_metric_value(evidence.metric, evidence.head_median),
      percent_change(evidence.base_median, evidence.head_median, evidence.budget.relative));
}

std::string noise_reason(AbMetric metric, std::string_view side, const SideNoise& noise,
                         double limit) {
  return fmt::format("{} is noisy on the {} side: range {} is {}% of its median {} (limit {:g}%{})",
                     metric_key(metric), side, format_metric_value(metric, noise.range),
                     percent_beside(noise.relative_range(), limit),
                     format_metric_value(metric, noise.median), limit * 100,
                     noise.discarded ? ", after discarding the most extreme sample" : "");
}

std::string median_reason(const MetricEvidence& evidence) {
  return fmt::format(
      "{} head median {} is over budget ({}) against base median {} ({}), but only {} of {} "
      "pairs were over budget",
      metric_key(evidence.metric), format_metric_value(evidence.metric, evidence.head_median),
      describe_budget(evidence.metric, evidence.budget),
      format_metric_value(evidence.metric, evidence.base_median),
      percent_change(evidence.base_median, evidence.head_median, evidence.budget.relative),
      evidence.pairs_over_budget, evidence.pair_over_budget.size());
}

// Why a metric is not clean: its median over budget and/or a noisy side.
std::vector<std::string> unclean_reasons(const MetricEvidence& evidence, double noise_limit) {
  std::vector<std::string> reasons;
  if (evidence.median_over_budget) reasons.push_back(median_reason(evidence));
  if (evidence.base_noise.noisy) {
    reasons.push_back(noise_reason(evidence.metric, "base", evidence.base_noise, noise_limit));
  }
  if (evidence.head_noise.noisy) {
    reasons.push_back(noise_reason(evidence.metric, "head", evidence.head_noise, noise_limit));
  }
  return reasons;
}

}  // namespace

std::string_view verdict_name(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::kPass:
      return "PASS";
    case VerdictKind::kRegression:
      return "REGRESSION";
    case VerdictKind::kInconclusive:
      return "INCONCLUSIVE";
    case VerdictKind::kNeedsConfirmation:
      return "NEEDS_CONFIRMATION";
  }
  return "UNKNOWN";
}

MetricEvidence weigh_metric(AbMetric metric, const PairedSamples& samples,
                            const VerdictRules& rules, bool discard_extreme) {
  assert(samples.base.size() == samples.head.size());
  MetricEvidence evidence;
  evidence.metric = metric;
  evidence.budget = rules.budgets[metric];
  for (std::size_t i = 0; i < samples.base.size(); ++i) {
    const bool over = evidence.budget.exceeded_by(samples.base[i], samples.head[i]);
    evidence.pair_over_budget.push_back(over);
    if (over) ++evidence.pairs_over_budget;
  }
  evidence.base_median = median_of(samples.base);
  evidence.head_median = median_of(samples.head);
  evidence.median_over_budget =
      evidence.budget.exceeded_by(evidence.base_median, evidence.head_median);
  evidence.base_noise = measure_noise(samples.base, rules.noise_limit, discard_extreme);
  evidence.head_noise = measure_noise(samples.head, rules.noise_limit, discard_extreme);
  return evidence;
}

PairedVerdict judge_pairs(const PairedRuns& runs, const VerdictRules& rules) {
  const std::size_t pairs = runs.pair_count();
  assert(pairs == kInitialPairs || pairs == kAllPairs);
  const bool confirmed = pairs == kAllPairs;
  // Three of three, or four of five: the pairs reproduce the excess.
  const std::size_t regression_count = confirmed ? 4 : kInitialPairs;

  PairedVerdict verdict;
  std::vector<std::string> regressions;
  std::vector<std::string> unclean;
  for (const AbMetric metric : kAbMetrics) {
    MetricEvidence evidence = weigh_metric(metric, runs[metric], rules, confirmed);
    if (evidence.pairs_over_budget >= regression_count) {
      regressions.push_back(regression_reason(evidence));
    }
    for (auto& reason : unclean_reasons(evidence, rules.noise_limit)) {
      unclean.push_back(std::move(reason));
    }
    verdict.metrics.push_back(std::move(evidence));
  }

  if (!regressions.empty()) {
    verdict.kind = VerdictKind::kRegression;
    verdict.reasons = std::move(regressions);
  } else if (unclean.empty()) {
    verdict.kind = VerdictKind::kPass;
    verdict.reasons.push_back(
        confirmed ? "every metric's head median is within budget and both sides are within the "
                    "noise limit after discarding the most extreme sample, over 5 pairs"
                  : "every metric's head median is within budget and both sides are within the "
                    "noise limit after 3 pairs");
  } else {
    verdict.kind = confirmed ? VerdictKind::kInconclusive : VerdictKind::kNeedsConfirmation;
    verdict.reasons = std::move(unclean);
  }
  return verdict;
}

}  // namespace perfgate
