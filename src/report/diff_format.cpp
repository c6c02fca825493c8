#include "report/diff_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace perfgate {
namespace {

struct Scale {
  double multiplier;
  const char* unit;
};

/// The unit for a magnitude of seconds: s, ms, µs (as every perfgate table writes it; nvbench
/// writes us), plus ns, because CPU micro-benchmarks (Google Benchmark) run in nanoseconds and
/// "0.009 us" would hide digits.
Scale seconds_scale(double magnitude) {
  if (magnitude >= 1) return {1.0, "s"};
  if (magnitude >= 1e-3) return {1e3, "ms"};
  if (magnitude >= 1e-6) return {1e6, "µs"};
  return {1e9, "ns"};
}

bool positive_finite(double value) {
  return std::isfinite(value) && value > 0;
}

/// (a - b) / min(a, b): symmetric, so swapping the sides flips only the sign.
double symmetric_change(double a, double b) {
  return (a - b) / std::min(a, b);
}

}  // namespace

std::string format_diff_value(std::optional<double> value, const std::string& unit,
                              std::optional<double> magnitude) {
  if (!value || !positive_finite(*value)) return "n/a";
  if (unit == kInstructionUnit) return fmt::format("{:.0f} {}", *value, unit);
  if (unit != "s") return fmt::format("{:.4g} {}", *value, unit);
  const Scale scale = seconds_scale(magnitude.value_or(*value));
  return fmt::format("{:.3f} {}", *value * scale.multiplier, scale.unit);
}

std::string format_center_interval(const std::optional<diff::SideEstimate>& side,
                                   const std::string& unit, std::optional<double> magnitude) {
  if (!side || !positive_finite(side->center)) return "n/a";
  if (!side->interval) return format_diff_value(side->center, unit, magnitude);
  const double lower = side->interval->lower - side->center;
  const double upper = side->interval->upper - side->center;
  if (unit == kInstructionUnit) {
    return fmt::format("{:.0f} [{:+.0f}, {:+.0f}] {}", side->center, lower, upper, unit);
  }
  if (unit != "s") {
    return fmt::format("{:.4g} [{:+.3g}, {:+.3g}] {}", side->center, lower, upper, unit);
  }
  const Scale scale = seconds_scale(magnitude.value_or(side->center));
  return fmt::format("{:.3f} [{:+.3f}, {:+.3f}] {}", side->center * scale.multiplier,
                     lower * scale.multiplier, upper * scale.multiplier, scale.unit);
}

std::string format_explicit_interval(const std::optional<diff::SideEstimate>& side,
                                     const std::string& unit, std::optional<double> magnitude) {
  if (!side || !positive_finite(side->center)) return "n/a";
  if (!side->interval) return format_diff_value(side->center, unit, magnitude);
  const auto& interval = *side->interval;
  if (unit == kInstructionUnit) {
    return fmt::format("[{:.0f} | {:.0f} | {:.0f}] {}", interval.lower, side->center,
                       interval.upper, unit);
  }
  if (unit != "s") {
    return fmt::format("[{:.4g} | {:.4g} | {:.4g}] {}", interval.lower, side->center,
                       interval.upper, unit);
  }
  const Scale scale =
      seconds_scale(magnitude.value_or(std::max({interval.lower, side->center, interval.upper})));
  return fmt::format("[{:.3f} | {:.3f} | {:.3f}] {}", interval.lower * scale.multiplier,
                     side->center * scale.multiplier, interval.upper * scale.multiplier,
                     scale.unit);
}

std::optional<double> row_magnitude(const diff::StateComparison& comparison) {
  std::optional<double> smallest;
  for (const auto* side : {&comparison.reference, &comparison.compare}) {
    if (!*side || !positive_finite((*side)->center)) continue;
    smallest = smallest ? std::min(*smallest, (*side)->center) : (*side)->center;
  }
  return smallest;
}

std::string format_fraction_percent(std::optional<double> fraction) {
  if (!fraction || std::isnan(*fraction)) return "n/a";
  if (std::isinf(*fraction)) return "inf";
  return fmt::format("{:.2f}%", *fraction * 100.0);
}

