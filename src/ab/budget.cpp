#include "ab/budget.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <utility>

#include "report/units.hpp"

namespace perfgate {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

std::string_view trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// The leading number of `text` and what follows it; nullopt when it does not start with one.
std::optional<std::pair<double, std::string_view>> leading_number(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || !std::isfinite(value)) return std::nullopt;
  return std::make_pair(value, trim(text.substr(static_cast<std::size_t>(end - text.data()))));
}

double parse_percentage(std::string_view text, std::string_view what) {
  const auto number = leading_number(trim(text));
  if (!number || number->second != "%" || number->first < 0) {
    throw std::invalid_argument(fmt::format(
        "{} '{}' is not a percentage; write a number followed by %, e.g. 25%", what, text));
  }
  return number->first / 100.0;
}

double unit_factor(AbMetric metric, std::string_view unit) {
  if (metric == AbMetric::kRss) {
    // perfgate's MB is 2^20 bytes everywhere (raw records, thresholds), so MB and MiB agree.
    if (unit.empty() || unit == "B") return 1;
    if (unit == "KB" || unit == "KiB") return 1024;
    if (unit == "MB" || unit == "MiB") return kMiB;
    if (unit == "GB" || unit == "GiB") return 1024 * kMiB;
  } else {
    if (unit.empty() || unit == "s") return 1;
    if (unit == "ms") return 1e-3;
    if (unit == "us" || unit == "µs") return 1e-6;
  }
  return 0;
}

double parse_absolute(AbMetric metric, std::string_view text) {
  const std::string_view units = metric == AbMetric::kRss ? "B, KB, MB or GB" : "s, ms or µs";
  const auto number = leading_number(trim(text));
  const double factor = number ? unit_factor(metric, number->second) : 0;
  if (factor == 0 || number->first < 0) {
    throw std::invalid_argument(
        fmt::format("absolute {} budget '{}' is not a non-negative amount in {}, e.g. {}",
                    metric_key(metric), text, units, metric == AbMetric::kRss ? "32MB" : "1s"));
  }
  return number->first * factor;
}

}  // namespace

std::string_view metric_key(AbMetric metric) {
  switch (metric) {
    case AbMetric::kDuration:
      return "latency";
    case AbMetric::kCpu:
      return "cpu_time";
    case AbMetric::kRss:
      return "memory";
  }
  return "unknown";
}

std::string_view metric_alias(AbMetric metric) {
  switch (metric) {
    case AbMetric::kDuration:
      return "duration";
    case AbMetric::kCpu:
      return "cpu";
    case AbMetric::kRss:
      return "rss";
  }
  return "unknown";
}

std::optional<AbMetric> ab_metric_named(std::string_view name) {
  for (const AbMetric metric : kAbMetrics) {
    if (metric_key(metric) == name || metric_alias(metric) == name) return metric;
  }
  return std::nullopt;
}

std::string_view metric_unit(AbMetric metric) {
  switch (metric) {
    case AbMetric::kDuration:
      return "s";
    case AbMetric::kCpu:
      return "s";
    case AbMetric::kRss:
      return "bytes";
  }
  return "";
}

bool Budget::exceeded_by(double base, double head) const {
  const double excess = head - base;
  return excess > base * relative && excess > absolute;
}

Budgets Budgets::defaults() {
  Budgets budgets;
  budgets[AbMetric::kDuration] = {0.25, 1.0};
  budgets[AbMetric::kCpu] = {0.20, 0.5};
  budgets[AbMetric::kRss] = {0.20, 32 * kMiB};
  return budgets;
}

Budget parse_budget(AbMetric metric, std::string_view text) {
  const std::size_t comma = text.find(',');
  if (comma == std::string_view::npos) {
    throw std::invalid_argument(fmt::format(
        "{} budget '{}' needs a relative and an absolute part separated by a comma, e.g. {}",
        metric_key(metric), text, metric == AbMetric::kRss ? "20%,32MB" : "25%,1s"));
  }
  Budget budget;
  budget.relative = parse_percentage(text.substr(0, comma),
                                     fmt::format("relative {} budget", metric_key(metric)));
  budget.absolute = parse_absolute(metric, text.substr(comma + 1));
  return budget;
}

BudgetSetting parse_budget_setting(std::string_view text) {
  const std::size_t equals = text.find('=');
  const std::string_view name = trim(text.substr(0, equals));
  BudgetSetting setting;
  const std::optional<AbMetric> metric = ab_metric_named(name);
  if (equals == std::string_view::npos || !metric) {
    throw std::invalid_argument(
        fmt::format("'{}' does not name a metric; write latency=, cpu_time= or memory= (or the "
                    "aliases duration=, cpu=, rss=) followed by RELATIVE%,ABSOLUTE, e.g. "
                    "latency=5%,1ms",
                    text));
  }
  setting.metric = *metric;
  setting.budget = parse_budget(setting.metric, text.substr(equals + 1));
  return setting;
}

std::optional<Budget> parse_instruction_budget(std::string_view text) {
  constexpr std::string_view kPrefix = "instructions=";
  if (text.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  const std::string_view value = text.substr(kPrefix.size());
  const std::size_t comma = value.find(',');
  Budget budget;
  budget.relative = parse_percentage(value.substr(0, comma), "relative instructions budget");
  if (comma != std::string_view::npos) {
    const auto count = leading_number(trim(value.substr(comma + 1)));
    if (!count || !count->second.empty() || count->first < 0) {
      throw std::invalid_argument(
          fmt::format("absolute instructions budget '{}' is not a non-negative count",
                      value.substr(comma + 1)));
    }
    budget.absolute = count->first;
  }
  return budget;
}

double parse_noise_limit(std::string_view text) {
  return parse_percentage(text, "noise limit");
}

std::string describe_budget(AbMetric metric, const Budget& budget) {
  return fmt::format("+{:g}% and {}", budget.relative * 100,
                     format_metric_value(metric, budget.absolute));
}

std::string percent_beside(double fraction, double limit, int min_decimals) {
  const std::string limit_text = fmt::format("{:g}", limit * 100);
  for (int decimals = min_decimals; decimals <= 6; ++decimals) {
    const std::string text = fmt::format("{:.{}f}", fraction * 100, decimals);
    if (fraction == limit || text != limit_text) {
      // "30.0" beside a limit of "30" reads as the same number too.
      if (fraction == limit || std::stod(text) != std::stod(limit_text)) return text;
    }
  }
  return fmt::format("{:.10g}", fraction * 100);
}

std::string format_metric_value(AbMetric metric, double value) {
  if (metric == AbMetric::kRss) {
    // Below a MB in KB (perfgate's KB and MB are 2^10 and 2^20 bytes): a 4 KiB difference
    // reads "4 KB", not "0.003906 MB".
    if (value != 0 && std::abs(value) < kMiB) {
      return std::abs(value) < 1024 ? fmt::format("{:g} B", value)
                                    : format_quantity(value / 1024, "") + " KB";
    }
    return format_quantity(value / kMiB, "MB");
  }
  return format_quantity(value, "s");
}

}  // namespace perfgate
