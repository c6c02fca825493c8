#pragma once
// What a head may cost more than its base before a pair counts against it (SPEC §7):
// a relative and an absolute allowance per metric, both of which must be exceeded.
#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace perfgate {

/// The three metrics `perfgate ab` judges, each separately.
enum class AbMetric { kDuration, kCpu, kRss };

inline constexpr std::array<AbMetric, 3> kAbMetrics = {AbMetric::kDuration, AbMetric::kCpu,
                                                       AbMetric::kRss};

/// "latency", "cpu_time", "memory": perfgate's metric names, used by --budget, the
/// scenarios file, results.json and every report.
std::string_view metric_key(AbMetric metric);
/// "duration", "cpu", "rss": the seed's names, still accepted by --budget and scenarios files.
std::string_view metric_alias(AbMetric metric);
/// The metric `name` (a metric_key or a metric_alias) names; nullopt for any other name.
std::optional<AbMetric> ab_metric_named(std::string_view name);
/// "s" (wall seconds), "s" (user + system CPU seconds), "bytes" (sampled peak RSS).
std::string_view metric_unit(AbMetric metric);

struct Budget {
  double relative = 0;  ///< fraction of the base value, 0.25 for +25%
  double absolute = 0;  ///< in the metric's unit (seconds, core-seconds or bytes)

  /// True when head - base exceeds both base * relative and absolute. Exceeding only one
  /// of them is not over budget: a large relative change of a tiny value, or a large
  /// absolute change of a huge value, is within it.
  bool exceeded_by(double base, double head) const;

  bool operator==(const Budget&) const = default;
};

/// One budget per metric, indexed by AbMetric.
struct Budgets {
  /// latency +25% and 1 s; cpu_time +20% and 0.5 s; memory +20% and 32 MB.
  static Budgets defaults();

  Budget& operator[](AbMetric metric) { return by_metric[static_cast<std::size_t>(metric)]; }
  const Budget& operator[](AbMetric metric) const {
    return by_metric[static_cast<std::size_t>(metric)];
  }

  std::array<Budget, 3> by_metric{};
  bool operator==(const Budgets&) const = default;
};

/// Default noise limit: a side whose range exceeds 30% of its median is noisy.
inline constexpr double kDefaultNoiseLimit = 0.30;

/// One "--budget METRIC=RELATIVE,ABSOLUTE" setting, e.g. "duration=5%,1ms",
/// "cpu=10%,0.1s", "rss=20%,32MiB".
struct BudgetSetting {
  AbMetric metric = AbMetric::kDuration;
  Budget budget;
};

/// Parses "METRIC=RELATIVE%,ABSOLUTE". The relative part is a percentage ("5%"); the
/// absolute part carries a unit: s, ms, µs or us for latency and cpu_time (a bare number is
/// seconds), B, KB, MB or GB for memory (binary: KiB, MiB, GiB also accepted; a bare
/// number is bytes). Throws
/// std::invalid_argument with a message that says what is wrong and how to write it.
BudgetSetting parse_budget_setting(std::string_view text);

/// The counted rounds' budget of `ab --measure instructions`: "instructions=REL%" or
/// "instructions=REL%,COUNT" (COUNT instructions, default 0). nullopt for a setting of
/// another metric; std::invalid_argument for a malformed one.
std::optional<Budget> parse_instruction_budget(std::string_view text);

/// Parses "RELATIVE%,ABSOLUTE" for a known metric (the part after '=').
Budget parse_budget(AbMetric metric, std::string_view text);

/// Parses a noise limit written as a percentage, "30%". Throws std::invalid_argument.
double parse_noise_limit(std::string_view text);

/// "+25% and 1 s", "+20% and 32 MB": a budget as a person reads it.
std::string describe_budget(AbMetric metric, const Budget& budget);

/// `fraction` as a percentage number (no sign, no '%') with at least `min_decimals` and as
/// many more decimals (up to 6) as it takes to differ visibly from `limit` (also a
/// fraction, shown with {:g}) when the two differ: 0.30004 beside 0.30 is "30.004", never
/// "30", so a reason never says "30% is over 30%".
std::string percent_beside(double fraction, double limit, int min_decimals = 0);

/// A value of `metric` in the units of every perfgate table: "213.4 ms", "500 ms", "31.5 MB"
/// (perfgate's MB is 2^20 bytes, as in raw records and thresholds).
std::string format_metric_value(AbMetric metric, double value);

}  // namespace perfgate