std::optional<std::pair<double, double>> proven_change_bounds(
    const diff::StateComparison& comparison) {
  if (!comparison.reference || !comparison.compare || !comparison.reference->interval ||
      !comparison.compare->interval) {
    return std::nullopt;
  }
  const auto& ref = *comparison.reference->interval;
  const auto& cmp = *comparison.compare->interval;
  if (!positive_finite(ref.lower) || !positive_finite(ref.upper) || !positive_finite(cmp.lower) ||
      !positive_finite(cmp.upper)) {
    return std::nullopt;
  }
  return std::make_pair(symmetric_change(cmp.lower, ref.upper),
                        symmetric_change(cmp.upper, ref.lower));
}

std::string format_proven_change(const diff::StateComparison& comparison) {
  const bool fast = comparison.status == diff::DiffStatus::kFast;
  const bool slow = comparison.status == diff::DiffStatus::kSlow;
  if (!fast && !slow) return "";
  const auto bounds = proven_change_bounds(comparison);
  if (!bounds) return "";
  if (fast) return fmt::format("<= {:+.1f}%", bounds->second * 100.0);
  return fmt::format(">= {:+.1f}%", bounds->first * 100.0);
}

std::string format_change_cell(const diff::StateComparison& comparison) {
  switch (comparison.status) {
    case diff::DiffStatus::kFast:
    case diff::DiffStatus::kSlow:
      return format_proven_change(comparison);
    case diff::DiffStatus::kSame:
    case diff::DiffStatus::kAmbiguous: {
      const std::string change = format_center_change(comparison);
      return change == "n/a" ? "" : "(" + change + ")";
    }
    case diff::DiffStatus::kUnknown:
      break;
  }
  return "";
}

std::string format_center_change(const diff::StateComparison& comparison) {
  if (!comparison.reference || !comparison.compare) return "n/a";
  const double ref = comparison.reference->center;
  const double cmp = comparison.compare->center;
  if (!positive_finite(ref) || !positive_finite(cmp)) return "n/a";
  return fmt::format("{:+.1f}%", symmetric_change(cmp, ref) * 100.0);
}

std::string format_interval_span(const std::optional<diff::SideEstimate>& side) {
  if (!side || !side->interval || !positive_finite(side->center)) return "n/a";
  const auto& interval = *side->interval;
  if (!std::isfinite(interval.lower) || !std::isfinite(interval.upper) ||
      interval.upper < interval.lower) {
    return "n/a";
  }
  return fmt::format("{:.1f}%", (interval.upper - interval.lower) / side->center * 100.0);
}

std::string format_u_test(const std::optional<diff::StateComparison::UTest>& test) {
  if (!test) return "";
  if (test->p_value < 0.00005) return "<0.0001";
  return fmt::format("{:.4f}", test->p_value);
}

std::optional<GeometricMeanRatio> geometric_mean_ratio(const diff::DiffOutcome& outcome,
                                                       std::optional<diff::BesideMetric> beside) {
  double log_sum = 0;
  std::size_t matches = 0;
  for (const auto& section : outcome.sections) {
    for (const auto& row : section.rows) {
      if (beside && !row.beside(*beside)) continue;
      const diff::StateComparison& c = beside ? *row.beside(*beside) : row.comparison;
      if (!c.reference || !c.compare) continue;
      if (!positive_finite(c.reference->center) || !positive_finite(c.compare->center)) continue;
      log_sum += std::log(c.compare->center / c.reference->center);
      ++matches;
    }
  }
  if (matches == 0) return std::nullopt;
  return GeometricMeanRatio{std::exp(log_sum / static_cast<double>(matches)), matches};
}

std::string format_geometric_mean(const GeometricMeanRatio& mean) {
  return fmt::format("{:.3f}x ({:+.1f}%) over {} match{}", mean.ratio, (mean.ratio - 1) * 100.0,
                     mean.matches, mean.matches == 1 ? "" : "es");
}

}  // namespace perfgate
